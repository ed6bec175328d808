//! Compiling effects and conditions once, at load, against the registry of
//! operations (cel-rust's function registry is the model: each operation is
//! one definition naming its arguments, checking them and saying how it
//! runs). Every problem is a diagnostic at the node's line and column.

use std::collections::{BTreeMap, BTreeSet};

use super::agenda::Steps;
use super::effect::{Args, Choice, Effect, Expand, Lang, Sel, Step, Val, World, expand, queue_each, seats};
use super::node::{Node, Value, Word};
use crate::catalog::MAX_NUMBER;
pub use crate::catalog::common::did_you_mean;
use crate::catalog::diag::Diagnostics;

/// The type of an operation's argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ty {
    /// A whole number from 0 to `catalog::MAX_NUMBER`.
    Count,
    Bool,
    /// Who: `active`, `each-player`, `each-other-player`, `each` (in a
    /// `for_each`), or one of the game's selectors.
    Selector,
    /// A selector or a place the game accepts as a destination.
    Destination,
    /// A flag of the catalog.
    Flag,
    Cond,
    /// A list of effects.
    Effects,
    /// A list of effects run once for each player of a loop (`each` names him).
    Body,
    /// A list of options `{id, effect}` a player chooses among.
    Options,
    /// A deck the game names.
    Deck,
    /// A card kind of the game.
    Card,
    /// An id the operation itself resolves (a choice's own id).
    Word,
}

impl Ty {
    fn expected(self) -> &'static str {
        match self {
            Ty::Count => "a whole number",
            Ty::Bool => "true or false",
            Ty::Selector | Ty::Destination => "a selector (a string such as `active`)",
            Ty::Flag => "a flag id",
            Ty::Cond => "a condition",
            Ty::Effects | Ty::Body => "a list of effects",
            Ty::Options => "a list of options, each `{id, effect}`",
            Ty::Deck => "a deck name",
            Ty::Word => "an id",
            Ty::Card => "a card id",
        }
    }
}

/// One argument of an operation.
#[derive(Debug, Clone, Copy)]
pub struct Param {
    pub name: &'static str,
    pub ty: Ty,
    pub required: bool,
}

pub const fn req(name: &'static str, ty: Ty) -> Param {
    Param { name, ty, required: true }
}

pub const fn opt(name: &'static str, ty: Ty) -> Param {
    Param { name, ty, required: false }
}

/// Checks an operation makes beyond its argument shape.
pub type Check<L> = fn(&mut Compiler<'_, L>, &mut Args<L>, (u64, u64));

/// An operation of the language, defined in one place.
pub struct OpDef<L: Lang> {
    pub name: &'static str,
    /// Its arguments when written as a mapping (`draw: {to: active, count: 2}`).
    pub params: &'static [Param],
    /// The one argument its value is when it is not a mapping
    /// (`set_flag: <flag>`, `choose: [options]`); with no params and no
    /// bare argument the operation is written by its name alone (`damage`).
    pub bare: Option<Param>,
    pub check: Check<L>,
    pub expand: Expand<L>,
}

/// No checks beyond the shape.
pub fn no_check<L: Lang>(_: &mut Compiler<'_, L>, _: &mut Args<L>, _: (u64, u64)) {}

/// The shared operations and then the game's.
pub struct Registry<L: Lang> {
    ops: Vec<OpDef<L>>,
}

impl<L: Lang> Default for Registry<L> {
    fn default() -> Self {
        let mut ops = shared::<L>();
        ops.extend(L::operations());
        Registry { ops }
    }
}

impl<L: Lang> Registry<L> {
    pub fn find(&self, name: &str) -> Option<&OpDef<L>> {
        self.ops.iter().find(|o| o.name == name)
    }
    pub fn names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.ops.iter().map(|o| o.name)
    }

    /// How many numbers (count arguments) a list of effects writes, for
    /// the provenance tally.
    pub fn count_numbers(&self, effects: &[Node]) -> usize {
        let mut n = 0;
        for e in effects {
            let Some((name, Some(v))) = e.operation() else { continue };
            let Some(def) = self.find(&name.text) else { continue };
            let args: Vec<(Param, &Node)> = match (&v.value, def.bare) {
                (Value::Map(m), bare) if bare.is_none() || !def.params.is_empty() => {
                    (m.iter()).filter_map(|(k, v)| Some((*def.params.iter().find(|p| p.name == k.text)?, v))).collect()
                }
                (_, Some(p)) => vec![(p, v)],
                _ => vec![],
            };
            for (p, v) in args {
                n += match (p.ty, &v.value) {
                    (Ty::Count, _) => 1,
                    (Ty::Effects | Ty::Body, Value::Seq(items)) => self.count_numbers(items),
                    (Ty::Options, Value::Seq(options)) => (options.iter())
                        .filter_map(|o| match &o.value {
                            Value::Map(m) => m.iter().find(|(k, _)| k.text == "effect"),
                            _ => None,
                        })
                        .map(|(_, e)| if let Value::Seq(items) = &e.value { self.count_numbers(items) } else { 0 })
                        .sum(),
                    _ => 0,
                };
            }
        }
        n
    }
}

/// Where diagnostics go: the file, its text (for columns inside a scalar)
/// and the list.
pub struct Report<'a> {
    pub file: &'a str,
    pub text: &'a str,
    pub diags: &'a mut Diagnostics,
}

impl Report<'_> {
    pub fn error(&mut self, at: (u64, u64), msg: impl Into<String>) {
        self.diags.error(self.file, at, msg.into());
    }
}

/// What a game adds to the language at compile time: its selectors,
/// conditions, measures and decks.
pub trait Host<L: Lang> {
    /// The game's selector of this name (`None` if it has none); errors in
    /// it (a dangling id) go to `r`. A game without selectors of its own
    /// (`Lang::Sel` is `Never`) keeps the default: it has none.
    fn selector(&self, w: &Word, destination: bool, r: &mut Report<'_>) -> Option<L::Sel> {
        let _ = (w, destination, r);
        None
    }
    /// Whether the selector names the entry's target (an entry without one
    /// may not use it).
    fn needs_target(&self, sel: L::Sel) -> bool {
        let _ = sel;
        false
    }
    /// Its selector names, for messages.
    fn selector_names(&self, destination: bool) -> &'static [&'static str] {
        let _ = destination;
        &[]
    }
    /// The game's condition of this name (`None` if it has none; the
    /// default, for a game without conditions of its own).
    fn cond(&self, name: &Word, arg: &Node, r: &mut Report<'_>) -> Option<L::Cond> {
        let _ = (name, arg, r);
        None
    }
    fn cond_names(&self) -> &'static [&'static str] {
        &[]
    }
    /// What a `count` may measure, by name.
    fn measures(&self) -> &'static [(&'static str, L::Measure)];
    /// The decks `draw` may name, by name; the first is the one `draw`
    /// draws from when it names none.
    fn decks(&self) -> &'static [(&'static str, L::Deck)];
    /// The card kind of this id (an unknown one is reported to `r`).
    fn card(&self, w: &Word, r: &mut Report<'_>) -> Option<L::Card>;
}

/// The entity `w` names in `ids` (a catalog's ids of one kind), or `None`
/// with an "unknown `what`" error at `w` (and a "did you mean").
pub fn named<T: Copy>(ids: &BTreeMap<String, T>, what: &str, w: &Word, r: &mut Report<'_>) -> Option<T> {
    let found = ids.get(&w.text).copied();
    if found.is_none() {
        let hint = did_you_mean(ids.keys().map(String::as_str), &w.text);
        r.error(w.at, format!("unknown {what} `{}`{hint}", w.text));
    }
    found
}

/// What compiling adds to the catalog: `choose` options and the
/// interpretations `reading:` conditions test.
pub struct Tables<L: Lang> {
    pub choices: Vec<Choice<L>>,
    pub readings: BTreeSet<usize>,
}

impl<L: Lang> Default for Tables<L> {
    fn default() -> Self {
        Tables { choices: Vec::new(), readings: BTreeSet::new() }
    }
}

/// The catalog's names the shared operations resolve.
pub struct Names<'a, L: Lang> {
    pub flags: &'a BTreeMap<String, L::Flag>,
    /// Interpretation ids with their option ids, in catalog order.
    pub interpretations: &'a [(String, Vec<String>)],
}

/// Compiles the effects and conditions of one catalog entry.
pub struct Compiler<'a, L: Lang> {
    pub report: Report<'a>,
    pub host: &'a dyn Host<L>,
    pub names: &'a Names<'a, L>,
    pub tables: &'a mut Tables<L>,
    registry: &'a Registry<L>,
    /// The entry has a target (an effect on it may name the target).
    pub has_target: bool,
    /// How many `for_each` loops enclose what is being compiled.
    loops: u32,
}

impl<'a, L: Lang> Compiler<'a, L> {
    pub fn new(
        report: Report<'a>,
        registry: &'a Registry<L>,
        host: &'a dyn Host<L>,
        names: &'a Names<'a, L>,
        tables: &'a mut Tables<L>,
        has_target: bool,
    ) -> Self {
        Compiler { report, host, names, tables, registry, has_target, loops: 0 }
    }

    pub fn error(&mut self, at: (u64, u64), msg: impl Into<String>) {
        self.report.error(at, msg);
    }

    pub fn effects(&mut self, nodes: &[Node]) -> Vec<Effect<L>> {
        nodes.iter().filter_map(|n| self.effect(n)).collect()
    }

    fn effect(&mut self, n: &Node) -> Option<Effect<L>> {
        let Some((name, value)) = n.operation() else {
            self.error(
                n.at,
                format!(
                    "an effect is an operation: its name (`damage`) or a mapping with one key, the name, whose \
                     value is its arguments (`draw: {{to: active, count: 2}}`); found {}",
                    n.value.kind()
                ),
            );
            return None;
        };
        let registry = self.registry;
        let Some(def) = registry.find(&name.text) else {
            let hint = did_you_mean(registry.names(), &name.text);
            let known: Vec<&str> = registry.names().collect();
            self.error(name.at, format!("unknown operation `{}`; known: {}{hint}", name.text, known.join(", ")));
            return None;
        };
        let mut args = self.args(def.name, def.params, def.bare, &name, value)?;
        (def.check)(self, &mut args, name.at);
        Some(Effect::new(def.name, args, def.expand))
    }

    /// The arguments of `op` written at `name` with `value`, checked against its shape.
    pub(super) fn args(
        &mut self,
        op: &str,
        params: &[Param],
        bare: Option<Param>,
        name: &Word,
        value: Option<&Node>,
    ) -> Option<Args<L>> {
        let shape = || params.iter().map(|p| p.name).collect::<Vec<_>>().join(", ");
        let mut args = Args::default();
        match (value, bare) {
            (None, None) if params.is_empty() => {}
            (Some(v), None) if params.is_empty() => {
                self.error(v.at, format!("`{op}` takes no arguments; write it as `- {op}`"));
                return None;
            }
            (None, _) => {
                let what = bare.map_or_else(|| format!("a mapping with {}", shape()), |p| p.ty.expected().into());
                self.error(name.at, format!("`{op}` needs {what}"));
                return None;
            }
            // an operation with a bare form may also be written as a mapping
            // of its arguments (`choose: {by: <selector>, options: [...]}`)
            (Some(v), Some(p)) if params.is_empty() || !matches!(v.value, Value::Map(_)) => {
                args.0.push((p.name, self.value(op, p, v)?))
            }
            (Some(v), _) => {
                let Value::Map(m) = &v.value else {
                    let found = v.value.kind();
                    self.error(v.at, format!("`{op}` takes a mapping of its arguments ({}), found {found}", shape()));
                    return None;
                };
                let mut unknown = false;
                for (k, _) in m.iter().filter(|(k, _)| !params.iter().any(|p| p.name == k.text)) {
                    let hint = did_you_mean(params.iter().map(|p| p.name), &k.text);
                    self.error(k.at, format!("`{op}` has no argument `{}`; it takes {}{hint}", k.text, shape()));
                    unknown = true;
                }
                for p in params {
                    match m.iter().find(|(k, _)| k.text == p.name) {
                        Some((_, v)) => {
                            if let Some(val) = self.value(op, *p, v) {
                                args.0.push((p.name, val));
                            }
                        }
                        // a misspelt argument is reported once, as unknown, not also as missing
                        None if p.required && !unknown => {
                            self.error(name.at, format!("`{op}` needs the argument `{}`", p.name));
                        }
                        None => {}
                    }
                }
            }
        }
        Some(args)
    }

    pub(super) fn value(&mut self, op: &str, p: Param, v: &Node) -> Option<Val<L>> {
        let wrong = |cx: &mut Self| {
            let found = v.value.kind();
            cx.error(v.at, format!("`{}` of `{op}` must be {}, found {found}", p.name, p.ty.expected()));
            None
        };
        match (p.ty, &v.value) {
            (Ty::Count, Value::Int(n)) if (0..=i64::from(MAX_NUMBER)).contains(n) => Some(Val::Count(*n as u32)),
            (Ty::Count, Value::Int(n)) => {
                self.error(v.at, format!("`{}` of `{op}` is {n}; it must be from 0 to {MAX_NUMBER}", p.name));
                None
            }
            (Ty::Bool, Value::Bool(b)) => Some(Val::Bool(*b)),
            (Ty::Selector | Ty::Destination, Value::Str(_)) => {
                Some(Val::Sel(self.selector(&v.word()?, p.ty == Ty::Destination)?))
            }
            (Ty::Flag, Value::Str(_)) => self.flag(&v.word()?).map(Val::Flag),
            (Ty::Cond, _) => self.cond(v).map(Val::Cond),
            (Ty::Effects, Value::Seq(items)) => Some(Val::Effects(self.effects(items))),
            (Ty::Body, Value::Seq(items)) => {
                self.loops += 1;
                let body = self.effects(items);
                self.loops -= 1;
                Some(Val::Effects(body))
            }
            (Ty::Options, Value::Seq(items)) => self.options(op, v.at, items).map(Val::Choice),
            (Ty::Word, Value::Str(s)) => Some(Val::Word(s.clone())),
            (Ty::Card, Value::Str(_)) => self.host.card(&v.word()?, &mut self.report).map(Val::Card),
            (Ty::Deck, Value::Str(s)) => match self.host.decks().iter().find(|(name, _)| name == s) {
                Some(&(_, d)) => Some(Val::Deck(d)),
                None => {
                    let names: Vec<&str> = self.host.decks().iter().map(|(name, _)| *name).collect();
                    let hint = did_you_mean(names.iter().copied(), s);
                    self.error(v.at, format!("unknown deck `{s}`; decks: {}{hint}", names.join(", ")));
                    None
                }
            },
            _ => wrong(self),
        }
    }

    /// A selector: a shared one, else the game's.
    pub fn selector(&mut self, w: &Word, destination: bool) -> Option<Sel<L>> {
        let shared = match w.text.as_str() {
            "active" => Some(Sel::Active),
            "each-player" => Some(Sel::EachPlayer),
            "each-other-player" => Some(Sel::EachOtherPlayer),
            "each" if self.loops > 0 => Some(Sel::Each),
            "each" => {
                self.error(w.at, "`each` names the player a `for_each` stands at; it is used inside `do:` only");
                return None;
            }
            _ => None,
        };
        if shared.is_some() {
            return shared;
        }
        if let Some(s) = self.host.selector(w, destination, &mut self.report) {
            if self.host.needs_target(s) && !self.has_target {
                self.error(w.at, format!("`{}` needs the event to have a `target`", w.text));
            }
            return Some(Sel::Game(s));
        }
        let mut known = vec!["active", "each-player", "each-other-player"];
        known.extend(self.host.selector_names(destination));
        let hint = did_you_mean(known.iter().copied(), &w.text);
        self.error(w.at, format!("unknown selector `{}`; expected {}{hint}", w.text, known.join(", ")));
        None
    }

    pub(super) fn flag(&mut self, w: &Word) -> Option<L::Flag> {
        let flags = self.names.flags;
        let f = flags.get(&w.text).copied();
        if f.is_none() {
            let hint = did_you_mean(flags.keys().map(String::as_str), &w.text);
            self.error(w.at, format!("unknown flag `{}`{hint}", w.text));
        }
        f
    }

    /// A `choose`'s options, added to the choice table.
    fn options(&mut self, op: &str, at: (u64, u64), items: &[Node]) -> Option<u32> {
        if items.len() < 2 {
            self.error(at, format!("`{op}` needs at least two options"));
        }
        let mut seen = BTreeSet::new();
        let mut compiled = Vec::new();
        // an option runs later, when it is chosen: outside any loop
        let loops = std::mem::take(&mut self.loops);
        for o in items {
            let Some(args) = self.args("an option", OPTION, None, &Word { text: "option".into(), at: o.at }, Some(o))
            else {
                continue;
            };
            let Value::Map(m) = &o.value else { continue };
            let Some(w) = m.iter().find(|(k, _)| k.text == "id").and_then(|(_, v)| v.word()) else { continue };
            crate::catalog::common::check_kebab(self.report.file, &w.text, w.at, self.report.diags);
            if !seen.insert(w.text.clone()) {
                self.error(w.at, format!("duplicate choice id `{}`", w.text));
            }
            compiled.push((w.text, args.effects("effect").to_vec()));
        }
        self.loops = loops;
        self.tables.choices.push(compiled);
        Some((self.tables.choices.len() - 1) as u32)
    }
}

const OPTION: &[Param] = &[req("id", Ty::Word), req("effect", Ty::Effects)];

// ------------------------------------------------------------ shared operations

const IF: &[Param] = &[req("cond", Ty::Cond), req("then", Ty::Effects), opt("otherwise", Ty::Effects)];
/// `choose: [options]` asks the active player; `choose: {by: <selector>,
/// options: [...]}` asks each seat the selector names (nobody, for a place
/// with no owner).
const CHOOSE: &[Param] = &[opt("by", Ty::Selector), req("options", Ty::Options)];
const FOR_EACH: &[Param] = &[req("players", Ty::Selector), req("do", Ty::Body)];
const DRAW: &[Param] = &[req("to", Ty::Selector), req("count", Ty::Count), opt("from", Ty::Deck)];
const MOVE: &[Param] =
    &[req("from", Ty::Selector), req("to", Ty::Destination), req("count", Ty::Count), opt("card", Ty::Card)];

fn shared<L: Lang>() -> Vec<OpDef<L>> {
    vec![
        OpDef { name: "if", params: IF, bare: None, check: no_check, expand: expand_if::<L> },
        OpDef {
            name: "choose",
            params: CHOOSE,
            bare: Some(req("options", Ty::Options)),
            check: no_check,
            expand: expand_choose::<L>,
        },
        OpDef { name: "for_each", params: FOR_EACH, bare: None, check: no_check, expand: expand_for_each::<L> },
        OpDef { name: "draw", params: DRAW, bare: None, check: check_draw::<L>, expand: expand_draw::<L> },
        OpDef { name: "move", params: MOVE, bare: None, check: check_move::<L>, expand: expand_move::<L> },
        OpDef {
            name: "set_flag",
            params: &[],
            bare: Some(req("flag", Ty::Flag)),
            check: no_check,
            expand: expand_set_flag::<L>,
        },
    ]
}

fn expand_if<L: Lang>(w: &mut L::State, rules: &L::Rules, a: &Args<L>, source: L::Source) {
    let holds = match a.get("cond") {
        Some(Val::Cond(c)) => super::effect::eval(w, rules, c),
        _ => false,
    };
    let branch = if holds { a.effects("then") } else { a.effects("otherwise") };
    expand(w, rules, branch, source);
}

fn expand_choose<L: Lang>(w: &mut L::State, rules: &L::Rules, a: &Args<L>, source: L::Source) {
    let Some(Val::Choice(choice)) = a.get("options") else { return };
    let choice = *choice;
    let Some(by) = a.sel("by") else {
        w.agenda().queue.push_back(Step::Choose { choice, source, by: None });
        return;
    };
    for seat in seats(w, rules, by).into_iter().flatten() {
        w.agenda().queue.push_back(Step::Choose { choice, source, by: Some(seat) });
    }
}

fn expand_for_each<L: Lang>(w: &mut L::State, rules: &L::Rules, a: &Args<L>, source: L::Source) {
    let Some(sel) = a.sel("players") else { return };
    let outer = w.each();
    for seat in seats(w, rules, sel).into_iter().flatten() {
        w.set_each(Some(seat));
        expand(w, rules, a.effects("do"), source);
    }
    w.set_each(outer);
}

/// A `draw` that names no deck draws from the game's first one.
fn check_draw<L: Lang>(cx: &mut Compiler<'_, L>, a: &mut Args<L>, at: (u64, u64)) {
    if a.get("from").is_none() {
        match cx.host.decks().first() {
            Some(&(_, deck)) => a.0.push(("from", Val::Deck(deck))),
            None => cx.error(at, "`draw` needs a deck, and this game has none"),
        }
    }
}

/// `to` draws `count` cards from the deck each.
fn expand_draw<L: Lang>(w: &mut L::State, rules: &L::Rules, a: &Args<L>, _: L::Source) {
    let (Some(to), Some(count), Some(Val::Deck(deck))) = (a.sel("to"), a.count("count"), a.get("from")) else {
        return;
    };
    queue_each(w, rules, to, |seat| Step::Draw { deck: *deck, seat, count });
}

fn expand_set_flag<L: Lang>(w: &mut L::State, _: &L::Rules, a: &Args<L>, _: L::Source) {
    if let Some(Val::Flag(f)) = a.get("flag") {
        w.agenda().queue.push_back(Step::SetFlag(*f));
    }
}

/// Whether a selector may name several players.
fn several<L: Lang>(s: Option<Sel<L>>) -> bool {
    matches!(s, Some(Sel::EachPlayer | Sel::EachOtherPlayer))
}

fn check_move<L: Lang>(cx: &mut Compiler<'_, L>, a: &mut Args<L>, at: (u64, u64)) {
    if several(a.sel("from")) && several(a.sel("to")) {
        cx.error(at, "`from` and `to` of `move` cannot both name several players");
    }
}

/// `count` cards (of kind `card`, else random ones, every card held as
/// likely as another: each game picks with `Multiset::pick`) pass from the
/// hand of each player `from` names to `to` (a player who is both loses
/// nothing).
fn expand_move<L: Lang>(w: &mut L::State, rules: &L::Rules, a: &Args<L>, _: L::Source) {
    let (Some(from), Some(to), Some(count)) = (a.sel("from"), a.sel("to"), a.count("count")) else { return };
    let card = match a.get("card") {
        Some(Val::Card(c)) => Some(*c),
        _ => None,
    };
    let tos = seats(w, rules, to);
    for f in seats(w, rules, from).into_iter().flatten() {
        for &t in tos.iter().filter(|&&t| t != Some(f)) {
            w.agenda().queue.push_back(Step::Move { from: f, to: t, count, card });
        }
    }
}
