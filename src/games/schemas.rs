//! The JSON Schema of each game's catalog files, made by `schemars` from
//! the raw serde shapes the game's loader parses them into (draft-07, the
//! version yaml-language-server reads). `deny_unknown_fields` becomes
//! `additionalProperties: false`, so an editor marks a misspelt key; an
//! effect or a condition (`lang::Node`) is any value there, since the
//! loader compiles it later. `rulecheck schema` writes them, with each
//! game's scenario schema (`commands::schema`).
//!
//! ```
//! let files = rulecheck::games::schemas::catalog("dry-gulch").unwrap();
//! assert_eq!(files[0].0, "game.yaml");
//! assert_eq!(files[0].1.get("additionalProperties"), Some(&serde_json::json!(false)));
//! ```

use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, Schema, SchemaGenerator};

use super::Entry;
use super::dodge_city::{self, DodgeCity};
use super::dry_gulch::{self, DryGulch};
use super::red_dog_junction::{self, RedDogJunction};
use crate::catalog::common::{RawInterpretationsFile, RawVariantsFile};
use crate::lang::Node;

/// The generator every schema of the crate is made with: draft-07.
pub fn generator() -> SchemaGenerator {
    SchemaSettings::draft07().into_generator()
}

/// The schema of one file whose shape is `T`.
pub fn root<T: JsonSchema>() -> Schema {
    generator().into_root_schema_for::<T>()
}

/// Each catalog file of game `id` (as `Entry::FILES` names it) with its
/// schema; `None` for an unknown game.
pub fn catalog(id: &str) -> Option<Vec<(&'static str, Schema)>> {
    use dodge_city::schema as dc;
    use dry_gulch::schema as dg;
    use red_dog_junction::schema as rdj;
    Some(match id {
        DryGulch::ID => vec![
            ("game.yaml", root::<dg::GameFile>()),
            ("resources.yaml", root::<dg::ResourcesFile>()),
            ("buildings.yaml", root::<dg::BuildingsFile>()),
            ("events.yaml", root::<dg::EventsFile>()),
            ("board.yaml", root::<dg::BoardFile>()),
            ("variants.yaml", root::<RawVariantsFile<dg::RawEffect>>()),
            ("interpretations.yaml", root::<RawInterpretationsFile<dg::RawEffect>>()),
        ],
        DodgeCity::ID => vec![
            ("game.yaml", root::<dc::GameFile>()),
            ("cards.yaml", root::<dc::CardsFile>()),
            ("buildings.yaml", root::<dc::BuildingsFile>()),
            ("events.yaml", root::<dc::EventsFile>()),
            ("interpretations.yaml", root::<dc::InterpretationsFile>()),
        ],
        // the loader reads `replace:` and `steps:` effects as any value
        // (serde's `IgnoredAny`) and refuses them with a diagnostic until
        // the game has an effect language: any value, as `Node` says
        RedDogJunction::ID => vec![
            ("game.yaml", root::<rdj::GameFile>()),
            ("components.yaml", root::<rdj::ComponentsFile>()),
            ("cards.yaml", root::<rdj::CardsFile>()),
            ("variants.yaml", root::<RawVariantsFile<Node>>()),
            ("interpretations.yaml", root::<RawInterpretationsFile<Node>>()),
        ],
        _ => return None,
    })
}
