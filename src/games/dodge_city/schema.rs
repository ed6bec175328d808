//! The raw serde shapes of the Dodge City catalog files (`rules/dodge-city/`).
//! They only parse; `catalog.rs` lowers them into checked `Rules`.
//!
//! Files: `game.yaml`, `cards.yaml`, `buildings.yaml`, `events.yaml`,
//! `interpretations.yaml`. Every record carries `source:` (citations) and
//! `assumed:` (number field → reason); a number field not named in
//! `assumed` is cited by `source`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::catalog::common::{RawCitation, RawInterpretationsFile};
use crate::catalog::folder::RawGameSection;
use crate::yaml::Spanned;

pub type RawEffect = crate::lang::Node;
pub type InterpretationsFile = RawInterpretationsFile<RawEffect>;

// ------------------------------------------------------------- game.yaml

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GameFile {
    pub game: RawGameSection,
    pub setup: SetupSection,
    pub rules: RulesSection,
    pub round: RoundSection,
}

/// The round: its steps in the order they play, each one of the
/// procedures the code registers (`readings::Proc`).
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RoundSection {
    pub phases: Vec<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub source: Vec<RawCitation>,
}

crate::numbered! {
    [#[serde(default, skip_serializing_if = "Vec::is_empty")]]
    [#[serde(default, skip_serializing_if = "BTreeMap::is_empty")]]
    SetupSection { money, hand, tokens }
    RulesSection {
        goal_points,
        number_card_pay,
        buy_per_building,
        indio_removes,
        control_fields,
        sale_percent,
        picture_tokens,
        money_per_point,
        round_cap,
    }
}

// ------------------------------------------------------------ cards.yaml

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CardsFile {
    /// From the highest rank down.
    pub symbols: Vec<RawSymbol>,
    pub cards: Vec<RawCard>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum RawCardKind {
    Number,
    Picture,
    Question,
    Indio,
}

// --------------------------------------------------------- buildings.yaml

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BuildingsFile {
    pub buildings: Vec<RawBuilding>,
    pub boards: BoardsSection,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BoardsSection {
    pub boards: Vec<RawBoard>,
    /// Player count → the boards laid out.
    pub by_players: BTreeMap<u32, Vec<Spanned<String>>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub source: Vec<RawCitation>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub assumed: crate::catalog::common::Assumed,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawBoard {
    pub id: Spanned<String>,
    pub buildings: Vec<Spanned<String>>,
}

// ------------------------------------------------------------ events.yaml

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EventsFile {
    pub events: Vec<RawEvent>,
}

// ------------------------------------------------------------- overlays

crate::game_overlay! {
    /// An overlay's `game.yaml`: the sections it replaces whole.
    GameFile => OverlayGameFile { setup: SetupSection, rules: RulesSection, round: RoundSection }
}

// ------------------- the records of cards.yaml, buildings.yaml and events.yaml

crate::records! {
    []
    [#[serde(default, skip_serializing_if = "Vec::is_empty")]]
    [#[serde(default, skip_serializing_if = "BTreeMap::is_empty")]]
    RawSymbol {
        /// Dollars one token costs in a building of this symbol.
        price: Spanned<u32>,
        /// What its point disc is worth.
        points: Spanned<u32>,
        /// How many point discs of it there are.
        discs: Spanned<u32>,
    }

    RawCard {
        kind: Spanned<RawCardKind>,
        /// The symbol of a number or picture card.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        symbol: Option<Spanned<String>>,
        /// The printed value (the tie-break within a symbol).
        value: Spanned<u32>,
        copies: Spanned<u32>,
    }

    RawBuilding {
        /// Rows, top first: `.` a square, `*` a special field, a space none.
        squares: Vec<Spanned<String>>,
    }

    RawEvent {
        copies: Spanned<u32>,
        effect: Vec<RawEffect>,
    }
}

impl crate::catalog::common::Provenance for RoundSection {
    fn source(&self) -> &[RawCitation] {
        &self.source
    }
}
