//! What a conservation check keeps between actions (`Ledger`): each
//! zone's stamp and what the zone added to the tally, and their sum. After
//! an action only the zones whose stamps changed are counted again (each
//! one's old part taken out of the sum and its new part put in), so a
//! check after a draw counts the deck and the hand, not every zone of the
//! game; after an action that moved none of them, the last answer stands.

use std::cell::RefCell;

use super::{Kind, Tally};

/// The parts a conservation check keeps: one `Ledger` for each kind of
/// component a game conserves, in its state. A cache, not game state: a
/// clone starts empty (and counts every zone at its first check), and any
/// two are equal.
pub struct Ledger<K: Kind, R> {
    books: RefCell<Option<Box<Books<K, R>>>>,
}

/// The parts of one game's zones, in the order `conserved` visits them.
struct Books<K: Kind, R> {
    /// What the sum is over: the kinds and the number standing for what
    /// else the check reads (`conserved`'s `also`).
    kinds: usize,
    also: u64,
    /// Each zone's stamp when it was last counted.
    stamps: Vec<u64>,
    /// Each zone's part, `kinds` counts a zone, zone after zone.
    parts: Vec<i32>,
    /// The sum of the parts: what the check compares.
    total: Tally<K>,
    /// Where one zone is counted: zero in every kind between counts.
    scratch: Tally<K>,
    /// The check's answer over the sum, unless it failed or the sum moved.
    answer: Option<R>,
}

impl<K: Kind, R> Default for Ledger<K, R> {
    fn default() -> Self {
        Ledger { books: RefCell::new(None) }
    }
}

impl<K: Kind, R> Clone for Ledger<K, R> {
    fn clone(&self) -> Self {
        Ledger::default()
    }
}

impl<K: Kind, R> PartialEq for Ledger<K, R> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl<K: Kind, R> Eq for Ledger<K, R> {}

impl<K: Kind, R> std::fmt::Debug for Ledger<K, R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Ledger")
    }
}

/// One pass over a game's zones against its books (`Ledger::pass`).
pub(super) struct Pass<'b, K: Kind, R> {
    books: &'b mut Books<K, R>,
    /// The next zone's place in the books.
    at: usize,
    /// Whether a part changed in this pass.
    moved: bool,
    /// Whether every zone kept a stamp, counted within its kinds and held
    /// only kinds it admits; if not, the pass stands for nothing and the
    /// books are emptied.
    sound: bool,
}

impl<K: Kind, R: Copy> Ledger<K, R> {
    /// Runs `visit` over the zones (it hands each one's stamp and a way to
    /// count it to `Pass::zone`), then `check` over the sum where a part
    /// moved or the last answer failed. `None` where the books cannot be
    /// kept (in use already, or a zone without a stamp, with a stray or
    /// holding a kind it does not admit): the caller then counts every
    /// zone.
    #[inline]
    pub(super) fn run<E>(
        &self,
        (kinds, also): (usize, u64),
        visit: impl FnOnce(&mut Pass<'_, K, R>),
        check: &mut impl FnMut(&Tally<K>) -> Result<R, E>,
    ) -> Option<Result<R, E>> {
        let mut slot = self.books.try_borrow_mut().ok()?;
        let books = match slot.as_mut() {
            Some(b) if b.kinds == kinds && b.also == also => b,
            _ => slot.insert(Box::new(Books::new(kinds, also))),
        };
        let mut pass = Pass { books, at: 0, moved: false, sound: true };
        visit(&mut pass);
        let Pass { at, mut moved, sound, .. } = pass;
        let books = slot.as_mut()?;
        if !sound {
            // kept for the next pass, emptied: it counts every zone again
            **books = Books::new(kinds, also);
            return None;
        }
        moved |= books.truncate(at);
        if let Some(r) = books.answer.filter(|_| !moved) {
            return Some(Ok(r));
        }
        let r = check(&books.total);
        books.answer = r.as_ref().ok().copied();
        Some(r)
    }
}

impl<K: Kind, R> Pass<'_, K, R> {
    /// The next zone: its stamp (`None` where it keeps none), and `count`,
    /// which adds what it holds to a tally (empty before) and says whether
    /// the zone admits all of it, run only where the stamp is not the one
    /// the books have for this place (so a zone no action moved is not
    /// read).
    #[inline]
    pub(super) fn zone(&mut self, stamp: Option<u64>, count: impl FnOnce(&mut Tally<K>) -> bool) {
        let Some(stamp) = stamp.filter(|_| self.sound) else {
            self.sound = false;
            return;
        };
        let at = self.at;
        self.at += 1;
        if self.books.stamps.get(at) == Some(&stamp) {
            return;
        }
        self.moved = true;
        self.sound &= self.books.recount(at, stamp, count);
    }
}

impl<K: Kind, R> Books<K, R> {
    fn new(kinds: usize, also: u64) -> Books<K, R> {
        Books {
            kinds,
            also,
            stamps: Vec::new(),
            parts: Vec::new(),
            total: Tally::new(kinds),
            scratch: Tally::new(kinds),
            answer: None,
        }
    }

    /// Counts the zone at `at` again: its old part out of the sum, its new
    /// one in. False where it counted a stray (the books no longer add up)
    /// or a kind the zone does not admit (`count` says which).
    #[inline]
    fn recount(&mut self, at: usize, stamp: u64, count: impl FnOnce(&mut Tally<K>) -> bool) -> bool {
        let kinds = self.total.counts_mut().len();
        if at == self.stamps.len() {
            self.stamps.push(stamp);
            self.parts.resize(self.parts.len() + kinds, 0);
        }
        self.stamps[at] = stamp;
        if !(count(&mut self.scratch) && self.scratch.within_kinds()) {
            return false;
        }
        let part = &mut self.parts[at * kinds..(at + 1) * kinds];
        let (new, total) = (self.scratch.counts_mut(), self.total.counts_mut());
        for ((t, p), n) in total.iter_mut().zip(part.iter_mut()).zip(new.iter_mut()) {
            *t += *n - *p;
            *p = std::mem::take(n);
        }
        self.scratch.forget_reach();
        true
    }

    /// Takes the parts of the places from `len` on out of the sum (a pass
    /// that visited fewer zones than the last); whether there were any.
    fn truncate(&mut self, len: usize) -> bool {
        if len >= self.stamps.len() {
            return false;
        }
        let total = self.total.counts_mut();
        let kinds = total.len();
        for part in self.parts[len * kinds..].chunks(kinds.max(1)) {
            total.iter_mut().zip(part).for_each(|(t, p)| *t -= p);
        }
        self.stamps.truncate(len);
        self.parts.truncate(len * kinds);
        true
    }
}
