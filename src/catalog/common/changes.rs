//! What a reading or a variant changes as data (`set:`, `replace:` of an
//! entity's effect or condition, `steps:`, `actions:`), against what the
//! code of a game declares, and the switch points each change touches.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{Key, Source};
use crate::catalog::MAX_NUMBER;
use crate::catalog::diag::Diagnostics;
use crate::catalog::folder::did_you_mean;
use crate::catalog::turn::{RawStep, lower_step};
use crate::yaml::{Spanned, position};

/// A `replace:` entry: the event whose effect, condition or both are
/// replaced, and what applies instead (in the game's language `E`: an
/// effect is a list of operations, a condition one node). An entry that
/// gives neither is refused at load (`lower_data`).
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, bound(deserialize = "E: Deserialize<'de>"))]
pub struct RawReplace<E> {
    pub event: Spanned<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effect: Option<Vec<E>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<E>,
}

/// Refuses the `condition:` of a `replace:` entry in a game whose
/// `entities` (`cards`) have no condition to replace.
pub fn no_condition<E>(
    r: &RawReplace<E>,
    entities: &str,
    from: &Source<'_>,
    diags: &mut Diagnostics,
) -> Option<Change> {
    let event = &r.event.value;
    r.refuse(
        from,
        diags,
        format!(
            "`replace:` gives `{event}` a `condition:`, but this game's {entities} have none; replace its `effect:`"
        ),
    );
    None
}

/// An `actions:` entry: an action a player may take, once a turn, while
/// the turn waits for him in step `during` and `condition` holds (a house
/// rule such as "once a turn, discard two cards to draw one"). Its id is
/// what a scenario writes (`action: trade-in`) and transcripts show; its
/// effect runs like a data step's, for the player who takes it, and with
/// `ends_step: true` the step then ends, as the step's own last action
/// ends it ("instead of drawing, …").
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, bound(deserialize = "E: Deserialize<'de>"))]
pub struct RawAction<E> {
    pub id: Spanned<String>,
    /// The step of the turn it is taken in: one where the turn waits for
    /// the active player (in Dry Gulch `events`, `draw`, `build`, `discard`).
    pub during: Spanned<String>,
    /// What must hold for it to be offered (else it is always offered once).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<E>,
    pub effect: Vec<E>,
    /// Whether taking it ends the step once its effect is resolved (it is
    /// then offered only where the step may end).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ends_step: bool,
}

impl<E> RawReplace<E> {
    /// An error at the entry's `event:`.
    pub fn refuse(&self, from: &Source<'_>, diags: &mut Diagnostics, msg: String) {
        diags.error(from.path, position(&self.event), msg);
    }
}

/// What the game compiles for a reading or a variant.
#[derive(Debug, Clone, Copy)]
pub enum Patch<'a, E> {
    /// The effect of a `replace:` entry (the entry has one).
    Replace(&'a RawReplace<E>, &'a [E]),
    /// The condition of a `replace:` entry (the entry has one).
    Condition(&'a RawReplace<E>, &'a E),
    /// A data step `after` (or before) declared step `at`, named by `anchor`.
    Step { at: usize, after: bool, anchor: &'a Spanned<String>, raw: &'a RawStep<E> },
    /// An action players may take during procedure `during` (index into
    /// `Declared::steps`), declared by `by` (`variant `trade-in``); the
    /// game gives it its index among the catalog's actions (`entity`).
    Action { during: usize, raw: &'a RawAction<E>, by: &'a str },
}

impl<E> Patch<'_, E> {
    /// The change that runs the game's compiled effect `with`: as the step a
    /// `steps:` entry adds, or in place of the effect of the `entity` a
    /// `replace:` names; or that holds `entity` to the game's compiled
    /// condition `with`.
    pub fn change(&self, entity: usize, with: usize) -> Change {
        let (entity, with) = (entity as u32, with as u32);
        match *self {
            Patch::Step { at, after, .. } => Change::Step { at: at as u32, after, with },
            Patch::Replace(..) => Change::Replace { entity, with },
            Patch::Condition(..) => Change::Condition { entity, with },
            Patch::Action { during, raw, .. } => {
                Change::Action { action: entity, during: during as u32, ends_step: raw.ends_step }
            }
        }
    }
}

/// One change a reading or a variant makes, as data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Change {
    /// Sets parameter `param` (index into the game's parameter table).
    Set { param: usize, value: u32 },
    /// Sets the number of counted entity `entity` (the game's numbering of
    /// the components it counts: a card's copies, a building's permits).
    Count { entity: u32, value: u32 },
    /// Replaces the effect of entity `entity` (the game's numbering) with
    /// the game's compiled effect `with`.
    Replace { entity: u32, with: u32 },
    /// Replaces the condition of entity `entity` (the game's numbering) with
    /// the game's compiled condition `with`.
    Condition { entity: u32, with: u32 },
    /// Runs the game's compiled effect `with` as a step of the turn right
    /// `after` (or before) step `at` (index into `Declared::steps`).
    Step { at: u32, after: bool, with: u32 },
    /// Adds procedure `step`, which the catalog's turn does not declare, to
    /// the turn right `after` (or before) step `at`.
    Add { step: u32, at: u32, after: bool },
    /// Removes step `step` from the turn.
    Remove { step: u32 },
    /// Moves step `step` right `after` (or before) step `at`.
    Move { step: u32, at: u32, after: bool },
    /// Offers the game's declared action `action` (its index among the
    /// catalog's `actions:`) in procedure `during` (index into
    /// `Declared::steps`), which taking it ends where `ends_step`.
    Action { action: u32, during: u32, ends_step: bool },
}

/// A reading the code implements, as the loader checks a catalog against
/// it: the interpretation id and the ids of its readings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HookDecl {
    pub id: &'static str,
    pub options: &'static [&'static str],
}

/// The range a game's parameter must lie in for the game to be played (a
/// hand limit of 0, a turn of no action). A game declares its ranges once:
/// its loader holds the catalog's numbers to them, at each number's place,
/// and the lowering of readings and variants holds each `set:` to them at
/// its line (`Declared::ranges`), so every configuration's numbers lie in
/// them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Range {
    /// The parameter's index in the game's table.
    pub param: usize,
    pub least: u32,
    /// The most, where there is a most of its own (every catalog number
    /// is bounded anyway).
    pub most: Option<u32>,
}

impl Range {
    pub const fn at_least(param: usize, least: u32) -> Range {
        Range { param, least, most: None }
    }

    pub const fn within(param: usize, least: u32, most: u32) -> Range {
        Range { param, least, most: Some(most) }
    }

    /// Why `value` of the parameter named `id` lies outside, if it does.
    pub fn refuses(&self, id: &str, value: u32) -> Option<String> {
        match self.most {
            None => (value < self.least).then(|| format!("{id} must be {}", self.wants())),
            Some(_) => (!self.holds(value)).then(|| format!("{id} is {value}, but must be {}", self.wants())),
        }
    }

    pub fn holds(&self, value: u32) -> bool {
        value >= self.least && self.most.is_none_or(|most| value <= most)
    }

    /// What the range asks of a value, in words: `at least 1`, `from 1 to 10`.
    pub fn wants(&self) -> String {
        match self.most {
            None => format!("at least {}", self.least),
            Some(most) => format!("from {} to {most}", self.least),
        }
    }
}

/// What the code of a game declares, for lowering its interpretations and
/// variants: its hooks, its variant switches, its parameters, how many
/// entities a `replace` can name, and the numbers of entities a `set:` may
/// change.
#[derive(Debug, Clone, Copy)]
pub struct Declared<'a> {
    pub hooks: &'a [HookDecl],
    pub variants: &'a [&'a str],
    pub params: &'a [&'a str],
    pub entities: usize,
    /// How many counted entities the game numbers (`Change::Count`).
    pub counted: usize,
    /// The `set:` key of each counted entity's number, in the game's
    /// numbering (`events.fire.copies`); while lowering only (empty in the
    /// copy kept for switch points).
    pub count_keys: &'a [String],
    /// The most a counted entity's number may be set to.
    pub count_max: u32,
    /// The least each counted entity's number may be set to (what the
    /// game deals of it at the most players), in the same order; none
    /// where the list is shorter.
    pub count_min: &'a [u32],
    /// The procedures the turn is made of (ids in the code's table), and
    /// the ones every turn must contain.
    pub steps: &'a [&'a str],
    pub required_steps: &'a [&'a str],
    /// The catalog's turn (indexes into `steps`, in order), for checking
    /// the steps a reading names; empty in the copy kept for switch points.
    pub turn: &'a [u16],
    /// The ranges the game's parameters must lie in (`engine::Range`, by
    /// index into `params`): a `set:` outside one is refused at its line,
    /// as the catalog's own number is.
    pub ranges: &'a [Range],
}

impl<'a> Declared<'a> {
    /// What a game's code declares: its hook, variant and parameter tables,
    /// its procedures with the required ones (`steps`), and the `entities`
    /// a `replace:` may name; the turn is left empty (the copy kept for
    /// switch points).
    pub fn code(
        (hooks, variants, params): (&'a [HookDecl], &'a [&'a str], &'a [&'a str]),
        (steps, required_steps): (&'a [&'a str], &'a [&'a str]),
        entities: usize,
    ) -> Self {
        Declared {
            hooks,
            variants,
            params,
            entities,
            counted: 0,
            count_keys: &[],
            count_max: 0,
            count_min: &[],
            steps,
            required_steps,
            turn: &[],
            ranges: &[],
        }
    }

    /// The switch point of hook `h` (see `engine::Touched`).
    pub fn hook_point(&self, h: usize) -> usize {
        h
    }
    pub fn param_point(&self, p: usize) -> usize {
        self.hooks.len() + p
    }
    pub fn entity_point(&self, e: usize) -> usize {
        self.hooks.len() + self.params.len() + e
    }
    pub fn step_point(&self, s: usize) -> usize {
        self.hooks.len() + self.params.len() + self.entities + s
    }
    /// The switch points of every counted entity's number (a game's deal,
    /// which reads them all, marks them).
    pub fn count_points(&self) -> std::ops::Range<usize> {
        self.count_point(0)..self.count_point(self.counted)
    }
    /// The switch point of counted entity `e`'s number.
    pub fn count_point(&self, e: usize) -> usize {
        self.hooks.len() + self.params.len() + self.entities + self.steps.len() + e
    }
    /// The point a `reading:` condition on interpretation `i` marks.
    pub fn interpretation_point(&self, i: usize) -> usize {
        self.count_point(self.counted) + i
    }
}

/// The number of each parameter in `params` (ids written
/// `section.field`, the code's table order) among the numbers of
/// `game.yaml` given as (section, field, value), with its section; `None`
/// for an id none is.
fn param_numbers<'a, 'p>(
    params: &'p [&str],
    numbers: impl Iterator<Item = (&'static str, &'static str, &'a Spanned<u32>)> + Clone + 'p,
) -> impl Iterator<Item = Option<(&'static str, &'a Spanned<u32>)>> + 'p {
    params.iter().map(move |id| {
        let (s, _, n) = numbers.clone().find(|(s, f, _)| id.split_once('.') == Some((s, f)))?;
        Some((s, n))
    })
}

/// The catalog's value of each parameter in `params`; 0 for an id no
/// number of `game.yaml` is.
pub fn param_values<'a>(
    params: &[&str],
    numbers: impl Iterator<Item = (&'static str, &'static str, &'a Spanned<u32>)> + Clone,
) -> Vec<u32> {
    param_numbers(params, numbers).map(|n| n.map_or(0, |(_, n)| n.value)).collect()
}

/// Where each parameter's number in `params` stands: the file `file_of`
/// gives its section, and its place; `None` for an id no number is.
pub fn param_places<'a>(
    params: &[&str],
    numbers: impl Iterator<Item = (&'static str, &'static str, &'a Spanned<u32>)> + Clone,
    file_of: impl Fn(&str) -> &'a str,
) -> Vec<Option<(&'a str, (u64, u64))>> {
    param_numbers(params, numbers).map(|n| n.map(|(s, n)| (file_of(s), position(n)))).collect()
}

/// Lowers the game's replacement shape (`replace:` entries, written in the
/// given file) into changes.
pub type LowerReplace<'a, R> = dyn FnMut(Patch<'_, R>, &Source<'_>, &mut Diagnostics) -> Option<Change> + 'a;

/// What a variant or an option changes as data, as written: `set:`,
/// `replace:`, `steps:` and `actions:`.
pub(super) type RawData<'a, R> = (&'a [RawReplace<R>], &'a [RawStep<R>], &'a [RawAction<R>]);

/// Lowers `set:`, `replace:`, `steps:` and `actions:` into changes,
/// checking parameter names and bounding the values.
pub(super) fn lower_data<R>(
    from: &Source<'_>,
    (what, owner): (&str, (u64, u64)),
    set: &BTreeMap<Key, Spanned<u32>>,
    (replace, steps, actions): RawData<'_, R>,
    decl: &Declared<'_>,
    lower_replace: &mut LowerReplace<'_, R>,
    diags: &mut Diagnostics,
) -> Vec<Change> {
    let mut out = Vec::new();
    for (key, value) in set {
        let name = &key.0.value;
        let v = value.value;
        let count = decl.count_keys.iter().position(|k| k == name);
        match (decl.params.iter().position(|p| p == name), count) {
            (Some(_), _) if v > MAX_NUMBER => diags.error(
                from.path,
                position(value),
                format!("{what} sets `{name}` to {v}, more than {MAX_NUMBER} (the bound on every catalog number)"),
            ),
            (Some(param), _) => match decl.ranges.iter().find(|r| r.param == param && !r.holds(v)) {
                Some(r) => diags.error(
                    from.path,
                    position(value),
                    format!("{what} sets `{name}` to {v}, but it must be {} (as in the catalog)", r.wants()),
                ),
                None => out.push(Change::Set { param, value: v }),
            },
            (None, Some(_)) if v > decl.count_max => diags.error(
                from.path,
                position(value),
                format!(
                    "{what} sets `{name}` to {v}, more than {} (the most the game counts of one entity)",
                    decl.count_max
                ),
            ),
            (None, Some(e)) if v < decl.count_min.get(e).copied().unwrap_or(0) => diags.error(
                from.path,
                position(value),
                format!("{what} sets `{name}` to {v}, fewer than {} (what the game deals of it)", decl.count_min[e]),
            ),
            (None, Some(entity)) => out.push(Change::Count { entity: entity as u32, value: v }),
            (None, None) => diags.error(from.path, position(&key.0), unknown_key(what, name, decl)),
        }
    }
    for r in replace {
        if r.effect.is_none() && r.condition.is_none() {
            let event = &r.event.value;
            r.refuse(
                from,
                diags,
                format!(
                    "{what}: `replace:` of `{event}` gives no `effect:` and no `condition:`; give what replaces it"
                ),
            );
        }
        out.extend(r.effect.as_deref().and_then(|e| lower_replace(Patch::Replace(r, e), from, diags)));
        out.extend(r.condition.as_ref().and_then(|c| lower_replace(Patch::Condition(r, c), from, diags)));
    }
    for raw in steps {
        out.extend(lower_step(raw, from, (what, owner), decl, lower_replace, diags));
    }
    for raw in actions {
        let Some(during) = decl.steps.iter().position(|p| *p == raw.during.value) else {
            let hint = did_you_mean(decl.steps.iter().copied(), &raw.during.value);
            let msg = format!(
                "{what}: action `{}` is taken during unknown step `{}` (the engine's procedures: {}){hint}",
                raw.id.value,
                raw.during.value,
                decl.steps.join(", ")
            );
            diags.error(from.path, position(&raw.during), msg);
            continue;
        };
        out.extend(lower_replace(Patch::Action { during, raw, by: what }, from, diags));
    }
    out
}

/// What a `set:` key no parameter and no entity's number has is told: the
/// parameters, or for a key of three parts (`events.fire.copies`) the
/// closest entity's number.
fn unknown_key(what: &str, name: &str, decl: &Declared<'_>) -> String {
    if name.split('.').count() == 3 && !decl.count_keys.is_empty() {
        let hint = did_you_mean(decl.count_keys.iter().map(String::as_str), name);
        return format!("{what} sets `{name}`, which is no entity's number{hint}");
    }
    format!("{what} sets unknown parameter `{name}`; parameters: {}", decl.params.join(", "))
}

/// The switch points a list of changes touches.
pub(super) fn data_points(data: &[Change], decl: &Declared<'_>, points: &mut Vec<usize>) {
    for c in data {
        points.push(match *c {
            Change::Set { param, .. } => decl.param_point(param),
            Change::Count { entity, .. } => decl.count_point(entity as usize),
            Change::Replace { entity, .. } | Change::Condition { entity, .. } => decl.entity_point(entity as usize),
            Change::Step { at, .. } => decl.step_point(at as usize),
            Change::Add { step, .. } | Change::Remove { step } | Change::Move { step, .. } => {
                decl.step_point(step as usize)
            }
            Change::Action { during, .. } => decl.step_point(during as usize),
        });
    }
}
