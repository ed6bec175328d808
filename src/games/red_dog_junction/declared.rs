//! What Red Dog Junction tells the declared actions (`lang::declared`): a
//! turn is one step, `actions`, where the active player takes his
//! actions one at a time, and a declared action is one of them (it uses
//! one of the turn's actions, as every action a turn can begin with
//! does). It is offered while an action is left and nothing else waits (a
//! die to roll, a card's `choose`). One that `ends_step` leaves no action
//! after its effect: the turn then ends (cargo over capacity is
//! jettisoned first), as after the turn's last action.

use super::effects::{Queued, Rdj, RdjStep};
use super::readings::PROCEDURES;
use super::rules::{Event, Phase, State};
use super::rules_data::*;
use crate::engine::{Id, Why};
use crate::lang::declared::{self, Act, Declares};

impl Declares<Rdj> for State {
    crate::declares_fields!(Rdj);
    fn acting_in(&self) -> Option<usize> {
        let waiting = self.end.is_some() || !self.rolls.is_empty() || self.agenda.decision.is_some();
        (!waiting && self.phase == Phase::Actions && self.actions_left > 0).then_some(0)
    }
    fn standing_in(&self) -> &'static str {
        match self.phase {
            Phase::Actions => PROCEDURES[0],
            Phase::Loading => "loading",
            Phase::Salvage { .. } => "salvage",
            Phase::Agents { .. } => "agents",
            Phase::Swap { .. } => "swap",
            Phase::Jettison => "jettison",
            Phase::Automa(_) => "automa",
            Phase::Extra | Phase::Draft => "set-up",
        }
    }
    fn queue_end_step(&mut self) {
        self.agenda.queue.push_back(Queued::Game(RdjStep::EndActions));
    }
    fn data_source() -> Id<Card> {
        Id::ZERO
    }
}

impl State {
    /// Whether declared action `act` may be taken now (out of line:
    /// `check` runs on every candidate, and only a house rule offers one).
    #[inline(never)]
    pub(super) fn check_declared<W: Why>(&self, rules: &Rules, act: Act) -> Result<(), W> {
        declared::check::<Rdj, W>(self, rules, act)
    }

    /// `seat` takes declared action `act` (legal): its effect runs for him
    /// until it is done or waits for a choice.
    pub(super) fn take_declared(&mut self, rules: &Rules, seat: usize, act: Act, ev: &mut Vec<Event>) {
        ev.push(Event::ActionTaken { seat, action: act });
        declared::take::<Rdj>(self, rules, act);
        crate::lang::run(self, rules, ev);
    }
}
