//! The checks every game gets for free (OpenSpiel's random-simulation tests,
//! extended): after every action of a random game, the legal-action
//! contract, clone and replay determinism, serialisation round trips, the
//! rejection of malformed actions, termination, and the game's own invariants.

use std::fmt;

use serde::Serialize;

use super::playout::{Chooser, pick};
use crate::engine::{Config, ConfigError, Harnessed, Outcome, RuleError, ToMove, Violation};
use crate::yaml;

/// Which checks run after every action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Checks {
    /// The game's declared invariants.
    pub invariants: bool,
    /// The generic contract: legal list, clone, replay, round trips, malformed actions.
    pub contract: bool,
    /// Also round-trip through YAML (slower than JSON) every this many actions (0: never).
    pub yaml_every: usize,
}

impl Checks {
    pub const NONE: Checks = Checks { invariants: false, contract: false, yaml_every: 0 };
    pub const INVARIANTS: Checks = Checks { invariants: true, contract: false, yaml_every: 0 };
    pub const ALL: Checks = Checks { invariants: true, contract: true, yaml_every: 1 };
}

/// What went wrong in a game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum Failure {
    /// A declared invariant broke.
    Invariant(Violation),
    /// The engine contract broke.
    Contract { check: &'static str, detail: String },
}

impl Failure {
    /// The name of the broken invariant or contract check.
    pub fn name(&self) -> &'static str {
        match self {
            Failure::Invariant(v) => v.invariant,
            Failure::Contract { check, .. } => check,
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Invariant(v) => write!(f, "{v}"),
            Failure::Contract { check, detail } => write!(f, "contract `{check}` broken: {detail}"),
        }
    }
}

/// One checked game.
#[derive(Debug, Clone)]
pub struct GameRun<A> {
    pub outcome: Option<Outcome>,
    pub turns: u32,
    /// Every action applied, in order.
    pub actions: Vec<A>,
    /// The choice index taken before each action.
    pub choices: Vec<u32>,
    pub failure: Option<Failure>,
    /// How many invariant checks ran (invariants × actions).
    pub invariant_checks: u64,
    /// Interpretations the engine consulted in this game.
    pub consulted: Vec<String>,
}

fn contract(check: &'static str, detail: impl Into<String>) -> Failure {
    Failure::Contract { check, detail: detail.into() }
}

/// Plays one game with `chooser`, checking after every action. `fault`
/// breaks a rule on purpose (see `Game::inject_fault`). `max_actions` bounds
/// the game: a game that has not ended by then breaks `termination`.
/// `coverage`, when not empty, counts what took effect (indexes of
/// `Game::coverage_keys`).
pub fn run_game<G: Harnessed>(
    rules: &G::Rules,
    config: &Config,
    chooser: &mut dyn Chooser,
    checks: Checks,
    fault: Option<&str>,
    max_actions: usize,
    coverage: &mut [u64],
) -> Result<GameRun<G::Action>, ConfigError> {
    let mut state = G::new(rules, config)?;
    if let Some(f) = fault {
        assert!(state.inject_fault(f), "unknown fault `{f}`");
    }
    let mut replay = if checks.contract { Some(state.clone()) } else { None };
    let mut run = GameRun {
        outcome: None,
        turns: 0,
        actions: Vec::new(),
        choices: Vec::new(),
        failure: None,
        invariant_checks: 0,
        consulted: Vec::new(),
    };
    let (mut legal, mut weights) = (Vec::new(), Vec::new());
    let mut left_out = G::Deferred::default();
    let mut events = Vec::new();
    let n_invariants = G::invariants().len() as u64;
    loop {
        let deferred = match list_step(rules, &state, (&mut legal, &mut left_out), checks.contract) {
            Ok(n) => n,
            Err(f) => {
                run.failure = Some(f);
                break;
            }
        };
        if legal.is_empty() && deferred == 0 {
            break;
        }
        if run.actions.len() >= max_actions {
            run.failure =
                Some(contract("termination", format!("no end after {max_actions} actions ({} turns)", state.turns())));
            break;
        }
        let (i, action) = pick_step(rules, &state, (&mut legal, &left_out), deferred, &mut weights, chooser);
        run.choices.push(i as u32);
        if checks.contract
            && let Some(f) = check_malformed::<G>(rules, &state, &action, run.actions.len() as u32)
                .or_else(|| check_hidden::<G>(rules, &state, &action))
        {
            run.actions.push(action);
            run.failure = Some(f);
            break;
        }
        let before = if checks.invariants { Some(state.before()) } else { None };
        let cloned = if checks.contract { Some(state.clone()) } else { None };
        if let Err(e) = apply_step(rules, &mut state, &action, checks.contract, &mut events) {
            run.actions.push(action);
            run.failure = Some(contract("legal-accepted", format!("a listed legal action was rejected: {e}")));
            break;
        }
        run.actions.push(action);
        let action = run.actions.last().expect("just pushed");
        if !coverage.is_empty() {
            for e in &events {
                if let Some(k) = G::coverage_of(rules, e) {
                    coverage[k] += 1;
                }
            }
        }
        if let Some(before) = before {
            run.invariant_checks += n_invariants;
            if let Err(v) = state.check_invariants(rules, &before, action, &events) {
                run.failure = Some(Failure::Invariant(v));
                break;
            }
        }
        if checks.contract {
            if let Some(mut c) = cloned {
                let e2 = c.apply(rules, action);
                if e2.as_ref().ok() != Some(&events) || c != state {
                    run.failure = Some(contract(
                        "clone-evolves-alike",
                        "a clone given the same action reached another state or events",
                    ));
                    break;
                }
            }
            if let Some(r) = replay.as_mut()
                && (r.apply(rules, action).is_err() || *r != state)
            {
                run.failure = Some(contract("replay", "replaying the seed and actions reached another state"));
                break;
            }
            if let Some(f) = check_round_trips(&state, checks.yaml_every, run.actions.len()) {
                run.failure = Some(f);
                break;
            }
        }
    }
    run.outcome = state.outcome(rules);
    run.turns = state.turns();
    run.consulted = state.consulted(rules);
    if run.failure.is_none() && run.outcome.is_none() {
        run.failure = Some(contract("legal-nonempty", "no legal action, yet the game is not over"));
    }
    Ok(run)
}

/// Applies a listed action, its events into `events` (one buffer for the
/// whole game): checked again under the contract (`legal-accepted`), else
/// through `apply_listed`.
fn apply_step<G: Harnessed>(
    rules: &G::Rules,
    state: &mut G,
    action: &G::Action,
    contract: bool,
    events: &mut Vec<G::Event>,
) -> Result<(), RuleError> {
    if contract {
        *events = state.apply(rules, action)?;
        Ok(())
    } else {
        state.apply_listed(rules, action, events)
    }
}

/// The legal list of a step: the whole list, checked, under the contract;
/// else as `legal_deferred` gives it (a pick needs only its length and the
/// action picked). The count left out, or the contract's failure.
fn list_step<G: Harnessed>(
    rules: &G::Rules,
    state: &G,
    (legal, left_out): (&mut Vec<G::Action>, &mut G::Deferred),
    contract: bool,
) -> Result<usize, Failure> {
    if !contract {
        return Ok(state.legal_deferred(rules, legal, left_out));
    }
    state.legal_actions(rules, legal);
    check_legal::<G>(rules, state, legal).map_or(Ok(0), Err)
}

/// The index picked and its action, from a list with its first `deferred`
/// actions left out (a uniform pick then, as `legal_deferred` promises).
fn pick_step<G: Harnessed>(
    rules: &G::Rules,
    state: &G,
    (legal, left_out): (&mut Vec<G::Action>, &G::Deferred),
    deferred: usize,
    weights: &mut Vec<u32>,
    chooser: &mut dyn Chooser,
) -> (usize, G::Action) {
    if chooser.keyed() {
        // the whole list, the actions left out first (as `legal_actions`
        // gives them), for the key alone: only a chooser that records or
        // follows a game pays for it
        if deferred == 0 {
            chooser.node(node_key(legal.iter()));
        } else {
            let mut all = Vec::with_capacity(deferred + legal.len());
            state.legal_actions(rules, &mut all);
            chooser.node(node_key(&all));
        }
    }
    if deferred == 0 {
        let i = pick(state, rules, legal, weights, chooser);
        return (i, legal.swap_remove(i));
    }
    let i = chooser.choose(deferred + legal.len());
    (i, if i < deferred { state.deferred_action(rules, left_out, i) } else { legal.swap_remove(i - deferred) })
}

/// A node's key for a chooser that records or follows a game: a hash of
/// every action it offers, in the order its indexes stand for them (the
/// ones a list leaves out, Dry Gulch's builds, first). Two nodes that
/// offer the same actions have the same key; two that do not, almost
/// surely not.
pub fn node_key<'a, A: std::hash::Hash + 'a>(actions: impl IntoIterator<Item = &'a A>) -> u64 {
    use std::hash::{DefaultHasher, Hash, Hasher};
    let mut h = DefaultHasher::new();
    let mut n = 0usize;
    for a in actions {
        a.hash(&mut h);
        n += 1;
    }
    // the length, so a list is never the start of another's hash
    n.hash(&mut h);
    h.finish()
}

/// The contract checks of one step, for a scenario's `do` steps (so a
/// saved counterexample of a contract failure fails `run` too): before it,
/// the legal list and the rejection of a malformed action (`salt`: the
/// actions applied so far, as `run_game` uses); after it, that `before`
/// given the same action evolves alike, the replay from `replay` (which the
/// action is applied to), the JSON round trip and the legal list again.
pub fn check_step<G: Harnessed>(
    rules: &G::Rules,
    before: &G,
    action: &G::Action,
    events: &[G::Event],
    after: &G,
    replay: &mut G,
    salt: u32,
) -> Option<Failure> {
    let mut legal = Vec::new();
    before.legal_actions(rules, &mut legal);
    if let Some(f) = check_node::<G>(rules, before, &legal)
        .or_else(|| check_transition::<G>(rules, before, &legal, action, events, after, salt))
    {
        return Some(f);
    }
    if replay.apply(rules, action).is_err() || *replay != *after {
        return Some(contract("replay", "replaying the seed and actions reached another state"));
    }
    check_after::<G>(rules, after)
}

/// The part of `check_step` about one state, given its legal list: a
/// search checks it once per state, not once per action.
pub fn check_node<G: Harnessed>(rules: &G::Rules, state: &G, legal: &[G::Action]) -> Option<Failure> {
    check_legal::<G>(rules, state, legal)
}

/// The part of `check_step` about one action of `before` (whose legal list
/// is `legal`) that led to `after` with `events`: the malformed action,
/// the hiding of a simultaneous choice, and a clone evolving alike.
pub fn check_transition<G: Harnessed>(
    rules: &G::Rules,
    before: &G,
    legal: &[G::Action],
    action: &G::Action,
    events: &[G::Event],
    after: &G,
    salt: u32,
) -> Option<Failure> {
    if let Some(f) = check_malformed_among::<G>(rules, before, legal, action, salt)
        .or_else(|| check_hidden::<G>(rules, before, action))
    {
        return Some(f);
    }
    let mut c = before.clone();
    if c.apply(rules, action).as_ref().ok().map(Vec::as_slice) != Some(events) || c != *after {
        return Some(contract("clone-evolves-alike", "a clone given the same action reached another state or events"));
    }
    None
}

/// The part of `check_step` about the state an action reached: the JSON
/// round trip and its legal list.
pub fn check_after<G: Harnessed>(rules: &G::Rules, after: &G) -> Option<Failure> {
    let mut legal = Vec::new();
    after.legal_actions(rules, &mut legal);
    check_round_trips(after, 0, 0).or_else(|| check_legal::<G>(rules, after, &legal))
}

fn check_legal<G: Harnessed>(rules: &G::Rules, state: &G, legal: &[G::Action]) -> Option<Failure> {
    let outcome = state.outcome(rules);
    if legal.is_empty() != outcome.is_some() {
        let o = outcome.map_or("none".to_string(), |o| o.to_string());
        return Some(contract("legal-nonempty", format!("{} legal actions while the outcome is {o}", legal.len())));
    }
    let mut again = Vec::new();
    state.legal_actions(rules, &mut again);
    if again != legal {
        return Some(contract("legal-order", "two calls listed different actions or orders"));
    }
    if let Some(f) = check_deferred(rules, state, legal) {
        return Some(f);
    }
    let mut sorted: Vec<&G::Action> = legal.iter().collect();
    sorted.sort();
    if sorted.windows(2).any(|w| w[0] == w[1]) {
        return Some(contract("legal-unique", "an action is listed twice"));
    }
    if state.is_over() != legal.is_empty() {
        return Some(contract(
            "legal-nonempty",
            format!("{} is on move, yet the legal list disagrees", state.to_move()),
        ));
    }
    check_actors(rules, state, legal)
}

/// `legal_deferred` leaves out a prefix of the list and lists the rest,
/// `deferred_action` makes the ones left out (the first, the last and a
/// few between are compared), and a node that defers is a seat's with no
/// play weights, so a pick from it is a pick from the whole list.
fn check_deferred<G: Harnessed>(rules: &G::Rules, state: &G, legal: &[G::Action]) -> Option<Failure> {
    let (mut rest, mut left_out) = (Vec::new(), G::Deferred::default());
    let n = state.legal_deferred(rules, &mut rest, &mut left_out);
    let fail = |why: &str| Some(contract("legal-deferred", why.to_string()));
    if n + rest.len() != legal.len() || legal[n.min(legal.len())..] != rest[..] {
        return fail("the list with actions deferred is not the tail of the whole list");
    }
    if n == 0 {
        return None;
    }
    let mut weights = Vec::new();
    state.play_weights(rules, legal, &mut weights);
    if !matches!(state.to_move(), ToMove::Seat(_)) || !weights.is_empty() {
        return fail("actions deferred where the pick is not uniform over the seat's actions");
    }
    let step = (n / 8).max(1);
    if (0..n).step_by(step).chain([n - 1]).any(|i| state.deferred_action(rules, &left_out, i) != legal[i]) {
        return fail("a deferred action is not the one the whole list has there");
    }
    None
}

/// Each listed action belongs to whoever `to_move` names: the seat on move,
/// a seat still choosing (and each of those has an action), or chance (and
/// the weights line up with the outcomes).
fn check_actors<G: Harnessed>(rules: &G::Rules, state: &G, legal: &[G::Action]) -> Option<Failure> {
    let to_move = state.to_move();
    let stray = |a: &G::Action| {
        contract("legal-actor", format!("`{}` is listed but {} is on move", G::describe_action(rules, a), to_move))
    };
    match to_move {
        ToMove::Seat(seat) => legal.iter().find(|a| state.actor(a) != Some(seat)).map(stray).or_else(|| {
            let mut weights = Vec::new();
            state.play_weights(rules, legal, &mut weights);
            (!weights.is_empty() && (weights.len() != legal.len() || weights.contains(&0))).then(|| {
                contract(
                    "play-weights",
                    format!("{} legal actions but play weights {weights:?}: none, or one positive each", legal.len()),
                )
            })
        }),
        ToMove::Simultaneous(seats) => {
            if let Some(a) = legal.iter().find(|a| !state.actor(a).is_some_and(|s| seats.contains(s))) {
                return Some(stray(a));
            }
            let idle = seats.iter().find(|&s| !legal.iter().any(|a| state.actor(a) == Some(s)))?;
            Some(contract("legal-actor", format!("p{} chooses at once with {seats} but has no legal action", idle + 1)))
        }
        ToMove::Chance => {
            if let Some(a) = legal.iter().find(|a| state.actor(a).is_some()) {
                return Some(stray(a));
            }
            let mut weights = Vec::new();
            state.chance_weights(rules, &mut weights);
            if weights.len() != legal.len() || weights.contains(&0) {
                return Some(contract(
                    "chance-weights",
                    format!("{} outcomes but weights {weights:?}: one positive weight per outcome", legal.len()),
                ));
            }
            None
        }
        ToMove::Terminal => None,
    }
}

/// At a simultaneous node a seat's choice stays hidden until all have
/// chosen: whichever of its actions a seat takes, every other seat
/// observes the same and may take the same actions.
fn check_hidden<G: Harnessed>(rules: &G::Rules, state: &G, action: &G::Action) -> Option<Failure> {
    let ToMove::Simultaneous(_) = state.to_move() else { return None };
    let chooser = state.actor(action)?;
    let mut legal = Vec::new();
    state.legal_actions(rules, &mut legal);
    let other = legal.iter().find(|a| *a != action && state.actor(a) == Some(chooser))?;
    let (mut a, mut b) = (state.clone(), state.clone());
    if a.apply(rules, action).is_err() || b.apply(rules, other).is_err() {
        return None; // `legal-accepted` reports it
    }
    if !matches!(a.to_move(), ToMove::Simultaneous(_)) {
        return None; // the last choice reveals them all
    }
    let (mut la, mut lb) = (Vec::new(), Vec::new());
    a.legal_actions(rules, &mut la);
    b.legal_actions(rules, &mut lb);
    for seat in (0..state.players()).filter(|&s| s != chooser) {
        let mine = |s: &G, l: &[G::Action]| -> Vec<G::Action> {
            l.iter().filter(|x| s.actor(x) == Some(seat)).cloned().collect()
        };
        if a.observation(rules, seat) != b.observation(rules, seat) || mine(&a, &la) != mine(&b, &lb) {
            return Some(contract(
                "simultaneous-hidden",
                format!(
                    "p{} sees or may do something else depending on whether p{} chose `{}` or `{}`",
                    seat + 1,
                    chooser + 1,
                    G::describe_action(rules, action),
                    G::describe_action(rules, other)
                ),
            ));
        }
    }
    None
}

fn check_malformed<G: Harnessed>(rules: &G::Rules, state: &G, action: &G::Action, salt: u32) -> Option<Failure> {
    let mut legal = Vec::new();
    state.legal_actions(rules, &mut legal);
    check_malformed_among::<G>(rules, state, &legal, action, salt)
}

fn check_malformed_among<G: Harnessed>(
    rules: &G::Rules,
    state: &G,
    legal: &[G::Action],
    action: &G::Action,
    salt: u32,
) -> Option<Failure> {
    let bad = super::malformed::malformed(action, salt, legal)?;
    let mut probe = state.clone();
    match probe.apply(rules, &bad) {
        Ok(_) => Some(contract(
            "illegal-rejected",
            format!("an action not in the legal list was accepted: {}", G::describe_action(rules, &bad)),
        )),
        Err(_) if probe != *state => Some(contract("illegal-unchanged", "a rejected action changed the state")),
        Err(_) => None,
    }
}

fn check_round_trips<G: Harnessed>(state: &G, yaml_every: usize, step: usize) -> Option<Failure> {
    let json = serde_json::to_string(state).expect("states serialise to JSON");
    match serde_json::from_str::<G>(&json) {
        Ok(back) if back == *state => {}
        Ok(_) => return Some(contract("json-round-trip", "state → JSON → state is not equal")),
        Err(e) => return Some(contract("json-round-trip", format!("the JSON of a state does not read back: {e}"))),
    }
    if yaml_every > 0 && step.is_multiple_of(yaml_every) {
        let text = yaml::to_string(state);
        match yaml::from_str::<G>("<state>", &text) {
            Ok(back) if back == *state => {}
            Ok(_) => return Some(contract("yaml-round-trip", "state → YAML → state is not equal")),
            Err(e) => return Some(contract("yaml-round-trip", format!("the YAML of a state does not read back: {e}"))),
        }
    }
    None
}
