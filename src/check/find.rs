//! "Can this ever happen?": a search for a short action sequence from a
//! state to one where a condition (`check::query`) holds.
//!
//! - **Random restarts first.** Games played from the start with seeded
//!   random choices (game `i` with chooser seed `seed + i`), the condition
//!   checked after every action; the first game (by index) that reaches it
//!   is the witness, whatever the number of threads.
//! - **Then best-first.** From the start and from the states of the random
//!   games closest to the condition, states are expanded in order of the
//!   condition's distance (its numeric slack, see `check::query`), then
//!   depth, then the order they were found in: every legal action, and at a
//!   chance node every outcome. States are one when their JSON is one
//!   (`check::state_hash`). It stops at the first state where the
//!   condition holds, at `max_states` distinct states or at the deadline.
//!   When every state below the start was expanded (the start is always a
//!   root, and the search keeps its own set of states seen), the condition
//!   is unreachable from it (chance a game draws inside its
//!   state, from its own seed, being part of the state).
//! - **Shrinking.** A witness is a list of choice indices into the legal
//!   lists; `fuzz::shrink_choices` drops chunks and lowers indices while
//!   the condition is still reached.
//!
//! With one thread and no deadline reached, one seed gives one witness.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde::Serialize;

use super::fuzz::shrink_choices;
use super::playout::{Chooser, RandomChooser, ScriptChooser, pick};
use super::query::{At, Condition, kinds_of};
use super::state_hash::hash128;
use crate::engine::{Harnessed, Query};

/// How much to search.
#[derive(Debug, Clone)]
pub struct FindOptions {
    /// Chooser seeds of the random games: `seed + i`.
    pub seed: u64,
    /// Random games before the best-first search.
    pub games: u64,
    /// Actions a random game plays at most.
    pub max_actions: usize,
    /// Distinct states the best-first search keeps at most.
    pub max_states: usize,
    pub time_limit: Option<Duration>,
    pub jobs: usize,
}

/// How the witness was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// The condition holds in the state searched from.
    Start,
    /// In the random game with this index.
    Random(u64),
    BestFirst,
}

/// A found way to the condition.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Witness<A> {
    /// Choice indices into the legal lists, shrunk.
    pub choices: Vec<u32>,
    pub actions: Vec<A>,
    pub method: Method,
    pub actions_before_shrinking: usize,
}

/// Why the search stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stop {
    Found,
    /// Every state reachable from the start was expanded: the condition cannot hold.
    Exhausted,
    StateBound,
    Deadline,
}

/// What a search did and found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FindReport<A> {
    pub stop: Stop,
    pub witness: Option<Witness<A>>,
    /// Random games played and the actions of all games and expansions.
    pub games: u64,
    pub actions: u64,
    /// Distinct states seen (random games and best-first).
    pub distinct: u64,
    /// States the best-first search expanded.
    pub expanded: u64,
    /// The least distance to the condition seen.
    pub closest: u64,
    pub seconds: f64,
}

/// What `Condition` needs of a state reached: the state and its last events.
fn distance<G: Query>(rules: &G::Rules, cond: &Condition, state: &G, events: &[G::Event]) -> u64 {
    let happened = if cond.uses_events() { kinds_of::<G>(rules, events) } else { Vec::new() };
    cond.distance(&At { rules, state, happened: &happened })
}

/// Replays `choices` from `start` (each index modulo its legal list) and
/// returns how many actions it took to reach the condition, if it did.
pub fn reaches<G: Harnessed + Query>(rules: &G::Rules, start: &G, cond: &Condition, choices: &[u32]) -> Option<usize> {
    if distance(rules, cond, start, &[]) == 0 {
        return Some(0);
    }
    let mut state = start.clone();
    let mut chooser = ScriptChooser { script: choices, at: 0 };
    let (mut legal, mut weights) = (Vec::new(), Vec::new());
    for n in 1..=choices.len() {
        state.legal_actions(rules, &mut legal);
        if legal.is_empty() {
            return None;
        }
        let a = &legal[pick(&state, rules, &legal, &mut weights, &mut chooser)];
        let events = state.apply(rules, a).ok()?;
        if distance(rules, cond, &state, &events) == 0 {
            return Some(n);
        }
    }
    None
}

/// The actions `choices` take from `start`.
pub fn actions_of<G: Harnessed>(rules: &G::Rules, start: &G, choices: &[u32]) -> Vec<G::Action> {
    let mut state = start.clone();
    let mut chooser = ScriptChooser { script: choices, at: 0 };
    let (mut legal, mut weights) = (Vec::new(), Vec::new());
    let mut out = Vec::new();
    for _ in choices {
        state.legal_actions(rules, &mut legal);
        if legal.is_empty() {
            break;
        }
        let a = legal[pick(&state, rules, &legal, &mut weights, &mut chooser)].clone();
        let _ = state.apply(rules, &a);
        out.push(a);
    }
    out
}

/// One random game: its choices up to the condition, or its closest state's prefix.
struct Game {
    index: u64,
    reached: bool,
    /// The choices to the state where the condition held, or to its closest state.
    prefix: Vec<u32>,
    closest: u64,
    actions: u64,
    hashes: Vec<u128>,
}

/// A choice recorder around a chooser: the indices a game took.
struct Recording<C> {
    inner: C,
    taken: Vec<u32>,
}

impl<C: Chooser> Chooser for Recording<C> {
    fn choose(&mut self, n: usize) -> usize {
        let i = self.inner.choose(n);
        self.taken.push(i as u32);
        i
    }
    fn choose_weighted(&mut self, weights: &[u32]) -> usize {
        let i = self.inner.choose_weighted(weights);
        self.taken.push(i as u32);
        i
    }
}

fn random_game<G: Harnessed + Query>(
    rules: &G::Rules,
    start: &G,
    cond: &Condition,
    opts: &FindOptions,
    index: u64,
) -> Game {
    let mut state = start.clone();
    let mut chooser = Recording { inner: RandomChooser::new(opts.seed.wrapping_add(index)), taken: Vec::new() };
    let (mut legal, mut weights) = (Vec::new(), Vec::new());
    let mut g = Game { index, reached: false, prefix: Vec::new(), closest: u64::MAX, actions: 0, hashes: Vec::new() };
    while !state.is_over() && (g.actions as usize) < opts.max_actions {
        state.legal_actions(rules, &mut legal);
        if legal.is_empty() {
            break;
        }
        let i = pick(&state, rules, &legal, &mut weights, &mut chooser);
        let Ok(events) = state.apply(rules, &legal[i]) else { break };
        g.actions += 1;
        g.hashes.push(hash128(&state));
        let d = distance(rules, cond, &state, &events);
        if d < g.closest {
            g.closest = d;
            g.prefix = chooser.taken.clone();
        }
        if d == 0 {
            g.reached = true;
            break;
        }
    }
    g
}

/// How many of the random games' closest states seed the best-first search.
const SEEDS: usize = 16;

/// Searches from `start` for a state where `cond` holds (see the module docs).
pub fn find<G: Harnessed + Query + Send>(
    rules: &G::Rules,
    start: &G,
    cond: &Condition,
    opts: &FindOptions,
) -> FindReport<G::Action>
where
    G::Rules: Sync,
{
    let began = Instant::now();
    let deadline = opts.time_limit.and_then(|t| began.checked_add(t));
    let mut report = FindReport {
        stop: Stop::Found,
        witness: None,
        games: 0,
        actions: 0,
        distinct: 1,
        expanded: 0,
        closest: distance(rules, cond, start, &[]),
        seconds: 0.0,
    };
    if report.closest == 0 {
        report.witness = Some(Witness {
            choices: Vec::new(),
            actions: Vec::new(),
            method: Method::Start,
            actions_before_shrinking: 0,
        });
        return report;
    }
    let mut seen: HashSet<u128> = HashSet::new();
    seen.insert(hash128(start));
    // random restarts: half the time at most, so the best-first search runs too
    let half = opts.time_limit.and_then(|t| began.checked_add(t / 2));
    let games = random_games::<G>(rules, start, cond, opts, half);
    let mut seeds: Vec<(u64, u64, Vec<u32>)> = Vec::new();
    let mut hit: Option<&Game> = None;
    for g in &games {
        report.games += 1;
        report.actions += g.actions;
        seen.extend(&g.hashes);
        report.closest = report.closest.min(g.closest);
        if g.reached && hit.is_none_or(|h| g.index < h.index) {
            hit = Some(g);
        }
        if !g.reached && g.closest < u64::MAX {
            seeds.push((g.closest, g.index, g.prefix.clone()));
        }
    }
    report.distinct = seen.len() as u64;
    let found = match hit {
        Some(g) => Some((g.prefix.clone(), Method::Random(g.index))),
        None => {
            seeds.sort();
            seeds.truncate(SEEDS);
            let roots: Vec<Vec<u32>> = std::iter::once(Vec::new()).chain(seeds.into_iter().map(|s| s.2)).collect();
            // a state of a random game is expanded like any other: the search keeps its own set
            let mut b =
                BestFirst::<G> { rules, cond, seen: HashSet::new(), nodes: Vec::new(), heap: BinaryHeap::new() };
            let (stop, path) = b.run(start, &roots, opts, deadline, &mut report);
            report.stop = stop;
            seen.extend(&b.seen);
            report.distinct = seen.len() as u64;
            path.map(|p| (p, Method::BestFirst))
        }
    };
    if let Some((choices, method)) = found {
        let before = reaches::<G>(rules, start, cond, &choices).unwrap_or(choices.len());
        let shrunk = shrink_choices(&choices[..before], |c| reaches::<G>(rules, start, cond, c));
        let actions = actions_of::<G>(rules, start, &shrunk);
        report.witness = Some(Witness { choices: shrunk, actions, method, actions_before_shrinking: before });
        report.stop = Stop::Found;
    }
    report.seconds = began.elapsed().as_secs_f64();
    report
}

/// The random games, on `opts.jobs` threads, in index order; a thread
/// stops at the first game that reaches the condition or at `deadline`.
fn random_games<G: Harnessed + Query + Send>(
    rules: &G::Rules,
    start: &G,
    cond: &Condition,
    opts: &FindOptions,
    deadline: Option<Instant>,
) -> Vec<Game>
where
    G::Rules: Sync,
{
    let next = AtomicU64::new(0);
    // the lowest index that reached the condition: no game above it is started
    let first_hit = AtomicU64::new(u64::MAX);
    let out: Mutex<Vec<Game>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..opts.jobs.max(1) {
            // a state is not `Sync` (its bookkeeping of consulted readings): each thread has its own
            let start = start.clone();
            let (next, first_hit, out) = (&next, &first_hit, &out);
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= opts.games || i > first_hit.load(Ordering::Relaxed) {
                        break;
                    }
                    if i > 0 && deadline.is_some_and(|d| Instant::now() >= d) {
                        break;
                    }
                    let g = random_game::<G>(rules, &start, cond, opts, i);
                    if g.reached {
                        first_hit.fetch_min(i, Ordering::Relaxed);
                    }
                    out.lock().expect("no thread panics holding the lock").push(g);
                }
            });
        }
    });
    let mut games = out.into_inner().expect("threads are done");
    games.sort_by_key(|g| g.index);
    // games above the first hit played on other threads: the report counts what one thread would
    let cut = games.iter().position(|g| g.reached).map_or(games.len(), |p| p + 1);
    games.truncate(cut);
    games
}

/// A state of the best-first search: how it was reached.
struct Node {
    /// (parent node, choice index), or the root's index.
    from: Result<(u32, u32), usize>,
}

struct BestFirst<'a, G: Harnessed> {
    rules: &'a G::Rules,
    cond: &'a Condition,
    seen: HashSet<u128>,
    nodes: Vec<Node>,
    /// (distance, depth, node) of the states waiting, each with its state.
    heap: BinaryHeap<Reverse<(u64, u32, u32)>>,
}

impl<G: Harnessed + Query> BestFirst<'_, G> {
    fn run(
        &mut self,
        start: &G,
        roots: &[Vec<u32>],
        opts: &FindOptions,
        deadline: Option<Instant>,
        report: &mut FindReport<G::Action>,
    ) -> (Stop, Option<Vec<u32>>) {
        let rules = self.rules;
        let mut states: std::collections::HashMap<u32, G> = std::collections::HashMap::new();
        for (r, prefix) in roots.iter().enumerate() {
            let mut state = start.clone();
            let mut chooser = ScriptChooser { script: prefix, at: 0 };
            let (mut legal, mut weights) = (Vec::new(), Vec::new());
            let mut events = Vec::new();
            self.seen.insert(hash128(&state));
            for _ in prefix {
                state.legal_actions(rules, &mut legal);
                let a = legal[pick(&state, rules, &legal, &mut weights, &mut chooser)].clone();
                events = state.apply(rules, &a).unwrap_or_default();
            }
            self.seen.insert(hash128(&state));
            let id = self.nodes.len() as u32;
            self.nodes.push(Node { from: Err(r) });
            let d = distance(rules, self.cond, &state, &events);
            self.heap.push(Reverse((d, prefix.len() as u32, id)));
            states.insert(id, state);
        }
        let mut legal = Vec::new();
        while let Some(Reverse((_, depth, id))) = self.heap.pop() {
            if deadline.is_some_and(|d| Instant::now() >= d) {
                return (Stop::Deadline, None);
            }
            let state = states.remove(&id).expect("a waiting node keeps its state");
            report.expanded += 1;
            state.legal_actions(rules, &mut legal);
            for (i, action) in legal.iter().enumerate() {
                let mut child = state.clone();
                let Ok(events) = child.apply(rules, action) else { continue };
                report.actions += 1;
                if !self.seen.insert(hash128(&child)) {
                    continue;
                }
                let d = distance(rules, self.cond, &child, &events);
                report.closest = report.closest.min(d);
                let cid = self.nodes.len() as u32;
                self.nodes.push(Node { from: Ok((id, i as u32)) });
                if d == 0 {
                    return (Stop::Found, Some(self.path(cid, roots)));
                }
                if self.seen.len() >= opts.max_states {
                    return (Stop::StateBound, None);
                }
                if !child.is_over() {
                    self.heap.push(Reverse((d, depth + 1, cid)));
                    states.insert(cid, child);
                }
            }
        }
        // the start is a root: every state reachable from it was expanded
        (Stop::Exhausted, None)
    }

    /// The choices from the start to node `id`.
    fn path(&self, mut id: u32, roots: &[Vec<u32>]) -> Vec<u32> {
        let mut rev = Vec::new();
        loop {
            match self.nodes[id as usize].from {
                Ok((parent, choice)) => {
                    rev.push(choice);
                    id = parent;
                }
                Err(root) => {
                    let mut path = roots[root].clone();
                    path.extend(rev.into_iter().rev());
                    return path;
                }
            }
        }
    }
}
