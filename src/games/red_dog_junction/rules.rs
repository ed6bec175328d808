//! The Red Dog Junction state machine: set-up, the two actions of a turn
//! (each crew action a short phase of single choices, so the legal list is
//! complete), the end of a turn (jettison, refill), chance nodes for the
//! dice, the end and the scoring.

use serde::{Deserialize, Serialize};
use smallvec::SmallVec;

use super::effects::{Choosing, Queued};
use super::readings::*;
use super::repeats::Repeats;
use super::rules_data::*;
use crate::engine::{
    Chance, Config, ConfigError, Display, Id, Multiset, Occupancy, Pile, Readings, Reads, RuleError, Supply, Touched,
    WhenEmpty, Why, move_n,
};
use crate::lang::Agenda;
use crate::lang::declared::Act;

pub type Cubes = Multiset<Cube, 8>;
pub type Cards = Multiset<Card, 16>;
/// A count per card type that is not a zone (a mark on a zone's copies),
/// inline like `Cards`, so a state clone does not allocate for it.
pub type Marks = SmallVec<[u8; 16]>;

/// Where a phase of the turn stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// The active player picks an action (or the turn's end is due).
    Actions,
    /// Loading and unloading at the home base, one cube at a time.
    Loading,
    /// Salvaging: `left` cubes may still be taken from space.
    Salvage { left: u8 },
    /// Agents: `left` trades or nudges remain.
    Agents { left: u8 },
    /// Swapping with `with`: `left` cubes each way remain; `give` is the
    /// cube chosen to give, waiting for the cube taken back.
    Swap { with: u8, left: u8, give: Option<Id<Cube>> },
    /// The end of the turn: cargo above capacity goes to space.
    Jettison,
    /// The Automa's turn waits for the solo player to pick where its ship
    /// docks: a free Junction dock (an Agent) or planet (a Miner).
    Automa(Errand),
    /// Set-up, Trail Boss: the active seat picks an extra crew card from the deck.
    Extra,
    /// Set-up, Posse: the active seat picks a card from its draft hand.
    Draft,
}

/// Where the solo player sends the Automa's ship.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Errand {
    /// A free Junction dock, where it trades its cargo for gold.
    Trade,
    /// An unoccupied planet, where it mines.
    Mine,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum End {
    Countdown,
    DeckOut,
    TurnCap,
}

/// An action written with catalog ids.
// Composite actions (loading, salvage, agents, swap) open a phase of single
// choices closed by `Done`; the whole is one action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
#[schemars(rename = "ActionSpec")]
pub enum Action {
    // A chance outcome: the face the next die to roll shows.
    Roll(u8),
    // A chance outcome: the seat that goes first (`first-player: rolled`).
    #[serde(with = "super::scenario_io::seat")]
    #[schemars(with = "String")]
    First(u8),
    /// A dock id or `space`.
    // The ship moves to a dock, or to space (`None`).
    #[serde(with = "super::scenario_io::dock_or_space")]
    #[schemars(with = "String")]
    Move(Option<Id<Dock>>),
    Load,
    LoadCube(Id<Cube>),
    UnloadCube(Id<Cube>),
    // Mine this many cubes.
    Mine(u8),
    // Displace the ships of these seats (a bit per seat).
    #[serde(with = "super::scenario_io::seats")]
    #[schemars(with = "Vec<String>")]
    Displace(u8),
    // Swap with this seat's ship.
    #[serde(with = "super::scenario_io::seat")]
    #[schemars(with = "String")]
    Swap(u8),
    SwapGive(Id<Cube>),
    SwapTake(Id<Cube>),
    Salvage,
    SalvageCube(Id<Cube>),
    Agents,
    // A trade at the Junction: give `give`'s die value of it, take `take`'s.
    Trade {
        give: Id<Cube>,
        take: Id<Cube>,
    },
    /// A dice place (1-based), or none for the gold die.
    // Nudge the die on a place (`None`: the gold die) up or down.
    Nudge {
        #[serde(default, with = "super::scenario_io::one_based_or_none")]
        #[schemars(with = "Option<u8>")]
        place: Option<u8>,
        up: bool,
    },
    // Buy the card in a display slot, paying one of its costs (both 1-based as written).
    Buy {
        #[serde(with = "super::scenario_io::one_based")]
        #[schemars(with = "u8")]
        slot: u8,
        #[serde(with = "super::scenario_io::one_based")]
        #[schemars(with = "u8")]
        way: u8,
    },
    // The top Super Deal of a pile, at the Haberdashery.
    #[serde(with = "super::scenario_io::pile")]
    #[schemars(with = "String")]
    Deal(u8),
    // A Super Deal through a Rascal (reading `rascal-ability: haberdashery-deal`).
    #[serde(with = "super::scenario_io::pile")]
    #[schemars(with = "String")]
    RascalDeal(u8),
    Pass,
    Done,
    Jettison(Id<Cube>),
    /// The solo player's choice for the Automa: a dock id.
    Send(Id<Dock>),
    /// A set-up pick (Trail Boss, Posse): a card id.
    Pick(Id<Card>),
    /// An Officer's action: the Officer's card id.
    // Its effect.
    Officer(Id<Card>),
    /// Play a Boost: its card id.
    // Its effect, and it is discarded at the turn's end.
    Boost(Id<Card>),
    /// An option of the `choose` a card's effect waits on: the option's id.
    // `choice` and `option` are positions (0-based) in the catalog's `choose` effects.
    #[serde(with = "crate::engine::names::option")]
    #[schemars(with = "String")]
    Choose {
        choice: u16,
        option: u8,
    },
    /// An action a variant or an option declares (`actions:`), by its id:
    /// one of the turn's actions.
    #[serde(rename = "action")]
    Declared(Act),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Event {
    Rolled {
        place: u8,
        value: u8,
    },
    FirstPlayer {
        seat: usize,
    },
    Moved {
        seat: usize,
        to: Option<Id<Dock>>,
    },
    Displaced {
        seat: usize,
    },
    Cubes {
        seat: usize,
        what: &'static str,
        cube: Id<Cube>,
        n: u32,
    },
    Traded {
        seat: usize,
        give: (Id<Cube>, u32),
        take: (Id<Cube>, u32),
    },
    Nudged {
        place: Option<u8>,
        value: u8,
    },
    Bought {
        seat: usize,
        card: Id<Card>,
    },
    Deal {
        seat: usize,
        tile: Id<Tile>,
        gold: u32,
    },
    CountdownStarted {
        turns: u32,
    },
    CountdownStopped,
    TurnEnded {
        seat: usize,
    },
    /// A catalog effect (`draw`) hands a seat the deck's top card: not
    /// bought, so it carries no buy mark.
    Drew {
        seat: usize,
        card: Id<Card>,
    },
    /// The Automa takes a display card onto its crew stack (or discards a Boost).
    AutomaTakes {
        card: Id<Card>,
    },
    /// An Officer acts or a Boost is played.
    Played {
        seat: usize,
        card: Id<Card>,
    },
    /// A set-up pick of a variant.
    Picked {
        seat: usize,
        card: Id<Card>,
    },
    /// A declared action is taken.
    ActionTaken {
        seat: usize,
        action: Act,
    },
    GameOver(End),
}

/// A planted fault (tests and `fuzz --fault` only).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fault {
    MineExtraCube,
    ScrapToBank,
    DoubleDock,
    EnterForeignHome,
    NoJettison,
    ThirdAction,
    DieSeven,
    LoseBoughtCard,
    CountdownShort,
    ScoreBonus,
}

/// A state written without `first` started with p1 (serde's default).
fn player_one() -> Option<u8> {
    Some(0)
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// Seats: the players, and the Automa's seat in a solo game.
    pub players: usize,
    /// A solo game: p1 against the Automa, seat p2.
    pub solo: bool,
    pub active: usize,
    pub actions_left: u32,
    /// Actions begun this turn (for the invariant).
    pub actions_taken: u32,
    /// How often each action of the turn rule's list was begun this turn
    /// (`same-action-limit`; see `repeats::listed_action`).
    #[serde(default)]
    pub repeats: Repeats,
    pub turns: u32,
    pub phase: Phase,
    /// Dice places waiting for a roll (a chance node while not empty).
    pub rolls: Vec<u8>,
    /// The seat that goes first, or `None` while the die is to pick it (a
    /// chance node, `first-player: rolled`).
    #[serde(default = "player_one")]
    pub first: Option<u8>,
    pub space: Cubes,
    /// Cubes on each location (planets, the bank).
    pub locs: Vec<Cubes>,
    pub cargo: Vec<Cubes>,
    pub storage: Vec<Cubes>,
    /// Gold returned to the box at set-up.
    pub boxed: Cubes,
    pub ships: Vec<Option<Id<Dock>>>,
    pub occupancy: Occupancy,
    /// Value of the die on each place, and the commodity die on it.
    pub dice: Vec<u8>,
    pub die_at: Vec<u8>,
    pub gold_die: u8,
    pub deck: Pile<Card>,
    pub display: Display<Card>,
    pub discard: Pile<Card>,
    pub crew: Vec<Cards>,
    /// How many copies of each card type in its crew, or among its Boosts,
    /// each seat bought (a mark on those copies, not a zone:
    /// `unpurchased-cards-score`, `unpurchased-boosts`). A scenario's
    /// set-up `crew:` counts as bought, its `dealt:` does not.
    #[serde(default)]
    pub purchased: Vec<Marks>,
    pub boosts: Vec<Cards>,
    /// Boosts played this turn, discarded when it ends.
    pub played: Cards,
    /// The steps of the card effect being resolved and the choice it waits for.
    #[serde(default)]
    pub agenda: Agenda<Queued, Choosing>,
    /// The player a `for_each` stands at while its body expands.
    #[serde(default)]
    pub each: Option<usize>,
    /// Actions card effects added to this turn.
    pub bonus_actions: u32,
    /// The declared actions the active player has taken this turn (each
    /// is offered once a turn).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub acted: Vec<Act>,
    /// Starting cards of absent player numbers.
    pub boxed_cards: Cards,
    /// Posse draft hands (empty otherwise).
    pub hands: Vec<Cards>,
    /// Set-up picks still to make (Trail Boss, Posse).
    pub picks_left: u32,
    pub deal_piles: Vec<Pile<Tile>>,
    pub deals: Vec<Multiset<Tile, 8>>,
    pub bought: u32,
    /// Turns after which nobody wins (the configuration's, else `limits.turn_cap`).
    pub turn_cap: u32,
    /// Turns still to play once the bank's gold is gone, and the turn it went.
    pub countdown: Option<(u32, u32)>,
    pub end: Option<End>,
    pub chance: Chance,
    pub readings: Readings,
    pub fault: Option<Fault>,
    /// Cubes and cards a fault made or lost (zones the tally does not count).
    #[serde(skip)]
    pub leak: (Supply<Cube>, Supply<Card>),
    /// The conservation checks' answers (cubes, cards), kept with the stamps of their zones.
    #[serde(skip)]
    pub conserved: super::zones::Conserved,
    #[serde(skip)]
    pub touched: Touched,
}

/// A die a dock trades by: its place (`None` for the gold die), the
/// commodity it prices and the value it shows.
pub type TradeDie = (Option<u8>, Id<Cube>, u32);

pub(super) fn rule(rules: &Rules, r: R, msg: impl Into<String>) -> RuleError {
    rules.rule_book.error(r, msg)
}

/// A refusal of rule `r`, worded only when `W`
/// keeps it (`engine::Why`): the legal list asks `check::<()>`, which
/// words no error for the candidates it drops. The message is a literal,
/// so nothing is built for it; a message that must be `format!`ted goes
/// through `W::why(|| rule(..))`, which builds it only when asked.
pub(super) fn refuse<W: Why>(rules: &Rules, r: R, msg: &'static str) -> W {
    W::why(|| rule(rules, r, msg))
}

impl Reads for State {
    type Param = P;
    fn reads(&self) -> (&Readings, &Touched) {
        (&self.readings, &self.touched)
    }
}

impl State {
    pub fn setup(rules: &Rules, config: &Config) -> Result<State, ConfigError> {
        let solo = config.players == 1;
        let players = if solo { 2 } else { config.players as usize };
        let entity = |e: u32| rules.cards.get(e as usize).map_or_else(String::new, |c| c.id.clone());
        let readings = rules.resolve(config, &entity)?;
        let nc = rules.cubes.len();
        let mut s = State {
            players,
            solo,
            active: 0,
            actions_left: 0,
            actions_taken: 0,
            repeats: Repeats::default(),
            turns: 0,
            phase: Phase::Actions,
            rolls: Vec::new(),
            first: Some(0),
            space: Cubes::new(nc),
            locs: vec![Cubes::new(nc); rules.locations.len()],
            cargo: vec![Cubes::new(nc); players],
            storage: vec![Cubes::new(nc); players],
            boxed: Cubes::new(nc),
            ships: vec![None; players],
            occupancy: Occupancy::new(&rules.dock_graph),
            dice: vec![1; rules.dice.len()],
            die_at: (0..rules.dice.len() as u8).collect(),
            gold_die: rules.gold_die_start,
            deck: Pile::from_counts(&[]),
            display: Display::new(rules.display),
            discard: Pile::from_counts(&[]),
            crew: vec![Cards::new(rules.cards.len()); players],
            purchased: vec![SmallVec::from_elem(0, rules.cards.len()); players],
            boosts: vec![Cards::new(rules.cards.len()); players],
            played: Cards::new(rules.cards.len()),
            agenda: Agenda::default(),
            each: None,
            bonus_actions: 0,
            acted: Vec::new(),
            boxed_cards: Cards::new(rules.cards.len()),
            hands: vec![Cards::new(rules.cards.len()); players],
            picks_left: 0,
            deal_piles: Vec::new(),
            deals: vec![Multiset::new(rules.tiles.len()); players],
            bought: 0,
            turn_cap: config.turn_cap.unwrap_or(readings.params[P::TurnCap as usize]),
            countdown: None,
            end: None,
            chance: Chance::new(config.seed),
            readings,
            fault: None,
            leak: Default::default(),
            touched: Touched::default(),
            conserved: Default::default(),
        };
        s.actions_left = s.actions_for(0);
        s.setup_cubes(rules);
        s.setup_cards(rules);
        s.setup_board(rules);
        if s.r::<FirstPlayer>() == FirstPlayer::Rolled {
            s.first = None;
        }
        Ok(s)
    }

    fn setup_cubes(&mut self, rules: &Rules) {
        let mut make: Supply<Cube> = Supply::new();
        for c in Id::<Cube>::first(rules.cubes.len()) {
            let n = rules.cube(c).copies;
            let _ = match rules.cube(c).home {
                Home::Space => move_n(&mut make, &mut self.space, c, n),
                Home::Loc(l) => move_n(&mut make, &mut self.locs[l], c, n),
            };
        }
        let gold = rules.gold;
        let bank = rules.bank;
        let boxed = rules.gold_to_box.get(self.players).copied().unwrap_or(0);
        let boxed = boxed.min(self.locs[bank].count(gold));
        let _ = move_n(&mut self.locs[bank], &mut self.boxed, gold, boxed);
        let to_cargo = self.r::<StartingGoldWhere>() == StartingGoldWhere::Cargo;
        for seat in 0..self.players {
            let n = rules.starting_gold.get(seat).copied().unwrap_or(0).min(self.locs[bank].count(gold));
            let to = if to_cargo { &mut self.cargo[seat] } else { &mut self.storage[seat] };
            let _ = move_n(&mut self.locs[bank], to, gold, n);
        }
    }

    fn setup_cards(&mut self, rules: &Rules) {
        // the deal reads every card type's copies, which a reading may set
        rules.declared.count_points().for_each(|p| self.touched.mark(p));
        let totals = self.card_totals(rules);
        let mut deck: Pile<Card> = Pile::from_counts(&totals);
        let automa_empty = self.solo && self.r::<AutomaStartingCrew>() == AutomaStartingCrew::EmptyStack;
        for c in Id::<Card>::first(rules.cards.len()) {
            let st = rules.card(c).starting;
            for seat in 0..5 {
                let dealt = seat < self.players && !(automa_empty && self.is_automa(seat));
                let to = if dealt { &mut self.crew[seat] } else { &mut self.boxed_cards };
                let _ = move_n(&mut deck, to, c, st);
            }
        }
        deck.shuffle(&mut self.chance);
        self.deck = deck;
        if !self.start_drafts(rules) {
            self.display.refill(&mut self.deck, &mut self.discard, WhenEmpty::Stop, &mut self.chance);
        }
        let nt = rules.tiles.len();
        let mut make: Supply<Tile> = Supply::new();
        for (i, p) in rules.piles.iter().enumerate() {
            let n = self.p(if i == 0 { P::FirstPileTiles } else { P::SecondPileTiles }) as usize;
            let mut counts = vec![0u32; nt];
            for k in 0..n {
                if let Some(t) = p.tiles.get(k % p.tiles.len().max(1)) {
                    counts[t.index()] += 1;
                }
            }
            let mut pile: Pile<Tile> = Pile::from_counts(&[]);
            for t in Id::<Tile>::first(nt) {
                let _ = move_n(&mut make, &mut pile, t, counts[t.index()]);
            }
            self.deal_piles.push(pile);
        }
    }

    fn setup_board(&mut self, rules: &Rules) {
        for seat in 0..self.players {
            if let Some(home) = rules.home_of(seat) {
                let d = Id::new(rules.locations[home].first_dock).unwrap_or(Id::ZERO);
                if self.occupancy.enter(&rules.dock_graph, d).is_ok() {
                    self.ships[seat] = Some(d);
                }
            }
        }
        let mut at: Vec<u8> = vec![0; rules.dice.len()];
        for (die, &(_, place)) in rules.dice.iter().enumerate() {
            at[usize::from(place)] = die as u8;
        }
        if self.r::<DicePlacement>() == DicePlacement::RandomPlaces {
            self.chance.shuffle(&mut at);
        }
        self.die_at = at;
        self.rolls = (0..rules.dice.len() as u8).rev().collect();
    }

    // ------------------------------------------------------------ queries

    pub fn loc_of(&self, rules: &Rules, seat: usize) -> Option<usize> {
        self.ships[seat].map(|d| rules.docks[d.index()].loc)
    }
    pub fn count_ability(&self, rules: &Rules, seat: usize, a: Ability) -> u32 {
        self.crew[seat]
            .iter()
            .filter(|(c, _)| rules.card(*c).ability == a && rules.card(*c).class == Class::Crew)
            .map(|(_, n)| u32::from(n))
            .sum()
    }
    /// Whether `seat` is the Automa's (seat p2 of a solo game).
    pub fn is_automa(&self, seat: usize) -> bool {
        self.solo && seat == 1
    }
    /// The actions a turn of `seat` allows (three for the solo player).
    pub fn actions_for(&self, seat: usize) -> u32 {
        if self.solo && seat == 0 { self.p(P::SoloActions) } else { self.p(P::Actions) }
    }
    pub fn capacity(&self, rules: &Rules, seat: usize) -> u32 {
        if self.is_automa(seat) {
            return self.p(P::AutomaCapacity);
        }
        self.count_ability(rules, seat, Ability::Cargo) * self.p(P::CapacityPerCowboy)
    }
    /// The supply a commodity is obtained from and goes back to.
    pub fn home_zone(&mut self, rules: &Rules, c: Id<Cube>) -> &mut Cubes {
        if c == rules.scrap {
            return &mut self.space;
        }
        match rules.cube(c).home {
            Home::Space => &mut self.space,
            Home::Loc(l) => &mut self.locs[l],
        }
    }
    pub fn home_count(&self, rules: &Rules, c: Id<Cube>) -> u32 {
        match rules.cube(c).home {
            _ if c == rules.scrap => self.space.count(c),
            Home::Space => self.space.count(c),
            Home::Loc(l) => self.locs[l].count(c),
        }
    }
    pub fn bank_gold(&self, rules: &Rules) -> u32 {
        self.home_count(rules, rules.gold)
    }
}
