//! The compiled Dodge City catalog: what `catalog.rs` lowers the YAML into
//! and the state plays with. Ids are typed per kind (`Card`, `Symbol`,
//! `Building`, `Square`, `EventCard`).

use std::collections::BTreeMap;

use super::effects::Dc;
/// The state's reading accessors, in scope wherever the game's types are.
pub use crate::engine::Reads as _;
use crate::engine::{Grid, Id};
use crate::lang::{Core, Effect};

pub mod kind {
    crate::kinds!(
        Card = "card kind",
        Symbol = "symbol",
        Building = "building",
        Square = "square",
        EventCard = "event card",
        Flag = "flag",
        /// A player's token, by colour: each seat's own (`Id::of_seat`).
        Token = "token"
    );
}

pub type CardId = Id<kind::Card>;
pub type Sym = Id<kind::Symbol>;
pub type Bld = Id<kind::Building>;
pub type Sq = Id<kind::Square>;
pub type Ev = Id<kind::EventCard>;

/// The tokens of seat `seat`'s colour.
pub const fn colour(seat: usize) -> Id<kind::Token> {
    Id::of_seat(seat)
}

/// A square's field kind in a building's grid.
pub const PLAIN: u8 = 0;
pub const SPECIAL: u8 = 1;
pub const NO_SQUARE: u8 = 2;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CardKind {
    Number(Sym),
    Picture(Sym),
    Question,
    Indio,
}

#[derive(Debug, Clone)]
pub struct CardDef {
    pub id: String,
    pub name: String,
    pub kind: CardKind,
    pub value: u32,
    pub copies: u32,
}

#[derive(Debug, Clone)]
pub struct SymbolDef {
    pub id: String,
    pub name: String,
    pub price: u32,
    pub points: u32,
    pub discs: u32,
}

#[derive(Debug, Clone)]
pub struct BuildingDef {
    pub id: String,
    pub name: String,
    pub grid: Grid<kind::Square>,
}

impl BuildingDef {
    /// Whether a token may stand on `s`.
    pub fn plain(&self, s: Sq) -> bool {
        self.grid.field(s) == PLAIN
    }
    pub fn special(&self, s: Sq) -> bool {
        self.grid.field(s) == SPECIAL
    }
    /// `c3r2` style name of a square: column and row from 1.
    pub fn square_name(&self, s: Sq) -> String {
        let (c, r) = self.grid.position(s);
        format!("c{}r{}", c + 1, r + 1)
    }
    pub fn square_named(&self, name: &str) -> Option<Sq> {
        let rest = name.strip_prefix('c')?;
        let (c, r) = rest.split_once('r')?;
        let (c, r) = (c.parse::<usize>().ok()?, r.parse::<usize>().ok()?);
        self.grid.at(c.checked_sub(1)?, r.checked_sub(1)?)
    }
}

#[derive(Debug, Clone)]
pub struct EventDef {
    pub id: String,
    pub name: String,
    pub copies: u32,
    pub effect: Vec<Effect<Dc>>,
}

/// The compiled catalog: the part every game has (`lang::Core`, which it
/// derefs to) and Dodge City's own entities.
#[derive(Debug, Clone)]
pub struct Rules {
    pub core: Core<Dc>,
    pub symbols: Vec<SymbolDef>,
    pub cards: Vec<CardDef>,
    pub buildings: Vec<BuildingDef>,
    /// Player count → the buildings in play (in catalog order).
    pub in_play: BTreeMap<u32, Vec<Bld>>,
    pub events: Vec<EventDef>,
    /// The copies of each card and of each event card, in kind order, for
    /// the conservation check of a configuration that sets none.
    pub copies: (Vec<u32>, Vec<u32>),
}

crate::rules_core!(Rules, Dc);

impl Rules {
    pub fn card(&self, c: CardId) -> &CardDef {
        &self.cards[c.index()]
    }
    pub fn building(&self, b: Bld) -> &BuildingDef {
        &self.buildings[b.index()]
    }
    pub fn symbol(&self, s: Sym) -> &SymbolDef {
        &self.symbols[s.index()]
    }
    pub fn card_ids(&self) -> impl Iterator<Item = CardId> + Clone {
        Id::first(self.cards.len())
    }
    /// The cheapest token price of any symbol.
    pub fn cheapest_price(&self) -> u32 {
        self.symbols.iter().map(|s| s.price).min().unwrap_or(0)
    }
}
