//! Dry Gulch (Alan D. Ernstein, Hangman Games, 1998): the rules over the
//! engine core.
//!
//! | rule | source | where |
//! |---|---|---|
//! | set-up: Residences, chips by player count, deals, advanced draft | dry-gulch-en Setup 1–5, Optional Rules 1; dry-gulch-de Aufbau | `rules.rs` `State::new`, `Phase::Setup` |
//! | phase 1: reveal three events, discard one, keep red/yellow, resolve the rest | dry-gulch-en Drawing Event Cards 1–4 | `rules.rs` `Phase::Events` |
//! | phase 2: three resources, or a permit (face-up or two from the deck); Bank | Drawing Resources 1–2, Special Rules 3.1 | `Phase::Draw` |
//! | phase 3: build with payment and substitution, plots, chips; influence cards; disasters | Building 1–3, Special Rules 2–6 | `Phase::Build`, `payment.rs` |
//! | the order of a turn: the steps `game.yaml` declares (`turn.phases`), changed by readings as data | Turn; Optional Rules 2, 4 | `readings::Proc`, `rules::flow` |
//! | phase 4: rewards | Reward Phase 1–2 | `State::rewards` (`rules::flow`) |
//! | phase 5: discard, disasters in front, random cut to the hand limit (a take under `hand-cut-reactions: like-a-draw`) | Discard 1–2 | `Phase::Discard`, `State::end_turn` (`rules::flow`) |
//! | the decks: copies per card, the violet cards' deck | Components, Reference: Event Cards | `rules::deck` |
//! | yellow cards: Ace, I.O.U., Fire Insurance, Handyman Brother | Reference: Event Cards, Yellow | `effects.rs` `State::run_take`, `payment.rs` |
//! | winning during the building phase | Winning the Game | `State::check_win` |
//! | optional rules 2–4 as variants | Optional Rules 2–4 | `readings::V`, `State::on` |
//!
//! Every ambiguity is an interpretation in `rules/dry-gulch/interpretations.yaml`.
//! The code branches only on the typed hooks of `readings` (matched
//! exhaustively through `State::r`), on parameters (`State::p`), and on
//! `reading:` conditions in the catalog's effects; every other reading is
//! data (see `catalog::common::Change`).

mod bounds;
pub mod catalog;
mod contract;
pub mod effects;
mod facts;
pub mod invariants;
mod layers;
pub mod payment;
mod query;
pub mod readings;
pub mod rules;
pub mod rules_data;
pub mod scenario_io;
pub mod schema;
mod zones;

pub use rules::{Action, Event, State};
pub use rules_data::Rules;

pub const ID: &str = "dry-gulch";

/// Dry Gulch's entry in the game registry.
pub struct DryGulch;

impl super::Entry for DryGulch {
    super::entry_fields!(effects::Dg, catalog::load_layered);
    fn entities(r: &Rules) -> Vec<(&'static str, usize)> {
        vec![
            ("resources", r.resources.len()),
            ("buildings", r.buildings.len()),
            ("events", r.events.len()),
            ("plots", r.plots.len()),
        ]
    }
    fn replaced(r: &Rules, e: usize) -> Option<&str> {
        r.events.get(e).map(|e| e.id.as_str())
    }
}
