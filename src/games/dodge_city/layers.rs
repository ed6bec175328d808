//! Layering a Dodge City catalog: the base folder and a house-rules
//! overlay (see `catalog::overlay`) merged entry by entry, each entry with
//! the file it came from (`catalog::layers`). An overlay may replace whole
//! sections of `game.yaml` (`setup`, `rules`, `round`), add or override
//! event cards and interpretations, and declare documents and languages of
//! its own; the deck and the buildings are the board, which a copy of the
//! folder changes.

use super::catalog::RawCatalog;
use super::schema::*;
use crate::catalog::common::RawInterpretation;

crate::catalog_layers! {
    RawCatalog, GameFile, "Dodge City",
    board: "the deck and the buildings are the board: copy the whole catalog to change them",
    lists {
        events: RawEvent = "events.yaml" as "event",
        interpretations: RawInterpretation<RawEffect> = "interpretations.yaml" as "interpretation",
    }
    entries { cards: CardsFile = "cards.yaml", buildings: BuildingsFile = "buildings.yaml" }
}
