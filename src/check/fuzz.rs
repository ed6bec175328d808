//! Fuzzing: many seeded random games with checks after every action, on
//! several threads, with the same result whatever the thread count; the
//! first failure (by game index) is shrunk to a short choice list.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::playout::{Chooser, RandomChooser, ScriptChooser};
use super::suite::{Checks, GameRun, run_game};
use crate::engine::{Config, ConfigError, Harnessed, Outcome};

/// The most actions one game of `fuzz` (and `check`, `bench`) may take
/// before it breaks `termination`, unless `--max-actions` says otherwise.
pub const MAX_ACTIONS: usize = 200_000;

#[derive(Debug, Clone)]
pub struct FuzzOptions {
    /// Games to play; game `i` uses seed `seed + i` (its index in the whole run).
    pub games: u64,
    pub seed: u64,
    pub jobs: usize,
    pub checks: Checks,
    pub fault: Option<String>,
    pub time_limit: Option<Duration>,
    /// The most actions one game may take (`MAX_ACTIONS` unless the user
    /// raised it for a house rule's long games).
    pub max_actions: usize,
    /// Play only the games whose index is `k` modulo `n` (`k` 0-based).
    pub shard: Option<(u64, u64)>,
}

/// Why a fuzz run cannot start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FuzzError {
    /// The configuration does not run under the catalog.
    Config(ConfigError),
    /// `--fault` names no fault of the game.
    UnknownFault { fault: String, known: Vec<&'static str> },
    /// The shard holds none of the games: nothing would be checked.
    EmptyShard { games: u64, shard: (u64, u64) },
}

impl From<ConfigError> for FuzzError {
    fn from(e: ConfigError) -> FuzzError {
        FuzzError::Config(e)
    }
}

impl std::fmt::Display for FuzzError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FuzzError::Config(e) => write!(f, "{e}"),
            FuzzError::UnknownFault { fault, known } => {
                write!(f, "unknown fault `{fault}`; the game's faults: {}", known.join(", "))
            }
            FuzzError::EmptyShard { games, shard: (k, n) } => write!(
                f,
                "shard {}/{n} of {games} game(s) holds no game, so nothing would be checked; give at least {n} games",
                k + 1
            ),
        }
    }
}

impl std::error::Error for FuzzError {}

mod summary;
pub use summary::{FailureReport, FuzzSummary, ShardSet};

pub fn outcome_key(o: Option<&Outcome>) -> String {
    o.map_or_else(|| "unfinished".into(), |o| o.key())
}

/// What the finished games of a run add up to, folded as each one ends
/// so memory stays flat however many games are played: totals, and of the
/// failing games only the first (by game index), whose choices the
/// shrinking starts from. Each thread keeps one; they are added up at the
/// end, in any order, to the same result.
struct Tally<A> {
    games: u64,
    actions: u64,
    invariant_checks: u64,
    turns: u64,
    outcomes: BTreeMap<String, u64>,
    consulted: BTreeMap<String, u64>,
    lengths: BTreeMap<u32, u64>,
    coverage: Vec<u64>,
    first_failure: Option<(u64, GameRun<A>)>,
}

impl<A> Tally<A> {
    fn new(keys: usize) -> Tally<A> {
        Tally {
            games: 0,
            actions: 0,
            invariant_checks: 0,
            turns: 0,
            outcomes: BTreeMap::new(),
            consulted: BTreeMap::new(),
            lengths: BTreeMap::new(),
            coverage: vec![0; keys],
            first_failure: None,
        }
    }

    /// Folds in game `i`; its actions are kept only if it is the first
    /// failure so far (`held` counts what every tally keeps).
    fn add(&mut self, i: u64, run: GameRun<A>, coverage: &[u64], held: &Retention) {
        self.games += 1;
        self.actions += run.actions.len() as u64;
        self.invariant_checks += run.invariant_checks;
        self.turns += u64::from(run.turns);
        *self.lengths.entry(run.turns).or_default() += 1;
        let outcome = if run.failure.is_some() { "failed".into() } else { outcome_key(run.outcome.as_ref()) };
        *self.outcomes.entry(outcome).or_default() += 1;
        for id in &run.consulted {
            *self.consulted.entry(id.clone()).or_default() += 1;
        }
        for (c, n) in self.coverage.iter_mut().zip(coverage) {
            *c += n;
        }
        if run.failure.is_some() {
            self.keep_failure(i, run, held);
        }
    }

    fn keep_failure(&mut self, i: u64, run: GameRun<A>, held: &Retention) {
        if self.first_failure.as_ref().is_some_and(|(j, _)| *j < i) {
            return;
        }
        held.hold(run.actions.len());
        if let Some((_, old)) = self.first_failure.replace((i, run)) {
            held.release(old.actions.len());
        }
    }

    fn merge(&mut self, other: Tally<A>, held: &Retention) {
        self.games += other.games;
        self.actions += other.actions;
        self.invariant_checks += other.invariant_checks;
        self.turns += other.turns;
        for (mine, theirs) in [(&mut self.outcomes, other.outcomes), (&mut self.consulted, other.consulted)] {
            for (k, v) in theirs {
                *mine.entry(k).or_default() += v;
            }
        }
        for (k, v) in other.lengths {
            *self.lengths.entry(k).or_default() += v;
        }
        for (c, n) in self.coverage.iter_mut().zip(&other.coverage) {
            *c += n;
        }
        if let Some((i, run)) = other.first_failure {
            held.release(run.actions.len());
            self.keep_failure(i, run, held);
        }
    }
}

/// How many finished games' actions a run held at once, at most (the
/// games in flight aside): `fuzz` keeps only the first failing game's, so
/// this stays at most one failing game per thread however many are played.
#[derive(Debug, Default)]
pub struct Retention {
    now: AtomicUsize,
    games_now: AtomicUsize,
    /// The most actions held at once.
    pub peak_actions: AtomicUsize,
    /// The most finished games held at once.
    pub peak_games: AtomicUsize,
}

impl Retention {
    fn hold(&self, actions: usize) {
        let now = self.now.fetch_add(actions, Ordering::Relaxed) + actions;
        self.peak_actions.fetch_max(now, Ordering::Relaxed);
        let games = self.games_now.fetch_add(1, Ordering::Relaxed) + 1;
        self.peak_games.fetch_max(games, Ordering::Relaxed);
    }

    fn release(&self, actions: usize) {
        self.now.fetch_sub(actions, Ordering::Relaxed);
        self.games_now.fetch_sub(1, Ordering::Relaxed);
    }
}

/// The games of a run (or of its shard), by game index: `count` of them,
/// the `j`-th being `first + j * step`, worked out rather than listed, so a
/// run of a billion games holds no list of them.
#[derive(Debug, Clone, Copy)]
struct Indices {
    first: u64,
    step: u64,
    count: u64,
}

impl Indices {
    fn of(games: u64, shard: Option<(u64, u64)>) -> Indices {
        match shard {
            None => Indices { first: 0, step: 1, count: games },
            Some((k, n)) if k < games => Indices { first: k, step: n, count: (games - 1 - k) / n + 1 },
            Some((k, n)) => Indices { first: k, step: n, count: 0 },
        }
    }

    fn get(&self, j: u64) -> Option<u64> {
        (j < self.count).then(|| self.first + j * self.step)
    }
}

/// Plays the games of `opts` for `base` (whose seed is replaced per game).
/// `progress` is bumped once per finished game.
pub fn fuzz<G: Harnessed>(
    rules: &G::Rules,
    base: &Config,
    opts: &FuzzOptions,
    progress: &AtomicU64,
) -> Result<FuzzSummary, FuzzError>
where
    G::Rules: Sync,
    G::Action: Send,
{
    fuzz_retaining::<G>(rules, base, opts, progress, &Retention::default())
}

/// `fuzz`, counting in `held` what it keeps of finished games (for tests).
pub fn fuzz_retaining<G: Harnessed>(
    rules: &G::Rules,
    base: &Config,
    opts: &FuzzOptions,
    progress: &AtomicU64,
    held: &Retention,
) -> Result<FuzzSummary, FuzzError>
where
    G::Rules: Sync,
    G::Action: Send,
{
    let mut probe = G::new(rules, base)?;
    // checked here, before any worker starts, so no game meets an unknown fault
    if let Some(f) = &opts.fault
        && !probe.inject_fault(f)
    {
        return Err(FuzzError::UnknownFault { fault: f.clone(), known: G::faults().to_vec() });
    }
    let start = Instant::now();
    // a limit past what the clock can represent is no limit
    let deadline = opts.time_limit.and_then(|t| start.checked_add(t));
    let indices = Indices::of(opts.games, opts.shard);
    if let (Some(shard), 0) = (opts.shard, indices.count) {
        return Err(FuzzError::EmptyShard { games: opts.games, shard });
    }
    let next = AtomicU64::new(0);
    let keys = G::coverage_keys(rules);
    let tallies: Mutex<Vec<Tally<G::Action>>> = Mutex::new(Vec::new());
    let jobs = opts.jobs.max(1);
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| {
                let mut tally = Tally::new(keys.len());
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    // the first game is always played, so a run checks something
                    if k > 0 && deadline.is_some_and(|d| Instant::now() >= d) {
                        break;
                    }
                    let Some(i) = indices.get(k) else { break };
                    let seed = opts.seed.wrapping_add(i);
                    let config = Config { seed, ..base.clone() };
                    let mut chooser = RandomChooser::new(seed);
                    let mut coverage = vec![0u64; keys.len()];
                    let run = run_counting::<G>(rules, &config, &mut chooser, opts, &mut coverage);
                    tally.add(i, run, &coverage, held);
                    progress.fetch_add(1, Ordering::Relaxed);
                }
                tallies.lock().expect("no thread panics while holding the lock").push(tally);
            });
        }
    });
    let mut total = Tally::new(keys.len());
    for t in tallies.into_inner().expect("threads are done") {
        total.merge(t, held);
    }
    let mut s = FuzzSummary {
        games: total.games,
        actions: total.actions,
        invariant_checks: total.invariant_checks,
        turns: total.turns,
        outcomes: total.outcomes,
        consulted: total.consulted,
        lengths: total.lengths,
        ..FuzzSummary::of_run(base, opts)
    };
    if opts.checks.invariants {
        for inv in G::invariants() {
            s.invariants.insert(inv.name.to_string(), s.actions);
        }
    }
    s.coverage = keys.into_iter().zip(total.coverage).collect();
    if let Some((i, failed)) = total.first_failure {
        let seed = opts.seed.wrapping_add(i);
        let failure = failed.failure.clone().expect("a failed game");
        let config = Config { seed, ..base.clone() };
        let (choices, run) = shrink::<G>(rules, &config, opts, &failed.choices, failure.name());
        let f = run.failure.clone().unwrap_or(failure);
        s.failures.push(FailureReport {
            seed,
            broken: f.name().to_string(),
            detail: f.to_string(),
            actions: run.actions.iter().map(|a| G::describe_action(rules, a)).collect(),
            choices,
            actions_before_shrinking: failed.actions.len(),
        });
        held.release(failed.actions.len());
    }
    s.seconds = start.elapsed().as_secs_f64();
    Ok(s)
}

fn run_counting<G: Harnessed>(
    rules: &G::Rules,
    config: &Config,
    chooser: &mut dyn Chooser,
    opts: &FuzzOptions,
    coverage: &mut [u64],
) -> GameRun<G::Action> {
    run_game::<G>(rules, config, chooser, opts.checks, opts.fault.as_deref(), opts.max_actions, coverage)
        .expect("the configuration was checked")
}

/// Replays a choice list (each index taken modulo the legal-list length)
/// for at most its own length.
pub fn replay<G: Harnessed>(
    rules: &G::Rules,
    config: &Config,
    checks: Checks,
    fault: Option<&str>,
    choices: &[u32],
) -> GameRun<G::Action> {
    let mut chooser = ScriptChooser { script: choices, at: 0 };
    run_game::<G>(rules, config, &mut chooser, checks, fault, choices.len(), &mut [])
        .expect("the configuration was checked")
}

/// Shrinks a failing choice list to a short one that still breaks the same
/// check: drop chunks (halving their size), then lower each index to 0.
pub fn shrink<G: Harnessed>(
    rules: &G::Rules,
    config: &Config,
    opts: &FuzzOptions,
    choices: &[u32],
    broken: &str,
) -> (Vec<u32>, GameRun<G::Action>) {
    let run = |c: &[u32]| replay::<G>(rules, config, opts.checks, opts.fault.as_deref(), c);
    // a game cut shorter "does not end" within its own shorter bound, which
    // proves nothing: a termination failure keeps the whole bounded game
    if broken == "termination" {
        return (choices.to_vec(), run(choices));
    }
    let fails = |c: &[u32]| -> Option<usize> {
        let r = run(c);
        match &r.failure {
            Some(f) if f.name() == broken => Some(r.actions.len()),
            _ => None,
        }
    };
    let best = if fails(choices).is_some() { shrink_choices(choices, fails) } else { choices.to_vec() };
    let best_run = run(&best);
    (best, best_run)
}

/// Shrinks a choice list while `holds` still says it reaches what it
/// reached (and after how many choices, which cuts the rest): drop chunks
/// (halving their size), then lower each index to 0. `choices` must hold.
pub fn shrink_choices(choices: &[u32], holds: impl Fn(&[u32]) -> Option<usize>) -> Vec<u32> {
    let mut best: Vec<u32> = choices.to_vec();
    if let Some(n) = holds(&best) {
        best.truncate(n);
    }
    let mut chunk = best.len() / 2;
    while chunk >= 1 {
        let mut i = 0;
        while i + chunk <= best.len() {
            let mut cand = best.clone();
            cand.drain(i..i + chunk);
            if let Some(n) = holds(&cand) {
                best = cand;
                best.truncate(n);
            } else {
                i += chunk;
            }
        }
        chunk /= 2;
    }
    let mut i = 0;
    while i < best.len() {
        i += 1;
        if best[i - 1] == 0 {
            continue;
        }
        let i = i - 1;
        let mut cand = best.clone();
        cand[i] = 0;
        if let Some(n) = holds(&cand) {
            best = cand;
            best.truncate(n);
        }
    }
    best
}
