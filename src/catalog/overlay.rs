//! House rules as an overlay: a folder of its own that layers onto a
//! bundled catalog instead of forking it.
//!
//! An overlay folder holds `overlay.yaml` (which catalog it extends, the
//! documents it adds — a house-rules sheet — and the languages it adds) and,
//! for any list file of the base catalog, a file of the same name with
//! `add:` (new entries, whose ids the base must not have) and `override:`
//! (entries that replace the base entry of the same id, which must exist).
//! Every entry keeps the file it came from, so a diagnostic names the
//! overlay file and line, not the base.
//!
//! ```yaml
//! # my-house-rules/overlay.yaml
//! overlay:
//!   extends: dry-gulch
//!   documents:
//!     - {id: house-rules, title: "Our table's house rules", language: en}
//! ```

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::common::{self, Document, Entry, RawDocument, RawInterpretation, RawVariant, Source, did_you_mean};
use super::diag::Diagnostics;
use super::folder::{Folder, RawRule};
use super::{GameSources, SourceFile};
use crate::yaml::{Spanned, position};

/// The file that marks a folder as an overlay.
pub const HEADER: &str = "overlay.yaml";

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct OverlayHeader {
    pub overlay: OverlaySection,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct OverlaySection {
    /// The id of the catalog it layers onto (a bundled game).
    pub extends: Spanned<String>,
    /// What these house rules are, in one line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// Documents its entries may cite, besides the base catalog's.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub documents: Vec<RawDocument>,
    /// Languages its names may use, besides the base catalog's.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub languages: Vec<Spanned<String>>,
    /// Rules of the base (`game.rules`) whose errors cite other places
    /// under these house rules (the sheet that changes the rule), each
    /// replacing the base's entry for the same rule.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<RawRule>,
}

/// One list file of an overlay.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, bound(deserialize = "T: Deserialize<'de>"))]
pub struct OverlayFile<T> {
    /// New entries.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub add: Vec<T>,
    /// Entries that replace the base entry with the same id.
    #[serde(default, rename = "override", skip_serializing_if = "Vec::is_empty")]
    pub overrides: Vec<T>,
}

/// A catalog record with an id, so overlays can add and override it.
pub trait HasId {
    fn id(&self) -> &Spanned<String>;
}

impl<R> HasId for RawVariant<R> {
    fn id(&self) -> &Spanned<String> {
        &self.id
    }
}

impl<R> HasId for RawInterpretation<R> {
    fn id(&self) -> &Spanned<String> {
        &self.id
    }
}

/// The entries of one list (`kind`, e.g. "event") after layering `overlay`
/// onto `base`: duplicates within a file, an `add` of an id the base has,
/// and an `override` of an id it lacks are diagnostics.
pub fn merge<'a, T: HasId>(
    kind: &str,
    base: (Source<'a>, &'a [T]),
    overlay: Option<(Source<'a>, &'a OverlayFile<T>)>,
    diags: &mut Diagnostics,
) -> Vec<Entry<'a, T>> {
    let mut out: Vec<Entry<'a, T>> = Vec::new();
    let mut seen = BTreeSet::new();
    for raw in base.1 {
        if !seen.insert(raw.id().value.as_str()) {
            // reported, and kept so that totals do not cascade into more errors
            diags.error(base.0.path, position(raw.id()), format!("duplicate {kind} id `{}`", raw.id().value));
        }
        out.push(Entry { from: base.0, raw });
    }
    let Some((from, file)) = overlay else {
        return out;
    };
    let mut overridden = BTreeSet::new();
    for raw in &file.overrides {
        let id = &raw.id().value;
        match out.iter().position(|e| e.raw.id().value == *id) {
            Some(_) if !overridden.insert(id.as_str()) => {
                diags.error(from.path, position(raw.id()), format!("{kind} `{id}` is overridden twice"));
            }
            Some(k) => out[k] = Entry { from, raw },
            None => {
                let hint = did_you_mean(out.iter().map(|e| e.raw.id().value.as_str()), id);
                diags.error(
                    from.path,
                    position(raw.id()),
                    format!(
                        "`override:` names {kind} `{id}`, which the base catalog does not have{hint}; \
                         put a new {kind} under `add:`"
                    ),
                );
            }
        }
    }
    for raw in &file.add {
        let id = &raw.id().value;
        if out.iter().any(|e| e.raw.id().value == *id) {
            diags.error(
                from.path,
                position(raw.id()),
                format!("`add:` names {kind} `{id}`, which already exists; to change it, put it under `override:`"),
            );
            continue;
        }
        out.push(Entry { from, raw });
    }
    out
}

/// What a game lets an overlay folder hold.
pub struct Allowed<'a> {
    /// The game's name in messages ("a Dodge City overlay may hold …").
    pub game: &'a str,
    /// The catalog files an overlay may hold besides [`HEADER`].
    pub files: &'a [&'a str],
    /// Why the game's other catalog files are not among them (they are
    /// the board, which only a copy of the whole catalog changes).
    pub board: &'a str,
}

/// An overlay folder being read: its files checked against what the game
/// allows, its header and its optional list files parsed. Every game's
/// layering reads its overlay through this, so the messages are alike.
pub struct OverlayFolder<'a> {
    folder: Folder<'a>,
    /// Whether a file present failed to parse.
    failed: bool,
}

impl<'a> OverlayFolder<'a> {
    /// Opens `src` as an overlay of a game whose catalog has `all_files`;
    /// a file it may not hold is a diagnostic at the file.
    pub fn open(src: &'a GameSources, all_files: &[&str], allowed: &Allowed<'a>, diags: &mut Diagnostics) -> Self {
        for (name, f) in &src.files {
            if name == HEADER || allowed.files.contains(&name.as_str()) {
                continue;
            }
            let why = if all_files.contains(&name.as_str()) {
                allowed.board.to_string()
            } else {
                format!("a {} overlay may hold {HEADER} and any of {}", allowed.game, allowed.files.join(", "))
            };
            diags.error(&f.path, (1, 1), format!("`{name}` is not a file a {} overlay can hold; {why}", allowed.game));
        }
        OverlayFolder { folder: Folder { src, game: allowed.game, files: &[HEADER] }, failed: false }
    }

    /// An optional file, parsed if present (a parse error is a diagnostic
    /// and marks the folder failed).
    pub fn optional<T: serde::de::DeserializeOwned>(
        &mut self,
        name: &str,
        diags: &mut Diagnostics,
    ) -> Option<(&'a SourceFile, T)> {
        if !self.folder.src.files.contains_key(name) {
            return None;
        }
        let parsed = self.folder.parse(name, diags);
        self.failed |= parsed.is_none();
        parsed
    }

    /// The header, parsed; `None` when it or any optional file failed.
    pub fn header(self, diags: &mut Diagnostics) -> Option<(&'a SourceFile, OverlayHeader)> {
        let header = self.folder.parse(HEADER, diags);
        if self.failed { None } else { header }
    }
}

/// The overlay's `extends:` must name the catalog it is layered onto.
pub fn check_extends(file: &str, header: &OverlaySection, base_id: &str, diags: &mut Diagnostics) {
    if header.extends.value != base_id {
        diags.error(
            file,
            position(&header.extends),
            format!("the overlay extends `{}`, but is layered onto `{base_id}`", header.extends.value),
        );
    }
}

/// The documents and languages of a base catalog's `game:` section
/// (in `base_file`) and of an overlay's header: the overlay's documents
/// may be in any language of either, and may not reuse a base document id.
pub fn documents(
    base_file: &str,
    base: (&[RawDocument], &[Spanned<String>]),
    overlay: Option<(&str, &OverlaySection)>,
    diags: &mut Diagnostics,
) -> (Vec<Document>, Vec<String>) {
    let (mut documents, mut languages) = common::lower_documents(base_file, base.0, base.1, diags);
    if let Some((file, header)) = overlay {
        let (docs, langs) = (&header.documents, &header.languages);
        let all: Vec<Spanned<String>> = base.1.iter().chain(langs).cloned().collect();
        let (more, _) = common::lower_documents(file, docs, &all, diags);
        for d in docs.iter().filter(|d| documents.iter().any(|x| x.id == d.id.value)) {
            diags.error(file, position(&d.id), format!("duplicate document id `{}`", d.id.value));
        }
        documents.extend(more);
        languages.extend(langs.iter().map(|l| l.value.clone()));
    }
    (documents, languages)
}
