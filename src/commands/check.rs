//! `check`: every catalog validated, every scenario run, each game fuzzed
//! in its default, each variant alone and a pairwise covering set of its
//! readings, then the readings stage (`check_report`) pairs games under each
//! option. The budget is shared across the stages.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::check_report::{self, CheckReport, GameCheck};
use super::{
    Exit, bundled_game, bundled_under_user_rules, fuzz_any, fuzz_flags, load_all, print_diagnostics, reproduce_command,
    rerun_command, run_scenarios_until, scenarios_for, with_progress,
};
use crate::check::fuzz::{FuzzOptions, FuzzSummary};
use crate::check::suite::Checks;
use crate::engine::Config;
use crate::games::AnyRules;
use crate::scenario::ScenarioRun;

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
    /// The most actions one game may take (`fuzz --max-actions`).
    pub max_actions: usize,
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
    let files = match scenarios_for(&paths, &catalogs) {
        Ok(f) => f,
        Err(d) => return print_diagnostics(&d),
    };
    let scenario_files_total = files.len();
    // the budget bounds the scenarios too: a slow scenario is left unfinished
    let (results, diags, unfinished) = run_scenarios_until(catalogs.clone(), files, start.checked_add(a.budget));
    let parting = bundled_under_user_rules(a.rules.as_deref(), &paths);
    if !diags.is_empty() && !parting {
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
            let configs = (s.min_players..=s.max_players).flat_map(|players| check_configs(r, players)).collect();
            (g, configs)
        })
        .collect();
    let total_configs: usize = plans.iter().map(|(_, c)| c.len()).sum();
    // games in flight finish after the deadline: aim for 90% of what is left
    let share = fuzz_budget.mul_f64(0.9) / total_configs.max(1) as u32;
    for (g, configs) in &plans {
        let rules = &catalogs[*g];
        let mut gc = GameCheck::new(rules, configs.len());
        tally_scenarios(&mut gc, &results, a, parting);
        // a bundled scenario the user's rules make unplayable (an unknown
        // id, an illegal step) parts from them at that place
        let unplayable = diags.iter().filter(|d| bundled_game(&d.file) == gc.game);
        gc.parted.extend(unplayable.map(|d| d.located()));
        fuzz_configs(&mut gc, rules, configs, share, a);
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

/// The scenario stage's results for one game, counted into its check;
/// `parting`: the bundled scenarios under a user's catalogs, where one that
/// fails parts from the bundled rules (`bundled_under_user_rules`).
fn tally_scenarios(gc: &mut GameCheck, results: &[ScenarioRun], a: &CheckArgs, parting: bool) {
    for r in results.iter().filter(|r| r.game == gc.game) {
        for c in &r.runs {
            crate::detail!("check:   scenario {} [{}]: {}", r.file, c.name, if c.passed { "pass" } else { "FAIL" });
            gc.scenarios_total += 1;
            if c.passed {
                gc.scenarios_passed += 1;
            } else if parting {
                gc.parted.push(format!("{} [{}]: {}", r.file, c.name, c.failures.join("; ")));
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
}

/// The fuzz stage for one game: each configuration for `share` of the
/// budget, its failures with the command that reproduces each.
fn fuzz_configs(gc: &mut GameCheck, rules: &AnyRules, configs: &[Config], share: Duration, a: &CheckArgs) {
    let mut merged = FuzzSummary::default();
    crate::note!("check: fuzzing {} in {} configurations ({:.1}s each)", gc.game, configs.len(), share.as_secs_f64());
    for config in configs {
        let opts = FuzzOptions { max_actions: a.max_actions, ..timed_fuzz(a.seed, a.jobs, share, a.shard) };
        match with_progress(&format!("fuzz {}", config.flags()), opts.games, |p| fuzz_any(rules, config, &opts, p)) {
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
                        reproduce_command(&config.flags(), f.seed, &fuzz_flags(&opts, a.rules.as_deref()))
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
}

impl GameCheck {
    /// A game's check before its stages have run.
    fn new(rules: &AnyRules, configurations: usize) -> GameCheck {
        let s = rules.summary();
        GameCheck {
            game: s.game.clone(),
            entities: s.entities.values().sum(),
            interpretations: s.interpretations,
            assumed_numbers: s.numbers.assumed,
            scenarios_passed: 0,
            scenarios_total: 0,
            configurations,
            games: 0,
            actions_checked: 0,
            invariants: 0,
            invariants_held: true,
            dead_interpretations: Vec::new(),
            unchanged_interpretations: Vec::new(),
            readings_not_paired: 0,
            failures: Vec::new(),
            parted: Vec::new(),
        }
    }
}

/// A fuzz run with invariants checked that stops at `share` of wall time
/// (`check` and `report` give each configuration its share this way; the
/// game count only bounds it).
pub(super) fn timed_fuzz(seed: u64, jobs: usize, share: Duration, shard: Option<(u64, u64)>) -> FuzzOptions {
    FuzzOptions {
        games: 1_000_000,
        seed,
        jobs,
        checks: Checks::INVARIANTS,
        fault: None,
        time_limit: Some(share),
        max_actions: crate::check::fuzz::MAX_ACTIONS,
        shard,
    }
}
