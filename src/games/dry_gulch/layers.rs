//! Layering a Dry Gulch catalog: parsing the base folder and a house-rules
//! overlay (see `catalog::overlay`), merging them entry by entry with the
//! file each entry came from, and the declared documents and languages.

use std::collections::BTreeMap;

use super::catalog::{FILES, RawCatalog, folder};
use super::schema::*;
use crate::catalog::common::{self, Entry, RawCitation, Source, check_unique};
use crate::catalog::diag::Diagnostics;
use crate::catalog::{GameSources, SourceFile, overlay};
use crate::yaml::{Spanned, position};

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
    for (name, f) in &src.files {
        if name != overlay::HEADER && !FILES.contains(&name.as_str()) {
            diags.error(
                &f.path,
                (1, 1),
                format!(
                    "`{name}` is not a file a Dry Gulch overlay can hold; it may hold {}, and any of {}",
                    overlay::HEADER,
                    FILES.iter().filter(|f| **f != "board.yaml").copied().collect::<Vec<_>>().join(", ")
                ),
            );
        }
    }
    if let Some(f) = src.files.get("board.yaml") {
        diags.error(&f.path, (1, 1), "an overlay cannot change the board; copy the whole catalog to change it");
    }
    let header = folder(src).parse(overlay::HEADER, diags);
    let game = optional(src, "game.yaml", diags);
    let resources = optional(src, "resources.yaml", diags);
    let buildings = optional(src, "buildings.yaml", diags);
    let events = optional(src, "events.yaml", diags);
    let variants = optional(src, "variants.yaml", diags);
    let interpretations = optional(src, "interpretations.yaml", diags);
    Some(RawOverlay {
        header: header?.1,
        game: present(game)?,
        resources: present(resources)?,
        buildings: present(buildings)?,
        events: present(events)?,
        variants: present(variants)?,
        interpretations: present(interpretations)?,
    })
}

fn optional<'a, T: serde::de::DeserializeOwned>(
    src: &'a GameSources,
    name: &str,
    diags: &mut Diagnostics,
) -> Option<Option<(&'a SourceFile, T)>> {
    src.files.contains_key(name).then(|| folder(src).parse(name, diags))
}

/// An optional file: `Some(None)` when absent, `None` when it failed to parse.
fn present<T>(parsed: Option<Option<(&SourceFile, T)>>) -> Option<Option<T>> {
    match parsed {
        None => Some(None),
        Some(p) => p.map(|(_, t)| Some(t)),
    }
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
    pub(super) documents: Vec<Entry<'a, common::RawDocument>>,
    pub(super) languages: Vec<Entry<'a, Spanned<String>>>,
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
    let mut documents: Vec<_> =
        raw.game.game.documents.iter().map(|d| Entry { from: base("game.yaml"), raw: d }).collect();
    let mut languages: Vec<_> =
        raw.game.game.languages.iter().map(|l| Entry { from: base("game.yaml"), raw: l }).collect();
    if let (Some(o), Some(from)) = (ov, ofile(overlay::HEADER)) {
        documents.extend(o.header.overlay.documents.iter().map(|d| Entry { from, raw: d }));
        languages.extend(o.header.overlay.languages.iter().map(|l| Entry { from, raw: l }));
        if o.header.overlay.extends.value != raw.game.game.id.value {
            diags.error(
                from.path,
                position(&o.header.overlay.extends),
                format!(
                    "the overlay extends `{}`, but is layered onto `{}`",
                    o.header.overlay.extends.value, raw.game.game.id.value
                ),
            );
        }
    }
    Layers {
        game,
        game_from,
        documents,
        languages,
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
    let mut docs = Vec::new();
    let mut langs = Vec::new();
    let mut files: Vec<&str> = Vec::new();
    for f in lay.documents.iter().map(|e| e.from.path).chain(lay.languages.iter().map(|e| e.from.path)) {
        if !files.contains(&f) {
            files.push(f);
        }
    }
    for file in files {
        let d: Vec<common::RawDocument> =
            lay.documents.iter().filter(|e| e.from.path == file).map(|e| e.raw.clone()).collect();
        let l: Vec<Spanned<String>> =
            lay.languages.iter().filter(|e| e.from.path == file).map(|e| e.raw.clone()).collect();
        let all_langs: Vec<Spanned<String>> = lay.languages.iter().map(|e| e.raw.clone()).collect();
        let (mut dd, _) = common::lower_documents(file, &d, &all_langs, diags);
        check_unique(file, "language", l.iter(), diags);
        docs.append(&mut dd);
        langs.extend(l.into_iter().map(|x| x.value));
    }
    let mut seen = std::collections::BTreeSet::new();
    for e in &lay.documents {
        if !seen.insert(e.raw.id.value.as_str()) {
            diags.error(e.from.path, position(&e.raw.id), format!("duplicate document id `{}`", e.raw.id.value));
        }
    }
    if langs.is_empty() {
        diags.error(lay.game_from["game"].path, (1, 1), "the catalog declares no `languages:`");
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
