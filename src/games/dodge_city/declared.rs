//! What Dodge City tells the declared actions (`lang::declared`): the
//! round waits for the seat on turn in a placing phase once its card is
//! played (where it buys tokens or ends its turn) and in the duels (where
//! it challenges or passes); nothing else may wait first (a debt, a
//! picture card's tokens, a duel's take, a `choose`). An action that ends
//! its step ends the seat's turn there, as `EndTurn` or `Pass` does, and
//! in the duels only where the seat may pass.

use super::effects::{Dc, DcStep, Queued};
use super::readings::{PROCEDURES, Proc};
use super::rules_data::*;
use super::state::{Event, Phase, State};
use crate::engine::{Procedure, RuleError, Seat};
use crate::lang::declared::{self, Act, Declares};
use crate::lang::{self, Cond};

impl Declares<Dc> for State {
    crate::declares_fields!();
    fn acting_in(&self) -> Option<usize> {
        if self.over.is_some() || !self.debts.is_empty() || !self.pending.is_empty() {
            return None;
        }
        match self.phase {
            Phase::Place { carded: true, .. } | Phase::Duel { .. } => Some(self.step_of_phase().index()),
            _ => None,
        }
    }
    fn step_end_blocked(&self, rules: &Rules) -> Option<String> {
        if !matches!(self.phase, Phase::Duel { .. }) {
            return None;
        }
        self.check_pass::<RuleError>(rules, self.active_seat()).err().map(|e| e.message)
    }
    fn not_yet(&self, during: usize) -> Option<String> {
        let placing = matches!(self.phase, Phase::Place { carded: false, .. });
        (placing && during == self.step_of_phase().index()).then(|| "the card of the turn is played".into())
    }
    /// `World::active` is the player an effect runs for (`actor`), which
    /// outside an effect may be another seat than the one on turn: the
    /// condition is read for the seat on turn, on a copy of the state
    /// where he is the actor (the readings it consults are recorded here).
    fn holds(&self, rules: &Rules, c: &Cond<Dc>) -> bool {
        let seat = self.active_seat();
        if self.actor == seat {
            return lang::eval::<Dc>(self, rules, c);
        }
        let on_turn = State { actor: seat, ..self.clone() };
        let holds = lang::eval::<Dc>(&on_turn, rules, c);
        self.touched.merge(&on_turn.touched);
        holds
    }
    fn standing_in(&self) -> &'static str {
        PROCEDURES[self.step_of_phase().index()]
    }
    fn queue_end_step(&mut self) {
        self.agenda.queue.push_back(Queued::Game(DcStep::EndTurn));
    }
    fn data_source() -> Ev {
        Ev::ZERO
    }
}

impl State {
    /// The procedure the round's phase plays.
    pub(super) fn step_of_phase(&self) -> Proc {
        match self.phase {
            Phase::Marshal => Proc::Marshal,
            Phase::Place { round: 1, .. } => Proc::Place1,
            Phase::Place { .. } => Proc::Place2,
            Phase::Duel { .. } => Proc::Duel,
        }
    }

    /// `seat` takes declared action `act` (legal): its effect runs for him.
    pub(super) fn take_declared(&mut self, rules: &Rules, seat: Seat, act: Act, ev: &mut Vec<Event>) {
        ev.push(Event::ActionTaken { seat, action: act });
        self.actor = seat;
        declared::take::<Dc>(self, rules, act);
        self.resolve(rules, ev);
    }

    /// The seat on turn's turn in its step ends, after the effect of a
    /// declared action that ends it (`DcStep::EndTurn`).
    pub(super) fn end_seat_turn(&mut self) {
        match self.phase {
            Phase::Place { .. } => self.end_turn(),
            Phase::Duel { .. } => self.next_duellist(),
            Phase::Marshal => {}
        }
    }
}
