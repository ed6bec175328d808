//! Every YAML call of the crate lives here, so the YAML library can change in
//! one place.
//!
//! The library is `serde-saphyr`: pure Rust, panic-free, with a duplicate-key
//! check on by default and budgets on alias expansion, nesting depth and node
//! count (the defaults: depth 64, 250,000 nodes). Its `Spanned<T>` gives the
//! line and column of a value so that semantic diagnostics (a dangling
//! reference) point at the offending text.
//!
//! ```
//! let n: u32 = rulecheck::yaml::from_str("x.yaml", "7").unwrap();
//! assert_eq!(n, 7);
//! ```

use serde::Serialize;
use serde::de::DeserializeOwned;

use serde_saphyr::budget::BudgetBreach;
use serde_saphyr::{Budget, DefaultMessageFormatter, Error, MessageFormatter};

use crate::catalog::diag::Diagnostic;

pub use serde_saphyr::Spanned;

/// The largest file the loaders read: 1 MiB. A catalog file is a few dozen
/// KiB; anything larger is a mistake or an attack.
pub const MAX_FILE_BYTES: u64 = 1 << 20;

/// Line and column (1-based) of a spanned value.
pub fn position<T>(s: &Spanned<T>) -> (u64, u64) {
    (s.referenced.line(), s.referenced.column())
}

/// Parses `text` (the contents of `file`) into `T`, or returns one
/// diagnostic with the file, line and column serde-saphyr reports.
pub fn from_str<T: DeserializeOwned>(file: &str, text: &str) -> Result<T, Diagnostic> {
    from_str_as(file, text, "catalog file")
}

/// `from_str` for a file of another `kind` ("scenario file"), which the
/// messages about empty files and extra documents name.
pub fn from_str_as<T: DeserializeOwned>(file: &str, text: &str, kind: &str) -> Result<T, Diagnostic> {
    if text.trim().is_empty() {
        return Err(Diagnostic::new(file, 1, 1, format!("the file is empty; a {kind} must hold a YAML mapping")));
    }
    if text.lines().all(|l| l.trim().is_empty() || l.trim_start().starts_with('#')) {
        return Err(Diagnostic::new(
            file,
            1,
            1,
            format!("the file holds only comments; a {kind} must hold a YAML mapping"),
        ));
    }
    serde_saphyr::from_str_with_options::<T>(text, options()).map_err(|e| {
        let (line, column) = e.location().map(|l| (l.line(), l.column())).unwrap_or((1, 1));
        Diagnostic::new(file, line.max(1), column.max(1), message(&e, kind))
    })
}

/// The parser's defaults, but with YAML 1.2 booleans only: `yes`, `no`,
/// `on`, `off`, `y` and `n` are not booleans (YAML 1.1 read them so, and a
/// catalog meaning the word must not silently become a flag).
fn options() -> serde_saphyr::Options {
    let mut o = serde_saphyr::Options::default();
    o.strict_booleans = true;
    o
}

/// The message of a serde-saphyr error without its location (the diagnostic
/// carries that). Through an alias, the location is the alias; the message
/// names the anchor's place.
fn message(e: &Error, kind: &str) -> String {
    let mut err = e;
    let mut anchor = None;
    loop {
        match err {
            Error::WithSnippet { error, .. } => err = error,
            Error::AliasError { error, locations, .. } => {
                anchor = anchor.or(Some(locations.defined_location));
                err = error;
            }
            _ => break,
        }
    }
    let text = match err {
        Error::Budget { breach, .. } => budget_message(breach),
        Error::DuplicateMappingKey { key: Some(k), .. } => format!("duplicate key `{k}` in this mapping"),
        Error::MultipleDocuments { .. } => format!("a second YAML document; a {kind} holds exactly one"),
        other => DefaultMessageFormatter.format_message(other).into_owned(),
    };
    match anchor {
        Some(a) if a.line() > 0 => {
            format!("{text} (this alias repeats the anchor at line {}, column {})", a.line(), a.column())
        }
        _ => text,
    }
}

fn budget_message(breach: &BudgetBreach) -> String {
    let limits = Budget::default();
    match breach {
        BudgetBreach::Nodes { .. } => format!(
            "the YAML expands to more than {} nodes, the limit for one file; anchors and aliases that multiply are refused",
            limits.max_nodes
        ),
        BudgetBreach::Depth { .. } => {
            format!("the YAML nests deeper than {} levels, the limit for one file", limits.max_depth)
        }
        other => format!("the YAML exceeds a parser limit for one file ({other:?})"),
    }
}

/// Serialises a value to YAML text.
pub fn to_string<T: Serialize>(value: &T) -> String {
    serde_saphyr::to_string(value).expect("serialising an in-memory value to YAML cannot fail")
}
