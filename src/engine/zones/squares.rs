//! `Squares`: places that each hold at most one component (the squares of
//! a building's grid, each with one player's token). A component comes
//! onto a square from another zone (`place`) and goes from it into one
//! (`lift`), so squares are changed only by moves like every other zone,
//! and are read as a zone (`Holds`) by the conservation check.

use serde::{Deserialize, Serialize};

use super::stamp::Stamp;
use super::{Holds, Id, Kind, MoveError, Tally, Zone};

/// Squares in order, each empty or holding one component.
#[derive(Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent, bound = "")]
pub struct Squares<K: Kind> {
    on: Vec<Option<Id<K>>>,
    #[serde(skip)]
    stamp: Stamp,
}

impl<K: Kind> Squares<K> {
    /// `n` empty squares.
    pub fn new(n: usize) -> Squares<K> {
        Squares { on: vec![None; n], stamp: Stamp::default() }
    }

    pub fn len(&self) -> usize {
        self.on.len()
    }

    pub fn is_empty(&self) -> bool {
        self.on.iter().all(Option::is_none)
    }

    /// What lies on square `sq` (nothing past the last).
    #[inline]
    pub fn get(&self, sq: usize) -> Option<Id<K>> {
        self.on.get(sq).copied().flatten()
    }

    /// What lies on each square, in order.
    pub fn iter(&self) -> impl Iterator<Item = Option<Id<K>>> + '_ {
        self.on.iter().copied()
    }
}

impl<K: Kind> std::fmt::Debug for Squares<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.on.iter().map(|o| o.map(Id::index))).finish()
    }
}

/// Puts one `k` from `from` on square `sq`; an error (`Full` for a square
/// taken or past the last) changes neither.
pub fn place<K: Kind>(
    from: &mut (impl Zone<K> + ?Sized),
    to: &mut Squares<K>,
    sq: usize,
    k: Id<K>,
) -> Result<(), MoveError> {
    if to.on.get(sq) != Some(&None) {
        return Err(MoveError::Full);
    }
    from.can_take(k, 1)?;
    from.take(k, 1);
    to.on[sq] = Some(k);
    to.stamp.renew();
    Ok(())
}

/// Moves what lies on square `sq` into `to`, and says what it was; an
/// error (`Short` for an empty square) changes neither.
pub fn lift<K: Kind>(from: &mut Squares<K>, sq: usize, to: &mut (impl Zone<K> + ?Sized)) -> Result<Id<K>, MoveError> {
    let Some(k) = from.get(sq) else { return Err(MoveError::Short { held: 0 }) };
    to.can_put(k, 1)?;
    to.put(k, 1);
    from.on[sq] = None;
    from.stamp.renew();
    Ok(k)
}

impl<K: Kind> Holds<K> for Squares<K> {
    fn count(&self, k: Id<K>) -> u32 {
        self.on.iter().filter(|o| **o == Some(k)).count() as u32
    }
    fn tally_into(&self, t: &mut Tally<K>) {
        for k in self.on.iter().flatten() {
            t.add_at(k.index(), 1);
        }
    }
    fn stamped(&self) -> Option<u64> {
        Some(self.stamp.get())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::zones::named::fixture::{Card, card};
    use crate::engine::{Imbalance, Stack};

    #[test]
    fn a_component_comes_onto_a_square_and_goes_from_it_by_moves() {
        let (red, blue) = (card(0), card(1));
        let mut supply: Stack<Card> = Stack::of(red, 2);
        let mut out: Stack<Card> = Stack::new();
        let mut squares: Squares<Card> = Squares::new(3);
        let before = squares.stamped();
        place(&mut supply, &mut squares, 1, red).unwrap();
        assert_ne!(squares.stamped(), before);
        assert_eq!((squares.get(1), supply.count(), Holds::count(&squares, red)), (Some(red), 1, 1));
        // a square taken, one past the last, and a kind the source lacks
        assert_eq!(place(&mut supply, &mut squares, 1, red), Err(MoveError::Full));
        assert_eq!(place(&mut supply, &mut squares, 3, red), Err(MoveError::Full));
        assert_eq!(place(&mut supply, &mut squares, 0, blue), Err(MoveError::Short { held: 0 }));
        assert_eq!(supply.count(), 1);
        // lifted into a stack of another colour: refused, nothing moves
        let mut blues = Stack::of(blue, 1);
        assert_eq!(lift(&mut squares, 1, &mut blues), Err(MoveError::OtherKind));
        assert_eq!(lift(&mut squares, 1, &mut out), Ok(red));
        assert_eq!(lift(&mut squares, 1, &mut out), Err(MoveError::Short { held: 0 }));
        assert!(squares.is_empty());
        // everything is where the tally finds it: two red, one blue
        place(&mut supply, &mut squares, 2, red).unwrap();
        let mut t = Tally::new(2);
        t.add(&supply).add(&out).add(&squares).add(&blues);
        assert_eq!(t.check(|_| 2), Err(Imbalance::Count { kind: blue, found: 1, expected: 2 }));
        assert_eq!(t.check(|k| [2, 1][k.index()]), Ok(()));
    }
}
