//! Dodge City (Karl-Heinz Schmiel and Bernd Brunnhofer, Hans im Glück,
//! 1983): the rules over the engine core. The only rulebook is a German
//! summary (`dodge-city-de`); most numbers are assumed in the catalog.
//!
//! | rule | source | where |
//! |---|---|---|
//! | set-up: colour, four cards, $2000, boards by player count | dodge-city-de Beschreibung 1 | `state.rs` `State::setup` |
//! | Marshal round: cards face down at once, rank order, ties by number, no Indio | Beschreibung 2 | `contract.rs` `to_move` (simultaneous), `round.rs` `reveal` |
//! | placing phases: number card pays value × 100, picture card's tokens, question mark's event, Indio removes three | Beschreibung 3-4 | `play.rs` `play`, `picture` |
//! | debts paid by selling tokens at half price | Beschreibung 4 | `state.rs` `pay`, `sell` |
//! | buying: at most three per building per turn, one chain, no special fields | Beschreibung 5-6 | `play.rs` `check_buy`, `check_square`, `room` |
//! | duels with the last card; the winner takes a token | Beschreibung 7 | `round.rs` `duel` |
//! | scoring: a chain linking four special fields wins the disc and money; the building closes | Beschreibung 6-7; outside ludorium-listing | `round.rs` `score`, `control` |
//! | the round's four phases and the scoring, as `game.yaml` declares them | Beschreibung 1-7 | `flow.rs` |
//! | the end at 6 points | Spielende | `round.rs` `score_all`, `contract.rs` `outcome` |
//!
//! Every ambiguity is an interpretation in `rules/dodge-city/interpretations.yaml`;
//! the code branches only on the typed hooks of `readings` (through `State::r`)
//! and on parameters (`State::p`).

mod action;
pub mod catalog;
mod contract;
mod declared;
pub mod effects;
mod flow;
pub mod invariants;
mod layers;
mod play;
mod query;
pub mod readings;
mod round;
pub mod rules_data;
pub mod scenario_io;
pub mod schema;
pub mod state;
mod words;

pub use rules_data::Rules;
pub use state::{Action, Event, State};

pub const ID: &str = "dodge-city";

/// Dodge City's entry in the game registry.
pub struct DodgeCity;

impl super::Entry for DodgeCity {
    super::entry_fields!(effects::Dc, catalog::load_layered);
    fn entities(r: &Rules) -> Vec<(&'static str, usize)> {
        vec![
            ("cards", r.cards.iter().map(|c| c.copies as usize).sum()),
            ("symbols", r.symbols.len()),
            ("buildings", r.buildings.len()),
            ("events", r.events.iter().map(|e| e.copies as usize).sum()),
        ]
    }
    fn replaced(r: &Rules, e: usize) -> Option<&str> {
        r.events.get(e).map(|e| e.id.as_str())
    }
}
