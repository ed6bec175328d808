//! Variants: optional rules or modes a catalog declares, each a switch
//! the code implements or changes made as data.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::changes::{RawAction, lower_data};
use super::{
    Change, Citation, Declared, Entry, Key, LowerReplace, Names, RawCitation, RawReplace, check_id, check_names,
    check_provenance,
};
use crate::catalog::diag::Diagnostics;
use crate::catalog::turn::RawStep;
use crate::yaml::{Spanned, position};

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
    /// Actions it lets a player take (once a turn, in a step of the turn).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub actions: Vec<RawAction<R>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub incompatible: Vec<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub source: Vec<RawCitation>,
    /// Number field → the reason its number(s) had to be assumed.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub assumed: crate::catalog::common::Assumed,
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
            let data =
                lower_data(&e.from, owner, &v.set, (&v.replace, &v.steps, &v.actions), decl, lower_replace, diags);
            let hook = decl.variants.iter().position(|k| *k == v.id.value);
            // (a change that failed to lower has its own diagnostic)
            let declares_data =
                !v.set.is_empty() || !v.replace.is_empty() || !v.steps.is_empty() || !v.actions.is_empty();
            if hook.is_none() && !declares_data {
                diags.error(
                    f,
                    position(&v.id),
                    format!(
                        "variant `{}` is not one the engine implements ({}) and changes nothing as data; \
                         give it `set:`, `replace:`, `steps:` or `actions:`",
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
