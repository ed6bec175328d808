//! Where a catalog's numbers come from: citations, the documents they
//! name, and each record's numbers cited or assumed (with the tally of
//! both).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{Entry, check_id, check_unique};
use crate::catalog::diag::Diagnostics;
use crate::yaml::{Spanned, position};

/// Provenance of a record's numbers: `source` cites where they come from;
/// `assumed` maps a field name to the reason its number(s) had to be
/// assumed. A number field not listed in `assumed` is cited by `source`.
/// (The two fields are declared on each record rather than flattened, so
/// serde-saphyr keeps every location exact.)
///
/// A place in a source document: `{doc: dry-gulch-en, ref: "Setup 3"}`.
/// `says` paraphrases what that place says (never a pasted sentence).
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawCitation {
    pub doc: Spanned<String>,
    #[serde(rename = "ref")]
    pub reference: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub says: Option<String>,
}

/// A document a catalog cites: a rulebook, errata, a house-rules sheet.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawDocument {
    pub id: Spanned<String>,
    pub title: String,
    /// The language it is written in (one of the declared languages).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<Spanned<String>>,
}

/// A declared document after validation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Document {
    pub id: String,
    pub title: String,
    pub language: Option<String>,
}

/// Lowers declared documents and languages (ids, uniqueness, each
/// document's language declared).
pub fn lower_documents(
    file: &str,
    docs: &[RawDocument],
    languages: &[Spanned<String>],
    diags: &mut Diagnostics,
) -> (Vec<Document>, Vec<String>) {
    check_unique(file, "document", docs.iter().map(|d| &d.id), diags);
    check_unique(file, "language", languages.iter(), diags);
    let langs: Vec<String> = languages.iter().map(|l| l.value.clone()).collect();
    let mut out = Vec::new();
    for d in docs {
        check_id(file, &d.id, diags);
        if let Some(l) = &d.language
            && !langs.contains(&l.value)
        {
            diags.error(
                file,
                position(l),
                format!("document `{}` is in undeclared language `{}`", d.id.value, l.value),
            );
        }
        out.push(Document {
            id: d.id.value.clone(),
            title: d.title.clone(),
            language: d.language.as_ref().map(|l| l.value.clone()),
        });
    }
    (out, langs)
}

/// Checks that every citation names a declared document.
pub fn check_documents<'a>(
    cites: impl IntoIterator<Item = (&'a str, &'a RawCitation)>,
    docs: &[Document],
    diags: &mut Diagnostics,
) {
    let known: Vec<&str> = docs.iter().map(|d| d.id.as_str()).collect();
    for (file, c) in cites {
        if !known.contains(&c.doc.value.as_str()) {
            diags.error(
                file,
                position(&c.doc),
                format!("unknown document `{}` in a citation; the catalog declares: {}", c.doc.value, known.join(", ")),
            );
        }
    }
}

/// How many numbers a catalog cites and how many it assumes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct NumberTally {
    pub cited: usize,
    pub assumed: usize,
}

impl NumberTally {
    pub fn add(&mut self, other: NumberTally) {
        self.cited += other.cited;
        self.assumed += other.assumed;
    }
}

/// Checks a record's provenance: every citation names a known document,
/// every `assumed` key is one of the record's number fields, and every number
/// field is either cited (the record has a source) or assumed. `fields` lists
/// the record's number fields with how many numbers each holds.
pub fn check_provenance(
    file: &str,
    what: &str,
    at: (u64, u64),
    source: &[RawCitation],
    assumed: &Assumed,
    fields: &[(&str, usize)],
    diags: &mut Diagnostics,
) -> NumberTally {
    check_citations(file, source, diags);
    for (key, reason) in assumed {
        if !fields.iter().any(|(f, _)| f == key) {
            let known: Vec<&str> = fields.iter().map(|(f, _)| *f).collect();
            diags.error(
                file,
                position(reason),
                format!(
                    "{what}: `assumed` names `{key}`, which is not a number field here (number fields: {})",
                    list_or_none(&known)
                ),
            );
        }
    }
    for (key, reason) in assumed {
        if reason.value.trim().is_empty() {
            diags.error(file, position(reason), format!("{what}: the assumption for `{key}` gives no reason"));
        }
    }
    let mut tally = NumberTally::default();
    for (field, n) in fields {
        if *n == 0 {
            continue;
        }
        if assumed.contains_key(*field) {
            tally.assumed += n;
        } else if source.is_empty() {
            diags.error(
                file,
                at,
                format!(
                    "{what}: `{field}` has no provenance; add a `source` citation or `assumed: {{{field}: <reason>}}`"
                ),
            );
        } else {
            tally.cited += n;
        }
    }
    tally
}

/// The numbers a record assumes (`assumed:`): field → the reason, at
/// its place in the file (a diagnostic about the entry points there).
pub type Assumed = BTreeMap<String, Spanned<String>>;

/// A record's or section's provenance: its citations (`source:`) and the
/// numbers it assumes (`assumed:`, field → reason).
/// [`provenance!`](crate::provenance) writes it for records with both fields.
pub trait Provenance {
    fn source(&self) -> &[RawCitation];
    /// None unless the record has numbers.
    fn assumed(&self) -> &Assumed {
        &NOTHING_ASSUMED
    }
}

static NOTHING_ASSUMED: Assumed = BTreeMap::new();

/// Writes [`Provenance`] for each record type with `source` and `assumed`
/// fields; `records!` declares records with both and writes it.
#[macro_export]
macro_rules! provenance {
    ($($t:ty),+ $(,)?) => {$(
        impl $crate::catalog::common::Provenance for $t {
            fn source(&self) -> &[$crate::catalog::common::RawCitation] {
                &self.source
            }
            fn assumed(&self) -> &$crate::catalog::common::Assumed {
                &self.assumed
            }
        }
    )+};
}

/// Declares catalog records: each struct with `id` and `names` first, its
/// own fields, then `source` and `assumed`, with the attributes the
/// invocation gives `names`, `source` and `assumed` first (`[names]
/// [source] [assumed]`: how the game's schema writes them); writes
/// `overlay::HasId`, [`Provenance`] and `Record` for each.
#[macro_export]
macro_rules! records {
    (@one [$(#[$nm:meta])*] [$(#[$sm:meta])*] [$(#[$am:meta])*] $(#[$m:meta])* $name:ident
        { $($(#[$fm:meta])* $field:ident: $fty:ty),* $(,)? }
    ) => {
        $(#[$m])*
        #[derive(Debug, Clone, PartialEq, serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
        #[serde(deny_unknown_fields)]
        pub struct $name {
            pub id: $crate::yaml::Spanned<String>,
            $(#[$nm])*
            pub names: $crate::catalog::common::Names,
            $($(#[$fm])* pub $field: $fty,)*
            $(#[$sm])*
            pub source: Vec<$crate::catalog::common::RawCitation>,
            $(#[$am])*
            pub assumed: $crate::catalog::common::Assumed,
        }

        impl $crate::catalog::overlay::HasId for $name {
            fn id(&self) -> &$crate::yaml::Spanned<String> {
                &self.id
            }
        }
        $crate::provenance!($name);
        impl $crate::catalog::common::Record for $name {
            fn names(&self) -> &$crate::catalog::common::Names {
                &self.names
            }
        }
    };
    ($names:tt $source:tt $assumed:tt $($(#[$m:meta])* $name:ident { $($fields:tt)* })+) => {$(
        $crate::records!(@one $names $source $assumed $(#[$m])* $name { $($fields)* });
    )+};
}

/// Declares sections of numbers (a `game.yaml` section): each struct with
/// its other fields (in `[...]`, first), its number fields (each a
/// `Spanned<u32>`), and `source` and `assumed` with the attributes the
/// invocation gives them first (`[source] [assumed]`: how the game's
/// schema writes them); `FIELDS` names the number fields and `numbers()`
/// gives each with its value, in declaration order; writes [`Provenance`].
#[macro_export]
macro_rules! numbered {
    (@one [$(#[$sm:meta])*] [$(#[$am:meta])*] $(#[$m:meta])* $name:ident
        [$($(#[$om:meta])* $other:ident: $oty:ty),* $(,)?]
        { $($(#[$fm:meta])* $field:ident),+ $(,)? }
    ) => {
        $(#[$m])*
        #[derive(Debug, Clone, PartialEq, serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
        #[serde(deny_unknown_fields)]
        pub struct $name {
            $($(#[$om])* pub $other: $oty,)*
            $($(#[$fm])* pub $field: $crate::yaml::Spanned<u32>,)+
            $(#[$sm])*
            pub source: Vec<$crate::catalog::common::RawCitation>,
            $(#[$am])*
            pub assumed: $crate::catalog::common::Assumed,
        }

        impl $name {
            /// Its number fields.
            pub const FIELDS: &[&str] = &[$(stringify!($field)),+];

            /// Each number field with its value.
            pub fn numbers(&self) -> impl Iterator<Item = (&'static str, &$crate::yaml::Spanned<u32>)> + Clone {
                Self::FIELDS.iter().copied().zip([$(&self.$field),+])
            }
        }

        $crate::provenance!($name);
    };
    ($source:tt $assumed:tt $($(#[$m:meta])* $name:ident $([$($other:tt)*])? { $($fields:tt)* })+) => {$(
        $crate::numbered!(@one $source $assumed $(#[$m])* $name [$($($other)*)?] { $($fields)* });
    )+};
}

/// A record's or section's numbers, for [`check_provenance`]: what
/// messages call it, where they point, its provenance and its number
/// fields with how many numbers each holds.
pub struct Numbers<'a> {
    pub what: &'a str,
    pub at: (u64, u64),
    pub of: &'a dyn Provenance,
    pub fields: Vec<(&'a str, usize)>,
}

impl Numbers<'_> {
    /// Every number cited or assumed (see [`check_provenance`]), in `file`.
    pub fn check(&self, file: &str, diags: &mut Diagnostics) -> NumberTally {
        check_provenance(file, self.what, self.at, self.of.source(), self.of.assumed(), &self.fields, diags)
    }
}

/// Number fields that hold one number each, for [`Numbers::fields`].
pub fn ones<'a>(fields: &[&'a str]) -> Vec<(&'a str, usize)> {
    fields.iter().map(|f| (*f, 1)).collect()
}

/// Every citation of `entries`, with the file each came from.
pub fn cites<'a, T: Provenance>(entries: &'a [Entry<'a, T>]) -> impl Iterator<Item = (&'a str, &'a RawCitation)> {
    entries.iter().flat_map(|e| e.raw.source().iter().map(|c| (e.from.path, c)))
}

/// Checks the form of citations (documents are checked against the
/// catalog's declared documents by `check_documents`).
pub fn check_citations(file: &str, cites: &[RawCitation], diags: &mut Diagnostics) {
    for c in cites {
        if c.reference.trim().is_empty() {
            diags.error(file, position(&c.doc), "a citation needs a `ref` naming the section (and rule number)");
        }
    }
}

fn list_or_none(items: &[&str]) -> String {
    if items.is_empty() { "none".to_string() } else { items.join(", ") }
}

/// A citation after validation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Citation {
    pub doc: String,
    pub reference: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub says: Option<String>,
}

impl Citation {
    pub fn lower(raw: &RawCitation) -> Citation {
        Citation { doc: raw.doc.value.clone(), reference: raw.reference.clone(), says: raw.says.clone() }
    }
}

impl std::fmt::Display for Citation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} \u{a7} {}", self.doc, self.reference)
    }
}
