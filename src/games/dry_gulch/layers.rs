//! Layering a Dry Gulch catalog: parsing the base folder and a house-rules
//! overlay (see `catalog::overlay`) and merging them entry by entry with
//! the file each entry came from (`catalog::layers`), and the declared
//! documents and languages.

use super::catalog::{FILES, RawCatalog};
use super::schema::*;
use crate::catalog::common::{self, Entry, RawCitation, Source, cites};
use crate::catalog::diag::Diagnostics;
use crate::catalog::layers::{List, Sections, layer_game, list};
use crate::catalog::overlay::{self, OverlayFile, OverlayHeader};
use crate::catalog::{GameSources, SourceFile};

/// An overlay list file, with the file it was read from.
type Over<'a, T> = Option<(&'a SourceFile, OverlayFile<T>)>;

/// The parsed files of an overlay folder (each list file optional).
pub(super) struct RawOverlay<'a> {
    header: (&'a SourceFile, OverlayHeader),
    game: Option<(&'a SourceFile, OverlayGameFile)>,
    resources: Over<'a, RawResource>,
    buildings: Over<'a, RawBuilding>,
    events: Over<'a, RawEvent>,
    variants: Over<'a, common::RawVariant<RawEffect>>,
    interpretations: Over<'a, common::RawInterpretation<RawEffect>>,
}

/// The files an overlay may hold besides its header: all but the board.
const OVERLAY_FILES: &[&str] =
    &["game.yaml", "resources.yaml", "buildings.yaml", "events.yaml", "variants.yaml", "interpretations.yaml"];

/// Parses an overlay folder; `None` when a file failed (its diagnostics given).
pub(super) fn parse_overlay<'a>(src: &'a GameSources, diags: &mut Diagnostics) -> Option<RawOverlay<'a>> {
    let allowed = overlay::Allowed {
        game: "Dry Gulch",
        files: OVERLAY_FILES,
        board: "the board is changed only by a copy of the whole catalog",
    };
    let mut o = overlay::OverlayFolder::open(src, FILES, &allowed, diags);
    let game = o.optional("game.yaml", diags);
    let resources = o.optional("resources.yaml", diags);
    let buildings = o.optional("buildings.yaml", diags);
    let events = o.optional("events.yaml", diags);
    let variants = o.optional("variants.yaml", diags);
    let interpretations = o.optional("interpretations.yaml", diags);
    Some(RawOverlay { header: o.header(diags)?, game, resources, buildings, events, variants, interpretations })
}

/// A catalog with its overlay applied: every entry with the file it came from.
pub(super) struct Layers<'a> {
    pub(super) game: GameFile,
    /// The file each section of `game` came from (`game`, `setup`, `turn`,
    /// `components`, `limits`), and the overlay's header.
    pub(super) from: Sections<'a>,
    pub(super) resources: List<'a, RawResource>,
    pub(super) buildings: List<'a, RawBuilding>,
    pub(super) events: List<'a, RawEvent>,
    pub(super) board: Entry<'a, BoardFile>,
    pub(super) variants: List<'a, common::RawVariant<RawEffect>>,
    pub(super) interpretations: List<'a, common::RawInterpretation<RawEffect>>,
}

pub(super) fn layer<'a>(
    raw: &'a RawCatalog,
    src: &'a GameSources,
    over: Option<&'a RawOverlay<'a>>,
    diags: &mut Diagnostics,
) -> Layers<'a> {
    let base = |name: &str| &src.files[name];
    let game = (base("game.yaml"), &raw.game);
    let (game, from) = layer_game(game, over.map(|o| (&o.header, o.game.as_ref())), diags);
    Layers {
        game,
        from,
        resources: list(
            "resource",
            (base("resources.yaml"), &raw.resources.resources),
            over.and_then(|o| o.resources.as_ref()),
            diags,
        ),
        buildings: list(
            "building",
            (base("buildings.yaml"), &raw.buildings.buildings),
            over.and_then(|o| o.buildings.as_ref()),
            diags,
        ),
        events: list("event", (base("events.yaml"), &raw.events.events), over.and_then(|o| o.events.as_ref()), diags),
        board: Entry { from: Source::of(base("board.yaml")), raw: &raw.board },
        variants: list(
            "variant",
            (base("variants.yaml"), &raw.variants.variants),
            over.and_then(|o| o.variants.as_ref()),
            diags,
        ),
        interpretations: list(
            "interpretation",
            (base("interpretations.yaml"), &raw.interpretations.interpretations),
            over.and_then(|o| o.interpretations.as_ref()),
            diags,
        ),
    }
}

/// Every citation of the layered catalog, with its file.
pub(super) fn citations<'a>(lay: &'a Layers<'a>, sections: &[common::Numbers<'a>]) -> Vec<(&'a str, &'a RawCitation)> {
    let mut out = lay.from.citations(sections);
    out.extend(cites(&lay.resources).chain(cites(&lay.buildings)).chain(cites(&lay.events)));
    out.extend(lay.board.raw.board.source.iter().map(|c| (lay.board.from.path, c)));
    out.extend(cites(&lay.variants).chain(cites(&lay.interpretations)));
    out
}
