//! The turn a catalog declares, and the changes readings and variants
//! make to it, lowered against the procedures the code registers (their
//! ids in `Declared::steps`): the list of `game.yaml` (each step a known
//! procedure, once, the required ones present) and each `steps:` entry
//! (`before:`/`after:` a declared step with an `effect:`, `remove:`,
//! `move:`), every mistake a diagnostic at its line and column.

use serde::{Deserialize, Serialize};

use super::common::{Change, Declared, LowerReplace, Patch, Source, did_you_mean};
use super::diag::Diagnostics;
use crate::yaml::{Spanned, position};

/// A `steps:` entry: a change to the turn the catalog declares. `before:`
/// or `after:` a declared step with an `effect:` adds a data step there,
/// with `add:` a procedure the code registers and the turn leaves out;
/// `remove:` takes a step out; `move:` with `before:` or `after:` puts a
/// step elsewhere.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, bound(deserialize = "E: Deserialize<'de>"))]
pub struct RawStep<E> {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub add: Option<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remove: Option<Spanned<String>>,
    #[serde(default, rename = "move", skip_serializing_if = "Option::is_none")]
    pub moves: Option<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub effect: Vec<E>,
}

impl Declared<'_> {
    /// The required steps, as indexes into `steps`.
    pub fn required_indexes(&self) -> Vec<u16> {
        self.required_steps.iter().filter_map(|r| self.steps.iter().position(|s| s == r)).map(|i| i as u16).collect()
    }

    /// The step `s` names (index into `steps`) if this catalog's turn has
    /// it, else a diagnostic.
    fn turn_step(&self, file: &str, s: &Spanned<String>, what: &str, diags: &mut Diagnostics) -> Option<usize> {
        let turn: Vec<&str> = self.turn.iter().map(|&i| self.steps[usize::from(i)]).collect();
        let msg = match self.steps.iter().position(|p| *p == s.value) {
            Some(p) if self.turn.contains(&(p as u16)) => return Some(p),
            Some(_) => format!("{what} names step `{}`, which this catalog's turn does not declare", s.value),
            None => format!("{what} names unknown step `{}`", s.value),
        };
        let hint = did_you_mean(turn.iter().copied(), &s.value);
        diags.error(file, position(s), format!("{msg} (the turn's steps: {}){hint}", turn.join(", ")));
        None
    }

    /// The procedure `s` names (index into `steps`) if the code registers
    /// it and this catalog's turn leaves it out, else a diagnostic.
    fn added_step(&self, file: &str, s: &Spanned<String>, what: &str, diags: &mut Diagnostics) -> Option<usize> {
        let msg = match self.steps.iter().position(|p| *p == s.value) {
            Some(p) if !self.turn.contains(&(p as u16)) => return Some(p),
            Some(_) => format!("{what} adds step `{}`, which this catalog's turn declares already", s.value),
            None => format!(
                "{what} adds unknown step `{}` (the engine's procedures: {}){}",
                s.value,
                self.steps.join(", "),
                did_you_mean(self.steps.iter().copied(), &s.value)
            ),
        };
        diags.error(file, position(s), msg);
        None
    }
}

/// Lowers the turn a catalog declares (the ids `phases`, in `file`; a
/// missing required step is reported at the list, or `at` for an empty
/// one): each id one of the procedures the code registers, each once,
/// every required one present. Indexes into `decl.steps`, in order.
pub fn lower_turn(
    file: &str,
    phases: &[Spanned<String>],
    at: (u64, u64),
    decl: &Declared<'_>,
    diags: &mut Diagnostics,
) -> Vec<u16> {
    let mut out = Vec::new();
    for s in phases {
        match decl.steps.iter().position(|p| *p == s.value) {
            Some(p) if out.contains(&(p as u16)) => {
                diags.error(file, position(s), format!("the turn declares step `{}` twice", s.value))
            }
            Some(p) => out.push(p as u16),
            None => {
                let hint = did_you_mean(decl.steps.iter().copied(), &s.value);
                let known = decl.steps.join(", ");
                let msg = format!("unknown turn step `{}` (the engine's procedures: {known}){hint}", s.value);
                diags.error(file, position(s), msg);
            }
        }
    }
    for r in decl.required_steps {
        if !phases.iter().any(|s| s.value == *r) {
            let at = phases.first().map_or(at, position);
            diags.error(file, at, format!("the turn lacks step `{r}`, which the engine requires in every turn"));
        }
    }
    out
}

/// Lowers one `steps:` entry of `what` (declared at `owner`) into a change
/// of the turn.
pub(super) fn lower_step<R>(
    raw: &RawStep<R>,
    from: &Source<'_>,
    (what, owner): (&str, (u64, u64)),
    decl: &Declared<'_>,
    lower_replace: &mut LowerReplace<'_, R>,
    diags: &mut Diagnostics,
) -> Option<Change> {
    let f = from.path;
    let anchor = match (&raw.before, &raw.after) {
        (Some(a), None) => Some((a, false)),
        (None, Some(a)) => Some((a, true)),
        (Some(_), Some(b)) => {
            diags.error(f, position(b), format!("{what} has a step with both `before:` and `after:`; give one"));
            return None;
        }
        (None, None) => None,
    };
    let plain = raw.effect.is_empty();
    match (&raw.add, &raw.remove, &raw.moves, anchor) {
        (Some(p), None, None, Some((a, after))) if plain => {
            let (step, at) = (decl.added_step(f, p, what, diags), decl.turn_step(f, a, what, diags));
            Some(Change::Add { step: step? as u32, at: at? as u32, after })
        }
        (None, Some(r), None, None) if plain => {
            let step = decl.turn_step(f, r, what, diags)?;
            if decl.required_steps.contains(&decl.steps[step]) {
                diags.error(
                    f,
                    position(r),
                    format!("{what} removes step `{}`, which the engine requires in every turn", r.value),
                );
                return None;
            }
            Some(Change::Remove { step: step as u32 })
        }
        (None, None, Some(m), Some((a, after))) if plain => {
            let (step, at) = (decl.turn_step(f, m, what, diags), decl.turn_step(f, a, what, diags));
            let (step, at) = (step?, at?);
            if step == at {
                diags.error(f, position(a), format!("{what} moves step `{}` next to itself", m.value));
                return None;
            }
            Some(Change::Move { step: step as u32, at: at as u32, after })
        }
        (None, None, None, Some((a, after))) if !plain => {
            let at = decl.turn_step(f, a, what, diags)?;
            lower_replace(Patch::Step { at, after, anchor: a, raw }, from, diags)
        }
        _ => {
            let first = [&raw.add, &raw.remove, &raw.moves, &raw.before, &raw.after].into_iter().flatten().next();
            diags.error(
                f,
                first.map_or(owner, position),
                format!(
                    "{what} has a step that is none of: `before:` or `after:` a step with an `effect:`; \
                     `add:` a procedure with `before:` or `after:`; `remove:` a step; \
                     `move:` a step with `before:` or `after:`"
                ),
            );
            None
        }
    }
}
