//! The decision agenda: what an effect still has to do (a queue of steps)
//! and the decision it waits for, kept in the state so that a game can be
//! serialised in the middle of an effect.
//!
//! ```
//! use rulecheck::lang::{Agenda, Steps, run};
//! struct Counter { agenda: Agenda<u32, &'static str>, sum: u32 }
//! impl Steps for Counter {
//!     type Step = u32;
//!     type Decision = &'static str;
//!     type Rules = ();
//!     type Event = u32;
//!     fn agenda(&mut self) -> &mut Agenda<u32, &'static str> { &mut self.agenda }
//!     fn step(&mut self, _: &(), n: u32, ev: &mut Vec<u32>) {
//!         if n == 0 { self.agenda.decision = Some("stop"); } else { self.sum += n; ev.push(n); }
//!     }
//! }
//! let mut c = Counter { agenda: Agenda::default(), sum: 0 };
//! c.agenda.queue.extend([1, 2, 0, 4]);
//! let mut ev = Vec::new();
//! run(&mut c, &(), &mut ev);
//! assert_eq!((c.sum, ev, c.agenda.queue.len()), (3, vec![1, 2], 1));
//! ```

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

/// The pending steps of the effects being resolved, in order, and the
/// decision that stops them until a player makes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Agenda<S, D> {
    pub queue: VecDeque<S>,
    pub decision: Option<D>,
}

impl<S, D> Default for Agenda<S, D> {
    fn default() -> Self {
        Agenda { queue: VecDeque::new(), decision: None }
    }
}

impl<S, D> Agenda<S, D> {
    /// Nothing queued and nothing to decide.
    pub fn is_idle(&self) -> bool {
        self.decision.is_none() && self.queue.is_empty()
    }

    /// Drops every pending step and the decision (the game is over).
    pub fn clear(&mut self) {
        self.queue.clear();
        self.decision = None;
    }

    /// Runs `queue_more` so that the steps it queues come before the steps
    /// already waiting (a chosen option resolves before the rest of its effect).
    pub fn in_front<R>(&mut self, queue_more: impl FnOnce(&mut Self) -> R) -> R {
        let rest = std::mem::take(&mut self.queue);
        let r = queue_more(self);
        self.queue.extend(rest);
        r
    }
}

/// A state with an agenda, and how it carries out one step.
pub trait Steps {
    type Step;
    type Decision;
    type Rules: ?Sized;
    type Event;
    fn agenda(&mut self) -> &mut Agenda<Self::Step, Self::Decision>;
    /// Carries out one step; it may set the agenda's decision or queue more steps.
    fn step(&mut self, rules: &Self::Rules, step: Self::Step, ev: &mut Vec<Self::Event>);
}

/// Pops and carries out steps until the queue is empty or a decision is pending.
pub fn run<W: Steps>(w: &mut W, rules: &W::Rules, ev: &mut Vec<W::Event>) {
    while w.agenda().decision.is_none() {
        let Some(step) = w.agenda().queue.pop_front() else {
            break;
        };
        w.step(rules, step, ev);
    }
}
