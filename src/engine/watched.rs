//! `Watched`: a value whose every change is seen, so what a check worked
//! out from it can be kept until it changes.

use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The bits of a stamp that count within a thread's slot.
const COUNT_BITS: u32 = 40;

/// The next thread's slot of stamps.
static SLOTS: AtomicU64 = AtomicU64::new(1);

thread_local! {
    static NEXT: Cell<u64> = const { Cell::new(0) };
}

/// A stamp nothing has had in this process: every `Watched` made or
/// changed, and every zone changed (`zones::stamp`), takes a fresh one, so
/// two equal stamps are one value (or its clones, unchanged since). They
/// come from a counter of each thread's own, a slot of the process's taken
/// once per thread and again after 2^40 stamps: no atomic operation per
/// change, and no cache line two threads share. 0 is never one.
#[inline]
pub(crate) fn fresh() -> u64 {
    NEXT.with(|next| {
        let mut n = next.get();
        if n & ((1 << COUNT_BITS) - 1) == (1 << COUNT_BITS) - 1 || n == 0 {
            n = SLOTS.fetch_add(1, Ordering::Relaxed) << COUNT_BITS;
        }
        n += 1;
        next.set(n);
        n
    })
}

/// A value read freely (`Deref`) and changed only through `edit`, which
/// gives it a stamp no other value has had. What is worked out from it can
/// be kept with its `stamp` and reused while the stamp is the same: the
/// value cannot have changed, for no `&mut` to it is reached any other way.
/// A clone keeps the stamp (it is the same value); a value made anew,
/// read from JSON or edited takes a fresh one.
///
/// Equality and the JSON form are the value's: the stamp is bookkeeping,
/// like a cache, not part of what a state is, and never reaches output.
#[derive(Clone)]
pub struct Watched<T> {
    value: T,
    stamp: u64,
}

impl<T> Watched<T> {
    pub fn new(value: T) -> Watched<T> {
        Watched { value, stamp: fresh() }
    }

    /// The value to change; it takes a fresh stamp (whether or not the
    /// caller then changes it: a stamp that moves without a change only
    /// costs a check its kept work).
    #[inline]
    pub fn edit(&mut self) -> &mut T {
        self.stamp = fresh();
        &mut self.value
    }

    /// The stamp of the value as it is now.
    #[inline]
    pub fn stamp(&self) -> u64 {
        self.stamp
    }
}

impl<T> std::ops::Deref for Watched<T> {
    type Target = T;
    #[inline]
    fn deref(&self) -> &T {
        &self.value
    }
}

impl<T: PartialEq> PartialEq for Watched<T> {
    fn eq(&self, other: &Self) -> bool {
        self.value == other.value
    }
}

impl<T: Eq> Eq for Watched<T> {}

impl<T: std::fmt::Debug> std::fmt::Debug for Watched<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.value.fmt(f)
    }
}

impl<T: Serialize> Serialize for Watched<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.value.serialize(s)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Watched<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        T::deserialize(d).map(Watched::new)
    }
}

/// What was worked out from a `Watched` value at one stamp, kept until the
/// value changes: `get` gives it again while the stamp is the same and
/// works it out anew otherwise. Equal to any other and not serialised (a
/// cache), so a state that keeps one compares and round-trips as before.
#[derive(Clone, Default)]
pub struct Kept<R> {
    /// The stamp `kept` was worked out at; 0, which no value has, at first.
    at: std::cell::Cell<u64>,
    kept: std::cell::RefCell<R>,
}

impl<R> Kept<R> {
    /// What `work` gives for `value`, worked out only when `value` has
    /// changed since the last call. The answer is borrowed from the
    /// `Kept` until it is dropped: a second `get` meanwhile would have to
    /// change what the first still reads, so it works out its answer
    /// without keeping it.
    #[inline]
    pub fn get<T>(&self, value: &Watched<T>, work: impl Fn(&T) -> R) -> Answer<'_, R> {
        if self.at.get() != value.stamp {
            match self.kept.try_borrow_mut() {
                Ok(mut kept) => {
                    *kept = work(value);
                    self.at.set(value.stamp);
                }
                Err(_) => return Answer::Fresh(work(value)),
            }
        }
        match self.kept.try_borrow() {
            Ok(kept) => Answer::Kept(kept),
            Err(_) => Answer::Fresh(work(value)),
        }
    }
}

/// `Kept::get`'s answer: the kept one, borrowed, or one worked out afresh.
pub enum Answer<'a, R> {
    Kept(std::cell::Ref<'a, R>),
    Fresh(R),
}

impl<R> std::ops::Deref for Answer<'_, R> {
    type Target = R;
    #[inline]
    fn deref(&self) -> &R {
        match self {
            Answer::Kept(r) => r,
            Answer::Fresh(r) => r,
        }
    }
}

impl<R> PartialEq for Kept<R> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl<R> Eq for Kept<R> {}

impl<R> std::fmt::Debug for Kept<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Kept")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamps_are_fresh_across_threads() {
        let mine: Vec<u64> = (0..1000).map(|_| fresh()).collect();
        let theirs = std::thread::spawn(|| (0..1000).map(|_| fresh()).collect::<Vec<u64>>()).join().unwrap();
        let all: std::collections::BTreeSet<u64> = mine.iter().chain(&theirs).copied().collect();
        assert_eq!(all.len(), 2000);
        assert!(!all.contains(&0), "0 is an empty zone made anew");
    }

    #[test]
    fn kept_work_is_redone_after_an_edit_and_only_then() {
        let mut v = Watched::new(vec![1, 2, 3]);
        let kept = Kept::default();
        let runs = std::cell::Cell::new(0);
        let sum = |v: &Vec<i32>| {
            runs.set(runs.get() + 1);
            v.iter().sum::<i32>()
        };
        assert_eq!(*kept.get(&v, sum), 6);
        assert_eq!(*kept.get(&v, sum), 6);
        v.edit()[0] = 10;
        assert_eq!(*kept.get(&v, sum), 15);
        // a clone is the same value; one made anew or read back is not
        let c = v.clone();
        assert_eq!(*kept.get(&c, sum), 15);
        assert_eq!(runs.get(), 2);
        let json = serde_json::to_string(&v).unwrap();
        assert_eq!(json, "[10,2,3]");
        let back: Watched<Vec<i32>> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, v);
        assert_eq!(*kept.get(&back, sum), 15);
        assert_eq!(*kept.get(&Watched::new(vec![1]), sum), 1);
        assert_eq!(runs.get(), 4);
        // while an answer is still borrowed, one for another value is
        // worked out and not kept
        let first = kept.get(&v, sum);
        assert_eq!(*kept.get(&v, sum), 15);
        assert_eq!(*kept.get(&Watched::new(vec![2]), sum), 2);
        assert_eq!((*first, runs.get()), (15, 6));
        drop(first);
        assert_eq!(*kept.get(&v, sum), 15);
        assert_eq!(runs.get(), 6);
    }
}
