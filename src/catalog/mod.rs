//! Loading catalogs: reading folders (from disk or the copy bundled in the
//! binary) with the bad-input checks that come before YAML, and the pieces
//! every game's catalog shares. Each game lowers its own files (in
//! `games::<name>::catalog`) with the helpers here.

/// The largest number a catalog may declare where no tighter bound
/// applies (cards dealt, drawn or revealed at once, chips, influence,
/// rewards, the turn cap, a parameter a reading sets): far above any real
/// game's, and small enough that no loop over one runs long and no sum of
/// them over every seat and card kind overflows.
pub const MAX_NUMBER: u32 = 10_000;

/// The most seats a catalog may declare (the engine's `Seats` holds 64).
/// Dry Gulch's box seats six; 64 leaves room for a user's catalog while
/// bounding what validation loops over per player count (a billion would
/// exhaust memory, one diagnostic each).
pub const MAX_SEATS: u32 = 64;

/// `value` (of the field `what`, at `at` in `file`), or `max` when it is
/// larger, which is a diagnostic: "is `value`, more than `max`", then `why`.
pub fn at_most(
    file: &str,
    at: (u64, u64),
    what: &str,
    value: u32,
    max: u32,
    why: &str,
    diags: &mut Diagnostics,
) -> u32 {
    if value <= max {
        return value;
    }
    diags.error(file, at, format!("{what} is {value}, more than {max}{why}"));
    max
}

pub mod common;
pub mod diag;
pub mod folder;
pub mod layers;
pub mod overlay;
pub mod turn;

use std::collections::BTreeMap;
use std::path::Path;

use diag::{Diagnostic, Diagnostics};

use crate::yaml::MAX_FILE_BYTES;

/// One input file, read and checked to be UTF-8.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceFile {
    /// The path shown in diagnostics.
    pub path: String,
    pub text: String,
}

/// The files of one game's catalog folder, by file name.
#[derive(Debug, Clone, Default)]
pub struct GameSources {
    /// The folder name, which is the game id.
    pub name: String,
    /// The folder path shown in diagnostics.
    pub dir: String,
    pub files: BTreeMap<String, SourceFile>,
}

impl<'a> common::Source<'a> {
    /// The path and text of a file read, for diagnostics.
    pub fn of(f: &'a SourceFile) -> Self {
        common::Source { path: &f.path, text: &f.text }
    }
}

/// Reads one file with the checks that come before parsing: only a regular
/// file (after following symlinks: no directory, FIFO, socket or device,
/// which could block or never end), the size limit, UTF-8. The file is read
/// through a reader bounded at one byte over the limit, so the limit holds
/// even where the size on record is wrong (0 for `/proc` files) or the file
/// grows while it is read.
pub fn read_file(path: &Path) -> Result<SourceFile, Diagnostic> {
    use std::io::Read;
    let shown = path.display().to_string();
    let cannot = |e: std::io::Error| match e.kind() {
        std::io::ErrorKind::NotFound => Diagnostic::new(&shown, 1, 1, "does not exist"),
        _ => Diagnostic::new(&shown, 1, 1, format!("cannot read: {e}")),
    };
    let meta = std::fs::metadata(path).map_err(cannot)?;
    if meta.is_dir() {
        return Err(Diagnostic::new(&shown, 1, 1, "is a directory, but a YAML file is expected here"));
    }
    if !meta.is_file() {
        return Err(Diagnostic::new(
            &shown,
            1,
            1,
            "is not a regular file (a FIFO, socket or device); only regular files are read",
        ));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(too_big(&shown, meta.len()));
    }
    let file = std::fs::File::open(path).map_err(cannot)?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes).map_err(cannot)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(Diagnostic::new(
            &shown,
            1,
            1,
            format!("file holds more than {MAX_FILE_BYTES} bytes, the limit for one input file"),
        ));
    }
    decode(&shown, bytes)
}

fn too_big(shown: &str, bytes: u64) -> Diagnostic {
    Diagnostic::new(
        shown,
        1,
        1,
        format!("file is {bytes} bytes, over the {MAX_FILE_BYTES}-byte limit for one input file"),
    )
}

/// Checks that `bytes` are UTF-8 and within the size limit.
pub fn decode(shown: &str, bytes: Vec<u8>) -> Result<SourceFile, Diagnostic> {
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(too_big(shown, bytes.len() as u64));
    }
    match String::from_utf8(bytes) {
        Ok(text) => Ok(SourceFile { path: shown.to_string(), text }),
        Err(e) => {
            let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
            let line = good.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
            let line_start = good.iter().rposition(|&b| b == b'\n').map(|i| i + 1).unwrap_or(0);
            let column = String::from_utf8_lossy(&good[line_start..]).chars().count() as u64 + 1;
            Err(Diagnostic::new(
                shown,
                line,
                column,
                "the file is not valid UTF-8 (catalogs and scenarios are UTF-8 text)",
            )
            .with_snippet_from(&String::from_utf8_lossy(e.as_bytes())))
        }
    }
}

/// Reads a catalog root: every sub-folder is one game's catalog. A folder
/// that itself holds a `game.yaml` (or an overlay's `overlay.yaml`) is read
/// as a single game.
pub fn read_root(root: &Path) -> Result<Vec<GameSources>, Vec<Diagnostic>> {
    let shown = root.display().to_string();
    if !root.exists() {
        return Err(vec![Diagnostic::new(&shown, 1, 1, "does not exist; --rules takes a folder of game catalogs")]);
    }
    if !root.is_dir() {
        return Err(vec![Diagnostic::new(&shown, 1, 1, "is not a directory; --rules takes a folder of game catalogs")]);
    }
    if root.join("game.yaml").exists() || root.join(overlay::HEADER).exists() {
        return read_game(root).map(|g| vec![g]);
    }
    let mut entries: Vec<_> = std::fs::read_dir(root)
        .map_err(|e| vec![Diagnostic::new(&shown, 1, 1, format!("cannot list: {e}"))])?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    entries.sort();
    if entries.is_empty() {
        return Err(vec![Diagnostic::new(&shown, 1, 1, "holds no game catalog folders")]);
    }
    let mut games = Vec::new();
    let mut diags = Vec::new();
    for dir in entries {
        match read_game(&dir) {
            Ok(g) => games.push(g),
            Err(mut d) => diags.append(&mut d),
        }
    }
    if diags.is_empty() { Ok(games) } else { Err(diags) }
}

/// Reads the YAML files of one game folder.
pub fn read_game(dir: &Path) -> Result<GameSources, Vec<Diagnostic>> {
    let name = dir.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
    let mut g = GameSources { name, dir: dir.display().to_string(), files: BTreeMap::new() };
    let mut diags = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| vec![Diagnostic::new(&g.dir, 1, 1, format!("cannot list: {e}"))])?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .collect();
    entries.sort();
    for path in entries {
        let file_name = path.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
        if !file_name.ends_with(".yaml") {
            continue;
        }
        match read_file(&path) {
            Ok(f) => {
                g.files.insert(file_name, f);
            }
            Err(d) => diags.push(d),
        }
    }
    if diags.is_empty() { Ok(g) } else { Err(diags) }
}

/// Builds `GameSources` from (relative path, bytes) pairs such as the
/// bundled copy, grouping by the first path component.
pub fn from_pairs(prefix: &str, pairs: &[(&str, &[u8])]) -> Result<Vec<GameSources>, Vec<Diagnostic>> {
    let mut games: BTreeMap<String, GameSources> = BTreeMap::new();
    let mut diags = Vec::new();
    for (rel, bytes) in pairs {
        let Some((game, file)) = rel.split_once('/') else {
            continue;
        };
        if !file.ends_with(".yaml") || file.contains('/') {
            continue;
        }
        let shown = format!("{prefix}/{rel}");
        let entry = games.entry(game.to_string()).or_insert_with(|| GameSources {
            name: game.to_string(),
            dir: format!("{prefix}/{game}"),
            files: BTreeMap::new(),
        });
        match decode(&shown, bytes.to_vec()) {
            Ok(f) => {
                entry.files.insert(file.to_string(), f);
            }
            Err(d) => diags.push(d),
        }
    }
    if diags.is_empty() { Ok(games.into_values().collect()) } else { Err(diags) }
}
