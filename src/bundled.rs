//! The catalogs and scenarios shipped inside the binary (`rules/` and
//! `scenarios/` at build time), so every command works from any folder.

use crate::catalog::{self, GameSources, diag::Diagnostic};

mod files {
    include!(concat!(env!("OUT_DIR"), "/bundled.rs"));
}

pub use files::{RULES, SCENARIOS};

/// The bundled catalogs, one `GameSources` per game folder.
pub fn rules() -> Result<Vec<GameSources>, Vec<Diagnostic>> {
    catalog::from_pairs("rules", RULES)
}
