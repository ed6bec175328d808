//! `rulecheck find --until "<condition>"`: a search (`check::find`) for a
//! short action sequence from a game's start, or from a scenario's state,
//! to a state where the condition (`check::query`) holds; the witness
//! shrunk, printed with the command that finds it again, and with `--save`
//! written as a scenario that passes under `run` and pins the final state.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use serde::Serialize;

use super::explore::{Saving, game_of, saved_scenario, taken_by};
use super::{Exit, load_all, print_diagnostics, shell_word};
use crate::catalog::{self, SourceFile};
use crate::check::find::{FindOptions, FindReport, Method, Stop, find};
use crate::check::query::compile;
use crate::engine::{Config, Game, Query, Scripted};
use crate::games::{AnyRules, with_game};
use crate::scenario::{self, Vary};

/// What `find` was asked.
#[derive(Debug, Clone)]
pub struct FindArgs {
    /// The game, when the search starts from its set-up (not `--from`).
    pub game: Option<String>,
    pub until: String,
    pub from: Option<PathBuf>,
    /// The configuration of a `--from` scenario with several, by name.
    pub config_name: Option<String>,
    pub players: u32,
    pub variants: Vec<String>,
    pub interpretations: Vec<String>,
    pub turn_cap: Option<u32>,
    pub seed: u64,
    pub games: u64,
    pub max_states: usize,
    pub time_limit: Option<Duration>,
    pub jobs: usize,
    pub save: Option<PathBuf>,
    pub rules: Option<PathBuf>,
    pub json: bool,
}

/// One action of the witness, in catalog words.
#[derive(Debug, Clone, Serialize)]
pub struct TraceStep {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
    pub action: String,
}

/// The report `find` prints (and `--format json` writes).
#[derive(Debug, Clone, Serialize)]
pub struct FindView {
    pub game: String,
    pub until: String,
    pub start: String,
    pub stop: Stop,
    pub games: u64,
    pub actions: u64,
    pub distinct: u64,
    pub expanded: u64,
    pub closest: u64,
    pub seconds: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub method: Option<Method>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actions_before_shrinking: Option<usize>,
    pub trace: Vec<TraceStep>,
    /// The events of the witness's last action.
    pub last_events: Vec<String>,
    pub reproduce: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub saved: Option<String>,
}

pub fn find_command(a: &FindArgs) -> Exit {
    let catalogs = match load_all(a.rules.as_deref()) {
        Ok(c) => c,
        Err(d) => return print_diagnostics(&d),
    };
    let mut readings = BTreeMap::new();
    for i in &a.interpretations {
        let Some((k, v)) = i.split_once('=') else {
            eprintln!("error: --interpretation takes ID=OPTION, not `{i}`");
            return Exit::BadInput;
        };
        readings.insert(k.to_string(), v.to_string());
    }
    let (rules, file) = match (&a.from, &a.game) {
        (Some(from), _) => {
            let file = match catalog::read_file(from) {
                Ok(f) => f,
                Err(d) => return print_diagnostics(&[d]),
            };
            match game_of(&catalogs, &file) {
                Ok(r) => (r, Some(file)),
                Err(d) => return print_diagnostics(&[d]),
            }
        }
        (None, Some(g)) => match catalogs.iter().find(|c| c.id() == g) {
            Some(r) => (r, None),
            None => {
                let loaded: Vec<&str> = catalogs.iter().map(AnyRules::id).collect();
                eprintln!("error: unknown game `{g}`; loaded: {}", loaded.join(", "));
                return Exit::BadInput;
            }
        },
        (None, None) => {
            eprintln!("error: find needs --game GAME or --from SCENARIO");
            return Exit::BadInput;
        }
    };
    let config = match super::config_for(rules.id(), a.players, &a.variants, &a.interpretations, a.turn_cap) {
        Ok(c) => Config { seed: a.seed, ..c },
        Err(e) => {
            eprintln!("error: {e}");
            return Exit::BadInput;
        }
    };
    if let Err(e) = super::readings_take_effect(rules, &config) {
        eprintln!("error: {e}");
        return Exit::BadInput;
    }
    let vary = Vary { fault: None, readings, variants: a.variants.clone() };
    let rule_ids = rules.rule_ids();
    with_game!(rules, |r, G| {
        let start = match &file {
            Some(f) => start_from::<G>(r, f, &vary, &rule_ids, a),
            None => {
                G::new(r, &config).map(|s| (s, None)).map_err(|e| eprintln!("error: {e}")).map_err(|_| Exit::BadInput)
            }
        };
        match start {
            Ok((start, from)) => find_typed::<G>(r, &config, &start, from, a, &vary),
            Err(e) => e,
        }
    })
}

/// A `--from` scenario's state after its steps, with the scenario and the
/// index of its configuration searched from.
type Origin<G> = (scenario::Scenario<G>, usize);

fn start_from<G: Scripted>(
    rules: &G::Rules,
    file: &SourceFile,
    vary: &Vary<'_>,
    rule_ids: &std::collections::BTreeSet<String>,
    a: &FindArgs,
) -> Result<(G, Option<Origin<G>>), Exit> {
    let (sc, runs) =
        scenario::run_keeping_states::<G>(rules, file, vary, rule_ids).map_err(|d| print_diagnostics(&[d]))?;
    let names: Vec<&str> = runs.iter().map(|(r, _)| r.name.as_str()).collect();
    let Some(at) = a.config_name.as_ref().map_or(Some(0), |want| names.iter().position(|n| n == want)) else {
        eprintln!(
            "error: {} has no configuration `{}`; its configurations: {}",
            file.path,
            a.config_name.as_deref().unwrap_or(""),
            names.join(", ")
        );
        return Err(Exit::BadInput);
    };
    let (run, start) = runs.into_iter().nth(at).expect("a scenario has a configuration");
    if !run.passed {
        eprintln!(
            "error: {} [{}] fails, so it reaches no state to search from: {}",
            file.path,
            run.name,
            run.failures.join("; ")
        );
        return Err(Exit::BadInput);
    }
    Ok((start, Some((sc, at))))
}

fn find_typed<G: Scripted + Query + Send>(
    rules: &G::Rules,
    config: &Config,
    start: &G,
    from: Option<Origin<G>>,
    a: &FindArgs,
    vary: &Vary<'_>,
) -> Exit
where
    G::Rules: Sync,
{
    let cond = match compile::<G>(rules, start.players(), &a.until) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{}", e.render("--until", &a.until));
            return Exit::BadInput;
        }
    };
    let opts = FindOptions {
        seed: a.seed,
        games: a.games,
        max_actions: 100_000,
        max_states: a.max_states,
        time_limit: a.time_limit,
        jobs: a.jobs,
    };
    let report = find::<G>(rules, start, &cond, &opts);
    let mut view = view_of::<G>(rules, &config.game, start, &report, a);
    let mut save_error = None;
    if let (Some(dir), Some(w)) = (&a.save, &report.witness) {
        let title = format!("Found: {}", a.until);
        let why = format!(
            "Found by `{}`: a state where `{}` holds, {} action(s) from the {}; the expectations pin it.",
            view.reproduce,
            a.until,
            w.actions.len(),
            if from.is_some() { "scenario's state" } else { "start" }
        );
        let text = match &from {
            Some((sc, at)) => {
                Ok(saved_scenario::<G>(rules, sc, *at, vary, start, &w.actions, Saving { title, why, expect: true }))
            }
            // the final facts `record` pins (`record_expect`): every fact (`facts`)
            // is not always an expectation that holds (a building id on two plots)
            None => scenario::record::<G>(rules, config, &w.actions, &title, &why, true),
        };
        let name = format!("found-{}.yaml", slug(&a.until));
        match text.and_then(|t| crate::schema::write_scenario(dir, &name, &config.game, &t)) {
            Ok(path) => view.saved = Some(path.display().to_string()),
            Err(e) => save_error = Some(format!("error: {e}")),
        }
    }
    if a.json {
        println!("{}", serde_json::to_string_pretty(&view).expect("reports serialise"));
    } else {
        print!("{}", render(&view));
    }
    if let Some(e) = save_error {
        eprintln!("{e}");
        return Exit::BadInput;
    }
    if report.witness.is_some() { Exit::Ok } else { Exit::Failed }
}

fn view_of<G: Scripted + Query>(
    rules: &G::Rules,
    game: &str,
    start: &G,
    r: &FindReport<G::Action>,
    a: &FindArgs,
) -> FindView {
    let mut state = start.clone();
    let mut trace = Vec::new();
    let mut last_events = Vec::new();
    for action in r.witness.iter().flat_map(|w| &w.actions) {
        trace.push(TraceStep { by: taken_by(&state, action), action: G::describe_action(rules, action) });
        let events = state.apply(rules, action).unwrap_or_default();
        last_events = events.iter().map(|e| G::describe_event(rules, e)).collect();
    }
    FindView {
        game: game.to_string(),
        until: a.until.clone(),
        start: a.from.as_ref().map_or("the set-up".to_string(), |f| f.display().to_string()),
        stop: r.stop,
        games: r.games,
        actions: r.actions,
        distinct: r.distinct,
        expanded: r.expanded,
        closest: r.closest,
        seconds: r.seconds,
        method: r.witness.as_ref().map(|w| w.method),
        actions_before_shrinking: r.witness.as_ref().map(|w| w.actions_before_shrinking),
        trace,
        last_events,
        reproduce: reproduce(a),
        saved: None,
    }
}

/// A file name's part from a condition: its letters and digits, dashed.
fn slug(cond: &str) -> String {
    let mut s = String::new();
    for c in cond.chars() {
        if c.is_ascii_alphanumeric() {
            s.push(c.to_ascii_lowercase());
        } else if !s.ends_with('-') && !s.is_empty() {
            s.push('-');
        }
    }
    let s = s.trim_end_matches('-');
    s.chars().take(60).collect::<String>().trim_end_matches('-').to_string()
}

/// The command that runs the same search again (and finds the same witness).
fn reproduce(a: &FindArgs) -> String {
    let mut s = match (&a.from, &a.game) {
        (Some(f), _) => format!("rulecheck find --from {}", shell_word(&f.display().to_string())),
        (None, g) => format!("rulecheck find --game {}", shell_word(g.as_deref().unwrap_or(""))),
    };
    s.push_str(&format!(" --until {}", shell_word(&a.until)));
    if let Some(c) = &a.config_name {
        s.push_str(&format!(" --config {}", shell_word(c)));
    }
    if a.from.is_none() {
        s.push_str(&format!(" --players {}", a.players));
    }
    for v in &a.variants {
        s.push_str(&format!(" --variant {}", shell_word(v)));
    }
    for i in &a.interpretations {
        s.push_str(&format!(" --interpretation {}", shell_word(i)));
    }
    if let Some(t) = a.turn_cap {
        s.push_str(&format!(" --turn-cap {t}"));
    }
    s.push_str(&format!(" --seed {} --games {} --max-states {} --jobs 1", a.seed, a.games, a.max_states));
    if let Some(r) = &a.rules {
        s.push_str(&format!(" --rules {}", shell_word(&r.display().to_string())));
    }
    s
}

/// The text report.
pub fn render(v: &FindView) -> String {
    let mut s = format!("find `{}` from {}\n", v.until, v.start);
    s.push_str(&format!(
        "  searched: {} random game(s), {} action(s), {} distinct state(s), {} expanded best-first, closest distance {}, {:.2}s\n",
        v.games, v.actions, v.distinct, v.expanded, v.closest, v.seconds
    ));
    if v.stop != Stop::Found {
        let why = match v.stop {
            Stop::Exhausted => "every state reachable from the start was searched: the condition cannot hold there",
            Stop::StateBound => "the bound of distinct states was reached (raise --max-states)",
            Stop::Deadline => "the time limit was reached (raise --time-limit)",
            Stop::Found => unreachable!("not found"),
        };
        s.push_str(&format!("NOT FOUND: {why}\n  reproduce: {}\n", v.reproduce));
        return s;
    }
    let how = match v.method {
        Some(Method::Start) => "it holds at the start".to_string(),
        Some(Method::Random(i)) => format!("random game {i}"),
        _ => "best-first search".to_string(),
    };
    s.push_str(&format!(
        "FOUND in {} action(s) ({how}; shrunk from {}):\n",
        v.trace.len(),
        v.actions_before_shrinking.unwrap_or(0)
    ));
    for (i, t) in v.trace.iter().enumerate() {
        let who = t.by.as_ref().map_or("chance:".to_string(), |b| b.to_uppercase());
        s.push_str(&format!("  {:>4}. {who} {}\n", i + 1, t.action));
    }
    if !v.last_events.is_empty() {
        s.push_str(&format!("  the last action's events: {}\n", v.last_events.join("; ")));
    }
    s.push_str(&format!("  reproduce: {}\n", v.reproduce));
    if let Some(p) = &v.saved {
        s.push_str(&format!("  saved as {p} (rulecheck run {} passes and pins the state)\n", shell_word(p)));
    }
    s
}
