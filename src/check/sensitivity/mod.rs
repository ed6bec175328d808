//! Sensitivity: which invented numbers move the outcome. The assumed
//! numbers of a game's catalog (`sites`) are grouped, and each group is
//! changed (halved, doubled, plus and minus one) in the source text; the
//! changed catalog is loaded again through the registry (one that fails
//! validation is out of range), and the same seeds are played under the
//! base and the changed catalog (common random numbers: game `i` has seed
//! `seed + i` and the same choice stream). What each pair of games shows
//! is folded into a `Paired` tally: outcomes that changed, each seat's win
//! difference, the difference in length, and what took effect. The
//! intervals and the ranking are `interp::doubt`'s.
//! Nothing here names a game.

mod sites;

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

use serde::Serialize;

pub use sites::{Change, Number, Site, find_sites, group_sites, perturb};

use super::fuzz::outcome_key;
use super::playout::RandomChooser;
use super::suite::{Checks, run_game};
use crate::catalog::GameSources;
use crate::engine::{Config, ConfigError, Harnessed};
use crate::games::{self, AnyRules, with_game};

/// The actions a game may take before it counts as not ending (`fuzz`'s default).
pub use super::fuzz::MAX_ACTIONS;

/// How one seeded game ended, reduced to what the comparison needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// `win:p2`, `draw:turn-cap`, or `failed:<check>` when an invariant broke.
    pub outcome: String,
    /// A bit per seat in first place.
    pub winners: u64,
    pub turns: u32,
    /// Times each coverage key took effect (by index into the run's keys).
    pub coverage: Vec<u64>,
}

/// Plays games `0..games` (seed `seed + i`) of a configuration on `jobs`
/// threads with the invariants checked, and returns the coverage keys and
/// one record per game in game order, whatever the thread count.
pub fn play_records<G: Harnessed>(
    rules: &G::Rules,
    base: &Config,
    seed: u64,
    games: u64,
    jobs: usize,
    progress: &AtomicU64,
) -> Result<(Vec<String>, Vec<Record>), ConfigError>
where
    G::Rules: Sync,
{
    G::new(rules, base)?;
    let keys = G::coverage_keys(rules);
    let next = AtomicU64::new(0);
    let done: Mutex<Vec<(u64, Record)>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            scope.spawn(|| {
                let mut mine = Vec::new();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= games {
                        break;
                    }
                    let s = seed.wrapping_add(i);
                    let config = Config { seed: s, ..base.clone() };
                    let mut coverage = vec![0; keys.len()];
                    let mut chooser = RandomChooser::new(s);
                    let played = run_game::<G>(
                        rules,
                        &config,
                        &mut chooser,
                        Checks::INVARIANTS,
                        None,
                        MAX_ACTIONS,
                        &mut coverage,
                    );
                    // the configuration was tried above; a seed does not change whether it runs
                    let Ok(run) = played else { continue };
                    let outcome = match &run.failure {
                        Some(f) => format!("failed:{}", f.name()),
                        None => outcome_key(run.outcome.as_ref()),
                    };
                    let winners = run.outcome.iter().flat_map(|o| o.winners()).fold(0u64, |m, s| m | (1 << s));
                    mine.push((i, Record { outcome, winners, turns: run.turns, coverage }));
                    progress.fetch_add(1, Ordering::Relaxed);
                }
                done.lock().expect("no thread panics while holding the lock").append(&mut mine);
            });
        }
    });
    let mut done = done.into_inner().expect("threads are done");
    done.sort_by_key(|(i, _)| *i);
    Ok((keys, done.into_iter().map(|(_, r)| r).collect()))
}

/// `play_records` for any loaded game.
pub fn play_records_any(
    rules: &AnyRules,
    base: &Config,
    seed: u64,
    games: u64,
    jobs: usize,
    progress: &AtomicU64,
) -> Result<(Vec<String>, Vec<Record>), ConfigError> {
    with_game!(rules, |r, G| play_records::<G>(r, base, seed, games, jobs, progress))
}

/// What the same seeds showed under the base and one changed catalog.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Paired {
    pub games: u64,
    /// Games whose outcome (`win:p2`, `draw:turn-cap`, …) differs.
    pub changed: u64,
    /// Per seat, per game: won under the change minus won under the base (-1, 0, 1).
    #[serde(skip)]
    pub win_diff: Vec<Vec<f64>>,
    /// Per game: turns under the change minus turns under the base.
    #[serde(skip)]
    pub turn_diff: Vec<f64>,
    /// Games that broke an invariant or did not end under the change, and the first one's outcome.
    pub failed: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_failure: Option<String>,
    /// Coverage key → (times under the base, times under the change), where they differ.
    pub coverage: BTreeMap<String, (u64, u64)>,
}

/// Folds the games of the base and a change, seed by seed. Both lists
/// hold the same seeds in order; coverage keys are matched by name.
pub fn pair(keys: &[String], base: &[Record], other_keys: &[String], other: &[Record], seats: usize) -> Paired {
    let mut p = Paired { win_diff: vec![Vec::new(); seats], ..Paired::default() };
    let mut totals: BTreeMap<&str, (u64, u64)> = BTreeMap::new();
    for (a, b) in base.iter().zip(other) {
        p.games += 1;
        p.changed += u64::from(a.outcome != b.outcome);
        for (seat, d) in p.win_diff.iter_mut().enumerate() {
            let won = |r: &Record| f64::from(u8::from(r.winners >> seat & 1 == 1));
            d.push(won(b) - won(a));
        }
        p.turn_diff.push(f64::from(b.turns) - f64::from(a.turns));
        if b.outcome.starts_with("failed:") || b.outcome == "unfinished" {
            p.failed += 1;
            p.first_failure.get_or_insert_with(|| b.outcome.clone());
        }
        for (k, n) in keys.iter().zip(&a.coverage) {
            totals.entry(k).or_default().0 += n;
        }
        for (k, n) in other_keys.iter().zip(&b.coverage) {
            totals.entry(k).or_default().1 += n;
        }
    }
    p.coverage = totals.into_iter().filter(|(_, (a, b))| a != b).map(|(k, v)| (k.to_string(), v)).collect();
    p
}

/// What became of one change of one group.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "status")]
pub enum Trial {
    Measured(Paired),
    /// The changed catalog fails validation (the first diagnostic) or
    /// cannot run the configuration.
    OutOfRange {
        reason: String,
    },
    /// No number of the group changes (all 0 and halved, say).
    Unchanged,
    /// The time budget ran out before it was played.
    NotMeasured,
}

/// A run's inputs besides the catalog.
#[derive(Debug, Clone)]
pub struct SensitivityOptions {
    pub config: Config,
    pub games: u64,
    pub seed: u64,
    pub jobs: usize,
    /// One site per group instead of one group per file and field.
    pub each: bool,
    /// Only groups whose name contains one of these (all when empty).
    pub only: Vec<String>,
    /// No change starts after this instant.
    pub deadline: Option<Instant>,
}

/// One group: its sites and each change's trial, in `Change::ALL` order.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GroupResult {
    pub name: String,
    pub sites: Vec<Site>,
    pub trials: Vec<(Change, Trial)>,
}

/// A whole run: the base's games and every group's trials.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Sensitivity {
    pub games: u64,
    pub seed: u64,
    pub config: String,
    /// Base outcome → games.
    pub base_outcomes: BTreeMap<String, u64>,
    pub base_mean_turns: f64,
    /// Reported through the command's ranking.
    #[serde(skip)]
    pub groups: Vec<GroupResult>,
    /// Assumed fields written in a form that cannot be rewritten.
    pub unplaced: Vec<String>,
}

/// The groups `opts` selects from the catalog source `src`.
pub fn select_groups(src: &GameSources, opts: &SensitivityOptions) -> Result<Vec<(String, Vec<Site>)>, String> {
    let (sites, _) = find_sites(src).map_err(|d| d.to_string())?;
    let groups = group_sites(&sites, opts.each);
    Ok(groups
        .into_iter()
        .filter(|(name, _)| opts.only.is_empty() || opts.only.iter().any(|o| name.contains(o)))
        .collect())
}

/// Runs the whole measurement over the groups `select_groups` gives.
/// `progress` counts games played, `started` the changes begun.
pub fn sensitivity(
    src: &GameSources,
    base: &AnyRules,
    opts: &SensitivityOptions,
    progress: &AtomicU64,
    started: &AtomicUsize,
) -> Result<Sensitivity, String> {
    let groups = select_groups(src, opts)?;
    let (_, unplaced) = find_sites(src).map_err(|d| d.to_string())?;
    let play = |rules: &AnyRules| play_records_any(rules, &opts.config, opts.seed, opts.games, opts.jobs, progress);
    let (keys, records) = play(base).map_err(|e| e.to_string())?;
    let mut base_outcomes: BTreeMap<String, u64> = BTreeMap::new();
    for r in &records {
        *base_outcomes.entry(r.outcome.clone()).or_default() += 1;
    }
    let turns: f64 = records.iter().map(|r| f64::from(r.turns)).sum();
    // change by change across the groups, so a budget that runs out leaves
    // every group measured under its first changes rather than the first
    // groups under all of theirs; changes start until one is measured
    let mut trials: Vec<Vec<(Change, Trial)>> = groups.iter().map(|_| Vec::new()).collect();
    let mut measured = 0usize;
    for change in Change::ALL {
        for ((_, sites), trials) in groups.iter().zip(&mut trials) {
            started.fetch_add(1, Ordering::Relaxed);
            let trial = match perturb(src, sites, change) {
                None => Trial::Unchanged,
                Some(_) if measured > 0 && opts.deadline.is_some_and(|d| Instant::now() >= d) => Trial::NotMeasured,
                Some(changed) => match games::load(&changed) {
                    Err(d) => Trial::OutOfRange { reason: d.first().map_or_else(String::new, first_line) },
                    Ok(rules) => match play(&rules) {
                        Err(e) => Trial::OutOfRange { reason: e.to_string() },
                        Ok((k, r)) => {
                            measured += 1;
                            Trial::Measured(pair(&keys, &records, &k, &r, opts.config.players as usize))
                        }
                    },
                },
            };
            trials.push((change, trial));
        }
    }
    let out =
        groups.into_iter().zip(trials).map(|((name, sites), trials)| GroupResult { name, sites, trials }).collect();
    Ok(Sensitivity {
        games: records.len() as u64,
        seed: opts.seed,
        config: opts.config.flags(),
        base_outcomes,
        base_mean_turns: if records.is_empty() { 0.0 } else { turns / records.len() as f64 },
        groups: out,
        unplaced,
    })
}

/// A diagnostic's first line (`file:line:column: message`), without its snippet.
fn first_line(d: &crate::catalog::diag::Diagnostic) -> String {
    d.to_string().lines().next().unwrap_or_default().to_string()
}
