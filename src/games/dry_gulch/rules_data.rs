//! The compiled Dry Gulch catalog: ids resolved to indexes, effects and
//! conditions checked against the operation registry. Engine-side types:
//! nothing here derives `Deserialize`.

use std::collections::BTreeMap;

use super::effects::Dg;
use crate::catalog::common::{Citation, Interpretation};
use crate::engine::{Blocks, Id, Stack};
use crate::lang::Core;

pub use super::schema::{Ability, PlotKind, Reaction, ResourceKind, Triangle};
/// The state's reading accessors, in scope wherever the game's types are.
pub use crate::engine::Reads as _;

/// The kinds of entity a Dry Gulch catalog has ids for.
pub mod kind {
    use crate::engine::PrefixOf;

    crate::kinds! {
        /// Card kinds: resources first (in catalog order), then events.
        Card = "card",
        Resource = "resource",
        Building = "building",
        /// Block plots in order, then the bank plot.
        Plot = "plot",
        Flag = "flag",
        /// A family chip, by colour: each seat's own (`Id::of_seat`).
        Chip = "family chip",
    }
    /// The first card kinds are the resources, in their order.
    impl PrefixOf<Card> for Resource {}
}

pub(super) use crate::engine::id_at;

/// A card kind: resources first (in catalog order), then events.
pub type CardKind = Id<kind::Card>;
/// A resource type.
pub type Res = Id<kind::Resource>;
/// A building.
pub type Bld = Id<kind::Building>;
/// A plot (block plots in order, then the bank plot).
pub type Plot = Id<kind::Plot>;
/// A flag of `game.yaml`.
pub type Flag = Id<kind::Flag>;
pub use crate::lang::declared::Act;
/// Family chips of one colour: a player's reserve, on an influence card or
/// on a building.
pub type Chips = Stack<kind::Chip>;

/// The chips of seat `seat`'s colour.
pub const fn colour(seat: usize) -> Id<kind::Chip> {
    Id::of_seat(seat)
}

/// The compiled catalog: the part every game has (`lang::Core`, which it
/// derefs to) and Dry Gulch's own entities.
#[derive(Debug, Clone)]
pub struct Rules {
    pub core: Core<Dg>,
    /// Family chips each player takes, by player count (`setup.chips`; the
    /// catalog's other numbers are the core's parameters).
    pub chips: BTreeMap<u32, u32>,
    pub flags: Vec<String>,
    pub resources: Vec<Resource>,
    pub events: Vec<Event>,
    pub buildings: Vec<Building>,
    pub plots: Vec<PlotInfo>,
    /// The blocks of plots along their streets: a plot's neighbours are the
    /// plots beside it in its block (fire spreads between them).
    pub board: Blocks<kind::Plot>,
    pub bank_plot: Plot,
    pub town_hall_plot: Plot,
    /// Resource in the role `labor` (the `labor-card-value` reading is about it).
    pub labor: Res,
    /// Resource in the role `blacksmith` (the Blacksmith building waives it).
    pub blacksmith: Res,
    /// Event card in the role `spreading-fire` (what spreads under the variant).
    pub spreading_fire: Option<CardKind>,
    /// Card kinds of the yellow reactions, where the deck has them.
    pub reactions: BTreeMap<ReactionKey, CardKind>,
    /// What the invariants compare with under each pair of dealing
    /// readings (card totals, the catalog's permit, influence and bank
    /// numbers), worked out on first use (the invariants' own).
    pub dealt: super::invariants::DealtTables,
    /// The influence of each building, in building order: the rules count
    /// every seat's influence after every action of a building phase, out
    /// of this short table rather than the building entries.
    pub building_influence: Vec<u32>,
}

crate::rules_core!(Rules, Dg);

/// An action a variant or an option declares (`actions:`, `lang::declared`).
pub type DeclaredAction = crate::lang::declared::DeclaredAction<super::effects::Dg>;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ReactionKey {
    Ace,
    Iou,
    Insurance,
    Handyman,
}

#[derive(Debug, Clone)]
pub struct Resource {
    pub id: String,
    pub name: String,
    pub kind: ResourceKind,
    pub copies: u32,
    pub subst_en: Option<u32>,
    pub subst_de: Option<u32>,
}

#[derive(Debug, Clone)]
pub struct Event {
    pub id: String,
    pub name: String,
    pub triangle: Triangle,
    pub copies: u32,
    pub target: Option<Target>,
    pub condition: Option<Cond>,
    pub effect: Vec<Effect>,
    pub influence: u32,
    pub rewards: Vec<Bld>,
    pub reaction: Option<Reaction>,
    pub only_to_win: bool,
    pub source: Vec<Citation>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    AnyBuilding,
    Building(Bld),
}

#[derive(Debug, Clone)]
pub struct Building {
    pub id: String,
    pub name: String,
    /// (resource, how many), in resource order.
    pub cost: Vec<(Res, u32)>,
    pub influence: u32,
    pub corner: bool,
    pub permits: u32,
    pub ability: Option<Ability>,
    /// Another copy may be built beside a standing one while this holds.
    pub repeat: Option<Cond>,
    /// One building with the named one while the condition holds.
    pub same_as: Option<(Bld, Cond)>,
}

#[derive(Debug, Clone)]
pub struct PlotInfo {
    pub id: String,
    pub block: String,
    pub kind: PlotKind,
    pub reward: u32,
    pub edge: bool,
    pub bank: bool,
}

/// A compiled condition (`crate::lang`, with Dry Gulch's own in `effects`).
pub type Cond = crate::lang::Cond<super::effects::Dg>;
/// A compiled effect operation.
pub type Effect = crate::lang::Effect<super::effects::Dg>;
/// The options of one `choose` effect: (id, effect) in catalog order.
pub type Choice = crate::lang::Choice<super::effects::Dg>;

impl Rules {
    pub fn card_count(&self) -> usize {
        self.resources.len() + self.events.len()
    }
    /// Every card kind, resources first.
    pub fn cards(&self) -> impl DoubleEndedIterator<Item = CardKind> + ExactSizeIterator + Clone {
        Id::first(self.card_count())
    }
    /// The card kind of event `e` (an index into `events`).
    pub fn event_card(&self, e: usize) -> CardKind {
        // load refuses a catalog with more card kinds than an id holds
        Id::new(self.resources.len() + e).expect("at most 256 card kinds (checked at load)")
    }
    /// The event index of a card kind, if it is an event card.
    pub fn event_of(&self, c: CardKind) -> Option<usize> {
        c.index().checked_sub(self.resources.len()).filter(|&e| e < self.events.len())
    }
    /// The resource a card kind shows, if it is a resource card.
    pub fn resource_of(&self, c: CardKind) -> Option<Res> {
        Id::first(self.resources.len()).nth(c.index())
    }
    /// The catalog id of a card kind (`?` for an index no card has, which
    /// only a malformed action carries).
    pub fn card_id(&self, c: CardKind) -> &str {
        match self.event_of(c) {
            Some(e) => &self.events[e].id,
            None => self.resources.get(c.index()).map_or("?", |r| r.id.as_str()),
        }
    }
    /// The counted entity (`Change::Count`) that is building `b`'s permits:
    /// the card kinds' copies come first, in kind order.
    pub fn permits_counted(&self, b: Bld) -> u32 {
        (self.card_count() + b.index()) as u32
    }
    /// How many copies of a card kind the deck has (0 for no such kind).
    pub fn copies(&self, c: CardKind) -> u32 {
        match self.event_of(c) {
            Some(e) => self.events[e].copies,
            None => self.resources.get(c.index()).map_or(0, |r| r.copies),
        }
    }
    pub fn card_by_id(&self, id: &str) -> Option<CardKind> {
        if let Some(r) = self.resource_by_id(id) {
            return Some(r.lift());
        }
        self.events.iter().position(|e| e.id == id).map(|e| self.event_card(e))
    }
    pub fn resource_by_id(&self, id: &str) -> Option<Res> {
        self.resources.iter().position(|r| r.id == id).and_then(|r| Id::new(r).ok())
    }
    pub fn building(&self, b: Bld) -> &Building {
        &self.buildings[b.index()]
    }
    pub fn plot(&self, p: Plot) -> &PlotInfo {
        &self.plots[p.index()]
    }
    pub fn resource(&self, r: Res) -> &Resource {
        &self.resources[r.index()]
    }
    /// The building with this ability (the first, where several have it).
    pub fn with_ability(&self, a: Ability) -> Option<Bld> {
        self.buildings().find(|&b| self.building(b).ability == Some(a))
    }
    pub fn buildings(&self) -> impl DoubleEndedIterator<Item = Bld> + ExactSizeIterator + Clone {
        Id::first(self.buildings.len())
    }
    pub fn plots(&self) -> impl DoubleEndedIterator<Item = Plot> + ExactSizeIterator + Clone {
        Id::first(self.plots.len())
    }
    pub fn interpretation(&self, id: &str) -> Option<&Interpretation> {
        self.interpretations.iter().find(|i| i.id == id)
    }
}

/// The `set:` keys of the numbers a reading, a variant or a house rule may
/// change, in the order `Change::Count` numbers them: each card's copies
/// (`resources.<id>.copies`, then `events.<id>.copies`, the card kinds'
/// order), then each building's permits (`buildings.<id>.permits`).
pub fn count_keys<'a>(
    resources: impl Iterator<Item = &'a str>,
    events: impl Iterator<Item = &'a str>,
    buildings: impl Iterator<Item = &'a str>,
) -> Vec<String> {
    let keys = |file: &'a str, field: &'a str| move |id: &str| format!("{file}.{id}.{field}");
    let cards = resources.map(keys("resources", "copies")).chain(events.map(keys("events", "copies")));
    cards.chain(buildings.map(keys("buildings", "permits"))).collect()
}
