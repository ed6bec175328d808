//! The conservation check: components per kind added up over a game's
//! zones and compared with the totals it was set up with.

use super::Holds;
use crate::engine::ids::{Id, Kind};

/// Room for every kind an id can name (`Id::CAPACITY`): indexing the
/// counts by an id needs no bounds check, so a pile is added card by card
/// with one add each.
const ROOM: usize = u8::MAX as usize + 1;

/// Components per kind, added up over a game's zones; `check` compares
/// each kind with the total the game was set up with.
///
/// The counts are a fixed array with room for every id (1 KiB, no
/// allocation): a game tallies its zones after every action.
#[derive(Debug, Clone)]
pub struct Tally<K: Kind> {
    counts: [i32; ROOM],
    /// How many kinds the game has; a count at or past it is a stray.
    kinds: usize,
    /// The first index past every id's room, or the first index no kind has
    /// that was added through `add_at`, `shift_at` or `add_counts`; strays a
    /// pile adds are found in `counts` by `check`.
    stray: Option<usize>,
    /// One past the highest index a pile added (0 before any): a pile's
    /// stray is there when it is past `kinds`, found without reading the
    /// counts no kind has.
    reach: usize,
    /// The first component found in a zone that does not admit its kind
    /// (`Admits::Class`): the zone's name and the kind.
    misplaced: Option<(&'static str, Id<K>)>,
    kind: std::marker::PhantomData<fn() -> K>,
}

/// Where a tally and the totals disagree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Imbalance<K: Kind> {
    /// `found` of `kind` lie in the zones, the game has `expected`.
    Count { kind: Id<K>, found: i32, expected: u32 },
    /// A component of a kind the game does not have (index `index`).
    Unknown { index: usize },
    /// A component in a zone that does not admit its kind (`Admits`).
    Misplaced { kind: Id<K>, zone: &'static str },
}

/// The first kind (its index) that `counts` (one count per kind, in kind
/// order) holds and `classes` (each kind's class, likewise; a kind past it
/// has none) does not put in `class`: one pass with no branch per kind
/// (masks the compiler turns into vector operations), the kind looked for
/// only when there is one.
#[inline]
pub(super) fn outside(counts: &[i32], classes: &[u8], class: u8) -> Option<usize> {
    let (classed, past) = counts.split_at(classes.len().min(counts.len()));
    let any = classed.iter().zip(classes).fold(0, |a, (&n, &c)| a | (n & -i32::from(c != class)));
    let any = past.iter().fold(any, |a, &n| a | n);
    (any != 0).then(|| counts.iter().enumerate().position(|(k, &n)| n != 0 && classes.get(k) != Some(&class)))?
}

impl<K: Kind> Tally<K> {
    /// A tally over `kinds` kinds.
    pub fn new(kinds: usize) -> Tally<K> {
        Tally { counts: [0; ROOM], kinds, stray: None, reach: 0, misplaced: None, kind: std::marker::PhantomData }
    }

    /// Adds everything in a zone (a declared `Supply` too).
    pub fn add(&mut self, zone: &impl Holds<K>) -> &mut Tally<K> {
        zone.tally_into(self);
        self
    }

    pub(super) fn add_at(&mut self, i: usize, n: u32) {
        self.shift_at(i, n as i32);
    }

    pub(super) fn shift_at(&mut self, i: usize, by: i32) {
        if i >= self.kinds {
            self.stray.get_or_insert(i);
        }
        if let Some(c) = self.counts.get_mut(i) {
            *c += by;
        }
    }

    /// Adds one component of each id: one add per id, no bounds check (an
    /// id is below `ROOM`) and no branch; an id no kind has is found by
    /// `check`.
    #[inline]
    pub(super) fn add_each(&mut self, ids: impl Iterator<Item = Id<K>>) {
        let mut reach = self.reach;
        for k in ids {
            self.counts[k.index()] += 1;
            reach = reach.max(k.index() + 1);
        }
        self.reach = reach;
    }

    /// Adds `by[i]` components at each index `i`. The indexes the tally
    /// has are added in one loop with no bounds check per entry (the
    /// compiler turns it into vector adds: a hand is counted after every
    /// action); only a count beyond them is a stray.
    pub(super) fn add_counts(&mut self, by: &[u8]) {
        let counts = &mut self.counts[..self.kinds.min(ROOM)];
        let (known, beyond) = by.split_at(by.len().min(counts.len()));
        for (c, &n) in counts.iter_mut().zip(known) {
            *c += i32::from(n);
        }
        if let Some(i) = beyond.iter().position(|&n| n > 0) {
            self.stray.get_or_insert(known.len() + i);
        }
    }

    /// The counts of the tally's kinds (what `Ledger` keeps a sum of).
    #[inline]
    pub(super) fn counts_mut(&mut self) -> &mut [i32] {
        &mut self.counts[..self.kinds.min(ROOM)]
    }

    /// The first kind this tally holds that `classes` does not put in
    /// `class` (`outside`).
    pub(super) fn outside(&self, classes: &[u8], class: u8) -> Option<Id<K>> {
        outside(&self.counts[..self.kinds.min(ROOM)], classes, class).and_then(|k| Id::new(k).ok())
    }

    /// Records that zone `zone` holds kind `kind`, which it does not
    /// admit (the first such is kept; `check` reports it).
    pub(super) fn misplace(&mut self, zone: &'static str, kind: Id<K>) {
        self.misplaced.get_or_insert((zone, kind));
    }

    /// Whether everything added is of a kind the tally has (no stray).
    #[inline]
    pub(super) fn within_kinds(&self) -> bool {
        self.stray.is_none() && self.reach <= self.kinds
    }

    /// Forgets how far a pile reached, once the counts it reached are
    /// zero again (`Ledger` counts each zone in one tally, emptied after).
    #[inline]
    pub(super) fn forget_reach(&mut self) {
        self.reach = 0;
    }

    /// How many of `k` were added.
    pub fn found(&self, k: Id<K>) -> i32 {
        if k.index() < self.kinds { self.counts[k.index()] } else { 0 }
    }

    /// `check` against totals listed in kind order (a kind past the list
    /// expects none): the counts compared with the list, and the kinds
    /// past it with nothing, in one branch-free pass each (vector compares:
    /// a game checks conservation after every action), and no pile's
    /// component past the kinds (`reach`, so the counts no kind has are
    /// not read); `check` finds the first difference only when there is
    /// one.
    #[inline]
    pub fn check_totals(&self, totals: &[u32]) -> Result<(), Imbalance<K>> {
        let kinds = self.kinds.min(ROOM);
        let (listed, unlisted) = self.counts[..kinds].split_at(totals.len().min(kinds));
        let differ = listed.iter().zip(totals).fold(0, |a, (&c, &t)| a | (c ^ t as i32));
        let or = |c: &[i32]| c.iter().fold(0, |a, &n| a | n);
        if self.stray.is_none() && self.misplaced.is_none() && self.reach <= kinds && (differ | or(unlisted)) == 0 {
            return Ok(());
        }
        self.check(|k| totals.get(k.index()).copied().unwrap_or(0))
    }

    /// The first kind (in order) whose count is not `expected(kind)`, or a
    /// component of a kind that does not exist (the first one added through
    /// a count or a supply, else the lowest index a pile holds).
    pub fn check(&self, expected: impl Fn(Id<K>) -> u32) -> Result<(), Imbalance<K>> {
        let kinds = self.kinds.min(ROOM);
        // one OR over the counts no kind has (vector ORs), searched for the
        // stray only when one is there
        let rest = &self.counts[kinds..];
        let beyond = || (rest.iter().fold(0, |a, &n| a | n) != 0).then(|| rest.iter().position(|&n| n != 0)).flatten();
        let beyond = || beyond().map(|i| kinds + i);
        if let Some(index) = self.stray.or_else(beyond) {
            return Err(Imbalance::Unknown { index });
        }
        if let Some((zone, kind)) = self.misplaced {
            return Err(Imbalance::Misplaced { kind, zone });
        }
        for (kind, &found) in Id::first(kinds).zip(&self.counts[..kinds]) {
            let expected = expected(kind);
            if found != expected as i32 {
                return Err(Imbalance::Count { kind, found, expected });
            }
        }
        Ok(())
    }
}
