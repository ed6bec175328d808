//! The raw YAML shapes of a Red Dog Junction catalog: they only parse;
//! `catalog` lowers them.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::catalog::common::{Key, Names, RawCitation};
use crate::catalog::folder::RawGameSection;
use crate::yaml::Spanned;

/// Provenance fields every record carries (declared per record, not
/// flattened, so serde-saphyr keeps locations).
pub use crate::catalog::common::Assumed;

/// An effect as written: compiled by `lang` at load.
pub type RawEffect = crate::lang::Node;

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GameFile {
    pub game: RawGameSection,
    pub setup: SetupSection,
    pub turn: TurnNumbers,
    pub ship: ShipNumbers,
    pub crew: CrewNumbers,
    pub end: EndNumbers,
    pub limits: LimitNumbers,
    pub solo: SoloNumbers,
    pub drafts: DraftNumbers,
}

crate::numbered! {
    [#[serde(default)]] [#[serde(default)]]
    SetupSection [starting_gold: BTreeMap<u32, Spanned<u32>>, gold_to_box: BTreeMap<u32, Spanned<u32>>] {
        display, gold_die_start
    }
    TurnNumbers { actions }
    ShipNumbers { capacity_per_cowboy }
    CrewNumbers { swap_per_outlaw }
    EndNumbers { countdown_turns }
    LimitNumbers { turn_cap }
    DraftNumbers { trail_boss_officers, trail_boss_picks, posse_cowboys, posse_hand }
    SoloNumbers { actions, automa_capacity, automa_salvage, automa_mine, automa_swap, automa_deal_gold, automa_boost_gold }
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ComponentsFile {
    pub commodities: Listed<RawCommodity>,
    pub locations: Listed<RawLocation>,
    pub dice: RawDice,
    pub super_deals: RawDeals,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, bound(deserialize = "T: Deserialize<'de>"))]
pub struct Listed<T> {
    pub entries: Vec<T>,
    #[serde(default)]
    pub source: Vec<RawCitation>,
    #[serde(default)]
    pub assumed: Assumed,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawCommodity {
    pub id: Spanned<String>,
    #[serde(default)]
    pub names: Names,
    pub copies: Spanned<u32>,
    pub starts: Spanned<String>,
    #[serde(default)]
    pub role: Option<Spanned<String>>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawLocation {
    pub id: Spanned<String>,
    #[serde(default)]
    pub names: Names,
    pub kind: Spanned<String>,
    pub docks: Spanned<u32>,
    #[serde(default)]
    pub mines: Option<Spanned<String>>,
    #[serde(default)]
    pub seat: Option<Spanned<u32>>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawDice {
    pub faces: Spanned<u32>,
    pub gold_faces: Spanned<u32>,
    pub entries: Vec<RawDie>,
    pub docks: Vec<RawDockDice>,
    #[serde(default)]
    pub source: Vec<RawCitation>,
    #[serde(default)]
    pub assumed: Assumed,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawDie {
    pub commodity: Spanned<String>,
    pub place: Spanned<u32>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawDockDice {
    pub dock: Spanned<u32>,
    pub places: Vec<Spanned<u32>>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawDeals {
    pub piles: Vec<RawPile>,
    #[serde(default)]
    pub source: Vec<RawCitation>,
    #[serde(default)]
    pub assumed: Assumed,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawPile {
    pub id: Spanned<String>,
    #[serde(default)]
    pub names: Names,
    pub gold: Spanned<u32>,
    pub tiles: Spanned<u32>,
    pub prices: Vec<BTreeMap<Key, Spanned<u32>>>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CardsFile {
    pub cards: Vec<RawCard>,
}

// ------------------------------------------------------------- overlays

crate::game_overlay! {
    /// An overlay's `game.yaml`: the sections it replaces whole (the `game:`
    /// section is the base catalog's; the overlay's header adds documents
    /// and languages).
    GameFile => OverlayGameFile {
        setup: SetupSection,
        turn: TurnNumbers,
        ship: ShipNumbers,
        crew: CrewNumbers,
        end: EndNumbers,
        limits: LimitNumbers,
        solo: SoloNumbers,
        drafts: DraftNumbers,
    }
}

crate::records! {
    [#[serde(default)]]
    [#[serde(default)]]
    [#[serde(default)]]
    RawCard {
        class: Spanned<String>,
        ability: Spanned<String>,
        copies: Spanned<u32>,
        starting: Spanned<u32>,
        cost: Vec<BTreeMap<Key, Spanned<u32>>>,
        points: Spanned<u32>,
        /// What an Officer's action or a played Boost does, in the effect
        /// language (`lang`; the game's operations are in `effects`).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        effect: Vec<RawEffect>,
    }
}
