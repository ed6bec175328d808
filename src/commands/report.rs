//! `rulecheck report --out DIR`: one `check`-sized run over every bundled
//! game written as `index.html` (self-contained) and `report.json`.
//!
//! The budget is shared out in stages: 45% to fuzzing every configuration
//! `check` fuzzes (equal shares), 20% to pairing the live readings, 15% to
//! the assumption sensitivity, 15% to the scenario × interpretation
//! matrix, each stage's time split equally among the games; a stage past
//! its time starts nothing more (its first item always runs) and the page
//! says what was left out.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::check::timed_fuzz;
use super::sensitivity::rank;
use super::{Exit, check_configs, fuzz_any, load_all, print_diagnostics, read_sources, scenario_files, with_progress};
use crate::catalog::GameSources;
use crate::check::fuzz::{FuzzOptions, FuzzSummary};
use crate::check::sensitivity::{SensitivityOptions, sensitivity};
use crate::engine::Config;
use crate::games::AnyRules;
use crate::report::{ConfigRun, GameReport, Report, Sensitivities, SensitivityRow, html, pairing_players, readings};

/// Paired games per reading option.
pub const READING_GAMES: u64 = 20;

/// Seeds per change of a group of assumed numbers.
pub const SENSITIVITY_GAMES: u64 = 20;

pub struct ReportArgs {
    pub out: PathBuf,
    pub budget: Duration,
    pub seed: u64,
    pub jobs: usize,
}

/// The instant `part` of `stage` (of `parts`) ends, from `from`.
fn slice(from: Instant, stage: Duration, part: usize, parts: usize) -> Option<Instant> {
    from.checked_add(stage.mul_f64((part + 1) as f64 / parts.max(1) as f64))
}

pub fn report_command(a: &ReportArgs) -> Exit {
    let start = Instant::now();
    // a folder that cannot be made is said before the runs, not after them
    if let Err(e) = std::fs::create_dir_all(&a.out) {
        return cannot_write(a, &e);
    }
    let (sources, catalogs) = match read_sources(None).and_then(|s| Ok((s, load_all(None)?))) {
        Ok(x) => x,
        Err(d) => return print_diagnostics(&d),
    };
    let files = match scenario_files(&[]) {
        Ok(f) => f,
        Err(d) => return print_diagnostics(&d),
    };
    let mut games: Vec<GameReport> = Vec::new();
    let plans: Vec<Vec<Config>> = catalogs
        .iter()
        .map(|r| {
            let s = r.summary();
            (s.min_players..=s.max_players).flat_map(|p| check_configs(r, p)).collect()
        })
        .collect();
    let total: usize = plans.iter().map(Vec::len).sum();
    // games in flight finish after the deadline: aim for 90% of the half
    let share = a.budget.mul_f64(0.45 * 0.9) / total.max(1) as u32;
    let mut ok = true;
    let (t, stage) = (Instant::now(), a.budget.mul_f64(0.45));
    for (k, (rules, configs)) in catalogs.iter().zip(&plans).enumerate() {
        let until = slice(t, stage, k, catalogs.len());
        let mut g = game_header(rules);
        crate::note!(
            "report: fuzzing {} in {} configurations ({:.2}s each)",
            g.game,
            configs.len(),
            share.as_secs_f64()
        );
        fuzz_game(&mut g, rules, configs, until, timed_fuzz(a.seed, a.jobs, share, None));
        ok &= g.failures.is_empty();
        games.push(g);
    }
    let n = games.len();
    let (t, stage) = (Instant::now(), a.budget.mul_f64(0.2));
    for (k, (g, rules)) in games.iter_mut().zip(&catalogs).enumerate() {
        crate::note!("report: pairing the readings of {} ({:.1}s)", g.game, start.elapsed().as_secs_f64());
        g.readings = readings(rules, a.seed, READING_GAMES, a.jobs, slice(t, stage, k, n));
    }
    let (t, stage) = (Instant::now(), a.budget.mul_f64(0.15));
    for (k, (g, (rules, src))) in games.iter_mut().zip(catalogs.iter().zip(&sources)).enumerate() {
        crate::note!("report: the assumption sensitivity of {} ({:.1}s)", g.game, start.elapsed().as_secs_f64());
        g.sensitivity = sensitivities(src, rules, a, slice(t, stage, k, n));
    }
    let (t, stage) = (Instant::now(), a.budget.mul_f64(0.15));
    for (k, (g, rules)) in games.iter_mut().zip(&catalogs).enumerate() {
        crate::note!("report: the scenario matrix of {} ({:.1}s)", g.game, start.elapsed().as_secs_f64());
        (g.matrix, g.matrix_rows_left) = crate::matrix::matrix_until(&catalogs, rules, &files, slice(t, stage, k, n));
    }
    let report =
        Report { seed: a.seed, budget_seconds: a.budget.as_secs_f64(), seconds: start.elapsed().as_secs_f64(), games };
    write_report(&report, a, start, ok)
}

/// A game's report before any run: its summary, with every section empty.
fn game_header(rules: &AnyRules) -> GameReport {
    let s = rules.summary();
    GameReport {
        game: s.game.clone(),
        name: s.name.clone(),
        min_players: s.min_players,
        max_players: s.max_players,
        entities: s.entities.clone(),
        variants: s.variants,
        interpretations: s.interpretations,
        interpretations_live: s.interpretations_live,
        numbers_cited: s.numbers.cited,
        numbers_assumed: s.numbers.assumed,
        readings: Default::default(),
        sensitivity: Default::default(),
        matrix: crate::matrix::Matrix {
            game: s.game.clone(),
            columns: Vec::new(),
            rows: Vec::new(),
            distinguishing: BTreeMap::new(),
            undistinguished: Vec::new(),
        },
        matrix_rows_left: 0,
        configurations: Vec::new(),
        invariants: BTreeMap::new(),
        coverage: BTreeMap::new(),
        variant_games: rules.variants().iter().map(|v| (v.id.clone(), 0)).collect(),
        failures: Vec::new(),
        configurations_not_fuzzed: Vec::new(),
    }
}

/// Fuzzes each configuration of a game with `opts` until `until` (the
/// first always runs): its runs, failures, games per variant, and the
/// invariant and coverage totals merged over the runs.
fn fuzz_game(g: &mut GameReport, rules: &AnyRules, configs: &[Config], until: Option<Instant>, opts: FuzzOptions) {
    let mut merged = FuzzSummary::default();
    for (c, config) in configs.iter().enumerate() {
        if c > 0 && until.is_some_and(|d| Instant::now() >= d) {
            g.configurations_not_fuzzed.push(config.flags());
            continue;
        }
        match with_progress(&format!("fuzz {}", config.flags()), opts.games, |p| fuzz_any(rules, config, &opts, p)) {
            Ok(sum) => {
                for f in &sum.failures {
                    g.failures.push(format!("{}: seed {}: {} ({})", config.flags(), f.seed, f.broken, f.detail));
                }
                for v in &config.variants {
                    *g.variant_games.entry(v.clone()).or_default() += sum.games;
                }
                g.configurations.push(ConfigRun::from_summary(config, &sum));
                merged.add_totals(&sum);
            }
            Err(e) => g.failures.push(format!("{}: {e}", config.flags())),
        }
    }
    g.invariants = merged.invariants;
    g.coverage = merged.coverage;
}

/// Writes the page and its data into the output folder and prints their
/// paths; a folder that cannot be written is bad input.
fn write_report(report: &Report, a: &ReportArgs, start: Instant, ok: bool) -> Exit {
    let written = std::fs::create_dir_all(&a.out).and_then(|()| {
        let html_path = a.out.join("index.html");
        let json_path = a.out.join("report.json");
        std::fs::write(&html_path, html::render(report))?;
        std::fs::write(&json_path, serde_json::to_string_pretty(report).expect("reports serialise") + "\n")?;
        Ok((html_path, json_path))
    });
    match written {
        Ok((h, j)) => {
            println!("{}", h.display());
            println!("{}", j.display());
            crate::note!("report: done in {:.1}s", start.elapsed().as_secs_f64());
            if ok { Exit::Ok } else { Exit::Failed }
        }
        Err(e) => cannot_write(a, &e),
    }
}

/// A report folder that cannot be written is bad input.
fn cannot_write(a: &ReportArgs, e: &std::io::Error) -> Exit {
    eprintln!("cannot write the report into {}: {e}", a.out.display());
    Exit::BadInput
}

/// A short `rulecheck sensitivity` run of one game (every group, the games
/// `SENSITIVITY_GAMES` per change, at the readings' player count), ranked.
fn sensitivities(src: &GameSources, rules: &AnyRules, a: &ReportArgs, deadline: Option<Instant>) -> Sensitivities {
    let config = crate::engine::Config::new(rules.id(), pairing_players(rules), a.seed);
    let mut out = Sensitivities { config: config.flags(), games: SENSITIVITY_GAMES, ..Sensitivities::default() };
    let opts = SensitivityOptions {
        config,
        games: SENSITIVITY_GAMES,
        seed: a.seed,
        jobs: a.jobs,
        each: false,
        only: Vec::new(),
        deadline,
    };
    let (progress, started) = (Default::default(), Default::default());
    let run = match sensitivity(src, rules, &opts, &progress, &started) {
        Ok(run) => run,
        Err(e) => {
            out.error = Some(e);
            return out;
        }
    };
    for r in rank(&run) {
        match (r.by, r.effect) {
            (Some(by), Some(e)) => out.rows.push(SensitivityRow {
                group: r.group,
                at: r.at,
                sites: r.sites,
                change: by.name().to_string(),
                changed: e.changed,
                seat: e.seat,
                win_shift: e.win_shift,
                turns: e.turns,
            }),
            _ if r.trials.iter().any(|t| t.status == "not-measured") => out.not_measured.push(r.group),
            _ => {}
        }
    }
    out
}
