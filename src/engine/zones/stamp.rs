//! Stamps: what a zone's contents are, as a number. Every change to a
//! stamped zone (a move in or out, a shuffle, a sort) gives it a stamp no
//! zone has had in the process, so two zones with one stamp hold the same
//! components: one is the other, or a clone of it unchanged since. A check
//! that worked something out from a game's zones can keep it with their
//! stamps and reuse it while they are the same (`Stamped`).
//!
//! The stamps are `Watched`'s (`engine::watched::fresh`: a counter of
//! each thread's own, so stamping costs no atomic operation per move).
//! Stamp 0 is an empty zone made anew (`Pile::new` is a `const fn`): any
//! two such hold the same. A `Stack`'s stamp is what it holds, its kind
//! and count in one number: equal stamps are equal contents there too.

use std::cell::Cell;

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

/// What a check found over a list of stamped zones (its answer when it
/// held), kept until one of them changes: `get` gives it again while the
/// stamps are the ones it was found at, and works it out anew otherwise.
/// A failure is never kept, nor an answer over more than `N` zones.
/// Equal to any other and not serialised (a cache), like `Kept`.
#[derive(Clone)]
pub struct KeptOver<R: Copy, const N: usize> {
    /// The stamps the answer was found at (the first `len`).
    at: std::cell::RefCell<([u64; N], usize)>,
    kept: Cell<Option<R>>,
}

impl<R: Copy, const N: usize> Default for KeptOver<R, N> {
    fn default() -> Self {
        KeptOver { at: std::cell::RefCell::new(([0; N], 0)), kept: Cell::new(None) }
    }
}

/// The stamps of the zones a check counts, gathered on the stack (at most
/// `N`; past that, none is kept and the check counts every time).
pub struct Stamps<const N: usize> {
    stamps: [u64; N],
    len: usize,
}

impl<const N: usize> Stamps<N> {
    #[inline]
    pub fn new() -> Stamps<N> {
        Stamps { stamps: [0; N], len: 0 }
    }

    /// Adds a zone's stamp (or any number that stands for what a check
    /// reads, such as the address of the totals it compares with).
    #[inline]
    pub fn add(&mut self, stamp: u64) -> &mut Stamps<N> {
        if let Some(s) = self.stamps.get_mut(self.len) {
            *s = stamp;
        }
        self.len += 1;
        self
    }

    fn get(&self) -> Option<&[u64]> {
        self.stamps.get(..self.len)
    }
}

impl<const N: usize> Default for Stamps<N> {
    fn default() -> Self {
        Stamps::new()
    }
}

impl<R: Copy, const N: usize> KeptOver<R, N> {
    /// `work`'s answer for zones whose stamps are `stamps`, worked out only
    /// when one has changed since the answer kept.
    #[inline]
    pub fn get<E>(&self, stamps: &Stamps<N>, work: impl FnOnce() -> Result<R, E>) -> Result<R, E> {
        let Some(now) = stamps.get() else { return work() };
        if let Some(r) = self.kept.get()
            && self.at.try_borrow().is_ok_and(|at| at.0[..at.1] == *now)
        {
            return Ok(r);
        }
        let r = work()?;
        if let Ok(mut at) = self.at.try_borrow_mut() {
            at.0[..now.len()].copy_from_slice(now);
            at.1 = now.len();
            self.kept.set(Some(r));
        }
        Ok(r)
    }
}

impl<R: Copy, const N: usize> PartialEq for KeptOver<R, N> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl<R: Copy, const N: usize> Eq for KeptOver<R, N> {}

impl<R: Copy, const N: usize> std::fmt::Debug for KeptOver<R, N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("KeptOver")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_over_more_zones_than_it_keeps_is_never_kept() {
        let kept: KeptOver<u8, 2> = KeptOver::default();
        let mut three = Stamps::new();
        three.add(1).add(2).add(3);
        assert_eq!(kept.get(&three, || Ok::<_, ()>(1)), Ok(1));
        assert_eq!(kept.get(&three, || Ok::<_, ()>(2)), Ok(2));
    }

    #[test]
    fn a_kept_answer_is_found_again_only_after_a_zone_changes() {
        use crate::engine::{Id, Kind, Pile, move_n};
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
        enum Card {}
        impl Kind for Card {
            const NAME: &'static str = "card";
        }
        let a: Id<Card> = Id::new(0).unwrap();
        let (mut deck, mut hand): (Pile<Card>, Pile<Card>) = (Pile::from_counts(&[3]), Pile::new());
        let kept: KeptOver<usize, 4> = KeptOver::default();
        let runs = Cell::new(0);
        let len = |p: &Pile<Card>| {
            runs.set(runs.get() + 1);
            Ok::<_, ()>(p.len())
        };
        let stamps = |d: &Pile<Card>, h: &Pile<Card>| {
            let mut s = Stamps::new();
            s.add(d.stamp()).add(h.stamp());
            s
        };
        assert_eq!(kept.get(&stamps(&deck, &hand), || len(&deck)), Ok(3));
        assert_eq!(kept.get(&stamps(&deck, &hand), || len(&deck)), Ok(3));
        assert_eq!(runs.get(), 1);
        move_n(&mut deck, &mut hand, a, 1).unwrap();
        assert_eq!(kept.get(&stamps(&deck, &hand), || len(&deck)), Ok(2));
        // a clone holds the same; a pile read back from JSON takes a fresh stamp
        let copy = deck.clone();
        assert_eq!(kept.get(&stamps(&copy, &hand), || len(&copy)), Ok(2));
        let back: Pile<Card> = serde_json::from_str(&serde_json::to_string(&deck).unwrap()).unwrap();
        assert_eq!((back == deck, back.stamp() == deck.stamp()), (true, false));
        assert_eq!(runs.get(), 2);
        // a failure is not kept
        assert_eq!(kept.get(&stamps(&back, &hand), || Err::<usize, ()>(())), Err(()));
        assert_eq!(kept.get(&stamps(&back, &hand), || len(&back)), Ok(2));
        assert_eq!(runs.get(), 3);
    }
}
