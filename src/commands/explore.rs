//! `rulecheck explore`: every state within a depth of a scenario's state
//! (`check::explore`), printed as a table per depth, with any violation's
//! shortest path, the command that finds it again, and with `--save` the
//! path written as a scenario file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::{Exit, load_all, print_diagnostics, shell_word};
use crate::catalog::common::RawCitation;
use crate::catalog::{self, SourceFile};
use crate::check::explore::{Found, Layer, Options, Report, Stop, explore};
use crate::engine::{Config, Scripted, ToMove};
use crate::games::{AnyRules, with_game};
use crate::scenario::{self, ConfigRun, RawConfig, RawStep, Scenario, Vary};
use crate::yaml::{self, Spanned};

/// What `explore` was asked.
#[derive(Debug, Clone)]
pub struct ExploreArgs {
    /// The scenario file whose state after its steps is the start.
    pub from: PathBuf,
    pub depth: usize,
    pub max_states: usize,
    /// The configuration of a scenario with several, by name (default: the first).
    pub config: Option<String>,
    pub variants: Vec<String>,
    /// `ID=OPTION`, laid over the scenario's readings.
    pub interpretations: Vec<String>,
    /// A fault planted in the start state (not in the scenario's steps).
    pub fault: Option<String>,
    pub save: Option<PathBuf>,
    pub rules: Option<PathBuf>,
    pub json: bool,
}

/// One action of a violation's path, in catalog words.
#[derive(Debug, Clone, Serialize)]
pub struct PathStep {
    /// The seat that takes it (`p1`), none for a chance outcome.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
    pub action: String,
    /// At a chance node: the outcome's weight and the node's total weight.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chance: Option<(u32, u64)>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ViolationView {
    pub broken: String,
    pub detail: String,
    /// The path's length: no shorter path breaks a check.
    pub depth: usize,
    pub path: Vec<PathStep>,
    /// How likely chance plays along the path, given the seats' choices.
    pub chance_probability: f64,
    pub reproduce: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub saved: Option<String>,
}

/// The report `explore` prints (and `--format json` writes).
#[derive(Debug, Clone, Serialize)]
pub struct ExploreView {
    pub scenario: String,
    pub configuration: String,
    pub config: Config,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fault: Option<String>,
    pub depth: usize,
    pub depth_reached: usize,
    pub visited: u64,
    pub distinct: u64,
    pub terminal: u64,
    pub seconds: f64,
    pub states_per_second: f64,
    pub max_states: usize,
    pub stop: Stop,
    pub invariants: usize,
    pub layers: Vec<Layer>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub violation: Option<ViolationView>,
}

#[derive(serde::Deserialize)]
struct Head {
    game: Spanned<String>,
}

pub fn explore_command(a: &ExploreArgs) -> Exit {
    let catalogs = match load_all(a.rules.as_deref()) {
        Ok(c) => c,
        Err(d) => return print_diagnostics(&d),
    };
    let file = match catalog::read_file(&a.from) {
        Ok(f) => f,
        Err(d) => return print_diagnostics(&[d]),
    };
    let rules = match game_of(&catalogs, &file) {
        Ok(r) => r,
        Err(d) => return print_diagnostics(&[d]),
    };
    let mut readings = BTreeMap::new();
    for i in &a.interpretations {
        let Some((k, v)) = i.split_once('=') else {
            eprintln!("error: --interpretation takes ID=OPTION, not `{i}`");
            return Exit::BadInput;
        };
        readings.insert(k.to_string(), v.to_string());
    }
    let flags = Config { interpretations: readings.clone(), ..Config::new(rules.id(), 0, 0) };
    let flags = a.variants.iter().fold(flags, |c, v| c.with_variant(v));
    if let Err(e) = super::readings_take_effect(rules, &flags) {
        eprintln!("error: {e}");
        return Exit::BadInput;
    }
    let vary = Vary { fault: None, readings, variants: a.variants.clone() };
    let rule_ids = rules.rule_ids();
    with_game!(rules, |r, G| explore_typed::<G>(r, &file, &vary, &rule_ids, a))
}

/// The loaded catalog a scenario file's `game:` names.
pub(super) fn game_of<'a>(
    catalogs: &'a [AnyRules],
    file: &SourceFile,
) -> Result<&'a AnyRules, catalog::diag::Diagnostic> {
    let head: Head =
        yaml::from_str_as(&file.path, &file.text, "scenario file").map_err(|d| d.with_snippet_from(&file.text))?;
    catalogs.iter().find(|c| c.id() == head.game.value).ok_or_else(|| {
        let (line, column) = yaml::position(&head.game);
        let loaded: Vec<&str> = catalogs.iter().map(AnyRules::id).collect();
        let message = format!("unknown game `{}`; loaded: {}", head.game.value, loaded.join(", "));
        catalog::diag::Diagnostic::new(&file.path, line, column, message).with_snippet_from(&file.text)
    })
}

fn explore_typed<G: Scripted>(
    rules: &G::Rules,
    file: &SourceFile,
    vary: &Vary<'_>,
    rule_ids: &std::collections::BTreeSet<String>,
    a: &ExploreArgs,
) -> Exit {
    let (sc, runs) = match scenario::run_keeping_states::<G>(rules, file, vary, rule_ids) {
        Ok(x) => x,
        Err(d) => return print_diagnostics(&[d]),
    };
    let names: Vec<&str> = runs.iter().map(|(r, _)| r.name.as_str()).collect();
    let Some(at) = a.config.as_ref().map_or(Some(0), |want| names.iter().position(|n| n == want)) else {
        eprintln!(
            "error: {} has no configuration `{}`; its configurations: {}",
            file.path,
            a.config.as_deref().unwrap_or(""),
            names.join(", ")
        );
        return Exit::BadInput;
    };
    let (run, mut start) = runs.into_iter().nth(at).expect("a scenario has a configuration");
    if !run.passed {
        eprintln!(
            "error: {} [{}] fails, so it reaches no state to explore from: {}\n  (rulecheck run {} shows it)",
            file.path,
            run.name,
            run.failures.join("; "),
            shell_word(&file.path)
        );
        return Exit::BadInput;
    }
    if let Some(f) = &a.fault
        && !start.inject_fault(f)
    {
        eprintln!("error: unknown fault `{f}`; the game's faults: {}", G::faults().join(", "));
        return Exit::BadInput;
    }
    let report = explore::<G>(rules, &start, &Options { depth: a.depth, max_states: a.max_states });
    let mut view = view_of::<G>(rules, &start, &run, &report, a, file);
    let mut save_error = None;
    if let (Some(dir), Some(found), Some(v)) = (&a.save, &report.violation, view.violation.as_mut()) {
        let title =
            format!("Counterexample: {} within {} actions of `{}`", found.failure.name(), found.path.len(), sc.title);
        let why = format!("Found by `{}`: {}", v.reproduce, found.failure);
        let path: Vec<G::Action> = found.path.iter().map(|s| s.action.clone()).collect();
        let text = saved_scenario::<G>(rules, &sc, at, vary, &start, &path, Saving { title, why, expect: false });
        let stem = Path::new(&file.path).file_stem().map_or("scenario".into(), |s| s.to_string_lossy().into_owned());
        let name = format!("{stem}-{}-depth-{}.yaml", v.broken, v.depth);
        match crate::schema::write_scenario(dir, &name, &sc.game.value, &text) {
            Ok(path) => v.saved = Some(path.display().to_string()),
            Err(e) => save_error = Some(format!("error: {e}")),
        }
    }
    if a.json {
        println!("{}", serde_json::to_string_pretty(&view).expect("reports serialise"));
    } else {
        print!("{}", render(&view, a));
    }
    if let Some(e) = save_error {
        eprintln!("{e}");
        return Exit::BadInput;
    }
    match view.stop {
        Stop::Depth | Stop::Exhausted => Exit::Ok,
        Stop::Violation | Stop::StateBound => Exit::Failed,
    }
}

fn view_of<G: Scripted>(
    rules: &G::Rules,
    start: &G,
    run: &ConfigRun,
    report: &Report<G::Action>,
    a: &ExploreArgs,
    file: &SourceFile,
) -> ExploreView {
    let violation = report.violation.as_ref().map(|found| ViolationView {
        broken: found.failure.name().to_string(),
        detail: found.failure.to_string(),
        depth: found.path.len(),
        path: described::<G>(rules, start, found),
        chance_probability: found.chance_probability(),
        reproduce: reproduce(a, &file.path, found.path.len()),
        saved: None,
    });
    ExploreView {
        scenario: file.path.clone(),
        configuration: run.name.clone(),
        config: run.config.clone(),
        fault: a.fault.clone(),
        depth: report.depth,
        depth_reached: report.depth_reached,
        visited: report.visited,
        distinct: report.distinct,
        terminal: report.terminal,
        seconds: report.seconds,
        states_per_second: report.states_per_second(),
        max_states: report.max_states,
        stop: report.stop,
        invariants: report.invariants,
        layers: report.layers.clone(),
        violation,
    }
}

/// A path's actions in catalog words, each with the seat that takes it.
fn described<G: Scripted>(rules: &G::Rules, start: &G, found: &Found<G::Action>) -> Vec<PathStep> {
    let mut state = start.clone();
    let mut out = Vec::new();
    for step in &found.path {
        let by = taken_by(&state, &step.action);
        out.push(PathStep { by, action: G::describe_action(rules, &step.action), chance: step.chance });
        let _ = state.apply(rules, &step.action);
    }
    out
}

/// The seat (`p1`) that takes `action` in `state`; none for a chance outcome.
pub(super) fn taken_by<G: Scripted>(state: &G, action: &G::Action) -> Option<String> {
    let chance = state.to_move() == ToMove::Chance;
    state.actor(action).filter(|_| !chance).map(|s| format!("p{}", s + 1))
}

/// The command that explores to the violation's depth again (and finds it).
fn reproduce(a: &ExploreArgs, file: &str, depth: usize) -> String {
    let mut s = format!("rulecheck explore --from {} --depth {depth}", shell_word(file));
    if let Some(c) = &a.config {
        s.push_str(&format!(" --config {}", shell_word(c)));
    }
    for v in &a.variants {
        s.push_str(&format!(" --variant {}", shell_word(v)));
    }
    for i in &a.interpretations {
        s.push_str(&format!(" --interpretation {}", shell_word(i)));
    }
    if a.max_states != crate::check::explore::DEFAULT_MAX_STATES {
        s.push_str(&format!(" --max-states {}", a.max_states));
    }
    s.push_str(&super::run_flags(crate::check::suite::Checks::INVARIANTS, a.fault.as_deref(), a.rules.as_deref()));
    s
}

/// What a saved scenario says and whether it pins its final state.
pub(super) struct Saving {
    pub title: String,
    pub why: String,
    /// Pin the final state's recorded facts (`record_expect`) as the configuration's expectations.
    pub expect: bool,
}

/// The scenario a found path becomes: the original's set-up, its one
/// configuration (with the readings the command line laid over it), its
/// steps, then the path, each action by the seat that takes it; with no
/// expectations (`explore`: it fails `run` exactly where a check breaks)
/// or the final state's (`find`: it passes and pins the state). It is
/// strict unless the path ends waiting for a decision no step answers.
pub(super) fn saved_scenario<G: Scripted>(
    rules: &G::Rules,
    sc: &Scenario<G>,
    at: usize,
    vary: &Vary<'_>,
    start: &G,
    path: &[G::Action],
    saving: Saving,
) -> String {
    let chosen = sc.config.iter().chain(&sc.configs).nth(at).expect("the configuration explored");
    let mut config = chosen.value.clone();
    config.expect = None;
    for v in &vary.variants {
        if !config.variants.contains(v) {
            config.variants.push(v.clone());
        }
    }
    config.interpretations.extend(vary.readings.clone());
    // the saved file has this one configuration: a step refused only under
    // some configurations is refused under it, or not at all
    let name = chosen.value.name.as_deref().unwrap_or_default();
    let own = |s: &RawStep<G::ActionSpec, G::Expect>| RawStep {
        error: s.error.clone().or_else(|| s.error_under.get(name).cloned()),
        error_under: BTreeMap::new(),
        ..s.clone()
    };
    let mut steps: Vec<RawStep<G::ActionSpec, G::Expect>> = sc.steps.iter().map(|s| own(&s.value)).collect();
    let mut state = start.clone();
    for action in path {
        steps.push(RawStep {
            by: taken_by(&state, action),
            act: Some(G::action_to_spec(rules, action)),
            error: None,
            error_under: BTreeMap::new(),
            force: Vec::new(),
            play_randomly: None,
            check: None,
            auto: false,
        });
        let _ = state.apply(rules, action);
    }
    if saving.expect {
        config.expect = Some(state.record_expect(rules));
    }
    let saved = Saved {
        title: saving.title,
        why: saving.why,
        source: &sc.source,
        game: &sc.game.value,
        config,
        strict: sc.strict && state.pending_decision().is_none(),
        setup: sc.setup.as_ref().map(|s| &s.value),
        steps,
        observe: sc.observe.iter().map(|o| o.value.as_str()).collect(),
    };
    yaml::to_string(&saved)
}

#[derive(Serialize)]
struct Saved<'a, S, A, E> {
    title: String,
    why: String,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    source: &'a [RawCitation],
    game: &'a str,
    config: RawConfig<E>,
    strict: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    setup: Option<&'a S>,
    steps: Vec<RawStep<A, E>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    observe: Vec<&'a str>,
}

/// The text report: a table per depth, the totals, and the verdict.
pub fn render(v: &ExploreView, a: &ExploreArgs) -> String {
    let mut s = format!(
        "explore {} [{}] to depth {}: {}{}\n",
        v.scenario,
        v.configuration,
        v.depth,
        v.config,
        v.fault.as_ref().map_or(String::new(), |f| format!(", fault {f}"))
    );
    s.push_str(&format!(
        "{:>7} {:>10} {:>10} {:>10} {:>15} {:>12}\n",
        "depth", "visited", "distinct", "terminal", "chance outcomes", "states/s"
    ));
    let stopped = matches!(v.stop, Stop::Violation | Stop::StateBound);
    for l in &v.layers {
        let rate = if l.depth == 0 { "-".to_string() } else { format!("{:.0}", l.states_per_second) };
        let partial = if stopped && l.depth == v.depth_reached && l.depth > 0 { " (stopped in it)" } else { "" };
        s.push_str(&format!(
            "{:>7} {:>10} {:>10} {:>10} {:>15} {:>12}{partial}\n",
            l.depth, l.visited, l.distinct, l.terminal, l.chance_outcomes, rate
        ));
    }
    s.push_str(&format!(
        "depth reached {}, states visited {}, distinct {}, terminal {}, {:.0} states/s ({:.2}s)\n",
        v.depth_reached, v.visited, v.distinct, v.terminal, v.states_per_second, v.seconds
    ));
    let checks = format!(
        "{} invariant(s) on every transition, the per-step contract on every transition to a new state",
        v.invariants
    );
    match (&v.violation, v.stop) {
        (Some(f), _) => {
            s.push_str(&format!("VIOLATION at depth {}: {}\n", f.depth, f.detail));
            s.push_str(&format!("  shortest path from the scenario's state ({} action(s)):\n", f.path.len()));
            for (i, step) in f.path.iter().enumerate() {
                let who = step.by.as_ref().map_or("chance:".to_string(), |b| b.to_uppercase());
                let weight = step.chance.map_or(String::new(), |(w, t)| format!(" (weight {w} of {t})"));
                s.push_str(&format!("    {:>3}. {who} {}{weight}\n", i + 1, step.action));
            }
            if f.path.iter().any(|p| p.chance.is_some()) {
                s.push_str(&format!("  chance plays this way with probability {:.4}\n", f.chance_probability));
            }
            s.push_str(&format!("  reproduce: {}\n", f.reproduce));
            if let Some(p) = &f.saved {
                let flags = super::run_flags(crate::check::suite::Checks::INVARIANTS, a.fault.as_deref(), a.rules.as_deref());
                s.push_str(&format!(
                    "  saved as {p} (rulecheck run {}{flags} fails until the rule is fixed)\n",
                    shell_word(p)
                ));
            }
        }
        (None, Stop::StateBound) => s.push_str(&format!(
            "explore: INCOMPLETE: the bound of {} distinct states was reached in depth {} (depths below it complete, {checks}, held); raise --max-states or lower --depth\n",
            v.max_states, v.depth_reached
        )),
        (None, Stop::Exhausted) => s.push_str(&format!(
            "explore: every reachable state visited (no game goes past depth {}); {checks}: all held\n",
            v.depth_reached
        )),
        (None, _) => s.push_str(&format!("explore: every state within {} action(s) visited; {checks}: all held\n", v.depth)),
    }
    s
}
