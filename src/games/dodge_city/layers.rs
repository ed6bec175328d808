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
use crate::catalog::overlay::{self, OverlayFile, OverlayHeader};
use crate::catalog::{GameSources, SourceFile};

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
    let allowed = overlay::Allowed {
        game: "Dodge City",
        files: OVERLAY_FILES,
        board: "the deck and the buildings are the board: copy the whole catalog to change them",
    };
    let mut o = overlay::OverlayFolder::open(src, FILES, &allowed, diags);
    let game = o.optional("game.yaml", diags);
    let events = o.optional("events.yaml", diags);
    let interpretations = o.optional("interpretations.yaml", diags);
    Some(RawOverlay { header: o.header(diags)?, game, events, interpretations })
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

/// The base files with the overlay's entries merged in.
pub(super) fn layer<'a>(
    game: (&'a SourceFile, &'a GameFile),
    events: (&'a SourceFile, &'a EventsFile),
    interps: (&'a SourceFile, &'a InterpretationsFile),
    over: Option<&'a RawOverlay<'a>>,
    diags: &mut Diagnostics,
) -> Layers<'a> {
    let base = Source::of(game.0);
    let mut merged = game.1.clone();
    let mut from = GameFrom { game: base, setup: base, rules: base, round: base };
    if let Some((f, g)) = over.and_then(|o| o.game.as_ref()) {
        if let Some(x) = &g.setup {
            merged.setup = x.clone();
            from.setup = Source::of(f);
        }
        if let Some(x) = &g.rules {
            merged.rules = x.clone();
            from.rules = Source::of(f);
        }
        if let Some(x) = &g.round {
            merged.round = x.clone();
            from.round = Source::of(f);
        }
    }
    let header = over.map(|o| (Source::of(o.header.0), &o.header.1.overlay));
    if let Some((f, h)) = header {
        overlay::check_extends(f.path, h, &game.1.game.id.value, diags);
    }
    Layers {
        game: merged,
        from,
        events: overlay::merge(
            "event",
            (Source::of(events.0), &events.1.events),
            overlay::list(over.and_then(|o| o.events.as_ref())),
            diags,
        ),
        events_file: Source::of(events.0),
        interpretations: overlay::merge(
            "interpretation",
            (Source::of(interps.0), &interps.1.interpretations),
            overlay::list(over.and_then(|o| o.interpretations.as_ref())),
            diags,
        ),
        interpretations_file: Source::of(interps.0),
        header,
    }
}

impl Layers<'_> {
    /// The overlay's header (the documents and languages it adds), with its file.
    pub(super) fn added(&self) -> Option<(&str, &overlay::OverlaySection)> {
        self.header.map(|(f, h)| (f.path, h))
    }
}
