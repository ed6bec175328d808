//! Dry Gulch's side of the engine contract: the state API (`Game`) and the
//! harness hooks `Describe` and `Cover`, each a thin wiring of the
//! functions in `rules` (`Check` is beside the invariants, `Scripted`
//! beside the scenario words in `scenario_io`).

use super::rules::{Action, DeferredBuilds, End, Event, Phase, State, describe_action, describe_event};
use super::rules_data::{CardKind, ReactionKey, Rules};
use crate::engine::{Cover, Describe, EndReason, Game, Outcome, RuleError, Seat, ToMove};

impl Game for State {
    crate::games::game_fields!();
    type Deferred = DeferredBuilds;

    fn to_move(&self) -> ToMove {
        if self.outcome.is_some() {
            return ToMove::Terminal;
        }
        if let Some(d) = &self.agenda.decision {
            return ToMove::Seat(d.seat());
        }
        match &self.phase {
            Phase::Residence { seat } | Phase::Draft { seat, .. } => ToMove::Seat(*seat),
            _ => ToMove::Seat(self.active),
        }
    }

    fn legal_actions(&self, rules: &Rules, out: &mut Vec<Action>) {
        self.legal_all(rules, out);
    }

    /// The `Build` actions (first in the build phase's list, and many: a
    /// payment each) are counted, and only the one picked is made.
    fn legal_deferred(&self, rules: &Rules, out: &mut Vec<Action>, found: &mut DeferredBuilds) -> usize {
        self.legal_but_builds(rules, out, found)
    }

    fn deferred_action(&self, rules: &Rules, found: &DeferredBuilds, i: usize) -> Action {
        self.deferred_build(rules, found, i)
    }

    /// The random player weighs reopening the Town Hall as one choice: the
    /// two cards it costs make many actions of one intent, which uniform
    /// play would take almost every time, so the Town Hall never stayed
    /// closed long enough for `town-hall-closed` to matter. Not a rule.
    fn play_weights(&self, _: &Rules, legal: &[Action], out: &mut Vec<u32>) {
        out.clear();
        let reopen = |a: &Action| matches!(a, Action::ReopenTownHall(_));
        let n = legal.iter().filter(|a| reopen(a)).count() as u32;
        if n > 1 {
            out.extend(legal.iter().map(|a| if reopen(a) { 1 } else { n }));
        }
    }

    fn apply(&mut self, rules: &Rules, action: &Action) -> Result<Vec<Event>, RuleError> {
        self.checked_apply(rules, action)
    }

    /// A listed action is played without looking it up again: the look-up
    /// lists every action of the node a second time (a tenth of random
    /// play's time).
    fn apply_listed(&mut self, rules: &Rules, action: &Action, events: &mut Vec<Event>) -> Result<(), RuleError> {
        events.clear();
        self.execute(rules, action, events);
        Ok(())
    }

    /// The winner is first and every other seat second (the rules rank no
    /// one else); a seat's score is its counted influence.
    fn outcome(&self, rules: &Rules) -> Option<Outcome> {
        let scores: Vec<i64> = (0..self.players).map(|s| i64::from(self.counted_influence(rules, s))).collect();
        self.outcome.map(|end| match end {
            End::Win(seat) => Outcome::winner(seat, EndReason::Goal, &scores),
            End::Draw(reason) => Outcome::no_winner(reason, &scores),
        })
    }

    fn turns(&self) -> u32 {
        self.turns
    }

    fn observation(&self, rules: &Rules, seat: Seat) -> String {
        super::scenario_io::describe_view(self, rules, Some(seat))
    }
}

impl Describe for State {
    fn describe_action(rules: &Rules, a: &Action) -> String {
        describe_action(rules, a)
    }

    fn describe_event(rules: &Rules, e: &Event) -> String {
        describe_event(rules, e)
    }
}

impl Cover for State {
    fn consulted(&self, rules: &Rules) -> Vec<String> {
        self.touched.consulted(&rules.interpretations)
    }

    fn coverage_keys(rules: &Rules) -> Vec<String> {
        let mut keys: Vec<String> = rules.buildings.iter().map(|b| format!("building:{}", b.id)).collect();
        keys.extend(rules.events.iter().map(|e| format!("event:{}", e.id)));
        keys.extend(rules.resources.iter().map(|r| format!("resource:{}", r.id)));
        keys.extend(rules.actions.iter().map(|a| format!("action:{}", a.id)));
        keys
    }

    fn coverage_of(rules: &Rules, e: &Event) -> Option<usize> {
        let nb = rules.buildings.len();
        let card_key = |c: CardKind| match rules.event_of(c) {
            Some(ev) => nb + ev,
            None => nb + rules.events.len() + c.index(),
        };
        match e {
            Event::Built { building, .. } => Some(building.index()),
            Event::InfluencePlayed { card, .. }
            | Event::DisasterPlayed { card, .. }
            | Event::EventResolved { card, .. } => Some(card_key(*card)),
            Event::InsuranceUsed { .. } => rules.reactions.get(&ReactionKey::Insurance).map(|&c| card_key(c)),
            Event::IouHandedOver { .. } => rules.reactions.get(&ReactionKey::Iou).map(|&c| card_key(c)),
            Event::AceShown { .. } => rules.reactions.get(&ReactionKey::Ace).map(|&c| card_key(c)),
            Event::CardsPaid { cards, .. } => {
                let handyman = rules.reactions.get(&ReactionKey::Handyman).copied();
                cards
                    .iter()
                    .find(|(c, _)| Some(*c) == handyman || rules.event_of(*c).is_none())
                    .map(|(c, _)| card_key(*c))
            }
            Event::ActionTaken { action, .. } => Some(nb + rules.events.len() + rules.resources.len() + action.index()),
            _ => None,
        }
    }
}
