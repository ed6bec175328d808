//! The games, each over the engine core, and the registry that lets `check`,
//! `bench` and `validate` cover every bundled game without naming any.

pub mod dry_gulch;

use std::collections::BTreeMap;

use serde::Serialize;

use crate::catalog::GameSources;
use crate::catalog::common::{Interpretation, NumberTally, Variant};
use crate::catalog::diag::Diagnostic;

/// A loaded, validated catalog of any known game.
#[derive(Debug, Clone)]
pub enum AnyRules {
    DryGulch(Box<dry_gulch::Rules>),
}

/// What `validate` prints per game.
#[derive(Debug, Clone, Serialize)]
pub struct CatalogSummary {
    pub game: String,
    pub name: String,
    pub min_players: u32,
    pub max_players: u32,
    /// Entities by kind (buildings, events, …).
    pub entities: BTreeMap<String, usize>,
    pub variants: usize,
    pub interpretations: usize,
    /// Interpretations the engine branches on (the rest are marked inert).
    pub interpretations_live: usize,
    pub numbers: NumberTally,
}

/// The game ids the registry knows, in display order.
pub const KNOWN: &[&str] = &[dry_gulch::ID];

/// Loads one game's folder with the lowering of the game its name selects.
pub fn load(src: &GameSources) -> Result<AnyRules, Vec<Diagnostic>> {
    match src.name.as_str() {
        dry_gulch::ID => dry_gulch::catalog::load(src).map(|r| AnyRules::DryGulch(Box::new(r))),
        other => Err(vec![Diagnostic::new(
            &src.dir,
            1,
            1,
            format!("unknown game folder `{other}`; known games: {}", KNOWN.join(", ")),
        )]),
    }
}

impl AnyRules {
    pub fn id(&self) -> &str {
        match self {
            AnyRules::DryGulch(r) => &r.id,
        }
    }
    pub fn summary(&self) -> CatalogSummary {
        match self {
            AnyRules::DryGulch(r) => dry_gulch::summary(r),
        }
    }
    pub fn interpretations(&self) -> &[Interpretation] {
        match self {
            AnyRules::DryGulch(r) => &r.interpretations,
        }
    }
    pub fn variants(&self) -> &[Variant] {
        match self {
            AnyRules::DryGulch(r) => &r.variants,
        }
    }
}
