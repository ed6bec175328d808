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
use super::payment::{self, Payment, Terms};
use super::readings::*;
use super::rules_data::*;
use crate::engine::{
    Base, Chance, Config, ConfigError, Cursor, EndReason, Hook, Id, MoveError, Multiset, Pile, Readings, RuleError,
    Supply, Tagged, Touched, WhenEmpty, move_all, move_n,
};
use crate::lang::{self, Agenda, Steps};

mod copies;
mod deck;
pub(crate) use deck::in_resource_deck;
mod describe;
mod disasters;
mod flow;
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
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Action {
    PlaceResidence(Plot),
    DraftPermit(Bld),
    DiscardRevealed(CardKind),
    KeepRevealed(CardKind),
    ReopenTownHall(Vec<(CardKind, u8)>),
    EndEvents,
    DrawResources,
    TakeFaceUpPermit(Bld),
    DrawPermits,
    KeepPermit(Bld),
    ChoosePermit(Bld),
    BankDraw,
    Build {
        building: Bld,
        plot: Plot,
        payment: Payment,
    },
    PlayInfluence(CardKind),
    PlayDisaster {
        card: CardKind,
        plot: Plot,
    },
    Resolve {
        card: CardKind,
        plot: Option<Plot>,
    },
    EndBuild,
    Discard(CardKind),
    EndTurn,
    StartTurn,
    UseInsurance(bool),
    UseIou(bool),
    Protect(Option<CardKind>),
    Give(CardKind),
    RewardDraw(bool),
    SpreadTo(Plot),
    /// Option `option` of the pending `choose` effect `choice` (positions
    /// in `rules.choices`; written with the option's catalog id).
    Choose {
        choice: u32,
        option: u32,
    },
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
    /// What stands on each plot.
    pub board: Vec<Option<Placed>>,
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
    /// Target of the effect being resolved (for `target-owner`).
    pub target: Option<Plot>,
    /// The hand-limit cut under way or done this turn as a draw (`hand-cut-reactions:
    /// like-a-draw`): each seat over the limit with its hand size then.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cut: Option<Vec<(usize, u32)>>,
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

/// A move the rules make only when it can happen (a legal action moves
/// only what is there); tests run with debug assertions.
pub(super) fn moved(r: Result<(), MoveError>) {
    debug_assert!(r.is_ok(), "a move of the rules failed: {r:?}");
}

/// Two different seats, both mutable.
fn two_seats(seats: &mut [Player], a: usize, b: usize) -> (&mut Player, &mut Player) {
    if a < b {
        let (l, r) = seats.split_at_mut(b);
        (&mut l[a], &mut r[0])
    } else {
        let (l, r) = seats.split_at_mut(a);
        (&mut r[0], &mut l[b])
    }
}

fn err(rules: &Rules, rule: &str, msg: impl Into<String>) -> RuleError {
    RuleError::new(&format!("dry-gulch/{rule}"), rules.source_of(rule), msg)
}

impl State {
    /// How the configuration reads hook `H`, recording that it was consulted.
    pub(crate) fn r<H: Hook>(&self) -> H {
        self.touched.mark(H::INDEX);
        H::from_index(self.readings.hooks.get(H::INDEX).copied().unwrap_or(0))
    }

    /// A parameter's value in this configuration, recording that it was used.
    pub(crate) fn p(&self, k: P) -> u32 {
        self.touched.mark(HOOKS.len() + k as usize);
        self.param(k)
    }

    /// A parameter's value without recording its use (for the invariants,
    /// which must not change what counts as reached).
    pub fn param(&self, k: P) -> u32 {
        self.readings.params.get(k as usize).copied().unwrap_or(0)
    }

    /// Whether the code's variant `v` is on.
    pub fn on(&self, v: V) -> bool {
        self.variants.get(v as usize).copied().unwrap_or(false)
    }

    /// The effect event `e` has in this configuration: its own, or the one a
    /// reading or variant replaces it with.
    fn effect_of<'r>(&self, rules: &'r Rules, e: usize) -> &'r [Effect] {
        match self.readings.replacement(e as u32) {
            Some(with) => {
                self.touched.mark(rules.declared.entity_point(e));
                &rules.replacements[with as usize]
            }
            None => &rules.events[e].effect,
        }
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

    /// Influence a building counts for its owner, damage applied.
    fn building_influence(&self, rules: &Rules, p: &Placed) -> u32 {
        let inf = rules.buildings[p.building.index()].influence;
        if p.damage.is_none() || self.fault == Some(Fault::DamageIgnored) {
            return inf;
        }
        match self.r::<DamagedInfluence>() {
            DamagedInfluence::HalfRoundDown => inf / 2,
            DamagedInfluence::HalfRoundUp => inf.div_ceil(2),
            DamagedInfluence::Void => 0,
        }
    }

    /// Counted influence: buildings (damage applied) plus influence cards.
    pub fn counted_influence(&self, rules: &Rules, seat: usize) -> u32 {
        let b: u32 = self
            .board
            .iter()
            .flatten()
            .filter(|p| p.owner == Some(seat))
            .map(|p| self.building_influence(rules, p))
            .sum();
        let c: u32 =
            self.seats[seat].influence.iter().map(|&k| rules.events[rules.event_of(k).unwrap_or(0)].influence).sum();
        b + c
    }

    pub fn chips_on_board(&self, seat: usize) -> u32 {
        let on_plots: u32 =
            self.board.iter().flatten().filter(|p| p.owner == Some(seat)).map(|p| p.chips.count()).sum();
        on_plots + self.seats[seat].card_chips.count()
    }

    pub fn win_threshold(&self, seat: usize) -> u32 {
        match self.r::<WinThreshold>() {
            WinThreshold::Fixed => self.p(P::FixedWinThreshold),
            WinThreshold::AllChips => self.seats[seat].allotment,
        }
    }

    pub(super) fn leader_measure(&self, rules: &Rules, seat: usize) -> u32 {
        match self.r::<LeaderMeasure>() {
            LeaderMeasure::ChipsOnBoard => self.chips_on_board(seat),
            LeaderMeasure::CountedInfluence => self.counted_influence(rules, seat),
        }
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
                let (f, t) = two_seats(&mut self.seats, from, t);
                let to = if wait { &mut t.waiting } else { &mut t.hand };
                moved(move_n(&mut f.hand, to, c, 1));
            }
            Dest::Discard => self.discard_from_hand(rules, from, c, 1),
        }
    }

    /// A uniformly random card of `seat`'s hand, skipping `exclude` counts.
    pub(super) fn random_card(&mut self, rules: &Rules, seat: usize, exclude: &[(CardKind, u8)]) -> Option<CardKind> {
        let mut avail: SmallVec<[u8; 48]> = SmallVec::from_slice(self.seats[seat].hand.counts());
        for &(c, n) in exclude {
            avail[c.index()] = avail[c.index()].saturating_sub(n);
        }
        let total: u32 = avail.iter().map(|&n| u32::from(n)).sum();
        if total == 0 {
            return None;
        }
        let nth = |i: u32| -> CardKind {
            let mut i = i;
            for (k, &n) in rules.cards().zip(avail.iter()) {
                if i < u32::from(n) {
                    return k;
                }
                i -= u32::from(n);
            }
            CardKind::ZERO
        };
        let pick = self.chance.pick(total, &|i| rules.card_id(nth(i)).to_string());
        Some(nth(pick))
    }

    // ------------------------------------------------------------ set-up

    pub(super) fn setup(rules: &Rules, config: &Config) -> Result<State, ConfigError> {
        let n = config.players;
        if n < rules.min_players || n > rules.max_players {
            return Err(ConfigError::Players { players: n, min: rules.min_players, max: rules.max_players });
        }
        let required = rules.declared.required_indexes();
        let base = Base { params: &rules.params, turn: &rules.turn, steps: PROCEDURES, required: &required };
        let readings = Readings::resolve(&rules.interpretations, &rules.variants, HOOKS.len(), base, config)?;
        let turn_cap = config.turn_cap.unwrap_or(readings.params[P::TurnCap as usize]);
        let mut variants = vec![false; V::ALL.len()];
        for (v, on) in rules.variants.iter().zip(&readings.variants) {
            if let (Some(h), true) = (v.hook, on) {
                variants[h] = true;
            }
        }
        let allotment = rules.setup.chips.get(&n).copied().unwrap_or(0);
        let players = n as usize;
        let card_kinds = rules.card_count();
        let mut chance = Chance::new(config.seed);
        // the components, each kind in catalog order before the shuffle
        // (the event deck's split is the reading event-deck-composition)
        let hook = |i: usize| readings.hooks.get(i).copied().unwrap_or(0);
        let (split, violet) = (
            EventDeckComposition::from_index(hook(EventDeckComposition::INDEX)),
            VioletCards::from_index(hook(VioletCards::INDEX)),
        );
        let copies = |events: bool| -> Vec<u32> {
            let n = |c| deck::deck_copies(rules, split, violet, c);
            rules.cards().map(|c| if deck::in_resource_deck(rules, violet, c) != events { n(c) } else { 0 }).collect()
        };
        let mut resource_deck = Pile::from_counts(&copies(false));
        let mut event_deck = Pile::from_counts(&copies(true));
        let mut permit_deck = Pile::from_counts(&rules.buildings.iter().map(|b| b.permits).collect::<Vec<_>>());
        resource_deck.shuffle(&mut chance);
        event_deck.shuffle(&mut chance);
        permit_deck.shuffle(&mut chance);
        let mut board = vec![None; rules.plots.len()];
        if let Some(th) = rules.with_ability(Ability::TownHall) {
            board[rules.town_hall_plot.index()] =
                Some(Placed { building: th, owner: None, damage: None, chips: Chips::new() });
        }
        let mut s = State {
            players,
            readings,
            variants,
            turn_cap,
            chance,
            seats: (0..players)
                .map(|_| Player {
                    hand: Multiset::new(card_kinds),
                    permits: Multiset::new(rules.buildings.len()),
                    in_front: Tagged::new(),
                    influence: Pile::new(),
                    // the player's colour, from the box: the chips' source
                    chips: Chips::from_count(allotment),
                    card_chips: Chips::new(),
                    allotment,
                    waiting: Multiset::new(card_kinds),
                    waiting_permits: Multiset::new(rules.buildings.len()),
                })
                .collect(),
            resource_deck,
            resource_discard: Pile::new(),
            event_deck,
            event_discard: Pile::new(),
            permit_deck,
            permit_discard: Pile::new(),
            permits_spent: Pile::new(),
            board,
            flags: vec![false; rules.flags.len()],
            active: 0,
            turns: 0,
            phase: Phase::Residence { seat: 0 },
            cursor: Cursor::default(),
            revealed: Pile::new(),
            face_up: Pile::new(),
            played: Pile::new(),
            agenda: Agenda::default(),
            each: None,
            store_used: 0,
            pending_rewards: vec![],
            built_this_turn: vec![],
            town_hall_closed: None,
            outcome: None,
            touched: Touched::default(),
            target: None,
            cut: None,
            fault: None,
        };
        s.r::<EventDeckComposition>(); // the deck's split differs in every game
        s.r::<VioletCards>(); // so do both decks when the violet cards move
        let mut ev = Vec::new();
        for seat in 0..players {
            for _ in 0..s.param(P::DealResources) {
                // an empty deck (and discard) ends the deal: nothing is left to give
                if s.draw_resource(seat, false, &mut ev).is_none() {
                    break;
                }
            }
        }
        if !s.on(V::AdvancedSetup) {
            for seat in 0..players {
                for _ in 0..s.param(P::DealPermits) {
                    if s.permit_deck.draw_top(&mut s.seats[seat].permits).is_none() {
                        break;
                    }
                }
            }
        }
        Ok(s)
    }

    fn draft_count(&self) -> u32 {
        match self.r::<DraftPermits>() {
            DraftPermits::Three => self.p(P::DealPermits),
            DraftPermits::Two => self.p(P::DraftPermitCount),
        }
    }

    fn residence_plots(&self, rules: &Rules) -> Vec<Plot> {
        rules
            .plots()
            .filter(|&i| {
                let p = rules.plot(i);
                p.edge && !p.bank && p.kind != PlotKind::Corner && self.board[i.index()].is_none()
            })
            .collect()
    }

    fn after_residences(&mut self) {
        if self.on(V::AdvancedSetup) {
            let per = self.draft_count();
            let mut pool = Pile::new();
            for _ in 0..per * self.players as u32 {
                self.permit_deck.draw_top(&mut pool);
            }
            pool.sort();
            if pool.is_empty() {
                self.phase = Phase::NextTurn;
            } else {
                self.phase = Phase::Draft { seat: self.players - 1, pool, picks: 0 };
            }
        } else {
            self.phase = Phase::NextTurn;
        }
    }

    // ------------------------------------------------------------ turns

    fn check_win(&mut self, rules: &Rules, ev: &mut Vec<Event>) {
        if self.outcome.is_some()
            || (self.phase != Phase::Build && self.fault != Some(Fault::WinOutsideBuild))
            || self.agenda.decision.is_some()
        {
            return;
        }
        let seats: Vec<usize> = match self.r::<WinCheck>() {
            WinCheck::AnyPlayer => self.seats_from_active().collect(),
            WinCheck::ActivePlayer => vec![self.active],
        };
        for seat in seats {
            let inf = self.counted_influence(rules, seat);
            if inf >= self.win_threshold(seat) {
                ev.push(Event::Won { seat, influence: inf, during_build: self.phase == Phase::Build });
                self.end(End::Win(seat), ev);
                return;
            }
        }
    }

    fn end(&mut self, o: End, ev: &mut Vec<Event>) {
        if let End::Draw(reason) = o {
            ev.push(Event::GameDrawn { reason });
        }
        self.outcome = Some(o);
        self.phase = Phase::Over;
        self.agenda.clear();
    }

    // ------------------------------------------------------------ effects

    /// Turns effects into steps at the back of the queue (`effects.rs` has
    /// Dry Gulch's operations; the language is `crate::lang`).
    fn expand(&mut self, rules: &Rules, effects: &[Effect], card: CardKind) {
        lang::expand::<Dg>(self, rules, effects, card);
    }

    /// Runs queued steps until the queue is empty or a decision is needed.
    fn run(&mut self, rules: &Rules, ev: &mut Vec<Event>) {
        lang::run(self, rules, ev);
        if self.agenda.decision.is_none() && self.phase == Phase::Build {
            self.check_win(rules, ev);
        }
    }

    // ------------------------------------------------------------ legality

    /// The terms of payment for the active player now (the readings are
    /// recorded as consulted where a payment turns on them).
    pub fn terms(&self, rules: &Rules) -> Terms<'_> {
        let peek = |i: usize| self.readings.hooks.get(i).copied().unwrap_or(0);
        let stores = self.owns_intact(rules, self.active, Ability::GeneralStore);
        Terms {
            only_missing: SubstituteOnlyMissing::from_index(peek(SubstituteOnlyMissing::INDEX))
                == SubstituteOnlyMissing::OnlyMissing,
            labor_two: LaborCardValue::from_index(peek(LaborCardValue::INDEX)) == LaborCardValue::Two,
            blank_from_de: LaborSubstitution::from_index(peek(LaborSubstitution::INDEX)) == LaborSubstitution::DeValue,
            store_left: if stores > 0 {
                (stores * self.p(P::GeneralStoreCards)).saturating_sub(self.store_used)
            } else {
                0
            },
            store_missing_only: GeneralStoreGoods::from_index(peek(GeneralStoreGoods::INDEX))
                == GeneralStoreGoods::MissingGoodOnly,
            handyman: rules.reactions.get(&ReactionKey::Handyman).copied(),
            unprinted_is: match FoodKind::from_index(peek(FoodKind::INDEX)) {
                FoodKind::Good => ResourceKind::Good,
                FoodKind::Ability => ResourceKind::Ability,
            },
            touched: Some(&self.touched),
        }
    }

    /// The requirements of a building for the active player (Blacksmith waiver applied).
    pub fn needs(&self, rules: &Rules, b: Bld) -> Vec<(Res, u32)> {
        let waive = self.owns_intact(rules, self.active, Ability::Blacksmith) > 0;
        rules.buildings[b.index()].cost.iter().filter(|(r, _)| !(waive && *r == rules.blacksmith)).copied().collect()
    }

    /// Why `b` cannot be built by the active player (ignoring plot and payment).
    fn build_blocker(&self, rules: &Rules, b: Bld) -> Option<(&'static str, String)> {
        let bd = &rules.buildings[b.index()];
        if matches!(bd.ability, Some(Ability::Residence | Ability::TownHall)) {
            return Some(("build.unique", format!("{} is placed at set-up, not built", bd.name)));
        }
        if let Some(why) = self.copy_blocker(rules, b) {
            return Some(why);
        }
        if self.r::<Permits>() != Permits::NotNeeded && self.seats[self.active].permits.count(b) == 0 {
            return Some(("build.permit", format!("no permit for {}", bd.name)));
        }
        let left = self.seats[self.active].chips.count();
        if left < bd.influence && self.r::<ChipShortage>() == ChipShortage::CannotBuild {
            return Some(("build.chips", format!("{} needs {} chips, {left} left", bd.name, bd.influence)));
        }
        None
    }

    fn plot_fits(&self, rules: &Rules, b: Bld, plot: Plot) -> Result<(), String> {
        let bd = &rules.buildings[b.index()];
        let Some(p) = rules.plots.get(plot.index()) else {
            return Err("no such plot".into());
        };
        if self.board[plot.index()].is_some() {
            return Err(format!("plot {} is taken", p.id));
        }
        let is_bank = bd.ability == Some(Ability::Bank);
        if p.bank && !is_bank {
            return Err(format!("only the Bank may stand on {}", p.id));
        }
        if is_bank && !p.bank && self.fault != Some(Fault::BankAnywhere) {
            return Err(format!("the Bank stands only on the bank plot, not {}", p.id));
        }
        if is_bank && p.bank {
            return Ok(());
        }
        let street_end_open =
            || p.kind == PlotKind::StreetEnd && self.r::<CornerAtStreetEnd>() == CornerAtStreetEnd::Allowed;
        if bd.corner && p.kind != PlotKind::Corner && !street_end_open() {
            return Err(format!("{} is a corner building and {} is not a corner plot", bd.name, p.id));
        }
        if !bd.corner && p.kind == PlotKind::Corner {
            return Err(format!("{} is not a corner building and {} is a corner plot", bd.name, p.id));
        }
        Ok(())
    }

    fn influence_playable(&self, rules: &Rules, card: CardKind) -> Option<(&'static str, String)> {
        let Some(e) = rules.event_of(card) else {
            return Some(("influence.play", "not an event card".into()));
        };
        let ev = &rules.events[e];
        if ev.triangle != Triangle::Violet {
            return Some(("influence.play", format!("{} is not an influence card", ev.name)));
        }
        if let Some(c) = &ev.condition
            && !self.eval(rules, c)
        {
            return Some(("influence.play", format!("the condition of {} does not hold", ev.name)));
        }
        if self.seats[self.active].chips.count() == 0 && self.r::<ChipShortage>() == ChipShortage::CannotBuild {
            return Some(("build.chips", "no family chip left to place".into()));
        }
        if ev.only_to_win && self.r::<GoldStrike>() == GoldStrike::OnlyToWin {
            let after = self.counted_influence(rules, self.active) + ev.influence;
            if after < self.win_threshold(self.active) {
                return Some((
                    "influence.play",
                    format!("{} may only be played as the play that ends the game", ev.name),
                ));
            }
        }
        None
    }

    /// Targets of a face-up event of no triangle (`None` inside: no target needed).
    fn resolve_targets(&self, rules: &Rules, card: CardKind) -> Vec<Option<Plot>> {
        let Some(e) = rules.event_of(card) else {
            return vec![];
        };
        match rules.events[e].target {
            None => vec![None],
            Some(Target::Building(b)) => self.plots_with(b).map(Some).collect(),
            Some(Target::AnyBuilding) => {
                plots_of(&self.board).filter(|(_, p)| p.is_some()).map(|(i, _)| Some(i)).collect()
            }
        }
    }

    fn face_up_open(&self) -> bool {
        match self.phase {
            Phase::Build => true,
            Phase::Draw => self.r::<FaceUpTiming>() == FaceUpTiming::DrawOrBuild,
            _ => false,
        }
    }

    fn face_up_plays(&self, rules: &Rules, out: &mut Vec<Action>) {
        if !self.face_up_open() {
            return;
        }
        for c in self.face_up.kinds() {
            let e = rules.event_of(c).expect("face-up cards are events");
            match rules.events[e].triangle {
                // influence cards wait for the building phase (Building 2)
                Triangle::Violet => {
                    if matches!(self.phase, Phase::Build) && self.influence_playable(rules, c).is_none() {
                        out.push(Action::PlayInfluence(c));
                    }
                }
                Triangle::Red => {
                    for plot in self.disaster_targets(rules, c) {
                        out.push(Action::PlayDisaster { card: c, plot });
                    }
                }
                Triangle::None => {
                    for plot in self.resolve_targets(rules, c) {
                        out.push(Action::Resolve { card: c, plot });
                    }
                }
                Triangle::Yellow => {}
            }
        }
    }

    fn any_face_up_playable(&self, rules: &Rules) -> bool {
        let mut v = Vec::new();
        self.face_up_plays(rules, &mut v);
        !v.is_empty()
    }

    /// `Game::apply`: the action if it is legal here, else the rule it breaks.
    pub(super) fn checked_apply(&mut self, rules: &Rules, action: &Action) -> Result<Vec<Event>, RuleError> {
        let ok = match action {
            // a build is checked directly: its payments are many
            Action::Build { building, plot, payment: pay } => {
                self.agenda.decision.is_none()
                    && self.outcome.is_none()
                    && self.phase == Phase::Build
                    && building.index() < rules.buildings.len()
                    && plot.index() < rules.plots.len()
                    && self.build_blocker(rules, *building).is_none()
                    && self.plot_fits(rules, *building, *plot).is_ok()
                    && payment::check(
                        rules,
                        &self.terms(rules),
                        &self.needs(rules, *building),
                        self.seats[self.active].hand.counts(),
                        pay,
                    )
                    .is_ok()
            }
            _ => {
                let mut legal = Vec::new();
                self.legal(rules, &mut legal, false);
                legal.contains(action)
            }
        };
        if !ok {
            return Err(self.diagnose(rules, action));
        }
        let mut ev = Vec::new();
        self.execute(rules, action, &mut ev);
        Ok(ev)
    }

    /// The legal actions; `builds: false` leaves out `Build` actions (whose
    /// payments are many) for checking any other action.
    pub(super) fn legal(&self, rules: &Rules, out: &mut Vec<Action>, builds: bool) {
        out.clear();
        // one allocation for a fresh list instead of growing it step by step
        out.reserve(16);
        if self.outcome.is_some() {
            return;
        }
        if let Some(d) = &self.agenda.decision {
            self.decision_actions(rules, d, out);
            return;
        }
        let a = self.active;
        match &self.phase {
            Phase::Residence { .. } => out.extend(self.residence_plots(rules).into_iter().map(Action::PlaceResidence)),
            Phase::Draft { pool, .. } => out.extend(pool.kinds().into_iter().map(Action::DraftPermit)),
            Phase::Events { discard } => {
                if *discard > 0 {
                    out.extend(self.revealed.kinds().into_iter().map(Action::DiscardRevealed));
                    return;
                }
                for c in self.revealed.kinds() {
                    if self.keepable(rules, c) {
                        out.push(Action::KeepRevealed(c));
                    }
                }
                if self.on(V::TownHallDamage) && self.town_hall_closed.is_some() {
                    let mut pairs = Vec::new();
                    flow::pairs_of(
                        self.seats[a].hand.counts(),
                        self.p(P::TownHallReopenCards),
                        0,
                        &mut Vec::new(),
                        &mut pairs,
                    );
                    out.extend(pairs.into_iter().map(Action::ReopenTownHall));
                }
                out.push(Action::EndEvents);
            }
            Phase::Draw => {
                out.push(Action::DrawResources);
                if self.town_hall_open() {
                    out.extend(self.face_up_permits().into_iter().map(Action::TakeFaceUpPermit));
                    if self.on(V::OpenPermits) {
                        out.extend(self.permit_deck.kinds().into_iter().map(Action::ChoosePermit));
                    } else if self.permit_deck_draw_open() {
                        out.push(Action::DrawPermits);
                    }
                }
                // the Bank's draw replaces the normal one (bank-draw: instead); it
                // lapses with an empty permit deck
                let bank = self.owns_intact(rules, a, Ability::Bank) > 0;
                if bank && self.r::<BankDraw>() == BankDraw::Instead && !self.permit_deck.is_empty() {
                    out.push(Action::BankDraw);
                }
                self.face_up_plays(rules, out);
            }
            Phase::DrawKeep { offered } => out.extend(offered.kinds().into_iter().map(Action::KeepPermit)),
            Phase::Build => {
                self.build_actions(rules, out, builds);
                let before_face_up = out.len();
                self.face_up_plays(rules, out);
                // what `any_face_up_playable` would list again
                let face_up_playable = out.len() > before_face_up;
                let hand = &self.seats[a].hand;
                for (k, &n) in rules.cards().zip(hand.counts()) {
                    if n == 0 || self.face_up.contains(&k) {
                        continue;
                    }
                    match rules.event_of(k).map(|e| rules.events[e].triangle) {
                        Some(Triangle::Violet) if self.influence_playable(rules, k).is_none() => {
                            out.push(Action::PlayInfluence(k))
                        }
                        Some(Triangle::Red) => self.disaster_plays(rules, k, out),
                        _ => {}
                    }
                }
                debug_assert_eq!(face_up_playable, self.any_face_up_playable(rules));
                if !face_up_playable {
                    out.push(Action::EndBuild);
                }
            }
            Phase::Discard => {
                for (k, &n) in rules.cards().zip(self.seats[a].hand.counts()) {
                    if n > 0 {
                        out.push(Action::Discard(k));
                    }
                }
                out.push(Action::EndTurn);
            }
            Phase::NextTurn => out.push(Action::StartTurn),
            Phase::TurnStart | Phase::Reward | Phase::Over => {}
        }
    }

    /// The `Build` actions in the build phase (none if `!builds`, though the
    /// terms of payment are read either way): building, then plot, then
    /// payment in `payment.rs` order.
    fn build_actions(&self, rules: &Rules, out: &mut Vec<Action>, builds: bool) {
        let terms = self.terms(rules);
        if !builds {
            return;
        }
        let mut built: SmallVec<[bool; 32]> = SmallVec::from_elem(false, rules.buildings.len());
        for p in self.board.iter().flatten() {
            if let Some(x) = built.get_mut(p.building.index()) {
                *x = true;
            }
        }
        let mut payments = Vec::with_capacity(64);
        for b in rules.buildings() {
            if self.surely_blocked(rules, b, built[b.index()]) || self.build_blocker(rules, b).is_some() {
                continue;
            }
            let plots: SmallVec<[Plot; 32]> = rules.plots().filter(|&p| self.fits(rules, b, p)).collect();
            let Some((&last, others)) = plots.split_last() else {
                continue;
            };
            payments.clear();
            payment::enumerate(
                rules,
                &terms,
                &self.needs(rules, b),
                self.seats[self.active].hand.counts(),
                &mut payments,
            );
            out.reserve(plots.len() * payments.len());
            for &plot in others {
                out.extend(payments.iter().map(|p| Action::Build { building: b, plot, payment: p.clone() }));
            }
            // the last plot takes the payments themselves
            out.extend(payments.drain(..).map(|payment| Action::Build { building: b, plot: last, payment }));
        }
    }

    /// Whether one of the first three checks of `build_blocker` (placed at
    /// set-up, built with no `repeat:`, no permit) stops `b`: the same tests in the same
    /// order, consulting the same reading, but without formatting a message
    /// for the many buildings that fail them.
    fn surely_blocked(&self, rules: &Rules, b: Bld, built: bool) -> bool {
        let blocked = matches!(rules.buildings[b.index()].ability, Some(Ability::Residence | Ability::TownHall))
            || (built && rules.buildings[b.index()].repeat.is_none())
            || (self.r::<Permits>() != Permits::NotNeeded && self.seats[self.active].permits.count(b) == 0);
        debug_assert!(!blocked || self.build_blocker(rules, b).is_some());
        blocked
    }

    /// `plot_fits(..).is_ok()` without formatting the reason of a misfit
    /// (most plots do not fit most buildings); tests check that they agree.
    fn fits(&self, rules: &Rules, b: Bld, plot: Plot) -> bool {
        let bd = &rules.buildings[b.index()];
        let fits = rules.plots.get(plot.index()).is_some_and(|p| {
            let is_bank = bd.ability == Some(Ability::Bank);
            self.board[plot.index()].is_none()
                && (is_bank || !p.bank)
                && (p.bank || !is_bank || self.fault == Some(Fault::BankAnywhere))
                && ((is_bank && p.bank)
                    || bd.corner == (p.kind == PlotKind::Corner)
                    || (bd.corner
                        && p.kind == PlotKind::StreetEnd
                        && self.r::<CornerAtStreetEnd>() == CornerAtStreetEnd::Allowed))
        });
        debug_assert_eq!(fits, self.plot_fits(rules, b, plot).is_ok());
        fits
    }

    /// `disaster_targets` of a red card as plays, without building the
    /// message for an empty plot: `disaster_blocker` rejects those first,
    /// before it consults any reading.
    fn disaster_plays(&self, rules: &Rules, card: CardKind, out: &mut Vec<Action>) {
        let start = out.len();
        for (i, p) in plots_of(&self.board) {
            if p.is_some() && self.disaster_blocker(rules, card, i, p).is_none() {
                out.push(Action::PlayDisaster { card, plot: i });
            }
        }
        debug_assert!(
            out[start..]
                .iter()
                .map(|a| match a {
                    Action::PlayDisaster { plot, .. } => Some(*plot),
                    _ => None,
                })
                .eq(self.disaster_targets(rules, card).into_iter().map(Some))
        );
    }

    /// Explains why an action is illegal now, naming the rule.
    fn diagnose(&self, rules: &Rules, action: &Action) -> RuleError {
        let phase_name = match &self.phase {
            Phase::TurnStart | Phase::NextTurn => "the start of the turn",
            Phase::Residence { .. } => "set-up (Residences)",
            Phase::Draft { .. } => "set-up (permit draft)",
            Phase::Events { .. } => "the event phase",
            Phase::Draw | Phase::DrawKeep { .. } => "the draw phase",
            Phase::Build => "the build phase",
            Phase::Reward => "the reward phase",
            Phase::Discard => "the discard phase",
            Phase::Over => "the end of the game",
        };
        if self.outcome.is_some() {
            return err(rules, "game.over", "the game is over");
        }
        if let Some(d) = &self.agenda.decision {
            return err(rules, "decision", format!("seat {} must first decide `{}`", d.seat() + 1, d.name()));
        }
        match action {
            Action::Build { building, plot, payment: pay } => {
                if self.phase != Phase::Build {
                    return err(
                        rules,
                        "turn.order",
                        format!("buildings are built in the build phase, not in {phase_name}"),
                    );
                }
                let Some(bd) = rules.buildings.get(building.index()) else {
                    return err(rules, "build.unique", "no such building");
                };
                if let Some((rule, msg)) = self.build_blocker(rules, *building) {
                    return err(rules, rule, msg);
                }
                if let Err(m) = self.plot_fits(rules, *building, *plot) {
                    return err(rules, "build.plot", m);
                }
                match payment::check(
                    rules,
                    &self.terms(rules),
                    &self.needs(rules, *building),
                    self.seats[self.active].hand.counts(),
                    pay,
                ) {
                    Err(m) => err(rules, "build.payment", format!("{}: {m}", bd.name)),
                    Ok(()) => err(rules, "build.payment", "the payment is not one the player can make now"),
                }
            }
            Action::DrawPermits | Action::TakeFaceUpPermit(_) | Action::ChoosePermit(_)
                if self.phase == Phase::Draw && !self.town_hall_open() =>
            {
                err(rules, "town-hall.closed", "the Town Hall is closed: no permits may be drawn")
            }
            Action::DrawPermits if self.short_permit_deck().is_some() => {
                err(rules, "draw.permit", self.short_permit_deck().unwrap_or_default())
            }
            Action::DrawPermits
            | Action::TakeFaceUpPermit(_)
            | Action::ChoosePermit(_)
            | Action::DrawResources
            | Action::BankDraw
                if self.phase == Phase::Draw =>
            {
                err(
                    rules,
                    if matches!(action, Action::BankDraw) { "draw.bank" } else { "draw.permit" },
                    "that draw is not available now",
                )
            }
            Action::PlayDisaster { card, plot } => {
                if !self.face_up_open() || (self.phase != Phase::Build && !self.face_up.contains(card)) {
                    return err(
                        rules,
                        "disaster.play",
                        format!("disasters are played in the build phase, not in {phase_name}"),
                    );
                }
                if !self.face_up.contains(card) && self.seats[self.active].hand.count(*card) == 0 {
                    return err(rules, "disaster.play", "the player holds no such card");
                }
                match self.board.get(plot.index()) {
                    None => err(rules, "disaster.play", "no such plot"),
                    Some(p) => match self.disaster_blocker(rules, *card, *plot, p) {
                        Some((rule, m)) => err(rules, rule, m),
                        None => err(rules, "disaster.play", "that card is not a disaster"),
                    },
                }
            }
            Action::PlayInfluence(card) => match self.influence_playable(rules, *card) {
                Some((rule, m)) => err(rules, rule, m),
                None => err(
                    rules,
                    "influence.play",
                    format!("influence cards are played in the build phase, not in {phase_name}"),
                ),
            },
            Action::EndBuild if self.phase == Phase::Build => err(
                rules,
                "build.end",
                "a face-up event can still be played and must be resolved before the reward phase",
            ),
            _ => err(
                rules,
                "turn.order",
                format!("`{}` is not a legal action in {phase_name}", describe_action(rules, action)),
            ),
        }
    }

    fn execute(&mut self, rules: &Rules, action: &Action, ev: &mut Vec<Event>) {
        let a = self.active;
        match action.clone() {
            Action::UseInsurance(yes) => {
                let Some(Decision::UseInsurance { seat }) = self.agenda.decision.take() else {
                    return;
                };
                if yes {
                    let c = rules.reactions[&ReactionKey::Insurance];
                    self.agenda.queue.pop_front();
                    self.use_insurance(rules, seat, c, ev);
                } else if self.r::<FireInsuranceMoment>() == FireInsuranceMoment::BeforeFirstDraw {
                    self.decline_insurance(seat);
                }
            }
            Action::UseIou(yes) => {
                let Some(Decision::UseIou { seat }) = self.agenda.decision.take() else {
                    return;
                };
                if yes && let Some(Queued::Game(Step::Take { to, .. })) = self.agenda.queue.pop_front() {
                    let c = rules.reactions[&ReactionKey::Iou];
                    self.hand_over_iou(rules, seat, to, c, ev);
                }
            }
            Action::Protect(card) => {
                let Some(Decision::Protect { seat }) = self.agenda.decision.take() else {
                    return;
                };
                if let Some(Queued::Game(Step::Take { protect, .. })) = self.agenda.queue.front_mut() {
                    *protect = card;
                }
                ev.push(Event::AceShown { seat, protected: card });
            }
            Action::Give(card) => self.give_chosen(rules, card, ev),
            Action::RewardDraw(yes) => self.reward_draw(yes, ev),
            Action::Choose { option: k, .. } => {
                let Some(Decision::Choose { choice, card, .. }) = self.agenda.decision.take() else {
                    return;
                };
                // the chosen effect runs before the steps that were already queued
                lang::chosen::<Dg>(self, rules, choice, k, card);
            }
            Action::SpreadTo(to) => {
                let Some(Decision::SpreadTo { origin, .. }) = self.agenda.decision.take() else {
                    return;
                };
                if let Some(fire) = self.fire_card(rules) {
                    self.spread_to(rules, origin, to, fire, ev);
                }
            }
            Action::PlaceResidence(plot) => {
                let Phase::Residence { seat } = self.phase else {
                    return;
                };
                let res = rules.with_ability(Ability::Residence).unwrap_or(Id::ZERO);
                let chips = self.p(P::ChipsOnResidence).min(self.seats[seat].chips.count());
                let mut on = Chips::new();
                moved(move_n(&mut self.seats[seat].chips, &mut on, CHIP, chips));
                self.board[plot.index()] = Some(Placed { building: res, owner: Some(seat), damage: None, chips: on });
                ev.push(Event::ResidencePlaced { seat, plot });
                ev.push(Event::ChipsPlaced { seat, chips });
                if seat + 1 < self.players {
                    self.phase = Phase::Residence { seat: seat + 1 };
                } else {
                    self.after_residences();
                }
            }
            Action::DraftPermit(b) => {
                let Phase::Draft { seat, mut pool, picks } = std::mem::replace(&mut self.phase, Phase::Over) else {
                    return;
                };
                moved(move_n(&mut pool, &mut self.seats[seat].permits, b, 1));
                ev.push(Event::Drafted { seat, building: b });
                let picks = picks + 1;
                if picks >= self.draft_count() * self.players as u32 || pool.is_empty() {
                    move_all(&mut pool, &mut self.permit_discard);
                    self.phase = Phase::NextTurn;
                } else {
                    let next = (seat + self.players - 1) % self.players;
                    self.phase = Phase::Draft { seat: next, pool, picks };
                }
            }
            Action::DiscardRevealed(c) => {
                moved(move_n(&mut self.revealed, &mut self.event_discard, c, 1));
                ev.push(Event::RevealedDiscarded { card: c });
                if let Phase::Events { discard } = &mut self.phase {
                    *discard -= 1;
                }
            }
            Action::KeepRevealed(c) => {
                moved(move_n(&mut self.revealed, &mut self.seats[a].hand, c, 1));
                ev.push(Event::Kept { seat: a, card: c });
            }
            Action::ReopenTownHall(cards) => {
                for (c, n) in cards {
                    for _ in 0..n {
                        self.discard_from_hand(rules, a, c, 1);
                        ev.push(Event::Discarded { seat: a, card: c });
                    }
                }
                self.reopen_town_hall(ev);
                ev.push(Event::TownHallReopened { seat: a });
            }
            Action::EndEvents => self.end_events(rules, ev),
            Action::DrawResources => {
                self.draw_resources(a, self.p(P::DrawResources), ev);
                self.after_draw(rules, ev);
            }
            Action::TakeFaceUpPermit(b) => {
                self.take_face_up_permit(a, b);
                ev.push(Event::PermitDrawn { seat: a, building: b });
                self.after_draw(rules, ev);
            }
            Action::DrawPermits => self.draw_permits(rules, a, ev),
            Action::KeepPermit(b) => {
                let Phase::DrawKeep { mut offered } = std::mem::replace(&mut self.phase, Phase::Draw) else {
                    return;
                };
                moved(move_n(&mut offered, &mut self.seats[a].permits, b, 1));
                ev.push(Event::PermitDrawn { seat: a, building: b });
                ev.extend(offered.iter().map(|&o| Event::PermitDiscarded { building: o }));
                move_all(&mut offered, &mut self.permit_discard);
                self.after_draw(rules, ev);
            }
            Action::ChoosePermit(b) => {
                moved(move_n(&mut self.permit_deck, &mut self.seats[a].permits, b, 1));
                ev.push(Event::PermitDrawn { seat: a, building: b });
                self.after_draw(rules, ev);
            }
            Action::BankDraw => {
                self.bank_draw(ev);
                self.cursor.finish();
            }
            Action::Build { building, plot, payment: pay } => self.build(rules, building, plot, &pay, ev),
            Action::PlayInfluence(c) => {
                self.play_event_card(a, c, true);
                let e = rules.event_of(c).expect("legal influence cards are events");
                ev.push(Event::InfluencePlayed { seat: a, card: c });
                let p = &mut self.seats[a];
                let place = 1u32.min(p.chips.count());
                moved(move_n(&mut p.chips, &mut p.card_chips, CHIP, place));
                ev.push(Event::ChipsPlaced { seat: a, chips: place });
                self.pending_rewards.extend(rules.events[e].rewards.iter().copied());
            }
            Action::PlayDisaster { card, plot } => {
                self.play_event_card(a, card, false);
                ev.push(Event::DisasterPlayed { seat: a, card, plot });
                self.target = Some(plot);
                let e = rules.event_of(card).expect("legal disasters are events");
                self.expand(rules, self.effect_of(rules, e), card);
            }
            Action::Resolve { card, plot } => {
                moved(move_n(&mut self.face_up, &mut self.event_discard, card, 1));
                ev.push(Event::EventResolved { seat: a, card });
                self.target = plot;
                let e = rules.event_of(card).expect("face-up cards are events");
                self.expand(rules, self.effect_of(rules, e), card);
            }
            Action::EndBuild => self.cursor.finish(),
            Action::Discard(c) => {
                self.discard_from_hand(rules, a, c, 1);
                ev.push(Event::Discarded { seat: a, card: c });
            }
            Action::EndTurn => self.cursor.finish(),
            Action::StartTurn => self.start_turn(rules, ev),
        }
        self.run(rules, ev);
        // an effect's target stays while its steps run (a `choose` option expands later)
        if self.agenda.is_idle() {
            self.target = None;
        }
        if self.agenda.decision.is_none()
            && self.agenda.queue.is_empty()
            && matches!(self.phase, Phase::Events { .. })
            && self.revealed.is_empty()
            && self.town_hall_closed.is_none()
            && self.outcome.is_none()
        {
            // nothing left to do in the event phase
            if matches!(action, Action::DiscardRevealed(_) | Action::KeepRevealed(_) | Action::ReopenTownHall(_)) {
                self.end_events(rules, ev);
            }
        }
        self.drive(rules, ev);
        if self.agenda.decision.is_none() && (self.phase == Phase::Build || self.fault == Some(Fault::WinOutsideBuild))
        {
            self.check_win(rules, ev);
        }
    }

    /// Plays an event card from the face-up row if it lies there, else from
    /// hand: in front of `seat` as influence, or as a disaster about to strike.
    fn play_event_card(&mut self, seat: usize, c: CardKind, influence: bool) {
        let p = &mut self.seats[seat];
        let to = if influence { &mut p.influence } else { &mut self.played };
        moved(if self.face_up.contains(&c) {
            move_n(&mut self.face_up, to, c, 1)
        } else {
            move_n(&mut p.hand, to, c, 1)
        });
    }

    fn build(&mut self, rules: &Rules, b: Bld, plot: Plot, pay: &Payment, ev: &mut Vec<Event>) {
        let a = self.active;
        let mut paid: BTreeMap<CardKind, u8> = BTreeMap::new();
        for &(r, n) in &pay.direct {
            *paid.entry(r.lift()).or_default() += n;
        }
        if let Some(h) = rules.reactions.get(&ReactionKey::Handyman) {
            let n: u8 = pay.handyman.iter().map(|(_, n)| n).sum();
            if n > 0 {
                *paid.entry(*h).or_default() += n;
            }
        }
        for &(c, n) in &pay.cards {
            *paid.entry(c).or_default() += n;
        }
        for (&c, &n) in &paid {
            self.discard_from_hand(rules, a, c, u32::from(n));
        }
        self.store_used += pay.store.iter().map(|(_, n)| u32::from(*n)).sum::<u32>();
        ev.push(Event::CardsPaid { seat: a, cards: paid.into_iter().collect() });
        self.spend_permit(a, b, ev);
        let inf = rules.buildings[b.index()].influence;
        let reserve = &mut self.seats[a].chips;
        let chips = inf.min(reserve.count());
        let standing = if self.fault == Some(Fault::ChipLeak) { chips.saturating_sub(1) } else { chips };
        let mut on = Chips::new();
        moved(move_n(reserve, &mut on, CHIP, standing));
        // the fault's missing chip goes into a supply no conservation check declares
        moved(move_n(reserve, &mut Supply::new(), CHIP, chips - standing));
        self.board[plot.index()] = Some(Placed { building: b, owner: Some(a), damage: None, chips: on });
        self.built_this_turn.push(plot);
        ev.push(Event::Built { seat: a, building: b, plot });
        ev.push(Event::ChipsPlaced { seat: a, chips });
    }
}

impl Steps for State {
    type Step = Queued;
    type Decision = Decision;
    type Rules = Rules;
    type Event = Event;
    fn agenda(&mut self) -> &mut Agenda<Queued, Decision> {
        &mut self.agenda
    }
    fn step(&mut self, rules: &Rules, step: Queued, ev: &mut Vec<Event>) {
        lang::step::<Dg>(self, rules, step, ev);
    }
}
