//! Readings, variants and house rules as data.
//!
//! A catalog's interpretations and variants are lowered (in `catalog`) into
//! options that carry [`Change`]s: set a parameter, replace an entity's
//! effect or condition, add, remove or move a step of the turn (`engine::turn`),
//! offer players a declared action, or — for what data cannot say — select a *hook*, a reading
//! written in Rust. Hooks are typed: each is an enum declared with
//! [`hooks!`](crate::hooks), matched exhaustively where the code branches,
//! and never compared as a string or by position.
//!
//! [`Readings::resolve`] turns a configuration into the chosen option of
//! every interpretation, the hook variant of every hook, and the parameter
//! values the game plays with. [`Touched`] records which switch points the
//! engine used in a game, so `check` and `diff` can tell a reading that
//! changes nothing from one that was never reached.
//!
//! ```
//! use rulecheck::engine::Hook;
//! rulecheck::hooks! { DEMO_HOOKS;
//!     /// How a demo rule reads.
//!     Demo = "demo" { Strict = "strict", Lax = "lax" }
//! }
//! assert_eq!(Demo::from_index(1), Demo::Lax);
//! assert_eq!(DEMO_HOOKS[0].options, &["strict", "lax"]);
//! ```

use std::cell::RefCell;

use serde::{Deserialize, Serialize};

use super::config::{Config, ConfigError};
use super::turn::{TurnError, TurnPlan};
pub use crate::catalog::common::Range;
use crate::catalog::common::{Change, Declared, Interpretation, Variant};

/// A reading the code implements, as a typed enum with one variant per
/// option it can play. Declared with [`hooks!`](crate::hooks).
pub trait Hook: Copy + Eq + std::fmt::Debug + 'static {
    /// Position in the game's hook table.
    const INDEX: usize;
    /// The interpretation id the catalog declares it under.
    const ID: &'static str;
    /// The catalog ids of its variants, in declaration order.
    const OPTIONS: &'static [&'static str];
    /// The variant at `i` (the last one for an index past the end, which
    /// `Readings::resolve` never produces).
    fn from_index(i: u8) -> Self;
}

/// Declares a game's hooks: one enum per reading the code implements, and
/// the table (`$table`) the catalog loader checks the catalog against.
#[macro_export]
macro_rules! hooks {
    ($table:ident; $( $(#[$m:meta])* $name:ident = $id:literal { $($var:ident = $opt:literal),+ $(,)? } )+) => {
        #[allow(dead_code)]
        #[derive(Clone, Copy)]
        enum HookIndex { $($name),+ }
        $(
            $(#[$m])*
            #[derive(Debug, Clone, Copy, PartialEq, Eq)]
            pub enum $name { $($var),+ }
            impl $crate::engine::Hook for $name {
                const INDEX: usize = HookIndex::$name as usize;
                const ID: &'static str = $id;
                const OPTIONS: &'static [&'static str] = &[$($opt),+];
                fn from_index(i: u8) -> Self {
                    const ALL: &[$name] = &[$($name::$var),+];
                    ALL[usize::from(i).min(ALL.len() - 1)]
                }
            }
        )+
        /// Every hook the code declares, in declaration order.
        pub const $table: &[$crate::catalog::common::HookDecl] =
            &[$($crate::catalog::common::HookDecl { id: $id, options: &[$($opt),+] }),+];
    };
}

/// Declares a game's switches: an enum of the variants (or parameters) the
/// code knows by name, with their catalog ids in `$table`.
#[macro_export]
macro_rules! switches {
    ($(#[$m:meta])* $name:ident, $table:ident; $($(#[$vm:meta])* $var:ident = $id:literal),+ $(,)?) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
        pub enum $name { $($(#[$vm])* $var),+ }
        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$var),+];
            pub fn id(self) -> &'static str {
                $table[self as usize]
            }
        }
        impl From<$name> for usize {
            fn from(s: $name) -> usize {
                s as usize
            }
        }
        /// The catalog ids, in declaration order.
        pub const $table: &[&str] = &[$($id),+];
    };
}

/// The readings of one configuration: the chosen option of every catalog
/// interpretation, the variant of every code hook, the variants on, and the
/// parameters after every change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Readings {
    /// Chosen option per catalog interpretation (catalog order).
    pub options: Vec<u16>,
    /// Chosen variant per hook (hook-table order).
    pub hooks: Vec<u8>,
    /// Enabled variants (catalog order).
    pub variants: Vec<bool>,
    /// Parameter values (parameter-table order).
    pub params: Vec<u32>,
    /// Entity → the replacement effect that applies (an index the game
    /// gave the `Change::Replace`), for entities some reading replaces; and
    /// `CONDITION | entity` → the replacement condition (`Change::Condition`).
    /// One list: every state carries it, and most carry it empty.
    pub replaced: Vec<(u32, u32)>,
    /// Counted entity → its number, for the entities some reading or
    /// variant counts otherwise than the catalog (sorted by entity).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub counts: Vec<(u32, u32)>,
    /// The turn after every change: the catalog's steps, with the steps
    /// readings and variants add, remove or move.
    pub turn: TurnPlan,
    /// The declared actions players may take in this configuration (the
    /// game's indexes of the catalog's `actions:`, sorted).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub actions: Vec<u32>,
}

/// What a configuration's readings start from: the catalog's parameter
/// values and its turn, with the procedure ids (for errors) and the
/// procedures no change may remove (indexes into `steps`).
#[derive(Clone, Copy)]
pub struct Base<'a> {
    pub params: &'a [u32],
    /// The parameters' ids (`turn.hand_limit`), for a clash between changes.
    pub names: &'a [&'a str],
    /// The `set:` key of a counted entity's number (`events.fire.copies`),
    /// worked out only for a clash.
    pub count_key: &'a dyn Fn(u32) -> String,
    /// The catalog id of an entity a `replace:` names (`fire`), worked out
    /// only for a clash.
    pub entity: &'a dyn Fn(u32) -> String,
    pub turn: &'a TurnPlan,
    pub steps: &'a [&'a str],
    pub required: &'a [u16],
}

impl Readings {
    /// Resolves a configuration against the catalog's interpretations and
    /// variants. `base` are the catalog's parameter values. Unknown ids,
    /// unknown options and incompatible variants are errors; the changes of
    /// enabled variants apply first, then those of the chosen options, in
    /// catalog order (two of them setting one number to different values
    /// is an error, `ConfigError::Clash`, and two replacing one entity's
    /// effect or condition `ConfigError::Replaced`: neither is made to
    /// win; a change
    /// to the turn applies to the turn the earlier ones left, and naming a
    /// step an earlier change removed is an error).
    pub fn resolve(
        interpretations: &[Interpretation],
        variants: &[Variant],
        hooks: usize,
        base: Base<'_>,
        config: &Config,
    ) -> Result<Readings, ConfigError> {
        for v in &config.variants {
            if !variants.iter().any(|x| x.id == *v) {
                return Err(ConfigError::UnknownVariant(v.clone()));
            }
        }
        for v in variants.iter().filter(|v| config.variants.contains(&v.id)) {
            if let Some(other) = v.incompatible.iter().find(|o| config.variants.contains(*o)) {
                return Err(ConfigError::IncompatibleVariants(v.id.clone(), other.clone()));
            }
        }
        for (id, opt) in &config.interpretations {
            let Some(i) = interpretations.iter().find(|i| i.id == *id) else {
                return Err(ConfigError::UnknownInterpretation(id.clone()));
            };
            if !i.options.iter().any(|o| o.id == *opt) {
                return Err(ConfigError::UnknownOption {
                    interpretation: id.clone(),
                    option: opt.clone(),
                    options: i.option_ids().map(String::from).collect(),
                });
            }
        }
        let mut r = Readings {
            options: Vec::with_capacity(interpretations.len()),
            hooks: vec![0; hooks],
            variants: variants.iter().map(|v| config.variants.contains(&v.id)).collect(),
            params: base.params.to_vec(),
            replaced: Vec::new(),
            counts: Vec::new(),
            turn: base.turn.clone(),
            actions: Vec::new(),
        };
        let mut set_by = SetBy::default();
        for (v, on) in variants.iter().zip(r.variants.clone()) {
            if on {
                r.apply(&v.data, &base, &|| format!("variant `{}`", v.id), &mut set_by)?;
            }
        }
        for i in interpretations {
            let chosen = config.interpretations.get(&i.id).unwrap_or(&i.default);
            let k = i.options.iter().position(|o| o.id == *chosen).unwrap_or(0);
            r.options.push(k as u16);
            let o = &i.options[k];
            if let (Some(h), Some(v)) = (i.hook, o.hook)
                && let Some(slot) = r.hooks.get_mut(h)
            {
                *slot = v;
            }
            let by = || format!("option `{}` of interpretation `{}`", o.id, i.id);
            r.apply(&o.data, &base, &by, &mut set_by)?;
        }
        Ok(r)
    }

    /// Applies the changes of one variant or option (`by` names it, worded
    /// only where it is said: most configurations change nothing).
    fn apply(
        &mut self,
        changes: &[Change],
        base: &Base<'_>,
        by: &dyn Fn() -> String,
        set_by: &mut SetBy,
    ) -> Result<(), ConfigError> {
        let turn_error = |e: TurnError| ConfigError::Turn { by: by(), why: e.describe(base.steps) };
        for c in changes {
            match *c {
                Change::Set { param, value } => {
                    set_by.claim(Number::Param(param), value, by, base)?;
                    if let Some(p) = self.params.get_mut(param) {
                        *p = value;
                    }
                }
                Change::Replace { entity, with } => {
                    set_by.claim(Number::Effect(entity), with, by, base)?;
                    set_at(&mut self.replaced, entity, with);
                }
                Change::Condition { entity, with } => {
                    set_by.claim(Number::Condition(entity), with, by, base)?;
                    set_at(&mut self.replaced, CONDITION | entity, with);
                }
                Change::Count { entity, value } => {
                    set_by.claim(Number::Count(entity), value, by, base)?;
                    set_at(&mut self.counts, entity, value);
                }
                Change::Step { at, after, with } => self.turn.add(at as u16, after, with).map_err(turn_error)?,
                Change::Add { step, at, after } => {
                    self.turn.add_proc(step as u16, at as u16, after).map_err(turn_error)?
                }
                Change::Remove { step } => self.turn.remove(step as u16, base.required).map_err(turn_error)?,
                Change::Move { step, at, after } => {
                    self.turn.move_step(step as u16, at as u16, after).map_err(turn_error)?
                }
                Change::Action { action, .. } => {
                    if let Err(i) = self.actions.binary_search(&action) {
                        self.actions.insert(i, action);
                    }
                }
            }
        }
        Ok(())
    }

    /// The number of counted entity `entity` this configuration sets, if a
    /// reading or a variant sets one (else the catalog's stands).
    pub fn count(&self, entity: u32) -> Option<u32> {
        get_at(&self.counts, entity)
    }

    /// How this configuration reads hook `H`, with no record of it (what a
    /// state reads through `Reads`, and set-up before there is a state).
    pub fn hook<H: Hook>(&self) -> H {
        H::from_index(self.hooks.get(H::INDEX).copied().unwrap_or(0))
    }

    /// Parameter `k`'s value in this configuration, with no record of it.
    pub fn param(&self, k: impl Into<usize>) -> u32 {
        self.params.get(k.into()).copied().unwrap_or(0)
    }

    /// The replacement of an entity's effect, if a reading replaces it.
    pub fn replacement(&self, entity: u32) -> Option<u32> {
        get_at(&self.replaced, entity)
    }

    /// The replacement of an entity's condition, if a reading replaces it.
    pub fn condition(&self, entity: u32) -> Option<u32> {
        get_at(&self.replaced, CONDITION | entity)
    }
}

/// The bit that keys an entity's replaced condition in `Readings::replaced`
/// (an entity's own key is its index, far below it).
const CONDITION: u32 = 1 << 31;

/// What a change sets: a parameter, a counted entity's number, or an
/// entity's effect or condition (its value the replacement's index: two
/// replacements of one entity never agree).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Number {
    Param(usize),
    Count(u32),
    Effect(u32),
    Condition(u32),
}

/// The numbers set so far while a configuration resolves, each with the
/// value and the variant or option that set it.
#[derive(Default)]
struct SetBy(Vec<(Number, u32, String)>);

impl SetBy {
    /// Records that `by` sets `number` to `value`; a clash when another
    /// variant or option set it to another value.
    fn claim(
        &mut self,
        number: Number,
        value: u32,
        by: &dyn Fn() -> String,
        base: &Base<'_>,
    ) -> Result<(), ConfigError> {
        match self.0.iter().find(|(n, _, _)| *n == number) {
            Some((_, earlier, first)) if *earlier != value => Err(match number {
                Number::Param(p) => ConfigError::Clash {
                    number: base.names.get(p).map_or_else(|| format!("parameter {p}"), |n| n.to_string()),
                    first: (first.clone(), *earlier),
                    second: (by(), value),
                },
                Number::Count(e) => ConfigError::Clash {
                    number: (base.count_key)(e),
                    first: (first.clone(), *earlier),
                    second: (by(), value),
                },
                Number::Effect(e) | Number::Condition(e) => ConfigError::Replaced {
                    what: if matches!(number, Number::Effect(_)) { "effect" } else { "condition" },
                    entity: (base.entity)(e),
                    first: first.clone(),
                    second: by(),
                },
            }),
            Some(_) => Ok(()),
            None => {
                self.0.push((number, value, by()));
                Ok(())
            }
        }
    }
}

/// `entity`'s value in a list sorted by entity, if it has one (an empty
/// list, the common case, is answered without a search).
fn get_at(list: &[(u32, u32)], entity: u32) -> Option<u32> {
    if list.is_empty() {
        return None;
    }
    list.binary_search_by_key(&entity, |(e, _)| *e).ok().map(|i| list[i].1)
}

/// Sets `entity`'s value in a list sorted by entity (a later change to
/// the same entity wins).
fn set_at(list: &mut Vec<(u32, u32)>, entity: u32, value: u32) {
    match list.binary_search_by_key(&entity, |(e, _)| *e) {
        Ok(i) => list[i].1 = value,
        Err(i) => list.insert(i, (entity, value)),
    }
}

/// How a game's state reads its configuration: the hook variant and the
/// parameter values [`Readings::resolve`] chose, each recorded in
/// [`Touched`] as consulted (`r`, `p`, `replaced`, `chose`) or read
/// without a record (`peek`, `param`: for the invariants, which must not
/// change what counts as reached). A game states only where its readings
/// live; the switch points follow `catalog::common::Declared` (hooks, then
/// parameters, which `resolve` sizes to the game's hook table).
pub trait Reads {
    /// The game's parameter enum (declared with [`switches!`](crate::switches)).
    type Param: Into<usize>;
    /// The configuration's readings and the record of what was consulted.
    fn reads(&self) -> (&Readings, &Touched);

    /// How the configuration reads hook `H`, recording that it was consulted.
    fn r<H: Hook>(&self) -> H {
        self.reads().1.mark(H::INDEX);
        self.peek()
    }

    /// How the configuration reads hook `H`, without recording it.
    fn peek<H: Hook>(&self) -> H {
        self.reads().0.hook()
    }

    /// A parameter's value in this configuration, recording that it was used.
    fn p(&self, k: Self::Param) -> u32 {
        let (readings, touched) = self.reads();
        let k = k.into();
        touched.mark(readings.hooks.len() + k);
        readings.param(k)
    }

    /// A parameter's value without recording its use.
    fn param(&self, k: Self::Param) -> u32 {
        self.reads().0.param(k)
    }

    /// The replacement a reading or variant gives entity `e`'s effect (an
    /// index the game gave the `Change::Replace`), recorded as consulted
    /// where there is one.
    fn replaced(&self, declared: &Declared<'_>, e: usize) -> Option<u32> {
        let (readings, touched) = self.reads();
        let with = readings.replacement(e as u32)?;
        touched.mark(declared.entity_point(e));
        Some(with)
    }

    /// The replacement a reading or variant gives entity `e`'s condition
    /// (an index the game gave the `Change::Condition`), recorded as
    /// consulted where there is one.
    fn condition_replaced(&self, declared: &Declared<'_>, e: usize) -> Option<u32> {
        let (readings, touched) = self.reads();
        let with = readings.condition(e as u32)?;
        touched.mark(declared.entity_point(e));
        Some(with)
    }

    /// Whether interpretation `i` chose option `o` (a `reading:`
    /// condition), recording the consultation.
    fn chose(&self, declared: &Declared<'_>, i: usize, o: u16) -> bool {
        let (readings, touched) = self.reads();
        touched.mark(declared.interpretation_point(i));
        readings.options.get(i) == Some(&o)
    }
}

/// Which switch points (hooks, parameters, replaced entities, reading
/// conditions) the engine used: how the engine read the state, so it takes
/// no part in equality and is not serialised.
#[derive(Debug, Clone, Default)]
pub struct Touched(RefCell<Vec<u64>>);

impl Touched {
    /// Records that switch point `point` was used (on every reading a
    /// game's hot path consults, so it is inlined).
    #[inline]
    pub fn mark(&self, point: usize) {
        let mut bits = self.0.borrow_mut();
        let (w, b) = (point / 64, point % 64);
        if bits.len() <= w {
            bits.resize(w + 1, 0);
        }
        bits[w] |= 1 << b;
    }

    pub fn get(&self, point: usize) -> bool {
        self.0.borrow().get(point / 64).is_some_and(|w| w & (1 << (point % 64)) != 0)
    }

    /// Records every switch point `other` used too (a copy of the state
    /// the engine read on the side, such as a condition read for another seat).
    pub fn merge(&self, other: &Touched) {
        let other = other.0.borrow();
        let mut bits = self.0.borrow_mut();
        if bits.len() < other.len() {
            bits.resize(other.len(), 0);
        }
        bits.iter_mut().zip(other.iter()).for_each(|(b, o)| *b |= o);
    }

    /// The interpretations whose switch points were used, by id.
    pub fn consulted(&self, interpretations: &[Interpretation]) -> Vec<String> {
        interpretations.iter().filter(|i| i.points.iter().any(|&p| self.get(p))).map(|i| i.id.clone()).collect()
    }
}

impl PartialEq for Touched {
    fn eq(&self, _: &Touched) -> bool {
        true
    }
}
