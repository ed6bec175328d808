//! A run's configuration: game, player count, seed, enabled variants, one
//! chosen option per interpretation (the catalog default where not given),
//! and the turn cap. Every output names it so any result can be reproduced.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    pub game: String,
    pub players: u32,
    pub seed: u64,
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub variants: BTreeSet<String>,
    /// Interpretation id → option id; absent ids take the catalog default.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub interpretations: BTreeMap<String, String>,
    /// Stop a game as a draw after this many turns (the catalog's cap when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_cap: Option<u32>,
}

impl Config {
    pub fn new(game: &str, players: u32, seed: u64) -> Config {
        Config {
            game: game.to_string(),
            players,
            seed,
            variants: BTreeSet::new(),
            interpretations: BTreeMap::new(),
            turn_cap: None,
        }
    }

    pub fn with_variant(mut self, v: &str) -> Config {
        self.variants.insert(v.to_string());
        self
    }

    pub fn with_reading(mut self, id: &str, option: &str) -> Config {
        self.interpretations.insert(id.to_string(), option.to_string());
        self
    }

    /// Whether the configuration is for game `id` (a game's `Game::new`
    /// asks before it sets anything up).
    pub fn check_game(&self, id: &str) -> Result<(), ConfigError> {
        match self.game == id {
            true => Ok(()),
            false => Err(ConfigError::UnknownGame(self.game.clone())),
        }
    }

    /// The command-line flags that select this configuration (without the seed).
    pub fn flags(&self) -> String {
        let mut s = format!("--game {} --players {}", self.game, self.players);
        for v in &self.variants {
            s.push_str(&format!(" --variant {v}"));
        }
        for (k, v) in &self.interpretations {
            s.push_str(&format!(" --interpretation {k}={v}"));
        }
        if let Some(c) = self.turn_cap {
            s.push_str(&format!(" --turn-cap {c}"));
        }
        s
    }
}

impl fmt::Display for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} seed {}", self.flags(), self.seed)
    }
}

/// A configuration the catalog cannot run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConfigError {
    UnknownGame(String),
    Players {
        players: u32,
        min: u32,
        max: u32,
    },
    UnknownVariant(String),
    IncompatibleVariants(String, String),
    UnknownInterpretation(String),
    UnknownOption {
        interpretation: String,
        option: String,
        options: Vec<String>,
    },
    /// A change to the turn that this combination of readings cannot make
    /// (it names a step an earlier change removed).
    Turn {
        by: String,
        why: String,
    },
    /// Two changes of a configuration (a variant's, an option's) set one
    /// number to different values: `(by, value)` of each, in the order
    /// they apply.
    Clash {
        number: String,
        first: (String, u32),
        second: (String, u32),
    },
    /// Two variants or options of one configuration replace the `what`
    /// (`effect` or `condition`) of one entity, in the order they apply.
    Replaced {
        what: &'static str,
        entity: String,
        first: String,
        second: String,
    },
    /// Numbers the readings set that the game cannot play with (a deck
    /// too small to deal every hand, say).
    Numbers(String),
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::UnknownGame(g) => write!(f, "unknown game `{g}`"),
            ConfigError::Players { players, min, max } => {
                write!(f, "{players} players is outside the game's range {min}–{max}")
            }
            ConfigError::UnknownVariant(v) => {
                write!(f, "unknown variant `{v}`; `rulecheck explain` lists the variants")
            }
            ConfigError::IncompatibleVariants(a, b) => {
                write!(f, "variants `{a}` and `{b}` are declared incompatible")
            }
            ConfigError::UnknownInterpretation(i) => {
                write!(f, "unknown interpretation `{i}`; `rulecheck explain` lists them")
            }
            ConfigError::UnknownOption { interpretation, option, options } => {
                write!(
                    f,
                    "interpretation `{interpretation}` has no option `{option}`; its options: {}",
                    options.join(", ")
                )
            }
            ConfigError::Turn { by, why } => write!(f, "{by} cannot change the turn of this configuration: {why}"),
            ConfigError::Clash { number, first, second } => write!(
                f,
                "{} sets `{number}` to {}, but {} sets it to {}; one configuration cannot play both ({})",
                first.0,
                first.1,
                second.0,
                second.1,
                clash_fix(&first.0)
            ),
            ConfigError::Replaced { what, entity, first, second } => write!(
                f,
                "{first} replaces the {what} of `{entity}`, and so does {second}; one configuration cannot play both ({})",
                clash_fix(first)
            ),
            ConfigError::Numbers(why) => write!(f, "this configuration's numbers cannot be played: {why}"),
        }
    }
}

/// How to leave one of two clashing changes out: variants apply first,
/// so only the first of the two can be one.
fn clash_fix(first: &str) -> &'static str {
    match first.starts_with("variant") {
        true => "leave the variant off, or choose another option",
        false => "choose another option of one of them",
    }
}

impl std::error::Error for ConfigError {}
