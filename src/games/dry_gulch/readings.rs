//! What the Dry Gulch code declares to its catalog: the readings it
//! implements in Rust (hooks, one typed enum each), the variants it knows
//! by name, the parameters a reading, a variant or a house rule may set,
//! the rules its errors name, and the procedures a turn is made of.
//!
//! Every branch in `rules.rs` on an ambiguity matches one of these enums
//! exhaustively (`State::r::<DamagedInfluence>()`); the catalog must declare
//! each hook with an option for each of its readings, and may declare any
//! further interpretation as data (`set:`, `replace:`, `steps:`).

use crate::catalog::common::Declared;
use crate::engine::{Procedure, Range};

crate::hooks! { HOOKS;
    /// How much of a damaged building's influence still counts.
    DamagedInfluence = "damaged-influence" { HalfRoundDown = "half-round-down", HalfRoundUp = "half-round-up", Void = "void" }
    /// When a damage marker comes off.
    MarkerRemoval = "marker-removal" { WithCard = "with-card", Never = "never" }
    /// How many cards replace a missing Labor.
    LaborSubstitution = "labor-substitution" { DeValue = "de-value", NotSubstitutable = "not-substitutable" }
    /// Whether substitution is only for resources the player lacks.
    SubstituteOnlyMissing = "substitute-only-missing" { OnlyMissing = "only-missing", AnyRequirement = "any-requirement" }
    /// What a player needs on the board to win.
    WinThreshold = "win-threshold" { AllChips = "all-chips", Fixed = "fixed" }
    /// Whose win is checked during the building phase.
    WinCheck = "win-check" { ActivePlayer = "active-player", AnyPlayer = "any-player" }
    /// Building with fewer chips than the influence.
    ChipShortage = "chip-shortage" { CannotBuild = "cannot-build", PlaceRemaining = "place-remaining" }
    /// Who collects plot rewards.
    RewardsWho = "rewards-who" { EveryPlayer = "every-player", ActivePlayer = "active-player" }
    /// How often an influence card's reward is paid.
    InfluenceReward = "influence-reward" { Once = "once", EveryRewardPhase = "every-reward-phase" }
    /// Whether a revealed violet card may be taken into the hand.
    VioletIntoHand = "violet-into-hand" { FaceUp = "face-up", MayTake = "may-take" }
    /// What becomes of a face-up card that cannot be played.
    UnplayableFaceUp = "unplayable-face-up" { Discard = "discard", IntoHand = "into-hand" }
    /// Whether the I.O.U. is handed over automatically.
    IouUse = "iou-use" { Automatic = "automatic", Optional = "optional" }
    /// What an Ace Up Your Sleeve protects.
    AceProtection = "ace-protection" { AceAndOneCard = "ace-and-one-card", OneCardOnly = "one-card-only" }
    /// Whether Fire Insurance is used automatically.
    FireInsuranceUse = "fire-insurance-use" { Optional = "optional", Automatic = "automatic" }
    /// Which Goods a General Store may stand for.
    GeneralStoreGoods = "general-store-goods" { AnyGood = "any-good", MissingGoodOnly = "missing-good-only" }
    /// Whether the Bank's draw replaces or adds to the normal draw.
    BankDraw = "bank-draw" { Instead = "instead", InAddition = "in-addition" }
    /// Whether a corner building may stand at a street end.
    CornerAtStreetEnd = "corner-building-at-street-end" { Forbidden = "forbidden", Allowed = "allowed" }
    /// Whether a player may play a disaster on his own building.
    SelfDisaster = "self-disaster" { Allowed = "allowed", Forbidden = "forbidden" }
    /// A disaster when no damage marker is left.
    MarkerShortage = "marker-shortage" { CannotPlay = "cannot-play", NoMarker = "no-marker" }
    /// Card transfers that name a damaged building.
    DamagedTransfers = "damaged-transfers" { Void = "void", AsUnbuilt = "as-unbuilt", AsBuilt = "as-built" }
    /// How the leader is measured.
    LeaderMeasure = "leader-measure" { CountedInfluence = "counted-influence", ChipsOnBoard = "chips-on-board" }
    /// Whether building needs a permit, and whether it is spent.
    Permits = "permits" { NeededAndSpent = "needed-and-spent", NeededAndKept = "needed-and-kept", NotNeeded = "not-needed" }
    /// How long a damaged Town Hall stays closed.
    TownHallClosed = "town-hall-closed" { UntilAttackerTurn = "until-attacker-turn", UntilReopened = "until-reopened" }
    /// Which permit draws a closed Town Hall stops.
    ClosedTownHallScope = "closed-town-hall-scope" { EveryPermitDraw = "every-permit-draw", DrawPhaseOnly = "draw-phase-only" }
    /// How far a fire spreads.
    FireSpreadExtent = "fire-spread-extent" { AllNeighbours = "all-neighbours", OneNeighbour = "one-neighbour" }
    /// What a spread fire costs its victim.
    FireSpreadLoss = "fire-spread-loss" { DamageOnly = "damage-only", FullFire = "full-fire" }
    /// An empty event deck.
    EventDeckEmpty = "event-deck-empty" { Reshuffle = "reshuffle", RevealFewer = "reveal-fewer" }
    /// When the Gold Strike may be played.
    GoldStrike = "gold-strike" { OnlyToWin = "only-to-win", AnyTime = "any-time" }
    /// Whether a damaged Firehouse stops spreading fire.
    DamagedFirehouse = "damaged-firehouse" { Counts = "counts", OnlyIntact = "only-intact" }
    /// Whether a damaged building may be the target of a further disaster.
    SecondDisaster = "second-disaster" { Refused = "refused", LossesOnly = "losses-only" }
    /// Whether spreading fire reaches the ownerless Town Hall.
    SpreadToTownHall = "spread-to-town-hall" { Skips = "skips", ClosesIt = "closes-it" }
    /// When Fire Insurance may be discarded against a Fire's losses.
    FireInsuranceMoment = "fire-insurance-moment" { BeforeFirstDraw = "before-first-draw", AnyDraw = "any-draw" }
    /// Cards an event moves from a player to himself.
    SelfTransfer = "self-transfer" { Keeps = "keeps", Discards = "discards" }
    /// When face-up events are resolved.
    FaceUpTiming = "face-up-timing" { DrawOrBuild = "draw-or-build", BuildOnly = "build-only" }
    /// What becomes of a red or yellow card revealed and not taken into hand.
    RevealedNotTaken = "revealed-not-taken" { FaceUp = "face-up", Discarded = "discarded" }
    /// Whether a plot pays its reward in every reward phase or once.
    PlotReward = "plot-reward" { EveryRewardPhase = "every-reward-phase", Once = "once" }
    /// Whether the violet (influence) cards are among the resource cards.
    VioletCards = "violet-cards" { EventCards = "event-cards", ResourceCards = "resource-cards" }
    /// Whether the owners named by an influence card decide to draw its reward.
    InfluenceRewardDraw = "influence-reward-draw" { Automatic = "automatic", Optional = "optional" }
    /// Whether cards an effect gives go to hand at once or wait for the reward phase.
    RewardCardTiming = "reward-card-german-rule-7" { GermanTiming = "german-timing", AllAtReward = "all-at-reward" }
    /// The kind of a resource printed without one (Food).
    FoodKind = "food-kind" { Good = "good", Ability = "ability" }
    /// Whether the I.O.U. and the Ace answer the hand-limit cut.
    HandCutReactions = "hand-cut-reactions" { NotATake = "not-a-take", LikeADraw = "like-a-draw" }
    /// Which of the face-up discarded permits a player may take.
    PermitDiscardTake = "permit-discard-take" { Any = "any", TopOnly = "top-only" }
    /// Where an I.O.U. goes that answers a loss whose card would be discarded.
    IouDiscardedLoss = "iou-discarded-loss" { LikeTheCard = "like-the-card", ToTheDrawer = "to-the-drawer" }
    /// Where a permit spent on a building goes.
    SpentPermit = "spent-permit" { FaceUpDiscard = "face-up-discard", OutOfPlay = "out-of-play" }
    /// Whether one I.O.U. stops every draw an event makes from its holder, or the first.
    IouSeveralDraws = "iou-several-draws" { FirstDraw = "first-draw", WholeEvent = "whole-event" }
    /// A draw of two permits from a deck holding fewer.
    PermitDrawShort = "permit-draw-one-left" { TakeTheOne = "take-the-one", NeedsTwo = "needs-two" }
}

crate::switches! {
    /// The variants the code implements.
    V, VARIANTS;
    AdvancedSetup = "advanced-setup",
    TownHallDamage = "town-hall-damage",
    OpenPermits = "open-permits",
}

crate::switches! {
    /// The numbers a reading, a variant or a house rule may set, named as
    /// the catalog writes them in `game.yaml`.
    P, PARAMS;
    DealResources = "setup.deal_resources",
    DealPermits = "setup.deal_permits",
    DraftPermitCount = "setup.draft_permits",
    ChipsOnResidence = "setup.chips_on_residence",
    EventsRevealed = "turn.events_revealed",
    EventsDiscarded = "turn.events_discarded",
    RoundsWithoutEvents = "turn.rounds_without_events",
    DrawResources = "turn.draw_resources",
    PermitsFromDeck = "turn.permits_from_deck",
    BankResources = "turn.bank_resources",
    BankPermits = "turn.bank_permits",
    HandLimit = "turn.hand_limit",
    InfluenceCardReward = "turn.influence_card_reward",
    TownHallReopenCards = "turn.town_hall_reopen_cards",
    GeneralStoreCards = "turn.general_store_cards",
    LaborCardUnits = "turn.labor_card_units",
    DamageMarkers = "components.damage_markers",
    TurnCap = "limits.turn_cap",
    FixedWinThreshold = "limits.fixed_win_threshold",
}

crate::switches! {
    /// The rules Dry Gulch's errors name (`dry-gulch/<id>`): `game.yaml`'s
    /// `game.rules` gives each the places it cites.
    R, RULES;
    TurnOrder = "turn.order",
    Decision = "decision",
    GameOver = "game.over",
    DrawPermit = "draw.permit",
    DrawBank = "draw.bank",
    BuildPermit = "build.permit",
    BuildPayment = "build.payment",
    BuildPlot = "build.plot",
    BuildUnique = "build.unique",
    BuildChips = "build.chips",
    BuildEnd = "build.end",
    InfluencePlay = "influence.play",
    DisasterPlay = "disaster.play",
    DisasterLimit = "disaster.limit",
    DisasterTownHall = "disaster.town-hall",
    TownHallClosed = "town-hall.closed",
}

crate::procedures! {
    /// The procedures of a turn (`game.yaml` lists them in the order they
    /// play, `turn.phases`). `build` is required: a win is checked only in
    /// the building phase (Winning the Game), so a turn without one could
    /// never be won.
    Proc, PROCEDURES, required: [Build];
    /// The start of the turn, where the optional rules add the steps that
    /// act then (the two below); nothing of its own.
    TurnStart = "turn-start",
    /// Events are revealed; the player discards, keeps or leaves them.
    Events = "events",
    /// Three resources, a permit, or the Bank's draw.
    Draw = "draw",
    /// Building, influence cards, disasters, face-up events.
    Build = "build",
    /// Unplayable face-up cards go; plots and influence cards pay.
    Reward = "reward",
    /// The player discards at will (the turn's end then cuts hands).
    Discard = "discard",
    /// The Town Hall reopens for its attacker (optional rule 2, which
    /// adds it to the turn; `town-hall-closed` says whether it does).
    TownHallReopens = "town-hall-reopens",
    /// Fire spreads while nobody has a Firehouse (optional rule 4, which
    /// adds it to the turn).
    SpreadFire = "spread-fire",
}

/// The ranges Dry Gulch's numbers must lie in (`engine::Range`): a hand
/// limit, a permit draw and a turn cap of 0 make no game. Checked for the
/// catalog at load (`bounds`), and for each `set:` of a reading or variant
/// at its line when it is lowered.
pub const RANGES: &[Range] = &[
    Range::at_least(P::HandLimit as usize, 1),
    Range::at_least(P::PermitsFromDeck as usize, 1),
    Range::at_least(P::TurnCap as usize, 1),
];

/// What the code declares, for lowering a catalog with `events` event cards
/// (the entities a `replace:` names) and `counted` numbers a `set:` may
/// change (`Rules::count_keys`: each card's copies and each building's
/// permits, at most `MAX_COPIES` each); `turn` and the keys are left empty
/// (the catalog's turn is lowered against this, with the keys).
pub fn declared(events: usize, counted: usize) -> Declared<'static> {
    let code = Declared::code((HOOKS, VARIANTS, PARAMS), (PROCEDURES, Proc::REQUIRED), events);
    Declared { counted, count_max: super::bounds::MAX_COPIES, ranges: RANGES, ..code }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Hook;

    #[test]
    fn hook_indexes_follow_the_table() {
        assert_eq!(HOOKS[Permits::INDEX].id, Permits::ID);
        assert_eq!(HOOKS[FaceUpTiming::INDEX].id, "face-up-timing");
        assert_eq!(DamagedTransfers::from_index(2), DamagedTransfers::AsBuilt);
        assert_eq!(P::HandLimit.id(), "turn.hand_limit");
        assert_eq!(V::OpenPermits.id(), "open-permits");
        assert_eq!(PROCEDURES[Proc::Reward.index()], "reward");
        assert_eq!(Proc::REQUIRED, ["build"]);
    }
}
