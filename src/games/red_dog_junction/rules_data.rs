//! The compiled Red Dog Junction catalog (`Rules`) and its id kinds.

use super::effects::{Effects, Rdj};
/// The state's reading accessors, in scope wherever the game's types are.
pub use crate::engine::Reads as _;
use crate::engine::{Graph, Id};
use crate::lang::Core;

crate::kinds! {
    /// A commodity (a kind of cube).
    Cube = "commodity",
    /// A card type.
    Card = "card type",
    /// One dock of a location (the Junction has six).
    Dock = "dock",
    /// A Super Deal price (a kind of tile).
    Tile = "super deal",
}

/// Where cubes of a commodity start and go back to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Home {
    Space,
    /// A location (index into `Rules::locations`).
    Loc(usize),
}

#[derive(Debug, Clone)]
pub struct CubeDef {
    pub id: String,
    pub name: String,
    pub copies: u32,
    pub home: Home,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LocKind {
    Junction,
    Planet(Id<Cube>),
    Haberdashery,
    Bank,
    /// A player's home base (seat index).
    Home(usize),
}

#[derive(Debug, Clone)]
pub struct LocDef {
    pub id: String,
    pub name: String,
    pub kind: LocKind,
    /// Its docks: `first_dock..first_dock + docks` in `Rules::docks`.
    pub first_dock: usize,
    pub docks: usize,
}

#[derive(Debug, Clone)]
pub struct DockDef {
    /// Index into `Rules::locations`.
    pub loc: usize,
    /// The dice places it touches (Junction docks only; 0-based).
    pub places: Vec<u8>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    Crew,
    Officer,
    Boost,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ability {
    None,
    Cargo,
    Mine,
    Displace,
    Swap,
    Salvage,
    Trade,
}

/// Cubes by commodity: a price or a cost.
pub type Price = Vec<(Id<Cube>, u32)>;

#[derive(Debug, Clone)]
pub struct CardDef {
    pub id: String,
    pub name: String,
    pub class: Class,
    pub ability: Ability,
    pub copies: u32,
    pub starting: u32,
    /// The ways to pay, any one of them.
    pub cost: Vec<Price>,
    pub points: u32,
}

#[derive(Debug, Clone)]
pub struct PileDef {
    pub id: String,
    pub name: String,
    pub gold: u32,
    /// The tile kinds it cycles through (into `Rules::tiles`).
    pub tiles: Vec<Id<Tile>>,
}

#[derive(Debug, Clone)]
pub struct TileDef {
    pub pile: usize,
    pub price: Price,
}

/// The compiled catalog: the part every game has (`lang::Core`, which it
/// derefs to) and Red Dog Junction's own entities.
#[derive(Debug, Clone)]
pub struct Rules {
    pub core: Core<Rdj>,
    pub cubes: Vec<CubeDef>,
    pub scrap: Id<Cube>,
    pub gold: Id<Cube>,
    pub locations: Vec<LocDef>,
    pub junction: usize,
    pub haberdashery: usize,
    pub bank: usize,
    pub docks: Vec<DockDef>,
    pub dock_graph: Graph<Dock>,
    /// The Junction dice: commodity and labelled place (0-based).
    pub dice: Vec<(Id<Cube>, u8)>,
    pub faces: u8,
    pub gold_faces: u8,
    pub cards: Vec<CardDef>,
    pub piles: Vec<PileDef>,
    pub tiles: Vec<TileDef>,
    /// Starting gold by player number (index 0 = player 1).
    pub starting_gold: Vec<u32>,
    /// Gold to the box by player count (index = players).
    pub gold_to_box: Vec<u32>,
    pub display: usize,
    pub gold_die_start: u8,
    /// Each card type's effect (empty for crew).
    pub effects: Vec<Effects>,
}

crate::rules_core!(Rules, Rdj);

impl Rules {
    pub fn card_by_id(&self, id: &str) -> Option<Id<Card>> {
        self.cards.iter().position(|c| c.id == id).and_then(|i| Id::new(i).ok())
    }
    pub fn cube(&self, c: Id<Cube>) -> &CubeDef {
        &self.cubes[c.index()]
    }
    pub fn card(&self, c: Id<Card>) -> &CardDef {
        &self.cards[c.index()]
    }
    /// The home base of `seat`, if the catalog has one.
    pub fn home_of(&self, seat: usize) -> Option<usize> {
        self.locations.iter().position(|l| l.kind == LocKind::Home(seat))
    }
    /// The location a dock belongs to.
    pub fn dock_loc(&self, d: Id<Dock>) -> &LocDef {
        &self.locations[self.docks[d.index()].loc]
    }
    /// A dock's name: the location's, with the dock number where it has several.
    pub fn dock_name(&self, d: Id<Dock>) -> String {
        let l = self.dock_loc(d);
        if l.docks > 1 { format!("{} dock {}", l.name, d.index() - l.first_dock + 1) } else { l.name.clone() }
    }
    /// Dock ids as scenarios write them: the location id, `-N` for the Junction's.
    pub fn dock_id(&self, d: Id<Dock>) -> String {
        let l = self.dock_loc(d);
        if l.docks > 1 { format!("{}-{}", l.id, d.index() - l.first_dock + 1) } else { l.id.clone() }
    }
    pub fn cube_total(&self, c: Id<Cube>) -> u32 {
        self.cube(c).copies
    }
}
