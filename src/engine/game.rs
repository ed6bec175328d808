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
}
