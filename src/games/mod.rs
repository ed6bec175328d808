//! The games, each over the engine core, and the registry that lets `check`,
//! `bench` and `validate` cover every bundled game without naming any.

pub mod dry_gulch;

use std::collections::BTreeMap;

use serde::Serialize;

use crate::catalog::common::{Change, Interpretation, NumberTally, Variant};
use crate::catalog::diag::Diagnostic;
use crate::catalog::{GameSources, SourceFile, overlay};
use crate::yaml;

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
/// A house-rules overlay (a folder with `overlay.yaml`) is layered onto the
/// bundled catalog it extends.
pub fn load(src: &GameSources) -> Result<AnyRules, Vec<Diagnostic>> {
    if let Some(header) = src.files.get(overlay::HEADER) {
        return load_overlay(src, header);
    }
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

fn load_overlay(src: &GameSources, header: &SourceFile) -> Result<AnyRules, Vec<Diagnostic>> {
    let head: overlay::OverlayHeader = yaml::from_str(&header.path, &header.text).map_err(|d| vec![d])?;
    let extends = &head.overlay.extends;
    let unknown = || {
        let (line, column) = yaml::position(extends);
        vec![
            Diagnostic::new(
                &header.path,
                line,
                column,
                format!("the overlay extends unknown game `{}`; bundled games: {}", extends.value, KNOWN.join(", ")),
            )
            .with_snippet_from(&header.text),
        ]
    };
    let bundled = crate::bundled::rules()?;
    let Some(base) = bundled.iter().find(|g| g.name == extends.value) else {
        return Err(unknown());
    };
    match base.name.as_str() {
        dry_gulch::ID => dry_gulch::catalog::load_layered(base, Some(src)).map(|r| AnyRules::DryGulch(Box::new(r))),
        _ => Err(unknown()),
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
    /// A data change of a reading or variant, in catalog words.
    pub fn describe_change(&self, c: &Change) -> String {
        match self {
            AnyRules::DryGulch(r) => dry_gulch::describe_change(r, c),
        }
    }
    pub fn variants(&self) -> &[Variant] {
        match self {
            AnyRules::DryGulch(r) => &r.variants,
        }
    }
}
