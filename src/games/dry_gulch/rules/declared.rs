//! The actions variants and options declare (`actions:`): each offered to
//! the active player once a turn while the turn waits for him in its step
//! and its condition holds; taking it runs its effect like a data step's
//! (no card of its own, no target), then, for one that ends its step, ends
//! the step as the step's own last action does.

use super::*;
use crate::engine::Procedure;

impl State {
    /// The procedure the turn waits for the active player in, if it does
    /// (where a declared action may be taken).
    fn acting_in(&self) -> Option<Proc> {
        match self.phase {
            Phase::Events { discard: 0 } => Some(Proc::Events),
            Phase::Draw => Some(Proc::Draw),
            Phase::Build => Some(Proc::Build),
            Phase::Discard => Some(Proc::Discard),
            _ => None,
        }
    }

    /// Adds the declared actions open now to the legal list (after the
    /// step's own): the reading or variant that declares one is consulted
    /// where the turn stands in its step.
    pub(super) fn declared_actions(&self, rules: &Rules, out: &mut Vec<Action>) {
        if self.readings.actions.is_empty() {
            return;
        }
        let Some(now) = self.acting_in() else { return };
        for &a in &self.readings.actions {
            let (Ok(act), Some(def)) = (Act::new(a as usize), rules.actions.get(a as usize)) else { continue };
            if def.during == now.index() && self.open_action::<()>(rules, act, def).is_ok() {
                out.push(Action::Declared(act));
            }
        }
    }

    /// Whether declared action `act` (in its step) may be taken: not yet
    /// this turn, and its condition holds (the step's switch point marked:
    /// the turn stood where it is offered). The `RuleError`, or for the
    /// legal list only `Err(())`, no message formatted.
    fn open_action<W: Why>(&self, rules: &Rules, act: Act, def: &DeclaredAction) -> Result<(), W> {
        self.touched.mark(rules.declared.step_point(def.during));
        if self.acted.contains(&act) {
            return refuse_declared(def, || {
                format!("action {} was taken this turn already (it is taken once a turn)", def.id)
            });
        }
        if def.ends_step && self.phase == Phase::Build && self.any_face_up_playable(rules) {
            let why = "a face-up event can still be played and must be resolved before the reward phase";
            return refuse_declared(def, || format!("action {} ends the building step, and {why}", def.id));
        }
        match &def.condition {
            Some(c) if !self.eval(rules, c) => {
                refuse_declared(def, || format!("the condition of action {} does not hold", def.id))
            }
            _ => Ok(()),
        }
    }

    /// Takes declared action `act`: its effect is queued for the active
    /// player, and after it the end of the step where the action ends it.
    pub(super) fn take_declared(&mut self, rules: &Rules, act: Act, ev: &mut Vec<Event>) {
        self.acted.push(act);
        ev.push(Event::ActionTaken { seat: self.active, action: act });
        let def = &rules.actions[act.index()];
        self.expand(rules, &def.effect, CardKind::ZERO);
        if def.ends_step {
            self.agenda.queue.push_back(Queued::Game(Step::EndStep));
        }
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

    /// Why declared action `act` is not legal now: not on in this
    /// configuration, not its step, taken already, or its condition.
    pub(super) fn diagnose_declared(&self, rules: &Rules, act: Act) -> RuleError {
        let Some(def) = rules.actions.get(act.index()) else {
            return err(rules, R::TurnOrder, "no such declared action");
        };
        let no = |msg: String| declared_error(def, msg);
        if !self.readings.actions.contains(&(act.index() as u32)) {
            return no(format!("action {} is not on in this configuration ({} declares it)", def.id, def.by));
        }
        if matches!(self.phase, Phase::Events { discard: 1.. }) && def.during == Proc::Events.index() {
            return no(format!("action {} waits until the revealed event cards to discard are discarded", def.id));
        }
        if self.acting_in().map(|p| p.index()) != Some(def.during) {
            let step = PROCEDURES[def.during];
            return no(format!("action {} is taken in the {step} step, not in {}", def.id, self.phase_name()));
        }
        match self.open_action::<RuleError>(rules, act, def) {
            Err(e) => e,
            Ok(()) => err(rules, R::TurnOrder, format!("action {} is not legal now", def.id)),
        }
    }
}

/// A refusal of declared action `def` (the rule `action.declared`, citing
/// what declares it), with the message `msg` makes; only `Err(())` for the
/// legal list.
fn refuse_declared<W: Why>(def: &DeclaredAction, msg: impl FnOnce() -> String) -> Result<(), W> {
    Err(W::why(|| declared_error(def, msg())))
}

fn declared_error(def: &DeclaredAction, msg: String) -> RuleError {
    RuleError::new(&format!("dry-gulch/{ACTION_DECLARED}"), &def.by, msg)
}
