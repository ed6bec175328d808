//! Catalog pieces every game shares: citations, names, provenance,
//! variants and interpretations — the raw serde shapes and their lowered,
//! validated forms.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

pub use super::folder::{RawWitness, Witness, closest};
use super::turn::lower_step;
pub use super::turn::{RawStep, lower_turn};
use crate::catalog::MAX_NUMBER;
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

/// A map key that keeps its position (a language of `names`).
#[derive(Debug, Clone)]
pub struct Key(pub Spanned<String>);

impl PartialEq for Key {
    fn eq(&self, o: &Key) -> bool {
        self.0.value == o.0.value
    }
}
impl Eq for Key {}
impl PartialOrd for Key {
    fn partial_cmp(&self, o: &Key) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Key {
    fn cmp(&self, o: &Key) -> std::cmp::Ordering {
        self.0.value.cmp(&o.0.value)
    }
}
impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Key, D::Error> {
        Spanned::<String>::deserialize(d).map(Key)
    }
}
impl Serialize for Key {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.value.serialize(s)
    }
}

/// Names of an entity, by language: `{en: Fire, de: Feuer}`. The languages
/// a catalog may use are the ones it declares (`languages:`).
#[derive(Debug, Clone, PartialEq, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(transparent)]
pub struct Names(pub BTreeMap<Key, String>);

impl Names {
    /// The name in the first of `languages` that has one, else any, else `fallback`.
    pub fn display<'a>(&'a self, languages: &[String], fallback: &'a str) -> &'a str {
        languages
            .iter()
            .find_map(|l| self.0.iter().find(|(k, _)| k.0.value == *l).map(|(_, v)| v.as_str()))
            .or_else(|| self.0.values().next().map(String::as_str))
            .unwrap_or(fallback)
    }

    /// The name in one language.
    pub fn get(&self, language: &str) -> Option<&str> {
        self.0.iter().find(|(k, _)| k.0.value == language).map(|(_, v)| v.as_str())
    }
}

/// Checks that every language of `names` is declared.
pub fn check_names(file: &str, names: &Names, languages: &[String], diags: &mut Diagnostics) {
    for k in names.0.keys() {
        if !languages.contains(&k.0.value) {
            diags.error(
                file,
                position(&k.0),
                format!(
                    "name in undeclared language `{}`; the catalog declares {} (add it to `languages:`)",
                    k.0.value,
                    languages.join(", ")
                ),
            );
        }
    }
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

/// Checks that an id is kebab-case: lowercase ASCII letters, digits and
/// single hyphens.
pub fn check_id(file: &str, id: &Spanned<String>, diags: &mut Diagnostics) {
    check_kebab(file, &id.value, position(id), diags);
}

/// Reports an id written at `at` that is not kebab-case.
pub fn check_kebab(file: &str, s: &str, at: (u64, u64), diags: &mut Diagnostics) {
    let ok = !s.is_empty()
        && s.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !s.starts_with('-')
        && !s.ends_with('-')
        && !s.contains("--");
    if !ok {
        diags.error(file, at, format!("id `{s}` is not kebab-case (lowercase letters, digits and single hyphens)"));
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

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, bound(deserialize = "R: Deserialize<'de>"))]
pub struct RawVariantsFile<R> {
    pub variants: Vec<RawVariant<R>>,
}

/// An optional rule or mode: catalog-declared and cited.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
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
    pub set: BTreeMap<Key, Spanned<u32>>,
    /// Events whose effect it replaces (in the game's effect language `R`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replace: Vec<RawReplace<R>>,
    /// How it changes the turn: steps it adds, removes or moves.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub steps: Vec<RawStep<R>>,
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

/// A `replace:` entry: the event whose effect is replaced, and the effect
/// (in the game's effect language `E`) that applies instead.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, bound(deserialize = "E: Deserialize<'de>"))]
pub struct RawReplace<E> {
    pub event: Spanned<String>,
    pub effect: Vec<E>,
}

/// What the game compiles for a reading or a variant.
#[derive(Debug, Clone, Copy)]
pub enum Patch<'a, E> {
    Replace(&'a RawReplace<E>),
    /// A data step `after` (or before) declared step `at`, named by `anchor`.
    Step {
        at: usize,
        after: bool,
        anchor: &'a Spanned<String>,
        raw: &'a RawStep<E>,
    },
}

/// One change a reading or a variant makes, as data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Change {
    /// Sets parameter `param` (index into the game's parameter table).
    Set { param: usize, value: u32 },
    /// Replaces the effect of entity `entity` (the game's numbering) with
    /// the game's compiled effect `with`.
    Replace { entity: u32, with: u32 },
    /// Runs the game's compiled effect `with` as a step of the turn right
    /// `after` (or before) step `at` (index into `Declared::steps`).
    Step { at: u32, after: bool, with: u32 },
    /// Removes step `step` from the turn.
    Remove { step: u32 },
    /// Moves step `step` right `after` (or before) step `at`.
    Move { step: u32, at: u32, after: bool },
}

/// A reading the code implements, as the loader checks a catalog against
/// it: the interpretation id and the ids of its readings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HookDecl {
    pub id: &'static str,
    pub options: &'static [&'static str],
}

/// What the code of a game declares, for lowering its interpretations and
/// variants: its hooks, its variant switches, its parameters, and how many
/// entities a `replace` can name.
#[derive(Debug, Clone, Copy)]
pub struct Declared<'a> {
    pub hooks: &'a [HookDecl],
    pub variants: &'a [&'a str],
    pub params: &'a [&'a str],
    pub entities: usize,
    /// The procedures the turn is made of (ids in the code's table), and
    /// the ones every turn must contain.
    pub steps: &'a [&'a str],
    pub required_steps: &'a [&'a str],
    /// The catalog's turn (indexes into `steps`, in order), for checking
    /// the steps a reading names; empty in the copy kept for switch points.
    pub turn: &'a [u16],
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
    pub fn step_point(&self, s: usize) -> usize {
        self.hooks.len() + self.params.len() + self.entities + s
    }
    /// The point a `reading:` condition on interpretation `i` marks.
    pub fn interpretation_point(&self, i: usize) -> usize {
        self.hooks.len() + self.params.len() + self.entities + self.steps.len() + i
    }
}

// --------------------------------------------------------- interpretations

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, bound(deserialize = "R: Deserialize<'de>"))]
pub struct RawInterpretationsFile<R> {
    pub interpretations: Vec<RawInterpretation<R>>,
}

/// A named point where the rulebooks are ambiguous, contradictory, silent,
/// or disagree across translations.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, bound(deserialize = "R: Deserialize<'de>"))]
pub struct RawInterpretation<R> {
    pub id: Spanned<String>,
    /// The question, in one sentence.
    pub question: String,
    /// What is ambiguous: `translation` (the texts disagree), `silent`
    /// (no text says), `contradiction` (a text contradicts itself),
    /// `numbers` (numbers missing or not adding up), `interaction` (cards
    /// interact in a way no text settles), `house-rule` (a table's own
    /// rule, cited from its house-rules sheet).
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
    /// A situation in which the reading matters (see `interp::witness`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub witness: Option<RawWitness>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
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
    pub set: BTreeMap<Key, Spanned<u32>>,
    /// Events whose effect it replaces (in the game's effect language `R`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replace: Vec<RawReplace<R>>,
    /// How it changes the turn: steps it adds, removes or moves.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub steps: Vec<RawStep<R>>,
}

pub const INTERPRETATION_KINDS: &[&str] =
    &["translation", "silent", "contradiction", "numbers", "interaction", "house-rule"];

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
    pub witness: Option<Witness>,
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

/// Lowers the game's replacement shape (`replace:` entries, written in the
/// given file) into changes.
pub type LowerReplace<'a, R> = dyn FnMut(Patch<'_, R>, &Source<'_>, &mut Diagnostics) -> Option<Change> + 'a;

/// The file an entry was read from (a bundled file, or a house-rules
/// overlay), for diagnostics.
#[derive(Debug, Clone, Copy)]
pub struct Source<'a> {
    pub path: &'a str,
    pub text: &'a str,
}

/// A catalog entry with the file it was read from.
#[derive(Debug, Clone, Copy)]
pub struct Entry<'a, T> {
    pub from: Source<'a>,
    pub raw: &'a T,
}

/// Lowers `set:`, `replace:` and `steps:` into changes, checking parameter
/// names and bounding the values.
fn lower_data<R>(
    from: &Source<'_>,
    (what, owner): (&str, (u64, u64)),
    set: &BTreeMap<Key, Spanned<u32>>,
    (replace, steps): (&[RawReplace<R>], &[RawStep<R>]),
    decl: &Declared<'_>,
    lower_replace: &mut LowerReplace<'_, R>,
    diags: &mut Diagnostics,
) -> Vec<Change> {
    let mut out = Vec::new();
    for (key, value) in set {
        let name = &key.0.value;
        match decl.params.iter().position(|p| p == name) {
            Some(_) if value.value > MAX_NUMBER => diags.error(
                from.path,
                position(value),
                format!(
                    "{what} sets `{name}` to {}, more than {MAX_NUMBER} (the bound on every catalog number)",
                    value.value
                ),
            ),
            Some(param) => out.push(Change::Set { param, value: value.value }),
            None => diags.error(
                from.path,
                position(&key.0),
                format!("{what} sets unknown parameter `{name}`; parameters: {}", decl.params.join(", ")),
            ),
        }
    }
    out.extend(replace.iter().filter_map(|r| lower_replace(Patch::Replace(r), from, diags)));
    for raw in steps {
        out.extend(lower_step(raw, from, (what, owner), decl, lower_replace, diags));
    }
    out
}

/// The switch points a list of changes touches.
fn data_points(data: &[Change], decl: &Declared<'_>, points: &mut Vec<usize>) {
    for c in data {
        points.push(match *c {
            Change::Set { param, .. } => decl.param_point(param),
            Change::Replace { entity, .. } => decl.entity_point(entity as usize),
            Change::Step { at, .. } => decl.step_point(at as usize),
            Change::Remove { step } | Change::Move { step, .. } => decl.step_point(step as usize),
        });
    }
}

/// Lowers the variants file: ids, uniqueness, citations, incompatibilities,
/// and what each changes. Every variant switch the code declares must be
/// in the catalog; a variant the code does not know must change something
/// as data.
pub fn lower_variants<R>(
    file: &str,
    entries: &[Entry<'_, RawVariant<R>>],
    languages: &[String],
    decl: &Declared<'_>,
    lower_replace: &mut LowerReplace<'_, R>,
    diags: &mut Diagnostics,
) -> Vec<Variant> {
    let ids: BTreeSet<&str> = entries.iter().map(|e| e.raw.id.value.as_str()).collect();
    for known in decl.variants {
        if !ids.contains(known) {
            diags.error(
                file,
                (1, 1),
                format!("the engine implements variant `{known}`, which this catalog does not declare"),
            );
        }
    }
    entries
        .iter()
        .map(|e| {
            let (v, f) = (e.raw, e.from.path);
            check_id(f, &v.id, diags);
            check_names(f, &v.names, languages, diags);
            if v.source.is_empty() {
                diags.error(f, position(&v.id), format!("variant `{}` cites no source", v.id.value));
            }
            let what = format!("variant `{}`", v.id.value);
            check_provenance(f, &what, position(&v.id), &v.source, &v.assumed, &[("set", v.set.len())], diags);
            for other in &v.incompatible {
                if !ids.contains(other.value.as_str()) {
                    diags.error(
                        f,
                        position(other),
                        format!(
                            "variant `{}` is declared incompatible with unknown variant `{}`",
                            v.id.value, other.value
                        ),
                    );
                }
            }
            let owner = (what.as_str(), position(&v.id));
            let data = lower_data(&e.from, owner, &v.set, (&v.replace, &v.steps), decl, lower_replace, diags);
            let hook = decl.variants.iter().position(|k| *k == v.id.value);
            // (a change that failed to lower has its own diagnostic)
            let declares_data = !v.set.is_empty() || !v.replace.is_empty() || !v.steps.is_empty();
            if hook.is_none() && !declares_data {
                diags.error(
                    f,
                    position(&v.id),
                    format!(
                        "variant `{}` is not one the engine implements ({}) and changes nothing as data; \
                         give it `set:`, `replace:` or `steps:`",
                        v.id.value,
                        decl.variants.join(", ")
                    ),
                );
            }
            Variant {
                id: v.id.value.clone(),
                name: v.names.display(languages, &v.id.value).to_string(),
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
    decl: &HookDecl,
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
    base_file: &str,
    entries: &[Entry<'_, RawInterpretation<R>>],
    referenced: &BTreeSet<usize>,
    variants: &[Variant],
    decl: &Declared<'_>,
    lower_replace: &mut LowerReplace<'_, R>,
    diags: &mut Diagnostics,
) -> Vec<Interpretation> {
    let mut out = Vec::new();
    for (index, e) in entries.iter().enumerate() {
        let (i, file) = (e.raw, e.from.path);
        let at = position(&i.id);
        check_interpretation_header(file, i, variants, diags);
        let hook = decl.hooks.iter().position(|h| h.id == i.id.value);
        let mut options = Vec::new();
        for o in &i.options {
            let what = format!("option `{}` of interpretation `{}`", o.id.value, i.id.value);
            let owner = (what.as_str(), position(&o.id));
            let data = lower_data(&e.from, owner, &o.set, (&o.replace, &o.steps), decl, lower_replace, diags);
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
        let has_data = referenced.contains(&index)
            || i.options.iter().any(|o| !o.set.is_empty() || !o.replace.is_empty() || !o.steps.is_empty());
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
                    "interpretation `{}` is not one the engine implements, no effect tests it with `reading:`, \
                     and its options change nothing; give them `set:`, `replace:` or `steps:`, or mark it `inert` with why \
                     it cannot change play (the engine implements: {})",
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
            witness: i.witness.as_ref().map(|w| w.lower(file)),
            hook,
            points,
        });
    }
    for h in decl.hooks {
        if !entries.iter().any(|e| e.raw.id.value == h.id) {
            diags.error(
                base_file,
                (1, 1),
                format!("the engine branches on interpretation `{}`, which this catalog does not declare", h.id),
            );
        }
    }
    out
}
