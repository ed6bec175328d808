//! Every zone of Red Dog Junction by name, in two tables (commodity cubes
//! and cards): what the conservation invariants add up
//! (`engine::conserved`), and the totals they compare with. Its scenarios
//! set and expect in words of their own (`cargo:`, `crew:`), so every zone
//! here is read only.

use super::readings::P;
use super::rules::State;
use super::rules_data::{Card, Class, Cube, Rules};
use crate::engine::{Id, Ledger, Lies, Named, Reads, SetUp::Read};

/// The cube zones: space, the box, each location, each seat's cargo and storage.
pub(super) const CUBE_ZONES: &[Named<State, Cube>] = &[
    Named::new("space", Read, crate::lies!(table(s) => s.space)),
    Named::new("box", Read, crate::lies!(table(s) => s.boxed)),
    Named::new("locations", Read, Lies::Each { len: |s| s.locs.len(), read: |s, i| &s.locs[i], watched: None }),
    Named::new("cargo", Read, crate::lies!(seat(s, i) => s.cargo[i])),
    Named::new("storage", Read, crate::lies!(seat(s, i) => s.storage[i])),
];

/// The card zones: the deck, the display, the discard pile, the box, the
/// Boosts played this turn, and each seat's crew, Boosts and draft hand.
pub(super) const CARD_ZONES: &[Named<State, Card>] = &[
    Named::new("deck", Read, crate::lies!(table(s) => s.deck)),
    Named::new("display", Read, crate::lies!(table(s) => s.display)),
    Named::new("discard", Read, crate::lies!(table(s) => s.discard)),
    Named::new("box", Read, crate::lies!(table(s) => s.boxed_cards)),
    Named::new("played", Read, crate::lies!(table(s) => s.played)),
    Named::new("crew", Read, crate::lies!(seat(s, i) => s.crew[i])),
    Named::new("boosts", Read, crate::lies!(seat(s, i) => s.boosts[i])),
    Named::new("hand", Read, crate::lies!(seat(s, i) => s.hands[i])),
];

/// The conservation checks' parts (cubes, cards), each kept zone by zone
/// with the zone's stamp (`engine::conserved`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Conserved {
    pub cubes: Ledger<Cube, ()>,
    pub cards: Ledger<Card, ()>,
}

impl State {
    /// The copies of each card type in this configuration (`deck-total`
    /// adds Boosts).
    pub fn card_totals(&self, rules: &Rules) -> Vec<u32> {
        Id::first(rules.cards.len()).map(self.card_total(rules)).collect()
    }

    /// The copies of each card type this configuration plays with (the
    /// first Boost type gains the `extra-boosts` parameter's), as a
    /// function, so the conservation invariant asks it per type without a
    /// list and reads the parameter once.
    pub fn card_total<'a>(&'a self, rules: &'a Rules) -> impl Fn(Id<Card>) -> u32 + 'a {
        let extra = self.p(P::ExtraBoosts);
        let first_boost = rules.cards.iter().position(|c| c.class == Class::Boost);
        let counts = &self.readings;
        let copies = move |c: Id<Card>| counts.count(c.index() as u32).unwrap_or(rules.card(c).copies);
        move |c| copies(c) + if first_boost == Some(c.index()) { extra } else { 0 }
    }
}

/// Which copies of a crew and of the Boosts were bought
/// (`unpurchased-cards-score`, `unpurchased-boosts`). A card type lies in
/// one of the two zones, the Boosts among the Boosts, the rest in the crew.
impl State {
    /// The copies of `c` in `seat`'s crew or Boosts the seat bought.
    pub fn purchased_copies(&self, seat: usize, c: Id<Card>) -> u8 {
        self.purchased.get(seat).and_then(|b| b.get(c.index())).copied().unwrap_or(0)
    }
    /// Marks `n` more copies of `c` as bought.
    pub(super) fn mark_bought(&mut self, seat: usize, c: Id<Card>, n: u8) {
        if let Some(b) = self.purchased.get_mut(seat).and_then(|b| b.get_mut(c.index())) {
            *b = b.saturating_add(n);
        }
    }
    /// After a copy of `c` left `seat`'s crew or Boosts, with `bought`
    /// whether it was a bought one: otherwise an unbought copy left, and
    /// the marks only fall to what the seat still holds.
    pub(super) fn unmark_left(&mut self, seat: usize, c: Id<Card>, bought: bool) {
        let held = (self.crew[seat].count(c) + self.boosts[seat].count(c)).min(255) as u8;
        if let Some(b) = self.purchased.get_mut(seat).and_then(|b| b.get_mut(c.index())) {
            *b = if bought { b.saturating_sub(1) } else { *b }.min(held);
        }
    }
}
