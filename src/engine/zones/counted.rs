//! Zones of counts: `Stack` (interchangeable components of a kind with
//! one entity) and `Supply` (a declared source and sink).

use serde::{Deserialize, Serialize};

use super::{Id, Kind, MoveError, Store, Tally, Zone};

// ---------------------------------------------------------------- stack

/// A count of interchangeable components of a kind with one entity (a
/// player's family chips: whose they are is where the stack lies).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent, bound = "")]
pub struct Stack<K: Kind> {
    n: u32,
    #[serde(skip)]
    kind: std::marker::PhantomData<fn() -> K>,
}

impl<K: Kind> Stack<K> {
    pub const fn new() -> Stack<K> {
        Stack { n: 0, kind: std::marker::PhantomData }
    }

    /// `n` components as the game is set up with them (a source, like
    /// `Pile::from_counts`).
    pub const fn from_count(n: u32) -> Stack<K> {
        Stack { n, kind: std::marker::PhantomData }
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
        write!(f, "{}", self.n)
    }
}

impl<K: Kind> Store<K> for Stack<K> {
    fn can_take(&self, k: Id<K>, n: u32) -> Result<(), MoveError> {
        let held = Zone::count(self, k);
        if held < n { Err(MoveError::Short { held }) } else { Ok(()) }
    }
    fn can_put(&self, k: Id<K>, n: u32) -> Result<(), MoveError> {
        if k == Id::ZERO && self.n.checked_add(n).is_some() { Ok(()) } else { Err(MoveError::Full) }
    }
    fn take(&mut self, _: Id<K>, n: u32) {
        self.n -= n;
    }
    fn put(&mut self, _: Id<K>, n: u32) {
        self.n += n;
    }
}

impl<K: Kind> Zone<K> for Stack<K> {
    fn count(&self, k: Id<K>) -> u32 {
        if k == Id::ZERO { self.n } else { 0 }
    }
    fn tally_into(&self, t: &mut Tally<K>) {
        t.add_at(0, self.n);
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
impl<K: Kind> Zone<K> for Supply<K> {
    fn count(&self, k: Id<K>) -> u32 {
        self.balance(k).max(0) as u32
    }
    fn tally_into(&self, t: &mut Tally<K>) {
        for (i, &b) in self.balance.iter().enumerate() {
            t.shift_at(i, b);
        }
    }
}
