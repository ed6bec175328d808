//! The Dodge City state: players, the town, the decks, the round's phase
//! and what is pending; set-up, and the money and token moves every phase
//! shares (income, payment and debt, the half-price sale, removals).
//! `play.rs` holds legality and `apply`, `round.rs` the Marshal reveal,
//! the duels, scoring and the next round.

use serde::{Deserialize, Serialize};

pub use super::action::Action;
use super::effects::{Choosing, Dc, DcStep, Queued};
use super::invariants::Fault;
use super::readings::*;
use super::rules_data::*;
use super::scenario_io::Conserved;
use crate::engine::{
    Bounds, Chance, Config, ConfigError, Counter, Cursor, Display, EndReason, Holds, Hook, Id, Multiset, Pile,
    Readings, Reads, RuleError, Seat, Stack, Touched, WhenEmpty, move_n, moved,
};
use crate::lang::declared::Act;
use crate::lang::{self, Agenda};

/// Money is never below zero (a debt is paid by selling tokens, Beschreibung 4).
pub const MONEY: Bounds = match Bounds::new(0, 1_000_000_000) {
    Some(b) => b,
    None => Bounds::UNBOUNDED,
};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Player {
    pub hand: Multiset<kind::Card>,
    /// The card laid face down in the Marshal round, until all have chosen.
    pub picked: Option<CardId>,
    pub money: Counter,
    /// Tokens of his colour beside the board.
    pub supply: Stack<kind::Token>,
    /// Tokens out of the game (`removed-tokens: out-of-game`).
    pub out: Stack<kind::Token>,
    pub points: u32,
    pub discs: Vec<Sym>,
    /// What he still owes (`event-debt: debt-carried`), paid from income.
    pub carried: u32,
    /// Cards played this round.
    pub played: u32,
    /// Took part in a duel this round.
    pub fought: bool,
}

impl Player {
    /// A player at set-up: an empty hand of `cards` kinds, `money` dollars
    /// and `supply` tokens beside the board.
    fn new(cards: usize, seat: Seat, money: i32, supply: u32) -> Player {
        Player {
            hand: Multiset::new(cards),
            picked: None,
            money: Counter::new(MONEY, money).unwrap_or(Counter::new(MONEY, 0).expect("0 is money")),
            supply: Stack::of(colour(seat), supply),
            out: Stack::new(),
            points: 0,
            discs: Vec::new(),
            carried: 0,
            played: 0,
            fought: false,
        }
    }
}

/// One building of the town.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Town {
    pub in_play: bool,
    pub symbol: Option<Sym>,
    pub closed: bool,
    /// The disc it was scored for, and by whom.
    pub disc: Option<(Sym, Seat)>,
    /// The token on each square, of its owner's colour.
    pub tokens: Display<kind::Token>,
}

impl Town {
    /// The seat whose token stands on square `sq`.
    pub fn owner(&self, sq: usize) -> Option<u8> {
        self.tokens.at(sq).map(|c| c.index() as u8)
    }

    /// Whose token stands on each square, in order.
    pub fn owners(&self) -> impl Iterator<Item = Option<u8>> + '_ {
        self.tokens.slots().iter().map(|c| c.map(|c| c.index() as u8))
    }
}

/// Where a symbol is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum SymbolAt {
    Free,
    On(Bld),
    Retired,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    Marshal,
    /// A placing phase (`round` 1 or 2); `turn` counts seats from the start
    /// player; `carded` once the card of the turn is played.
    Place {
        round: u8,
        turn: u8,
        carded: bool,
    },
    Duel {
        turn: u8,
    },
}

/// What the game waits for before the phase goes on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Pending {
    /// A picture card: choose the building (an empty one to lay `symbol` on).
    Open { symbol: Option<Sym>, tokens: u32 },
    /// Tokens of a picture card still to place in `building`.
    Free { building: Bld, left: u32 },
    /// An Indio's removals still to make (`victim` once one is chosen, for `one-opponent`).
    Indio { left: u32, victim: Option<u8> },
    /// A duel's winner takes one of the loser's tokens in `building`.
    Take { winner: u8, loser: u8, building: Bld },
    /// `seat` picks an option of the `choose` the agenda waits for.
    Choose { seat: u8 },
}

impl Pending {
    /// A picture card's `tokens` to place in `building`: none where it
    /// gives no token (a count of 0 a house rule may set).
    pub fn free(building: Bld, tokens: u32) -> Option<Pending> {
        (tokens > 0).then_some(Pending::Free { building, left: tokens })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum End {
    Goal,
    DeckOut,
    Cap,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Event {
    Picked { seat: usize },
    Revealed { cards: Vec<(usize, CardId)>, start: usize },
    Played { seat: usize, card: CardId },
    Income { seat: usize, dollars: u32, to_debt: u32 },
    Charged { seat: usize, dollars: u32, paid: u32 },
    SymbolLaid { symbol: Sym, building: Bld },
    Placed { seat: usize, building: Bld, square: Sq, price: Option<u32> },
    Lapsed { seat: usize, what: &'static str },
    Removed { owner: usize, building: Bld, square: Sq, out_of_game: bool },
    Returned { seat: usize, building: Bld, tokens: u32 },
    EventDrawn { seat: usize, event: Ev },
    Sold { seat: usize, building: Bld, square: Sq, dollars: u32 },
    Chose { seat: usize, choice: u32, option: u32 },
    DebtLeft { seat: usize, dollars: u32, carried: bool },
    Challenged { seat: usize, opponent: usize, building: Bld, cards: (CardId, CardId) },
    DuelWon { winner: usize, loser: usize },
    DuelDrawn,
    Passed { seat: usize },
    Declined { seat: usize },
    ActionTaken { seat: usize, action: Act },
    Scored { seat: usize, building: Bld, symbol: Sym, points: u32 },
    NewRound { round: u32, reshuffled: bool },
    GameOver { reason: EndReason },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub players: usize,
    pub readings: Readings,
    pub chance: Chance,
    pub round: u32,
    pub round_cap: u32,
    /// The start player (the Marshal) of the round.
    pub start: Seat,
    pub phase: Phase,
    pub seats: Vec<Player>,
    pub town: Vec<Town>,
    pub symbols: Vec<SymbolAt>,
    pub discs_left: Vec<u32>,
    pub deck: Pile<kind::Card>,
    pub discard: Pile<kind::Card>,
    /// The Marshal-round cards lying face down until all have chosen.
    pub table: Pile<kind::Card>,
    pub events: Pile<kind::EventCard>,
    pub event_discard: Pile<kind::EventCard>,
    /// Front first.
    pub pending: Vec<Pending>,
    /// Players who must sell tokens, with what they still owe; front first.
    pub debts: Vec<(u8, u32)>,
    /// Tokens put into each building this turn (what the limit counts).
    pub this_turn: Vec<u32>,
    pub turn_total: u32,
    /// The steps of the effects under way, and the `choose` they wait for
    /// (then also `Pending::Choose` at the front of `pending`).
    pub agenda: Agenda<Queued, Choosing>,
    /// The player an effect runs for.
    pub actor: Seat,
    /// The declared actions the seat on turn has taken this turn (each is
    /// offered once a turn).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub acted: Vec<Act>,
    #[serde(skip)]
    pub each: Option<Seat>,
    pub over: Option<End>,
    /// Where the round stands among the catalog's steps.
    pub cursor: Cursor,
    #[serde(skip)]
    pub touched: Touched,
    /// The conservation checks' answers, kept with their zones' stamps.
    #[serde(skip)]
    pub conserved: Conserved,
    pub fault: Option<Fault>,
}

/// The copies of each card, then of each event card, as `readings` sets
/// them (counted in that order: cards first).
fn totals(rules: &Rules, readings: &Readings) -> (Vec<u32>, Vec<u32>) {
    let n = rules.cards.len() as u32;
    let cards = rules.cards.iter().zip(0..).map(|(c, i)| readings.count(i).unwrap_or(c.copies)).collect();
    let events = rules.events.iter().zip(n..).map(|(e, i)| readings.count(i).unwrap_or(e.copies)).collect();
    (cards, events)
}

/// The deck and the event deck of `totals`, shuffled; refused where the
/// game cannot play with them: the catalog's own numbers were checked at
/// load, a reading's are checked here, with the others of the
/// configuration (the hand a reading may set too; `Readings::resolve`
/// held each number to its range before).
fn decks(
    rules: &Rules,
    readings: &Readings,
    players: u32,
    chance: &mut Chance,
) -> Result<(Pile<kind::Card>, Pile<kind::EventCard>), ConfigError> {
    let (cards, events) = totals(rules, readings);
    let hand = readings.param(P::Hand as usize);
    let deck = cards.iter().sum::<u32>();
    if deck < hand.saturating_mul(players) {
        let why = format!("the deck holds {deck} cards, fewer than {players} hands of {hand}");
        return Err(ConfigError::Numbers(why));
    }
    if events.iter().all(|&c| c == 0) {
        return Err(ConfigError::Numbers("the event deck holds no card".into()));
    }
    let (mut deck, mut event_deck) = (Pile::from_counts(&cards), Pile::from_counts(&events));
    deck.shuffle(chance);
    event_deck.shuffle(chance);
    Ok((deck, event_deck))
}

pub(super) fn err(rules: &Rules, rule: R, msg: impl Into<String>) -> RuleError {
    rules.rule_book.error(rule, msg)
}

impl Reads for State {
    type Param = P;
    fn reads(&self) -> (&Readings, &Touched) {
        (&self.readings, &self.touched)
    }
}

impl State {
    pub fn setup(rules: &Rules, config: &Config) -> Result<State, ConfigError> {
        let n = config.players;
        let entity = |e: u32| rules.events.get(e as usize).map_or_else(String::new, |e| e.id.clone());
        let readings = rules.resolve(config, &entity)?;
        let params = readings.params.clone();
        let param = |k: P| params.get(k as usize).copied().unwrap_or(0);
        let players = n as usize;
        let mut chance = Chance::new(config.seed);
        let (deck, events) = decks(rules, &readings, n, &mut chance)?;
        let in_play = rules.in_play.get(&n).cloned().unwrap_or_default();
        let money = i32::try_from(param(P::Money)).unwrap_or(i32::MAX).min(MONEY.max());
        let seats = (0..players).map(|seat| Player::new(rules.cards.len(), seat, money, param(P::Tokens))).collect();
        let town = rules
            .buildings
            .iter()
            .enumerate()
            .map(|(i, b)| Town {
                in_play: in_play.iter().any(|x| x.index() == i),
                symbol: None,
                closed: false,
                disc: None,
                tokens: Display::new(b.grid.squares().len()),
            })
            .collect();
        let mut s = State {
            players,
            readings,
            chance,
            round: 0,
            round_cap: config.turn_cap.unwrap_or(param(P::RoundCap)).max(1),
            start: 0,
            phase: Phase::Marshal,
            seats,
            town,
            symbols: vec![SymbolAt::Free; rules.symbols.len()],
            discs_left: rules.symbols.iter().map(|s| s.discs).collect(),
            deck,
            discard: Pile::new(),
            table: Pile::new(),
            events,
            event_discard: Pile::new(),
            pending: Vec::new(),
            debts: Vec::new(),
            this_turn: vec![0; rules.buildings.len()],
            turn_total: 0,
            agenda: Agenda::default(),
            actor: 0,
            acted: Vec::new(),
            each: None,
            over: None,
            cursor: Cursor::default(),
            touched: Touched::default(),
            conserved: Default::default(),
            fault: None,
        };
        // the decks are made of every card's copies, which a reading may set
        rules.declared.count_points().for_each(|p| s.touched.mark(p));
        let mut ev = Vec::new();
        s.deal(rules, &mut ev);
        s.drive(rules, &mut ev);
        Ok(s)
    }

    /// The copies of each card and of each event card the game has: the
    /// catalog's, or what the configuration sets (`Readings::counts`).
    pub fn card_totals(&self, rules: &Rules) -> (Vec<u32>, Vec<u32>) {
        totals(rules, &self.readings)
    }

    /// How the configuration reads hook `H` where it decides something
    /// (`decides`), recorded as consulted only there; `None` elsewhere.
    pub(crate) fn r_if<H: Hook>(&self, decides: bool) -> Option<H> {
        decides.then(|| self.r::<H>())
    }

    /// The seat `i` places after the start player.
    pub fn seat_at(&self, i: usize) -> Seat {
        (self.start + i) % self.players.max(1)
    }

    /// The seat whose turn it is in a placing or duel phase.
    pub fn active_seat(&self) -> Seat {
        match self.phase {
            Phase::Place { turn, .. } | Phase::Duel { turn } => self.seat_at(usize::from(turn)),
            Phase::Marshal => self.start,
        }
    }

    pub fn tokens_in(&self, b: Bld, seat: Seat) -> u32 {
        self.town.get(b.index()).map_or(0, |t| t.tokens.count(colour(seat)))
    }

    pub fn tokens_in_town(&self, seat: Seat) -> u32 {
        self.town.iter().map(|t| t.tokens.count(colour(seat))).sum()
    }

    /// Dollars one token costs in building `b`.
    pub fn price(&self, rules: &Rules, b: Bld) -> u32 {
        match self.town.get(b.index()).and_then(|t| t.symbol) {
            Some(s) => rules.symbol(s).price,
            None => rules.cheapest_price(),
        }
    }

    // ------------------------------------------------------------ money

    /// Money from the bank; a carried debt is paid from it first.
    pub(super) fn income(&mut self, _: &Rules, seat: Seat, dollars: u32, ev: &mut Vec<Event>) {
        let p = &mut self.seats[seat];
        let to_debt = p.carried.min(dollars);
        p.carried -= to_debt;
        let rest = dollars - to_debt;
        let room = (MONEY.max() - p.money.value()).max(0) as u32;
        let _ = p.money.add(i64::from(rest.min(room)));
        ev.push(Event::Income { seat, dollars, to_debt });
    }

    /// A payment to the bank: what money does not cover is a debt, paid by
    /// selling tokens at half price (Beschreibung 4).
    pub(super) fn pay(&mut self, rules: &Rules, seat: Seat, dollars: u32, ev: &mut Vec<Event>) {
        if self.fault == Some(Fault::NegativeMoney) {
            let m = &mut self.seats[seat].money;
            *m = Counter::new(Bounds::UNBOUNDED, m.value()).unwrap_or(*m);
            let _ = m.add(-i64::from(dollars));
            return ev.push(Event::Charged { seat, dollars, paid: dollars });
        }
        let have = self.seats[seat].money.value().max(0) as u32;
        let paid = have.min(dollars);
        let _ = self.seats[seat].money.add(-i64::from(paid));
        ev.push(Event::Charged { seat, dollars, paid });
        if dollars > paid {
            self.owe(rules, seat, dollars - paid, ev);
        }
    }

    fn owe(&mut self, rules: &Rules, seat: Seat, owed: u32, ev: &mut Vec<Event>) {
        if self.tokens_in_town(seat) == 0 {
            return self.unpaid(seat, owed, ev);
        }
        match self.r::<SaleChoice>() {
            SaleChoice::PlayerChooses => self.debts.push((seat as u8, owed)),
            SaleChoice::CheapestFirst => {
                let mut owed = owed;
                while owed > 0 {
                    let Some((b, sq)) = self.cheapest_token(rules, seat) else { break };
                    owed = self.sell(rules, seat, b, sq, owed, ev);
                }
                if owed > 0 {
                    self.unpaid(seat, owed, ev);
                }
            }
        }
    }

    /// The seat's token in the cheapest building (then the first building
    /// and square): where `cheapest-first` sells.
    fn cheapest_token(&self, rules: &Rules, seat: Seat) -> Option<(Bld, Sq)> {
        let mut best: Option<(u32, Bld, Sq)> = None;
        for (i, t) in self.town.iter().enumerate() {
            let b = Id::new(i).ok()?;
            let Some(sq) = t.owners().position(|o| o == Some(seat as u8)) else { continue };
            let price = self.price(rules, b);
            if best.is_none_or(|(p, _, _)| price < p) {
                best = Some((price, b, Id::new(sq).ok()?));
            }
        }
        best.map(|(_, b, s)| (b, s))
    }

    /// Sells one token for half its price against a debt of `owed`; returns
    /// what is still owed (a surplus goes to the player's money).
    pub(super) fn sell(&mut self, rules: &Rules, seat: Seat, b: Bld, sq: Sq, owed: u32, ev: &mut Vec<Event>) -> u32 {
        let dollars = self.price(rules, b) * self.p(P::SalePercent) / 100;
        moved(self.town[b.index()].tokens.take_slot(sq.index(), &mut self.seats[seat].supply));
        ev.push(Event::Sold { seat, building: b, square: sq, dollars });
        if dollars >= owed {
            let _ = self.seats[seat].money.add(i64::from(dollars - owed));
            0
        } else {
            owed - dollars
        }
    }

    /// A debt nothing is left to pay.
    pub(super) fn unpaid(&mut self, seat: Seat, owed: u32, ev: &mut Vec<Event>) {
        let carried = match self.r::<EventDebt>() {
            EventDebt::DebtForgiven => false,
            EventDebt::DebtCarried => {
                self.seats[seat].carried += owed;
                true
            }
        };
        ev.push(Event::DebtLeft { seat, dollars: owed, carried });
    }

    // ------------------------------------------------------------ tokens

    /// A token removed by an Indio or lost in a duel (`removed-tokens`), and
    /// what becomes of the chain it broke (`broken-chain-after-removal`).
    pub(super) fn remove_token(&mut self, rules: &Rules, b: Bld, sq: Sq, ev: &mut Vec<Event>) {
        let Some(owner) = self.town[b.index()].owner(sq.index()) else { return };
        let owner = usize::from(owner);
        let out_of_game = self.r::<RemovedTokens>() == RemovedTokens::OutOfGame;
        let (p, tokens) = (&mut self.seats[owner], &mut self.town[b.index()].tokens);
        moved(tokens.take_slot(sq.index(), if out_of_game { &mut p.out } else { &mut p.supply }));
        ev.push(Event::Removed { owner, building: b, square: sq, out_of_game });
        if self.r::<BrokenChain>() == BrokenChain::LargestPieceStays {
            let grid = &rules.building(b).grid;
            let town = &self.town[b.index()];
            let mine = |s: Sq| (town.owner(s.index()) == Some(owner as u8)).then_some(());
            let mut pieces: Vec<Vec<Sq>> = grid.chains(mine).into_iter().map(|(_, c)| c).collect();
            if pieces.len() > 1 {
                let keep = (0..pieces.len()).max_by_key(|&i| (pieces[i].len(), usize::MAX - i)).unwrap_or(0);
                pieces.remove(keep);
                let back: Vec<Sq> = pieces.into_iter().flatten().collect();
                for s in &back {
                    moved(self.town[b.index()].tokens.take_slot(s.index(), &mut self.seats[owner].supply));
                }
                ev.push(Event::Returned { seat: owner, building: b, tokens: back.len() as u32 });
            }
        }
    }

    // ------------------------------------------------------------ cards

    /// A card from the deck into `seat`'s hand (the discard pile is shuffled in when it is empty).
    pub(super) fn draw_card(&mut self, seat: Seat, _: &mut Vec<Event>) {
        let _ = self.deck.draw(&mut self.discard, WhenEmpty::Reshuffle, &mut self.chance, &mut self.seats[seat].hand);
    }

    /// A card passes from one hand to another (or out of play, onto the
    /// discard pile): the one named, if held, or one at random, every card
    /// held equally likely (a forced outcome names its id).
    pub(super) fn move_card(&mut self, rules: &Rules, from: Seat, to: Option<Seat>, card: Option<CardId>) {
        let hand = &self.seats[from].hand;
        let k = match card {
            Some(c) => (hand.count(c) > 0).then_some(c),
            None => hand.pick(&[], &mut self.chance, &|c| rules.card(c).id.clone()),
        };
        let Some(k) = k else {
            return;
        };
        match to {
            Some(t) if t != from => {
                if let Ok([f, t]) = self.seats.get_disjoint_mut([from, t]) {
                    let _ = move_n(&mut f.hand, &mut t.hand, k, 1);
                }
            }
            Some(_) => {}
            None => {
                let _ = move_n(&mut self.seats[from].hand, &mut self.discard, k, 1);
            }
        }
    }

    /// A played card leaves the hand for the discard pile.
    pub(super) fn discard_card(&mut self, seat: Seat, card: CardId) {
        let _ = move_n(&mut self.seats[seat].hand, &mut self.discard, card, 1);
    }

    /// `seat` draws an event card and its effect runs for him; while
    /// another effect waits for a choice, the draw waits behind it.
    pub(super) fn draw_event(&mut self, rules: &Rules, seat: Seat, ev: &mut Vec<Event>) {
        self.agenda.queue.push_back(Queued::Game(DcStep::Event { seat }));
        self.resolve(rules, ev);
    }

    /// The event card drawn now: its effect goes in front of what the
    /// agenda still holds.
    pub(super) fn event_now(&mut self, rules: &Rules, seat: Seat, ev: &mut Vec<Event>) {
        let mut drawn = Pile::new();
        let got = self.events.draw(&mut self.event_discard, WhenEmpty::Reshuffle, &mut self.chance, &mut drawn);
        let Some(e) = got.card else { return };
        crate::engine::move_all(&mut drawn, &mut self.event_discard);
        ev.push(Event::EventDrawn { seat, event: e });
        let effect = rules.effect_of(self, e.index(), &rules.events[e.index()].effect);
        self.actor = seat;
        let rest = std::mem::take(&mut self.agenda.queue);
        lang::expand::<Dc>(self, rules, effect, e);
        self.agenda.queue.extend(rest);
    }

    /// Runs the agenda's steps until it is empty or a `choose` waits; a
    /// waiting choice goes to the front of `pending`, for its player.
    pub(super) fn resolve(&mut self, rules: &Rules, ev: &mut Vec<Event>) {
        if self.agenda.decision.is_some() {
            return;
        }
        lang::run(self, rules, ev);
        if let Some(d) = self.agenda.decision {
            self.pending.insert(0, Pending::Choose { seat: d.seat });
        }
    }

    /// The pending `choose` is answered with option `option`: its effect
    /// runs before the rest of the effect it came from.
    pub(super) fn chosen(&mut self, rules: &Rules, option: u32, ev: &mut Vec<Event>) {
        let Some(d) = self.agenda.decision.take() else { return };
        if matches!(self.pending.first(), Some(Pending::Choose { .. })) {
            self.pending.remove(0);
        }
        let seat = usize::from(d.seat);
        ev.push(Event::Chose { seat, choice: d.choice, option });
        self.actor = seat;
        lang::chosen::<Dc>(self, rules, d.choice, option, d.source);
        self.resolve(rules, ev);
    }

    /// Deals every player a new hand (the first round, and after scoring).
    pub(super) fn deal(&mut self, rules: &Rules, ev: &mut Vec<Event>) {
        let hand = self.p(P::Hand);
        let mut reshuffled = false;
        for i in 0..self.players {
            let seat = self.seat_at(i);
            for _ in 0..hand {
                let d = self.deck.draw(
                    &mut self.discard,
                    WhenEmpty::Reshuffle,
                    &mut self.chance,
                    &mut self.seats[seat].hand,
                );
                reshuffled |= d.reshuffled;
            }
        }
        let _ = rules;
        self.round += 1;
        ev.push(Event::NewRound { round: self.round, reshuffled });
    }
}
