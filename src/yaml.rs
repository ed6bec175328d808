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
    if text.trim().is_empty() {
        return Err(Diagnostic::new(file, 1, 1, "the file is empty; a catalog file must hold a YAML mapping"));
    }
    serde_saphyr::from_str::<T>(text).map_err(|e| {
        let (line, column) = e.location().map(|l| (l.line(), l.column())).unwrap_or((1, 1));
        let raw = e.without_snippet().to_string();
        // serde-saphyr appends " at line L, column C"; the diagnostic carries them itself.
        let message = match raw.rfind(" at line ") {
            Some(i) => raw[..i].to_string(),
            None => raw,
        };
        Diagnostic::new(file, line.max(1), column.max(1), message)
    })
}

/// Serialises a value to YAML text.
pub fn to_string<T: Serialize>(value: &T) -> String {
    serde_saphyr::to_string(value).expect("serialising an in-memory value to YAML cannot fail")
}
