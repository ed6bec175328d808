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

/// The bundled scenario files.
pub fn scenarios() -> Result<Vec<crate::catalog::SourceFile>, Vec<Diagnostic>> {
    let mut out = Vec::new();
    let mut diags = Vec::new();
    for (rel, bytes) in SCENARIOS {
        match catalog::decode(&format!("scenarios/{rel}"), bytes.to_vec()) {
            Ok(f) => out.push(f),
            Err(d) => diags.push(d),
        }
    }
    if diags.is_empty() { Ok(out) } else { Err(diags) }
}
