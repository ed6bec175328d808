//! What the Dodge City code declares to its catalog: the readings it
//! implements in Rust (hooks, one typed enum each, matched exhaustively
//! through `State::r`), the parameters a reading or a house rule may set,
//! and the procedures a round is made of.

use crate::catalog::MAX_NUMBER;
use crate::catalog::common::Declared;
use crate::engine::{Procedure, Range};

crate::hooks! { HOOKS;
    /// Who becomes start player when the best Marshal-round cards tie exactly.
    MarshalTie = "marshal-tie" { EarlierInTurnOrder = "earlier-in-turn-order", StartPlayerStays = "start-player-stays" }
    /// How many tokens a picture card gives.
    PictureTokens = "picture-tokens" { Three = "three", ByRank = "by-rank", PrintedValue = "printed-value" }
    /// Whether a picture card's tokens count against the per-turn limit of a building.
    PictureTokensLimit = "picture-tokens-limit" { CountTowardLimit = "count-toward-limit", OutsideLimit = "outside-limit" }
    /// A picture card whose symbol has no building when no building is empty.
    NoEmptyBuilding = "no-empty-building" { TokensLapse = "tokens-lapse", AnyOpenBuilding = "any-open-building" }
    /// What is left of a debt the player's tokens cannot pay.
    EventDebt = "event-debt" { DebtForgiven = "debt-forgiven", DebtCarried = "debt-carried" }
    /// Which tokens an indebted player sells.
    SaleChoice = "sale-choice" { PlayerChooses = "player-chooses", CheapestFirst = "cheapest-first" }
    /// Whose tokens an Indio removes.
    IndioTargets = "indio-targets" { AnyOpponents = "any-opponents", OneOpponent = "one-opponent" }
    /// Where removed tokens go.
    RemovedTokens = "removed-tokens" { BackToOwner = "back-to-owner", OutOfGame = "out-of-game" }
    /// What becomes of a chain a removal breaks.
    BrokenChain = "broken-chain-after-removal" { PiecesStay = "pieces-stay", LargestPieceStays = "largest-piece-stays" }
    /// Whether a placed token must join a chain, and whose.
    ChainBinding = "chain-binding" { OwnChain = "own-chain", AnyTokens = "any-tokens", AdviceOnly = "advice-only" }
    /// Whether the winner of a duel must take a token of the loser's.
    DuelTake = "duel-take" { OneToken = "one-token", MayDecline = "may-decline" }
    /// Whether the limit of three is per building or per turn.
    PurchaseLimit = "purchase-limit" { PerBuilding = "per-building", PerTurn = "per-turn" }
    /// Whether a building without a symbol can be bought into.
    BuyWhere = "buy-where" { SymbolBuildingsOnly = "symbol-buildings-only", AnyBuildingCheapest = "any-building-cheapest" }
    /// What linking four special fields means.
    ControlMeaning = "control-meaning" { ChainTouchesFour = "chain-touches-four", ChainSurroundsFour = "chain-surrounds-four" }
    /// Two players controlling one building.
    SeveralControllers = "several-controllers" { NobodyScores = "nobody-scores", LongerChainScores = "longer-chain-scores" }
    /// Whether a player who can challenge must.
    MustChallenge = "must-challenge" { MayPass = "may-pass", MustChallenge = "must-challenge" }
    /// A duel between equal cards.
    DuelTie = "duel-tie" { Nobody = "nobody", Defender = "defender" }
    /// A duel of two question marks.
    DuelBothQuestion = "duel-both-question" { BothDrawNoneLose = "both-draw-none-lose", BothDrawBothLose = "both-draw-both-lose" }
    /// A last card that is an Indio.
    LastCardIndio = "last-card-indio" { CannotDuel = "cannot-duel", LosesAnyDuel = "loses-any-duel" }
    /// Whether a closed building's symbol may open another building.
    ClosedSymbol = "closed-symbol" { SymbolRetired = "symbol-retired", SymbolMovesOn = "symbol-moves-on" }
    /// Several players reaching the goal in one scoring.
    SeveralReachSix = "several-reach-six" { MostPointsThenMoney = "most-points-then-money", SharedWin = "shared-win" }
    /// A deck that cannot deal a new round.
    DeckExhausted = "deck-exhausted" { Reshuffle = "reshuffle", GameEnds = "game-ends" }
    /// A Marshal-round hand of Indios only.
    MarshalOnlyIndios = "marshal-only-indios" { IndioRanksLast = "indio-ranks-last", IndioAsQuestion = "indio-as-question" }
}

crate::switches! {
    /// The rules Dodge City's errors name (`dodge-city/<id>`): `game.yaml`'s
    /// `game.rules` gives each the places it cites.
    R, RULES;
    Turn = "turn",
    MarshalCard = "marshal.card",
    PlaceCard = "place.card",
    PlaceOpen = "place.open",
    PlaceSquare = "place.square",
    PlaceSpecialField = "place.special-field",
    PlaceChain = "place.chain",
    BuyLimit = "buy.limit",
    BuyMoney = "buy.money",
    BuyBuilding = "buy.building",
    IndioTarget = "indio.target",
    EventChoose = "event.choose",
    DebtSale = "debt.sale",
    DuelChallenge = "duel.challenge",
    DuelPass = "duel.pass",
    DuelTake = "duel.take",
}

crate::switches! {
    /// The numbers a reading or a house rule may set, named as `game.yaml`
    /// writes them.
    P, PARAMS;
    Money = "setup.money",
    Hand = "setup.hand",
    Tokens = "setup.tokens",
    GoalPoints = "rules.goal_points",
    NumberCardPay = "rules.number_card_pay",
    BuyPerBuilding = "rules.buy_per_building",
    IndioRemoves = "rules.indio_removes",
    ControlFields = "rules.control_fields",
    SalePercent = "rules.sale_percent",
    PictureTokenCount = "rules.picture_tokens",
    MoneyPerPoint = "rules.money_per_point",
    RoundCap = "rules.round_cap",
}

crate::procedures! {
    /// The procedures of a round (`game.yaml` lists them in the order they
    /// play, `round.phases`). `score` is required: the goal is checked only
    /// when the buildings are scored (Spielende), so a round without it
    /// could never be won.
    Proc, PROCEDURES, required: [Score];
    /// Every player lays a card face down at once; the best becomes start
    /// player (Beschreibung 2).
    Marshal = "marshal",
    /// The first placing phase, in turn order from the start player
    /// (Beschreibung 3-6).
    Place1 = "place-1",
    /// The second placing phase (Beschreibung 3-6).
    Place2 = "place-2",
    /// The duels with the last card (Beschreibung 7).
    Duel = "duel",
    /// Buildings a chain controls are scored and close; the goal is checked
    /// (Beschreibung 7, Spielende).
    Score = "score",
}

/// The ranges Dodge City's numbers must lie in (`engine::Range`): a hand
/// of no card, a goal of no point or a round cap of none makes no game.
/// Checked for the catalog at load, at each number's place, and for each
/// `set:` of a reading or variant at its line when it is lowered.
pub const RANGES: &[Range] = &[
    Range::within(P::Hand as usize, 1, 16),
    Range::within(P::Tokens as usize, 1, 255),
    Range::within(P::GoalPoints as usize, 1, MAX_NUMBER),
    Range::within(P::BuyPerBuilding as usize, 1, MAX_NUMBER),
    Range::within(P::ControlFields as usize, 1, MAX_NUMBER),
    Range::within(P::RoundCap as usize, 1, MAX_NUMBER),
];

/// The range of the number `id` (`setup.hand`): its `RANGES` entry, or any
/// catalog number.
pub fn range_of(id: &str) -> Range {
    let entry = RANGES.iter().find(|r| PARAMS[r.param] == id).copied();
    entry.map_or(Range::within(0, 0, MAX_NUMBER), |r| Range { most: Some(r.most.unwrap_or(MAX_NUMBER)), ..r })
}

/// What the code declares, for lowering a catalog with `events` event
/// cards (the entities a `replace:` names) and `counted` numbers a `set:`
/// may change (each card's copies, then each event card's: `count_keys`);
/// `turn` is left empty (the catalog's round is lowered against this).
pub fn declared(events: usize, counted: usize) -> Declared<'static> {
    let code = Declared::code((HOOKS, &[], PARAMS), (PROCEDURES, Proc::REQUIRED), events);
    Declared { counted, count_max: super::catalog::MAX_COPIES, ranges: RANGES, ..code }
}

/// The `set:` key of each counted number, in the game's numbering: each
/// card's copies (`cards.<id>.copies`), then each event card's
/// (`events.<id>.copies`).
pub fn count_keys<'a>(cards: impl Iterator<Item = &'a str>, events: impl Iterator<Item = &'a str>) -> Vec<String> {
    cards.map(|id| format!("cards.{id}.copies")).chain(events.map(|id| format!("events.{id}.copies"))).collect()
}
