//! The raw serde shapes of the Dry Gulch catalog files (`rules/dry-gulch/`).
//! They only parse; `catalog.rs` lowers them into checked `Rules`.
//!
//! Files: `game.yaml`, `resources.yaml`, `buildings.yaml`, `events.yaml`,
//! `board.yaml`, `variants.yaml`, `interpretations.yaml`.
//!
//! Every record carries `source:` (citations) and `assumed:` (number field →
//! reason); a number field not named in `assumed` is cited by `source`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::catalog::common::RawCitation;
use crate::catalog::folder::RawGameSection;
use crate::yaml::Spanned;

// ------------------------------------------------------------- game.yaml

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GameFile {
    pub game: RawGameSection,
    pub setup: SetupSection,
    pub turn: TurnSection,
    pub components: ComponentsSection,
    pub limits: LimitsSection,
    /// Named facts of the game that effects can set and conditions can test
    /// (for example `wells-fargo-arrived`).
    #[serde(default)]
    pub flags: Vec<Spanned<String>>,
}

crate::numbered! {
    [#[serde(default, skip_serializing_if = "Vec::is_empty")]]
    [
        /// Number field → the reason its number(s) had to be assumed.
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    ]
    SetupSection [
        /// Family chips per player, by player count: `{3: 17, 4: 15, ...}`.
        chips: BTreeMap<u32, Spanned<u32>>,
    ] {
        /// Chips placed on the Residence at set-up.
        chips_on_residence,
        deal_resources,
        deal_permits,
        /// Permits each player ends the advanced set-up draft with.
        draft_permits,
    }
    TurnSection [
        /// The steps of a turn in order, each naming one of the procedures the
        /// code registers (`readings::PROCEDURES`).
        phases: Vec<Spanned<String>>,
    ] {
        events_revealed,
        events_discarded,
        /// Rounds at the start of the game in which no events are drawn.
        rounds_without_events,
        draw_resources,
        /// Permits taken from the face-down deck when drawing a permit (one is kept).
        permits_from_deck,
        bank_resources,
        bank_permits,
        hand_limit,
        /// Resource cards the owner of a building named by an influence card draws.
        influence_card_reward,
        /// Cards discarded to reopen a closed Town Hall (optional rule 2).
        town_hall_reopen_cards,
        /// Cards the General Store lets its owner use as a Good per turn, per store.
        general_store_cards,
        /// Labor requirements one Labor card pays (`labor-card-value` sets it).
        labor_card_units,
    }
    ComponentsSection { resource_cards, event_cards, permits, chips, colours, damage_markers }
    LimitsSection {
        /// Turns after which a game is stopped as a draw (`turn-cap`), unless the
        /// configuration sets another cap.
        turn_cap,
        /// Fixed influence threshold used by the `fixed` win-threshold reading.
        fixed_win_threshold,
    }
}

crate::game_overlay! {
    /// `game.yaml` in a house-rules overlay: the sections it replaces.
    GameFile => OverlayGameFile {
        setup: SetupSection,
        turn: TurnSection,
        components: ComponentsSection,
        limits: LimitsSection,
    }
}

// ------------------- the records of resources.yaml, buildings.yaml and events.yaml

crate::records! {
    []
    [#[serde(default, skip_serializing_if = "Vec::is_empty")]]
    [
        /// Number field → the reason its number(s) had to be assumed.
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    ]
    RawResource {
        kind: ResourceKind,
        /// What the engine knows this resource as (see `ResourceRole`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        role: Option<ResourceRole>,
        /// Copies of this card in the resource deck.
        copies: Spanned<u32>,
        /// Cards needed to replace one missing resource of this type, per
        /// language's table (`~` where a table leaves it blank).
        substitution: Substitution,
    }

    RawBuilding {
        /// Resource ids it costs; a resource listed twice is needed twice.
        #[serde(default)]
        cost: Vec<Spanned<String>>,
        influence: u32,
        /// A corner building goes only on corner plots; others only on middle or
        /// street-end plots.
        corner: bool,
        /// Copies of its permit in the permit deck.
        permits: Spanned<u32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ability: Option<Ability>,
        /// While this condition holds, another copy may be built beside one
        /// that stands (each with a permit of its own, never more copies than
        /// the building has permits); otherwise each building stands once.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        repeat: Option<RawCondition>,
        /// While `when` holds, this building and `building` are one building:
        /// once either stands, the other cannot be built.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        same_as: Option<RawSameAs>,
    }

    RawEvent {
        triangle: Triangle,
        /// What the engine knows this card as (see `EventRole`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        role: Option<EventRole>,
        /// Copies in the event deck.
        copies: Spanned<u32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<RawTarget>,
        /// When the card may be played (violet cards).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        condition: Option<RawCondition>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        effect: Vec<RawEffect>,
        /// Influence points the card counts (violet cards).
        #[serde(default)]
        influence: u32,
        /// Buildings whose owners draw the influence-card reward when it is played.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        rewards: Vec<Spanned<String>>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reaction: Option<Reaction>,
        /// Violet cards that may only be played as the play that ends the game.
        #[serde(default)]
        only_to_win: bool,
    }
}

// -------------------------------------------------------- resources.yaml

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ResourcesFile {
    pub resources: Vec<RawResource>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ResourceKind {
    Good,
    Ability,
    /// The rulebook prints no kind: the reading `food-kind` decides.
    Unprinted,
}

/// The resources the engine must find, by role rather than by id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ResourceRole {
    /// The resource the `labor-card-value` and `labor-substitution` readings are about.
    Labor,
    /// The resource a Blacksmith building waives for its owner.
    Blacksmith,
}

/// The event cards the engine must find, by role rather than by id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum EventRole {
    /// The disaster that spreads under the `spreading-fire` variant.
    SpreadingFire,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Substitution {
    pub en: Option<u32>,
    pub de: Option<u32>,
}

// -------------------------------------------------------- buildings.yaml

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BuildingsFile {
    pub buildings: Vec<RawBuilding>,
}

/// What a building does beyond its influence and reward.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Ability {
    /// Each player's starting building, placed at set-up; never built.
    Residence,
    /// Draws two resources and the top permit in the draw phase; only on the bank plot.
    Bank,
    /// Lets its owner use hand cards as Goods.
    GeneralStore,
    /// Waives Blacksmith requirements for its owner.
    Blacksmith,
    /// Changes what a Fire costs its victim; stops spreading fire.
    Firehouse,
    /// Stands on the board from the start, owned by nobody; can be damaged
    /// only under optional rule 2.
    TownHall,
}

/// `same_as: {building: <id>, when: <condition>}` on a building.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawSameAs {
    pub building: Spanned<String>,
    pub when: RawCondition,
}

// ----------------------------------------------------------- events.yaml

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EventsFile {
    pub events: Vec<RawEvent>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Triangle {
    /// Disasters: may be taken into hand, played against a building.
    Red,
    /// Special equipment (influence cards): played in front of the player
    /// when their condition holds.
    Violet,
    /// Special abilities: may be kept in hand and used at the moment they apply.
    Yellow,
    /// Other events: resolved by the active player before the reward phase.
    None,
}

/// The reactive abilities of the yellow cards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Reaction {
    AceUpYourSleeve,
    Iou,
    FireInsurance,
    HandymanBrother,
}

/// What an event is played against.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum RawTarget {
    /// Any built building (the Town Hall only under optional rule 2).
    AnyBuilding,
    /// A built building of this id.
    Building(Spanned<String>),
}

/// A condition as written: a node of the shared language (`crate::lang`),
/// compiled at load against the registry.
pub type RawCondition = crate::lang::Node;

/// An effect operation as written (`damage`, `draw: {to: active, count: 2}`):
/// a node of the shared language, compiled at load against the registry of
/// operations (the shared ones and Dry Gulch's, `effects.rs`).
pub type RawEffect = crate::lang::Node;

// ------------------------------------------------------------ board.yaml

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BoardFile {
    pub board: RawBoard,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawBoard {
    /// Blocks of plots; plots in one block are listed in order along their
    /// street, so consecutive plots are neighbours (fire spreads between them).
    pub blocks: Vec<RawBlock>,
    /// The single plot in front of the town: only the Bank may stand there.
    pub bank_plot: RawPlot,
    /// The plot the Town Hall stands on from the start.
    pub town_hall_plot: Spanned<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub source: Vec<RawCitation>,
    /// Number field → the reason its number(s) had to be assumed.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub assumed: crate::catalog::common::Assumed,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawBlock {
    pub id: Spanned<String>,
    pub street: String,
    pub plots: Vec<RawPlot>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum PlotKind {
    Corner,
    Middle,
    StreetEnd,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawPlot {
    pub id: Spanned<String>,
    pub kind: PlotKind,
    /// Resource cards its owner draws in each reward phase.
    pub reward: u32,
    /// On the outer edge of the board (where a Residence may stand).
    #[serde(default)]
    pub edge: bool,
}
