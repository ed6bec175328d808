//! Compiled effects and conditions, and how they run: an effect expands
//! into steps on the state's agenda (conditions and selectors are read when
//! it expands), and the agenda runs them (`lang::run`).

use std::fmt::Debug;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::agenda::Steps;
use super::compile::OpDef;
use crate::engine::Reads;

/// The types a game plugs into the language. A game declares one marker
/// type (an empty enum) for it.
pub trait Lang: Sized + Copy + Clone + Debug + PartialEq + Eq + Serialize + DeserializeOwned + 'static {
    /// The game's own selectors (Dry Gulch: `target-owner`, `leaders`, `owner:<building>`).
    type Sel: Copy + Debug + PartialEq + Eq + Serialize;
    /// The game's own conditions (Dry Gulch: `built`, `intact`, `owned_by_active`).
    type Cond: Clone + Debug + PartialEq + Serialize;
    /// What a `count` may measure of a seat (Dry Gulch: `hand`, `permits`, `influence`).
    type Measure: Copy + Debug + PartialEq + Eq + Serialize + 'static;
    /// The decks `draw` may name.
    type Deck: Copy + Debug + PartialEq + Eq + Serialize + DeserializeOwned + 'static;
    /// A card kind a `move` may name.
    type Card: Copy + Debug + PartialEq + Eq + Serialize + DeserializeOwned;
    /// A flag of the catalog, as the game's typed id.
    type Flag: Copy + Debug + PartialEq + Eq + Serialize + DeserializeOwned;
    /// What an effect runs for (Dry Gulch: the card).
    type Source: Copy + Debug + PartialEq + Eq + Serialize + DeserializeOwned;
    /// The game's own steps (Dry Gulch: a random take with its reactions, damage).
    type Step: Clone + Debug + PartialEq + Eq + Serialize + DeserializeOwned;
    type Decision;
    /// The game's compiled catalog, which holds the shared part of every
    /// catalog (`Core`) and derefs to it.
    type Rules: std::ops::Deref<Target = super::Core<Self>>;
    type Event;
    type State: World<Self>;
    /// The operations only this game has, added to the shared ones.
    fn operations() -> Vec<OpDef<Self>>;
}

/// The empty type a game plugs into `Lang::Sel`, `Lang::Cond` or
/// `Lang::Flag` when it has none of its own (Red Dog Junction has no
/// selectors, conditions or flags; Dodge City no selectors or conditions).
/// No value of it exists: its `Host` lookups answer `None`, and the
/// `World` methods that take one are `match x {}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Never {}

/// Who an effect addresses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Sel<L: Lang> {
    /// The active player.
    Active,
    /// Every player, in turn order from the active player.
    EachPlayer,
    /// Every player but the effect's subject (`World::subject`).
    EachOtherPlayer,
    /// The player a `for_each` loop stands at.
    Each,
    Game(L::Sel),
}

/// How a `count` compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Cmp {
    AtLeast,
    AtMost,
    Exactly,
    MoreThan,
    FewerThan,
}

impl Cmp {
    pub const ALL: &[(&str, Cmp)] = &[
        ("at_least", Cmp::AtLeast),
        ("at_most", Cmp::AtMost),
        ("exactly", Cmp::Exactly),
        ("more_than", Cmp::MoreThan),
        ("fewer_than", Cmp::FewerThan),
    ];
    pub fn holds(self, have: u32, n: u32) -> bool {
        match self {
            Cmp::AtLeast => have >= n,
            Cmp::AtMost => have <= n,
            Cmp::Exactly => have == n,
            Cmp::MoreThan => have > n,
            Cmp::FewerThan => have < n,
        }
    }
}

/// A number a condition counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Quantity<L: Lang> {
    /// How many players the selector names.
    Players(Sel<L>),
    /// A measure summed over the players the selector names.
    Measure(L::Measure, Sel<L>),
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum Cond<L: Lang> {
    All(Vec<Cond<L>>),
    Any(Vec<Cond<L>>),
    Not(Box<Cond<L>>),
    Flag(L::Flag),
    /// Interpretation (catalog index) chose this option (index among its options).
    Reading(usize, u16),
    Count {
        of: Quantity<L>,
        cmp: Cmp,
        n: u32,
    },
    Game(L::Cond),
}

/// A compiled argument of an operation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum Val<L: Lang> {
    Count(u32),
    Bool(bool),
    Sel(Sel<L>),
    Flag(L::Flag),
    Cond(Cond<L>),
    Effects(Vec<Effect<L>>),
    /// A `choose`'s options: an index into the catalog's choice table.
    Choice(u32),
    Deck(L::Deck),
    Card(L::Card),
    Word(String),
}

/// The compiled arguments of one operation, by parameter name.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Args<L: Lang>(pub Vec<(&'static str, Val<L>)>);

impl<L: Lang> Default for Args<L> {
    fn default() -> Self {
        Args(Vec::new())
    }
}

impl<L: Lang> Args<L> {
    pub fn get(&self, name: &str) -> Option<&Val<L>> {
        self.0.iter().find(|(n, _)| *n == name).map(|(_, v)| v)
    }
    pub fn count(&self, name: &str) -> Option<u32> {
        match self.get(name) {
            Some(Val::Count(n)) => Some(*n),
            _ => None,
        }
    }
    pub fn flag(&self, name: &str) -> bool {
        matches!(self.get(name), Some(Val::Bool(true)))
    }
    pub fn sel(&self, name: &str) -> Option<Sel<L>> {
        match self.get(name) {
            Some(Val::Sel(s)) => Some(*s),
            _ => None,
        }
    }
    pub fn effects(&self, name: &str) -> &[Effect<L>] {
        match self.get(name) {
            Some(Val::Effects(e)) => e,
            _ => &[],
        }
    }
}

/// What an operation does with its arguments when an effect expands.
pub type Expand<L> = fn(&mut <L as Lang>::State, &<L as Lang>::Rules, &Args<L>, <L as Lang>::Source);

/// One compiled operation: its name, its checked arguments, and how it
/// expands (from its definition in the registry).
#[derive(Clone)]
pub struct Effect<L: Lang> {
    pub op: &'static str,
    pub args: Args<L>,
    expand: Expand<L>,
}

impl<L: Lang> Effect<L> {
    pub(super) fn new(op: &'static str, args: Args<L>, expand: Expand<L>) -> Effect<L> {
        Effect { op, args, expand }
    }
}

impl<L: Lang> PartialEq for Effect<L> {
    fn eq(&self, other: &Self) -> bool {
        self.op == other.op && self.args == other.args
    }
}

impl<L: Lang> Debug for Effect<L> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple(self.op).field(&self.args).finish()
    }
}

impl<L: Lang> Serialize for Effect<L> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(std::iter::once((self.op, &self.args)))
    }
}

/// The options of one `choose` effect: (id, effect) in catalog order.
pub type Choice<L> = Vec<(String, Vec<Effect<L>>)>;

/// A pending step: the shared ones, and the game's own.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(bound(serialize = "", deserialize = ""))]
pub enum Step<L: Lang> {
    /// `seat` draws `count` cards from `deck`.
    Draw {
        deck: L::Deck,
        seat: usize,
        count: u32,
    },
    SetFlag(L::Flag),
    /// `count` cards (of kind `card`, else at random) pass from the hand of
    /// `from` to the hand of `to` (`None`: out of play, as the game has it).
    Move {
        from: usize,
        to: Option<usize>,
        count: u32,
        card: Option<L::Card>,
    },
    /// A player picks an option of the choice table's entry `choice`: the
    /// seat `by` names, else the active player.
    Choose {
        choice: u32,
        source: L::Source,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<usize>,
    },
    Game(L::Step),
}

/// A pending `choose` of a game whose decisions are only these: `seat`
/// picks an option of the choice table's entry `choice`, for `source`
/// (what the effect runs for).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Choosing<S> {
    pub seat: u8,
    pub choice: u32,
    pub source: S,
}

/// What the language needs of a game's state: its agenda (through
/// `Steps`, which carries a step out), its readings (through `Reads`: a
/// `reading:` condition asks which option the configuration chose), its
/// seats, and the game's own
/// selectors, conditions, measures, decks and steps. The defaults are what
/// every game but the one with its own has: the effect's subject is the
/// active player, a `choose` waits for the active player, and a game whose
/// `Lang::Sel`, `Lang::Cond` or `Lang::Flag` is `Never` (no value reaches
/// those methods) or whose flags are never set keeps `game_seats`,
/// `game_cond`, `flag` and `set_flag` (Dry Gulch, with all three of its
/// own, writes each).
pub trait World<L: Lang<State = Self>>:
    Steps<Step = Step<L>, Decision = L::Decision, Rules = L::Rules, Event = L::Event> + Reads
{
    fn active(&self) -> usize;
    fn players(&self) -> usize;
    /// The seat `each-other-player` leaves out (`None`: nobody).
    fn subject(&self) -> Option<usize> {
        Some(self.active())
    }
    /// The player a `for_each` loop stands at while its body expands.
    fn each(&self) -> Option<usize>;
    fn set_each(&mut self, seat: Option<usize>);
    /// The seats a game selector names (`None`: a place with nobody, such
    /// as an unbuilt building's owner).
    fn game_seats(&self, rules: &L::Rules, s: L::Sel) -> Vec<Option<usize>> {
        let _ = (rules, s);
        Vec::new()
    }
    /// Whether a catalog flag is set.
    fn flag(&self, f: L::Flag) -> bool {
        let _ = f;
        false
    }
    fn game_cond(&self, rules: &L::Rules, c: &L::Cond) -> bool {
        let _ = (rules, c);
        false
    }
    fn measure(&self, rules: &L::Rules, m: L::Measure, seat: usize) -> u32;
    /// The decision a `choose` step waits for (the active player's).
    fn choose(&self, choice: u32, source: L::Source) -> L::Decision {
        self.choose_by(self.active(), choice, source)
    }
    /// The decision a `choose {by: ...}` step waits for: `seat`'s.
    fn choose_by(&self, seat: usize, choice: u32, source: L::Source) -> L::Decision;
    fn draw(&mut self, rules: &L::Rules, deck: L::Deck, seat: usize, count: u32, ev: &mut Vec<L::Event>);
    fn set_flag(&mut self, f: L::Flag, ev: &mut Vec<L::Event>) {
        let _ = (f, ev);
    }
    #[allow(clippy::too_many_arguments)]
    fn move_cards(
        &mut self,
        rules: &L::Rules,
        from: usize,
        to: Option<usize>,
        count: u32,
        card: Option<L::Card>,
        ev: &mut Vec<L::Event>,
    );
    fn game_step(&mut self, rules: &L::Rules, s: L::Step, ev: &mut Vec<L::Event>);
}

/// Seats in turn order starting with the active player.
pub fn from_active<L: Lang>(w: &L::State) -> impl Iterator<Item = usize> {
    let (a, n) = (w.active(), w.players());
    (0..n).map(move |i| (a + i) % n)
}

/// The seats a selector names.
pub fn seats<L: Lang>(w: &L::State, rules: &L::Rules, s: Sel<L>) -> Vec<Option<usize>> {
    match s {
        Sel::Active => vec![Some(w.active())],
        Sel::EachPlayer => from_active::<L>(w).map(Some).collect(),
        Sel::EachOtherPlayer => {
            let except = w.subject();
            from_active::<L>(w).filter(|s| Some(*s) != except).map(Some).collect()
        }
        Sel::Each => vec![w.each()],
        Sel::Game(g) => w.game_seats(rules, g),
    }
}

/// Queues the step `step` makes for each seat `sel` names (a place with
/// nobody queues none), in the selector's order: what an operation that
/// does one thing to each player it names expands to.
pub fn queue_each<L: Lang>(w: &mut L::State, rules: &L::Rules, sel: Sel<L>, step: impl Fn(usize) -> Step<L>) {
    for seat in seats(w, rules, sel).into_iter().flatten() {
        w.agenda().queue.push_back(step(seat));
    }
}

/// Whether a condition holds now.
pub fn eval<L: Lang>(w: &L::State, rules: &L::Rules, c: &Cond<L>) -> bool {
    match c {
        Cond::All(cs) => cs.iter().all(|c| eval(w, rules, c)),
        Cond::Any(cs) => cs.iter().any(|c| eval(w, rules, c)),
        Cond::Not(c) => !eval(w, rules, c),
        Cond::Flag(f) => w.flag(*f),
        Cond::Reading(i, o) => w.chose(&rules.declared, *i, *o),
        Cond::Count { of, cmp, n } => {
            let have = match *of {
                Quantity::Players(s) => seats(w, rules, s).iter().flatten().count() as u32,
                Quantity::Measure(m, s) => {
                    seats(w, rules, s).into_iter().flatten().map(|x| w.measure(rules, m, x)).sum()
                }
            };
            cmp.holds(have, *n)
        }
        Cond::Game(g) => w.game_cond(rules, g),
    }
}

/// Turns effects into steps at the back of the agenda's queue.
pub fn expand<L: Lang>(w: &mut L::State, rules: &L::Rules, effects: &[Effect<L>], source: L::Source) {
    for e in effects {
        (e.expand)(w, rules, &e.args, source);
    }
}

/// Option `option` of choice `choice` was chosen: its effect runs before the
/// steps already queued.
pub fn chosen<L: Lang>(w: &mut L::State, rules: &L::Rules, choice: u32, option: u32, source: L::Source) {
    let rest = std::mem::take(&mut w.agenda().queue);
    if let Some((_, effect)) = rules.choices.get(choice as usize).and_then(|c| c.get(option as usize)) {
        expand(w, rules, effect, source);
    }
    w.agenda().queue.extend(rest);
}

/// Writes a game's `impl Steps` for its `State`: the agenda in its field
/// `agenda`, each step carried out by `step` (which hands the game's own
/// to `World::game_step`). A macro, as `declares_fields!` is: a state
/// names its language only through `World`, which needs `Steps` first.
#[macro_export]
macro_rules! steps_of {
    ($lang:ty) => {
        impl $crate::lang::Steps for State {
            type Step = $crate::lang::Step<$lang>;
            type Decision = <$lang as $crate::lang::Lang>::Decision;
            type Rules = <$lang as $crate::lang::Lang>::Rules;
            type Event = <$lang as $crate::lang::Lang>::Event;
            fn agenda(&mut self) -> &mut $crate::lang::Agenda<Self::Step, Self::Decision> {
                &mut self.agenda
            }
            fn step(&mut self, rules: &Self::Rules, step: Self::Step, ev: &mut Vec<Self::Event>) {
                $crate::lang::step::<$lang>(self, rules, step, ev);
            }
        }
    };
}

/// Carries out one step of the agenda.
pub fn step<L: Lang>(w: &mut L::State, rules: &L::Rules, s: Step<L>, ev: &mut Vec<L::Event>) {
    match s {
        Step::Draw { deck, seat, count } => w.draw(rules, deck, seat, count, ev),
        Step::SetFlag(f) => w.set_flag(f, ev),
        Step::Move { from, to, count, card } => w.move_cards(rules, from, to, count, card, ev),
        Step::Choose { choice, source, by } => {
            let d = match by {
                Some(seat) => w.choose_by(seat, choice, source),
                None => w.choose(choice, source),
            };
            w.agenda().decision = Some(d);
        }
        Step::Game(g) => w.game_step(rules, g, ev),
    }
}
