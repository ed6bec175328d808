//! Chance lives in the state: a PCG32 generator (`rand_pcg::Lcg64Xsh32`,
//! portable and serialisable) seeded from one `u64`, and a queue of forced
//! outcomes that a scenario can put in front of it.

use std::collections::VecDeque;

use rand_core::Rng;
use rand_pcg::Lcg64Xsh32;
use serde::{Deserialize, Serialize};

/// The PCG stream constant: fixed so one seed means one sequence forever.
const STREAM: u64 = 0xda3e_39cb_94b9_5bdb;

/// An outcome a scenario forces on the next chance event, by name (a card
/// id, a die face), never by position: the game maps names to its
/// possibilities.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Forced(pub String);

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Chance {
    rng: Lcg64Xsh32,
    #[serde(default, skip_serializing_if = "VecDeque::is_empty")]
    forced: VecDeque<Forced>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    misfits: Vec<Forced>,
    /// How many chance events happened; replay checks compare it.
    draws: u64,
}

impl Chance {
    pub fn new(seed: u64) -> Chance {
        Chance { rng: Lcg64Xsh32::new(seed, STREAM), forced: VecDeque::new(), misfits: Vec::new(), draws: 0 }
    }

    /// A uniform index below `n` (`n > 0`), unless an outcome is forced.
    /// `names` gives the game's name for each index so a named forced outcome
    /// can be matched; a forced outcome that does not fit falls back to the
    /// generator and is reported by `misfits`.
    pub fn pick(&mut self, n: u32, names: &dyn Fn(u32) -> String) -> u32 {
        debug_assert!(n > 0);
        self.draws += 1;
        if let Some(f) = self.forced.pop_front() {
            match (0..n).find(|&i| names(i) == f.0) {
                Some(i) => return i,
                None => self.misfits.push(f),
            }
        }
        self.below(n)
    }

    /// Forced outcomes that did not fit the chance event they met.
    pub fn misfits(&self) -> &[Forced] {
        &self.misfits
    }

    /// A uniform index below `n` from the generator (Lemire's method, no bias).
    pub fn below(&mut self, n: u32) -> u32 {
        debug_assert!(n > 0);
        let mut m = u64::from(self.rng.next_u32()) * u64::from(n);
        if (m as u32) < n {
            let t = n.wrapping_neg() % n;
            while (m as u32) < t {
                m = u64::from(self.rng.next_u32()) * u64::from(n);
            }
        }
        (m >> 32) as u32
    }

    /// Fisher–Yates shuffle driven by the generator.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u32 + 1) as usize;
            items.swap(i, j);
        }
    }

    pub fn force(&mut self, f: Forced) {
        self.forced.push_back(f);
    }

    /// Forced outcomes not used yet (a scenario that forced more than happened).
    pub fn unused_forced(&self) -> usize {
        self.forced.len()
    }

    pub fn draws(&self) -> u64 {
        self.draws
    }
}
