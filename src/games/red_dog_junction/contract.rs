//! Red Dog Junction's side of the engine contract: thin wiring of
//! `rules`, `play`, `invariants` and `scenario_io`.

use super::invariants;
use super::rules::{Action, Event, State};
use super::rules_data::Rules;
use super::scenario_io::{self, ActionSpec, Expect, SetupSpec};
use crate::engine::{
    Check, Config, ConfigError, Cover, Describe, Forced, Game, InvariantDef, Outcome, RuleError, Scripted, Seat,
    ToMove, Violation,
};

impl Game for State {
    type Rules = Rules;
    type Action = Action;
    type Event = Event;

    fn new(rules: &Rules, config: &Config) -> Result<State, ConfigError> {
        if config.game != rules.id {
            return Err(ConfigError::UnknownGame(config.game.clone()));
        }
        State::setup(rules, config)
    }
    fn players(&self) -> usize {
        self.players
    }
    fn to_move(&self) -> ToMove {
        if self.end.is_some() {
            ToMove::Terminal
        } else if !self.rolls.is_empty() {
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
        if !self.rolls.is_empty() && self.end.is_none() {
            out.extend((0..rules.faces).map(|_| 1));
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
        scenario_io::describe_state(self, rules)
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

impl Check for State {
    type Before = invariants::Before;
    fn before(&self) -> invariants::Before {
        invariants::before(self)
    }
    fn invariants() -> &'static [InvariantDef] {
        invariants::INVARIANTS
    }
    fn check_invariants(
        &self,
        rules: &Rules,
        b: &invariants::Before,
        a: &Action,
        ev: &[Event],
    ) -> Result<(), Violation> {
        invariants::check(self, rules, b, a, ev)
    }
    fn inject_fault(&mut self, fault: &str) -> bool {
        invariants::set_fault(self, fault)
    }
    fn faults() -> &'static [&'static str] {
        invariants::FAULTS
    }
    fn mutate_action(action: &Action, salt: u32) -> Action {
        invariants::mutate(action, salt)
    }
}

impl Cover for State {
    fn coverage_keys(rules: &Rules) -> Vec<String> {
        rules.cards.iter().map(|c| format!("card:{}", c.id)).collect()
    }
    fn coverage_of(_rules: &Rules, e: &Event) -> Option<usize> {
        match e {
            Event::Bought { card, .. } => Some(card.index()),
            _ => None,
        }
    }
    fn consulted(&self, rules: &Rules) -> Vec<String> {
        self.touched.consulted(&rules.interpretations)
    }
}

impl Scripted for State {
    type Setup = SetupSpec;
    type ActionSpec = ActionSpec;
    type Expect = Expect;

    fn apply_setup(&mut self, rules: &Rules, setup: &SetupSpec) -> Result<(), String> {
        State::apply_setup(self, rules, setup)
    }
    fn action_from_spec(rules: &Rules, spec: &ActionSpec) -> Result<Action, String> {
        scenario_io::action_from_spec(rules, spec)
    }
    fn action_to_spec(rules: &Rules, action: &Action) -> ActionSpec {
        scenario_io::action_to_spec(rules, action)
    }
    fn check_expect(&self, rules: &Rules, e: &Expect) -> Result<Vec<(String, String, String)>, String> {
        Ok(scenario_io::check_expect(self, rules, e))
    }
    fn record_expect(&self, rules: &Rules) -> Expect {
        scenario_io::facts(self, rules)
    }
    fn describe_state(&self, rules: &Rules) -> String {
        scenario_io::describe_state(self, rules)
    }
    fn pending_decision(&self) -> Option<(usize, &'static str)> {
        (self.to_act() != self.active && self.end.is_none()).then_some((self.to_act(), "swap-take"))
    }
    fn force(&mut self, outcome: Forced) {
        self.chance.force(outcome);
    }
    fn forced_leftovers(&self) -> (Vec<Forced>, usize) {
        (self.chance.misfits().to_vec(), self.chance.unused_forced())
    }
    fn seat_of(name: &str, players: usize) -> Result<usize, String> {
        scenario_io::seat_of(name, players)
    }
}
