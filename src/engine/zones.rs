//! Zones: where a game's components lie, changed only by moves, so one
//! conservation check covers every game's cards, chips, cubes and tokens.
//!
//! - `Multiset` counts components per kind (a hand of resource cards, a
//!   player's permits): order does not matter.
//! - `Pile` keeps them in order (a deck, a discard pile, a face-up row):
//!   `draw` takes the top, reshuffling a discard pile into an empty deck
//!   with the state's `Chance` when the game's `WhenEmpty` policy says so.
//! - `Tagged` keeps each component with a tag (a disaster card with the
//!   plot it damaged); `move_tagged` puts one in.
//! - `Stack` counts components of one kind (a player's chips, of his colour).
//! - `Display` is a row of slots holding one component each (a face-up
//!   market, a building's squares with their tokens); `put_slot` and
//!   `take_slot` move one into and out of a given slot.
//! - `Supply` is a declared source and sink (the bank, the box): it gives
//!   and takes any number and remembers the balance.
//!
//! A zone's contents change only through `move_n`, `draw`, `move_all` and
//! `move_to_bottom` (the mutating half of `Zone` is sealed), so no
//! component appears or vanishes except through a `Supply`. `Tally` adds up
//! every zone a game lists and compares each kind with its total; a
//! `Supply` the game declares is counted with its balance, and a component
//! moved through one it does not declare shows as an imbalance.
//!
//! ```
//! use rulecheck::engine::{move_n, Id, Kind, Multiset, Pile, Tally};
//! #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
//! enum Card {}
//! impl Kind for Card {
//!     const NAME: &'static str = "card kind";
//! }
//! let gold: Id<Card> = Id::new(1).unwrap();
//! let mut deck: Pile<Card> = Pile::from_counts(&[0, 3]);
//! let mut hand: Multiset<Card> = Multiset::new(2);
//! move_n(&mut deck, &mut hand, gold, 2).unwrap();
//! assert_eq!((deck.len(), hand.count(gold)), (1, 2));
//! assert!(move_n(&mut deck, &mut hand, gold, 2).is_err());
//! let mut tally = Tally::new(2);
//! tally.add(&deck);
//! tally.add(&hand);
//! assert!(tally.check(|k| [0, 3][k.index()]).is_ok());
//! ```

use serde::{Deserialize, Serialize};
use smallvec::SmallVec;

use super::chance::Chance;
use super::ids::{Id, Kind};

mod conserve;
mod counted;
mod display;
#[cfg(test)]
mod fixture;
mod ledger;
mod named;
mod picks;
mod stamp;
mod tally;
pub use conserve::conserved;
pub use counted::{Stack, Supply};
pub use display::{Display, Refilled};
pub use ledger::Ledger;
pub use named::{Admits, Back, Lies, Named, SeatZones, SetUp, TableZone, Whose, Zones, unknown_zone};
pub use picks::{Pick, count_picks, each_pick, nth_pick};
use stamp::Stamp;
pub use stamp::Stamped;
pub use tally::{Imbalance, Tally};

/// Why a move did not happen (the zones are unchanged).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveError {
    /// The source holds only `held` of the kind.
    Short { held: u32 },
    /// The destination cannot count that many of one kind.
    Full,
    /// The destination keeps a tag with each component (`move_tagged`).
    Untagged,
    /// The destination holds components of one kind, not that one (a stack).
    OtherKind,
}

impl std::fmt::Display for MoveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MoveError::Short { held } => write!(f, "only {held} there to move"),
            MoveError::Full => write!(f, "the destination holds as many of that kind as it can count"),
            MoveError::Untagged => write!(f, "the destination needs a tag with each component"),
            MoveError::OtherKind => write!(f, "the destination holds only components of another kind"),
        }
    }
}

mod sealed {
    use super::{Id, Kind, MoveError};

    /// The mutating half of a zone: callable only from this module, so
    /// everything else changes zones through moves.
    pub trait Store<K: Kind> {
        /// Whether `n` of `k` can be taken out (without taking them).
        fn can_take(&self, k: Id<K>, n: u32) -> Result<(), MoveError>;
        /// Whether `n` of `k` fit in.
        fn can_put(&self, k: Id<K>, n: u32) -> Result<(), MoveError>;
        /// Takes `n` of `k` out; `can_take` said yes.
        fn take(&mut self, k: Id<K>, n: u32);
        /// Puts `n` of `k` in; `can_put` said yes.
        fn put(&mut self, k: Id<K>, n: u32);
    }
}
use sealed::Store;

/// What lies somewhere, read: how many of each kind, in which order, and
/// a stamp of what it holds. The facts and the conservation check read a
/// game's zones through it alone; moving them is `Zone`'s.
pub trait Holds<K: Kind> {
    /// How many of `k` lie here.
    fn count(&self, k: Id<K>) -> u32;
    /// Adds what lies here to a tally.
    fn tally_into(&self, t: &mut Tally<K>);
    /// The components in their order, bottom first, where the zone keeps
    /// one (a pile); `None` where it only counts them.
    fn order(&self) -> Option<&[Id<K>]> {
        None
    }
    /// What it holds as a number (`Stamped`), where the zone keeps one:
    /// `conserved` keeps its answer only over zones that all do.
    fn stamped(&self) -> Option<u64> {
        None
    }
}

/// Somewhere components of kind `K` lie, changed only by moves: every
/// engine zone that can be read (`Holds`) and moved (the sealed `Store`).
pub trait Zone<K: Kind>: Holds<K> + Store<K> {}

impl<K: Kind, Z: Holds<K> + Store<K> + ?Sized> Zone<K> for Z {}

/// A move the rules make only where it can be made (a rule checked it, or
/// what it moves was just counted): a failure is a bug of the game's,
/// caught in debug builds (the tests and the fuzzing of `cargo test`).
#[inline]
pub fn moved<T>(r: Result<T, MoveError>) {
    debug_assert!(r.is_ok(), "a move of the rules failed: {:?}", r.err());
}

/// Moves `n` components of kind `k` from one zone to another; on an error
/// neither changes. A pile gives up its lowest copies (the rest keep their
/// order) and takes the new ones on top.
pub fn move_n<K: Kind>(
    from: &mut (impl Zone<K> + ?Sized),
    to: &mut (impl Zone<K> + ?Sized),
    k: Id<K>,
    n: u32,
) -> Result<(), MoveError> {
    from.can_take(k, n)?;
    to.can_put(k, n)?;
    from.take(k, n);
    to.put(k, n);
    Ok(())
}

/// Moves `n` of `k` to the bottom of a pile (where a returned card goes).
pub fn move_to_bottom<K: Kind>(
    from: &mut (impl Zone<K> + ?Sized),
    to: &mut Pile<K>,
    k: Id<K>,
    n: u32,
) -> Result<(), MoveError> {
    from.can_take(k, n)?;
    from.take(k, n);
    to.cards.splice(0..0, std::iter::repeat_n(k, n as usize));
    to.stamp.renew();
    Ok(())
}

/// Moves one component of kind `k` into a tagged zone, with its tag.
pub fn move_tagged<K: Kind, T>(
    from: &mut impl Zone<K>,
    to: &mut Tagged<K, T>,
    k: Id<K>,
    tag: T,
) -> Result<(), MoveError> {
    from.can_take(k, 1)?;
    from.take(k, 1);
    to.items.push((k, tag));
    to.stamp.renew();
    Ok(())
}

/// Moves a whole pile onto another, keeping its order.
pub fn move_all<K: Kind>(from: &mut Pile<K>, to: &mut Pile<K>) {
    from.stamp.renew();
    to.stamp.renew();
    if to.cards.is_empty() {
        std::mem::swap(&mut from.cards, &mut to.cards);
    } else {
        to.cards.append(&mut from.cards);
    }
}

// ------------------------------------------------------------- multiset

/// Counts per kind, up to 255 of each; inline up to `N` kinds, so cloning a
/// state with a few hands does not allocate.
#[derive(Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent, bound = "")]
pub struct Multiset<K: Kind, const N: usize = 48> {
    counts: SmallVec<[u8; N]>,
    #[serde(skip)]
    stamp: Stamp,
    #[serde(skip)]
    kind: std::marker::PhantomData<fn() -> K>,
}

impl<K: Kind, const N: usize> Multiset<K, N> {
    /// An empty multiset over `kinds` kinds.
    pub fn new(kinds: usize) -> Multiset<K, N> {
        Multiset { counts: SmallVec::from_elem(0, kinds), stamp: Stamp::EMPTY, kind: std::marker::PhantomData }
    }

    /// The counts, indexed by kind.
    #[inline]
    pub fn counts(&self) -> &[u8] {
        &self.counts
    }

    #[inline]
    pub fn count(&self, k: Id<K>) -> u32 {
        self.counts.get(k.index()).map_or(0, |&n| u32::from(n))
    }

    pub fn total(&self) -> u32 {
        self.counts.iter().map(|&n| u32::from(n)).sum()
    }

    /// Whether nothing lies here (`total() == 0`, without the sum: the
    /// counts read eight at a time as one word, then the few left over).
    #[inline]
    pub fn is_empty(&self) -> bool {
        let (words, rest) = self.counts.as_chunks::<8>();
        let tail = rest.iter().fold(0u8, |a, &n| a | n);
        words.iter().fold(u64::from(tail), |a, w| a | u64::from_ne_bytes(*w)) == 0
    }

    /// The kinds held, in order, with their counts (no zeros).
    pub fn iter(&self) -> impl Iterator<Item = (Id<K>, u8)> + '_ {
        Id::first(self.counts.len()).zip(self.counts.iter().copied()).filter(|&(_, n)| n > 0)
    }
}

impl<K: Kind, const N: usize> std::fmt::Debug for Multiset<K, N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter().map(|(k, n)| (k.index(), n))).finish()
    }
}

impl<K: Kind, const N: usize> Store<K> for Multiset<K, N> {
    fn can_take(&self, k: Id<K>, n: u32) -> Result<(), MoveError> {
        let held = self.count(k);
        if held < n { Err(MoveError::Short { held }) } else { Ok(()) }
    }
    fn can_put(&self, k: Id<K>, n: u32) -> Result<(), MoveError> {
        match self.counts.get(k.index()) {
            Some(&c) if u32::from(c) + n <= u32::from(u8::MAX) => Ok(()),
            _ => Err(MoveError::Full),
        }
    }
    #[inline]
    fn take(&mut self, k: Id<K>, n: u32) {
        self.counts[k.index()] -= n as u8;
        self.stamp.renew();
    }
    #[inline]
    fn put(&mut self, k: Id<K>, n: u32) {
        self.counts[k.index()] += n as u8;
        self.stamp.renew();
    }
}

impl<K: Kind, const N: usize> Holds<K> for Multiset<K, N> {
    fn count(&self, k: Id<K>) -> u32 {
        Multiset::count(self, k)
    }
    fn tally_into(&self, t: &mut Tally<K>) {
        t.add_counts(&self.counts);
    }
    fn stamped(&self) -> Option<u64> {
        Some(self.stamp.get())
    }
}

impl<K: Kind, const N: usize> Stamped for Multiset<K, N> {
    #[inline]
    fn stamp(&self) -> u64 {
        self.stamp.get()
    }
}

// ----------------------------------------------------------------- pile

/// Components in order, the top last (`draw` takes it).
#[derive(Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent, bound = "")]
pub struct Pile<K: Kind> {
    cards: Vec<Id<K>>,
    #[serde(skip)]
    stamp: Stamp,
}

/// What a deck does when it is empty and a card is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WhenEmpty {
    /// Shuffle the discard pile into it and draw on (nothing if that is empty too).
    Reshuffle,
    /// Nothing is drawn.
    Stop,
}

/// The outcome of a `draw`: the card (none when the deck stayed empty) and
/// whether the discard pile was shuffled in first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Drawn<K: Kind> {
    pub card: Option<Id<K>>,
    pub reshuffled: bool,
}

impl<K: Kind> Pile<K> {
    pub const fn new() -> Pile<K> {
        Pile { cards: Vec::new(), stamp: Stamp::EMPTY }
    }

    /// `counts[k]` copies of every kind `k`, in kind order (the set-up
    /// before a shuffle). The catalog's components: a pile's source.
    pub fn from_counts(counts: &[u32]) -> Pile<K> {
        let mut cards = Vec::with_capacity(counts.iter().map(|&n| n as usize).sum());
        for (k, &n) in Id::first(counts.len()).zip(counts) {
            cards.extend(std::iter::repeat_n(k, n as usize));
        }
        Pile { cards, stamp: Stamp::default() }
    }

    /// Shuffles the pile in place.
    pub fn shuffle(&mut self, chance: &mut Chance) {
        chance.shuffle(&mut self.cards);
        self.stamp.renew();
    }

    /// Bottom first, top last.
    #[inline]
    pub fn as_slice(&self) -> &[Id<K>] {
        &self.cards
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Id<K>> {
        self.cards.iter()
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.cards.len()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    pub fn contains(&self, k: &Id<K>) -> bool {
        self.cards.contains(k)
    }

    pub fn top(&self) -> Option<Id<K>> {
        self.cards.last().copied()
    }

    /// The kinds in the pile, sorted, each once.
    pub fn kinds(&self) -> SmallVec<[Id<K>; 16]> {
        let mut k: SmallVec<[Id<K>; 16]> = SmallVec::from_slice(&self.cards);
        k.sort_unstable();
        k.dedup();
        k
    }

    /// Sorts the pile (a pool whose order means nothing, kept canonical).
    pub fn sort(&mut self) {
        self.cards.sort();
        self.stamp.renew();
    }

    /// Draws the top card into `to`. An empty deck follows `when_empty`:
    /// `Reshuffle` turns the discard pile into the deck and shuffles it.
    pub fn draw(
        &mut self,
        discard: &mut Pile<K>,
        when_empty: WhenEmpty,
        chance: &mut Chance,
        to: &mut impl Zone<K>,
    ) -> Drawn<K> {
        let mut reshuffled = false;
        if self.cards.is_empty() && when_empty == WhenEmpty::Reshuffle && !discard.cards.is_empty() {
            std::mem::swap(&mut self.cards, &mut discard.cards);
            chance.shuffle(&mut self.cards);
            self.stamp.renew();
            discard.stamp.renew();
            reshuffled = true;
        }
        Drawn { card: self.draw_top(to), reshuffled }
    }

    /// Draws the top card into `to`, with no discard pile to fall back on.
    pub fn draw_top(&mut self, to: &mut impl Zone<K>) -> Option<Id<K>> {
        let &k = self.cards.last()?;
        to.can_put(k, 1).ok()?;
        self.cards.pop();
        self.stamp.renew();
        to.put(k, 1);
        Some(k)
    }
}

impl<K: Kind> Default for Pile<K> {
    fn default() -> Pile<K> {
        Pile::new()
    }
}

impl<K: Kind> std::fmt::Debug for Pile<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.cards.iter().map(|k| k.index())).finish()
    }
}

impl<'a, K: Kind> IntoIterator for &'a Pile<K> {
    type Item = &'a Id<K>;
    type IntoIter = std::slice::Iter<'a, Id<K>>;
    fn into_iter(self) -> Self::IntoIter {
        self.cards.iter()
    }
}

impl<K: Kind> Store<K> for Pile<K> {
    fn can_take(&self, k: Id<K>, n: u32) -> Result<(), MoveError> {
        let held = Holds::count(self, k);
        if held < n { Err(MoveError::Short { held }) } else { Ok(()) }
    }
    fn can_put(&self, _: Id<K>, _: u32) -> Result<(), MoveError> {
        Ok(())
    }
    fn take(&mut self, k: Id<K>, n: u32) {
        for _ in 0..n {
            if let Some(i) = self.cards.iter().position(|&x| x == k) {
                self.cards.remove(i);
            }
        }
        self.stamp.renew();
    }
    fn put(&mut self, k: Id<K>, n: u32) {
        self.cards.extend(std::iter::repeat_n(k, n as usize));
        self.stamp.renew();
    }
}

impl<K: Kind> Stamped for Pile<K> {
    #[inline]
    fn stamp(&self) -> u64 {
        self.stamp.get()
    }
}

impl<K: Kind> Holds<K> for Pile<K> {
    fn count(&self, k: Id<K>) -> u32 {
        self.cards.iter().filter(|&&x| x == k).count() as u32
    }
    fn tally_into(&self, t: &mut Tally<K>) {
        t.add_each(self.cards.iter().copied());
    }
    fn order(&self) -> Option<&[Id<K>]> {
        Some(&self.cards)
    }
    fn stamped(&self) -> Option<u64> {
        Some(self.stamp.get())
    }
}

// --------------------------------------------------------------- tagged

/// Components in order, each with a tag; taken out like a pile's (the
/// lowest first), put in only by `move_tagged`.
#[derive(Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent, bound(serialize = "T: Serialize", deserialize = "T: Deserialize<'de>"))]
pub struct Tagged<K: Kind, T> {
    items: Vec<(Id<K>, T)>,
    #[serde(skip)]
    stamp: Stamp,
}

impl<K: Kind, T> Tagged<K, T> {
    pub const fn new() -> Tagged<K, T> {
        Tagged { items: Vec::new(), stamp: Stamp::EMPTY }
    }

    #[inline]
    pub fn as_slice(&self) -> &[(Id<K>, T)] {
        &self.items
    }

    pub fn iter(&self) -> std::slice::Iter<'_, (Id<K>, T)> {
        self.items.iter()
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

impl<K: Kind, T> Default for Tagged<K, T> {
    fn default() -> Tagged<K, T> {
        Tagged::new()
    }
}

impl<K: Kind, T: std::fmt::Debug> std::fmt::Debug for Tagged<K, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.items.iter().map(|(k, t)| (k.index(), t))).finish()
    }
}

impl<K: Kind, T> Store<K> for Tagged<K, T> {
    fn can_take(&self, k: Id<K>, n: u32) -> Result<(), MoveError> {
        let held = Holds::count(self, k);
        if held < n { Err(MoveError::Short { held }) } else { Ok(()) }
    }
    fn can_put(&self, _: Id<K>, _: u32) -> Result<(), MoveError> {
        Err(MoveError::Untagged)
    }
    fn take(&mut self, k: Id<K>, n: u32) {
        for _ in 0..n {
            if let Some(i) = self.items.iter().position(|(x, _)| *x == k) {
                self.items.remove(i);
            }
        }
        self.stamp.renew();
    }
    fn put(&mut self, _: Id<K>, _: u32) {}
}

impl<K: Kind, T> Holds<K> for Tagged<K, T> {
    fn count(&self, k: Id<K>) -> u32 {
        self.items.iter().filter(|(x, _)| *x == k).count() as u32
    }
    fn tally_into(&self, t: &mut Tally<K>) {
        t.add_each(self.items.iter().map(|&(k, _)| k));
    }
    fn stamped(&self) -> Option<u64> {
        Some(self.stamp.get())
    }
}

impl<K: Kind, T> Stamped for Tagged<K, T> {
    #[inline]
    fn stamp(&self) -> u64 {
        self.stamp.get()
    }
}
