//! Layering a Dry Gulch catalog: parsing the base folder and a house-rules
//! overlay (see `catalog::overlay`), merging them entry by entry with the
//! file each entry came from, and the declared documents and languages.

use std::collections::BTreeMap;

use super::catalog::{FILES, RawCatalog, folder};
use super::schema::*;
use crate::catalog::common::{self, Entry, RawCitation, Source};
use crate::catalog::diag::Diagnostics;
use crate::catalog::{GameSources, overlay};

/// Parses every file of a base catalog folder.
pub(super) fn parse_all(src: &GameSources, diags: &mut Diagnostics) -> Option<RawCatalog> {
    let f = folder(src);
    let game = f.parse("game.yaml", diags);
    let resources = f.parse("resources.yaml", diags);
    let buildings = f.parse("buildings.yaml", diags);
    let events = f.parse("events.yaml", diags);
    let board = f.parse("board.yaml", diags);
    let variants = f.parse("variants.yaml", diags);
    let interps = f.parse("interpretations.yaml", diags);
    Some(RawCatalog {
        game: game?.1,
        resources: resources?.1,
        buildings: buildings?.1,
        events: events?.1,
        board: board?.1,
        variants: variants?.1,
        interpretations: interps?.1,
    })
}

/// The parsed files of an overlay folder (each list file optional).
pub(super) struct RawOverlay {
    header: overlay::OverlayHeader,
    game: Option<OverlayGameFile>,
    resources: Option<overlay::OverlayFile<RawResource>>,
    buildings: Option<overlay::OverlayFile<RawBuilding>>,
    events: Option<overlay::OverlayFile<RawEvent>>,
    variants: Option<overlay::OverlayFile<common::RawVariant<RawEffect>>>,
    interpretations: Option<overlay::OverlayFile<common::RawInterpretation<RawEffect>>>,
}

pub(super) fn parse_overlay(src: &GameSources, diags: &mut Diagnostics) -> Option<RawOverlay> {
    let may_hold: Vec<&str> = FILES.iter().filter(|f| **f != "board.yaml").copied().collect();
    let allowed = overlay::Allowed {
        game: "Dry Gulch",
        files: &may_hold,
        board: "the board is changed only by a copy of the whole catalog",
    };
    let mut o = overlay::OverlayFolder::open(src, FILES, &allowed, diags);
    let game = o.optional("game.yaml", diags).map(|(_, t)| t);
    let resources = o.optional("resources.yaml", diags).map(|(_, t)| t);
    let buildings = o.optional("buildings.yaml", diags).map(|(_, t)| t);
    let events = o.optional("events.yaml", diags).map(|(_, t)| t);
    let variants = o.optional("variants.yaml", diags).map(|(_, t)| t);
    let interpretations = o.optional("interpretations.yaml", diags).map(|(_, t)| t);
    Some(RawOverlay { header: o.header(diags)?.1, game, resources, buildings, events, variants, interpretations })
}

/// An overlay list file with the file it was read from.
fn pair<'a, T>(
    from: Option<Source<'a>>,
    raw: Option<&'a overlay::OverlayFile<T>>,
) -> Option<(Source<'a>, &'a overlay::OverlayFile<T>)> {
    from.zip(raw)
}

/// A catalog with its overlay applied: every entry with the file it came from.
pub(super) struct Layers<'a> {
    pub(super) game: GameFile,
    /// The file each section of `game` came from (`game`, `setup`, `turn`,
    /// `components`, `limits`).
    pub(super) game_from: BTreeMap<&'static str, Source<'a>>,
    /// The overlay's header (the documents and languages it adds), with its file.
    pub(super) header: Option<(&'a str, &'a overlay::OverlaySection)>,
    pub(super) resources: Vec<Entry<'a, RawResource>>,
    pub(super) buildings: Vec<Entry<'a, RawBuilding>>,
    pub(super) events: Vec<Entry<'a, RawEvent>>,
    pub(super) board: Entry<'a, BoardFile>,
    pub(super) variants: Vec<Entry<'a, common::RawVariant<RawEffect>>>,
    pub(super) interpretations: Vec<Entry<'a, common::RawInterpretation<RawEffect>>>,
    /// The base files, for diagnostics about a whole list.
    pub(super) base: BasePaths<'a>,
}

pub(super) struct BasePaths<'a> {
    pub(super) resources: &'a str,
    pub(super) buildings: &'a str,
    pub(super) events: &'a str,
    pub(super) variants: &'a str,
    pub(super) interpretations: &'a str,
}

pub(super) fn layer<'a>(
    raw: &'a RawCatalog,
    base: &dyn Fn(&str) -> Source<'a>,
    over: Option<(&'a GameSources, &'a RawOverlay)>,
    diags: &mut Diagnostics,
) -> Layers<'a> {
    let ofile = |name: &str| over.and_then(|(o, _)| o.files.get(name)).map(|f| Source { path: &f.path, text: &f.text });
    let ov = over.map(|(_, r)| r);
    let mut game = raw.game.clone();
    let mut game_from: BTreeMap<&'static str, Source<'a>> =
        ["game", "setup", "turn", "components", "limits"].into_iter().map(|k| (k, base("game.yaml"))).collect();
    if let (Some(g), Some(from)) = (ov.and_then(|o| o.game.as_ref()), ofile("game.yaml")) {
        if let Some(x) = &g.setup {
            game.setup = x.clone();
            game_from.insert("setup", from);
        }
        if let Some(x) = &g.turn {
            game.turn = x.clone();
            game_from.insert("turn", from);
        }
        if let Some(x) = &g.components {
            game.components = x.clone();
            game_from.insert("components", from);
        }
        if let Some(x) = &g.limits {
            game.limits = x.clone();
            game_from.insert("limits", from);
        }
    }
    let header = ofile(overlay::HEADER).zip(ov).map(|(from, o)| (from.path, &o.header.overlay));
    if let Some((path, h)) = header {
        overlay::check_extends(path, h, &raw.game.game.id.value, diags);
    }
    Layers {
        game,
        game_from,
        header,
        resources: overlay::merge(
            "resource",
            (base("resources.yaml"), &raw.resources.resources),
            pair(ofile("resources.yaml"), ov.and_then(|o| o.resources.as_ref())),
            diags,
        ),
        buildings: overlay::merge(
            "building",
            (base("buildings.yaml"), &raw.buildings.buildings),
            pair(ofile("buildings.yaml"), ov.and_then(|o| o.buildings.as_ref())),
            diags,
        ),
        events: overlay::merge(
            "event",
            (base("events.yaml"), &raw.events.events),
            pair(ofile("events.yaml"), ov.and_then(|o| o.events.as_ref())),
            diags,
        ),
        board: Entry { from: base("board.yaml"), raw: &raw.board },
        variants: overlay::merge(
            "variant",
            (base("variants.yaml"), &raw.variants.variants),
            pair(ofile("variants.yaml"), ov.and_then(|o| o.variants.as_ref())),
            diags,
        ),
        interpretations: overlay::merge(
            "interpretation",
            (base("interpretations.yaml"), &raw.interpretations.interpretations),
            pair(ofile("interpretations.yaml"), ov.and_then(|o| o.interpretations.as_ref())),
            diags,
        ),
        base: BasePaths {
            resources: base("resources.yaml").path,
            buildings: base("buildings.yaml").path,
            events: base("events.yaml").path,
            variants: base("variants.yaml").path,
            interpretations: base("interpretations.yaml").path,
        },
    }
}

/// Declared documents and languages of the base catalog and the overlay.
pub(super) fn lower_documents(lay: &Layers<'_>, diags: &mut Diagnostics) -> (Vec<common::Document>, Vec<String>) {
    let g = &lay.game.game;
    let file = lay.game_from["game"].path;
    let (docs, langs) = overlay::documents(file, (&g.documents, &g.languages), lay.header, diags);
    if langs.is_empty() {
        diags.error(file, (1, 1), "the catalog declares no `languages:`");
    }
    (docs, langs)
}

/// Every citation of the layered catalog, with its file.
pub(super) fn citations<'a>(lay: &'a Layers<'a>) -> Vec<(&'a str, &'a RawCitation)> {
    let mut out: Vec<(&str, &RawCitation)> = Vec::new();
    let g = &lay.game;
    for (section, cites) in [
        ("game", &g.game.source),
        ("setup", &g.setup.source),
        ("turn", &g.turn.source),
        ("components", &g.components.source),
        ("limits", &g.limits.source),
    ] {
        out.extend(cites.iter().map(|c| (lay.game_from[section].path, c)));
    }
    out.extend(lay.resources.iter().flat_map(|e| e.raw.source.iter().map(|c| (e.from.path, c))));
    out.extend(lay.buildings.iter().flat_map(|e| e.raw.source.iter().map(|c| (e.from.path, c))));
    out.extend(lay.events.iter().flat_map(|e| e.raw.source.iter().map(|c| (e.from.path, c))));
    out.extend(lay.board.raw.board.source.iter().map(|c| (lay.board.from.path, c)));
    out.extend(lay.variants.iter().flat_map(|e| e.raw.source.iter().map(|c| (e.from.path, c))));
    out.extend(lay.interpretations.iter().flat_map(|e| e.raw.citations.iter().map(|c| (e.from.path, c))));
    out
}
