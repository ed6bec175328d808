//! The turn as data: an ordered list of steps and a cursor kept in the state.
//!
//! A game registers the *procedures* its turn is made of — a typed enum
//! declared with [`procedures!`](crate::procedures), each with the id a
//! catalog names it by — and the catalog declares the turn as a list of
//! those ids. Readings and variants change that list as data: they add a
//! *data step* (an effect the game runs through its effect runner) or a
//! procedure the declared turn leaves out (an optional rule's) before or
//! after a declared step, remove a step, or move one. [`TurnPlan`] is
//! the list after every change of a configuration; it holds procedure
//! indexes, so it serialises with the state, and the game reads it back
//! typed ([`TurnPlan::get`]) and matches its procedures exhaustively.
//!
//! The game asks the [`Cursor`] what comes next instead of hard-wiring the
//! order: [`drive`] begins each step in turn. A procedure either finishes
//! at once ([`Flow::Done`]: the cursor moves on as soon as the effects it
//! queued are resolved) or waits for the players ([`Flow::Wait`]: an
//! interactive phase), and the action that ends the phase calls
//! [`Cursor::finish`] and drives on. Past the last step the turn is over.
//!
//! ```
//! use rulecheck::engine::{drive, Cursor, Flow, Procedure, TurnFlow, TurnPlan, TurnStep};
//! rulecheck::procedures! {
//!     /// A demo turn.
//!     Demo, DEMO, required: [Play];
//!     Draw = "draw",
//!     Play = "play",
//! }
//! struct G { plan: TurnPlan, cursor: Cursor, log: Vec<&'static str> }
//! impl TurnFlow for G {
//!     type Proc = Demo;
//!     type Rules = ();
//!     type Event = ();
//!     fn plan(&self) -> &TurnPlan { &self.plan }
//!     fn cursor(&mut self) -> &mut Cursor { &mut self.cursor }
//!     fn busy(&self) -> bool { false }
//!     fn begin(&mut self, _: &(), step: TurnStep<Demo>, _: &mut Vec<()>) -> Flow {
//!         match step {
//!             TurnStep::Proc(Demo::Draw) => { self.log.push("draw"); Flow::Done }
//!             TurnStep::Proc(Demo::Play) => { self.log.push("play"); Flow::Wait }
//!             TurnStep::Effect { .. } => Flow::Done,
//!         }
//!     }
//!     fn turn_over(&mut self, _: &(), _: &mut Vec<()>) -> bool { self.log.push("over"); false }
//! }
//! let plan = TurnPlan::new(&[0, 1], &[Demo::Play.index() as u16]).unwrap();
//! let mut g = G { plan, cursor: Cursor::default(), log: vec![] };
//! drive(&mut g, &(), &mut vec![]);
//! assert_eq!(g.log, ["draw", "play"]);
//! g.cursor.finish();
//! drive(&mut g, &(), &mut vec![]);
//! assert_eq!(g.log, ["draw", "play", "over"]);
//! ```

use serde::{Deserialize, Serialize};

/// A procedure a game registers for its turn: a typed enum declared with
/// [`procedures!`](crate::procedures), one variant per step the code
/// implements.
pub trait Procedure: Copy + Eq + std::fmt::Debug + 'static {
    /// The catalog ids, in declaration order.
    const IDS: &'static [&'static str];
    /// The ids of the procedures every turn must contain.
    const REQUIRED: &'static [&'static str];
    /// Position in the table.
    fn index(self) -> usize;
    /// The procedure at `i`, if there is one.
    fn from_index(i: usize) -> Option<Self>;
}

/// Declares a game's turn procedures: an enum with the catalog id of each
/// variant (the table `$table`), and the ones a turn must contain
/// (`required: [..]`; a catalog whose turn lacks one fails to load).
#[macro_export]
macro_rules! procedures {
    ($(#[$m:meta])* $name:ident, $table:ident, required: [$($req:ident),* $(,)?]; $($(#[$vm:meta])* $var:ident = $id:literal),+ $(,)?) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
        pub enum $name { $($(#[$vm])* $var),+ }
        impl $crate::engine::Procedure for $name {
            const IDS: &'static [&'static str] = $table;
            const REQUIRED: &'static [&'static str] = &[$($table[$name::$req as usize]),*];
            fn index(self) -> usize {
                self as usize
            }
            fn from_index(i: usize) -> Option<Self> {
                const ALL: &[$name] = &[$($name::$var),+];
                ALL.get(i).copied()
            }
        }
        /// The catalog ids of the procedures, in declaration order.
        pub const $table: &[&str] = &[$($id),+];
    };
}

/// One slot of a [`TurnPlan`], as the state keeps it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Slot {
    /// The procedure at this index of the game's table.
    Proc(u16),
    /// A data step: the game's effect `effect`, added `after` (or before)
    /// the procedure `anchor`.
    Effect { effect: u32, anchor: u16, after: bool },
    /// Procedure `proc`, which the catalog's turn does not declare, added
    /// `after` (or before) the procedure `anchor` (an optional rule's step).
    Added { proc: u16, anchor: u16, after: bool },
}

/// One step of the turn, typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TurnStep<P> {
    Proc(P),
    /// A data step: the game runs `effect` through its effect runner; the
    /// reading that added it is consulted at `anchor`'s switch point.
    Effect {
        effect: u32,
        anchor: P,
    },
}

/// Why a turn cannot be laid out as asked (the procedure, by index).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TurnError {
    /// The step is declared twice.
    Duplicate(u16),
    /// A step a change names is not in the turn (any more).
    Missing(u16),
    /// A step the code requires is missing or would be removed.
    Required(u16),
    /// The index names no procedure.
    Unknown(u16),
}

impl TurnError {
    /// The error in catalog words, given the procedure ids.
    pub fn describe(&self, ids: &[&str]) -> String {
        let id = |p: &u16| ids.get(usize::from(*p)).copied().unwrap_or("?");
        match self {
            TurnError::Duplicate(p) => format!("the turn declares step `{}` twice", id(p)),
            TurnError::Missing(p) => format!("the turn has no step `{}`", id(p)),
            TurnError::Required(p) => format!("the turn must keep step `{}`: the code requires it", id(p)),
            TurnError::Unknown(p) => format!("no procedure has index {p}"),
        }
    }
}

/// The steps of a turn, in order: the catalog's declared procedures after
/// the data changes of a configuration.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct TurnPlan {
    slots: Vec<Slot>,
    /// Procedures a change removed or moved (their readings are consulted
    /// whenever a turn is played).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    reshaped: Vec<u16>,
}

impl TurnPlan {
    /// The turn the catalog declares: procedure indexes in order, each
    /// once, every `required` one among them.
    pub fn new(procs: &[u16], required: &[u16]) -> Result<TurnPlan, TurnError> {
        for (i, p) in procs.iter().enumerate() {
            if procs[..i].contains(p) {
                return Err(TurnError::Duplicate(*p));
            }
        }
        if let Some(r) = required.iter().find(|r| !procs.contains(r)) {
            return Err(TurnError::Required(*r));
        }
        Ok(TurnPlan { slots: procs.iter().map(|&p| Slot::Proc(p)).collect(), reshaped: Vec::new() })
    }

    /// The typed step at `i`, or `None` past the end (or for an index
    /// `P` does not have, which a plan built from `P`'s table never holds).
    pub fn get<P: Procedure>(&self, i: usize) -> Option<TurnStep<P>> {
        match *self.slots.get(i)? {
            Slot::Proc(p) | Slot::Added { proc: p, .. } => P::from_index(usize::from(p)).map(TurnStep::Proc),
            Slot::Effect { effect, anchor, .. } => {
                P::from_index(usize::from(anchor)).map(|anchor| TurnStep::Effect { effect, anchor })
            }
        }
    }

    pub fn len(&self) -> usize {
        self.slots.len()
    }

    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Where procedure `p` stands, if the turn has it.
    pub fn position(&self, p: u16) -> Option<usize> {
        self.slots.iter().position(|s| matches!(*s, Slot::Proc(q) | Slot::Added { proc: q, .. } if q == p))
    }

    /// The procedures some change removed or moved.
    pub fn reshaped(&self) -> &[u16] {
        &self.reshaped
    }

    /// Where a step goes `after` (or before) `anchor`: after the anchor and
    /// the steps added after it earlier, or right before it (after the
    /// steps added before it earlier), so changes keep the catalog's order.
    fn place(&self, anchor: u16, after: bool) -> Result<usize, TurnError> {
        let at = self.position(anchor).ok_or(TurnError::Missing(anchor))?;
        if !after {
            return Ok(at);
        }
        let added_after = |s: &Slot| matches!(*s, Slot::Effect { anchor: a, after: true, .. } | Slot::Added { anchor: a, after: true, .. } if a == anchor);
        Ok(at + 1 + self.slots[at + 1..].iter().take_while(|s| added_after(s)).count())
    }

    /// Adds data step `effect` after (or before) procedure `anchor`.
    pub fn add(&mut self, anchor: u16, after: bool, effect: u32) -> Result<(), TurnError> {
        let at = self.place(anchor, after)?;
        self.slots.insert(at, Slot::Effect { effect, anchor, after });
        Ok(())
    }

    /// Adds procedure `p`, which the turn does not have yet, after (or
    /// before) procedure `anchor`, in the order of the changes as `add` does.
    pub fn add_proc(&mut self, p: u16, anchor: u16, after: bool) -> Result<(), TurnError> {
        if self.position(p).is_some() {
            return Err(TurnError::Duplicate(p));
        }
        let at = self.place(anchor, after)?;
        self.slots.insert(at, Slot::Added { proc: p, anchor, after });
        Ok(())
    }

    /// Removes procedure `p`; `required` are the ones the code cannot do
    /// without. Data steps added at `p` stay where they are.
    pub fn remove(&mut self, p: u16, required: &[u16]) -> Result<(), TurnError> {
        if required.contains(&p) {
            return Err(TurnError::Required(p));
        }
        let at = self.position(p).ok_or(TurnError::Missing(p))?;
        self.slots.remove(at);
        self.reshaped.push(p);
        Ok(())
    }

    /// Moves procedure `p` after (or before) procedure `anchor`. Data steps
    /// added at `p` stay where they are.
    pub fn move_step(&mut self, p: u16, anchor: u16, after: bool) -> Result<(), TurnError> {
        let from = self.position(p).ok_or(TurnError::Missing(p))?;
        if p == anchor {
            return Err(TurnError::Missing(anchor));
        }
        let slot = self.slots.remove(from);
        match self.place(anchor, after) {
            Ok(to) => self.slots.insert(to, slot),
            Err(e) => {
                self.slots.insert(from, slot);
                return Err(e);
            }
        }
        self.reshaped.push(p);
        Ok(())
    }
}

/// How a procedure begun by the cursor goes on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// It finished: the cursor moves on once its queued effects are resolved.
    Done,
    /// It waits for the players (an interactive phase) until the action that
    /// ends the phase calls [`Cursor::finish`].
    Wait,
}

/// Where the cursor stands on its step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Stage {
    /// The step has not begun.
    #[default]
    Next,
    /// Begun and finished; the cursor moves on when nothing is pending.
    Done,
    /// Begun and waiting for the players.
    Waiting,
}

/// Where a turn stands: the step under way and its stage. Kept in the
/// state, so a state serialises mid-turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Cursor {
    pub at: u16,
    pub stage: Stage,
}

impl Cursor {
    /// A cursor on step `at`, waiting there for the players (a state set
    /// up in the middle of a turn).
    pub fn waiting_at(at: usize) -> Cursor {
        Cursor { at: at as u16, stage: Stage::Waiting }
    }

    /// A cursor waiting on procedure `p`'s step of `plan` (a state a
    /// scenario sets up in the middle of a turn, in `p`'s phase); an
    /// error when this configuration's `turn` (the game's word for it)
    /// has no such step.
    pub fn waiting_on<P: Procedure>(plan: &TurnPlan, p: P, turn: &str) -> Result<Cursor, String> {
        let at = plan.position(p.index() as u16).ok_or_else(|| {
            let id = P::IDS[p.index()];
            format!("this configuration's {turn} has no `{id}` step (a reading, a variant or the catalog removed it)")
        })?;
        Ok(Cursor::waiting_at(at))
    }

    /// The turn begins again at its first step.
    pub fn restart(&mut self) {
        *self = Cursor::default();
    }

    /// The interactive step under way is over (the action that ends the
    /// phase); the next [`drive`] moves on.
    pub fn finish(&mut self) {
        if self.stage == Stage::Waiting {
            self.stage = Stage::Done;
        }
    }

    /// Whether the cursor waits for the players on its step.
    pub fn waiting(&self) -> bool {
        self.stage == Stage::Waiting
    }
}

/// A game whose turn runs from a [`TurnPlan`] through a [`Cursor`]: its
/// state, which a step changes under the game's `Rules`, reporting `Event`s.
pub trait TurnFlow {
    type Proc: Procedure;
    type Rules: ?Sized;
    type Event;
    /// The configuration's turn.
    fn plan(&self) -> &TurnPlan;
    fn cursor(&mut self) -> &mut Cursor;
    /// Whether effects or decisions are still pending (or the game is
    /// over): the cursor then stays where it is.
    fn busy(&self) -> bool;
    /// Begins a step: a procedure, or a data step whose effect the game
    /// queues (a data step always finishes: it is done when its effect is).
    fn begin(&mut self, rules: &Self::Rules, step: TurnStep<Self::Proc>, ev: &mut Vec<Self::Event>) -> Flow;
    /// The cursor passed the last step: the turn is over. `true` when the
    /// game set the next turn up at once, the cursor restarted, so `drive`
    /// plays on into it (Dodge City deals the next round).
    fn turn_over(&mut self, rules: &Self::Rules, ev: &mut Vec<Self::Event>) -> bool;
}

/// Runs the turn on from the cursor until a step waits for the players,
/// something is pending, or the turn is over.
pub fn drive<G: TurnFlow>(g: &mut G, rules: &G::Rules, ev: &mut Vec<G::Event>) {
    while !g.busy() {
        let c = *g.cursor();
        match c.stage {
            Stage::Waiting => return,
            Stage::Done => *g.cursor() = Cursor { at: c.at + 1, stage: Stage::Next },
            Stage::Next => {
                let Some(step) = g.plan().get::<G::Proc>(usize::from(c.at)) else {
                    if g.turn_over(rules, ev) {
                        continue;
                    }
                    return;
                };
                let stage = match g.begin(rules, step, ev) {
                    Flow::Done => Stage::Done,
                    Flow::Wait => Stage::Waiting,
                };
                g.cursor().stage = stage;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::procedures! {
        /// A made-up game in the shape of Red Dog Junction: action phases
        /// the players play, a scoring step, and a solo Automa turn.
        Junction, JUNCTION, required: [Actions];
        Roll = "roll",
        Actions = "actions",
        Score = "score",
        Automa = "automa",
    }

    crate::procedures! {
        /// A made-up game in the shape of Dodge City: every seat reveals a
        /// card at once, then the cards resolve in order.
        Dodge, DODGE, required: [Reveal, Resolve];
        Reveal = "reveal",
        Resolve = "resolve",
        Income = "income",
    }

    /// Plays one turn; `waits` are the procedures that wait for the players
    /// (each ended by the test), `pending` a number of effects each data
    /// step leaves to resolve.
    struct Toy<P> {
        plan: TurnPlan,
        cursor: Cursor,
        waits: Vec<P>,
        pending: u32,
        log: Vec<String>,
    }

    impl<P: Procedure> TurnFlow for Toy<P> {
        type Proc = P;
        type Rules = ();
        type Event = ();
        fn plan(&self) -> &TurnPlan {
            &self.plan
        }
        fn cursor(&mut self) -> &mut Cursor {
            &mut self.cursor
        }
        fn busy(&self) -> bool {
            self.pending > 0
        }
        fn begin(&mut self, _: &(), step: TurnStep<P>, _: &mut Vec<()>) -> Flow {
            match step {
                TurnStep::Proc(p) => {
                    self.log.push(P::IDS[p.index()].to_string());
                    if self.waits.contains(&p) { Flow::Wait } else { Flow::Done }
                }
                TurnStep::Effect { effect, anchor } => {
                    self.log.push(format!("effect {effect} at {}", P::IDS[anchor.index()]));
                    self.pending = 1;
                    Flow::Done
                }
            }
        }
        fn turn_over(&mut self, _: &(), _: &mut Vec<()>) -> bool {
            self.log.push("over".into());
            false
        }
    }

    /// Drives the toy on (it has no rules and reports no events).
    fn go<P: Procedure>(g: &mut Toy<P>) {
        drive(g, &(), &mut Vec::new());
    }

    fn toy<P: Procedure>(plan: TurnPlan, waits: Vec<P>) -> Toy<P> {
        Toy { plan, cursor: Cursor::default(), waits, pending: 0, log: Vec::new() }
    }

    /// Drives a whole turn, ending each interactive phase and resolving each
    /// pending effect as a player would.
    fn play<P: Procedure>(g: &mut Toy<P>) -> Vec<String> {
        for _ in 0..100 {
            go(g);
            if g.log.last().is_some_and(|l| l == "over") {
                return std::mem::take(&mut g.log);
            }
            if g.pending > 0 {
                g.pending = 0;
                g.log.push("resolved".into());
            } else {
                assert!(g.cursor.waiting(), "the cursor stops only on a waiting step");
                g.cursor.finish();
            }
        }
        panic!("the turn never ended: {:?}", g.log);
    }

    fn idx<P: Procedure>(ps: &[P]) -> Vec<u16> {
        ps.iter().map(|p| p.index() as u16).collect()
    }

    fn junction(ps: &[Junction]) -> Result<TurnPlan, TurnError> {
        TurnPlan::new(&idx(ps), &idx(&[Junction::Actions]))
    }

    #[test]
    fn the_declared_order_is_played_and_waiting_steps_hold_the_cursor() {
        use Junction::*;
        let mut g = toy(junction(&[Roll, Actions, Score]).unwrap(), vec![Actions]);
        go(&mut g);
        assert_eq!(g.log, ["roll", "actions"]);
        assert!(g.cursor.waiting());
        go(&mut g);
        assert_eq!(g.log, ["roll", "actions"], "a waiting step holds until finished");
        assert_eq!(play(&mut g), ["roll", "actions", "score", "over"]);
    }

    #[test]
    fn the_catalog_order_decides_not_the_code() {
        use Junction::*;
        // a solo turn: the Automa acts first, scoring comes before the actions
        let mut g = toy(junction(&[Automa, Score, Actions]).unwrap(), vec![Actions]);
        assert_eq!(play(&mut g), ["automa", "score", "actions", "over"]);
        // removing and moving steps as a reading would
        let mut plan = junction(&[Roll, Actions, Score, Automa]).unwrap();
        plan.remove(Roll as u16, &idx(&[Actions])).unwrap();
        plan.move_step(Automa as u16, Actions as u16, false).unwrap();
        assert_eq!(plan.reshaped(), [Roll as u16, Automa as u16]);
        let mut g = toy(plan, vec![Actions]);
        assert_eq!(play(&mut g), ["automa", "actions", "score", "over"]);
    }

    #[test]
    fn data_steps_go_before_or_after_a_step_in_the_order_they_were_added() {
        use Dodge::*;
        let mut plan = TurnPlan::new(&idx(&[Reveal, Resolve, Income]), &idx(&[Reveal, Resolve])).unwrap();
        plan.add(Resolve as u16, true, 1).unwrap();
        plan.add(Resolve as u16, true, 2).unwrap();
        plan.add(Income as u16, false, 3).unwrap();
        plan.add(Reveal as u16, false, 4).unwrap();
        let mut g = toy(plan, vec![Reveal]);
        assert_eq!(
            play(&mut g),
            [
                "effect 4 at reveal",
                "resolved",
                "reveal",
                "resolve",
                "effect 1 at resolve",
                "resolved",
                "effect 2 at resolve",
                "resolved",
                "effect 3 at income",
                "resolved",
                "income",
                "over"
            ]
        );
    }

    #[test]
    fn a_procedure_the_turn_leaves_out_is_added_in_the_order_of_the_changes() {
        use Dodge::*;
        let mut plan = TurnPlan::new(&idx(&[Reveal, Resolve]), &idx(&[Reveal, Resolve])).unwrap();
        plan.add(Reveal as u16, true, 1).unwrap();
        plan.add_proc(Income as u16, Reveal as u16, true).unwrap();
        plan.add(Reveal as u16, true, 2).unwrap();
        assert_eq!(plan.add_proc(Income as u16, Resolve as u16, false), Err(TurnError::Duplicate(Income as u16)));
        assert_eq!(plan.add_proc(Reveal as u16, Resolve as u16, true), Err(TurnError::Duplicate(Reveal as u16)));
        assert_eq!(
            play(&mut toy::<Dodge>(plan, vec![])),
            ["reveal", "effect 1 at reveal", "resolved", "income", "effect 2 at reveal", "resolved", "resolve", "over"]
        );
    }

    #[test]
    fn a_turn_keeps_its_required_steps_and_names_each_step_once() {
        use Dodge::*;
        let req = idx(&[Reveal, Resolve]);
        assert_eq!(TurnPlan::new(&idx(&[Reveal, Income]), &req), Err(TurnError::Required(Resolve as u16)));
        assert_eq!(TurnPlan::new(&idx(&[Reveal, Resolve, Reveal]), &req), Err(TurnError::Duplicate(Reveal as u16)));
        let mut plan = TurnPlan::new(&idx(&[Reveal, Resolve]), &req).unwrap();
        assert_eq!(plan.remove(Resolve as u16, &req), Err(TurnError::Required(Resolve as u16)));
        assert_eq!(plan.add(Income as u16, true, 0), Err(TurnError::Missing(Income as u16)));
        assert_eq!(plan.move_step(Reveal as u16, Income as u16, true), Err(TurnError::Missing(Income as u16)));
        assert_eq!(plan, TurnPlan::new(&idx(&[Reveal, Resolve]), &req).unwrap(), "a failed change changes nothing");
        assert_eq!(TurnError::Required(1).describe(DODGE), "the turn must keep step `resolve`: the code requires it");
        assert_eq!(<Dodge as Procedure>::REQUIRED, ["reveal", "resolve"]);
        assert_eq!(Dodge::from_index(2), Some(Income));
        assert_eq!(Dodge::from_index(3), None);
    }

    #[test]
    fn a_cursor_waits_on_a_procedures_step_or_names_the_step_missing() {
        let plan = junction(&[Junction::Roll, Junction::Actions]).unwrap();
        assert_eq!(Cursor::waiting_on(&plan, Junction::Actions, "turn"), Ok(Cursor::waiting_at(1)));
        let e = Cursor::waiting_on(&plan, Junction::Score, "round").unwrap_err();
        assert!(e.starts_with("this configuration's round has no `score` step"), "{e}");
    }

    #[test]
    fn a_cursor_mid_turn_round_trips_through_serde() {
        let c = Cursor::waiting_at(2);
        let json = serde_json::to_string(&c).unwrap();
        assert_eq!(serde_json::from_str::<Cursor>(&json).unwrap(), c);
        let mut plan = junction(&[Junction::Roll, Junction::Actions]).unwrap();
        plan.add(Junction::Roll as u16, true, 7).unwrap();
        let json = serde_json::to_string(&plan).unwrap();
        assert_eq!(serde_json::from_str::<TurnPlan>(&json).unwrap(), plan);
    }
}
