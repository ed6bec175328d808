//! Layering a Red Dog Junction catalog: the base folder and a house-rules
//! overlay (see `catalog::overlay`) merged entry by entry, each entry with
//! the file it came from (`catalog::layers`). An overlay may replace whole
//! sections of `game.yaml` (every section but `game:`), add or override
//! cards, variants and interpretations, and declare documents and
//! languages of its own; `components.yaml` (commodities, locations, dice,
//! Super Deals) is the board, which a copy of the folder changes.

use super::catalog::FILES;
use super::schema::*;
use crate::catalog::GameSources;
use crate::catalog::common::{Entry, RawInterpretation, RawInterpretationsFile, RawVariant, RawVariantsFile, Source};
use crate::catalog::diag::Diagnostics;
use crate::catalog::layers::{List, Sections, layer_game, list};
use crate::catalog::overlay::{self, OverlayFile, OverlayHeader};
use crate::catalog::{SourceFile, folder::Folder};

/// The files an overlay may hold besides its header.
const OVERLAY_FILES: &[&str] = &["game.yaml", "cards.yaml", "variants.yaml", "interpretations.yaml"];

/// The parsed files of a base catalog folder.
pub(super) struct Raw<'a> {
    pub(super) game: (&'a SourceFile, GameFile),
    pub(super) components: (&'a SourceFile, ComponentsFile),
    pub(super) cards: (&'a SourceFile, CardsFile),
    pub(super) variants: (&'a SourceFile, RawVariantsFile<RawEffect>),
    pub(super) interpretations: (&'a SourceFile, RawInterpretationsFile<RawEffect>),
}

/// Parses every file of a base catalog folder; `None` when one failed.
pub(super) fn parse_all<'a>(src: &'a GameSources, diags: &mut Diagnostics) -> Option<Raw<'a>> {
    let folder = Folder { src, game: "Red Dog Junction", files: FILES };
    let game = folder.parse("game.yaml", diags);
    let components = folder.parse("components.yaml", diags);
    let cards = folder.parse("cards.yaml", diags);
    let variants = folder.parse("variants.yaml", diags);
    let interpretations = folder.parse("interpretations.yaml", diags);
    Some(Raw {
        game: game?,
        components: components?,
        cards: cards?,
        variants: variants?,
        interpretations: interpretations?,
    })
}

/// The parsed files of an overlay folder (each list file optional).
pub(super) struct RawOverlay<'a> {
    header: (&'a SourceFile, OverlayHeader),
    game: Option<(&'a SourceFile, OverlayGameFile)>,
    cards: Option<(&'a SourceFile, OverlayFile<RawCard>)>,
    variants: Option<(&'a SourceFile, OverlayFile<RawVariant<RawEffect>>)>,
    interpretations: Option<(&'a SourceFile, OverlayFile<RawInterpretation<RawEffect>>)>,
}

/// Parses an overlay folder; `None` when a file failed (its diagnostics given).
pub(super) fn parse_overlay<'a>(src: &'a GameSources, diags: &mut Diagnostics) -> Option<RawOverlay<'a>> {
    let allowed = overlay::Allowed {
        game: "Red Dog Junction",
        files: OVERLAY_FILES,
        board: "the commodities, locations, dice and Super Deals are the board: copy the whole catalog to \
                change them",
    };
    let mut o = overlay::OverlayFolder::open(src, FILES, &allowed, diags);
    let game = o.optional("game.yaml", diags);
    let cards = o.optional("cards.yaml", diags);
    let variants = o.optional("variants.yaml", diags);
    let interpretations = o.optional("interpretations.yaml", diags);
    Some(RawOverlay { header: o.header(diags)?, game, cards, variants, interpretations })
}

/// A catalog with its overlay applied.
pub(super) struct Layers<'a> {
    pub(super) game: GameFile,
    /// The file each section of `game` came from, and the overlay's header.
    pub(super) from: Sections<'a>,
    pub(super) components: Entry<'a, ComponentsFile>,
    pub(super) cards: List<'a, RawCard>,
    pub(super) variants: List<'a, RawVariant<RawEffect>>,
    pub(super) interpretations: List<'a, RawInterpretation<RawEffect>>,
}

/// The base files with the overlay's entries merged in.
pub(super) fn layer<'a>(raw: &'a Raw<'a>, over: Option<&'a RawOverlay<'a>>, diags: &mut Diagnostics) -> Layers<'a> {
    let (game, from) = layer_game((raw.game.0, &raw.game.1), over.map(|o| (&o.header, o.game.as_ref())), diags);
    Layers {
        game,
        from,
        components: Entry { from: Source::of(raw.components.0), raw: &raw.components.1 },
        cards: list("card", (raw.cards.0, &raw.cards.1.cards), over.and_then(|o| o.cards.as_ref()), diags),
        variants: list(
            "variant",
            (raw.variants.0, &raw.variants.1.variants),
            over.and_then(|o| o.variants.as_ref()),
            diags,
        ),
        interpretations: list(
            "interpretation",
            (raw.interpretations.0, &raw.interpretations.1.interpretations),
            over.and_then(|o| o.interpretations.as_ref()),
            diags,
        ),
    }
}
