//! The contract every game implements.

use std::fmt;

use serde::{Deserialize, Serialize, de::DeserializeOwned};

use super::chance::{Chance, Forced};
use super::config::{Config, ConfigError};
use super::facts::Facts;
use super::outcome::{Outcome, Seat, ToMove};
use super::unapplied::Unapplied;

/// An illegal action: names the rule (a catalog id) and the rulebook place,
/// and says what is wrong. The state is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleError {
    /// The catalog id of the rule, e.g. `dry-gulch/build.payment`.
    pub rule: String,
    /// The rulebook place, e.g. `dry-gulch-en § Building 1`.
    pub source: String,
    pub message: String,
}

impl RuleError {
    pub fn new(rule: &str, source: &str, message: impl Into<String>) -> RuleError {
        RuleError { rule: rule.to_string(), source: source.to_string(), message: message.into() }
    }
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({}): {}", self.rule, self.source, self.message)
    }
}

impl std::error::Error for RuleError {}

/// The rules a game's errors name: its typed rules (declared with
/// [`switches!`](crate::switches), `readings::R`), each with the places the
/// catalog's `game.rules` gives it, and the one maker of their errors
/// (`game/rule (places): message`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RuleBook {
    game: String,
    ids: &'static [&'static str],
    places: Vec<String>,
}

impl RuleBook {
    /// Game `game`'s rules `ids` (in the typed rules' order), with the
    /// places of each in the same order.
    pub fn new(game: &str, ids: &'static [&'static str], places: Vec<String>) -> RuleBook {
        RuleBook { game: game.to_string(), ids, places }
    }

    /// The error under `rule` (a typed rule, or its index).
    pub fn error(&self, rule: impl Into<usize>, message: impl Into<String>) -> RuleError {
        let i = rule.into();
        let id = self.ids.get(i).copied().unwrap_or("?");
        RuleError::new(&format!("{}/{id}", self.game), self.places.get(i).map_or("", String::as_str), message)
    }

    /// The game whose rules these are.
    pub fn game(&self) -> &str {
        &self.game
    }

    /// Each rule as an error names it (`dry-gulch/build.payment`), with its places.
    pub fn cited(&self) -> Vec<(String, String)> {
        self.ids.iter().zip(&self.places).map(|(id, at)| (format!("{}/{id}", self.game), at.clone())).collect()
    }
}

/// A named invariant a game declares, with its rulebook source and the
/// fault that proves the check can fail.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct InvariantDef {
    pub name: &'static str,
    /// The invariant in one line.
    pub statement: &'static str,
    pub source: &'static str,
    /// The fault (see `Game::inject_fault`) that breaks exactly this invariant.
    pub fault: &'static str,
}

/// Declares a game's invariant table: `INVARIANTS` (name, statement,
/// rulebook place, the fault that breaks it), `FAULTS` in the same order,
/// and `fault_named`, which maps a fault's name to the game's `$fault`
/// enum. One line per invariant, so an invariant without its fault cannot
/// be written.
#[macro_export]
macro_rules! invariant_table {
    ($fault:ident; $($name:literal : $statement:literal, $source:literal, $f:literal => $var:ident;)+) => {
        pub const INVARIANTS: &[$crate::engine::InvariantDef] = &[$(
            $crate::engine::InvariantDef { name: $name, statement: $statement, source: $source, fault: $f }
        ),+];
        pub const FAULTS: &[&str] = &[$($f),+];
        /// The planted fault of this name, if the game has one.
        pub fn fault_named(name: &str) -> Option<$fault> {
            match name {
                $($f => Some($fault::$var),)+
                _ => None,
            }
        }
    };
}

/// A broken invariant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Violation {
    pub invariant: &'static str,
    pub detail: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invariant `{}` broken: {}", self.invariant, self.detail)
    }
}

/// A game's state: the state API every game implements (OpenSpiel's is
/// the model). Contract (checked by the shared suite in `check`):
/// - `to_move` says who acts: one seat, seats choosing at once, chance, or
///   nobody; `legal_actions` lists unique actions in a fixed, documented
///   order, and is empty exactly when `to_move` is `Terminal`, which is
///   exactly when `outcome` is `Some`;
/// - at a simultaneous node the list holds the actions of every seat still
///   choosing, each seat has one at least, and a seat's choice changes no
///   other seat's observation or legal actions until all have chosen;
/// - at a chance node the list holds the outcomes and `chance_weights` their
///   positive weights, aligned; at a seat's node `play_weights` is empty or
///   a positive weight per legal action (the random player's policy);
/// - `apply` either returns the events it caused, or a `RuleError` and leaves
///   the state unchanged; it never panics on any action value;
/// - chance comes only from chance nodes and the state's `Chance`, so a seed
///   and an action list replay to identical states;
/// - a state serialises and reads back equal; a clone evolves like the original.
///
/// What the harness needs besides (descriptions, invariants and faults,
/// coverage) are the separate traits `Describe`, `Check` and `Cover`.
pub trait Game: Clone + PartialEq + fmt::Debug + Serialize + DeserializeOwned {
    /// The compiled catalog the state is played under.
    type Rules;
    type Action: Clone + PartialEq + Eq + Ord + std::hash::Hash + fmt::Debug + Serialize + DeserializeOwned;
    type Event: Clone + PartialEq + fmt::Debug + Serialize;
    /// What `legal_deferred` found out about the actions it left out, which
    /// `deferred_action` reads instead of finding it out again (Dry Gulch:
    /// each building the builds are of, with how many it has); `()` for a
    /// game that defers nothing.
    type Deferred: Default;

    fn new(rules: &Self::Rules, config: &Config) -> Result<Self, ConfigError>;
    /// How many seats play.
    fn players(&self) -> usize;
    /// Who acts next.
    fn to_move(&self) -> ToMove;
    /// Clears `out` and fills it with the legal actions in canonical order:
    /// the seat's on move, every choosing seat's (by seat) at a simultaneous
    /// node, the outcomes at a chance node.
    fn legal_actions(&self, rules: &Self::Rules, out: &mut Vec<Self::Action>);
    /// The legal list a random pick needs, where a game may leave out the
    /// actions it lists first: clears `out`, fills it with the legal
    /// actions after the first `n` and returns `n`; `deferred_action` makes
    /// one of those, from what this call wrote in `deferred`. A game
    /// defers only at a seat's node where `play_weights` gives no weights
    /// (the pick is uniform over all `n + out.len()`), so a seed picks as
    /// it would from the whole list. The default defers nothing.
    fn legal_deferred(&self, rules: &Self::Rules, out: &mut Vec<Self::Action>, deferred: &mut Self::Deferred) -> usize {
        let _ = deferred;
        self.legal_actions(rules, out);
        0
    }
    /// The `i`-th legal action, `i` below the count `legal_deferred` left
    /// out, given what that call wrote in `deferred` for this state (so
    /// the actions before the one are not worked out again).
    fn deferred_action(&self, rules: &Self::Rules, deferred: &Self::Deferred, i: usize) -> Self::Action {
        let _ = deferred;
        let mut all = Vec::new();
        self.legal_actions(rules, &mut all);
        all.swap_remove(i)
    }
    /// At a chance node, clears `out` and fills it with the weight of each
    /// outcome, aligned with `legal_actions`. A game without chance nodes
    /// (its chance hidden in `apply`, drawn from its `Chance`) keeps the default.
    fn chance_weights(&self, rules: &Self::Rules, out: &mut Vec<u32>) {
        let _ = rules;
        out.clear();
    }
    /// At a seat's node, clears `out` and, if the game gives the random
    /// player a policy, fills it with a positive weight for each legal
    /// action, aligned with `legal`. A weight is a preference of random
    /// playouts, never a rule: every legal action keeps a positive weight, so
    /// every legal line of play stays reachable (the suite checks it). The
    /// default (empty) chooses uniformly among the legal actions. Scripted
    /// choices (replays, shrinking) are indices into `legal` and ignore it.
    fn play_weights(&self, rules: &Self::Rules, legal: &[Self::Action], out: &mut Vec<u32>) {
        let _ = (rules, legal);
        out.clear();
    }
    /// Who takes `action` at this node: the seat on move, the seat it belongs
    /// to at a simultaneous node, `None` for a chance outcome or at the end.
    fn actor(&self, action: &Self::Action) -> Option<Seat> {
        let _ = action;
        match self.to_move() {
            ToMove::Seat(s) => Some(s),
            _ => None,
        }
    }
    fn apply(&mut self, rules: &Self::Rules, action: &Self::Action) -> Result<Vec<Self::Event>, RuleError>;
    /// `apply` for an action the caller took from this very state's legal
    /// list (`legal_actions`, or `legal_deferred` and `deferred_action`): a
    /// game may skip the legality check `apply` makes, the list having made
    /// it. Random play outside the contract suite calls this; the contract
    /// suite calls `apply` on every listed action (`legal-accepted`), so a
    /// list and a check that disagree are still found. The events replace
    /// what `events` held: random play keeps one buffer for a whole game
    /// instead of a list per action. The default is `apply`.
    fn apply_listed(
        &mut self,
        rules: &Self::Rules,
        action: &Self::Action,
        events: &mut Vec<Self::Event>,
    ) -> Result<(), RuleError> {
        *events = self.apply(rules, action)?;
        Ok(())
    }
    /// How the game ended (places, scores, reason); `None` while it goes on.
    fn outcome(&self, rules: &Self::Rules) -> Option<Outcome>;
    /// Turns played so far (the unit of the turn cap).
    fn turns(&self) -> u32;
    /// What `seat` may see of the state, in a few lines: hidden information
    /// (other hands, face-down choices, the order of decks) left out.
    fn observation(&self, rules: &Self::Rules, seat: Seat) -> String;

    /// The one seat on move, if one seat is.
    fn current_player(&self) -> Option<Seat> {
        match self.to_move() {
            ToMove::Seat(s) => Some(s),
            _ => None,
        }
    }
    fn is_over(&self) -> bool {
        self.to_move() == ToMove::Terminal
    }
}

/// How actions and events read, with catalog names (transcripts, errors,
/// counterexamples).
pub trait Describe: Game {
    fn describe_action(rules: &Self::Rules, action: &Self::Action) -> String;
    fn describe_event(rules: &Self::Rules, event: &Self::Event) -> String;
}

/// A game's own invariants and the faults that prove each can fail.
pub trait Check: Game {
    /// What the transition invariants need to remember from before an action.
    type Before;
    fn before(&self) -> Self::Before;
    /// The game's invariants, in the order `check_invariants` tests them.
    fn invariants() -> &'static [InvariantDef];
    /// Checks every invariant after `action` (with `events`) led here from `before`.
    fn check_invariants(
        &self,
        rules: &Self::Rules,
        before: &Self::Before,
        action: &Self::Action,
        events: &[Self::Event],
    ) -> Result<(), Violation>;
    /// Breaks a rule on purpose (tests and `fuzz --fault` only); `false` for an unknown name.
    fn inject_fault(&mut self, fault: &str) -> bool;
    /// The names `inject_fault` accepts.
    fn faults() -> &'static [&'static str];
}

/// What took effect, for coverage and reachability reports.
pub trait Cover: Game {
    /// Every catalog entity whose taking effect is counted (`building:bank`,
    /// `event:fire`, …), so entities that never take effect stand out.
    fn coverage_keys(rules: &Self::Rules) -> Vec<String>;
    /// The catalog entity an event shows taking effect, if any (one of `coverage_keys`).
    fn coverage_of(rules: &Self::Rules, event: &Self::Event) -> Option<usize>;
    /// The interpretations the engine consulted while reaching this state
    /// (since it was created or read back).
    fn consulted(&self, rules: &Self::Rules) -> Vec<String>;
}

/// A game with every harness hook: what `check`, `fuzz`, `diff` and
/// scenarios take.
pub trait Harnessed: Game + Describe + Check + Cover {}

impl<G: Game + Describe + Check + Cover> Harnessed for G {}

/// A game that scenario files can drive: set-up overrides, actions and
/// expectations written with catalog ids (the YAML shapes are the game's).
pub trait Scripted: Harnessed {
    type Setup: Clone + fmt::Debug + Serialize + DeserializeOwned;
    type ActionSpec: Clone + fmt::Debug + Serialize + DeserializeOwned;
    type Expect: Clone + fmt::Debug + Default + Serialize + DeserializeOwned;

    /// Applies a scenario's set-up overrides, or says which entry of
    /// `setup:` cannot be applied (`Unapplied::path`), and why.
    fn apply_setup(&mut self, rules: &Self::Rules, setup: &Self::Setup) -> Result<(), Unapplied>;
    /// The action a step writes, or why it names none (`Unapplied::path`:
    /// what in the step's `do:` is at fault).
    fn action_from_spec(rules: &Self::Rules, spec: &Self::ActionSpec) -> Result<Self::Action, Unapplied>;
    fn action_to_spec(rules: &Self::Rules, action: &Self::Action) -> Self::ActionSpec;
    /// Each expectation that does not hold: (fact, expected, actual); an
    /// expectation naming no fact of the state is an error.
    fn check_expect(
        &self,
        rules: &Self::Rules,
        expect: &Self::Expect,
    ) -> Result<Vec<(String, String, String)>, Unapplied> {
        self.facts(rules).unmet(expect)
    }
    /// The final facts of a state, for a recorded scenario.
    fn record_expect(&self, rules: &Self::Rules) -> Self::Expect;
    /// Every fact of a state an expectation can name, in its words: what
    /// `check_expect` compares and where `diff` says two games part.
    fn facts(&self, rules: &Self::Rules) -> Facts {
        Facts::of(&self.record_expect(rules))
    }
    fn describe_state(&self, rules: &Self::Rules) -> String;
    /// A decision the engine waits for from a player other than by the
    /// flow of the turn: (seat, decision name).
    fn pending_decision(&self) -> Option<(Seat, &'static str)>;
    /// The state's chance, where a scenario forces outcomes (`None`: the
    /// game draws nothing a scenario can force).
    fn chance(&mut self) -> Option<&mut Chance>;
    /// Puts a forced chance outcome in front of the generator.
    fn force(&mut self, outcome: Forced) {
        if let Some(c) = self.chance() {
            c.force(outcome);
        }
    }
    /// Forced outcomes that did not fit, and forced outcomes never used.
    fn forced_leftovers(&mut self) -> (Vec<Forced>, usize) {
        self.chance().map_or_else(Default::default, |c| (c.misfits().to_vec(), c.unused_forced()))
    }
    /// The seat a scenario names (`p1` … `pN`).
    fn seat_of(name: &str, players: usize) -> Result<Seat, String> {
        seat_of(name, players)
    }
}

/// How a scenario names a seat: `p1` for seat 0 (`seat_of` reads it back).
pub fn seat_name(seat: Seat) -> String {
    format!("p{}", seat + 1)
}

/// The seat `p1` … `pN` of a `players`-seat game names, or why it names none.
pub fn seat_of(name: &str, players: usize) -> Result<Seat, String> {
    let n: usize = name
        .strip_prefix('p')
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| format!("`{name}` is not a seat; write p1, p2, …"))?;
    if n == 0 || n > players {
        return Err(format!("seat `{name}` does not exist with {players} players"));
    }
    Ok(n - 1)
}
