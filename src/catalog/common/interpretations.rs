//! Interpretations: the points where the rulebooks are ambiguous, each
//! with its options, lowered against the hooks the code declares.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::changes::{RawAction, data_points, lower_data};
use super::{
    Change, Citation, Declared, Entry, HookDecl, Key, LowerReplace, RawCitation, RawReplace, RawWitness, Variant,
    Witness, check_citations, check_id, check_unique,
};
use crate::catalog::diag::Diagnostics;
use crate::catalog::turn::RawStep;
use crate::yaml::{Spanned, position};

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
    /// Actions it lets a player take (once a turn, in a step of the turn).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub actions: Vec<RawAction<R>>,
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
    let out = (entries.iter().enumerate())
        .map(|(index, e)| lower_interpretation(index, e, referenced, variants, decl, lower_replace, diags))
        .collect();
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

/// Lowers interpretation `index`: its header, its options, whether it
/// changes play, and the switch points that mean it was consulted.
fn lower_interpretation<R>(
    index: usize,
    e: &Entry<'_, RawInterpretation<R>>,
    referenced: &BTreeSet<usize>,
    variants: &[Variant],
    decl: &Declared<'_>,
    lower_replace: &mut LowerReplace<'_, R>,
    diags: &mut Diagnostics,
) -> Interpretation {
    let (i, file) = (e.raw, e.from.path);
    check_interpretation_header(file, i, variants, diags);
    let hook = decl.hooks.iter().position(|h| h.id == i.id.value);
    let options: Vec<InterpretationOption> =
        i.options.iter().map(|o| lower_option(e, o, hook, decl, lower_replace, diags)).collect();
    let has_data = referenced.contains(&index)
        || i.options
            .iter()
            .any(|o| !o.set.is_empty() || !o.replace.is_empty() || !o.steps.is_empty() || !o.actions.is_empty());
    check_changes_play(file, i, hook, has_data, &options, decl, diags);
    let mut points = vec![decl.interpretation_point(index)];
    if let Some(h) = hook {
        points.push(decl.hook_point(h));
    }
    for o in &options {
        data_points(&o.data, decl, &mut points);
    }
    points.sort_unstable();
    points.dedup();
    Interpretation {
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
    }
}

/// Lowers one option: what it changes as data, then the hook variant it
/// plays (a `hook:` where the engine has no hook is a diagnostic).
fn lower_option<R>(
    e: &Entry<'_, RawInterpretation<R>>,
    o: &RawOption<R>,
    hook: Option<usize>,
    decl: &Declared<'_>,
    lower_replace: &mut LowerReplace<'_, R>,
    diags: &mut Diagnostics,
) -> InterpretationOption {
    let (i, file) = (e.raw, e.from.path);
    let what = format!("option `{}` of interpretation `{}`", o.id.value, i.id.value);
    let owner = (what.as_str(), position(&o.id));
    let data = lower_data(&e.from, owner, &o.set, (&o.replace, &o.steps, &o.actions), decl, lower_replace, diags);
    let hook_variant = match hook {
        Some(h) => option_hook(file, i, o, &decl.hooks[h], diags),
        None => {
            if let Some(h) = &o.hook {
                diags.error(
                    file,
                    position(h),
                    format!("{what} names a reading `{}`, but the engine has no hook `{}`", h.value, i.id.value),
                );
            }
            None
        }
    };
    InterpretationOption { id: o.id.value.clone(), consequence: o.consequence.clone(), hook: hook_variant, data }
}

/// An interpretation changes play one way: through the engine's hook (an
/// option for each of its readings, not `inert`), as data, or not at all
/// (`inert`, with why).
fn check_changes_play<R>(
    file: &str,
    i: &RawInterpretation<R>,
    hook: Option<usize>,
    has_data: bool,
    options: &[InterpretationOption],
    decl: &Declared<'_>,
    diags: &mut Diagnostics,
) {
    let at = position(&i.id);
    match (hook, &i.inert) {
        (Some(_), Some(_)) => diags.error(
            file,
            at,
            format!("interpretation `{}` is marked inert but the engine branches on it; remove `inert`", i.id.value),
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
                 and its options change nothing; give them `set:`, `replace:`, `steps:` or `actions:`, or mark it \
                 `inert` with why it cannot change play (the engine implements: {})",
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
                        format!("interpretation `{}` has no option for the engine's reading `{reading}`", i.id.value),
                    );
                }
            }
        }
        _ => {}
    }
}

/// Where a catalog number stands: its file and its line and column.
pub type Place<'a> = (&'a str, (u64, u64));

/// What the default options of the interpretations set must hold
/// together, since the default game plays them all (an interpretation tied
/// to a variant is left out: the default game has no variant on):
/// - a number `game.yaml` writes (`places`, by parameter) that a default
///   option sets to another value is never played by the default game, so
///   an edit of it would change nothing without a word: an error at the
///   number;
/// - two default options that set one number (a parameter, or an entity's
///   count) to different values would clash in every default game
///   (`ConfigError::Clash`): an error at the second's `set:`;
/// - so would two default options that replace one entity's effect, or its
///   condition (`ConfigError::Replaced`): an error at the second's entry.
pub fn check_defaults_agree<R>(
    entries: &[Entry<'_, RawInterpretation<R>>],
    decl: &Declared<'_>,
    catalog: &[u32],
    places: &[Option<Place<'_>>],
    diags: &mut Diagnostics,
) {
    let mut earlier: BTreeMap<&str, (String, u32)> = BTreeMap::new();
    let mut replaced: BTreeMap<(&str, &str), String> = BTreeMap::new();
    for e in entries.iter().filter(|e| e.raw.variant.is_none()) {
        let i = e.raw;
        let Some(o) = i.options.iter().find(|o| o.id.value == i.default.value) else { continue };
        let by = format!("the default option `{}` of interpretation `{}`", o.id.value, i.id.value);
        for r in &o.replace {
            let parts = [("effect", r.effect.is_some()), ("condition", r.condition.is_some())];
            for (what, _) in parts.into_iter().filter(|(_, given)| *given) {
                let event = r.event.value.as_str();
                match replaced.get(&(event, what)) {
                    Some(first) => diags.error(
                        e.from.path,
                        position(&r.event),
                        format!(
                            "{by} replaces the {what} of `{event}`, and so does {first}: every default game would \
                             have both; make one of them leave it alone, or make another option the default"
                        ),
                    ),
                    None => {
                        replaced.insert((event, what), by.clone());
                    }
                }
            }
        }
        for (key, value) in &o.set {
            let (name, (line, col)) = (key.0.value.as_str(), position(value));
            match earlier.get(name) {
                Some((first, v)) if *v != value.value => diags.error(
                    e.from.path,
                    (line, col),
                    format!(
                        "{by} sets `{name}` to {}, but {first} sets it to {v}: every default game would have \
                         both; make one of them leave the number alone, or make another option the default",
                        value.value
                    ),
                ),
                Some(_) => {}
                None => {
                    earlier.insert(name, (by.clone(), value.value));
                }
            }
            let Some(param) = decl.params.iter().position(|p| *p == name) else { continue };
            let Some(&number) = catalog.get(param).filter(|&&n| n != value.value) else { continue };
            if let Some((file, at)) = places.get(param).copied().flatten() {
                diags.error(
                    file,
                    at,
                    format!(
                        "`{name}` is {number}, but {by} sets it to {} ({}:{line}:{col}), so the catalog's default \
                         game never plays this number; make the two agree, or make another option the default",
                        value.value, e.from.path
                    ),
                );
            }
        }
    }
}
