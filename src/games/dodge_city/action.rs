//! Dodge City's actions, declared once: the engine plays them, and a
//! scenario writes them with catalog ids (`engine::names`; the shapes no
//! derive writes are in `scenario_io`).

use serde::{Deserialize, Serialize};

use super::rules_data::{Bld, CardId, Sq};
use crate::lang::declared::Act;

/// An action as a scenario writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
#[schemars(rename = "ActionSpec")]
pub enum Action {
    /// `{pick: {seat: p1, card: lady-3}}`: a Marshal-round card, face down.
    Pick {
        #[serde(with = "crate::engine::names::seat")]
        #[schemars(with = "String")]
        seat: u8,
        card: CardId,
    },
    /// `{play: lady-3}`: the card of a placing turn.
    #[serde(with = "crate::engine::names::bare")]
    #[schemars(with = "String")]
    Play {
        card: CardId,
    },
    /// `{open: saloon}`: the building a picture card's symbol goes on.
    #[serde(with = "crate::engine::names::bare")]
    #[schemars(with = "String")]
    Open {
        building: Bld,
    },
    #[serde(with = "super::scenario_io::at")]
    #[schemars(with = "super::scenario_io::At")]
    Place {
        building: Bld,
        square: Sq,
    },
    #[serde(with = "super::scenario_io::at")]
    #[schemars(with = "super::scenario_io::At")]
    Remove {
        building: Bld,
        square: Sq,
    },
    #[serde(with = "super::scenario_io::at")]
    #[schemars(with = "super::scenario_io::At")]
    Buy {
        building: Bld,
        square: Sq,
    },
    EndTurn,
    Challenge {
        #[serde(with = "crate::engine::names::seat")]
        #[schemars(with = "String")]
        opponent: u8,
        building: Bld,
    },
    Pass,
    #[serde(with = "super::scenario_io::at")]
    #[schemars(with = "super::scenario_io::At")]
    Take {
        building: Bld,
        square: Sq,
    },
    /// `decline`: the duel's winner leaves the loser's tokens (under
    /// `duel-take: may-decline`).
    Decline,
    #[serde(with = "super::scenario_io::at")]
    #[schemars(with = "super::scenario_io::At")]
    Sell {
        building: Bld,
        square: Sq,
    },
    /// `{choose: sell-the-herd}`: an option of an event's `choose`, by its id.
    // `choice` and `option` are positions in `rules.choices`.
    #[serde(with = "crate::engine::names::option")]
    #[schemars(with = "String")]
    Choose {
        choice: u32,
        option: u32,
    },
    /// `{action: sheriffs-tax}`: an action a house rule declares (`actions:`), by its id.
    #[serde(rename = "action")]
    Declared(Act),
}
