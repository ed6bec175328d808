//! The interpretations the Dry Gulch engine branches on, and the typed
//! `Readings` built from a configuration. Every branch in `rules.rs` that
//! depends on an ambiguity reads a field of `Readings`; none is decided in
//! code.

use serde::{Deserialize, Serialize};

/// (interpretation id, option ids) — the catalog must declare exactly these
/// (plus any entries marked `inert`).
pub const IMPLEMENTED: &[(&str, &[&str])] = &[
    ("damaged-influence", &["half-round-down", "half-round-up", "void"]),
    ("marker-removal", &["with-card", "never"]),
    ("labor-substitution", &["de-value", "not-substitutable"]),
    ("substitute-only-missing", &["only-missing", "any-requirement"]),
    ("labor-card-value", &["one", "two"]),
    ("win-threshold", &["all-chips", "fixed"]),
    ("win-check", &["active-player", "any-player"]),
    ("chip-shortage", &["cannot-build", "place-remaining"]),
    ("rewards-who", &["every-player", "active-player"]),
    ("influence-reward", &["once", "every-reward-phase"]),
    ("violet-into-hand", &["face-up", "may-take"]),
    ("unplayable-face-up", &["discard", "into-hand"]),
    ("fire-with-firehouse", &["firehouse-instead", "firehouse-also"]),
    ("iou-use", &["automatic", "optional"]),
    ("ace-protection", &["ace-and-one-card", "one-card-only"]),
    ("fire-insurance-use", &["optional", "automatic"]),
    ("general-store-goods", &["any-good", "missing-good-only"]),
    ("bank-draw", &["instead", "in-addition"]),
    ("self-disaster", &["allowed", "forbidden"]),
    ("marker-shortage", &["cannot-play", "no-marker"]),
    ("damaged-transfers", &["void", "as-unbuilt", "as-built"]),
    ("leader-measure", &["counted-influence", "chips-on-board"]),
    ("permits", &["needed-and-spent", "needed-and-kept", "not-needed"]),
    ("draft-permits", &["two", "three"]),
    ("town-hall-closed", &["until-attacker-turn", "until-reopened"]),
    ("fire-spread-extent", &["all-neighbours", "one-neighbour"]),
    ("fire-spread-loss", &["damage-only", "full-fire"]),
    ("event-deck-empty", &["reshuffle", "reveal-fewer"]),
    ("gold-strike", &["only-to-win", "any-time"]),
    ("face-up-timing", &["draw-or-build", "build-only"]),
];

/// The implemented interpretations, in the order of `IMPLEMENTED`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum I {
    DamagedInfluence,
    MarkerRemoval,
    LaborSubstitution,
    SubstituteOnlyMissing,
    LaborCardValue,
    WinThreshold,
    WinCheck,
    ChipShortage,
    RewardsWho,
    InfluenceReward,
    VioletIntoHand,
    UnplayableFaceUp,
    FireWithFirehouse,
    IouUse,
    AceProtection,
    FireInsuranceUse,
    GeneralStoreGoods,
    BankDraw,
    SelfDisaster,
    MarkerShortage,
    DamagedTransfers,
    LeaderMeasure,
    Permits,
    DraftPermits,
    TownHallClosed,
    FireSpreadExtent,
    FireSpreadLoss,
    EventDeckEmpty,
    GoldStrike,
    FaceUpTiming,
}

/// The variants the engine implements, by catalog id.
pub const VARIANTS: &[&str] = &["advanced-setup", "town-hall-damage", "open-permits", "spreading-fire"];

/// The chosen option (index into the `IMPLEMENTED` option list) of every
/// implemented interpretation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Readings(pub Vec<u8>);

impl Readings {
    /// Resolves option ids; `choices` must already be checked against the catalog.
    pub fn from_choices(choice: impl Fn(&str) -> String) -> Readings {
        Readings(
            IMPLEMENTED
                .iter()
                .map(|(id, opts)| {
                    let c = choice(id);
                    opts.iter().position(|o| *o == c).unwrap_or(0) as u8
                })
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enum_matches_table() {
        assert_eq!(I::FaceUpTiming as usize + 1, IMPLEMENTED.len());
        assert_eq!(IMPLEMENTED[I::Permits as usize].0, "permits");
        assert_eq!(IMPLEMENTED[I::BankDraw as usize].0, "bank-draw");
        assert_eq!(IMPLEMENTED[I::GoldStrike as usize].0, "gold-strike");
    }
}
