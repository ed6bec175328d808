//! What each `rulecheck` command does, over every loaded game: the only
//! place that dispatches on `AnyRules` to typed games (one line per game in
//! `with_game!`), so `check`, `bench` and `fuzz` cover a new game without
//! changes. Printing happens here; `main.rs` only parses arguments.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicU64;

use crate::catalog::diag::Diagnostic;
use crate::catalog::{self, GameSources};
use crate::check::fuzz::{FuzzError, FuzzOptions, FuzzSummary, fuzz};
use crate::check::suite::Checks;
use crate::engine::{Check, Config};
use crate::games::{self, AnyRules, with_game};
use crate::scenario;

mod bench;
mod bench_against;
mod check;
mod check_report;
pub use check_report::{CheckReport, GameCheck};
mod explore;
mod find;
pub mod progress;
mod readings;
pub mod report;
mod scenarios;
mod sensitivity;
mod shard;
pub use bench::{BenchArgs, BenchRow, bench, peak_memory_kib};
pub use check::{CheckArgs, check, check_configs, pairwise};
pub use explore::{ExploreArgs, ExploreView, explore_command};
pub use find::{FindArgs, FindView, find_command};
pub use progress::{progress_bar, progress_message, shows_progress, with_progress};
pub use readings::{DiffArgs, diff_command, explain_command};
pub use scenarios::{
    bundled_game, bundled_under_user_rules, run_scenarios, run_scenarios_until, scenario_files, scenarios_for,
};
pub use sensitivity::{SensitivityArgs, SensitivityReport, rank, render, sensitivity_command};
pub use shard::{JOB_INDEX_ENV, SHARD_ENV, SHARDS_ENV, env_var, parse_shard, resolve_shard};

/// How a command ended: exit codes 0, 1 and 2.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// Everything held.
    Ok = 0,
    /// A check failed.
    Failed = 1,
    /// Bad input or usage.
    BadInput = 2,
}

pub fn print_diagnostics(diags: &[Diagnostic]) -> Exit {
    for d in diags {
        eprintln!("{d}\n");
    }
    eprintln!("{} error(s) in the input", diags.len());
    Exit::BadInput
}

pub fn read_sources(dir: Option<&Path>) -> Result<Vec<GameSources>, Vec<Diagnostic>> {
    match dir {
        Some(d) => catalog::read_root(d),
        None => crate::bundled::rules(),
    }
}

/// Loads and validates every catalog, reporting all diagnostics at once. A
/// `*.yaml` file the game does not read is an error (a misspelt or stray
/// file would otherwise be ignored), and so is a `game.id` that is not the
/// folder's name (it would rename the game).
pub fn load_all(dir: Option<&Path>) -> Result<Vec<AnyRules>, Vec<Diagnostic>> {
    let sources = read_sources(dir)?;
    let mut out = Vec::new();
    let mut diags = Vec::new();
    for g in &sources {
        // an overlay's folder is named freely and its files are checked
        // by the game's layering (see `catalog::overlay`)
        let overlay = g.files.contains_key(crate::catalog::overlay::HEADER);
        if let Some(known) = games::catalog_files(&g.name).filter(|_| !overlay) {
            for (name, f) in &g.files {
                if !known.contains(&name.as_str()) {
                    diags.push(Diagnostic::new(
                        &f.path,
                        1,
                        1,
                        format!(
                            "`{name}` is not a file of a {} catalog (its files: {}); rename or remove it",
                            g.name,
                            known.join(", ")
                        ),
                    ));
                }
            }
        }
        match games::load(g) {
            Ok(r) if r.id() != g.name && !overlay => diags.push(game_id_mismatch(g, r.id())),
            Ok(r) => out.push(r),
            Err(mut d) => diags.append(&mut d),
        }
    }
    diags.extend(out.iter().flat_map(|r| crate::interp::witness::check(r, &sources)));
    if diags.is_empty() { Ok(out) } else { Err(diags) }
}

/// A `game.id` that differs from the folder name, at `game.yaml`'s `id:` line.
fn game_id_mismatch(g: &GameSources, id: &str) -> Diagnostic {
    let file = g.files.get("game.yaml");
    let path = file.map(|f| f.path.clone()).unwrap_or_else(|| g.dir.clone());
    let text = file.map(|f| f.text.as_str()).unwrap_or("");
    let (line, column) = text
        .lines()
        .enumerate()
        .find_map(|(i, l)| {
            let rest = l.trim_start().strip_prefix("id:")?;
            let value = rest.trim_start();
            value.starts_with(id).then(|| (i as u64 + 1, (l.len() - value.len()) as u64 + 1))
        })
        .unwrap_or((1, 1));
    Diagnostic::new(
        &path,
        line,
        column,
        format!("game id `{id}` differs from its folder `{}`; the folder name is the game id", g.name),
    )
    .with_snippet_from(text)
}

// ---------------------------------------------------------------- validate

pub fn validate(dir: Option<&Path>, json: bool) -> Exit {
    match load_all(dir) {
        Err(diags) => print_diagnostics(&diags),
        Ok(all) => {
            let summaries: Vec<_> = all.iter().map(AnyRules::summary).collect();
            if json {
                println!("{}", serde_json::to_string_pretty(&summaries).expect("summaries serialise"));
            } else {
                for s in &summaries {
                    let entities: Vec<String> = s.entities.iter().map(|(k, v)| format!("{v} {k}")).collect();
                    println!("{} ({}): {}", s.game, s.name, entities.join(", "));
                    println!(
                        "  {} variants, {} interpretations ({} the engine branches on, {} inert)",
                        s.variants,
                        s.interpretations,
                        s.interpretations_live,
                        s.interpretations - s.interpretations_live
                    );
                    println!("  numbers: {} cited, {} assumed", s.numbers.cited, s.numbers.assumed);
                }
                println!("validate: {} catalog(s), no errors", summaries.len());
            }
            Exit::Ok
        }
    }
}

// ------------------------------------------------------------------- run

/// The faults a loaded game can plant (`--fault`).
pub fn faults_of(rules: &AnyRules) -> &'static [&'static str] {
    with_game!(rules, |_r, G| G::faults())
}

pub fn run(paths: &[PathBuf], rules: Option<&Path>, transcript: bool, json: bool, fault: Option<&str>) -> Exit {
    let catalogs = match load_all(rules) {
        Ok(c) => c,
        Err(diags) => return print_diagnostics(&diags),
    };
    // once for the run, not once per scenario
    if let Some(f) = fault
        && !catalogs.iter().any(|c| faults_of(c).contains(&f))
    {
        let known: Vec<&str> = catalogs.iter().flat_map(faults_of).copied().collect();
        eprintln!("error: unknown fault `{f}`; the faults: {}", known.join(", "));
        return Exit::BadInput;
    }
    let files = match scenarios_for(paths, &catalogs) {
        Ok(f) => f,
        Err(diags) => return print_diagnostics(&diags),
    };
    let (results, diags) = run_scenarios(&catalogs, &files, fault);
    // the bundled scenarios under a user's catalogs show what those rules change
    let parting = bundled_under_user_rules(rules, paths);
    let (mut passed, mut failed) = (0, 0);
    for r in &results {
        for c in &r.runs {
            if c.passed { passed += 1 } else { failed += 1 }
        }
    }
    if json {
        // a scenario the user's rules make unplayable is one of the runs
        // that part, with where it stops; named ones stay bad input
        let unplayable = diags.iter().filter(|_| parting);
        let mut all = results;
        all.extend(unplayable.map(|d| scenario::ScenarioRun::unplayable(d, bundled_game(&d.file))));
        println!("{}", serde_json::to_string_pretty(&all).expect("results serialise"));
    } else {
        let fail = if parting { "PARTS" } else { "FAIL" };
        for r in &results {
            for c in &r.runs {
                println!("{} {} [{}] {}", if c.passed { "PASS" } else { fail }, r.file, c.name, r.title);
                if !c.passed {
                    for f in &c.failures {
                        println!("    {f}");
                    }
                    println!("    rerun: {}", rerun_command(&r.file, fault, rules));
                }
                if transcript {
                    println!("{}", c.transcript);
                }
            }
        }
        if parting {
            for d in &diags {
                println!("PARTS {}", d.located());
            }
            let parted = failed + diags.len();
            println!(
                "run: {} scenario file(s), {passed} configuration(s) passed; {parted} part from the bundled rules they pin (under these rules; --scenarios names your own)",
                results.len() + diags.len()
            );
        } else {
            println!("run: {} scenario file(s), {passed} configuration(s) passed, {failed} failed", results.len());
        }
    }
    if parting {
        return Exit::Ok;
    }
    if !diags.is_empty() {
        return print_diagnostics(&diags);
    }
    if failed > 0 { Exit::Failed } else { Exit::Ok }
}

// ------------------------------------------------------------------ fuzz

/// The configuration a command line names.
pub fn config_for(
    game: &str,
    players: u32,
    variants: &[String],
    interpretations: &[String],
    turn_cap: Option<u32>,
) -> Result<Config, String> {
    let mut c = Config::new(game, players, 0);
    for v in variants {
        c.variants.insert(v.clone());
    }
    for i in interpretations {
        let (k, v) = i.split_once('=').ok_or_else(|| format!("--interpretation takes ID=OPTION, not `{i}`"))?;
        c.interpretations.insert(k.to_string(), v.to_string());
    }
    c.turn_cap = turn_cap;
    Ok(c)
}

/// Fuzzes one configuration of one loaded game.
pub fn fuzz_any(
    rules: &AnyRules,
    config: &Config,
    opts: &FuzzOptions,
    progress: &AtomicU64,
) -> Result<FuzzSummary, FuzzError> {
    with_game!(rules, |r, G| fuzz::<G>(r, config, opts, progress))
}

/// A counterexample as a scenario file that fails `run` for the reason
/// the fuzz run failed: `run` checks every invariant and the per-step
/// contract (legal list, actors, hiding, malformed actions, clone, replay,
/// round trip) after every `do` step, and a stall (no legal action before
/// the end) meets a last random step. `run` bounds no game, so a
/// termination failure is `Err`, not a file that would pass.
pub fn counterexample(
    rules: &AnyRules,
    config: &Config,
    f: &crate::check::fuzz::FailureReport,
) -> Result<String, String> {
    with_game!(rules, |r, G| {
        let stalls = f.broken == "legal-nonempty";
        if f.broken == "termination" {
            return Err(format!(
                "the contract check `{}` is not checked by `rulecheck run`, so a scenario of it would pass; reproduce it with the fuzz command instead",
                f.broken
            ));
        }
        let run = crate::check::fuzz::replay::<G>(r, config, Checks::NONE, None, &f.choices);
        let title = format!("Counterexample: {}", f.broken);
        let why =
            format!("Found by `rulecheck fuzz` ({}), shrunk to {} actions: {}", config, run.actions.len(), f.detail);
        let text = scenario::record::<G>(r, config, &run.actions, &title, &why, false)?;
        Ok(if stalls { with_last_random_step(&text) } else { text })
    })
}

/// A recorded scenario (`steps` its last key, as `record` writes one
/// without expectations) with one more step, a random action, which fails
/// when the engine lists none.
fn with_last_random_step(text: &str) -> String {
    const STEP: &str = "play_randomly: {seed: 0, actions: 1}";
    if text.contains("\nsteps: []") {
        return text.replacen("\nsteps: []", &format!("\nsteps:\n- {STEP}"), 1);
    }
    // the items of `steps:` as the writer indents them
    let rest = text.split_once("\nsteps:\n").map_or("", |(_, r)| r);
    let indent = rest.len() - rest.trim_start_matches(' ').len();
    format!("{}\n{}- {STEP}\n", text.trim_end_matches('\n'), " ".repeat(indent))
}

pub struct FuzzArgs {
    pub game: String,
    pub config: Config,
    pub opts: FuzzOptions,
    pub save: Option<PathBuf>,
    pub json: bool,
    pub rules: Option<PathBuf>,
}

/// Refuses readings a command line chose that cannot change play: of an
/// interpretation marked inert, or of one that applies only under a
/// variant the configuration does not enable.
pub fn readings_take_effect(rules: &AnyRules, config: &Config) -> Result<(), String> {
    for (id, option) in &config.interpretations {
        let Some(i) = rules.interpretations().iter().find(|i| &i.id == id) else { continue };
        if let Some(why) = &i.inert {
            return Err(format!(
                "--interpretation {id}={option} cannot take effect: `{id}` is inert (the engine does not branch on it: {why})"
            ));
        }
        if let Some(v) = &i.variant
            && !config.variants.contains(v)
        {
            return Err(format!(
                "--interpretation {id}={option} cannot take effect without its variant; add --variant {v}"
            ));
        }
    }
    Ok(())
}

/// The catalog of `game`, or (said on stderr, with the games loaded) exit 2.
pub(crate) fn find_game<'a>(catalogs: &'a [AnyRules], game: &str) -> Result<&'a AnyRules, Exit> {
    catalogs.iter().find(|c| c.id() == game).ok_or_else(|| {
        eprintln!(
            "unknown game `{game}`; loaded: {}",
            catalogs.iter().map(AnyRules::id).collect::<Vec<_>>().join(", ")
        );
        Exit::BadInput
    })
}

pub fn fuzz_command(a: &FuzzArgs) -> Exit {
    let catalogs = match load_all(a.rules.as_deref()) {
        Ok(c) => c,
        Err(d) => return print_diagnostics(&d),
    };
    let rules = match find_game(&catalogs, &a.game) {
        Ok(r) => r,
        Err(exit) => return exit,
    };
    if let Err(e) = readings_take_effect(rules, &a.config) {
        eprintln!("error: {e}");
        return Exit::BadInput;
    }
    let mut summary = match with_progress("fuzz", a.opts.games, |p| fuzz_any(rules, &a.config, &a.opts, p)) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return Exit::BadInput;
        }
    };
    summary.rules = a.rules.as_ref().map(|r| r.display().to_string());
    let mut saved = Vec::new();
    // a write error is reported after the report, which is never lost to it
    let mut save_error = None;
    if let (Some(dir), Some(f)) = (&a.save, summary.failures.first()) {
        let config = Config { seed: f.seed, ..a.config.clone() };
        match counterexample(rules, &config, f) {
            Ok(text) => {
                let name = format!("{}-{}-seed-{}.yaml", a.game, f.broken, f.seed);
                match crate::schema::write_scenario(dir, &name, &a.game, &text) {
                    Ok(path) => saved.push(path),
                    Err(e) => save_error = Some(format!("error: {e}")),
                }
            }
            Err(e) => eprintln!("could not record the counterexample: {e}"),
        }
    }
    if a.json {
        println!("{}", serde_json::to_string_pretty(&summary).expect("summaries serialise"));
    } else {
        print_fuzz(&summary, &a.opts, a.rules.as_deref());
        for p in &saved {
            let rerun = rerun_command(&p.display().to_string(), a.opts.fault.as_deref(), a.rules.as_deref());
            println!("counterexample saved as {} ({rerun} fails until the rule is fixed)", p.display());
        }
    }
    if let Some(e) = save_error {
        eprintln!("{e}");
        return Exit::BadInput;
    }
    if summary.games == 0 {
        eprintln!("fuzz: no game was played, so nothing was checked");
        return Exit::Failed;
    }
    if summary.failures.is_empty() { Exit::Ok } else { Exit::Failed }
}

/// A word as a shell reads it back: quoted when it holds anything but
/// plain characters (a path with a space).
pub fn shell_word(w: &str) -> String {
    if !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || "/._-+=:,@%".contains(c)) {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', "'\\''"))
    }
}

/// The flags beyond the configuration that shaped a run (each with a
/// leading space): the checks, the planted fault, the catalog folder.
pub fn run_flags(checks: Checks, fault: Option<&str>, rules: Option<&Path>) -> String {
    let mut s = String::new();
    if checks.contract {
        s.push_str(" --contract");
    }
    if !checks.invariants {
        s.push_str(" --no-invariants");
    }
    if let Some(f) = fault {
        s.push_str(&format!(" --fault {}", shell_word(f)));
    }
    if let Some(r) = rules {
        s.push_str(&format!(" --rules {}", shell_word(&r.display().to_string())));
    }
    s
}

/// The flags a fuzz run's reproducing command keeps: `run_flags`, and
/// `--max-actions` where the run set another bound than the default.
pub fn fuzz_flags(opts: &FuzzOptions, rules: Option<&Path>) -> String {
    let mut extra = run_flags(opts.checks, opts.fault.as_deref(), rules);
    if opts.max_actions != crate::check::fuzz::MAX_ACTIONS {
        extra.push_str(&format!(" --max-actions {}", opts.max_actions));
    }
    extra
}

/// The command that replays one game of a fuzz run: the configuration's
/// flags, the game's seed, and `extra` (from `run_flags`).
pub fn reproduce_command(flags: &str, seed: u64, extra: &str) -> String {
    format!("rulecheck fuzz {flags} --seed {seed} --games 1{extra}")
}

/// The command that reruns one scenario file as it was run.
pub fn rerun_command(file: &str, fault: Option<&str>, rules: Option<&Path>) -> String {
    format!("rulecheck run {}{}", shell_word(file), run_flags(Checks::INVARIANTS, fault, rules))
}

pub fn print_fuzz(s: &FuzzSummary, opts: &FuzzOptions, rules: Option<&Path>) {
    println!("fuzz {} {}", s.game, s.config);
    println!(
        "  games {}, actions {}, {:.0} actions/s{}, mean {:.1} turns and {:.1} actions per game",
        s.games,
        s.actions,
        s.actions_per_second(),
        // merged shards ran on machines of their own: no one number of jobs
        if opts.jobs > 0 { format!(" ({} jobs)", opts.jobs) } else { String::new() },
        s.turns as f64 / s.games.max(1) as f64,
        s.actions as f64 / s.games.max(1) as f64
    );
    let outcomes: Vec<String> = s.outcomes.iter().map(|(k, v)| format!("{k} {v}")).collect();
    println!("  outcomes: {}", outcomes.join(", "));
    if s.invariants.is_empty() {
        println!("  invariants: not checked");
    } else {
        let inv: Vec<String> = s.invariants.iter().map(|(k, v)| format!("{k} ×{v}")).collect();
        println!("  invariants checked: {}", inv.join(", "));
    }
    let never: Vec<&str> = s.coverage.iter().filter(|(_, v)| **v == 0).map(|(k, _)| k.as_str()).collect();
    let cov: Vec<String> = s.coverage.iter().filter(|(_, v)| **v > 0).map(|(k, v)| format!("{k} {v}")).collect();
    println!("  took effect: {}", cov.join(", "));
    println!("  never took effect: {}", if never.is_empty() { "none".to_string() } else { never.join(", ") });
    for f in &s.failures {
        println!("FAILURE in the game with seed {}: {}", f.seed, f.detail);
        println!("  shrunk from {} to {} actions:", f.actions_before_shrinking, f.actions.len());
        for (i, a) in f.actions.iter().enumerate() {
            println!("    {:>3}. {a}", i + 1);
        }
        println!("  reproduce: {}", reproduce_command(&s.config, f.seed, &fuzz_flags(opts, rules)));
        if f.broken == "termination" {
            println!(
                "  (a house rule whose games are this long by design plays to its end with a larger --max-actions)"
            );
        }
    }
}

// ----------------------------------------------------------------- merge

pub fn merge(files: &[PathBuf], json: bool) -> Exit {
    let mut total: Option<FuzzSummary> = None;
    let mut seen = BTreeMap::new();
    for f in files {
        let shown = f.display().to_string();
        if let Ok(c) = std::fs::canonicalize(f)
            && let Some(first) = seen.insert(c, shown.clone())
        {
            eprintln!("error: {shown}: the same file as {first}; merge takes each shard once, given twice");
            return Exit::BadInput;
        }
        let text = match catalog::read_file(f) {
            Ok(t) => t.text,
            Err(d) => {
                eprintln!("{d}");
                return Exit::BadInput;
            }
        };
        let s = match serde_json::from_str::<FuzzSummary>(&text) {
            Ok(s) => s,
            Err(e) => {
                eprintln!(
                    "{shown}:{}:{}: error: not the JSON summary of a `rulecheck fuzz --format json` run: {e}",
                    e.line(),
                    e.column()
                );
                return Exit::BadInput;
            }
        };
        match &mut total {
            None => total = Some(s),
            Some(t) => {
                if let Err(e) = t.merge_part(&s) {
                    eprintln!("error: cannot merge {shown} with the files before it: {e}");
                    return Exit::BadInput;
                }
            }
        }
    }
    let Some(total) = total else {
        eprintln!("error: merge takes the JSON summaries of a sharded run, FILE…, and got none");
        return Exit::BadInput;
    };
    if json {
        println!("{}", serde_json::to_string_pretty(&total).expect("summaries serialise"));
    } else {
        let checks = Checks { invariants: !total.no_invariants, contract: total.contract, yaml_every: 0 };
        print_fuzz(
            &total,
            &FuzzOptions {
                games: total.games,
                seed: total.seed,
                jobs: 0, // not known: each shard had its own
                checks,
                fault: total.fault.clone(),
                time_limit: None,
                max_actions: total.max_actions,
                shard: None,
            },
            total.rules.as_deref().map(Path::new),
        );
        if let Some(sh) = &total.shard {
            let parts: Vec<String> = sh.parts.iter().map(|k| format!("{k}/{}", sh.of)).collect();
            println!("  shards merged: {} (not yet the whole run)", parts.join(", "));
        }
    }
    if total.failures.is_empty() { Exit::Ok } else { Exit::Failed }
}

// ---------------------------------------------------------------- matrix
pub fn matrix(game: &str, rules_dir: Option<&Path>, paths: &[PathBuf], json: bool) -> Exit {
    let catalogs = match load_all(rules_dir) {
        Ok(c) => c,
        Err(d) => return print_diagnostics(&d),
    };
    let rules = match find_game(&catalogs, game) {
        Ok(r) => r,
        Err(exit) => return exit,
    };
    let files = match scenario_files(paths) {
        Ok(f) => f,
        Err(d) => return print_diagnostics(&d),
    };
    let m = crate::matrix::matrix(&catalogs, rules, &files);
    if json {
        println!("{}", serde_json::to_string_pretty(&m).expect("matrices serialise"));
    } else {
        print!("{}", crate::matrix::render(&m));
    }
    Exit::Ok
}
