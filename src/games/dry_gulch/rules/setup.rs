//! Setting up a game of Dry Gulch: the decks and the board from the
//! catalog, the deal, the Residences and (advanced set-up) the permit draft.

use super::*;
use crate::games::dry_gulch::bounds::{self, Counted, Seat};

impl State {
    pub(in crate::games::dry_gulch) fn setup(rules: &Rules, config: &Config) -> Result<State, ConfigError> {
        let n = config.players;
        let entity = |e: u32| rules.events.get(e as usize).map_or_else(String::new, |e| e.id.clone());
        let readings = rules.resolve(config, &entity)?;
        let turn_cap = config.turn_cap.unwrap_or(readings.params[P::TurnCap as usize]);
        let mut variants = vec![false; V::ALL.len()];
        for (v, on) in rules.variants.iter().zip(&readings.variants) {
            if let (Some(h), true) = (v.hook, on) {
                variants[h] = true;
            }
        }
        let allotment = rules.chips.get(&n).copied().unwrap_or(0);
        if let Some(why) = unplayable(rules, &readings, n, allotment) {
            return Err(ConfigError::Numbers(why));
        }
        let players = n as usize;
        let mut chance = Chance::new(config.seed);
        let (resource_deck, event_deck, permit_deck) = decks(rules, &readings, &mut chance);
        let mut s = State {
            players,
            readings,
            variants,
            turn_cap,
            chance,
            seats: (0..players).map(|seat| Player::new(rules, seat, allotment)).collect(),
            resource_deck,
            resource_discard: Pile::new(),
            event_deck,
            event_discard: Pile::new(),
            permit_deck,
            permit_discard: Pile::new(),
            permits_spent: Pile::new(),
            board: empty_board(rules),
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
            acted: Vec::new(),
            pending_rewards: vec![],
            built_this_turn: vec![],
            town_hall_closed: None,
            outcome: None,
            touched: Touched::default(),
            dealt: DealtCache::default(),
            board_read: Kept::default(),
            conserved: Default::default(),
            board_influence: Kept::default(),
            built: Kept::default(),
            target: None,
            cut: None,
            fault: None,
        };
        s.r::<VioletCards>(); // both decks differ in every game when the violet cards move
        // and so do they with every card's and permit's number a reading sets
        rules.declared.count_points().for_each(|p| s.touched.mark(p));
        s.deal();
        Ok(s)
    }

    /// The deal: resources to everyone, and permits unless they are drafted.
    fn deal(&mut self) {
        let mut ev = Vec::new();
        for seat in 0..self.players {
            for _ in 0..self.param(P::DealResources) {
                // an empty deck (and discard) ends the deal: nothing is left to give
                if self.draw_resource(seat, false, &mut ev).is_none() {
                    break;
                }
            }
        }
        if !self.on(V::AdvancedSetup) {
            for seat in 0..self.players {
                for _ in 0..self.param(P::DealPermits) {
                    if self.permit_deck.draw_top(&mut self.seats[seat].permits).is_none() {
                        break;
                    }
                }
            }
        }
    }

    /// How many permits the advanced draft gives each player (the
    /// interpretation `draft-permits` sets it as data).
    pub(super) fn draft_count(&self) -> u32 {
        self.p(P::DraftPermitCount)
    }

    pub(super) fn residence_plots(&self, rules: &Rules) -> Vec<Plot> {
        rules
            .plots()
            .filter(|&i| {
                let p = rules.plot(i);
                p.edge && !p.bank && p.kind != PlotKind::Corner && self.board[i.index()].is_none()
            })
            .collect()
    }

    pub(super) fn after_residences(&mut self) {
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
}

impl Player {
    /// Seat `seat` at set-up: empty hand and piles, the chip allotment of
    /// its colour in reserve.
    fn new(rules: &Rules, seat: usize, allotment: u32) -> Player {
        let card_kinds = rules.card_count();
        Player {
            hand: Multiset::new(card_kinds),
            permits: Multiset::new(rules.buildings.len()),
            in_front: Tagged::new(),
            influence: Pile::new(),
            // the player's colour, from the box: the chips' source
            chips: Chips::of(colour(seat), allotment),
            card_chips: Chips::new(),
            allotment,
            waiting: Multiset::new(card_kinds),
            waiting_permits: Multiset::new(rules.buildings.len()),
        }
    }
}

/// Why the numbers the readings set break a rule the catalog's are held
/// to, at `players` with `chips` each, if they do (a fixed win is held to
/// what a player can count where it is played with no building short of
/// its chips).
fn unplayable(rules: &Rules, readings: &Readings, players: u32, chips: u32) -> Option<String> {
    let param = |k: P| readings.param(k as usize);
    let fixed_win = readings.hook::<WinThreshold>() == WinThreshold::Fixed
        && readings.hook::<ChipShortage>() == ChipShortage::CannotBuild;
    let residence = || rules.with_ability(Ability::Residence).map_or(0, |b| rules.building_influence[b.index()]);
    let counted = || Counted::of(residence(), rules.events.iter().map(|e| e.influence));
    let seat = Seat { players, chips, fixed_win: fixed_win.then(counted) };
    bounds::unplayable(&param, Some(seat)).into_iter().next().map(|(_, why)| why)
}

/// The resource, event and permit decks, shuffled.
type Decks = (Pile<kind::Card>, Pile<kind::Card>, Pile<kind::Building>);

/// The board as the game begins: the Town Hall on its plot, nothing else.
fn empty_board(rules: &Rules) -> Watched<Vec<Option<Placed>>> {
    let mut board = vec![None; rules.plots.len()];
    if let Some(th) = rules.with_ability(Ability::TownHall) {
        board[rules.town_hall_plot.index()] =
            Some(Placed { building: th, owner: None, damage: None, chips: Chips::new() });
    }
    Watched::new(board)
}

/// The three decks of this configuration, shuffled in this order.
fn decks(rules: &Rules, readings: &Readings, chance: &mut Chance) -> Decks {
    // the components, each kind in catalog order before the shuffle, with
    // the numbers readings set (`event-deck-composition` sets two)
    let violet = readings.hook::<VioletCards>();
    let copies = |events: bool| -> Vec<u32> {
        let n = |c| deck::deck_copies(rules, readings, violet, c);
        rules.cards().map(|c| if deck::in_resource_deck(rules, violet, c) != events { n(c) } else { 0 }).collect()
    };
    let mut resource_deck = Pile::from_counts(&copies(false));
    let mut event_deck = Pile::from_counts(&copies(true));
    let permits: Vec<u32> = rules.buildings().map(|b| deck::counted_permits(rules, readings, b)).collect();
    let mut permit_deck = Pile::from_counts(&permits);
    resource_deck.shuffle(chance);
    event_deck.shuffle(chance);
    permit_deck.shuffle(chance);
    (resource_deck, event_deck, permit_deck)
}
