//! Picks: one component of a `Multiset` at random (`Multiset::pick`: a
//! card taken from a hand, a hand cut to its limit), and the ways to take
//! `size` components from counts per kind (a hand's cards given for a
//! payment, the cards that reopen a closed building), each a multiset
//! within the counts, listed in one canonical order (kinds in index order,
//! more of a lower kind first), counted, or found by position without
//! listing the ones before it.
//!
//! A branch that cannot reach `size` with the components left from its
//! kind on is never walked: asking for more than the counts hold lists
//! nothing at once, however many kinds there are (the walk is otherwise
//! exponential in the kinds).

use smallvec::SmallVec;

use super::super::{Chance, Id, Kind};
use super::Multiset;

impl<K: Kind, const N: usize> Multiset<K, N> {
    /// One component at random, every one held equally likely (a kind held
    /// twice is twice as likely), leaving `except` out (counts per kind);
    /// `None` when nothing is left. A scenario's forced outcome picks the
    /// kind `name` calls by it (a card's id), when one is held.
    pub fn pick(&self, except: &[(Id<K>, u8)], chance: &mut Chance, name: &dyn Fn(Id<K>) -> String) -> Option<Id<K>> {
        // what is left of a kind once `except` is left out (no copy of the
        // counts: a hand cut to its limit picks card after card)
        let left = |k: Id<K>, n: u8| {
            let out = except.iter().filter(|(e, _)| *e == k).fold(0u8, |a, (_, m)| a.saturating_add(*m));
            u32::from(n.saturating_sub(out))
        };
        let kinds = || Id::first(self.counts.len()).zip(self.counts.iter().copied());
        let total: u32 = if except.is_empty() { self.total() } else { kinds().map(|(k, n)| left(k, n)).sum() };
        // the kind of the `i`-th component, kinds in index order
        let nth = |mut i: u32| {
            for (k, n) in kinds() {
                let n = left(k, n);
                if i < n {
                    return k;
                }
                i -= n;
            }
            Id::ZERO
        };
        (total > 0).then(|| nth(chance.pick(total, &|i| name(nth(i)))))
    }
}

/// One pick: (kind, how many), in kind order, no zero counts; inline up to
/// eight kinds, so listing thousands of picks does not allocate.
pub type Pick<K> = SmallVec<[(Id<K>, u8); 8]>;

/// Every pick of `size` from `counts` (indexed by kind), in canonical
/// order, each handed to `f`.
pub fn each_pick<K: Kind>(counts: &[u8], size: u32, f: &mut dyn FnMut(&Pick<K>)) {
    // components left from each kind on: the walk stops where too few remain
    let mut suffix: SmallVec<[u32; 49]> = SmallVec::from_elem(0, counts.len() + 1);
    for k in (0..counts.len()).rev() {
        suffix[k] = suffix[k + 1] + u32::from(counts[k]);
    }
    walk(counts, &suffix, 0, size, &mut Pick::new(), f);
}

fn walk<K: Kind>(
    counts: &[u8],
    suffix: &[u32],
    from: usize,
    size: u32,
    cur: &mut Pick<K>,
    f: &mut dyn FnMut(&Pick<K>),
) {
    #[cfg(test)]
    tests::WALKED.with(|w| w.set(w.get() + 1));
    if size == 0 {
        f(cur);
        return;
    }
    for kind in Id::<K>::first(counts.len()).skip(from) {
        let k = kind.index();
        // fewer than `size` components from here on: no pick starts at k or later
        if suffix[k] < size {
            return;
        }
        for take in (1..=u32::from(counts[k]).min(size)).rev() {
            cur.push((kind, take as u8));
            walk(counts, suffix, k + 1, size - take, cur, f);
            cur.pop();
        }
    }
}

/// How many picks `each_pick` hands over (kind by kind: `ways[s]` picks of
/// `s` from the kinds so far; a count past `usize` stays at its largest).
pub fn count_picks(counts: &[u8], size: u32) -> usize {
    let size = size as usize;
    let mut ways: SmallVec<[usize; 16]> = SmallVec::from_elem(0, size + 1);
    ways[0] = 1;
    for &held in counts.iter().filter(|&&n| n > 0) {
        // from the top down, each total takes 0..=held of this kind
        for s in (1..=size).rev() {
            let more = (1..=(held as usize).min(s)).fold(0usize, |a, t| a.saturating_add(ways[s - t]));
            ways[s] = ways[s].saturating_add(more);
        }
    }
    ways[size]
}

/// The `k`-th pick `each_pick` hands over (from 0), if it hands over more
/// than `k`: `ways[j][s]` counts the picks of `s` from the kinds `j..`,
/// and each kind's takes, most first, are skipped by the picks they hold.
pub fn nth_pick<K: Kind>(counts: &[u8], size: u32, mut k: usize) -> Option<Pick<K>> {
    let size = size as usize;
    let row = size + 1;
    let mut ways: SmallVec<[usize; 256]> = SmallVec::from_elem(0, (counts.len() + 1) * row);
    ways[counts.len() * row] = 1;
    for j in (0..counts.len()).rev() {
        for s in 0..=size {
            let take = (counts[j] as usize).min(s);
            ways[j * row + s] = (0..=take).fold(0usize, |a, t| a.saturating_add(ways[(j + 1) * row + s - t]));
        }
    }
    if k >= ways[size] {
        return None;
    }
    let mut pick = Pick::new();
    let mut s = size;
    for (j, kind) in Id::<K>::first(counts.len()).enumerate() {
        if s == 0 {
            break;
        }
        for take in (1..=(counts[j] as usize).min(s)).rev() {
            let here = ways[(j + 1) * row + s - take];
            if k < here {
                pick.push((kind, take as u8));
                s -= take;
                break;
            }
            k -= here;
        }
    }
    Some(pick)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    thread_local! {
        /// The steps of the walk taken on this thread.
        pub(super) static WALKED: Cell<u64> = const { Cell::new(0) };
    }

    #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
    enum Card {}
    impl Kind for Card {
        const NAME: &'static str = "card kind";
    }

    fn all(counts: &[u8], size: u32) -> Vec<Vec<(usize, u8)>> {
        let mut out = Vec::new();
        each_pick::<Card>(counts, size, &mut |p| out.push(p.iter().map(|(k, n)| (k.index(), *n)).collect()));
        out
    }

    /// Every multiset of `size` within `counts`, by brute force over every
    /// vector of takes, in the canonical order (lexicographic, more first).
    fn brute(counts: &[u8], size: u32) -> Vec<Vec<(usize, u8)>> {
        let mut takes: Vec<Vec<u8>> = vec![vec![]];
        for &n in counts {
            takes = takes.into_iter().flat_map(|t| (0..=n).map(move |x| [t.clone(), vec![x]].concat())).collect();
        }
        takes.retain(|t| t.iter().map(|&x| u32::from(x)).sum::<u32>() == size);
        takes.sort_by(|a, b| b.cmp(a));
        takes
            .into_iter()
            .map(|t| t.iter().enumerate().filter(|(_, n)| **n > 0).map(|(k, n)| (k, *n)).collect())
            .collect()
    }

    /// Every component held is equally likely (a kind held twice twice as
    /// likely as one held once, not one kind as likely as another), what is
    /// left out is never picked, and a forced outcome picks the kind it names.
    #[test]
    fn a_pick_weighs_each_component_alike_and_follows_a_forced_outcome() {
        let id = |i: usize| Id::<Card>::new(i).unwrap();
        let mut hand: Multiset<Card> = Multiset::new(2);
        hand.counts[0] = 2;
        hand.counts[1] = 1;
        let name = |c: Id<Card>| ["a", "b"][c.index()].to_string();
        let mut chance = Chance::new(7);
        let firsts = (0..3000).filter(|_| hand.pick(&[], &mut chance, &name) == Some(id(0))).count();
        assert!((1900..2100).contains(&firsts), "the kind held twice was picked {firsts} times in 3000");
        assert!((0..100).all(|_| hand.pick(&[(id(0), 2)], &mut chance, &name) == Some(id(1))));
        assert_eq!(hand.pick(&[(id(0), 2), (id(1), 1)], &mut chance, &name), None);
        chance.force(crate::engine::Forced("b".into()));
        assert_eq!(hand.pick(&[], &mut chance, &name), Some(id(1)));
        assert!(chance.misfits().is_empty());
    }

    #[test]
    fn picks_are_every_multiset_in_canonical_order_counted_and_found_by_position() {
        for (counts, size) in [(&[2u8, 0, 1, 3][..], 3), (&[1, 1, 1], 2), (&[4], 4), (&[2, 2], 0), (&[1, 2], 4)] {
            let listed = all(counts, size);
            assert_eq!(listed, brute(counts, size), "{counts:?} size {size}");
            assert_eq!(count_picks(counts, size), listed.len());
            for (i, want) in listed.iter().enumerate() {
                let got: Vec<(usize, u8)> =
                    nth_pick::<Card>(counts, size, i).unwrap().iter().map(|(k, n)| (k.index(), *n)).collect();
                assert_eq!(&got, want);
            }
            assert!(nth_pick::<Card>(counts, size, listed.len()).is_none());
        }
    }

    /// Twenty kinds of one component each, asked for twenty-one: without
    /// the cut the walk steps through every subset of the twenty (2^20)
    /// before finding none (at 256 cards from a hand of thirty, a house
    /// rule's reopening of the Town Hall, that took seconds an action);
    /// with it, the first step ends the walk.
    #[test]
    fn asking_for_more_than_the_counts_hold_walks_nothing() {
        let counts = [1u8; 20];
        let mut found = 0;
        WALKED.with(|w| w.set(0));
        each_pick::<Card>(&counts, 21, &mut |_| found += 1);
        assert_eq!((found, WALKED.with(Cell::get)), (0, 1));
        assert_eq!(count_picks(&counts, 21), 0);
        // and a large count saturates instead of wrapping
        assert_eq!(count_picks(&[255; 40], 200), usize::MAX);
    }
}
