//! Catalog pieces every game shares: citations, names, provenance,
//! variants and interpretations — the raw serde shapes and their lowered,
//! validated forms.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::catalog::diag::Diagnostics;
use crate::yaml::{Spanned, position};

/// The documents a citation may name (see shared/rulebooks/README.md), plus
/// `outside` for OUTSIDE_FACTS.md.
pub const DOCS: &[&str] = &["dry-gulch-en", "dry-gulch-de", "red-dog-junction-en", "dodge-city-de", "outside"];

/// Provenance of a record's numbers: `source` cites where they come from;
/// `assumed` maps a field name to the reason its number(s) had to be
/// assumed. A number field not listed in `assumed` is cited by `source`.
/// (The two fields are declared on each record rather than flattened, so
/// serde-saphyr keeps every location exact.)
///
/// A place in a source document: `{doc: dry-gulch-en, ref: "Setup 3"}`.
/// `says` paraphrases what that place says (never a pasted sentence).
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RawCitation {
    pub doc: Spanned<String>,
    #[serde(rename = "ref")]
    pub reference: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub says: Option<String>,
}

/// Names of an entity in each rulebook language that gives one.
#[derive(Debug, Clone, PartialEq, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Names {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub en: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub de: Option<String>,
}

impl Names {
    /// The English name, else the German one, else `fallback`.
    pub fn display<'a>(&'a self, fallback: &'a str) -> &'a str {
        self.en.as_deref().or(self.de.as_deref()).unwrap_or(fallback)
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
    assumed: &BTreeMap<String, String>,
    fields: &[(&str, usize)],
    diags: &mut Diagnostics,
) -> NumberTally {
    check_citations(file, source, diags);
    for key in assumed.keys() {
        if !fields.iter().any(|(f, _)| f == key) {
            let known: Vec<&str> = fields.iter().map(|(f, _)| *f).collect();
            diags.error(
                file,
                at,
                format!(
                    "{what}: `assumed` names `{key}`, which is not a number field here (number fields: {})",
                    list_or_none(&known)
                ),
            );
        }
    }
    for (key, reason) in assumed {
        if reason.trim().is_empty() {
            diags.error(file, at, format!("{what}: the assumption for `{key}` gives no reason"));
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

pub fn check_citations(file: &str, cites: &[RawCitation], diags: &mut Diagnostics) {
    for c in cites {
        if !DOCS.contains(&c.doc.value.as_str()) {
            diags.error(
                file,
                position(&c.doc),
                format!("unknown document `{}` in a citation; known documents: {}", c.doc.value, DOCS.join(", ")),
            );
        }
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

/// Checks that an id is kebab-case: lowercase ASCII letters, digits and
/// single hyphens.
pub fn check_id(file: &str, id: &Spanned<String>, diags: &mut Diagnostics) {
    let s = &id.value;
    let ok = !s.is_empty()
        && s.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !s.starts_with('-')
        && !s.ends_with('-')
        && !s.contains("--");
    if !ok {
        diags.error(
            file,
            position(id),
            format!("id `{s}` is not kebab-case (lowercase letters, digits and single hyphens)"),
        );
    }
}

/// Reports ids that occur twice in one list.
pub fn check_unique<'a>(
    file: &str,
    what: &str,
    ids: impl IntoIterator<Item = &'a Spanned<String>>,
    diags: &mut Diagnostics,
) {
    let mut seen = BTreeSet::new();
    for id in ids {
        if !seen.insert(id.value.as_str()) {
            diags.error(file, position(id), format!("duplicate {what} id `{}`", id.value));
        }
    }
}

// ---------------------------------------------------------------- variants

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RawVariantsFile {
    pub variants: Vec<RawVariant>,
}

/// An optional rule or mode: catalog-declared and cited.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RawVariant {
    pub id: Spanned<String>,
    #[serde(default)]
    pub names: Names,
    pub summary: String,
    /// The procedures or parameters the variant changes, by name.
    pub changes: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub incompatible: Vec<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub source: Vec<RawCitation>,
    /// Number field → the reason its number(s) had to be assumed.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub assumed: BTreeMap<String, String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Variant {
    pub id: String,
    pub name: String,
    pub summary: String,
    pub changes: Vec<String>,
    pub incompatible: Vec<String>,
    pub source: Vec<Citation>,
}

// --------------------------------------------------------- interpretations

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RawInterpretationsFile {
    pub interpretations: Vec<RawInterpretation>,
}

/// A named point where the rulebooks are ambiguous, contradictory, silent,
/// or disagree across translations.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RawInterpretation {
    pub id: Spanned<String>,
    /// The question, in one sentence.
    pub question: String,
    /// What is ambiguous: `translation` (the texts disagree), `silent`
    /// (no text says), `contradiction` (a text contradicts itself),
    /// `numbers` (numbers missing or not adding up), `interaction` (cards
    /// interact in a way no text settles).
    pub kind: Spanned<String>,
    /// The places on every side, each with `says`.
    pub citations: Vec<RawCitation>,
    pub options: Vec<RawOption>,
    pub default: Spanned<String>,
    /// Why the default was chosen.
    pub reason: String,
    /// Only consulted when this variant is enabled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<Spanned<String>>,
    /// Why this reading cannot change play (the engine does not branch on
    /// it); such an entry documents the ambiguity only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inert: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RawOption {
    pub id: Spanned<String>,
    /// The one-line consequence of choosing this option.
    pub consequence: String,
}

pub const INTERPRETATION_KINDS: &[&str] = &["translation", "silent", "contradiction", "numbers", "interaction"];

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Interpretation {
    pub id: String,
    pub question: String,
    pub kind: String,
    pub citations: Vec<Citation>,
    pub options: Vec<InterpretationOption>,
    pub default: String,
    pub reason: String,
    pub variant: Option<String>,
    pub inert: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InterpretationOption {
    pub id: String,
    pub consequence: String,
}

impl Interpretation {
    pub fn option_ids(&self) -> impl Iterator<Item = &str> {
        self.options.iter().map(|o| o.id.as_str())
    }
}

/// Lowers the variants file: ids, uniqueness, citations, incompatibilities.
pub fn lower_variants(file: &str, raw: &RawVariantsFile, diags: &mut Diagnostics) -> Vec<Variant> {
    check_unique(file, "variant", raw.variants.iter().map(|v| &v.id), diags);
    let ids: BTreeSet<&str> = raw.variants.iter().map(|v| v.id.value.as_str()).collect();
    raw.variants
        .iter()
        .map(|v| {
            check_id(file, &v.id, diags);
            if v.source.is_empty() {
                diags.error(file, position(&v.id), format!("variant `{}` cites no source", v.id.value));
            }
            check_provenance(
                file,
                &format!("variant `{}`", v.id.value),
                position(&v.id),
                &v.source,
                &v.assumed,
                &[],
                diags,
            );
            for other in &v.incompatible {
                if !ids.contains(other.value.as_str()) {
                    diags.error(
                        file,
                        position(other),
                        format!(
                            "variant `{}` is declared incompatible with unknown variant `{}`",
                            v.id.value, other.value
                        ),
                    );
                }
            }
            Variant {
                id: v.id.value.clone(),
                name: v.names.display(&v.id.value).to_string(),
                summary: v.summary.clone(),
                changes: v.changes.clone(),
                incompatible: v.incompatible.iter().map(|s| s.value.clone()).collect(),
                source: v.source.iter().map(Citation::lower).collect(),
            }
        })
        .collect()
}

/// Lowers the interpretations file. `variants` are the game's variant ids;
/// `implemented` lists, per interpretation the engine branches on, its
/// option ids — the catalog and the engine must agree exactly.
pub fn lower_interpretations(
    file: &str,
    raw: &RawInterpretationsFile,
    variants: &[Variant],
    implemented: &[(&str, &[&str])],
    diags: &mut Diagnostics,
) -> Vec<Interpretation> {
    check_unique(file, "interpretation", raw.interpretations.iter().map(|i| &i.id), diags);
    let mut out = Vec::new();
    for i in &raw.interpretations {
        let at = position(&i.id);
        check_id(file, &i.id, diags);
        check_citations(file, &i.citations, diags);
        if i.citations.is_empty() {
            diags.error(file, at, format!("interpretation `{}` cites no source; cite every side", i.id.value));
        }
        if !INTERPRETATION_KINDS.contains(&i.kind.value.as_str()) {
            diags.error(
                file,
                position(&i.kind),
                format!(
                    "unknown interpretation kind `{}`; expected one of {}",
                    i.kind.value,
                    INTERPRETATION_KINDS.join(", ")
                ),
            );
        }
        if i.kind.value == "translation" {
            let docs: BTreeSet<&str> = i.citations.iter().map(|c| c.doc.value.as_str()).collect();
            if docs.len() < 2 {
                diags.error(
                    file,
                    at,
                    format!("interpretation `{}` is about a translation but cites only one document", i.id.value),
                );
            }
        }
        if i.options.len() < 2 {
            diags.error(file, at, format!("interpretation `{}` needs at least two options", i.id.value));
        }
        check_unique(file, "option", i.options.iter().map(|o| &o.id), diags);
        for o in &i.options {
            check_id(file, &o.id, diags);
        }
        if !i.options.iter().any(|o| o.id.value == i.default.value) {
            diags.error(
                file,
                position(&i.default),
                format!("default `{}` of interpretation `{}` is not one of its options", i.default.value, i.id.value),
            );
        }
        if let Some(v) = &i.variant
            && !variants.iter().any(|x| x.id == v.value)
        {
            diags.error(
                file,
                position(v),
                format!("interpretation `{}` names unknown variant `{}`", i.id.value, v.value),
            );
        }
        match implemented.iter().find(|(id, _)| *id == i.id.value) {
            None if i.inert.is_some() => {}
            Some(_) if i.inert.is_some() => diags.error(
                file,
                at,
                format!(
                    "interpretation `{}` is marked inert but the engine branches on it; remove `inert`",
                    i.id.value
                ),
            ),
            None => diags.error(
                file,
                at,
                format!(
                    "interpretation `{}` is not one the engine knows; known: {}",
                    i.id.value,
                    implemented.iter().map(|(id, _)| *id).collect::<Vec<_>>().join(", ")
                ),
            ),
            Some((_, opts)) => {
                let mine: BTreeSet<&str> = i.options.iter().map(|o| o.id.value.as_str()).collect();
                let theirs: BTreeSet<&str> = opts.iter().copied().collect();
                if mine != theirs {
                    diags.error(
                        file,
                        at,
                        format!(
                            "interpretation `{}` lists options {{{}}} but the engine implements {{{}}}",
                            i.id.value,
                            mine.into_iter().collect::<Vec<_>>().join(", "),
                            theirs.into_iter().collect::<Vec<_>>().join(", ")
                        ),
                    );
                }
            }
        }
        out.push(Interpretation {
            id: i.id.value.clone(),
            question: i.question.clone(),
            kind: i.kind.value.clone(),
            citations: i.citations.iter().map(Citation::lower).collect(),
            options: i
                .options
                .iter()
                .map(|o| InterpretationOption { id: o.id.value.clone(), consequence: o.consequence.clone() })
                .collect(),
            default: i.default.value.clone(),
            reason: i.reason.clone(),
            variant: i.variant.as_ref().map(|v| v.value.clone()),
            inert: i.inert.clone(),
        });
    }
    for (id, _) in implemented {
        if !raw.interpretations.iter().any(|i| i.id.value == *id) {
            diags.error(
                file,
                (1, 1),
                format!("the engine branches on interpretation `{id}`, which this catalog does not declare"),
            );
        }
    }
    out
}
