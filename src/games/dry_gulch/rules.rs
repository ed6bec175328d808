//! The Dry Gulch state machine: set-up, effects, decisions, legality and
//! the win check; the turn's steps run from the catalog (`flow`).
//!
//! Legal actions come in this fixed order (each group in catalog order of
//! its cards, buildings and plots): decisions of a pending effect; set-up
//! choices; in the event phase `DiscardRevealed`, `KeepRevealed`,
//! `ReopenTownHall`, `EndEvents`; in the draw phase `DrawResources`,
//! `TakeFaceUpPermit`, `DrawPermits`, `ChoosePermit`, `BankDraw`, then
//! face-up plays; in the build phase `Build` (building, then plot, then
//! payment in `payment.rs` order), `PlayInfluence`, `PlayDisaster`,
//! `Resolve`, `EndBuild`; in the discard phase `Discard`, `EndTurn`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use smallvec::SmallVec;

use super::effects::{DAMAGE, Dg, Queued};
use super::invariants::{BoardRead, Conserved, DealtCache};
use super::payment::{self, Payment, Terms};
use super::readings::*;
use super::rules_data::*;
use crate::engine::{
    Answer, Chance, Config, ConfigError, Cursor, EndReason, Id, Kept, Multiset, Pile, Readings, Reads, RuleError,
    Supply, Tagged, Touched, Watched, WhenEmpty, Why, move_all, move_n, moved,
};
use crate::lang::{self, Agenda};

mod apply;
mod copies;
mod deck;
mod declared;
pub(crate) use deck::{card_totals, counted_permits, in_resource_deck};
mod describe;
mod disasters;
mod execute;
mod flow;
mod influence;
pub use influence::BoardInfluence;
mod legal;
pub use legal::DeferredBuilds;
mod setup;
mod takes;
pub use takes::Decision;

pub use describe::{choice_id, describe_action, describe_event, describe_payment};

/// How a game of Dry Gulch ended, as the state keeps it (`Game::outcome`
/// turns it into the ranking).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum End {
    /// The seat reached the influence threshold in a building phase.
    Win(usize),
    Draw(EndReason),
}

/// A closed Town Hall (optional rule 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Closure {
    /// The seat whose next turn reopens it (`town-hall-closed: until-attacker-turn`).
    pub reopens_for: Option<usize>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Damage {
    /// The disaster card that damaged it.
    pub card: CardKind,
    /// The plot whose disaster this damage belongs to (itself, or where a
    /// spreading fire started).
    pub origin: Plot,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Placed {
    pub building: Bld,
    pub owner: Option<usize>,
    pub damage: Option<Damage>,
    /// Family chips standing on it.
    pub chips: Chips,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// Hand cards, counted by card kind.
    pub hand: Multiset<kind::Card>,
    /// Permits, counted by building.
    pub permits: Multiset<kind::Building, 32>,
    /// Disaster cards lying in front of this player, with the plot each damaged.
    pub in_front: Tagged<kind::Card, Plot>,
    /// Influence cards played in front of this player.
    pub influence: Pile<kind::Card>,
    /// Family chips not yet on the board.
    pub chips: Chips,
    /// Chips placed for influence cards.
    pub card_chips: Chips,
    /// The chip allotment for this player count.
    pub allotment: u32,
    /// Cards and permits an effect gave him that wait for the reward phase
    /// (`reward-card-german-rule-7: all-at-reward`); empty otherwise.
    pub waiting: Multiset<kind::Card>,
    pub waiting_permits: Multiset<kind::Building, 32>,
}

impl Player {
    pub fn hand_size(&self) -> u32 {
        self.hand.total()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// A turn is over; the next begins with `StartTurn`.
    NextTurn,
    /// The start of a turn: spreading fire may need a decision first.
    TurnStart,
    /// Set-up: `seat` places its Residence.
    Residence {
        seat: usize,
    },
    /// Advanced set-up: `seat` picks a permit from the passed pool.
    Draft {
        seat: usize,
        pool: Pile<kind::Building>,
        picks: u32,
    },
    /// Event phase: the revealed cards still must lose `discard` cards.
    Events {
        discard: u32,
    },
    Draw,
    /// Two permits drawn from the deck: keep one.
    DrawKeep {
        offered: Pile<kind::Building>,
    },
    Build,
    /// The reward phase (nobody acts in it unless an effect asks).
    Reward,
    Discard,
    Over,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Dest {
    Seat(usize),
    Discard,
}

/// One pending step of a Dry Gulch operation (the continuation, kept in
/// the state; the shared steps are `lang::Step`'s).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Step {
    /// `to` draws `count` random cards from the hand of `from`.
    /// `stage`: 0 insurance, 1 I.O.U., 2 Ace, 3 take.
    Take {
        from: usize,
        to: Dest,
        count: u32,
        insurable: bool,
        stage: u8,
        protect: Option<CardKind>,
    },
    /// The owner of a building an influence card names may draw `count`.
    RewardDraw {
        seat: usize,
        count: u32,
    },
    /// `from` picks `left` more cards of his hand for `to`.
    Give {
        from: usize,
        to: Dest,
        left: u32,
    },
    Damage {
        plot: Plot,
        card: CardKind,
    },
    /// Spreading fire to one chosen neighbour of the fire that started at `origin`.
    Spread {
        origin: Plot,
    },
    /// The step the turn waits for the active player in ends (after the
    /// effect of a declared action that ends it).
    EndStep,
}

/// An action as a scenario writes it, with catalog ids.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
#[schemars(rename = "ActionSpec")]
pub enum Action {
    PlaceResidence(Plot),
    DraftPermit(Bld),
    DiscardRevealed(CardKind),
    KeepRevealed(CardKind),
    #[serde(with = "crate::engine::names::counted")]
    #[schemars(with = "BTreeMap<String, u8>")]
    ReopenTownHall(Vec<(CardKind, u8)>),
    EndEvents,
    DrawResources,
    TakeFaceUpPermit(Bld),
    DrawPermits,
    KeepPermit(Bld),
    ChoosePermit(Bld),
    BankDraw,
    #[schemars(with = "super::scenario_io::BuildSpec")]
    Build {
        building: Bld,
        plot: Plot,
        /// Boxed: a build's payment is the largest part of any action, and
        /// every list and record of actions would carry its room.
        #[serde(with = "super::scenario_io::payment")]
        payment: Box<Payment>,
    },
    PlayInfluence(CardKind),
    PlayDisaster {
        card: CardKind,
        plot: Plot,
    },
    Resolve {
        card: CardKind,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        plot: Option<Plot>,
    },
    EndBuild,
    Discard(CardKind),
    EndTurn,
    StartTurn,
    UseInsurance(bool),
    UseIou(bool),
    Protect(Option<CardKind>),
    /// The card a `give` hands over (its giver picks).
    Give(CardKind),
    /// Draw (true) or decline an influence card's reward.
    RewardDraw(bool),
    SpreadTo(Plot),
    /// An option of a `choose` effect, by its id.
    // `choice` and `option` are positions in `rules.choices`.
    #[serde(with = "crate::engine::names::option")]
    #[schemars(with = "String")]
    Choose {
        choice: u32,
        option: u32,
    },
    /// An action a variant or an option declares (`actions:`), by its id.
    #[serde(rename = "action")]
    Declared(Act),
}

/// What an action caused, for transcripts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    TurnStarted { seat: usize, turn: u32, round: u32 },
    ResidencePlaced { seat: usize, plot: Plot },
    Drafted { seat: usize, building: Bld },
    Revealed { cards: Vec<CardKind> },
    EventsReshuffled,
    RevealedDiscarded { card: CardKind },
    Kept { seat: usize, card: CardKind },
    LeftFaceUp { cards: Vec<CardKind> },
    TownHallReopened { seat: usize },
    TownHallClosed,
    Drew { seat: usize, cards: Vec<CardKind> },
    ResourcesReshuffled,
    DeckEmpty,
    PermitDrawn { seat: usize, building: Bld },
    PermitDiscarded { building: Bld },
    Built { seat: usize, building: Bld, plot: Plot },
    ChipsPlaced { seat: usize, chips: u32 },
    PermitSpent { seat: usize, building: Bld },
    CardsPaid { seat: usize, cards: Vec<(CardKind, u8)> },
    InfluencePlayed { seat: usize, card: CardKind },
    DisasterPlayed { seat: usize, card: CardKind, plot: Plot },
    EventResolved { seat: usize, card: CardKind },
    Damaged { plot: Plot, card: CardKind },
    FireSpread { from: Plot, to: Plot },
    Repaired { plot: Plot },
    Took { from: usize, to: Dest, card: CardKind },
    Gave { from: usize, to: Dest, card: CardKind },
    RewardDeclined { seat: usize },
    DrewWaiting { seat: usize, cards: Vec<CardKind> },
    WaitingReleased { seat: usize, cards: u32 },
    InsuranceUsed { seat: usize },
    IouHandedOver { from: usize, to: Dest },
    AceShown { seat: usize, protected: Option<CardKind> },
    Lapsed { why: String },
    FlagSet { flag: Flag },
    FaceUpCleared { cards: Vec<CardKind>, into_hand: bool },
    Discarded { seat: usize, card: CardKind },
    HandCut { seat: usize, cards: Vec<CardKind> },
    Won { seat: usize, influence: u32, during_build: bool },
    GameDrawn { reason: EndReason },
    ActionTaken { seat: usize, action: Act },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub players: usize,
    /// The configuration's readings: chosen options, hooks, variants, parameters.
    pub readings: Readings,
    /// The code's variant switches (`V` order), from the enabled variants.
    pub variants: Vec<bool>,
    pub turn_cap: u32,
    pub chance: Chance,
    pub seats: Vec<Player>,
    pub resource_deck: Pile<kind::Card>,
    pub resource_discard: Pile<kind::Card>,
    pub event_deck: Pile<kind::Card>,
    pub event_discard: Pile<kind::Card>,
    pub permit_deck: Pile<kind::Building>,
    pub permit_discard: Pile<kind::Building>,
    /// Permits spent on a building under `spent-permit: out-of-play`: no
    /// draw reaches them again.
    #[serde(default, skip_serializing_if = "Pile::is_empty")]
    pub permits_spent: Pile<kind::Building>,
    /// What stands on each plot (changed through `edit`, so the
    /// invariants keep their reading of it until it changes).
    pub board: Watched<Vec<Option<Placed>>>,
    pub flags: Vec<bool>,
    pub active: usize,
    pub turns: u32,
    pub phase: Phase,
    /// The step of the configuration's turn (`readings.turn`) under way.
    pub cursor: Cursor,
    /// Event cards revealed this event phase.
    pub revealed: Pile<kind::Card>,
    /// Event cards lying face up that must be resolved before the reward phase.
    pub face_up: Pile<kind::Card>,
    /// Disasters played whose damage step has not run yet.
    #[serde(default, skip_serializing_if = "Pile::is_empty")]
    pub played: Pile<kind::Card>,
    /// The steps of the effects being resolved and the decision they wait for.
    pub agenda: Agenda<Queued, Decision>,
    /// The player a `for_each` stands at while its body expands (none between actions).
    #[serde(skip)]
    pub each: Option<usize>,
    pub store_used: u32,
    /// The declared actions the active player has taken this turn (each
    /// is offered once a turn).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub acted: Vec<Act>,
    /// Buildings whose owners draw the influence-card reward this turn.
    pub pending_rewards: Vec<Bld>,
    /// Plots built this turn (their rewards under `plot-reward: once`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub built_this_turn: Vec<Plot>,
    /// The Town Hall is closed; by whom (`None` inside: nobody's turn reopens it).
    pub town_hall_closed: Option<Closure>,
    pub outcome: Option<End>,
    /// Which switch points the engine used (bookkeeping, not game state).
    #[serde(skip)]
    pub touched: Touched,
    /// What the invariants compare with, once found for a configuration
    /// that sets numbers (a cache, not game state).
    #[serde(skip)]
    pub dealt: DealtCache,
    /// The invariants' reading of `board`, kept until it changes (a
    /// cache, not game state).
    #[serde(skip)]
    pub board_read: Kept<BoardRead>,
    /// The conservation checks' answers (the first seat with cards or
    /// permits waiting), kept with the stamps of the zones they counted
    /// until one changes (a cache, not game state).
    #[serde(skip)]
    pub conserved: Conserved,
    /// Each seat's buildings' influence, kept until the board changes
    /// (a cache, not game state).
    #[serde(skip)]
    pub board_influence: Kept<BoardInfluence>,
    /// What the build checks read of the board, kept until it changes
    /// (a cache, not game state).
    #[serde(skip)]
    pub built: Kept<copies::Built>,
    /// Target of the effect being resolved (for `target-owner`).
    pub target: Option<Plot>,
    /// The hand-limit cut under way or done this turn as a draw (`hand-cut-reactions:
    /// like-a-draw`): each seat over the limit with its hand size then and
    /// the I.O.U.s in it (a catalog may have several).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cut: Option<Vec<(usize, u32, u32)>>,
    pub fault: Option<Fault>,
}

/// Deliberately broken rules, for proving that the invariants can fail.
/// Only tests and `fuzz --fault` set one; normal play never does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Fault {
    /// The discard phase forgets the hand limit.
    NoHandLimit,
    /// A Fire damages without placing a marker.
    FireWithoutMarker,
    /// A random card taken from a hand is duplicated.
    DuplicateOnTake,
    /// A permit is lost when spent.
    PermitVanishes,
    /// A second disaster of a kind may lie in front of a player.
    NoDisasterLimit,
    /// Building places one chip fewer than its influence but counts it.
    ChipLeak,
    /// A damaged building counts its full influence.
    DamageIgnored,
    /// A win is declared in the draw phase.
    WinOutsideBuild,
    /// The Bank may stand on any plot.
    BankAnywhere,
    /// A closed Town Hall still lets a permit be drawn.
    OpenClosedTownHall,
    /// A permit is counted into the hand by the hand-limit cut.
    PermitInHand,
    /// Cards waiting for the reward phase are never handed over.
    WaitingKept,
}

/// Each plot with what stands on it.
pub fn plots_of(board: &[Option<Placed>]) -> impl DoubleEndedIterator<Item = (Plot, &Option<Placed>)> + Clone {
    Plot::first(board.len()).zip(board)
}

fn err(rules: &Rules, rule: R, msg: impl Into<String>) -> RuleError {
    rules.rule_book.error(rule, msg)
}

/// A refusal under `rule`: the `RuleError` for `apply` and scenarios, with
/// the message `msg` makes, or only `Err(())` for the legal list, which
/// then formats nothing (`engine::Why`).
fn refuse<W: Why>(rules: &Rules, rule: R, msg: impl FnOnce() -> String) -> Result<(), W> {
    Err(W::why(|| err(rules, rule, msg())))
}

impl Reads for State {
    type Param = P;
    fn reads(&self) -> (&Readings, &Touched) {
        (&self.readings, &self.touched)
    }
}

impl State {
    /// Whether the code's variant `v` is on.
    pub fn on(&self, v: V) -> bool {
        self.variants.get(v as usize).copied().unwrap_or(false)
    }

    /// The effect event `e` has in this configuration: its own, or the one a
    /// reading or variant replaces it with.
    fn effect_of<'r>(&self, rules: &'r Rules, e: usize) -> &'r [Effect] {
        rules.effect_of(self, e, &rules.events[e].effect)
    }

    /// The condition event `e` has in this configuration: its own, or the
    /// one a reading or variant replaces it with.
    fn condition_of<'r>(&self, rules: &'r Rules, e: usize) -> Option<&'r Cond> {
        rules.condition_of(self, e, rules.events[e].condition.as_ref())
    }

    pub fn round(&self) -> u32 {
        self.turns / self.players as u32 + 1
    }

    fn owns_intact(&self, rules: &Rules, seat: usize, ability: Ability) -> u32 {
        self.board
            .iter()
            .flatten()
            .filter(|p| {
                p.owner == Some(seat)
                    && p.damage.is_none()
                    && rules.buildings[p.building.index()].ability == Some(ability)
            })
            .count() as u32
    }

    /// Seats in turn order starting with the active player.
    pub(super) fn seats_from_active(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.players).map(move |i| (self.active + i) % self.players)
    }

    fn eval(&self, rules: &Rules, c: &Cond) -> bool {
        lang::eval::<Dg>(self, rules, c)
    }

    // ------------------------------------------------------------ cards

    /// Moves `n` cards of kind `c` from `seat`'s hand to their discard pile.
    pub(super) fn discard_from_hand(&mut self, rules: &Rules, seat: usize, c: CardKind, n: u32) {
        let pile = if self.resource_pile(rules, c) { &mut self.resource_discard } else { &mut self.event_discard };
        moved(move_n(&mut self.seats[seat].hand, pile, c, n));
    }

    /// Moves one card from `from`'s hand to `to` (a hand or its discard pile).
    pub(super) fn hand_to(&mut self, rules: &Rules, from: usize, to: Dest, c: CardKind) {
        match to {
            Dest::Seat(t) if t == from => {}
            Dest::Seat(t) => {
                let wait = self.gains_wait();
                if let Ok([f, t]) = self.seats.get_disjoint_mut([from, t]) {
                    let to = if wait { &mut t.waiting } else { &mut t.hand };
                    moved(move_n(&mut f.hand, to, c, 1));
                }
            }
            Dest::Discard => self.discard_from_hand(rules, from, c, 1),
        }
    }
}

crate::steps_of!(Dg);
