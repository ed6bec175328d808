//! Exhaustive bounded exploration, breadth-first (TLA+'s TLC and
//! Stateright are the models): from one state, every legal action and, at
//! a chance node, every outcome with its weight, to a depth, with every
//! invariant and the per-step contract checked along the way.
//!
//! - **States are one when their JSON is one.** A state is identified by
//!   a 128-bit hash (`check::state_hash`, two SipHash-1-3 passes) of what
//!   its `Serialize` hands a serializer, alike exactly when its JSON is: the
//!   JSON round trip of the contract makes that form determine the state,
//!   and the engine's maps are `BTreeMap`s, so it is canonical. A state a
//!   game treats as equal but serialises otherwise (a field outside
//!   `PartialEq`) counts twice, which costs time, never a missed state.
//!   Hashes are kept, not states: a collision (odds about n² / 2¹²⁹ for n
//!   states) would merge two states silently.
//! - **Chance a game keeps in its state is not enumerated.** A chance node
//!   (`ToMove::Chance`) has every outcome explored and weighed; a draw a
//!   game makes inside `apply` from its own seeded generator (Dry Gulch's
//!   shuffles) is part of the state, so one state has one future there.
//! - **What is checked.** Every transition — also one that reaches a state
//!   seen before — has the game's invariants checked; every transition that
//!   reaches a new state also has the per-step contract of `run`
//!   (`suite::check_step` in its parts: `check_transition`, the malformed
//!   action, the hiding of a simultaneous choice and a clone evolving
//!   alike; `check_after`, the JSON round trip and the new state's legal
//!   list, actors and chance weights; the start's legal list once, by
//!   `check_node`). A replay from the start would be the clone check here,
//!   each state being reached from its parent. The layers go in order and
//!   each layer's transitions before the next's, so the first failure
//!   found is at the shortest depth any is. The start itself was reached
//!   by a scenario, whose runner checked its last step.
//! - **Memory.** The states of two layers, a hash per distinct state and a
//!   parent link (its index and the action's index in the parent's legal
//!   list) to rebuild a path; `max_states` bounds the distinct states.
//!
//! ```
//! # use rulecheck::check::explore::{Options, explore};
//! # fn demo<G: rulecheck::engine::Harnessed>(rules: &G::Rules, root: G) {
//! let report = explore::<G>(rules, &root, &Options { depth: 4, max_states: 100_000 });
//! assert!(report.distinct <= report.visited);
//! # }
//! ```

use std::collections::HashSet;
use std::time::Instant;

use serde::Serialize;

use super::state_hash::hash128;
use super::suite::{Failure, check_after, check_node, check_transition};
use crate::engine::{Harnessed, ToMove};

/// How far and how much to explore.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Actions from the start state; the start is depth 0.
    pub depth: usize,
    /// The most distinct states kept (the start included).
    pub max_states: usize,
}

/// The bound a command line gets when it names none: about 300 MiB of
/// Dry Gulch states (about 2.8 KiB each, measured at depth 5).
pub const DEFAULT_MAX_STATES: usize = 100_000;

/// One depth: the transitions that end there and what they found.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Layer {
    pub depth: usize,
    /// States reached (one per transition), seen before or not.
    pub visited: u64,
    /// States first reached at this depth.
    pub distinct: u64,
    /// Of those, the ones where the game is over.
    pub terminal: u64,
    /// Chance nodes expanded into this layer, and their outcomes.
    pub chance_nodes: u64,
    pub chance_outcomes: u64,
    pub seconds: f64,
    /// `visited` per second.
    pub states_per_second: f64,
}

impl Layer {
    fn finish(mut self, began: Instant) -> Layer {
        self.seconds = began.elapsed().as_secs_f64();
        self.states_per_second = if self.seconds > 0.0 { self.visited as f64 / self.seconds } else { 0.0 };
        self
    }
}

/// One action of a path, and at a chance node its weight among the outcomes'.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Step<A> {
    pub action: A,
    /// (weight, total weight of the node's outcomes) at a chance node.
    pub chance: Option<(u32, u64)>,
}

/// A broken check and the shortest path to it from the start state.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Found<A> {
    pub failure: Failure,
    /// The actions from the start; the last one broke the check.
    pub path: Vec<Step<A>>,
}

impl<A> Found<A> {
    /// The product of the chance steps' weights: how likely chance plays
    /// along this path, given the seats' choices.
    pub fn chance_probability(&self) -> f64 {
        self.path.iter().filter_map(|s| s.chance).map(|(w, t)| f64::from(w) / t as f64).product()
    }
}

/// Why the exploration stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stop {
    /// Every state to the depth asked for was explored.
    Depth,
    /// No state below the last layer: every reachable state was explored.
    Exhausted,
    /// A check broke (see `Report::violation`).
    Violation,
    /// `max_states` distinct states were kept and one more was found.
    StateBound,
}

/// What an exploration found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report<A> {
    /// The depth asked for.
    pub depth: usize,
    /// The deepest layer reached (complete unless the run stopped early).
    pub depth_reached: usize,
    /// States reached, the start included, counting a state once per transition.
    pub visited: u64,
    pub distinct: u64,
    pub terminal: u64,
    pub layers: Vec<Layer>,
    pub seconds: f64,
    pub stop: Stop,
    pub max_states: usize,
    pub invariants: usize,
    pub violation: Option<Found<A>>,
}

impl<A> Report<A> {
    pub fn states_per_second(&self) -> f64 {
        if self.seconds > 0.0 { self.visited as f64 / self.seconds } else { 0.0 }
    }
}

/// A distinct state's way back to the start: its parent's index and the
/// index of the action in the parent's legal list.
#[derive(Clone, Copy)]
struct Link {
    parent: u32,
    action: u32,
}

/// What one layer's expansion ended with.
enum Expanded {
    Layer(Layer),
    /// The failure, the parent's index and the action's, and the layer so far.
    Failed(Failure, u32, u32, Layer),
    Bound(Layer),
}

struct Search<'a, G: Harnessed> {
    rules: &'a G::Rules,
    opts: Options,
    seen: HashSet<u128>,
    links: Vec<Link>,
}

/// Explores every state within `opts.depth` actions of `start` (see the
/// module docs); stops at the first broken check or at `opts.max_states`.
pub fn explore<G: Harnessed>(rules: &G::Rules, start: &G, opts: &Options) -> Report<G::Action> {
    let began = Instant::now();
    // indexes are `u32`, so at most about four billion states are kept
    let opts = &Options { max_states: opts.max_states.min(u32::MAX as usize), ..*opts };
    let mut s = Search::<G> { rules, opts: *opts, seen: HashSet::new(), links: Vec::new() };
    s.seen.insert(hash128(start));
    s.links.push(Link { parent: u32::MAX, action: 0 });
    let root = Layer { depth: 0, visited: 1, distinct: 1, terminal: u64::from(start.is_over()), ..Layer::default() };
    let mut report = Report {
        depth: opts.depth,
        depth_reached: 0,
        visited: 1,
        distinct: 1,
        terminal: root.terminal,
        layers: vec![root],
        seconds: 0.0,
        stop: Stop::Depth,
        max_states: opts.max_states,
        invariants: G::invariants().len(),
        violation: None,
    };
    let mut frontier: Vec<(u32, G)> = if start.is_over() { Vec::new() } else { vec![(0, start.clone())] };
    // every other state has its legal list checked when it is reached
    let mut legal = Vec::new();
    start.legal_actions(rules, &mut legal);
    if let Some(f) = check_node::<G>(rules, start, &legal) {
        report.violation = Some(Found { failure: f, path: Vec::new() });
        report.stop = Stop::Violation;
        frontier.clear();
    }
    for depth in 1..=opts.depth {
        if frontier.is_empty() {
            if report.violation.is_none() {
                report.stop = Stop::Exhausted;
            }
            break;
        }
        let mut next = Vec::new();
        let (layer, stop) = match s.expand(depth, &frontier, &mut next) {
            Expanded::Layer(l) => (l, None),
            Expanded::Bound(l) => (l, Some(Stop::StateBound)),
            Expanded::Failed(f, parent, action, l) => {
                report.violation = Some(Found { failure: f, path: s.path(start, parent, action) });
                (l, Some(Stop::Violation))
            }
        };
        report.depth_reached = depth;
        report.visited += layer.visited;
        report.distinct += layer.distinct;
        report.terminal += layer.terminal;
        report.layers.push(layer);
        if let Some(stop) = stop {
            report.stop = stop;
            break;
        }
        frontier = next;
    }
    report.seconds = began.elapsed().as_secs_f64();
    report
}

impl<G: Harnessed> Search<'_, G> {
    /// Expands `frontier` (the states at `depth - 1` with their indexes)
    /// into `next`, checking every transition.
    fn expand(&mut self, depth: usize, frontier: &[(u32, G)], next: &mut Vec<(u32, G)>) -> Expanded {
        let began = Instant::now();
        let rules = self.rules;
        let mut layer = Layer { depth, ..Layer::default() };
        let (mut legal, mut weights) = (Vec::new(), Vec::new());
        for (id, state) in frontier {
            state.legal_actions(rules, &mut legal);
            if state.to_move() == ToMove::Chance {
                state.chance_weights(rules, &mut weights);
                layer.chance_nodes += 1;
                layer.chance_outcomes += legal.len() as u64;
            }
            let before = state.before();
            for (i, action) in legal.iter().enumerate() {
                let mut child = state.clone();
                let events = match child.apply(rules, action) {
                    Ok(e) => e,
                    Err(e) => {
                        let detail = format!("a listed legal action was rejected: {e}");
                        let f = Failure::Contract { check: "legal-accepted", detail };
                        return Expanded::Failed(f, *id, i as u32, layer.finish(began));
                    }
                };
                layer.visited += 1;
                if let Err(v) = child.check_invariants(rules, &before, action, &events) {
                    return Expanded::Failed(Failure::Invariant(v), *id, i as u32, layer.finish(began));
                }
                if !self.seen.insert(hash128(&child)) {
                    continue;
                }
                let salt = self.links.len() as u32;
                if let Some(f) = check_transition::<G>(rules, state, &legal, action, &events, &child, salt)
                    .or_else(|| check_after::<G>(rules, &child))
                {
                    return Expanded::Failed(f, *id, i as u32, layer.finish(began));
                }
                if self.links.len() >= self.opts.max_states {
                    return Expanded::Bound(layer.finish(began));
                }
                layer.distinct += 1;
                if child.is_over() {
                    layer.terminal += 1;
                } else {
                    next.push((self.links.len() as u32, child));
                }
                self.links.push(Link { parent: *id, action: i as u32 });
            }
        }
        Expanded::Layer(layer.finish(began))
    }

    /// The actions from `start` to the state `id`, then its action `last`,
    /// replayed from the start by their indexes in the legal lists.
    fn path(&self, start: &G, id: u32, last: u32) -> Vec<Step<G::Action>> {
        let mut indexes = vec![last];
        let mut at = id;
        while at != 0 {
            let link = self.links[at as usize];
            indexes.push(link.action);
            at = link.parent;
        }
        indexes.reverse();
        let mut state = start.clone();
        let (mut legal, mut weights) = (Vec::new(), Vec::new());
        let mut path = Vec::new();
        for i in indexes {
            state.legal_actions(self.rules, &mut legal);
            let chance = (state.to_move() == ToMove::Chance).then(|| {
                state.chance_weights(self.rules, &mut weights);
                let w = weights.get(i as usize).copied().unwrap_or(0);
                (w, weights.iter().map(|&w| u64::from(w)).sum())
            });
            let action = legal[i as usize].clone();
            // the last action may be the one a rule error rejected
            let _ = state.apply(self.rules, &action);
            path.push(Step { action, chance });
        }
        path
    }
}
