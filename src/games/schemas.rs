//! The JSON Schema of each game's catalog files, made by `schemars` from
//! the raw serde shapes the game's loader parses them into (the ones its
//! `catalog_files!` declares; `catalog::folder::schema`, draft-07).
//! `deny_unknown_fields` becomes `additionalProperties: false`, so an
//! editor marks a misspelt key; an effect or a condition (`lang::Node`) is
//! any value there, since the loader compiles it later. `rulecheck schema`
//! writes them, with each game's scenario schema (`commands::schema`).
//!
//! ```
//! let files = rulecheck::games::schemas::catalog("dry-gulch").unwrap();
//! assert_eq!(files[0].0, "game.yaml");
//! assert_eq!(files[0].1.get("additionalProperties"), Some(&serde_json::json!(false)));
//! ```

use schemars::Schema;

use super::Entry;
use super::dodge_city::{self, DodgeCity};
use super::dry_gulch::{self, DryGulch};
use super::red_dog_junction::{self, RedDogJunction};

/// Each catalog file of game `id` (as `Entry::FILES` names it) with its
/// schema; `None` for an unknown game.
pub fn catalog(id: &str) -> Option<Vec<(&'static str, Schema)>> {
    Some(match id {
        DryGulch::ID => dry_gulch::catalog::RawCatalog::schemas(),
        DodgeCity::ID => dodge_city::catalog::RawCatalog::schemas(),
        RedDogJunction::ID => red_dog_junction::catalog::RawCatalog::schemas(),
        _ => return None,
    })
}
