//! Layering a Red Dog Junction catalog: the base folder and a house-rules
//! overlay (see `catalog::overlay`) merged entry by entry, each entry with
//! the file it came from (`catalog::layers`). An overlay may replace whole
//! sections of `game.yaml` (every section but `game:`), add or override
//! cards, variants and interpretations, and declare documents and
//! languages of its own; `components.yaml` (commodities, locations, dice,
//! Super Deals) is the board, which a copy of the folder changes.

use super::catalog::RawCatalog;
use super::schema::*;
use crate::catalog::common::{RawInterpretation, RawVariant};

crate::catalog_layers! {
    RawCatalog, GameFile, "Red Dog Junction",
    board: "the commodities, locations, dice and Super Deals are the board: copy the whole catalog to \
            change them",
    lists {
        cards: RawCard = "cards.yaml" as "card",
        variants: RawVariant<RawEffect> = "variants.yaml" as "variant",
        interpretations: RawInterpretation<RawEffect> = "interpretations.yaml" as "interpretation",
    }
    entries { components: ComponentsFile = "components.yaml" }
}
