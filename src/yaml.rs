//! Every YAML call of the crate lives here, so the YAML library can change in
//! one place. Numbers and booleans are strict: YAML 1.2 booleans only, and
//! a quoted `'15'` or a non-decimal `0x0F` where a number belongs is a type
//! error (serde-saphyr would read it as 15; it has no option against that).
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

/// A value with where it stands in its file: serde-saphyr's `Spanned<T>`
/// (read through it, so the locations are its), in a type of this crate
/// so that it can describe itself as a JSON Schema (the schema of `T`: the
/// location is not written in the file) for `rulecheck schema`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Spanned<T> {
    pub value: T,
    pub referenced: serde_saphyr::Location,
    pub defined: serde_saphyr::Location,
}

impl<'de, T: serde::Deserialize<'de>> serde::Deserialize<'de> for Spanned<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Spanned<T>, D::Error> {
        let s = serde_saphyr::Spanned::<T>::deserialize(d)?;
        Ok(Spanned { value: s.value, referenced: s.referenced, defined: s.defined })
    }
}

impl<T: Serialize> Serialize for Spanned<T> {
    /// Only the value, as serde-saphyr's own `Spanned` writes it.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.value.serialize(s)
    }
}

impl<T: schemars::JsonSchema> schemars::JsonSchema for Spanned<T> {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> std::borrow::Cow<'static, str> {
        T::schema_name()
    }
    fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
        g.subschema_for::<T>()
    }
}

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
    let value = serde_saphyr::from_str_with_options::<T>(text, options()).map_err(|e| {
        let (line, column) = e.location().map(|l| (l.line(), l.column())).unwrap_or((1, 1));
        Diagnostic::new(file, line.max(1), column.max(1), message(&e, kind))
    })?;
    // text named `<…>` is not a file but this crate's own serialisation (the
    // state round trip, checked after every action): it spells numbers
    // plainly, and scanning it again would double the check's cost
    if !file.starts_with('<') {
        strict_scalars::<T>(file, text)?;
    }
    Ok(value)
}

/// The parser's defaults, but with YAML 1.2 booleans only: `yes`, `no`,
/// `on`, `off`, `y` and `n` are not booleans (YAML 1.1 read them so, and a
/// catalog meaning the word must not silently become a flag).
fn options() -> serde_saphyr::Options {
    let mut o = serde_saphyr::Options::default();
    o.strict_booleans = true;
    o
}

/// A scalar written like a number or a boolean in a form that is not one
/// here: quoted (`'15'`, `"true"`), or an integer not written in decimal
/// (`0x0F`, `0o17`, `0b1111`, `1_000`). serde-saphyr reads either kind
/// where a number or boolean belongs (`'15'` as 15); `strict_scalars`
/// makes that a type error and leaves them strings where strings belong.
struct Suspect {
    /// 1-based line and column of the scalar (its quote, if quoted).
    at: (u64, u64),
    /// The scalar as written.
    written: String,
    quoted: bool,
    /// Where a character is put in to make it no number (a char index).
    insert: usize,
}

/// Whether `s` is an integer written with a radix prefix or `_` digit groups.
fn non_decimal_integer(s: &str) -> bool {
    let t = s.strip_prefix(['+', '-']).unwrap_or(s);
    let prefixed = ["0x", "0X", "0o", "0O", "0b", "0B"].iter().find_map(|p| t.strip_prefix(p));
    match prefixed {
        Some(digits) => !digits.is_empty() && digits.chars().all(|c| c.is_ascii_hexdigit() || c == '_'),
        None => {
            t.contains('_')
                && t.chars().any(|c| c.is_ascii_digit())
                && t.chars().all(|c| c.is_ascii_digit() || c == '_')
        }
    }
}

/// Whether a quoted `s` reads as a number or a boolean when its quotes are dropped.
fn number_or_boolean(s: &str) -> bool {
    let t = s.trim();
    (t.parse::<f64>().is_ok() && t.chars().any(|c| c.is_ascii_digit()))
        || non_decimal_integer(t)
        || matches!(t, "true" | "True" | "TRUE" | "false" | "False" | "FALSE")
}

/// The suspect scalars of `text` (none when it does not parse; the real
/// parse reports that).
fn suspects(text: &str) -> Vec<Suspect> {
    use serde_saphyr::granit_parser::{Event, Parser, ScalarStyle};
    let mut out = Vec::new();
    for item in Parser::new_from_str(text) {
        let Ok((event, span)) = item else { break };
        let Event::Scalar(value, style, _, None) = event else { continue };
        let quoted = matches!(style, ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted);
        let suspect =
            if quoted { number_or_boolean(&value) } else { style == ScalarStyle::Plain && non_decimal_integer(&value) };
        if suspect {
            let start = span.start;
            let written: String =
                text.chars().skip(start.index()).take(value.chars().count() + 2 * usize::from(quoted)).collect();
            out.push(Suspect {
                at: (start.line() as u64, start.col() as u64 + 1),
                written,
                quoted,
                insert: start.index() + usize::from(quoted),
            });
        }
    }
    out
}

/// `Err` when a suspect scalar stands where a number or a boolean belongs
/// in `T`: `text` with a letter put into every suspect scalar is parsed
/// again, and a type error at one of them is that scalar's.
fn strict_scalars<T: DeserializeOwned>(file: &str, text: &str) -> Result<(), Diagnostic> {
    let maybe =
        text.contains(['\'', '"', '_']) || ["0x", "0X", "0o", "0O", "0b", "0B"].iter().any(|p| text.contains(p));
    if !maybe {
        return Ok(());
    }
    let found = suspects(text);
    if found.is_empty() {
        return Ok(());
    }
    let mut changed = String::with_capacity(text.len() + found.len());
    let mut next = found.iter().map(|s| s.insert).peekable();
    for (i, c) in text.chars().enumerate() {
        while next.peek() == Some(&i) {
            changed.push('z');
            next.next();
        }
        changed.push(c);
    }
    let Err(e) = serde_saphyr::from_str_with_options::<T>(&changed, options()) else { return Ok(()) };
    let Some((line, column)) = e.location().map(|l| (l.line(), l.column())) else { return Ok(()) };
    // where each suspect stands in the changed text: moved right by the
    // letters put in before it on its line
    let hit = found.iter().find(|s| {
        let before = found.iter().filter(|o| o.at.0 == s.at.0 && o.insert < s.insert).count() as u64;
        s.at.0 == line && (s.at.1 + before).abs_diff(column) <= 1
    });
    let Some(s) = hit else { return Ok(()) };
    let message = if s.quoted {
        let inner = &s.written[1..s.written.len() - 1];
        format!("`{}` is a quoted string where a number or boolean belongs; write {inner} without quotes", s.written)
    } else {
        format!(
            "`{}` is not a decimal number; numbers are written in decimal digits only (no 0x, 0o, 0b or _)",
            s.written
        )
    };
    Err(Diagnostic::new(file, s.at.0, s.at.1, message))
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
