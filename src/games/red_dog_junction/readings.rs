//! What the Red Dog Junction code declares to its catalog: the readings it
//! implements in Rust (hooks), its parameters, and the one procedure of a
//! turn. Every branch in `rules.rs` on an ambiguity matches one of these
//! enums exhaustively (`State::r::<DiceAdjacency>()`).

use crate::catalog::common::Declared;
use crate::engine::Range;

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
    /// Whether the first player is player 1.
    FirstPlayer = "first-player" { PlayerOne = "player-one", Rolled = "rolled" }
    /// Whether a Boost the player did not buy can be played.
    UnpurchasedBoosts = "unpurchased-boosts" { AnyBoost = "any-boost", PurchasedOnly = "purchased-only" }
    /// Whether an action may be taken a third time in a turn.
    SameActionLimit = "same-action-limit" { NoLimit = "no-limit", AtMostTwice = "at-most-twice" }
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
    /// Which display card is the "last" the Automa takes.
    AutomaLastCard = "automa-last-card" { FarthestFromDeck = "farthest-from-deck", NearestToDeck = "nearest-to-deck" }
    /// What the Automa does with an Officer card.
    AutomaOfficer = "automa-officer" { StackOnly = "stack-no-action", GoldLikeABoost = "gold-like-a-boost" }
    /// Which cubes an Outlaw swaps for the Automa.
    AutomaOutlaw = "automa-outlaw" { GainsOnly = "gains-only", AlwaysSix = "always-six" }
    /// A Scavenger when space holds no cube.
    AutomaScavengerEmpty = "automa-scavenger-empty" { MovesAnyway = "moves-anyway", StaysPut = "stays-put" }
    /// Whether the dock the Automa is at counts as free when it is sent.
    AutomaOwnDock = "automa-own-dock" { CountsAsFree = "counts-as-free", MustMove = "must-move" }
    /// Which cubes an Agent trades first when the bank's gold runs short.
    AutomaShortBank = "automa-agent-short-bank" { LeastWorthFirst = "least-worth-first", MostWorthFirst = "most-worth-first" }
    /// Whether the display refills after the Automa's take.
    AutomaRefill = "automa-refill" { Refills = "refills", NextPlayerTurn = "at-the-players-turn-end" }
    /// Whether crew cards a player did not buy score.
    UnpurchasedCards = "unpurchased-cards-score" { AllCrew = "all-crew", PurchasedOnly = "purchased-only" }
    /// Whether the cards of the Automa's crew stack score.
    AutomaCrewScores = "automa-crew-scores" { CardsScore = "cards-score", GoldAndDealsOnly = "gold-and-deals-only" }
    /// Whether the Automa starts with player 2's starting cards.
    AutomaStartingCrew = "automa-starting-crew" { PlayerTwoCards = "player-two-cards", EmptyStack = "empty-stack" }
    /// Trail Boss: where the Officers nobody is dealt go.
    TrailBossOfficers = "trail-boss-undealt-officers" { BackInTheDeck = "back-in-the-deck", ToTheBox = "to-the-box" }
    /// Posse: which starting cards are removed before the draft.
    PosseRemoved = "posse-starting-cards" { AbsentPlayers = "absent-player-numbers", NoneRemoved = "none-removed" }
    /// Posse: which way a draft hand is passed.
    PossePass = "posse-pass-direction" { NextSeat = "next-seat", PreviousSeat = "previous-seat" }
    /// Whether the Automa's Rascal deal is paid.
    AutomaRascal = "automa-rascal" { FreeDeal = "free-deal", PaysFromCargo = "pays-from-cargo" }
    /// Whether Officers and Boosts act (their texts are not printed).
    OfficerBoostText = "officer-boost-text" { AssumedEffects = "assumed-effects", PointsOnly = "points-only" }
    /// Which cubes the Automa jettisons over its capacity.
    AutomaJettison = "automa-jettison" { LeastWorthFirst = "least-worth-first", SoloPlayerPicks = "solo-player-picks" }
    /// Whether the Automa's Rascal deals with the Haberdashery's dock taken.
    AutomaRascalDock = "automa-rascal-dock-taken" { DealWhereItIs = "deal-where-it-is", NoDeal = "no-deal" }
}

crate::switches! {
    /// The rules Red Dog Junction's errors name (`red-dog-junction/<id>`):
    /// `game.yaml`'s `game.rules` gives each the places it cites.
    R, RULES;
    TurnActions = "turn.actions",
    GameOver = "game.over",
    ChanceRoll = "chance.roll",
    MoveDock = "move.dock",
    MoveHomeBase = "move.home-base",
    LoadHomeBase = "load.home-base",
    BuyLimit = "buy.limit",
    BuyPayment = "buy.payment",
    DealPayment = "deal.payment",
    DealPlace = "deal.place",
    CardEffect = "card.effect",
    CrewNone = "crew.none",
    CrewTrade = "crew.trade",
    CrewMine = "crew.mine",
    CrewSwap = "crew.swap",
    CrewDisplace = "crew.displace",
    CrewSalvage = "crew.salvage",
    JettisonCapacity = "jettison.capacity",
    SetupDraft = "setup.draft",
    SoloAutoma = "solo.automa",
}

crate::switches! {
    /// The variants the code implements.
    V, VARIANTS;
    TrailBoss = "trail-boss",
    Posse = "posse",
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
    SoloActions = "solo.actions",
    AutomaCapacity = "solo.automa_capacity",
    AutomaSalvage = "solo.automa_salvage",
    AutomaMine = "solo.automa_mine",
    AutomaSwap = "solo.automa_swap",
    AutomaDealGold = "solo.automa_deal_gold",
    AutomaBoostGold = "solo.automa_boost_gold",
    TrailBossOfficers = "drafts.trail_boss_officers",
    TrailBossPicks = "drafts.trail_boss_picks",
    PosseCowboys = "drafts.posse_cowboys",
    PosseHand = "drafts.posse_hand",
}

/// The one procedure of a turn: its actions (the end of the turn follows
/// it). A reading's `steps:` is refused at load (the game runs no data
/// steps); its `replace:` replaces a card's effect.
pub const PROCEDURES: &[&str] = &["actions"];

/// The ranges Red Dog Junction's numbers must lie in (`engine::Range`): a
/// turn of no action, a solo turn of none or a turn cap of 0 would never
/// end, and past its most each number leaves the game the rules describe
/// (more draft picks than the cards dealt for them leave a draft with no
/// legal pick). Checked for the catalog at load, at each number's place,
/// and for each `set:` of a reading or variant at its line when it is
/// lowered.
pub const RANGES: &[Range] = &[
    Range::within(P::Actions as usize, 1, 10),
    Range::within(P::CapacityPerCowboy as usize, 0, 20),
    Range::within(P::SwapPerOutlaw as usize, 0, 10),
    Range::within(P::CountdownTurns as usize, 0, 10),
    Range::within(P::SoloActions as usize, 1, 10),
    Range::within(P::AutomaCapacity as usize, 0, 60),
    Range::within(P::AutomaSalvage as usize, 0, 30),
    Range::within(P::AutomaMine as usize, 0, 30),
    Range::within(P::AutomaSwap as usize, 0, 30),
    Range::within(P::AutomaDealGold as usize, 0, 50),
    Range::within(P::AutomaBoostGold as usize, 0, 10),
    Range::within(P::TrailBossOfficers as usize, 0, 1),
    Range::within(P::TrailBossPicks as usize, 0, 3),
    Range::within(P::PosseCowboys as usize, 0, 3),
    Range::within(P::PosseHand as usize, 0, 12),
    Range::within(P::TurnCap as usize, 1, 100_000),
];

/// What the code declares, for lowering the catalog: the entities a
/// `replace:` names are the catalog's `cards` card types, and so are the
/// entities whose number a `set:` changes (`cards.<id>.copies`, at most
/// `MAX_CARD_COPIES`, as in the catalog).
pub fn declared(cards: usize) -> Declared<'static> {
    let code = Declared::code((HOOKS, VARIANTS, PARAMS), (PROCEDURES, PROCEDURES), cards);
    Declared { turn: &[0], counted: cards, count_max: super::lower_parts::MAX_CARD_COPIES, ranges: RANGES, ..code }
}

/// The `set:` key of each card type's copies, in card order.
pub fn count_keys<'a>(cards: impl Iterator<Item = &'a str>) -> Vec<String> {
    cards.map(|id| format!("cards.{id}.copies")).collect()
}
