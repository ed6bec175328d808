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
use crate::engine::Id;
use crate::lang::declared::{self, Act, Declares};

impl Declares<Rdj> for State {
    crate::declares_fields!();
    fn acting_in(&self) -> Option<usize> {
        let waiting =
            self.end.is_some() || !self.rolls.is_empty() || self.first.is_none() || self.agenda.decision.is_some();
        (!waiting && self.phase == Phase::Actions && self.actions_left > 0).then_some(0)
    }
    /// `check` asks about a declared action only where a turn's action
    /// begins (`check_start`: the actions phase, an action left, no die or
    /// `choose` waiting), so the turn stands in its one step.
    fn standing_in(&self) -> &'static str {
        PROCEDURES[0]
    }
    fn queue_end_step(&mut self) {
        self.agenda.queue.push_back(Queued::Game(RdjStep::EndActions));
    }
    fn data_source() -> Id<Card> {
        Id::ZERO
    }
}

impl State {
    /// `seat` takes declared action `act` (legal): its effect runs for him
    /// until it is done or waits for a choice.
    pub(super) fn take_declared(&mut self, rules: &Rules, seat: usize, act: Act, ev: &mut Vec<Event>) {
        ev.push(Event::ActionTaken { seat, action: act });
        declared::take::<Rdj>(self, rules, act);
        crate::lang::run(self, rules, ev);
    }
}
