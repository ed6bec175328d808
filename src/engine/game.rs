//! The contract every game implements.

use std::fmt;

use serde::{Deserialize, Serialize, de::DeserializeOwned};

use super::config::{Config, ConfigError};

/// A player's seat, 0-based in turn order from the starting player.
pub type Seat = usize;

/// Why a game ended without a winner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DrawReason {
    /// The configuration's turn cap was reached.
    TurnCap,
}

impl fmt::Display for DrawReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DrawReason::TurnCap => "turn cap",
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    Win(Seat),
    Draw(DrawReason),
}

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

/// A game's state. Contract (checked by the shared suite in `check`):
/// - `legal_actions` lists unique actions in a fixed, documented order, and
///   is empty exactly when `outcome` is `Some`;
/// - `apply` either returns the events it caused, or a `RuleError` and leaves
///   the state unchanged; it never panics on any action value;
/// - chance comes only from the state's `Chance`, so a seed and an action
///   list replay to identical states;
/// - a state serialises and reads back equal; a clone evolves like the original.
pub trait Game: Clone + PartialEq + fmt::Debug + Serialize + DeserializeOwned {
    /// The compiled catalog the state is played under.
    type Rules;
    type Action: Clone + PartialEq + Eq + Ord + fmt::Debug + Serialize + DeserializeOwned;
    type Event: Clone + PartialEq + fmt::Debug + Serialize;

    fn new(rules: &Self::Rules, config: &Config) -> Result<Self, ConfigError>;
    /// The seat that must act, `None` when the game is over.
    fn current_player(&self) -> Option<Seat>;
    /// Clears `out` and fills it with the legal actions in canonical order.
    fn legal_actions(&self, rules: &Self::Rules, out: &mut Vec<Self::Action>);
    fn apply(&mut self, rules: &Self::Rules, action: &Self::Action) -> Result<Vec<Self::Event>, RuleError>;
    fn outcome(&self) -> Option<Outcome>;
    /// Turns played so far (the unit of the turn cap).
    fn turns(&self) -> u32;
    /// How the action reads, with catalog names.
    fn describe_action(rules: &Self::Rules, action: &Self::Action) -> String;
    fn describe_event(rules: &Self::Rules, event: &Self::Event) -> String;

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
    /// A perturbed copy of an action, for the malformed-action checks; `salt`
    /// picks the perturbation.
    fn mutate_action(action: &Self::Action, salt: u32) -> Self::Action;
    /// Every catalog entity whose taking effect is counted (`building:bank`,
    /// `event:fire`, …), so entities that never take effect stand out.
    fn coverage_keys(rules: &Self::Rules) -> Vec<String>;
    /// The catalog entity an event shows taking effect, if any (one of `coverage_keys`).
    fn coverage_of(rules: &Self::Rules, event: &Self::Event) -> Option<usize>;
    /// The interpretations the engine consulted while reaching this state
    /// (since it was created or read back).
    fn consulted(&self, rules: &Self::Rules) -> Vec<String>;
}

/// A game that scenario files can drive: set-up overrides, actions and
/// expectations written with catalog ids (the YAML shapes are the game's).
pub trait Scripted: Game {
    type Setup: Clone + fmt::Debug + Serialize + DeserializeOwned;
    type ActionSpec: Clone + fmt::Debug + Serialize + DeserializeOwned;
    type Expect: Clone + fmt::Debug + Default + Serialize + DeserializeOwned;

    fn apply_setup(&mut self, rules: &Self::Rules, setup: &Self::Setup) -> Result<(), String>;
    fn action_from_spec(rules: &Self::Rules, spec: &Self::ActionSpec) -> Result<Self::Action, String>;
    fn action_to_spec(rules: &Self::Rules, action: &Self::Action) -> Self::ActionSpec;
    /// Each expectation that does not hold: (fact, expected, actual).
    fn check_expect(&self, rules: &Self::Rules, expect: &Self::Expect)
    -> Result<Vec<(String, String, String)>, String>;
    /// The final facts of a state, for a recorded scenario.
    fn record_expect(&self, rules: &Self::Rules) -> Self::Expect;
    fn describe_state(&self, rules: &Self::Rules) -> String;
    /// A decision the engine waits for from a player other than by the
    /// flow of the turn: (seat, decision name).
    fn pending_decision(&self) -> Option<(Seat, &'static str)>;
    /// Puts a forced chance outcome in front of the generator.
    fn force(&mut self, outcome: super::Forced);
    /// Forced outcomes that did not fit, and forced outcomes never used.
    fn forced_leftovers(&self) -> (Vec<super::Forced>, usize);
    /// Seat names as scenarios write them (`p1`, …).
    fn seat_of(name: &str, players: usize) -> Result<Seat, String>;
}
