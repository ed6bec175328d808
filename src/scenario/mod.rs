//! Scenario files: given (configuration and set-up overrides) / when (steps)
//! / then (expectations), run against any `Scripted` game, each producing a
//! readable transcript.
//!
//! A step is one of: `do:` an action (with `by:` the seat that must be on
//! move, and optionally `error:` the rule id the action must be rejected
//! with), `force:` chance outcomes, `play_randomly:` a seeded random stretch,
//! or `check:` expectations mid-way. Strict mode (the default) fails a
//! scenario when the engine waits for a decision no step answers.

use std::collections::BTreeMap;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::catalog::SourceFile;
use crate::catalog::common::RawCitation;
use crate::catalog::diag::Diagnostic;
use crate::check::playout::{RandomChooser, pick};
use crate::check::suite::check_step;
use crate::engine::{Config, Forced, Scripted, ToMove};
use crate::games::{AnyRules, with_game};
use crate::yaml::{self, Spanned, position};

#[derive(Debug, Clone, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[serde(bound(deserialize = "S: DeserializeOwned, A: DeserializeOwned, E: DeserializeOwned"))]
pub struct RawScenario<S, A, E> {
    pub title: String,
    /// The rule or edge case the scenario pins down, with its citations.
    pub why: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub source: Vec<RawCitation>,
    pub game: Spanned<String>,
    /// One configuration, or `configs` for several that run the same steps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub config: Option<Spanned<RawConfig<E>>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub configs: Vec<Spanned<RawConfig<E>>>,
    #[serde(default = "yes")]
    pub strict: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setup: Option<Spanned<S>>,
    pub steps: Vec<Spanned<RawStep<A, E>>>,
    /// Seats whose observation (what they may see) the transcript shows
    /// after every action.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub observe: Vec<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect: Option<Spanned<E>>,
}

fn yes() -> bool {
    true
}

#[derive(Debug, Clone, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[serde(bound(deserialize = "E: DeserializeOwned"))]
pub struct RawConfig<E> {
    /// A label for this configuration in reports.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub players: u32,
    #[serde(default = "seed_one")]
    pub seed: u64,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub variants: Vec<String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub interpretations: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_cap: Option<u32>,
    /// Expectations for this configuration only (added to the scenario's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect: Option<E>,
}

fn seed_one() -> u64 {
    1
}

#[derive(Debug, Clone, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[serde(bound(deserialize = "A: DeserializeOwned, E: DeserializeOwned"))]
pub struct RawStep<A, E> {
    /// The seat that must be on move (`p1`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
    #[serde(rename = "do", default, skip_serializing_if = "Option::is_none")]
    pub act: Option<A>,
    /// The rule id the action must be rejected with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Chance outcomes, in order, by name (a card id) or index.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub force: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub play_randomly: Option<RandomPlay>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check: Option<E>,
    /// Resolve decisions the engine waits for before this step by taking
    /// the first legal choice (strict mode otherwise fails).
    #[serde(default, skip_serializing_if = "is_false")]
    pub auto: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

#[derive(Debug, Clone, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RandomPlay {
    pub seed: u64,
    /// Stop after this many actions, or at the end of the game.
    pub actions: usize,
}

/// How one configuration of a scenario went.
#[derive(Debug, Clone, Serialize)]
pub struct ConfigRun {
    pub name: String,
    pub config: Config,
    pub passed: bool,
    /// Why it failed: expected vs actual, unscripted decisions, …
    pub failures: Vec<String>,
    pub transcript: String,
}

/// How one scenario file went.
#[derive(Debug, Clone, Serialize)]
pub struct ScenarioRun {
    pub file: String,
    pub title: String,
    pub game: String,
    pub runs: Vec<ConfigRun>,
}

impl ScenarioRun {
    pub fn passed(&self) -> bool {
        self.runs.iter().all(|r| r.passed)
    }
    /// All configurations' transcripts, for the snapshot.
    pub fn transcript(&self) -> String {
        self.runs.iter().map(|r| r.transcript.as_str()).collect::<Vec<_>>().join("\n")
    }
}

#[derive(Deserialize)]
struct Head {
    game: Spanned<String>,
}

/// Runs a scenario file against the loaded catalogs. `Err` is bad input
/// (exit code 2): malformed YAML, unknown ids, an unexpected illegal action.
pub fn run_file(catalogs: &[AnyRules], file: &SourceFile) -> Result<ScenarioRun, Diagnostic> {
    run_file_with(catalogs, file, None)
}

/// `run_file` with a deliberately broken rule (see `Game::inject_fault`):
/// how a saved counterexample shows it fails until the fault is removed.
pub fn run_file_with(catalogs: &[AnyRules], file: &SourceFile, fault: Option<&str>) -> Result<ScenarioRun, Diagnostic> {
    run_file_varied(catalogs, file, &Vary { fault, ..Vary::default() })
}

/// What a run changes in every configuration of a scenario: a fault, and
/// readings (with the variants they need) laid over the scenario's own.
#[derive(Debug, Clone, Default)]
pub struct Vary<'a> {
    pub fault: Option<&'a str>,
    pub readings: BTreeMap<String, String>,
    pub variants: Vec<String>,
}

/// `run_file` under a variation (the scenario × interpretation matrix).
pub fn run_file_varied(catalogs: &[AnyRules], file: &SourceFile, vary: &Vary<'_>) -> Result<ScenarioRun, Diagnostic> {
    let head: Head =
        yaml::from_str_as(&file.path, &file.text, "scenario file").map_err(|d| d.with_snippet_from(&file.text))?;
    let Some(rules) = catalogs.iter().find(|c| c.id() == head.game.value) else {
        let known: Vec<&str> = catalogs.iter().map(AnyRules::id).collect();
        return Err(Diagnostic::new(
            &file.path,
            position(&head.game).0,
            position(&head.game).1,
            format!("unknown game `{}`; loaded: {}", head.game.value, known.join(", ")),
        )
        .with_snippet_from(&file.text));
    };
    let rule_ids = rules.rule_ids();
    with_game!(rules, |r, G| run_typed::<G>(r, file, vary, &rule_ids))
}

pub type Scenario<G> = RawScenario<<G as Scripted>::Setup, <G as Scripted>::ActionSpec, <G as Scripted>::Expect>;
pub type Reached<G> = (ConfigRun, G);

/// Parses a scenario file for game `G` (used by `run_file` and by tests).
pub fn parse<G: Scripted>(file: &SourceFile) -> Result<Scenario<G>, Diagnostic> {
    let sc: Scenario<G> =
        yaml::from_str_as(&file.path, &file.text, "scenario file").map_err(|d| d.with_snippet_from(&file.text))?;
    let bad = |at: (u64, u64), m: String| Diagnostic::new(&file.path, at.0, at.1, m).with_snippet_from(&file.text);
    if sc.config.is_some() != sc.configs.is_empty() {
        return Err(bad(position(&sc.game), "give exactly one of `config` and `configs`".into()));
    }
    let expects = sc.expect.is_some() || sc.config.iter().chain(&sc.configs).any(|c| c.value.expect.is_some());
    if sc.steps.is_empty() && !expects {
        return Err(bad(
            position(&sc.game),
            "the scenario has no steps and no expectations, so it checks nothing; add `steps` or `expect`".into(),
        ));
    }
    for st in &sc.steps {
        let s = &st.value;
        let kinds = usize::from(s.act.is_some())
            + usize::from(!s.force.is_empty())
            + usize::from(s.play_randomly.is_some())
            + usize::from(s.check.is_some());
        if kinds != 1 {
            return Err(bad(
                position(st),
                "a step holds exactly one of `do`, `force`, `play_randomly`, `check`".into(),
            ));
        }
        if (s.by.is_some() || s.error.is_some()) && s.act.is_none() {
            return Err(bad(position(st), "`by` and `error` belong to a `do` step".into()));
        }
    }
    Ok(sc)
}

/// Runs a scenario file for game `G` under `vary`; `rule_ids` are the rule
/// ids the game's errors can name (what an `error:` step may expect).
/// `run_file` reaches it through the registry; tests of a test-only game
/// call it directly.
pub fn run_typed<G: Scripted>(
    rules: &G::Rules,
    file: &SourceFile,
    vary: &Vary<'_>,
    rule_ids: &std::collections::BTreeSet<String>,
) -> Result<ScenarioRun, Diagnostic> {
    let (sc, runs) = run_keeping_states::<G>(rules, file, vary, rule_ids)?;
    let runs = runs.into_iter().map(|(run, _)| run).collect();
    Ok(ScenarioRun { file: file.path.clone(), title: sc.title.clone(), game: sc.game.value.clone(), runs })
}

/// `run_typed`, keeping the parsed scenario and each configuration's state after the steps (`explore` starts there).
pub fn run_keeping_states<G: Scripted>(
    rules: &G::Rules,
    file: &SourceFile,
    vary: &Vary<'_>,
    rule_ids: &std::collections::BTreeSet<String>,
) -> Result<(Scenario<G>, Vec<Reached<G>>), Diagnostic> {
    let sc = parse::<G>(file)?;
    for (i, st) in sc.steps.iter().enumerate() {
        if let Some(rule) = &st.value.error
            && !rule_ids.contains(rule)
        {
            let known: Vec<&str> = rule_ids.iter().map(String::as_str).collect();
            let at = position(st);
            return Err(Diagnostic::new(
                &file.path,
                at.0,
                at.1,
                format!("step {}: `{rule}` is no rule id of the game; the rule ids: {}", i + 1, known.join(", ")),
            )
            .with_snippet_from(&file.text));
        }
    }
    let configs: Vec<&Spanned<RawConfig<G::Expect>>> = match &sc.config {
        Some(c) => vec![c],
        None => sc.configs.iter().collect(),
    };
    let mut runs = Vec::new();
    for rc in configs {
        runs.push(run_config::<G>(rules, file, &sc, rc, vary)?);
    }
    Ok((sc, runs))
}

fn run_config<G: Scripted>(
    rules: &G::Rules,
    file: &SourceFile,
    sc: &Scenario<G>,
    spanned_rc: &Spanned<RawConfig<G::Expect>>,
    vary: &Vary<'_>,
) -> Result<(ConfigRun, G), Diagnostic> {
    let rc = &spanned_rc.value;
    let rc_at = position(spanned_rc);
    let fault = vary.fault;
    let bad = |at: (u64, u64), m: String| Diagnostic::new(&file.path, at.0, at.1, m).with_snippet_from(&file.text);
    let config = Config {
        game: sc.game.value.clone(),
        players: rc.players,
        seed: rc.seed,
        variants: rc.variants.iter().chain(&vary.variants).cloned().collect(),
        interpretations: rc.interpretations.iter().chain(&vary.readings).map(|(k, v)| (k.clone(), v.clone())).collect(),
        turn_cap: rc.turn_cap,
    };
    let name = rc.name.clone().unwrap_or_else(|| "default".to_string());
    let mut state = G::new(rules, &config).map_err(|e| bad(rc_at, format!("configuration `{name}`: {e}")))?;
    if let Some(s) = &sc.setup {
        state.apply_setup(rules, &s.value).map_err(|e| bad(position(s), format!("set-up: {e}")))?;
    }
    if let Some(f) = fault
        && !state.inject_fault(f)
    {
        return Err(bad(position(&sc.game), format!("unknown fault `{f}`")));
    }
    let mut t = String::new();
    t.push_str(&format!(
        "# {}\nconfiguration `{name}`: {config}\n\nset-up:\n{}",
        sc.title,
        state.describe_state(rules)
    ));
    let mut failures = Vec::new();
    let players = config.players as usize;
    let mut observers = Vec::new();
    for o in &sc.observe {
        observers.push(G::seat_of(&o.value, players).map_err(|e| bad(position(o), format!("observe: {e}")))?);
    }
    let observe = |state: &G, t: &mut String| {
        for &seat in &observers {
            t.push_str(&format!("  P{} sees:\n", seat + 1));
            for line in state.observation(rules, seat).lines() {
                t.push_str(&format!("    {line}\n"));
            }
        }
    };
    // the contract checks of each `do` step replay from here
    let mut replay = state.clone();
    let mut applied = 0usize;
    // chance nodes no step scripts are sampled from the configuration's seed
    let mut chance = RandomChooser::new(config.seed);
    let mut scratch = (Vec::new(), Vec::new());
    // the ids a named forced outcome can be: the catalog's entities
    let keys = G::coverage_keys(rules);
    let entity_ids: std::collections::BTreeSet<&str> =
        keys.iter().map(|k| k.split_once(':').map_or(k.as_str(), |(_, id)| id)).collect();
    for (i, st) in sc.steps.iter().enumerate() {
        let n = i + 1;
        let at = position(st);
        let s = &st.value;
        // chance nodes before a `do` step, unless it names their outcome
        while let (Some(spec), ToMove::Chance) = (&s.act, state.to_move()) {
            let (legal, weights) = &mut scratch;
            state.legal_actions(rules, legal);
            if legal.is_empty() || G::action_from_spec(rules, spec).is_ok_and(|a| legal.contains(&a)) {
                break;
            }
            let a = legal.swap_remove(pick(&state, rules, legal, weights, &mut chance));
            let ev = state.apply(rules, &a).map_err(|e| bad(at, format!("step {n}: {e}")))?;
            let _ = replay.apply(rules, &a);
            t.push_str(&format!("\nchance (sampled): {}\n", G::describe_action(rules, &a)));
            for e in &ev {
                t.push_str(&format!("  - {}\n", G::describe_event(rules, e)));
            }
            observe(&state, &mut t);
        }
        // decisions the engine waits for
        while let Some((seat, decision)) = state.pending_decision() {
            let answered = s.act.is_some() && s.by.as_deref().is_some_and(|b| G::seat_of(b, players) == Ok(seat));
            if answered {
                break;
            }
            if sc.strict && !s.auto {
                failures.push(format!("step {n} (line {}): unscripted decision `{decision}` for p{} (strict mode; script it, or set `auto: true` on the step)", at.0, seat + 1));
                break;
            }
            let mut legal = Vec::new();
            state.legal_actions(rules, &mut legal);
            let Some(a) = legal.first().cloned() else {
                failures.push(no_legal_action(n, at, &format!("the decision `{decision}` for p{}", seat + 1)));
                break;
            };
            let ev = state.apply(rules, &a).map_err(|e| bad(at, format!("step {n}: {e}")))?;
            let _ = replay.apply(rules, &a);
            t.push_str(&format!("\nauto-decided `{decision}` for P{}: {}\n", seat + 1, G::describe_action(rules, &a)));
            for e in &ev {
                t.push_str(&format!("  - {}\n", G::describe_event(rules, e)));
            }
        }
        if !failures.is_empty() {
            break;
        }
        if let Some(spec) = &s.act {
            let action = G::action_from_spec(rules, spec).map_err(|e| bad(at, format!("step {n}: {e}")))?;
            if let Some(b) = &s.by {
                let want = G::seat_of(b, players).map_err(|e| bad(at, format!("step {n}: {e}")))?;
                let on_move = match state.to_move() {
                    ToMove::Seat(s) => s == want,
                    ToMove::Simultaneous(seats) => seats.contains(want),
                    ToMove::Chance | ToMove::Terminal => false,
                };
                if !on_move {
                    return Err(bad(at, format!("step {n}: `{b}` is not on move; {} is", state.to_move())));
                }
            }
            let text = G::describe_action(rules, &action);
            let who = match state.to_move() {
                ToMove::Chance => "chance:".to_string(),
                _ => state.actor(&action).map(|p| format!("P{}", p + 1)).unwrap_or_default(),
            };
            let before = state.clone();
            let snapshot = state.before();
            match (state.apply(rules, &action), &s.error) {
                (Ok(ev), None) => {
                    t.push_str(&format!("\nstep {n}: {who} {text}\n"));
                    for e in &ev {
                        t.push_str(&format!("  - {}\n", G::describe_event(rules, e)));
                    }
                    observe(&state, &mut t);
                    if let Err(v) = state.check_invariants(rules, &snapshot, &action, &ev) {
                        failures.push(format!("step {n} (line {}): {v}", at.0));
                        break;
                    }
                    let salt = applied as u32;
                    if let Some(f) = check_step::<G>(rules, &before, &action, &ev, &state, &mut replay, salt) {
                        failures.push(format!("step {n} (line {}): {f}", at.0));
                        break;
                    }
                    applied += 1;
                }
                (Ok(_), Some(rule)) => {
                    failures.push(format!(
                        "step {n} (line {}): expected rule error `{rule}`, but `{text}` was accepted",
                        at.0
                    ));
                    break;
                }
                (Err(e), Some(rule)) if e.rule == *rule => {
                    t.push_str(&format!("\nstep {n}: {who} {text}\n  - rejected as expected: {e}\n"));
                    if state != before {
                        failures.push(format!("step {n}: a rejected action changed the state"));
                    }
                }
                (Err(e), Some(rule)) => {
                    failures.push(format!(
                        "step {n} (line {}): expected rule error `{rule}`, got `{}`: {}",
                        at.0, e.rule, e.message
                    ));
                    break;
                }
                (Err(e), None) => return Err(bad(at, format!("step {n}: illegal action `{text}`: {e}"))),
            }
        } else if !s.force.is_empty() {
            for f in &s.force {
                if !entity_ids.contains(f.as_str()) {
                    return Err(bad(
                        at,
                        format!(
                            "step {n}: `{f}` is not an id of the {} catalog; `force` names chance outcomes (cards) by id, never by position",
                            sc.game.value
                        ),
                    ));
                }
                state.force(Forced(f.clone()));
                replay.force(Forced(f.clone()));
            }
            t.push_str(&format!("\nstep {n}: force [{}]\n", s.force.join(", ")));
        } else if let Some(rp) = &s.play_randomly {
            let mut chooser = RandomChooser::new(rp.seed);
            let mut legal = Vec::new();
            let mut k = 0;
            let mut weights = Vec::new();
            while k < rp.actions && !state.is_over() {
                state.legal_actions(rules, &mut legal);
                if legal.is_empty() {
                    failures.push(no_legal_action(n, at, "random play"));
                    break;
                }
                let a = legal.swap_remove(pick(&state, rules, &legal, &mut weights, &mut chooser));
                state
                    .apply(rules, &a)
                    .map_err(|e| bad(at, format!("step {n}: a random legal action was rejected: {e}")))?;
                let _ = replay.apply(rules, &a);
                k += 1;
            }
            t.push_str(&format!(
                "\nstep {n}: played {k} random actions (seed {})\n{}",
                rp.seed,
                state.describe_state(rules)
            ));
            if !failures.is_empty() {
                break;
            }
        } else if let Some(e) = &s.check {
            let mism = state.check_expect(rules, e).map_err(|m| bad(at, format!("step {n}: {m}")))?;
            t.push_str(&format!("\nstep {n}: check ({} fact(s) differ)\n", mism.len()));
            for (fact, want, got) in mism {
                failures.push(format!("step {n} (line {}): {fact}: expected {want}, actual {got}", at.0));
            }
        }
    }
    if failures.is_empty()
        && sc.strict
        && let Some((seat, d)) = state.pending_decision()
    {
        failures.push(format!(
            "the scenario ends while the engine waits for decision `{d}` from p{} (strict mode)",
            seat + 1
        ));
    }
    let (misfits, unused) = state.forced_leftovers();
    for m in misfits {
        failures.push(format!("the forced chance outcome `{}` did not fit the chance event it met", m.0));
    }
    if unused > 0 {
        failures.push(format!("{unused} forced chance outcome(s) were never used"));
    }
    t.push_str(&format!("\nfinal state:\n{}", state.describe_state(rules)));
    let mut expected = 0;
    let expects = [sc.expect.as_ref().map(|e| (&e.value, position(e))), rc.expect.as_ref().map(|e| (e, rc_at))];
    for (e, at) in expects.into_iter().flatten() {
        let mism = state.check_expect(rules, e).map_err(|m| bad(at, format!("expect: {m}")))?;
        expected += 1;
        for (fact, want, got) in mism {
            failures.push(format!("{fact}: expected {want}, actual {got}"));
        }
    }
    let verdict = if failures.is_empty() { "PASS".to_string() } else { format!("FAIL\n  {}", failures.join("\n  ")) };
    t.push_str(&format!("\nexpectation blocks checked: {expected}\nverdict: {verdict}\n"));
    Ok((ConfigRun { name, config, passed: failures.is_empty(), failures, transcript: t }, state))
}

/// The failure of a step that needs a legal action when the engine lists
/// none although the game is not over (the contract says that never happens).
fn no_legal_action(n: usize, at: (u64, u64), what: &str) -> String {
    format!(
        "step {n} (line {}): {what} needs a legal action, but the engine lists no legal action and the game is not over",
        at.0
    )
}

/// Writes a scenario that replays `actions` from the normal set-up of
/// `config`, expecting the final facts it reaches: a random game or a
/// user's report becomes a regression test in one step. With
/// `expect_final: false` the scenario asserts only that every step is legal
/// and every invariant holds (a counterexample's form).
pub fn record<G: Scripted>(
    rules: &G::Rules,
    config: &Config,
    actions: &[G::Action],
    title: &str,
    why: &str,
    expect_final: bool,
) -> Result<String, String> {
    let mut state = G::new(rules, config).map_err(|e| e.to_string())?;
    let mut steps = Vec::new();
    for (i, a) in actions.iter().enumerate() {
        let by = state.actor(a).map(|p| format!("p{}", p + 1));
        state.apply(rules, a).map_err(|e| format!("action {}: {e}", i + 1))?;
        steps.push(RecordedStep { by, act: G::action_to_spec(rules, a) });
    }
    let rec = Recorded {
        title: title.to_string(),
        why: why.to_string(),
        game: config.game.clone(),
        config: RecordedConfig {
            players: config.players,
            seed: config.seed,
            variants: config.variants.iter().cloned().collect(),
            interpretations: config.interpretations.clone(),
            turn_cap: config.turn_cap,
        },
        steps,
        expect: if expect_final { Some(state.record_expect(rules)) } else { None },
    };
    Ok(yaml::to_string(&rec))
}

#[derive(Serialize)]
struct Recorded<A, E> {
    title: String,
    why: String,
    game: String,
    config: RecordedConfig,
    steps: Vec<RecordedStep<A>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    expect: Option<E>,
}

#[derive(Serialize)]
struct RecordedConfig {
    players: u32,
    seed: u64,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    variants: Vec<String>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    interpretations: BTreeMap<String, String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    turn_cap: Option<u32>,
}

#[derive(Serialize)]
struct RecordedStep<A> {
    #[serde(skip_serializing_if = "Option::is_none")]
    by: Option<String>,
    #[serde(rename = "do")]
    act: A,
}
