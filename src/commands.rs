//! What each `rulecheck` command does, over every loaded game: the only
//! place that dispatches on `AnyRules` to typed games (one line per game in
//! `with_game!`), so `check`, `bench` and `fuzz` cover a new game without
//! changes. Printing happens here; `main.rs` only parses arguments.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicU64;
use std::time::{Duration, Instant};

use crate::catalog::diag::Diagnostic;
use crate::catalog::{self, GameSources};
use crate::check::fuzz::{FuzzError, FuzzOptions, FuzzSummary, fuzz};
use crate::check::suite::Checks;
use crate::engine::{Check, Config};
use crate::games::{self, AnyRules, with_game};
use crate::scenario;

mod bench;
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
pub use bench::{BenchRow, bench, peak_memory_kib};
pub use explore::{ExploreArgs, ExploreView, explore_command};
pub use find::{FindArgs, FindView, find_command};
pub use progress::{progress_bar, progress_message, shows_progress, with_progress};
pub use readings::{DiffArgs, diff_command, explain_command};
pub use scenarios::{run_scenarios, run_scenarios_until, scenario_files};
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
    let files = match scenario_files(paths) {
        Ok(f) => f,
        Err(diags) => return print_diagnostics(&diags),
    };
    let (results, diags) = run_scenarios(&catalogs, &files, fault);
    let (mut passed, mut failed) = (0, 0);
    for r in &results {
        for c in &r.runs {
            if c.passed { passed += 1 } else { failed += 1 }
        }
    }
    if json {
        println!("{}", serde_json::to_string_pretty(&results).expect("results serialise"));
    } else {
        for r in &results {
            for c in &r.runs {
                println!("{} {} [{}] {}", if c.passed { "PASS" } else { "FAIL" }, r.file, c.name, r.title);
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
        println!("run: {} scenario file(s), {passed} configuration(s) passed, {failed} failed", results.len());
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

pub fn fuzz_command(a: &FuzzArgs) -> Exit {
    let catalogs = match load_all(a.rules.as_deref()) {
        Ok(c) => c,
        Err(d) => return print_diagnostics(&d),
    };
    let Some(rules) = catalogs.iter().find(|c| c.id() == a.game) else {
        eprintln!(
            "unknown game `{}`; loaded: {}",
            a.game,
            catalogs.iter().map(AnyRules::id).collect::<Vec<_>>().join(", ")
        );
        return Exit::BadInput;
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
            println!(
                "counterexample saved as {} (rulecheck run {} fails until the rule is fixed)",
                p.display(),
                p.display()
            );
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
        "  games {}, actions {}, {:.0} actions/s ({} jobs), mean {:.1} turns and {:.1} actions per game",
        s.games,
        s.actions,
        s.actions_per_second(),
        opts.jobs,
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
        let extra = run_flags(opts.checks, opts.fault.as_deref(), rules);
        println!("  reproduce: {}", reproduce_command(&s.config, f.seed, &extra));
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
                jobs: 0,
                checks,
                fault: total.fault.clone(),
                time_limit: None,
                max_actions: 0,
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

// ----------------------------------------------------------------- check

/// A pairwise covering set of interpretation options (and the variants
/// they need), built greedily and deterministically: every pair of options
/// of two different interpretations appears in at least one configuration.
pub fn pairwise(rules: &AnyRules) -> Vec<BTreeMap<String, String>> {
    let live: Vec<_> = rules.interpretations().iter().filter(|i| i.inert.is_none()).collect();
    let defaults: Vec<usize> =
        live.iter().map(|i| i.options.iter().position(|o| o.id == i.default).unwrap_or(0)).collect();
    // a non-default option needs its interpretation's variant; two options
    // clash when the variants they need are declared incompatible
    let needs = |k: usize, o: usize| if o == defaults[k] { None } else { live[k].variant.as_deref() };
    let clash = |x: usize, ox: usize, y: usize, oy: usize| match (needs(x, ox), needs(y, oy)) {
        (Some(v), Some(w)) => rules.variants().iter().any(|d| {
            (d.id == v && d.incompatible.iter().any(|i| i == w)) || (d.id == w && d.incompatible.iter().any(|i| i == v))
        }),
        _ => false,
    };
    let mut uncovered = std::collections::BTreeSet::new();
    for (a, ia) in live.iter().enumerate() {
        for (b, ib) in live.iter().enumerate().skip(a + 1) {
            for oa in 0..ia.options.len() {
                for ob in 0..ib.options.len() {
                    if !clash(a, oa, b, ob) {
                        uncovered.insert((a, oa, b, ob));
                    }
                }
            }
        }
    }
    let mut out = Vec::new();
    while let Some(&(a, oa, b, ob)) = uncovered.iter().next() {
        let mut pick: Vec<usize> = defaults.clone();
        pick[a] = oa;
        pick[b] = ob;
        // fill the rest greedily: for each interpretation, the option covering most pairs
        for k in 0..live.len() {
            if k == a || k == b {
                continue;
            }
            let score = |o: usize| {
                (0..live.len())
                    .filter(|&j| j != k)
                    .filter(|&j| {
                        let (x, ox, y, oy) = if k < j { (k, o, j, pick[j]) } else { (j, pick[j], k, o) };
                        uncovered.contains(&(x, ox, y, oy))
                    })
                    .count()
            };
            // only options that can be played beside every pick so far (the default always can)
            let fits = |o: usize| (0..live.len()).all(|j| j == k || !clash(k, o, j, pick[j]));
            let best = (0..live[k].options.len())
                .filter(|&o| fits(o))
                .max_by_key(|&o| (score(o), usize::from(o == pick[k])))
                .unwrap_or(defaults[k]);
            pick[k] = best;
        }
        for x in 0..live.len() {
            for y in x + 1..live.len() {
                uncovered.remove(&(x, pick[x], y, pick[y]));
            }
        }
        out.push(
            live.iter()
                .zip(&pick)
                .filter(|(i, o)| i.options[**o].id != i.default)
                .map(|(i, o)| (i.id.clone(), i.options[*o].id.clone()))
                .collect(),
        );
    }
    out
}

/// The configurations `check` fuzzes for one game: the default, each
/// variant alone, and the pairwise set (with the variants its readings need),
/// each once: a pairwise row of default options only is the default
/// configuration, and a row may equal a variant alone or another row.
pub fn check_configs(rules: &AnyRules, players: u32) -> Vec<Config> {
    let mut seen = std::collections::BTreeSet::new();
    candidate_configs(rules, players).into_iter().filter(|c| seen.insert(c.flags())).collect()
}

fn candidate_configs(rules: &AnyRules, players: u32) -> Vec<Config> {
    let base = Config::new(rules.id(), players, 0);
    let mut out = vec![base.clone()];
    for v in rules.variants() {
        out.push(base.clone().with_variant(&v.id));
    }
    for readings in pairwise(rules) {
        let mut c = base.clone();
        for (k, v) in readings {
            if let Some(var) = rules.interpretations().iter().find(|i| i.id == k).and_then(|i| i.variant.clone()) {
                c.variants.insert(var);
            }
            c.interpretations.insert(k, v);
        }
        out.push(c);
    }
    out
}

pub struct CheckArgs {
    pub rules: Option<PathBuf>,
    pub scenarios: Option<PathBuf>,
    pub budget: Duration,
    pub jobs: usize,
    pub seed: u64,
    pub shard: Option<(u64, u64)>,
    pub json: bool,
}

pub fn check(a: &CheckArgs) -> Exit {
    let start = Instant::now();
    let mut stages = BTreeMap::new();
    crate::note!("check: validating catalogs");
    let catalogs = match load_all(a.rules.as_deref()) {
        Ok(c) => std::sync::Arc::new(c),
        Err(d) => return print_diagnostics(&d),
    };
    stages.insert("1 validate".to_string(), start.elapsed().as_secs_f64());
    let t = Instant::now();
    crate::note!("check: running scenarios");
    let paths: Vec<PathBuf> = a.scenarios.iter().cloned().collect();
    let files = match scenario_files(&paths) {
        Ok(f) => f,
        Err(d) => return print_diagnostics(&d),
    };
    let scenario_files_total = files.len();
    // the budget bounds the scenarios too: a slow scenario is left unfinished
    let (results, diags, unfinished) = run_scenarios_until(catalogs.clone(), files, start.checked_add(a.budget));
    if !diags.is_empty() {
        return print_diagnostics(&diags);
    }
    stages.insert("2 scenarios".to_string(), t.elapsed().as_secs_f64());
    let t = Instant::now();
    let mut report = CheckReport {
        games: Vec::new(),
        stages: BTreeMap::new(),
        passed: unfinished == 0,
        scenarios_not_run: (unfinished > 0).then(|| {
            format!(
                "the budget of {:.1}s ran out in the scenario stage with {unfinished} of {scenario_files_total} scenario file(s) not run; raise --budget",
                a.budget.as_secs_f64()
            )
        }),
    };
    // a tenth of what is left is kept for the readings stage
    let fuzz_budget = a.budget.saturating_sub(start.elapsed()).mul_f64(0.9);
    let plans: Vec<(usize, Vec<Config>)> = catalogs
        .iter()
        .enumerate()
        .map(|(g, r)| {
            let s = r.summary();
            let mut configs = Vec::new();
            for players in s.min_players..=s.max_players {
                configs.extend(check_configs(r, players));
            }
            (g, configs)
        })
        .collect();
    let total_configs: usize = plans.iter().map(|(_, c)| c.len()).sum();
    // games in flight finish after the deadline: aim for 90% of what is left
    let share = fuzz_budget.mul_f64(0.9) / total_configs.max(1) as u32;
    for (g, configs) in &plans {
        let rules = &catalogs[*g];
        let s = rules.summary();
        let mut gc = GameCheck {
            game: s.game.clone(),
            entities: s.entities.values().sum(),
            interpretations: s.interpretations,
            assumed_numbers: s.numbers.assumed,
            scenarios_passed: 0,
            scenarios_total: 0,
            configurations: configs.len(),
            games: 0,
            actions_checked: 0,
            invariants: 0,
            invariants_held: true,
            dead_interpretations: Vec::new(),
            unchanged_interpretations: Vec::new(),
            readings_not_paired: 0,
            failures: Vec::new(),
        };
        for r in results.iter().filter(|r| r.game == s.game) {
            for c in &r.runs {
                crate::detail!("check:   scenario {} [{}]: {}", r.file, c.name, if c.passed { "pass" } else { "FAIL" });
                gc.scenarios_total += 1;
                if c.passed {
                    gc.scenarios_passed += 1;
                } else {
                    gc.failures.push(format!(
                        "scenario {} [{}]: {} (rerun: {})",
                        r.file,
                        c.name,
                        c.failures.join("; "),
                        rerun_command(&r.file, None, a.rules.as_deref())
                    ));
                }
            }
        }
        let mut merged = FuzzSummary::default();
        crate::note!(
            "check: fuzzing {} in {} configurations ({:.1}s each)",
            s.game,
            configs.len(),
            share.as_secs_f64()
        );
        for config in configs {
            let opts = FuzzOptions {
                games: 1_000_000,
                seed: a.seed,
                jobs: a.jobs,
                checks: Checks::INVARIANTS,
                fault: None,
                time_limit: Some(share),
                max_actions: 200_000,
                shard: a.shard,
            };
            match with_progress(&format!("fuzz {}", config.flags()), opts.games, |p| fuzz_any(rules, config, &opts, p))
            {
                Ok(sum) => {
                    crate::detail!(
                        "check:   {}: {} games, {} actions, {} failure(s)",
                        config.flags(),
                        sum.games,
                        sum.actions,
                        sum.failures.len()
                    );
                    if sum.games == 0 {
                        gc.failures.push(format!("{}: no game was played, so nothing was checked", config.flags()));
                    }
                    for f in &sum.failures {
                        gc.failures.push(format!(
                            "{}: {} — reproduce: {}",
                            config.flags(),
                            f.detail,
                            reproduce_command(
                                &config.flags(),
                                f.seed,
                                &run_flags(opts.checks, None, a.rules.as_deref())
                            )
                        ));
                    }
                    merged.add_totals(&sum);
                }
                Err(e) => gc.failures.push(format!("{}: {e}", config.flags())),
            }
        }
        gc.games = merged.games;
        gc.actions_checked = merged.actions;
        gc.invariants = merged.invariants.len();
        gc.invariants_held = merged.failures.is_empty();
        gc.dead_interpretations = rules
            .interpretations()
            .iter()
            .filter(|i| i.inert.is_none() && merged.consulted.get(&i.id).copied().unwrap_or(0) == 0)
            .map(|i| i.id.clone())
            .collect();
        if !gc.failures.is_empty() {
            report.passed = false;
        }
        report.games.push(gc);
    }
    stages.insert("3 fuzz".to_string(), t.elapsed().as_secs_f64());
    let t = Instant::now();
    crate::note!("check: pairing games under each reading's options");
    check_report::readings_stage(&mut report.games, &catalogs, a.jobs, a.budget.saturating_sub(start.elapsed()));
    stages.insert("4 readings".to_string(), t.elapsed().as_secs_f64());
    report.stages = stages;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&report).expect("reports serialise"));
    } else {
        check_report::print_check(&report);
    }
    if report.passed { Exit::Ok } else { Exit::Failed }
}

// ---------------------------------------------------------------- matrix
pub fn matrix(game: &str, rules_dir: Option<&Path>, paths: &[PathBuf], json: bool) -> Exit {
    let catalogs = match load_all(rules_dir) {
        Ok(c) => c,
        Err(d) => return print_diagnostics(&d),
    };
    let Some(rules) = catalogs.iter().find(|c| c.id() == game) else {
        eprintln!("unknown game `{game}`");
        return Exit::BadInput;
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
