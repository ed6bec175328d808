//! Layering a Dry Gulch catalog: parsing the base folder and a house-rules
//! overlay (see `catalog::overlay`) and merging them entry by entry with
//! the file each entry came from (`catalog::layers`), and the declared
//! documents and languages. An overlay may hold every file but the board.

use super::catalog::RawCatalog;
use super::schema::*;
use crate::catalog::common::{self, RawCitation, cites};

crate::catalog_layers! {
    RawCatalog, GameFile, "Dry Gulch", board: "the board is changed only by a copy of the whole catalog",
    lists {
        resources: RawResource = "resources.yaml" as "resource",
        buildings: RawBuilding = "buildings.yaml" as "building",
        events: RawEvent = "events.yaml" as "event",
        variants: common::RawVariant<RawEffect> = "variants.yaml" as "variant",
        interpretations: common::RawInterpretation<RawEffect> = "interpretations.yaml" as "interpretation",
    }
    entries { board: BoardFile = "board.yaml" }
}

/// Every citation of the layered catalog, with its file.
pub(super) fn citations<'a>(lay: &'a Layers<'a>, sections: &[common::Numbers<'a>]) -> Vec<(&'a str, &'a RawCitation)> {
    let mut out = lay.from.citations(sections);
    out.extend(cites(&lay.resources).chain(cites(&lay.buildings)).chain(cites(&lay.events)));
    out.extend(lay.board.raw.board.source.iter().map(|c| (lay.board.from.path, c)));
    out.extend(cites(&lay.variants).chain(cites(&lay.interpretations)));
    out
}
