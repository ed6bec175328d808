//! Counters: a number a game keeps per seat or for the table (money, debt,
//! points) with bounds the catalog declares. A change that would leave the
//! bounds is refused and leaves the counter as it was, so "a player cannot
//! pay what he does not have" is the counter's rule, not each game's.
//!
//! ```
//! use rulecheck::engine::{Bounds, Counter, CounterError};
//! let money = Bounds::new(0, 99).unwrap();
//! let mut a = Counter::new(money, 5).unwrap();
//! let mut b = Counter::new(money, 0).unwrap();
//! Counter::transfer(&mut a, &mut b, 3).unwrap();
//! assert_eq!((a.value(), b.value()), (2, 3));
//! assert_eq!(a.add(-3), Err(CounterError::Below { min: 0, would_be: -1 }));
//! assert_eq!(a.value(), 2);
//! ```

use serde::{Deserialize, Serialize};

/// Inclusive bounds, `min <= max`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Bounds {
    min: i32,
    max: i32,
}

impl Bounds {
    /// `None` when `min > max` (a catalog reports that at load).
    pub const fn new(min: i32, max: i32) -> Option<Bounds> {
        if min <= max { Some(Bounds { min, max }) } else { None }
    }
    /// Every value an `i32` holds (points with no declared limit).
    pub const UNBOUNDED: Bounds = Bounds { min: i32::MIN, max: i32::MAX };
    pub const fn min(self) -> i32 {
        self.min
    }
    pub const fn max(self) -> i32 {
        self.max
    }
    pub const fn contains(self, v: i64) -> bool {
        self.min as i64 <= v && v <= self.max as i64
    }
}

/// Why a counter did not change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CounterError {
    /// The change would take the value to `would_be`, below `min`.
    Below { min: i32, would_be: i64 },
    /// The change would take the value to `would_be`, above `max`.
    Above { max: i32, would_be: i64 },
}

impl std::fmt::Display for CounterError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CounterError::Below { min, would_be } => write!(f, "would fall to {would_be}, below its least value {min}"),
            CounterError::Above { max, would_be } => {
                write!(f, "would rise to {would_be}, past its greatest value {max}")
            }
        }
    }
}

/// A value within its bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Counter {
    value: i32,
    bounds: Bounds,
}

impl Counter {
    /// A counter starting at `value`, refused when that is out of bounds.
    pub fn new(bounds: Bounds, value: i32) -> Result<Counter, CounterError> {
        let mut c = Counter { value: bounds.min, bounds };
        c.set(value)?;
        Ok(c)
    }

    pub const fn value(self) -> i32 {
        self.value
    }

    pub const fn bounds(self) -> Bounds {
        self.bounds
    }

    fn check(self, v: i64) -> Result<i32, CounterError> {
        if v < self.bounds.min as i64 {
            Err(CounterError::Below { min: self.bounds.min, would_be: v })
        } else if v > self.bounds.max as i64 {
            Err(CounterError::Above { max: self.bounds.max, would_be: v })
        } else {
            // within bounds that are themselves `i32`
            Ok(v as i32)
        }
    }

    /// Sets the value (a scenario's set-up), within the bounds.
    pub fn set(&mut self, v: i32) -> Result<(), CounterError> {
        self.value = self.check(v.into())?;
        Ok(())
    }

    /// Adds `by` (negative to pay), within the bounds.
    pub fn add(&mut self, by: i64) -> Result<(), CounterError> {
        self.value = self.check(self.value as i64 + by)?;
        Ok(())
    }

    /// Whether `by` can be added.
    pub fn can_add(self, by: i64) -> bool {
        self.check(self.value as i64 + by).is_ok()
    }

    /// Moves `n` from one counter to another (a payment between players):
    /// both change or, when either would leave its bounds, neither does.
    pub fn transfer(from: &mut Counter, to: &mut Counter, n: i64) -> Result<(), CounterError> {
        let f = from.check(from.value as i64 - n)?;
        let t = to.check(to.value as i64 + n)?;
        from.value = f;
        to.value = t;
        Ok(())
    }
}
