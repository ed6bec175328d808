//! Red Dog Junction's part of the effect language (`crate::lang`): what an
//! Officer's action or a played Boost does, written in `cards.yaml` and
//! compiled at load. The shared language gives `if`, `choose`, `for_each`,
//! `draw`, `move` and the conditions; the game adds only what is its own:
//!
//! - `gain: {commodity, count, to: cargo|storage}` — cubes from where the
//!   commodity is obtained (a planet, the Bank/Distillery, space for scrap)
//!   aboard the ship or into storage, as many as are there (FAQ: a
//!   commodity that runs out cannot be obtained);
//! - `actions: N` — N more actions this turn;
//! - `reroll` — the six Junction dice are rolled again (chance nodes).
//!
//! Its measures (`cargo`, `storage`, `gold`, `deals`, `crew`, `boosts`)
//! are what a `count` condition may count of a player. A card named in
//! `move` or `draw` is a card type or a commodity (`Piece`): `move` passes
//! cards between crews (or cubes between ships), `draw` hires the top card
//! of the deck. A `choose` waits for the active player as `Choosing`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::readings::{DeckEnd, OfficerBoostText};
use super::rules::{End, Event, State};
use super::rules_data::*;
use crate::engine::{Id, move_n};
use crate::lang::{
    self, Args, Compiler, Effect, Host, Lang, Never, OpDef, Param, Report, Ty, Val, Word, World, did_you_mean,
    no_check, opt, req,
};

/// Red Dog Junction in the effect language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Rdj {}

/// A pending step of an effect.
pub type Queued = lang::Step<Rdj>;
/// Compiled effects.
pub type Effects = Vec<Effect<Rdj>>;

/// What a `count` may measure of a player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Measure {
    Cargo,
    Storage,
    /// Gold in storage (a point each at the end).
    Gold,
    Deals,
    /// Crew and Officers.
    Crew,
    /// Unused Boosts.
    Boosts,
}

/// The one deck: the draw pile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Deck {
    Cards,
}

/// What an effect may name as a kind of thing: a card type or a commodity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Piece {
    Card(Id<Card>),
    Cube(Id<Cube>),
}

/// The game's own steps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum RdjStep {
    Gain {
        seat: usize,
        cube: Id<Cube>,
        n: u32,
        storage: bool,
    },
    Actions {
        n: u32,
    },
    Reroll,
    /// The active player's turn has no action left, after the effect of a
    /// declared action that ends it.
    EndActions,
}

/// A pending `choose`: `seat` picks an option of choice `choice`, for card `source`.
pub type Choosing = lang::Choosing<Id<Card>>;

pub const GAIN: &str = "gain";
const GAIN_PARAMS: &[Param] = &[req("commodity", Ty::Card), req("count", Ty::Count), opt("to", Ty::Word)];

impl Lang for Rdj {
    /// No selectors, conditions or flags of its own.
    type Sel = Never;
    type Cond = Never;
    type Measure = Measure;
    type Deck = Deck;
    type Card = Piece;
    type Flag = Never;
    type Source = Id<Card>;
    type Step = RdjStep;
    type Decision = Choosing;
    type Rules = Rules;
    type Event = Event;
    type State = State;

    fn operations() -> Vec<OpDef<Rdj>> {
        vec![
            OpDef { name: GAIN, params: GAIN_PARAMS, bare: None, check: check_gain, expand: expand_gain },
            OpDef {
                name: "actions",
                params: &[],
                bare: Some(req("count", Ty::Count)),
                check: no_check,
                expand: expand_actions,
            },
            OpDef { name: "reroll", params: &[], bare: None, check: no_check, expand: expand_reroll },
        ]
    }
}

/// `commodity` names a commodity (not a card); `to` is `cargo` (the
/// default) or `storage`.
fn check_gain(cx: &mut Compiler<'_, Rdj>, a: &mut Args<Rdj>, at: (u64, u64)) {
    if matches!(a.get("commodity"), Some(Val::Card(Piece::Card(_)))) {
        cx.error(at, "`commodity` of `gain` names a card type; it takes a commodity");
    }
    match a.get("to") {
        None => a.0.push(("to", Val::Word("cargo".into()))),
        Some(Val::Word(w)) if w == "cargo" || w == "storage" => {}
        Some(Val::Word(w)) => {
            let hint = did_you_mean(["cargo", "storage"].into_iter(), w);
            let msg = format!("`to` of `gain` is `{w}`; it is `cargo` (aboard the ship) or `storage`{hint}");
            cx.error(at, msg);
        }
        Some(_) => {}
    }
}

fn expand_gain(st: &mut State, rules: &Rules, a: &Args<Rdj>, _: Id<Card>) {
    let (Some(Val::Card(Piece::Cube(cube))), Some(n)) = (a.get("commodity"), a.count("count")) else { return };
    let storage = matches!(a.get("to"), Some(Val::Word(w)) if w == "storage");
    let gain = |seat| Queued::Game(RdjStep::Gain { seat, cube: *cube, n, storage });
    lang::queue_each::<Rdj>(st, rules, lang::Sel::Active, gain);
}

fn expand_actions(st: &mut State, _: &Rules, a: &Args<Rdj>, _: Id<Card>) {
    if let Some(n) = a.count("count") {
        st.agenda.queue.push_back(Queued::Game(RdjStep::Actions { n }));
    }
}

fn expand_reroll(st: &mut State, _: &Rules, _: &Args<Rdj>, _: Id<Card>) {
    st.agenda.queue.push_back(Queued::Game(RdjStep::Reroll));
}

/// The names compiling an effect resolves.
pub struct RdjHost<'a> {
    pub cards: &'a BTreeMap<String, Id<Card>>,
    pub cubes: &'a BTreeMap<String, Id<Cube>>,
}

impl Host<Rdj> for RdjHost<'_> {
    fn measures(&self) -> &'static [(&'static str, Measure)] {
        &[
            ("cargo", Measure::Cargo),
            ("storage", Measure::Storage),
            ("gold", Measure::Gold),
            ("deals", Measure::Deals),
            ("crew", Measure::Crew),
            ("boosts", Measure::Boosts),
        ]
    }
    fn decks(&self) -> &'static [(&'static str, Deck)] {
        &[("cards", Deck::Cards)]
    }
    fn card(&self, w: &Word, r: &mut Report<'_>) -> Option<Piece> {
        if let Some(c) = self.cards.get(&w.text) {
            return Some(Piece::Card(*c));
        }
        if let Some(c) = self.cubes.get(&w.text) {
            return Some(Piece::Cube(*c));
        }
        let known = self.cards.keys().chain(self.cubes.keys()).map(String::as_str);
        let hint = did_you_mean(known, &w.text);
        r.error(w.at, format!("unknown card or commodity `{}`{hint}", w.text));
        None
    }
}

impl State {
    /// The effect card `card` has in this configuration (a reading may replace it).
    pub fn card_effect<'r>(&self, rules: &'r Rules, card: Id<Card>) -> &'r [Effect<Rdj>] {
        rules.effect_of(self, card.index(), rules.effects.get(card.index()).map_or(&[], Vec::as_slice))
    }

    /// Whether Officers and Boosts act (`officer-boost-text`).
    pub fn cards_act(&self) -> bool {
        self.r::<OfficerBoostText>() == OfficerBoostText::AssumedEffects
    }

    /// Runs card `card`'s effect for the active player until it is done or
    /// waits for a choice.
    pub(super) fn run_effect(&mut self, rules: &Rules, card: Id<Card>, ev: &mut Vec<Event>) {
        let effect = self.card_effect(rules, card);
        lang::expand::<Rdj>(self, rules, effect, card);
        lang::run(self, rules, ev);
    }

    /// The active player took option `option` of the pending choice.
    pub(super) fn choose_option(&mut self, rules: &Rules, option: u32, ev: &mut Vec<Event>) {
        let Some(d) = self.agenda.decision.take() else { return };
        lang::chosen::<Rdj>(self, rules, d.choice, option, d.source);
        lang::run(self, rules, ev);
    }

    /// How many options the pending choice offers.
    pub fn pending_options(&self, rules: &Rules) -> usize {
        self.agenda.decision.map_or(0, |d| rules.choices.get(d.choice as usize).map_or(0, Vec::len))
    }

    fn gain(&mut self, rules: &Rules, seat: usize, cube: Id<Cube>, n: u32, storage: bool, ev: &mut Vec<Event>) {
        let n = n.min(self.home_count(rules, cube));
        if n == 0 {
            return;
        }
        let from = match rules.cube(cube).home {
            _ if cube == rules.scrap => &mut self.space,
            Home::Space => &mut self.space,
            Home::Loc(l) => &mut self.locs[l],
        };
        let to = if storage { &mut self.storage[seat] } else { &mut self.cargo[seat] };
        if move_n(from, to, cube, n).is_ok() {
            ev.push(Event::Cubes { seat, what: if storage { "stores" } else { "gains" }, cube, n });
        }
    }

    /// The deck's top card joins `seat`'s crew (a Boost its Boosts),
    /// unbought: `unpurchased-cards-score` and `unpurchased-boosts` treat it
    /// as a dealt card.
    fn draw_top(&mut self, rules: &Rules, seat: usize, ev: &mut Vec<Event>) {
        let Some(card) = self.deck.top() else { return };
        let to = if rules.card(card).class == Class::Boost { &mut self.boosts[seat] } else { &mut self.crew[seat] };
        if self.deck.draw_top(to).is_none() {
            return;
        }
        ev.push(Event::Drew { seat, card });
        if self.deck.is_empty() && self.r::<DeckEnd>() == DeckEnd::LastCardTurned && self.end.is_none() {
            self.end = Some(End::DeckOut);
            ev.push(Event::GameOver(End::DeckOut));
        }
    }
}

crate::steps_of!(Rdj);

impl World<Rdj> for State {
    fn active(&self) -> usize {
        self.active
    }
    fn players(&self) -> usize {
        self.players
    }
    fn each(&self) -> Option<usize> {
        self.each
    }
    fn set_each(&mut self, seat: Option<usize>) {
        self.each = seat;
    }
    fn measure(&self, rules: &Rules, m: Measure, seat: usize) -> u32 {
        match m {
            Measure::Cargo => self.cargo[seat].total(),
            Measure::Storage => self.storage[seat].total(),
            Measure::Gold => self.storage[seat].count(rules.gold),
            Measure::Deals => self.deals[seat].total(),
            Measure::Crew => self.crew[seat].total(),
            Measure::Boosts => self.boosts[seat].total(),
        }
    }
    fn choose_by(&self, seat: usize, choice: u32, source: Id<Card>) -> Choosing {
        Choosing { seat: seat as u8, choice, source }
    }
    fn draw(&mut self, rules: &Rules, _: Deck, seat: usize, count: u32, ev: &mut Vec<Event>) {
        for _ in 0..count {
            self.draw_top(rules, seat, ev);
        }
    }
    /// Cards pass from one crew to another's (out of play: the discard
    /// pile); a commodity passes cubes from one ship to another's (out of
    /// play: into space, as jettisoned).
    fn move_cards(
        &mut self,
        rules: &Rules,
        from: usize,
        to: Option<usize>,
        count: u32,
        card: Option<Piece>,
        _: &mut Vec<Event>,
    ) {
        for _ in 0..count {
            let ok = match card {
                Some(Piece::Cube(c)) => match to {
                    // a player who is both loses nothing
                    Some(t) if t == from => true,
                    Some(t) => self.cargo.get_disjoint_mut([from, t]).is_ok_and(|[f, t]| move_n(f, t, c, 1).is_ok()),
                    None => move_n(&mut self.cargo[from], &mut self.space, c, 1).is_ok(),
                },
                Some(Piece::Card(c)) => self.pass_card(from, to, c),
                None => match self.crew[from].pick(&[], &mut self.chance, &|c| rules.card(c).id.clone()) {
                    Some(c) => self.pass_card(from, to, c),
                    None => false,
                },
            };
            if !ok {
                break;
            }
        }
    }
    fn game_step(&mut self, rules: &Rules, s: RdjStep, ev: &mut Vec<Event>) {
        match s {
            RdjStep::Gain { seat, cube, n, storage } => self.gain(rules, seat, cube, n, storage, ev),
            RdjStep::Actions { n } => {
                self.actions_left += n;
                self.bonus_actions += n;
            }
            RdjStep::Reroll => {
                self.rolls = (0..rules.dice.len() as u8).rev().collect();
            }
            RdjStep::EndActions => self.actions_left = 0,
        }
    }
}

impl State {
    /// A copy passes from one crew to another's (the receiver did not buy
    /// it) or to the discard pile.
    fn pass_card(&mut self, from: usize, to: Option<usize>, c: Id<Card>) -> bool {
        let ok = match to {
            Some(t) => {
                let mut into = self.crew[t].clone();
                let ok = move_n(&mut self.crew[from], &mut into, c, 1).is_ok();
                self.crew[t] = into;
                ok
            }
            None => move_n(&mut self.crew[from], &mut self.discard, c, 1).is_ok(),
        };
        self.unmark_left(from, c, false);
        ok
    }
}
