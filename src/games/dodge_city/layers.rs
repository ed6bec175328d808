//! Layering a Dodge City catalog: the base folder and a house-rules
//! overlay (see `catalog::overlay`) merged entry by entry, each entry with
//! the file it came from. An overlay may replace whole sections of
//! `game.yaml` (`setup`, `rules`, `round`), add or override event cards and
//! interpretations, and declare documents and languages of its own; the
//! deck and the buildings are the board, which a copy of the folder
//! changes.

use super::catalog::FILES;
use super::schema::*;
use crate::catalog::common::{Entry, RawInterpretation, Source};
use crate::catalog::diag::Diagnostics;
use crate::catalog::folder::Folder;
use crate::catalog::overlay::{self, OverlayFile, OverlayHeader};
use crate::catalog::{GameSources, SourceFile};
use crate::yaml::position;

/// The files an overlay may hold besides its header.
const OVERLAY_FILES: &[&str] = &["game.yaml", "events.yaml", "interpretations.yaml"];

/// The parsed files of an overlay folder (each list file optional).
pub(super) struct RawOverlay<'a> {
    header: (&'a SourceFile, OverlayHeader),
    game: Option<(&'a SourceFile, OverlayGameFile)>,
    events: Option<(&'a SourceFile, OverlayFile<RawEvent>)>,
    interpretations: Option<(&'a SourceFile, OverlayFile<RawInterpretation<RawEffect>>)>,
}

/// Parses an overlay folder; `None` when a file failed (its diagnostics given).
pub(super) fn parse_overlay<'a>(src: &'a GameSources, diags: &mut Diagnostics) -> Option<RawOverlay<'a>> {
    for (name, f) in &src.files {
        if name == overlay::HEADER || OVERLAY_FILES.contains(&name.as_str()) {
            continue;
        }
        let why = if FILES.contains(&name.as_str()) {
            "the deck and the buildings are the board: copy the whole catalog to change them".to_string()
        } else {
            format!("a Dodge City overlay may hold {} and any of {}", overlay::HEADER, OVERLAY_FILES.join(", "))
        };
        diags.error(&f.path, (1, 1), format!("`{name}` is not a file a Dodge City overlay can hold; {why}"));
    }
    let folder = Folder { src, game: "Dodge City overlay", files: &[overlay::HEADER] };
    let mut failed = false;
    let game = optional(&folder, "game.yaml", &mut failed, diags);
    let events = optional(&folder, "events.yaml", &mut failed, diags);
    let interpretations = optional(&folder, "interpretations.yaml", &mut failed, diags);
    let header = folder.parse(overlay::HEADER, diags);
    if failed {
        return None;
    }
    Some(RawOverlay { header: header?, game, events, interpretations })
}

/// An optional overlay file, parsed if present (`failed` when it does not parse).
fn optional<'a, T: serde::de::DeserializeOwned>(
    folder: &Folder<'a>,
    name: &str,
    failed: &mut bool,
    diags: &mut Diagnostics,
) -> Option<(&'a SourceFile, T)> {
    if !folder.src.files.contains_key(name) {
        return None;
    }
    let parsed = folder.parse(name, diags);
    *failed |= parsed.is_none();
    parsed
}

/// Where each section of the layered `game.yaml` came from.
pub(super) struct GameFrom<'a> {
    pub(super) game: Source<'a>,
    pub(super) setup: Source<'a>,
    pub(super) rules: Source<'a>,
    pub(super) round: Source<'a>,
}

/// A catalog with its overlay applied.
pub(super) struct Layers<'a> {
    pub(super) game: GameFile,
    pub(super) from: GameFrom<'a>,
    pub(super) events: Vec<Entry<'a, RawEvent>>,
    pub(super) events_file: Source<'a>,
    pub(super) interpretations: Vec<Entry<'a, RawInterpretation<RawEffect>>>,
    pub(super) interpretations_file: Source<'a>,
    /// The overlay's header, with the documents and languages it adds.
    pub(super) header: Option<(Source<'a>, &'a overlay::OverlaySection)>,
}

fn source(f: &SourceFile) -> Source<'_> {
    Source { path: &f.path, text: &f.text }
}

/// The base files with the overlay's entries merged in.
pub(super) fn layer<'a>(
    game: (&'a SourceFile, &'a GameFile),
    events: (&'a SourceFile, &'a EventsFile),
    interps: (&'a SourceFile, &'a InterpretationsFile),
    over: Option<&'a RawOverlay<'a>>,
    diags: &mut Diagnostics,
) -> Layers<'a> {
    let base = source(game.0);
    let mut merged = game.1.clone();
    let mut from = GameFrom { game: base, setup: base, rules: base, round: base };
    if let Some((f, g)) = over.and_then(|o| o.game.as_ref()) {
        if let Some(x) = &g.setup {
            merged.setup = x.clone();
            from.setup = source(f);
        }
        if let Some(x) = &g.rules {
            merged.rules = x.clone();
            from.rules = source(f);
        }
        if let Some(x) = &g.round {
            merged.round = x.clone();
            from.round = source(f);
        }
    }
    let header = over.map(|o| (source(o.header.0), &o.header.1.overlay));
    if let Some((f, h)) = header
        && h.extends.value != game.1.game.id.value
    {
        diags.error(
            f.path,
            position(&h.extends),
            format!("the overlay extends `{}`, but is layered onto `{}`", h.extends.value, game.1.game.id.value),
        );
    }
    Layers {
        game: merged,
        from,
        events: overlay::merge(
            "event",
            (source(events.0), &events.1.events),
            list(over.and_then(|o| o.events.as_ref())),
            diags,
        ),
        events_file: source(events.0),
        interpretations: overlay::merge(
            "interpretation",
            (source(interps.0), &interps.1.interpretations),
            list(over.and_then(|o| o.interpretations.as_ref())),
            diags,
        ),
        interpretations_file: source(interps.0),
        header,
    }
}

/// An overlay list file with the file it was read from.
fn list<'a, T>(o: Option<&'a (&'a SourceFile, OverlayFile<T>)>) -> Option<(Source<'a>, &'a OverlayFile<T>)> {
    o.map(|(f, x)| (source(f), x))
}

impl Layers<'_> {
    /// The overlay's header (the documents and languages it adds), with its file.
    pub(super) fn added(&self) -> Option<(&str, &overlay::OverlaySection)> {
        self.header.map(|(f, h)| (f.path, h))
    }
}
