//! Stamps: what a zone's contents are, as a number. Every change to a
//! stamped zone (a move in or out, a shuffle, a sort) gives it a stamp no
//! zone has had in the process, so two zones with one stamp hold the same
//! components: one is the other, or a clone of it unchanged since. A check
//! that worked something out from a game's zones can keep it with their
//! stamps and reuse it while they are the same (`Stamped`; the
//! conservation check's `Ledger` keeps each zone's part so).
//!
//! The stamps are `Watched`'s (`engine::watched::fresh`: a counter of
//! each thread's own, so stamping costs no atomic operation per move).
//! Stamp 0 is an empty zone made anew (`Pile::new` is a `const fn`): any
//! two such hold the same. A `Stack`'s stamp is what it holds, its kind
//! and count in one number: equal stamps are equal contents there too.

use crate::engine::watched::fresh;

/// A zone's stamp: bookkeeping, like a cache, not part of what the zone
/// holds, so equality, hashing and the JSON form leave it out (any two
/// stamps are equal); a zone read from JSON takes a fresh one.
#[derive(Clone, Copy)]
pub struct Stamp(u64);

impl Stamp {
    /// The stamp of an empty zone made anew.
    pub const EMPTY: Stamp = Stamp(0);

    /// The zone changed: a stamp no zone has had.
    #[inline]
    pub(crate) fn renew(&mut self) {
        self.0 = fresh();
    }

    #[inline]
    pub fn get(self) -> u64 {
        self.0
    }
}

impl Default for Stamp {
    fn default() -> Stamp {
        Stamp(fresh())
    }
}

impl PartialEq for Stamp {
    fn eq(&self, _: &Stamp) -> bool {
        true
    }
}

impl Eq for Stamp {}

impl std::hash::Hash for Stamp {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

/// A zone that carries a stamp (`Pile`, `Multiset`, `Tagged`, `Display`).
pub trait Stamped {
    /// What the zone holds, as a number: equal stamps, equal contents.
    fn stamp(&self) -> u64;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stamp_changes_with_every_move_and_a_clone_keeps_it() {
        use crate::engine::{Id, Kind, Pile, move_n};
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
        enum Card {}
        impl Kind for Card {
            const NAME: &'static str = "card";
        }
        let a: Id<Card> = Id::new(0).unwrap();
        let (mut deck, mut hand): (Pile<Card>, Pile<Card>) = (Pile::from_counts(&[3]), Pile::new());
        assert_eq!(hand.stamp(), Stamp::EMPTY.get(), "an empty pile made anew");
        let (d, h) = (deck.stamp(), hand.stamp());
        move_n(&mut deck, &mut hand, a, 1).unwrap();
        assert!(deck.stamp() != d && hand.stamp() != h && deck.stamp() != hand.stamp());
        // a clone holds the same; a pile read back from JSON takes a fresh stamp
        assert_eq!(deck.clone().stamp(), deck.stamp());
        let back: Pile<Card> = serde_json::from_str(&serde_json::to_string(&deck).unwrap()).unwrap();
        assert_eq!((back == deck, back.stamp() == deck.stamp()), (true, false));
    }
}
