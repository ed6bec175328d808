//! rulecheck: a rules-verification and property-testing harness for board
//! games. Layers, lowest first: `yaml` and `catalog` (YAML → validated
//! catalog, with diagnostics) → `engine` (game-agnostic core) → `lang` (the shared effect language) → `games`
//! (each game's rules) → `check` (invariants, random playouts, shrinking) →
//! `scenario` → `report`; `main.rs` holds only the command line.

pub mod bundled;
pub mod catalog;
pub mod check;
pub mod commands;
pub mod engine;
pub mod games;
pub mod interp;
pub mod lang;
pub mod matrix;
pub mod report;
pub mod scenario;
pub mod schema;
pub mod yaml;
