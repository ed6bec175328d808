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

/// Each bundled game folder with the version of its catalog: a digest of
/// its files (FNV-1a over every path and its bytes, in path order), so
/// two builds that print the same version play from the same catalog.
pub fn catalog_versions() -> Vec<(&'static str, String, usize)> {
    let mut games: Vec<(&'static str, u64, usize)> = Vec::new();
    let mut files: Vec<&(&'static str, &'static [u8])> = RULES.iter().collect();
    files.sort_by_key(|(rel, _)| *rel);
    for (rel, bytes) in files {
        let game = rel.split('/').next().unwrap_or(rel);
        if games.last().is_none_or(|g| g.0 != game) {
            games.push((game, 0xcbf2_9ce4_8422_2325, 0));
        }
        let g = games.last_mut().expect("pushed above");
        for b in rel.bytes().chain([0]).chain(bytes.iter().copied()) {
            g.1 = (g.1 ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
        g.2 += 1;
    }
    games.into_iter().map(|(g, h, n)| (g, format!("{:08x}", h >> 32), n)).collect()
}
