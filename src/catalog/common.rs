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
#[serde(deny_unknown_fields, bound(deserialize = "R: Deserialize<'de>"))]
pub struct RawVariantsFile<R> {
    pub variants: Vec<RawVariant<R>>,
}

/// An optional rule or mode: catalog-declared and cited.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, bound(deserialize = "R: Deserialize<'de>"))]
pub struct RawVariant<R> {
    pub id: Spanned<String>,
    #[serde(default)]
    pub names: Names,
    pub summary: String,
    /// The procedures or parameters the variant changes, by name.
    pub changes: Vec<String>,
    /// Parameters it sets: `{turn.hand_limit: 12}`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub set: BTreeMap<String, Spanned<u32>>,
    /// Entities whose effect it replaces (the shape is the game's).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replace: Vec<R>,
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
    /// The code switch it turns on (index into the game's variant table),
    /// or `None` for a variant that is data only.
    pub hook: Option<usize>,
    /// What it changes as data.
    pub data: Vec<Change>,
}

/// One change a reading or a variant makes, as data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Change {
    /// Sets parameter `param` (index into the game's parameter table).
    Set { param: usize, value: u32 },
    /// Replaces the effect of entity `entity` (the game's numbering) with
    /// the game's compiled replacement `with`.
    Replace { entity: u32, with: u32 },
}

/// What the code of a game declares, for lowering its interpretations and
/// variants: its hooks, its variant switches, its parameters, and how many
/// entities a `replace` can name.
#[derive(Debug, Clone, Copy)]
pub struct Declared<'a> {
    pub hooks: &'a [crate::engine::HookDecl],
    pub variants: &'a [&'a str],
    pub params: &'a [&'a str],
    pub entities: usize,
}

impl Declared<'_> {
    /// The switch point of hook `h` (see `engine::Touched`).
    pub fn hook_point(&self, h: usize) -> usize {
        h
    }
    pub fn param_point(&self, p: usize) -> usize {
        self.hooks.len() + p
    }
    pub fn entity_point(&self, e: usize) -> usize {
        self.hooks.len() + self.params.len() + e
    }
    /// The point a `reading:` condition on interpretation `i` marks.
    pub fn interpretation_point(&self, i: usize) -> usize {
        self.hooks.len() + self.params.len() + self.entities + i
    }
}

// --------------------------------------------------------- interpretations

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, bound(deserialize = "R: Deserialize<'de>"))]
pub struct RawInterpretationsFile<R> {
    pub interpretations: Vec<RawInterpretation<R>>,
}

/// A named point where the rulebooks are ambiguous, contradictory, silent,
/// or disagree across translations.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, bound(deserialize = "R: Deserialize<'de>"))]
pub struct RawInterpretation<R> {
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
    pub options: Vec<RawOption<R>>,
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
#[serde(deny_unknown_fields, bound(deserialize = "R: Deserialize<'de>"))]
pub struct RawOption<R> {
    pub id: Spanned<String>,
    /// The one-line consequence of choosing this option.
    pub consequence: String,
    /// For an interpretation the code implements: which of its readings
    /// this option plays (implied when the option id is one of them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hook: Option<Spanned<String>>,
    /// Parameters it sets: `{turn.hand_limit: 12}`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub set: BTreeMap<String, Spanned<u32>>,
    /// Entities whose effect it replaces (the shape is the game's).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replace: Vec<R>,
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
    /// The code hook it selects (index into the game's hook table), or
    /// `None` for an interpretation that is data only.
    pub hook: Option<usize>,
    /// The switch points whose use means the engine consulted it.
    pub points: Vec<usize>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InterpretationOption {
    pub id: String,
    pub consequence: String,
    /// The hook variant it plays (for an interpretation with a hook).
    pub hook: Option<u8>,
    /// What it changes as data.
    pub data: Vec<Change>,
}

impl Interpretation {
    pub fn option_ids(&self) -> impl Iterator<Item = &str> {
        self.options.iter().map(|o| o.id.as_str())
    }
}

/// Lowers the game's replacement shape (`replace:` entries) into changes.
pub type LowerReplace<'a, R> = dyn FnMut(&R, &mut Diagnostics) -> Option<Change> + 'a;

/// Lowers `set:` and `replace:` into changes, checking parameter names.
fn lower_data<R>(
    file: &str,
    what: &str,
    set: &BTreeMap<String, Spanned<u32>>,
    replace: &[R],
    decl: &Declared<'_>,
    lower_replace: &mut LowerReplace<'_, R>,
    diags: &mut Diagnostics,
) -> Vec<Change> {
    let mut out = Vec::new();
    for (name, value) in set {
        match decl.params.iter().position(|p| p == name) {
            Some(param) => out.push(Change::Set { param, value: value.value }),
            None => diags.error(
                file,
                position(value),
                format!("{what} sets unknown parameter `{name}`; parameters: {}", decl.params.join(", ")),
            ),
        }
    }
    out.extend(replace.iter().filter_map(|r| lower_replace(r, diags)));
    out
}

/// The switch points a list of changes touches.
fn data_points(data: &[Change], decl: &Declared<'_>, points: &mut Vec<usize>) {
    for c in data {
        points.push(match *c {
            Change::Set { param, .. } => decl.param_point(param),
            Change::Replace { entity, .. } => decl.entity_point(entity as usize),
        });
    }
}

/// Lowers the variants file: ids, uniqueness, citations, incompatibilities,
/// and what each changes. Every variant switch the code declares must be
/// in the catalog; a variant the code does not know must change something
/// as data.
pub fn lower_variants<R>(
    file: &str,
    raw: &RawVariantsFile<R>,
    decl: &Declared<'_>,
    lower_replace: &mut LowerReplace<'_, R>,
    diags: &mut Diagnostics,
) -> Vec<Variant> {
    check_unique(file, "variant", raw.variants.iter().map(|v| &v.id), diags);
    let ids: BTreeSet<&str> = raw.variants.iter().map(|v| v.id.value.as_str()).collect();
    for known in decl.variants {
        if !ids.contains(known) {
            diags.error(
                file,
                (1, 1),
                format!("the engine implements variant `{known}`, which this catalog does not declare"),
            );
        }
    }
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
                &[("set", v.set.len())],
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
            let what = format!("variant `{}`", v.id.value);
            let data = lower_data(file, &what, &v.set, &v.replace, decl, lower_replace, diags);
            let hook = decl.variants.iter().position(|k| *k == v.id.value);
            if hook.is_none() && data.is_empty() {
                diags.error(
                    file,
                    position(&v.id),
                    format!(
                        "variant `{}` is not one the engine implements ({}) and changes nothing as data; \
                         give it `set:` or `replace:`",
                        v.id.value,
                        decl.variants.join(", ")
                    ),
                );
            }
            Variant {
                id: v.id.value.clone(),
                name: v.names.display(&v.id.value).to_string(),
                summary: v.summary.clone(),
                changes: v.changes.clone(),
                incompatible: v.incompatible.iter().map(|s| s.value.clone()).collect(),
                source: v.source.iter().map(Citation::lower).collect(),
                hook,
                data,
            }
        })
        .collect()
}

/// Checks an interpretation's header: id, citations, kind, options, default
/// and variant.
fn check_interpretation_header<R>(file: &str, i: &RawInterpretation<R>, variants: &[Variant], diags: &mut Diagnostics) {
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
        diags.error(file, position(v), format!("interpretation `{}` names unknown variant `{}`", i.id.value, v.value));
    }
}

/// The hook variant an option plays: its `hook:`, else its id when that is
/// one of the hook's variants.
fn option_hook<R>(
    file: &str,
    i: &RawInterpretation<R>,
    o: &RawOption<R>,
    decl: &crate::engine::HookDecl,
    diags: &mut Diagnostics,
) -> Option<u8> {
    let (name, at) = match &o.hook {
        Some(h) => (h.value.as_str(), position(h)),
        None => (o.id.value.as_str(), position(&o.id)),
    };
    match decl.options.iter().position(|k| *k == name) {
        Some(k) => Some(k as u8),
        None => {
            let how = if o.hook.is_some() { "names unknown reading" } else { "is not one of the engine's readings" };
            diags.error(
                file,
                at,
                format!(
                    "option `{}` of interpretation `{}` {how} `{name}`; give it `hook:` one of {}",
                    o.id.value,
                    i.id.value,
                    decl.options.join(", ")
                ),
            );
            None
        }
    }
}

/// Lowers the interpretations file against what the code declares: every
/// hook must be declared, with an option for each of its readings; an
/// interpretation the code does not know is data (its options `set` or
/// `replace`), or `inert` with the reason it cannot change play.
pub fn lower_interpretations<R>(
    file: &str,
    raw: &RawInterpretationsFile<R>,
    variants: &[Variant],
    decl: &Declared<'_>,
    lower_replace: &mut LowerReplace<'_, R>,
    diags: &mut Diagnostics,
) -> Vec<Interpretation> {
    check_unique(file, "interpretation", raw.interpretations.iter().map(|i| &i.id), diags);
    let mut out = Vec::new();
    for (index, i) in raw.interpretations.iter().enumerate() {
        let at = position(&i.id);
        check_interpretation_header(file, i, variants, diags);
        let hook = decl.hooks.iter().position(|h| h.id == i.id.value);
        let mut options = Vec::new();
        for o in &i.options {
            let what = format!("option `{}` of interpretation `{}`", o.id.value, i.id.value);
            let data = lower_data(file, &what, &o.set, &o.replace, decl, lower_replace, diags);
            let hook_variant = match hook {
                Some(h) => option_hook(file, i, o, &decl.hooks[h], diags),
                None => {
                    if let Some(h) = &o.hook {
                        diags.error(
                            file,
                            position(h),
                            format!(
                                "{what} names a reading `{}`, but the engine has no hook `{}`",
                                h.value, i.id.value
                            ),
                        );
                    }
                    None
                }
            };
            options.push(InterpretationOption {
                id: o.id.value.clone(),
                consequence: o.consequence.clone(),
                hook: hook_variant,
                data,
            });
        }
        let has_data = options.iter().any(|o| !o.data.is_empty());
        match (hook, &i.inert) {
            (Some(_), Some(_)) => diags.error(
                file,
                at,
                format!(
                    "interpretation `{}` is marked inert but the engine branches on it; remove `inert`",
                    i.id.value
                ),
            ),
            (None, Some(_)) if has_data => diags.error(
                file,
                at,
                format!("interpretation `{}` is marked inert but its options change play; remove `inert`", i.id.value),
            ),
            (None, None) if !has_data => diags.error(
                file,
                at,
                format!(
                    "interpretation `{}` is not one the engine implements and its options change nothing; give \
                     them `set:` or `replace:`, or mark it `inert` with why it cannot change play (the engine \
                     implements: {})",
                    i.id.value,
                    decl.hooks.iter().map(|h| h.id).collect::<Vec<_>>().join(", ")
                ),
            ),
            (Some(h), None) => {
                for reading in decl.hooks[h].options {
                    if !options.iter().any(|o| o.hook.is_some_and(|k| decl.hooks[h].options[k as usize] == *reading)) {
                        diags.error(
                            file,
                            at,
                            format!(
                                "interpretation `{}` has no option for the engine's reading `{reading}`",
                                i.id.value
                            ),
                        );
                    }
                }
            }
            _ => {}
        }
        let mut points = vec![decl.interpretation_point(index)];
        if let Some(h) = hook {
            points.push(decl.hook_point(h));
        }
        for o in &options {
            data_points(&o.data, decl, &mut points);
        }
        points.sort_unstable();
        points.dedup();
        out.push(Interpretation {
            id: i.id.value.clone(),
            question: i.question.clone(),
            kind: i.kind.value.clone(),
            citations: i.citations.iter().map(Citation::lower).collect(),
            options,
            default: i.default.value.clone(),
            reason: i.reason.clone(),
            variant: i.variant.as_ref().map(|v| v.value.clone()),
            inert: i.inert.clone(),
            hook,
            points,
        });
    }
    for h in decl.hooks {
        if !raw.interpretations.iter().any(|i| i.id.value == h.id) {
            diags.error(
                file,
                (1, 1),
                format!("the engine branches on interpretation `{}`, which this catalog does not declare", h.id),
            );
        }
    }
    out
}
