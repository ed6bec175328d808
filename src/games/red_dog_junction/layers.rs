//! Layering a Red Dog Junction catalog: the base folder and a house-rules
//! overlay (see `catalog::overlay`) merged entry by entry, each entry with
//! the file it came from. An overlay may replace whole sections of
//! `game.yaml` (every section but `game:`), add or override cards,
//! variants and interpretations, and declare documents and languages of
//! its own; `components.yaml` (commodities, locations, dice, Super Deals)
//! is the board, which a copy of the folder changes.

use std::collections::BTreeMap;

use super::catalog::FILES;
use super::schema::*;
use crate::catalog::GameSources;
use crate::catalog::common::{Entry, RawInterpretation, RawVariant, Source};
use crate::catalog::diag::Diagnostics;
use crate::catalog::overlay::{self, OverlayFile, OverlayHeader};
use crate::catalog::{SourceFile, folder::Folder};

/// The files an overlay may hold besides its header.
const OVERLAY_FILES: &[&str] = &["game.yaml", "cards.yaml", "variants.yaml", "interpretations.yaml"];

/// The sections of `game.yaml`, each with the file it came from.
pub(super) const SECTIONS: &[&str] = &["game", "setup", "turn", "ship", "crew", "end", "limits", "solo", "drafts"];

/// The parsed files of a base catalog folder.
pub(super) struct Raw<'a> {
    pub(super) game: (&'a SourceFile, GameFile),
    pub(super) components: (&'a SourceFile, ComponentsFile),
    pub(super) cards: (&'a SourceFile, CardsFile),
    pub(super) variants: (&'a SourceFile, crate::catalog::common::RawVariantsFile<RawEffect>),
    pub(super) interpretations: (&'a SourceFile, crate::catalog::common::RawInterpretationsFile<RawEffect>),
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
    /// The file each section of `game` came from (see [`SECTIONS`]).
    pub(super) from: BTreeMap<&'static str, Source<'a>>,
    pub(super) components: Entry<'a, ComponentsFile>,
    pub(super) cards: Vec<Entry<'a, RawCard>>,
    pub(super) variants: Vec<Entry<'a, RawVariant<RawEffect>>>,
    pub(super) interpretations: Vec<Entry<'a, RawInterpretation<RawEffect>>>,
    /// The base files of the lists, for diagnostics about a whole list.
    pub(super) variants_file: &'a str,
    pub(super) interpretations_file: &'a str,
    /// The overlay's header (the documents and languages it adds), with its file.
    pub(super) header: Option<(&'a str, &'a overlay::OverlaySection)>,
}

impl Layers<'_> {
    /// The file section `name` of `game.yaml` came from.
    pub(super) fn at(&self, name: &str) -> &str {
        self.from.get(name).map_or("", |s| s.path)
    }
}

/// Replaces `slot` with the overlay's section, if it has one.
fn take<'a, T: Clone>(
    slot: &mut T,
    with: Option<&T>,
    name: &'static str,
    file: Source<'a>,
    from: &mut BTreeMap<&'static str, Source<'a>>,
) {
    if let Some(x) = with {
        *slot = x.clone();
        from.insert(name, file);
    }
}

/// The base files with the overlay's entries merged in.
pub(super) fn layer<'a>(raw: &'a Raw<'a>, over: Option<&'a RawOverlay<'a>>, diags: &mut Diagnostics) -> Layers<'a> {
    let base = Source::of(raw.game.0);
    let mut game = raw.game.1.clone();
    let mut from: BTreeMap<&'static str, Source<'a>> = SECTIONS.iter().map(|s| (*s, base)).collect();
    if let Some((f, g)) = over.and_then(|o| o.game.as_ref()) {
        let f = Source::of(f);
        take(&mut game.setup, g.setup.as_ref(), "setup", f, &mut from);
        take(&mut game.turn, g.turn.as_ref(), "turn", f, &mut from);
        take(&mut game.ship, g.ship.as_ref(), "ship", f, &mut from);
        take(&mut game.crew, g.crew.as_ref(), "crew", f, &mut from);
        take(&mut game.end, g.end.as_ref(), "end", f, &mut from);
        take(&mut game.limits, g.limits.as_ref(), "limits", f, &mut from);
        take(&mut game.solo, g.solo.as_ref(), "solo", f, &mut from);
        take(&mut game.drafts, g.drafts.as_ref(), "drafts", f, &mut from);
    }
    let header = over.map(|o| (o.header.0.path.as_str(), &o.header.1.overlay));
    if let Some((f, h)) = header {
        overlay::check_extends(f, h, &raw.game.1.game.id.value, diags);
    }
    Layers {
        game,
        from,
        components: Entry { from: Source::of(raw.components.0), raw: &raw.components.1 },
        cards: overlay::merge(
            "card",
            (Source::of(raw.cards.0), &raw.cards.1.cards),
            overlay::list(over.and_then(|o| o.cards.as_ref())),
            diags,
        ),
        variants: overlay::merge(
            "variant",
            (Source::of(raw.variants.0), &raw.variants.1.variants),
            overlay::list(over.and_then(|o| o.variants.as_ref())),
            diags,
        ),
        interpretations: overlay::merge(
            "interpretation",
            (Source::of(raw.interpretations.0), &raw.interpretations.1.interpretations),
            overlay::list(over.and_then(|o| o.interpretations.as_ref())),
            diags,
        ),
        variants_file: &raw.variants.0.path,
        interpretations_file: &raw.interpretations.0.path,
        header,
    }
}
