//! An entry of a scenario that cannot be applied (a set-up override, a
//! step's action), and where the scenario writes it: the keys and list
//! places from the entry (`setup:`, a step's `do:`) down to what is at
//! fault, or the word at fault, so the runner can point at its line and
//! column. The engine knows no YAML; the path is words and numbers, which
//! the runner finds in the file.
//!
//! ```
//! use rulecheck::engine::{PathKey, Unapplied, under};
//! let e: Result<(), String> = Err("`lumber` is not an event card".into());
//! let e = e.map_err(under(1)).map_err(under("event-deck")).map_err(under("table")).unwrap_err();
//! assert_eq!(e.path, [PathKey::from("table"), PathKey::from("event-deck"), PathKey::Item(1)]);
//! assert_eq!(e.to_string(), "`lumber` is not an event card");
//! ```

use std::fmt;

/// One step of a path into an entry: a mapping's key as written, a
/// list's place (0-based), a word written anywhere below (an id an
/// action names, as a key or a value), or a fact an expectation names
/// (`hand_size.p1`, written as one dotted key, as keys nested in
/// mappings, or a mix).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathKey {
    Key(String),
    Item(usize),
    Word(String),
    Fact(String),
}

impl From<&str> for PathKey {
    fn from(k: &str) -> PathKey {
        PathKey::Key(k.to_string())
    }
}

impl From<&String> for PathKey {
    fn from(k: &String) -> PathKey {
        PathKey::Key(k.clone())
    }
}

impl From<String> for PathKey {
    fn from(k: String) -> PathKey {
        PathKey::Key(k)
    }
}

impl From<usize> for PathKey {
    fn from(i: usize) -> PathKey {
        PathKey::Item(i)
    }
}

/// Why an entry cannot be applied, and the path to what is at fault,
/// outermost first (`table`, `event-deck`, 1). An empty path blames the
/// whole entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unapplied {
    pub path: Vec<PathKey>,
    pub message: String,
}

impl Unapplied {
    /// The same error, one step further out: under `key`.
    pub fn under(mut self, key: impl Into<PathKey>) -> Unapplied {
        self.path.insert(0, key.into());
        self
    }
}

/// `map_err(under("table"))`: an error (a message, or an `Unapplied` with
/// a path of its own) placed under `key`.
pub fn under<E: Into<Unapplied>>(key: impl Into<PathKey>) -> impl FnOnce(E) -> Unapplied {
    let key = key.into();
    move |e| e.into().under(key)
}

impl From<String> for Unapplied {
    fn from(message: String) -> Unapplied {
        Unapplied { path: Vec::new(), message }
    }
}

impl From<&str> for Unapplied {
    fn from(message: &str) -> Unapplied {
        Unapplied::from(message.to_string())
    }
}

impl fmt::Display for Unapplied {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}
