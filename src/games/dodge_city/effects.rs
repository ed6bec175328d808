//! Dodge City's part of the effect language (`crate::lang`): the operations
//! `gain` (dollars from the bank) and `pay` (dollars to the bank; what a
//! player cannot pay becomes a debt, paid by the half-price sale), the
//! measures `money`, `points` and `tokens`, the deck `cards` and the card
//! kinds a `move` may name. Dodge City has no selectors or conditions of its
//! own. A `choose` waits for the player the effect runs for (`Choosing`);
//! an event card drawn while an effect waits is drawn when that effect is
//! done (`DcStep::Event`), so two duellists' question marks resolve in turn.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::rules_data::*;
use super::state::{Event, State};
use crate::engine::Id;
use crate::lang::{self, Args, Host, Lang, Never, OpDef, Param, Report, Ty, Word, World, no_check, req};

/// Dodge City in the effect language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Dc {}

/// A pending step of a Dodge City effect.
pub type Queued = lang::Step<Dc>;

/// What a `count` may measure of a player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Measure {
    Money,
    Points,
    /// Tokens in town.
    Tokens,
}

/// The one deck a `draw` may name: the playing cards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Deck {
    Cards,
}

/// Dodge City's own steps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum DcStep {
    Gain {
        seat: usize,
        dollars: u32,
    },
    Pay {
        seat: usize,
        dollars: u32,
    },
    /// `seat` draws an event card; its effect runs next, for him.
    Event {
        seat: usize,
    },
    /// The seat on turn's turn in its step ends (after the effect of a
    /// declared action that ends it).
    EndTurn,
}

/// A pending `choose`: the player the effect runs for picks one option of
/// the choice table's entry `choice` (the event card `source`'s effect).
pub type Choosing = lang::Choosing<Ev>;

pub const GAIN: &str = "gain";
pub const PAY: &str = "pay";
const GAIN_PARAMS: &[Param] = &[req("to", Ty::Selector), req("count", Ty::Count)];
const PAY_PARAMS: &[Param] = &[req("from", Ty::Selector), req("count", Ty::Count)];

impl Lang for Dc {
    /// No selectors or conditions of its own.
    type Sel = Never;
    type Cond = Never;
    type Measure = Measure;
    type Deck = Deck;
    type Card = CardId;
    type Flag = Id<kind::Flag>;
    type Source = Ev;
    type Step = DcStep;
    type Decision = Choosing;
    type Rules = Rules;
    type Event = Event;
    type State = State;

    fn operations() -> Vec<OpDef<Dc>> {
        vec![
            OpDef { name: GAIN, params: GAIN_PARAMS, bare: None, check: no_check, expand: expand_gain },
            OpDef { name: PAY, params: PAY_PARAMS, bare: None, check: no_check, expand: expand_pay },
        ]
    }
}

fn expand_gain(st: &mut State, rules: &Rules, a: &Args<Dc>, _: Ev) {
    let (Some(to), Some(dollars)) = (a.sel("to"), a.count("count")) else { return };
    lang::queue_each::<Dc>(st, rules, to, |seat| Queued::Game(DcStep::Gain { seat, dollars }));
}

fn expand_pay(st: &mut State, rules: &Rules, a: &Args<Dc>, _: Ev) {
    let (Some(from), Some(dollars)) = (a.sel("from"), a.count("count")) else { return };
    lang::queue_each::<Dc>(st, rules, from, |seat| Queued::Game(DcStep::Pay { seat, dollars }));
}

/// The names compiling a Dodge City effect resolves.
pub struct DcHost<'a> {
    pub cards: &'a BTreeMap<String, CardId>,
}

impl Host<Dc> for DcHost<'_> {
    fn measures(&self) -> &'static [(&'static str, Measure)] {
        &[("money", Measure::Money), ("points", Measure::Points), ("tokens", Measure::Tokens)]
    }
    fn decks(&self) -> &'static [(&'static str, Deck)] {
        &[("cards", Deck::Cards)]
    }
    fn card(&self, w: &Word, r: &mut Report<'_>) -> Option<CardId> {
        lang::named(self.cards, "card", w, r)
    }
}

crate::steps_of!(Dc);

impl World<Dc> for State {
    fn active(&self) -> usize {
        self.actor
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
    fn measure(&self, _: &Rules, m: Measure, seat: usize) -> u32 {
        let p = &self.seats[seat];
        match m {
            Measure::Money => p.money.value().max(0) as u32,
            Measure::Points => p.points,
            Measure::Tokens => self.tokens_in_town(seat),
        }
    }
    fn choose_by(&self, seat: usize, choice: u32, source: Ev) -> Choosing {
        Choosing { seat: seat as u8, choice, source }
    }
    fn draw(&mut self, _: &Rules, _: Deck, seat: usize, count: u32, ev: &mut Vec<Event>) {
        for _ in 0..count {
            self.draw_card(seat, ev);
        }
    }
    fn move_cards(
        &mut self,
        rules: &Rules,
        from: usize,
        to: Option<usize>,
        count: u32,
        card: Option<CardId>,
        _: &mut Vec<Event>,
    ) {
        for _ in 0..count {
            self.move_card(rules, from, to, card);
        }
    }
    fn game_step(&mut self, rules: &Rules, s: DcStep, ev: &mut Vec<Event>) {
        match s {
            DcStep::Gain { seat, dollars } => self.income(rules, seat, dollars, ev),
            DcStep::Pay { seat, dollars } => self.pay(rules, seat, dollars, ev),
            DcStep::Event { seat } => self.event_now(rules, seat, ev),
            DcStep::EndTurn => self.end_seat_turn(),
        }
    }
}
