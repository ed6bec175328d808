//! Red Dog Junction's side of the engine contract: the state API (`Game`),
//! descriptions and coverage. `Check` lives with the invariants and
//! `Scripted` with the scenario vocabulary.

use super::rules::{Action, Event, State};
use super::rules_data::Rules;
use crate::engine::{Cover, Describe, Game, Outcome, RuleError, Scripted, Seat, ToMove};

impl Game for State {
    crate::games::game_fields!();
    type Deferred = ();

    fn to_move(&self) -> ToMove {
        if self.end.is_some() {
            ToMove::Terminal
        } else if !self.rolls.is_empty() || self.first.is_none() {
            ToMove::Chance
        } else {
            ToMove::Seat(self.to_act())
        }
    }
    fn legal_actions(&self, rules: &Rules, out: &mut Vec<Action>) {
        self.legal(rules, out);
    }
    fn chance_weights(&self, rules: &Rules, out: &mut Vec<u32>) {
        out.clear();
        if self.end.is_none() && !self.rolls.is_empty() {
            out.extend((0..rules.faces).map(|_| 1));
        } else if self.end.is_none() && self.first.is_none() {
            out.extend((0..self.players).map(|_| 1));
        }
    }
    fn play_weights(&self, rules: &Rules, legal: &[Action], out: &mut Vec<u32>) {
        State::play_weights(self, rules, legal, out);
    }
    fn apply(&mut self, rules: &Rules, action: &Action) -> Result<Vec<Event>, RuleError> {
        self.checked_apply(rules, action)
    }
    fn outcome(&self, rules: &Rules) -> Option<Outcome> {
        State::outcome(self, rules)
    }
    fn turns(&self) -> u32 {
        self.turns
    }
    /// Everything is face up except the order of the deck.
    fn observation(&self, rules: &Rules, _seat: Seat) -> String {
        Scripted::describe_state(self, rules)
    }
}

impl Describe for State {
    fn describe_action(rules: &Rules, a: &Action) -> String {
        super::describe_action(rules, a)
    }
    fn describe_event(rules: &Rules, e: &Event) -> String {
        super::describe_event(rules, e)
    }
}

impl Cover for State {
    fn coverage_keys(rules: &Rules) -> Vec<String> {
        let cards = rules.cards.iter().map(|c| format!("card:{}", c.id));
        cards.chain(rules.actions.iter().map(|a| format!("action:{}", a.id))).collect()
    }
    fn coverage_of(rules: &Rules, e: &Event) -> Option<usize> {
        match e {
            Event::Bought { card, .. } => Some(card.index()),
            Event::ActionTaken { action, .. } => Some(rules.cards.len() + action.index()),
            _ => None,
        }
    }
    fn consulted(&self, rules: &Rules) -> Vec<String> {
        self.touched.consulted(&rules.interpretations)
    }
}
