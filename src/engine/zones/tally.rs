//! The conservation check: components per kind added up over a game's
//! zones and compared with the totals it was set up with.

use smallvec::SmallVec;

use super::Zone;
use crate::engine::ids::{Id, Kind};

/// Components per kind, added up over a game's zones; `check` compares
/// each kind with the total the game was set up with.
#[derive(Debug, Clone)]
pub struct Tally<K: Kind> {
    counts: SmallVec<[i32; 64]>,
    /// The first index added that no kind has.
    stray: Option<usize>,
    kind: std::marker::PhantomData<fn() -> K>,
}

/// Where a tally and the totals disagree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Imbalance<K: Kind> {
    /// `found` of `kind` lie in the zones, the game has `expected`.
    Count { kind: Id<K>, found: i32, expected: u32 },
    /// A component of a kind the game does not have (index `index`).
    Unknown { index: usize },
}

impl<K: Kind> Tally<K> {
    /// A tally over `kinds` kinds.
    pub fn new(kinds: usize) -> Tally<K> {
        Tally { counts: SmallVec::from_elem(0, kinds), stray: None, kind: std::marker::PhantomData }
    }

    /// Adds everything in a zone (a declared `Supply` too).
    pub fn add(&mut self, zone: &impl Zone<K>) -> &mut Tally<K> {
        zone.tally_into(self);
        self
    }

    /// Adds `n` components of `k` that lie outside any zone the game
    /// models as one (a card kept with its target, say).
    pub fn add_one(&mut self, k: Id<K>, n: u32) -> &mut Tally<K> {
        self.add_at(k.index(), n);
        self
    }

    pub(super) fn add_at(&mut self, i: usize, n: u32) {
        self.shift_at(i, n as i32);
    }

    pub(super) fn shift_at(&mut self, i: usize, by: i32) {
        match self.counts.get_mut(i) {
            Some(c) => *c += by,
            None => {
                self.stray.get_or_insert(i);
            }
        }
    }

    /// Adds one component at each index (the slice is taken once: a
    /// `SmallVec` checks where it lives on every access).
    pub(super) fn add_each(&mut self, indexes: impl Iterator<Item = usize>) {
        let counts = &mut self.counts[..];
        for i in indexes {
            match counts.get_mut(i) {
                Some(c) => *c += 1,
                None => {
                    self.stray.get_or_insert(i);
                }
            }
        }
    }

    /// Adds `by[i]` components at each index `i`.
    pub(super) fn add_counts(&mut self, by: &[u8]) {
        let counts = &mut self.counts[..];
        for (i, &n) in by.iter().enumerate() {
            match counts.get_mut(i) {
                Some(c) => *c += i32::from(n),
                None if n > 0 => {
                    self.stray.get_or_insert(i);
                }
                None => {}
            }
        }
    }

    /// How many of `k` were added.
    pub fn found(&self, k: Id<K>) -> i32 {
        self.counts.get(k.index()).copied().unwrap_or(0)
    }

    /// The first kind (in order) whose count is not `expected(kind)`, or a
    /// component of a kind that does not exist.
    pub fn check(&self, expected: impl Fn(Id<K>) -> u32) -> Result<(), Imbalance<K>> {
        if let Some(index) = self.stray {
            return Err(Imbalance::Unknown { index });
        }
        for (kind, &found) in Id::first(self.counts.len()).zip(&self.counts) {
            let expected = expected(kind);
            if found != expected as i32 {
                return Err(Imbalance::Count { kind, found, expected });
            }
        }
        Ok(())
    }
}
