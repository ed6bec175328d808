//! A scenario's set-up override that cannot be applied, and where the
//! scenario writes it: the keys and list places from `setup:` down to the
//! entry at fault, so the runner can point at its line and column. The
//! engine knows no YAML; the path is words and numbers, which the runner
//! finds in the file.
//!
//! ```
//! use rulecheck::engine::{PathKey, SetupError, under};
//! let e: Result<(), String> = Err("`lumber` is not an event card".into());
//! let e = e.map_err(under(1)).map_err(under("event-deck")).map_err(under("table")).unwrap_err();
//! assert_eq!(e.path, [PathKey::from("table"), PathKey::from("event-deck"), PathKey::Item(1)]);
//! assert_eq!(e.to_string(), "`lumber` is not an event card");
//! ```

use std::fmt;

/// One step of a path into `setup:`: a mapping's key as written, or a
/// list's place (0-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathKey {
    Key(String),
    Item(usize),
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

impl From<usize> for PathKey {
    fn from(i: usize) -> PathKey {
        PathKey::Item(i)
    }
}

/// Why a set-up override cannot be applied, and the path to the entry at
/// fault, outermost first (`table`, `event-deck`, 1). An empty path
/// blames the whole `setup:` block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetupError {
    pub path: Vec<PathKey>,
    pub message: String,
}

impl SetupError {
    /// The same error, one step further out: under `key`.
    pub fn under(mut self, key: impl Into<PathKey>) -> SetupError {
        self.path.insert(0, key.into());
        self
    }
}

/// `map_err(under("table"))`: an error (a message, or a `SetupError` with
/// a path of its own) placed under `key`.
pub fn under<E: Into<SetupError>>(key: impl Into<PathKey>) -> impl FnOnce(E) -> SetupError {
    let key = key.into();
    move |e| e.into().under(key)
}

impl From<String> for SetupError {
    fn from(message: String) -> SetupError {
        SetupError { path: Vec::new(), message }
    }
}

impl From<&str> for SetupError {
    fn from(message: &str) -> SetupError {
        SetupError::from(message.to_string())
    }
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}
