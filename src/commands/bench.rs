//! `rulecheck bench`: actions per second with and without invariants per
//! game and player count, legal-action lists per second, the speed-up on
//! every core, catalog load time and peak memory.

use std::path::PathBuf;
use std::sync::atomic::AtomicU64;
use std::time::{Duration, Instant};

use serde::Serialize;

use super::{Exit, find_game, fuzz_any, load_all, print_diagnostics};
use crate::check::fuzz::FuzzOptions;
use crate::check::suite::Checks;
use crate::engine::{Config, Game};
use crate::games::{AnyRules, with_game};

/// Peak resident memory of this process, in KiB (Linux), if known.
pub fn peak_memory_kib() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    s.lines().find(|l| l.starts_with("VmHWM:"))?.split_whitespace().nth(1)?.parse().ok()
}

#[derive(Debug, Clone, Serialize)]
pub struct BenchRow {
    pub game: String,
    pub players: u32,
    pub games: u64,
    /// Median and spread (max − min) over the repetitions.
    pub actions_per_s_checked: (f64, f64),
    pub actions_per_s_bare: (f64, f64),
    pub games_per_s_bare: f64,
    pub legal_lists_per_s: f64,
    pub check_cost_ratio: f64,
    pub speedup_all_cores: f64,
}

pub(super) fn median_spread(mut v: Vec<f64>) -> (f64, f64) {
    v.sort_by(f64::total_cmp);
    let spread = v.last().copied().unwrap_or(0.0) - v.first().copied().unwrap_or(0.0);
    (v.get(v.len() / 2).copied().unwrap_or(0.0), spread)
}

fn timed_fuzz(rules: &AnyRules, config: &Config, games: u64, jobs: usize, checks: Checks) -> (f64, u64) {
    let opts = FuzzOptions {
        games,
        seed: 1,
        jobs,
        checks,
        fault: None,
        time_limit: None,
        max_actions: crate::check::fuzz::MAX_ACTIONS,
        shard: None,
    };
    let t = Instant::now();
    let s = fuzz_any(rules, config, &opts, &AtomicU64::new(0)).expect("default configurations run");
    (t.elapsed().as_secs_f64(), s.actions)
}

fn legal_rate(rules: &AnyRules, config: &Config, games: u64) -> f64 {
    with_game!(rules, |r, G| {
        let mut states = Vec::new();
        for seed in 0..games {
            let c = Config { seed, ..config.clone() };
            let run = crate::check::suite::run_game::<G>(
                r,
                &c,
                &mut crate::check::playout::RandomChooser::new(seed),
                Checks::NONE,
                None,
                crate::check::fuzz::MAX_ACTIONS,
                &mut [],
            )
            .expect("runs");
            let mut s = G::new(r, &c).expect("runs");
            for a in run.actions.iter().take(run.actions.len() / 2) {
                let _ = s.apply(r, a);
            }
            states.push(s);
        }
        let mut out = Vec::new();
        let t = Instant::now();
        let mut n = 0u64;
        while t.elapsed() < Duration::from_millis(300) {
            for s in &states {
                s.legal_actions(r, &mut out);
                n += 1;
            }
        }
        n as f64 / t.elapsed().as_secs_f64()
    })
}

/// What `rulecheck bench` is asked for.
#[derive(Debug, Clone)]
pub struct BenchArgs {
    pub rules: Option<PathBuf>,
    /// Games per measurement.
    pub games: u64,
    /// Measurements per row (with `against`, rounds of each build).
    pub repetitions: usize,
    pub json: bool,
    /// Only this game's rows.
    pub game: Option<String>,
    /// Another build of rulecheck to measure against, round after round.
    pub against: Option<PathBuf>,
}

/// One row: `reps` measurements with and without invariants, on one core,
/// and the speed-up on `cores`.
fn measure_row(rules: &AnyRules, players: u32, games: u64, reps: usize, cores: usize) -> BenchRow {
    let config = Config::new(rules.id(), players, 0);
    let mut checked = Vec::new();
    let mut bare = Vec::new();
    let mut bare_games = Vec::new();
    for _ in 0..reps {
        let (secs, actions) = timed_fuzz(rules, &config, games, 1, Checks::INVARIANTS);
        checked.push(actions as f64 / secs);
        let (secs, actions) = timed_fuzz(rules, &config, games, 1, Checks::NONE);
        bare.push(actions as f64 / secs);
        bare_games.push(games as f64 / secs);
    }
    let (secs_all, _) = timed_fuzz(rules, &config, games * 2, cores, Checks::NONE);
    let (secs_one, _) = timed_fuzz(rules, &config, games * 2, 1, Checks::NONE);
    let c = median_spread(checked);
    let b = median_spread(bare);
    BenchRow {
        game: rules.id().to_string(),
        players,
        games,
        actions_per_s_checked: c,
        actions_per_s_bare: b,
        games_per_s_bare: median_spread(bare_games).0,
        legal_lists_per_s: legal_rate(rules, &config, 20),
        check_cost_ratio: if c.0 > 0.0 { b.0 / c.0 } else { 0.0 },
        speedup_all_cores: secs_one / secs_all,
    }
}

/// The catalogs to measure (`--game`'s alone), or the exit for a catalog
/// that does not load or a `--game` none of them is.
fn load_measured(a: &BenchArgs) -> Result<Vec<AnyRules>, Exit> {
    let mut catalogs = load_all(a.rules.as_deref()).map_err(|d| print_diagnostics(&d))?;
    if let Some(g) = &a.game {
        find_game(&catalogs, g)?;
        catalogs.retain(|c| c.id() == g);
    }
    Ok(catalogs)
}

pub fn bench(a: &BenchArgs) -> Exit {
    if let Some(other) = &a.against {
        return super::bench_against::bench_against(a, other);
    }
    let (rules_dir, games, reps, json) = (a.rules.as_deref(), a.games, a.repetitions, a.json);
    let catalogs = match load_measured(a) {
        Ok(c) => c,
        Err(exit) => return exit,
    };
    let load_start = Instant::now();
    let loads = 20;
    for _ in 0..loads {
        let _ = load_all(rules_dir);
    }
    let load_ms = load_start.elapsed().as_secs_f64() * 1000.0 / loads as f64;
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let mut rows = Vec::new();
    for rules in &catalogs {
        let s = rules.summary();
        for players in s.min_players..=s.max_players {
            rows.push(measure_row(rules, players, games, reps, cores));
        }
    }
    let peak = peak_memory_kib();
    if json {
        println!(
            "{}",
            serde_json::json!({"rows": rows, "catalog_load_ms": load_ms, "cores": cores, "peak_memory_kib": peak})
        );
    } else {
        println!(
            "bench: {games} games per measurement, {reps} repetitions (median ± spread), 1 core unless noted; {cores} cores"
        );
        println!(
            "{:<11} {:>7} {:>22} {:>22} {:>9} {:>14} {:>11} {:>10}",
            "game",
            "players",
            "actions/s checked",
            "actions/s bare",
            "games/s",
            "legal lists/s",
            "check cost",
            "speed-up"
        );
        for r in &rows {
            println!(
                "{:<11} {:>7} {:>22} {:>22} {:>9.0} {:>14.0} {:>10.2}x {:>9.2}x",
                r.game,
                r.players,
                format!("{:.0} ± {:.0}", r.actions_per_s_checked.0, r.actions_per_s_checked.1),
                format!("{:.0} ± {:.0}", r.actions_per_s_bare.0, r.actions_per_s_bare.1),
                r.games_per_s_bare,
                r.legal_lists_per_s,
                r.check_cost_ratio,
                r.speedup_all_cores
            );
        }
        println!("catalog load and validation: {load_ms:.2} ms for all bundled catalogs");
        if let Some(p) = peak {
            println!("peak memory: {:.1} MiB", p as f64 / 1024.0);
        }
    }
    Exit::Ok
}
