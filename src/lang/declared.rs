//! Actions a catalog declares (`actions:` of a variant or an interpretation
//! option), the same in every game: lowered once (`lower`), and offered,
//! checked and taken through `Declares`, which a game's state writes.
//!
//! A declared action is offered to the seat on turn once a turn while the
//! turn waits for that seat in the action's step (`during`) and its
//! condition holds. Taking it runs its effect like a data step's (no card
//! of its own, no target); one that `ends_step` then ends the seat's part
//! of the step as the step's own last action does, which the game says
//! (`Declares::queue_end_step`, after the effect). Its refusals name the
//! rule `action.declared` and cite what declares it, not `game.rules`.

use serde::Serialize;

use super::compile::Host;
use super::effect::{Cond, Effect, Lang, World, eval, expand};
use super::lowering::Lowering;
use super::node::Node;
use crate::catalog::common::{Change, Patch, RawAction, Source, check_id};
use crate::catalog::diag::Diagnostics;
use crate::engine::{Id, Readings, RuleBook, RuleError, Touched, Why};
use crate::yaml::position;

crate::kinds! {
    /// An action a variant or an option declares (`actions:`).
    ActKind = "declared action",
}

/// A declared action, by its index among the catalog's `actions:`.
pub type Act = Id<ActKind>;

/// The rule a declared action's refusals name (`<game>/action.declared`):
/// it cites the variant or option that declares the action.
pub const ACTION_DECLARED: &str = "action.declared";

/// An action a variant or an option declares, compiled.
#[derive(Debug, Clone, Serialize)]
#[serde(bound(serialize = ""))]
pub struct DeclaredAction<L: Lang> {
    pub id: String,
    /// The procedure it is taken in (the game's `Proc`, by index).
    pub during: usize,
    /// What declares it (``variant `trade-in` ``), which its rule errors cite.
    pub by: String,
    pub condition: Option<Cond<L>>,
    pub effect: Vec<Effect<L>>,
    /// Taking it ends the seat's part of the step once its effect is resolved.
    pub ends_step: bool,
}

/// What the declared actions read of a game's state: its readings (the
/// actions on in this configuration), the actions the seat on turn has
/// taken this turn, and the switch points the game has consulted.
pub struct Record<'s> {
    pub readings: &'s Readings,
    pub acted: &'s [Act],
    pub touched: &'s Touched,
}

/// What the declared actions need of a game: where its turn waits for the
/// seat on turn, and how the seat's part of a step ends.
pub trait Declares<L: Lang<State = Self>>: World<L> {
    fn record(&self) -> Record<'_>;
    /// Notes that the seat on turn took `act` this turn.
    fn note_taken(&mut self, act: Act);
    /// The procedure the turn waits for the seat on turn in, if it does
    /// and a declared action may be taken there now.
    fn acting_in(&self) -> Option<usize>;
    /// Why the seat's part of the step may not end now, where it may not
    /// (an action that ends it is then refused).
    fn step_end_blocked(&self, _rules: &L::Rules) -> Option<String> {
        None
    }
    /// Why the step waits for something else before a declared action of
    /// procedure `during` (Dry Gulch: revealed events still to discard).
    fn not_yet(&self, _during: usize) -> Option<String> {
        None
    }
    /// Whether an action's condition holds for the seat on turn (which
    /// `World::active` names outside an effect, where a game's differs,
    /// the game says so here).
    fn holds(&self, rules: &L::Rules, c: &Cond<L>) -> bool {
        eval::<L>(self, rules, c)
    }
    /// The name of the step the turn stands in, for messages.
    fn standing_in(&self) -> &'static str;
    /// Queues the end of the seat's part of the step, after the effect of
    /// an action that ends it.
    fn queue_end_step(&mut self);
    /// What a data step's effect runs for (no card of its own).
    fn data_source() -> L::Source;
}

/// Writes, inside a game's `impl Declares`, the methods every game answers
/// from the same fields of its `State` (`readings`, `acted` and
/// `touched`; what the actions read of the rules is their `Core`'s). A
/// macro because a trait's default method cannot read a type's fields.
#[macro_export]
macro_rules! declares_fields {
    () => {
        fn record(&self) -> $crate::lang::declared::Record<'_> {
            $crate::lang::declared::Record { readings: &self.readings, acted: &self.acted, touched: &self.touched }
        }
        fn note_taken(&mut self, act: $crate::lang::declared::Act) {
            self.acted.push(act);
        }
    };
}

/// The declared actions a configuration has on (what its readings and
/// variants declare), in catalog order, open now or not.
pub fn on(readings: &Readings) -> impl Iterator<Item = Act> + '_ {
    readings.actions.iter().filter_map(|&a| Act::new(a as usize).ok())
}

/// The declared actions open now, in catalog order (after the step's own
/// actions): the reading or variant that declares one is consulted where
/// the turn stands in its step.
pub fn offered<L: Lang>(w: &L::State, rules: &L::Rules, out: &mut impl FnMut(Act))
where
    L::State: Declares<L>,
{
    let readings = &w.record().readings;
    if readings.actions.is_empty() {
        return;
    }
    let Some(now) = w.acting_in() else { return };
    let table = &rules.actions;
    for act in on(readings) {
        let Some(def) = table.get(act.index()) else { continue };
        if def.during == now && open::<L, ()>(w, rules, act, def).is_ok() {
            out(act);
        }
    }
}

/// Whether declared action `act` (in its step) may be taken: not yet this
/// turn, the step free to end where it ends it, and its condition holds.
/// The `RuleError`, or for the legal list only `Err(())`, no message made.
fn open<L: Lang, W: Why>(w: &L::State, rules: &L::Rules, act: Act, def: &DeclaredAction<L>) -> Result<(), W>
where
    L::State: Declares<L>,
{
    let record = w.record();
    // the turn stood where the actions declared in this step are offered
    record.touched.mark(rules.declared.step_point(def.during));
    let no = |msg: &dyn Fn() -> String| Err(W::why(|| error::<L>(rules, def, msg())));
    if record.acted.contains(&act) {
        return no(&|| format!("action {} was taken this turn already (it is taken once a turn)", def.id));
    }
    if def.ends_step
        && let Some(why) = w.step_end_blocked(rules)
    {
        let step = rules.declared.steps[def.during];
        return no(&|| format!("action {} ends the {step} step, and {why}", def.id));
    }
    match &def.condition {
        Some(c) if !w.holds(rules, c) => no(&|| format!("the condition of action {} does not hold", def.id)),
        _ => Ok(()),
    }
}

/// Takes declared action `act` (legal): its effect is queued for the seat
/// on turn, and after it the end of the step where the action ends it.
pub fn take<L: Lang>(w: &mut L::State, rules: &L::Rules, act: Act)
where
    L::State: Declares<L>,
{
    w.note_taken(act);
    let def = &rules.actions[act.index()];
    expand::<L>(w, rules, &def.effect, L::State::data_source());
    if def.ends_step {
        w.queue_end_step();
    }
}

/// Whether declared action `act` may be taken now, or why not: not on in
/// this configuration, waiting for something else, not its step, taken
/// already, or its condition. The `RuleError`, or `Err(())` with no
/// message made.
// out of line: a game's `check` runs on every candidate action, and only a
// house rule offers a declared one
#[inline(never)]
pub fn check<L: Lang, W: Why>(w: &L::State, rules: &L::Rules, act: Act) -> Result<(), W>
where
    L::State: Declares<L>,
{
    let Some(def) = rules.actions.get(act.index()) else {
        let rule = format!("{}/{ACTION_DECLARED}", rules.rule_book.game());
        return Err(W::why(|| RuleError::new(&rule, "actions:", "no such declared action")));
    };
    let no = |msg: &dyn Fn() -> String| Err(W::why(|| error::<L>(rules, def, msg())));
    if !w.record().readings.actions.contains(&(act.index() as u32)) {
        return no(&|| format!("action {} is not on in this configuration ({} declares it)", def.id, def.by));
    }
    if let Some(why) = w.not_yet(def.during) {
        return no(&|| format!("action {} waits until {why}", def.id));
    }
    if w.acting_in() != Some(def.during) {
        let step = rules.declared.steps[def.during];
        return no(&|| format!("action {} is taken in the {step} step, not in {}", def.id, w.standing_in()));
    }
    open::<L, W>(w, rules, act, def)
}

/// Why declared action `act` is not legal now (`check`'s refusal).
pub fn diagnose<L: Lang>(w: &L::State, rules: &L::Rules, act: Act) -> RuleError
where
    L::State: Declares<L>,
{
    match (check::<L, RuleError>(w, rules, act), rules.actions.get(act.index())) {
        (Err(e), _) => e,
        (Ok(()), Some(def)) => error::<L>(rules, def, format!("action {} is not legal now", def.id)),
        (Ok(()), None) => unreachable!("`check` refuses an action the catalog does not declare"),
    }
}

/// The rules a game's errors name, each with its places (`RuleBook::cited`),
/// and, where the catalog declares actions (`any`), the rule their
/// refusals name, which cites what declares each.
pub fn cited(book: &RuleBook, any: bool) -> Vec<(String, String)> {
    let mut rules = book.cited();
    if any {
        let by = "the variant or interpretation option that declares the action";
        rules.push((format!("{}/{ACTION_DECLARED}", book.game()), by.to_string()));
    }
    rules
}

/// A refusal of declared action `def`: the rule `action.declared`, citing
/// what declares it.
fn error<L: Lang>(rules: &L::Rules, def: &DeclaredAction<L>, msg: String) -> RuleError {
    RuleError::new(&format!("{}/{ACTION_DECLARED}", rules.rule_book.game()), &def.by, msg)
}

/// Lowers an `actions:` entry (`patch` is its `Patch::Action`) into
/// `table`: its id new and well formed, its step one of `acting` (the
/// procedures, by index into `procedures`, where the game's turn waits for
/// a seat), its condition and effect compiled by `compile` as an added
/// step's are (no target). The change that offers it,
/// or `None` after a diagnostic.
pub fn lower<L: Lang>(
    patch: Patch<'_, Node>,
    table: &mut Vec<DeclaredAction<L>>,
    (acting, procedures): (&[usize], &[&str]),
    compile: &mut Lowering<L, impl Host<L>>,
    from: &Source<'_>,
    diags: &mut Diagnostics,
) -> Option<Change> {
    let Patch::Action { during, raw, by } = patch else { return None };
    let RawAction { id, during: named, condition, effect, ends_step } = raw;
    check_id(from.path, id, diags);
    if let Some(first) = table.iter().find(|a| a.id == id.value) {
        let msg = format!("action `{}` is declared twice (first by {})", id.value, first.by);
        diags.error(from.path, position(id), msg);
        return None;
    }
    if !acting.contains(&during) {
        let acting: Vec<&str> = acting.iter().map(|&p| procedures[p]).collect();
        let msg = format!(
            "action `{}` is taken during `{}`, where the turn does not wait for a player; take it during {}",
            id.value,
            named.value,
            acting.join(", ")
        );
        diags.error(from.path, position(named), msg);
        return None;
    }
    let condition = match condition {
        Some(c) => Some(compile.compile(from, false, diags, |cx| cx.cond(c))?),
        None => None,
    };
    let effect = compile.effects(from, effect, diags);
    let def =
        DeclaredAction { id: id.value.clone(), during, by: by.to_string(), condition, effect, ends_step: *ends_step };
    table.push(def);
    if Act::new(table.len() - 1).is_err() {
        diags.error(from.path, position(id), format!("more than {} declared actions", Act::CAPACITY));
        return None;
    }
    // the action keeps its own effect: its change has no `with`
    Some(patch.change(table.len() - 1, 0))
}
