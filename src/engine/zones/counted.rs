//! Zones of counts: `Stack` (interchangeable components of one kind, a
//! player's chips) and `Supply` (a declared source and sink).

use serde::{Deserialize, Serialize};

use super::{Holds, Id, Kind, MoveError, Store, Tally};

// ---------------------------------------------------------------- stack

/// A count of interchangeable components of one kind (a player's family
/// chips, of his colour). An empty stack takes any kind; one that holds
/// some takes only more of its own.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct Stack<K: Kind> {
    kind: Id<K>,
    n: u32,
}

impl<K: Kind> Stack<K> {
    pub const fn new() -> Stack<K> {
        Stack { kind: Id::ZERO, n: 0 }
    }

    /// `n` components of kind `k` as the game is set up with them (a
    /// source, like `Pile::from_counts`).
    pub const fn of(k: Id<K>, n: u32) -> Stack<K> {
        Stack { kind: k, n }
    }

    #[inline]
    pub const fn count(&self) -> u32 {
        self.n
    }
}

impl<K: Kind> Default for Stack<K> {
    fn default() -> Stack<K> {
        Stack::new()
    }
}

impl<K: Kind> std::fmt::Debug for Stack<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}x{}", self.n, self.kind.index())
    }
}

impl<K: Kind> Store<K> for Stack<K> {
    fn can_take(&self, k: Id<K>, n: u32) -> Result<(), MoveError> {
        let held = Holds::count(self, k);
        if held < n { Err(MoveError::Short { held }) } else { Ok(()) }
    }
    fn can_put(&self, k: Id<K>, n: u32) -> Result<(), MoveError> {
        match self.n.checked_add(n) {
            _ if self.n > 0 && k != self.kind => Err(MoveError::OtherKind),
            Some(_) => Ok(()),
            None => Err(MoveError::Full),
        }
    }
    fn take(&mut self, _: Id<K>, n: u32) {
        self.n -= n;
    }
    fn put(&mut self, k: Id<K>, n: u32) {
        (self.kind, self.n) = (k, self.n + n);
    }
}

impl<K: Kind> Holds<K> for Stack<K> {
    fn count(&self, k: Id<K>) -> u32 {
        if k == self.kind { self.n } else { 0 }
    }
    fn tally_into(&self, t: &mut Tally<K>) {
        t.add_at(self.kind.index(), self.n);
    }
    /// What it holds is its stamp: two stacks alike count alike.
    fn stamped(&self) -> Option<u64> {
        Some(u64::from(self.n) << 8 | self.kind.index() as u64)
    }
}

// --------------------------------------------------------------- supply

/// A declared source and sink: gives and takes any number of every kind,
/// and keeps the balance (taken in minus given out) per kind.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent, bound = "")]
pub struct Supply<K: Kind> {
    balance: Vec<i32>,
    #[serde(skip)]
    kind: std::marker::PhantomData<fn() -> K>,
}

impl<K: Kind> Supply<K> {
    pub fn new() -> Supply<K> {
        Supply { balance: Vec::new(), kind: std::marker::PhantomData }
    }

    /// Taken in minus given out, of kind `k`.
    pub fn balance(&self, k: Id<K>) -> i32 {
        self.balance.get(k.index()).copied().unwrap_or(0)
    }

    fn shift(&mut self, k: Id<K>, by: i32) {
        if self.balance.len() <= k.index() {
            self.balance.resize(k.index() + 1, 0);
        }
        self.balance[k.index()] += by;
    }
}

impl<K: Kind> Default for Supply<K> {
    fn default() -> Supply<K> {
        Supply::new()
    }
}

impl<K: Kind> std::fmt::Debug for Supply<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(&self.balance).finish()
    }
}

impl<K: Kind> Store<K> for Supply<K> {
    fn can_take(&self, _: Id<K>, _: u32) -> Result<(), MoveError> {
        Ok(())
    }
    fn can_put(&self, _: Id<K>, _: u32) -> Result<(), MoveError> {
        Ok(())
    }
    fn take(&mut self, k: Id<K>, n: u32) {
        self.shift(k, -(n as i32));
    }
    fn put(&mut self, k: Id<K>, n: u32) {
        self.shift(k, n as i32);
    }
}

/// A supply holds what it was given minus what it gave, which may be less
/// than nothing: counted in a tally it balances what it gave out.
impl<K: Kind> Holds<K> for Supply<K> {
    fn count(&self, k: Id<K>) -> u32 {
        self.balance(k).max(0) as u32
    }
    fn tally_into(&self, t: &mut Tally<K>) {
        for (i, &b) in self.balance.iter().enumerate() {
            t.shift_at(i, b);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::move_n;
    use crate::engine::zones::fixture::{Card, card};

    #[test]
    fn a_stack_holds_one_kind_and_its_contents_are_its_stamp() {
        let (red, blue) = (card(0), card(1));
        let mut reserve: Stack<Card> = Stack::of(blue, 3);
        let mut on: Stack<Card> = Stack::new();
        // an empty stack takes any kind, then only more of it
        move_n(&mut reserve, &mut on, blue, 2).unwrap();
        assert_eq!((Holds::count(&on, blue), Holds::count(&on, red)), (2, 0));
        let mut reds = Stack::of(red, 1);
        assert_eq!(move_n(&mut reds, &mut on, red, 1), Err(MoveError::OtherKind));
        assert_eq!((reds.count(), on.count()), (1, 2));
        // stacks alike stamp alike, and a move changes the stamp
        assert_eq!(on.stamped(), Stack::of(blue, 2).stamped());
        assert_ne!(on.stamped(), Stack::of(red, 2).stamped());
        let before = on.stamped();
        move_n(&mut on, &mut reserve, blue, 1).unwrap();
        assert_ne!(on.stamped(), before);
        let mut t = Tally::new(2);
        t.add(&reserve).add(&on).add(&reds);
        assert_eq!(t.check(|k| [1, 3][k.index()]), Ok(()));
    }
}
