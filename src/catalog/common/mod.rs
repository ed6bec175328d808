//! Catalog pieces every game shares: citations, names, provenance,
//! variants and interpretations — the raw serde shapes and their lowered,
//! validated forms, one file per concern: `names`, `provenance`
//! (citations, documents, numbers cited or assumed), `changes` (what a
//! reading or a variant changes as data), `variants`, `interpretations`,
//! `roles` (the entry in each role a game's code needs), `rules` (the
//! places the rules a game's errors name cite);
//! the ids and the file an entry came from are here.

use std::collections::{BTreeMap, BTreeSet};

use crate::catalog::diag::Diagnostics;
use crate::catalog::overlay::HasId;
use crate::yaml::{Spanned, position};

mod changes;
mod interpretations;
mod names;
mod provenance;
pub mod roles;
mod rules;
mod variants;

pub use super::folder::{RawWitness, Witness, closest, did_you_mean};
pub use super::turn::{RawStep, lower_turn};
pub use changes::{
    Change, Declared, HookDecl, LowerReplace, Patch, Range, RawAction, RawReplace, no_condition, param_places,
    param_values,
};
pub use interpretations::{
    INTERPRETATION_KINDS, Interpretation, InterpretationOption, Place, RawInterpretation, RawInterpretationsFile,
    RawOption, check_defaults_agree, lower_interpretations,
};
pub use names::{Key, Names, check_names};
pub use provenance::{
    Assumed, Citation, Document, NumberTally, Numbers, Provenance, RawCitation, RawDocument, check_citations,
    check_documents, check_provenance, cites, lower_documents, ones,
};
pub use rules::lower_rules;
pub use variants::{RawVariant, RawVariantsFile, Variant, lower_variants};

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

impl<R> Provenance for RawVariant<R> {
    fn source(&self) -> &[RawCitation] {
        &self.source
    }
    fn assumed(&self) -> &Assumed {
        &self.assumed
    }
}

impl<R> Provenance for RawInterpretation<R> {
    fn source(&self) -> &[RawCitation] {
        &self.citations
    }
}

/// A catalog record: an id, names, and the provenance of its numbers.
pub trait Record: HasId + Provenance {
    fn names(&self) -> &Names;
}

/// Checks a record (`kind`, e.g. "resource", in `file`): its id
/// kebab-case, its names in the declared `languages`, each of its number
/// `fields` cited or assumed. What messages call it: "resource `wood`".
pub fn check_record(
    file: &str,
    kind: &str,
    r: &dyn Record,
    fields: &[(&str, usize)],
    languages: &[String],
    tally: &mut NumberTally,
    diags: &mut Diagnostics,
) -> String {
    let id = r.id();
    check_id(file, id, diags);
    check_names(file, r.names(), languages, diags);
    let what = format!("{kind} `{}`", id.value);
    tally.add(check_provenance(file, &what, position(id), r.source(), r.assumed(), fields, diags));
    what
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

/// Each id of a list with the typed id `id_at` gives the index of its
/// entry (its file and place are where `id_at` reports an entry past what
/// an id holds, which then has none), in catalog order.
pub fn id_table<'a, I>(
    ids: impl IntoIterator<Item = (&'a str, &'a Spanned<String>)>,
    id_at: impl Fn(usize, &str, (u64, u64), &mut Diagnostics) -> Option<I>,
    diags: &mut Diagnostics,
) -> BTreeMap<String, I> {
    let mut out = BTreeMap::new();
    for (i, (file, id)) in ids.into_iter().enumerate() {
        out.extend(id_at(i, file, position(id), diags).map(|typed| (id.value.clone(), typed)));
    }
    out
}

/// The ids of a list of `what`s in one file, each once (a duplicate is a
/// diagnostic), with their typed ids ([`id_table`]).
pub fn unique_ids<'a, I>(
    file: &'a str,
    what: &str,
    ids: impl IntoIterator<Item = &'a Spanned<String>> + Clone,
    id_at: impl Fn(usize, &str, (u64, u64), &mut Diagnostics) -> Option<I>,
    diags: &mut Diagnostics,
) -> BTreeMap<String, I> {
    check_unique(file, what, ids.clone(), diags);
    id_table(ids.into_iter().map(|id| (file, id)), id_at, diags)
}
