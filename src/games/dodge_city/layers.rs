//! Layering a Dodge City catalog: the base folder and a house-rules
//! overlay (see `catalog::overlay`) merged entry by entry, each entry with
//! the file it came from (`catalog::layers`). An overlay may replace whole
//! sections of `game.yaml` (`setup`, `rules`, `round`), add or override
//! event cards and interpretations, and declare documents and languages of
//! its own; the deck and the buildings are the board, which a copy of the
//! folder changes.

use super::catalog::{FILES, RawCatalog};
use super::schema::*;
use crate::catalog::common::RawInterpretation;
use crate::catalog::diag::Diagnostics;
use crate::catalog::layers::{List, Sections, layer_game, list};
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

/// A catalog with its overlay applied.
pub(super) struct Layers<'a> {
    pub(super) game: GameFile,
    /// The file each section of `game` came from, and the overlay's header.
    pub(super) from: Sections<'a>,
    pub(super) events: List<'a, RawEvent>,
    pub(super) interpretations: List<'a, RawInterpretation<RawEffect>>,
}

/// The base files with the overlay's entries merged in.
pub(super) fn layer<'a>(
    src: &'a GameSources,
    raw: &'a RawCatalog,
    over: Option<&'a RawOverlay<'a>>,
    diags: &mut Diagnostics,
) -> Layers<'a> {
    let base = |name: &str| &src.files[name];
    let (game, from) = layer_game((base("game.yaml"), &raw.game), over.map(|o| (&o.header, o.game.as_ref())), diags);
    Layers {
        game,
        from,
        events: list("event", (base("events.yaml"), &raw.events.events), over.and_then(|o| o.events.as_ref()), diags),
        interpretations: list(
            "interpretation",
            (base("interpretations.yaml"), &raw.interpretations.interpretations),
            over.and_then(|o| o.interpretations.as_ref()),
            diags,
        ),
    }
}
