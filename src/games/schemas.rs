//! The JSON Schema of each game's catalog files, made by `schemars` from
//! the raw serde shapes the game's loader parses them into (the ones its
//! `catalog_files!` declares; `catalog::folder::schema`, draft-07).
//! `deny_unknown_fields` becomes `additionalProperties: false`, so an
//! editor marks a misspelt key; an effect or a condition (`lang::Node`) is
//! any value there, since the loader compiles it later. A field of the
//! shared shapes that a game's loader refuses is left out of its schema.
//! `rulecheck schema` writes them, with each game's scenario schema
//! (`commands::schema`).
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
        DodgeCity::ID => without(dodge_city::catalog::RawCatalog::schemas(), NO_CONDITIONS),
        RedDogJunction::ID => without(red_dog_junction::catalog::RawCatalog::schemas(), NO_CONDITIONS),
        _ => return None,
    })
}

/// The fields of the shared raw shapes (definition, field) that a game's
/// loader refuses: its cards have no condition to replace
/// (`common::no_condition`).
const NO_CONDITIONS: &[(&str, &str)] = &[("RawReplace", "condition")];

/// The schemas with the fields `refused` taken out (and the definitions
/// no field names any more), so an editor marks them as the loader will.
fn without(mut files: Vec<(&'static str, Schema)>, refused: &[(&str, &str)]) -> Vec<(&'static str, Schema)> {
    let defs = |s: &mut Schema| s.get_mut("definitions").and_then(|d| d.as_object_mut()).map(std::mem::take);
    for (_, schema) in &mut files {
        let Some(mut d) = defs(schema) else { continue };
        for (def, field) in refused {
            if let Some(props) = d.get_mut(*def).and_then(|d| d.get_mut("properties")).and_then(|p| p.as_object_mut()) {
                props.remove(*field);
            }
        }
        // what the rest of the schema, and the definitions, still name
        let named = serde_json::to_string(&(&*schema, &d)).unwrap_or_default();
        d.retain(|name, _| named.contains(&format!("\"#/definitions/{name}\"")));
        schema.insert("definitions".into(), d.into());
    }
    files
}
