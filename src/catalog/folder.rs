//! One game's catalog folder as its lowering reads it: each file parsed
//! into its raw shape (a missing file is named with the files the game
//! has), `game.yaml`'s `game:` section that every catalog writes alike,
//! ids looked up with a "did you mean", and the diagnostics given the
//! snippet of the file they point into. Every game's `catalog` reads its
//! folder through these, so the messages are the same for all games.
//!
//! ```
//! use rulecheck::catalog::diag::Diagnostics;
//! use rulecheck::catalog::folder::Folder;
//! use rulecheck::catalog::GameSources;
//!
//! let src = GameSources { name: "toy".into(), dir: "rules/toy".into(), ..Default::default() };
//! let folder = Folder { src: &src, game: "Toy", files: &["game.yaml"] };
//! let mut diags = Diagnostics::default();
//! assert!(folder.parse::<serde::de::IgnoredAny>("game.yaml", &mut diags).is_none());
//! assert!(diags.items[0].message.contains("a Toy catalog has game.yaml"));
//! ```

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::common::{Names, Numbers, RawCitation, RawDocument, ones};
use super::diag::{Diagnostic, Diagnostics};
use super::{GameSources, SourceFile};
use crate::yaml::{self, Spanned, position};

/// A game's catalog folder with what its messages call the game.
pub struct Folder<'a> {
    pub src: &'a GameSources,
    /// The game's name in messages: "a Dry Gulch catalog has …".
    pub game: &'a str,
    /// The files a catalog of the game holds.
    pub files: &'a [&'a str],
}

impl<'a> Folder<'a> {
    /// Parses file `name` into its raw shape; a missing file or a parse
    /// error is a diagnostic, and `None`.
    pub fn parse<T: serde::de::DeserializeOwned>(
        &self,
        name: &str,
        diags: &mut Diagnostics,
    ) -> Option<(&'a SourceFile, T)> {
        let Some(file) = self.src.files.get(name) else {
            diags.push(Diagnostic::new(
                &format!("{}/{name}", self.src.dir),
                1,
                1,
                format!("missing catalog file `{name}`; a {} catalog has {}", self.game, self.files.join(", ")),
            ));
            return None;
        };
        yaml::from_str::<T>(&file.path, &file.text).map(|v| (file, v)).map_err(|d| diags.push(d)).ok()
    }

    /// The path diagnostics show for file `name` ("" when the folder lacks it).
    pub fn path(&self, name: &str) -> &'a str {
        self.src.files.get(name).map_or("", |f| f.path.as_str())
    }
}

/// Declares the files of a game's catalog folder: `FILES` (their names,
/// in order) and a struct with each file's raw shape, with `parse` (each
/// file through [`Folder::parse`]: `None` when one failed), `to_files`
/// (each written back as YAML, for round trips) and `schemas` (each
/// file's JSON Schema, through [`schema`]).
#[macro_export]
macro_rules! catalog_files {
    ($(#[$m:meta])* $name:ident ($game:literal) { $($field:ident: $ty:ty = $file:literal),+ $(,)? }) => {
        /// The files of a catalog folder.
        pub const FILES: &[&str] = $name::FILES;

        $(#[$m])*
        #[derive(Debug, Clone, PartialEq, serde::Serialize)]
        pub struct $name {
            $(pub $field: $ty,)+
        }

        impl $name {
            /// The files of a catalog folder.
            pub const FILES: &'static [&'static str] = &[$($file),+];

            /// The folder as its lowering reads it.
            pub fn folder(src: &$crate::catalog::GameSources) -> $crate::catalog::folder::Folder<'_> {
                $crate::catalog::folder::Folder { src, game: $game, files: Self::FILES }
            }

            /// Parses every file of a folder; `None` when one failed.
            pub fn parse(
                src: &$crate::catalog::GameSources,
                diags: &mut $crate::catalog::diag::Diagnostics,
            ) -> Option<Self> {
                let folder = Self::folder(src);
                $(let $field = folder.parse::<$ty>($file, diags);)+
                Some(Self { $($field: $field?.1),+ })
            }

            /// The catalog written back as one YAML text per file.
            pub fn to_files(&self) -> Vec<(&'static str, String)> {
                vec![$(($file, $crate::yaml::to_string(&self.$field))),+]
            }

            /// Each file with the JSON Schema of its raw shape.
            pub fn schemas() -> Vec<(&'static str, schemars::Schema)> {
                vec![$(($file, $crate::catalog::folder::schema::<$ty>())),+]
            }
        }
    };
}

/// The JSON Schema of one file whose shape is `T`, draft-07 (the version
/// yaml-language-server reads): every schema of the crate is made by it.
pub fn schema<T: schemars::JsonSchema>() -> schemars::Schema {
    schemars::generate::SchemaSettings::draft07().into_generator().into_root_schema_for::<T>()
}

/// Every diagnostic, with the snippet of the file it points into (one of
/// the folders') unless it has one.
pub fn with_snippets<'a>(diags: Diagnostics, folders: impl IntoIterator<Item = &'a GameSources>) -> Vec<Diagnostic> {
    let files: Vec<&SourceFile> = folders.into_iter().flat_map(|f| f.files.values()).collect();
    diags
        .items
        .into_iter()
        .map(|d| match files.iter().find(|f| f.path == d.file) {
            Some(f) if d.snippet.is_none() => d.with_snippet_from(&f.text),
            _ => d,
        })
        .collect()
}

/// Looks up an id a file names; an unknown one is a diagnostic at it,
/// with the nearest known id.
pub fn lookup<T: Copy>(
    map: &BTreeMap<String, T>,
    what: &str,
    id: &Spanned<String>,
    file: &str,
    diags: &mut Diagnostics,
) -> Option<T> {
    if let Some(v) = map.get(&id.value) {
        return Some(*v);
    }
    let hint = did_you_mean(map.keys().map(String::as_str), &id.value);
    diags.error(file, position(id), format!("unknown {what} `{}`{hint}", id.value));
    None
}

/// `game.yaml`'s `game:` section, the same in every catalog: the id, the
/// names, the languages names are given in (in order of preference for
/// display), the documents citations may name (rulebooks, published
/// facts, errata, a house-rules sheet) and the player counts.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawGameSection {
    pub id: Spanned<String>,
    pub names: Names,
    pub languages: Vec<Spanned<String>>,
    pub documents: Vec<RawDocument>,
    pub min_players: Spanned<u32>,
    pub max_players: Spanned<u32>,
    /// The rules the engine's errors name (`dry-gulch/build.payment`),
    /// each with the places in the documents it cites: every rule the
    /// game's code refuses with, and no other.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<RawRule>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub source: Vec<RawCitation>,
    /// Number field → the reason its number(s) had to be assumed.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub assumed: crate::catalog::common::Assumed,
}

crate::provenance!(RawGameSection);

/// A rule the engine's errors name, by the id after the game's
/// (`build.payment` in `dry-gulch/build.payment`), and the places an
/// error under it cites, in the order they are shown.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawRule {
    pub id: Spanned<String>,
    pub source: Vec<RawCitation>,
}

impl RawGameSection {
    /// Its numbers, for `layers::Sections::check`.
    pub fn numbers(&self) -> Numbers<'_> {
        Numbers { what: "game", at: position(&self.id), of: self, fields: ones(&["min_players", "max_players"]) }
    }
}

/// An interpretation's `witness:`: a condition over states (the language
/// of `rulecheck find --until`) that holds where the reading matters, and
/// the seats to search with (the game's fewest when absent).
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawWitness {
    pub until: Spanned<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub players: Option<u32>,
}

/// A witness as loaded, with where its condition is written (its errors
/// are reported at their column there).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Witness {
    pub until: String,
    pub players: Option<u32>,
    #[serde(skip)]
    pub file: String,
    #[serde(skip)]
    pub line: u64,
    #[serde(skip)]
    pub column: u64,
}

impl RawWitness {
    pub fn lower(&self, file: &str) -> Witness {
        let (line, column) = position(&self.until);
        Witness { until: self.until.value.clone(), players: self.players, file: file.to_string(), line, column }
    }
}

/// "; did you mean `x`?" for the known name closest to a typo, or nothing.
pub fn did_you_mean<'a>(known: impl Iterator<Item = &'a str>, typo: &str) -> String {
    closest(known, typo).map(|c| format!("; did you mean `{c}`?")).unwrap_or_default()
}

/// The known id nearest to a typo (edit distance ≤ 3).
pub fn closest<'a>(known: impl Iterator<Item = &'a str>, typo: &str) -> Option<&'a str> {
    known.map(|k| (edit_distance(k, typo), k)).filter(|(d, _)| *d <= 3).min().map(|(_, k)| k)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            cur.push((prev[j] + usize::from(ca != *cb)).min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}
