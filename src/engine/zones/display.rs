//! A row of slots, each holding at most one component: a face-up display
//! refilled from a deck (a market of cards or tiles to choose from), or a
//! building's squares with their tokens. A zone like the others, so the
//! one conservation check counts what lies in it.

use serde::{Deserialize, Serialize};
use smallvec::SmallVec;

use super::stamp::{Stamp, Stamped};
use super::{Chance, Holds, Id, Kind, MoveError, Pile, Store, Tally, WhenEmpty, Zone};

/// Slots in a row, each empty or holding one component. Taking from a
/// slot leaves it empty until `refill`, so a game decides when the row is
/// filled again (at once, or at the end of a turn).
#[derive(Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent, bound = "")]
pub struct Display<K: Kind> {
    slots: SmallVec<[Option<Id<K>>; 8]>,
    #[serde(skip)]
    stamp: Stamp,
}

/// What a refill did: how many slots it filled and whether the discard
/// pile was shuffled into the deck on the way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Refilled {
    pub filled: u32,
    pub reshuffled: bool,
}

impl<K: Kind> Display<K> {
    /// A row of `slots` empty slots.
    pub fn new(slots: usize) -> Display<K> {
        Display { slots: SmallVec::from_elem(None, slots), stamp: Stamp::default() }
    }

    /// The slots in order, `None` where a slot is empty.
    pub fn slots(&self) -> &[Option<Id<K>>] {
        &self.slots
    }

    /// The component in slot `i` (none if the slot is empty or no such slot).
    pub fn at(&self, i: usize) -> Option<Id<K>> {
        self.slots.get(i).copied().flatten()
    }

    /// How many slots hold a component.
    pub fn filled(&self) -> usize {
        self.slots.iter().flatten().count()
    }

    /// Fills every empty slot, in order, from the top of `deck`; an empty
    /// deck follows `when_empty`. Slots stay empty when nothing is left.
    pub fn refill(
        &mut self,
        deck: &mut Pile<K>,
        discard: &mut Pile<K>,
        when_empty: WhenEmpty,
        chance: &mut Chance,
    ) -> Refilled {
        let mut done = Refilled::default();
        let empty = self.slots.len() - self.filled();
        for _ in 0..empty {
            // `put` fills the first empty slot, so the row fills in order
            let drawn = deck.draw(discard, when_empty, chance, self);
            done.reshuffled |= drawn.reshuffled;
            if drawn.card.is_none() {
                break;
            }
            done.filled += 1;
        }
        done
    }

    /// Puts one `k` from `from` into slot `i` (a token on its square); an
    /// error (`Full` for a slot taken or past the last) changes neither.
    pub fn put_slot(&mut self, i: usize, from: &mut (impl Zone<K> + ?Sized), k: Id<K>) -> Result<(), MoveError> {
        if self.slots.get(i) != Some(&None) {
            return Err(MoveError::Full);
        }
        from.can_take(k, 1)?;
        from.take(k, 1);
        self.slots[i] = Some(k);
        self.stamp.renew();
        Ok(())
    }

    /// Moves the component in slot `i` to `to`; the slot is left empty.
    pub fn take_slot(&mut self, i: usize, to: &mut (impl Zone<K> + ?Sized)) -> Result<Id<K>, MoveError> {
        let k = self.at(i).ok_or(MoveError::Short { held: 0 })?;
        to.can_put(k, 1)?;
        self.slots[i] = None;
        self.stamp.renew();
        to.put(k, 1);
        Ok(k)
    }
}

impl<K: Kind> std::fmt::Debug for Display<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.slots.iter().map(|s| s.map(Id::index))).finish()
    }
}

impl<K: Kind> Store<K> for Display<K> {
    fn can_take(&self, k: Id<K>, n: u32) -> Result<(), MoveError> {
        let held = self.count(k);
        if held < n { Err(MoveError::Short { held }) } else { Ok(()) }
    }
    fn can_put(&self, _: Id<K>, n: u32) -> Result<(), MoveError> {
        let free = self.slots.len() - self.filled();
        if (free as u32) < n { Err(MoveError::Full) } else { Ok(()) }
    }
    /// Empties the first `n` slots that hold `k`.
    fn take(&mut self, k: Id<K>, n: u32) {
        for s in self.slots.iter_mut().filter(|s| **s == Some(k)).take(n as usize) {
            *s = None;
        }
        self.stamp.renew();
    }
    /// Fills the first `n` empty slots with `k`.
    fn put(&mut self, k: Id<K>, n: u32) {
        for s in self.slots.iter_mut().filter(|s| s.is_none()).take(n as usize) {
            *s = Some(k);
        }
        self.stamp.renew();
    }
}

impl<K: Kind> Holds<K> for Display<K> {
    fn count(&self, k: Id<K>) -> u32 {
        self.slots.iter().filter(|s| **s == Some(k)).count() as u32
    }
    fn tally_into(&self, t: &mut Tally<K>) {
        t.add_each(self.slots.iter().flatten().copied());
    }
    fn stamped(&self) -> Option<u64> {
        Some(self.stamp.get())
    }
}

impl<K: Kind> Stamped for Display<K> {
    #[inline]
    fn stamp(&self) -> u64 {
        self.stamp.get()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::zones::fixture::{Card, card};
    use crate::engine::{Imbalance, Stack};

    /// A check that keeps its answer with the row's stamp sees every
    /// change: a refill, a slot taken, a move in and out.
    #[test]
    fn every_change_gives_the_row_a_fresh_stamp() {
        let (mut deck, mut discard, mut chance) = (Pile::from_counts(&[3]), Pile::new(), Chance::new(1));
        let mut row: Display<Card> = Display::new(2);
        let mut seen = vec![row.stamp()];
        let mut changed = |row: &Display<Card>| {
            assert!(!seen.contains(&row.stamp()), "a stamp seen before: {seen:?}");
            seen.push(row.stamp());
        };
        row.refill(&mut deck, &mut discard, WhenEmpty::Stop, &mut chance);
        changed(&row);
        let card = row.take_slot(0, &mut discard).unwrap();
        changed(&row);
        crate::engine::move_n(&mut discard, &mut row, card, 1).unwrap();
        changed(&row);
        crate::engine::move_n(&mut row, &mut deck, card, 2).unwrap();
        changed(&row);
        assert_eq!((row.filled(), row.clone().stamp()), (0, row.stamp()));
    }

    #[test]
    fn a_component_goes_into_a_slot_and_out_of_it_by_moves() {
        let (red, blue) = (card(0), card(1));
        let mut supply: Stack<Card> = Stack::of(red, 2);
        let mut out: Stack<Card> = Stack::new();
        let mut squares: Display<Card> = Display::new(3);
        let before = squares.stamped();
        squares.put_slot(1, &mut supply, red).unwrap();
        assert_ne!(squares.stamped(), before);
        assert_eq!((squares.at(1), supply.count(), Holds::count(&squares, red)), (Some(red), 1, 1));
        // a square taken, one past the last, and a kind the source lacks
        assert_eq!(squares.put_slot(1, &mut supply, red), Err(MoveError::Full));
        assert_eq!(squares.put_slot(3, &mut supply, red), Err(MoveError::Full));
        assert_eq!(squares.put_slot(0, &mut supply, blue), Err(MoveError::Short { held: 0 }));
        assert_eq!(supply.count(), 1);
        // taken into a stack of another colour: refused, nothing moves
        let mut blues = Stack::of(blue, 1);
        assert_eq!(squares.take_slot(1, &mut blues), Err(MoveError::OtherKind));
        assert_eq!(squares.take_slot(1, &mut out), Ok(red));
        assert_eq!(squares.take_slot(1, &mut out), Err(MoveError::Short { held: 0 }));
        assert_eq!(squares.filled(), 0);
        // everything is where the tally finds it: two red, one blue
        squares.put_slot(2, &mut supply, red).unwrap();
        let mut t = Tally::new(2);
        t.add(&supply).add(&out).add(&squares).add(&blues);
        assert_eq!(t.check(|_| 2), Err(Imbalance::Count { kind: blue, found: 1, expected: 2 }));
        assert_eq!(t.check(|k| [2, 1][k.index()]), Ok(()));
    }
}
