//! Scenario files: given (configuration and set-up overrides) / when (steps)
//! / then (expectations), run against any `Scripted` game, each producing a
//! readable transcript.
//!
//! A step is one of: `do:` an action (with `by:` the seat that must be on
//! move, and optionally `error:` the rule id the action must be rejected
//! with), `force:` chance outcomes, `play_randomly:` a seeded random stretch,
//! or `check:` expectations mid-way. Strict mode (the default) fails a
//! scenario when the engine waits for a decision no step answers.

mod run;

use std::collections::BTreeMap;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use self::run::run_config;
use crate::catalog::SourceFile;
use crate::catalog::common::RawCitation;
use crate::catalog::diag::Diagnostic;
use crate::catalog::folder::{closest, did_you_mean};
use crate::engine::{Config, PathKey, Scripted, seat_name};
use crate::games::{AnyRules, with_game};
use crate::lang::{Node, Value};
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
    /// Configuration name → the rule id the action must be rejected with
    /// under that configuration; under the others it must be accepted (a
    /// reading that makes an action illegal, told apart in one file).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub error_under: BTreeMap<String, String>,
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
    /// Where the scenario stopped being playable (`file:line:column:
    /// message`), for a bundled scenario the user's rules make unplayable
    /// (`run --rules` lists it among those that part from the bundled
    /// rules); such a run has no configurations.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unplayable: Option<String>,
}

impl ScenarioRun {
    /// A bundled scenario the user's rules make unplayable, at `d`.
    pub fn unplayable(d: &Diagnostic, game: &str) -> ScenarioRun {
        let at = d.located();
        ScenarioRun {
            file: d.file.clone(),
            title: String::new(),
            game: game.into(),
            runs: Vec::new(),
            unplayable: Some(at),
        }
    }
    pub fn passed(&self) -> bool {
        self.unplayable.is_none() && self.runs.iter().all(|r| r.passed)
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
    let head: Head = yaml::from_str_as(&file.path, &file.text, "scenario file")
        .map_err(|d| misspelt_game(file).unwrap_or(d).with_snippet_from(&file.text))?;
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

/// A scenario without `game:` whose top level has a key a few letters
/// from it (`gmae`, `games`): that key, misspelt (the parse says only
/// that `game` is missing, at the end of the file's mapping).
fn misspelt_game(file: &SourceFile) -> Option<Diagnostic> {
    let tree: Node = yaml::from_str_as(&file.path, &file.text, "scenario file").ok()?;
    let Value::Map(keys) = &tree.value else { return None };
    if keys.iter().any(|(k, _)| k.text == "game") {
        return None;
    }
    let (word, _) = keys.iter().find(|(k, _)| closest(["game"].into_iter(), &k.text).is_some())?;
    let m = format!("unknown key `{}`; did you mean `game`? (a scenario names its game)", word.text);
    Some(Diagnostic::new(&file.path, word.at.0, word.at.1, m))
}

/// Where in `file` what `path` names below the value that starts at
/// `from` stands (the file read again as `lang::Node`s: `Node::place_of`);
/// `from` itself for an empty path, or a file that reads otherwise.
pub(crate) fn place_in(file: &SourceFile, from: (u64, u64), path: &[PathKey]) -> (u64, u64) {
    if path.is_empty() {
        return from;
    }
    let tree: Option<Node> = yaml::from_str_as(&file.path, &file.text, "scenario file").ok();
    tree.as_ref().and_then(|t| t.starting_at(from)).map_or(from, |n| n.place_of(path))
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
        if (s.by.is_some() || s.error.is_some() || !s.error_under.is_empty()) && s.act.is_none() {
            return Err(bad(position(st), "`by`, `error` and `error_under` belong to a `do` step".into()));
        }
        if s.error.is_some() && !s.error_under.is_empty() {
            return Err(bad(position(st), "give `error` (every configuration) or `error_under`, not both".into()));
        }
        let names: Vec<&str> = sc.configs.iter().filter_map(|c| c.value.name.as_deref()).collect();
        if let Some(unknown) = s.error_under.keys().find(|k| !names.contains(&k.as_str())) {
            let known = if names.is_empty() { "none is named".to_string() } else { names.join(", ") };
            return Err(bad(
                place_in(file, position(st), &[PathKey::from("error_under"), PathKey::from(unknown)]),
                format!(
                    "`error_under` names configuration `{unknown}`, which the scenario does not have (its named \
                     `configs`: {known}){}",
                    did_you_mean(names.iter().copied(), unknown)
                ),
            ));
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
    Ok(ScenarioRun {
        file: file.path.clone(),
        title: sc.title.clone(),
        game: sc.game.value.clone(),
        runs,
        unplayable: None,
    })
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
        // each rule a step expects, with where it is written in the step
        let under = |k: &String| vec![PathKey::from("error_under"), PathKey::from(k)];
        let expected = (st.value.error.iter().map(|r| (r, vec![PathKey::from("error")])))
            .chain(st.value.error_under.iter().map(|(k, r)| (r, under(k))));
        if let Some((rule, path)) = expected.into_iter().find(|(r, _)| !rule_ids.contains(*r)) {
            let known: Vec<&str> = rule_ids.iter().map(String::as_str).collect();
            let at = place_in(file, position(st), &path);
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
        let by = state.actor(a).map(seat_name);
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
