//! What Dry Gulch tells the declared actions (`lang::declared`): the
//! turn waits for the active player in the events (once the revealed
//! cards to discard are discarded), draw, build and discard steps; the
//! building step may not end while a face-up event can still be played;
//! and ending a step ends it as the step's own last action does.

use super::*;
use crate::engine::Procedure;
use crate::lang::declared::{self, Declares};

impl Declares<Dg> for State {
    crate::declares_fields!();
    fn acting_in(&self) -> Option<usize> {
        let p = match self.phase {
            Phase::Events { discard: 0 } => Proc::Events,
            Phase::Draw => Proc::Draw,
            Phase::Build => Proc::Build,
            Phase::Discard => Proc::Discard,
            _ => return None,
        };
        Some(p.index())
    }
    fn step_end_blocked(&self, rules: &Rules) -> Option<String> {
        let blocked = self.phase == Phase::Build && self.any_face_up_playable(rules);
        blocked.then(|| "a face-up event can still be played and must be resolved before the reward phase".into())
    }
    fn not_yet(&self, during: usize) -> Option<String> {
        let discarding = matches!(self.phase, Phase::Events { discard: 1.. }) && during == Proc::Events.index();
        discarding.then(|| "the revealed event cards to discard are discarded".into())
    }
    fn standing_in(&self) -> &'static str {
        self.phase_name()
    }
    fn queue_end_step(&mut self) {
        self.agenda.queue.push_back(Queued::Game(Step::EndStep));
    }
    fn data_source() -> CardKind {
        CardKind::ZERO
    }
}

impl State {
    /// Takes declared action `act` (legal) for the active player.
    pub(super) fn take_declared(&mut self, rules: &Rules, act: Act, ev: &mut Vec<Event>) {
        ev.push(Event::ActionTaken { seat: self.active, action: act });
        declared::take::<Dg>(self, rules, act);
    }

    /// Ends the step the turn waits for the active player in, as its own
    /// last action does (`EndEvents`, a draw, `EndBuild`, `EndTurn`).
    pub(in crate::games::dry_gulch) fn end_step(&mut self, rules: &Rules, ev: &mut Vec<Event>) {
        match self.phase {
            Phase::Events { .. } => self.end_events(rules, ev),
            Phase::Draw => self.after_draw(rules, ev),
            Phase::Build | Phase::Discard => self.cursor.finish(),
            _ => {}
        }
    }
}
