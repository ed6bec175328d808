//! Typed ids: one type per kind of entity, so a resource cannot be passed
//! where a building is expected.
//!
//! An `Id<K>` is the position of an entity among the catalog's entities of
//! kind `K` (its card kinds, buildings, plots), resolved once at load and
//! written as the catalog id wherever a person reads it. `K` is a
//! zero-sized marker the game declares with `Kind`. An id is made only by a
//! checked conversion (`Id::new`); a catalog with more entities of one kind
//! than an id can hold is a load diagnostic (`Overflow`), never a wrap.
//! `.index()` indexes the catalog's slices. It serialises as the bare
//! position, or as the catalog id inside a names context (`names`).
//!
//! ```
//! use rulecheck::engine::{Id, Kind};
//! #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
//! enum Card {}
//! impl Kind for Card {
//!     const NAME: &'static str = "card kind";
//! }
//! let third: Id<Card> = Id::new(2).unwrap();
//! assert_eq!(third.index(), 2);
//! assert!(Id::<Card>::new(Id::<Card>::CAPACITY).is_err());
//! ```

use std::fmt;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;

use crate::catalog::diag::Diagnostics;

/// A kind of entity; implemented by an uninhabited marker
/// (`#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)] enum Card {}`;
/// the derives only let containers of ids derive theirs).
pub trait Kind: Copy + Ord + Hash + fmt::Debug + 'static {
    /// What one entity is called in a diagnostic: "card kind", "building".
    const NAME: &'static str;
}

/// Declares a game's kinds of entity, one marker each with what one entity
/// is called (`Card = "card kind"`), so an `Id<Card>` is no `Id<Building>`.
#[macro_export]
macro_rules! kinds {
    ($($(#[$m:meta])* $name:ident = $what:literal),+ $(,)?) => {$(
        $(#[$m])*
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
        pub enum $name {}
        impl $crate::engine::Kind for $name {
            const NAME: &'static str = $what;
        }
    )+};
}

/// Declares that the ids of kind `Self` are the first ids of kind `K`
/// (Dry Gulch's resources are its first card kinds), so `Id::lift` turns
/// one into the other without a check and without a cast.
pub trait PrefixOf<K: Kind>: Kind {}

/// The position of an entity among the entities of kind `K`.
#[repr(transparent)]
pub struct Id<K: Kind>(u8, PhantomData<fn() -> K>);

/// More entities of one kind than an id can hold: a load diagnostic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Overflow {
    pub kind: &'static str,
    pub index: usize,
}

impl fmt::Display for Overflow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "entry {} of kind `{}` has no id: a catalog holds at most {} of one kind",
            self.index + 1,
            self.kind,
            Id::<Never>::CAPACITY
        )
    }
}

/// A kind no entity has, for constants that do not depend on the kind.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
enum Never {}
impl Kind for Never {
    const NAME: &'static str = "";
}

/// The id of entry `i` of a kind, assigned at load; `None` past what an id
/// holds, with a diagnostic at the first entry that has none.
pub fn id_at<K: Kind>(i: usize, file: &str, at: (u64, u64), diags: &mut Diagnostics) -> Option<Id<K>> {
    let id = Id::new(i);
    if let Err(e) = id
        && i == Id::<K>::CAPACITY
    {
        diags.error(file, at, e.to_string());
    }
    id.ok()
}

impl<K: Kind> Id<K> {
    /// How many entities of one kind have an id.
    pub const CAPACITY: usize = u8::MAX as usize + 1;

    /// The first entity; also what lowering writes where a reference did
    /// not resolve (that catalog then fails to load with a diagnostic).
    pub const ZERO: Id<K> = Id(0, PhantomData);

    /// The id of the entity at `index`, or `Overflow` past the capacity.
    pub const fn new(index: usize) -> Result<Id<K>, Overflow> {
        if index < Self::CAPACITY { Ok(Id(index as u8, PhantomData)) } else { Err(Overflow { kind: K::NAME, index }) }
    }

    /// The ids of the first `n` entities (at most `CAPACITY`: a catalog
    /// that has more was refused at load).
    pub fn first(n: usize) -> impl DoubleEndedIterator<Item = Id<K>> + ExactSizeIterator + Clone {
        (0..n.min(Self::CAPACITY)).map(|i| Id(i as u8, PhantomData))
    }

    /// The entity of seat `seat` of a kind with one per seat (a player's
    /// colour). A game seats at most `catalog::MAX_SEATS`, far fewer than
    /// an id holds, so every seat has its own.
    pub const fn of_seat(seat: usize) -> Id<K> {
        const { assert!((crate::catalog::MAX_SEATS as usize) < u8::MAX as usize) };
        Id(if seat < Self::CAPACITY { seat as u8 } else { u8::MAX }, PhantomData)
    }

    /// The position, for indexing the catalog's slices.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The same entity as an id of the kind this kind is a prefix of.
    #[inline]
    pub const fn lift<L: Kind>(self) -> Id<L>
    where
        K: PrefixOf<L>,
    {
        Id(self.0, PhantomData)
    }
}

// Written out rather than derived: a derive would ask the marker `K` for
// the same traits.
impl<K: Kind> Clone for Id<K> {
    #[inline]
    fn clone(&self) -> Id<K> {
        *self
    }
}
impl<K: Kind> Copy for Id<K> {}
impl<K: Kind> PartialEq for Id<K> {
    #[inline]
    fn eq(&self, other: &Id<K>) -> bool {
        self.0 == other.0
    }
}
impl<K: Kind> Eq for Id<K> {}
impl<K: Kind> PartialOrd for Id<K> {
    #[inline]
    fn partial_cmp(&self, other: &Id<K>) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl<K: Kind> Ord for Id<K> {
    #[inline]
    fn cmp(&self, other: &Id<K>) -> std::cmp::Ordering {
        self.0.cmp(&other.0)
    }
}
impl<K: Kind> Hash for Id<K> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

/// `card kind #3`: for tests and panics only; users read catalog ids.
impl<K: Kind> fmt::Debug for Id<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} #{}", K::NAME, self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
    enum Card {}
    impl Kind for Card {
        const NAME: &'static str = "card kind";
    }
    #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
    enum Res {}
    impl Kind for Res {
        const NAME: &'static str = "resource";
    }
    impl PrefixOf<Card> for Res {}

    #[test]
    fn new_is_checked_at_the_capacity() {
        assert_eq!(Id::<Card>::new(255).unwrap().index(), 255);
        let err = Id::<Card>::new(256).unwrap_err();
        assert_eq!(err, Overflow { kind: "card kind", index: 256 });
        assert_eq!(err.to_string(), "entry 257 of kind `card kind` has no id: a catalog holds at most 256 of one kind");
        assert!(Id::<Card>::new(usize::MAX).is_err());
    }

    #[test]
    fn first_stops_at_the_capacity_and_counts_up() {
        let ids: Vec<usize> = Id::<Card>::first(3).map(Id::index).collect();
        assert_eq!(ids, [0, 1, 2]);
        assert_eq!(Id::<Card>::first(1000).len(), Id::<Card>::CAPACITY);
    }

    #[test]
    fn lift_keeps_the_position_and_ids_order_by_it() {
        let r: Id<Res> = Id::new(4).unwrap();
        let c: Id<Card> = r.lift();
        assert_eq!(c.index(), 4);
        assert!(Id::<Card>::new(3).unwrap() < c);
        assert_eq!(format!("{c:?}"), "card kind #4");
    }

    #[test]
    fn serialises_as_the_bare_position() {
        let c: Id<Card> = Id::new(7).unwrap();
        assert_eq!(serde_json::to_string(&c).unwrap(), "7");
        let back: Id<Card> = serde_json::from_str("7").unwrap();
        assert_eq!(back, c);
        assert!(serde_json::from_str::<Id<Card>>("256").is_err());
    }

    #[test]
    fn an_id_is_one_byte() {
        assert_eq!(std::mem::size_of::<Id<Card>>(), 1);
        assert_eq!(std::mem::size_of::<Option<Id<Card>>>(), 2);
    }
}
