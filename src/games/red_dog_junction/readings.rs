//! What the Red Dog Junction code declares to its catalog: the readings it
//! implements in Rust (hooks), its parameters, and the one procedure of a
//! turn. Every branch in `rules.rs` on an ambiguity matches one of these
//! enums exhaustively (`State::r::<DiceAdjacency>()`).

use crate::catalog::common::Declared;

crate::hooks! { HOOKS;
    /// What a Rascal does for a player.
    RascalAbility = "rascal-ability" { NoAction = "no-action", HaberdasheryDeal = "haberdashery-deal" }
    /// Which dice a Junction dock touches.
    DiceAdjacency = "dice-adjacency" { TwoBeside = "two-beside-and-gold", OneFacing = "one-facing-and-gold" }
    /// Where the six dice stand.
    DicePlacement = "dice-placement" { RandomPlaces = "random-places", LabelledPlaces = "labelled-places" }
    /// Which ways a trade goes.
    TradeDirection = "trade-direction" { GoldBoughtOnly = "gold-bought-only", EveryPair = "every-pair-both-ways" }
    /// A nudge past a die's faces.
    NudgeRange = "nudge-range" { WithinFaces = "within-faces", WrapAround = "wrap-around" }
    /// Whether Agents nudge the gold die.
    GoldDieNudge = "gold-die-nudge" { SixSidedOnly = "six-sided-only", GoldDieToo = "gold-die-too" }
    /// Whether traded dice are rolled again.
    DiceReroll = "dice-reroll" { Never = "never", AfterEachTrade = "after-each-trade" }
    /// When the display is refilled.
    RefillTiming = "refill-timing" { EndOfTurn = "end-of-turn", AtOnce = "at-once" }
    /// How many cards a turn may buy.
    PurchasesPerTurn = "purchases-per-turn" { OnePerAction = "one-per-action", OnePerTurn = "one-per-turn" }
    /// When the deck ends the game.
    DeckEnd = "deck-end" { LastCardTurned = "last-card-turned", RefillFails = "refill-fails" }
    /// Whether the emptying turn counts in the countdown.
    CountdownTurns = "countdown-turns" { AfterThisTurn = "after-this-turn", ThisTurnCounts = "this-turn-counts" }
    /// Whether gold back in the bank stops the countdown.
    CountdownRefill = "countdown-refill" { Stays = "countdown-stays", Resets = "countdown-resets" }
    /// Whether Officers count as crew in the tie-break.
    TieCrewCount = "tie-crew-count" { CrewAndOfficers = "crew-and-officers", CrewCardsOnly = "crew-cards-only" }
    /// A tie after both tie-breaks.
    FinalTie = "final-tie" { SharedWin = "shared-win", LaterSeatWins = "later-seat-wins" }
    /// Whether a ship at its home base can be displaced.
    DisplaceHomeBase = "displace-home-base" { AnyLocation = "any-location", NotFromHomeBase = "not-from-home-base" }
    /// Who picks the other ship's cubes in a swap.
    SwapPicks = "swap-picks" { SwapperPicksBoth = "swapper-picks-both", OwnerPicksOwn = "owner-picks-own" }
    /// Where starting gold goes.
    StartingGoldWhere = "starting-gold-where" { Storage = "storage", Cargo = "cargo" }
    /// A Super Deal the bank cannot pay in full.
    SuperDealShortBank = "super-deal-short-bank" { NotAllowed = "not-allowed", WhatIsLeft = "what-is-left" }
    /// Whether the bank is a location.
    BankLocation = "bank-location" { Supply = "supply", DockableTile = "dockable-tile" }
    /// Where scrap bought in a trade comes from.
    TradeForScrap = "trade-for-scrap" { FromSpace = "from-space", NotObtainable = "not-obtainable" }
    /// Where a Super Deal's gold goes.
    SuperDealGoldWhere = "super-deal-gold-where" { Cargo = "cargo", Storage = "storage" }
}

crate::switches! {
    /// The numbers a reading or a house rule may set, named as the catalog
    /// writes them in `game.yaml` (the Super Deal piles' tile counts come
    /// from `components.yaml`'s two piles, in order).
    P, PARAMS;
    Actions = "turn.actions",
    CapacityPerCowboy = "ship.capacity_per_cowboy",
    SwapPerOutlaw = "crew.swap_per_outlaw",
    CountdownTurns = "end.countdown_turns",
    TurnCap = "limits.turn_cap",
    ExtraBoosts = "deck.extra_boosts",
    FirstPileTiles = "deals.first_pile_tiles",
    SecondPileTiles = "deals.second_pile_tiles",
}

/// The one procedure of a turn: its actions (the end of the turn follows
/// it). A reading's `steps:` is refused at load until the game runs data
/// steps.
pub const PROCEDURES: &[&str] = &["actions"];

/// What the code declares, for lowering the catalog.
pub fn declared() -> Declared<'static> {
    Declared {
        hooks: HOOKS,
        variants: &[],
        params: PARAMS,
        entities: 0,
        steps: PROCEDURES,
        required_steps: PROCEDURES,
        turn: &[0],
    }
}
