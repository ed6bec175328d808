//! One configuration of a scenario played step by step: `Run` holds the
//! state, the replay the contract checks of each `do` step start from, the
//! transcript and the failures; each kind of step is one method.

use std::collections::BTreeSet;

use super::place_in;
use super::{ConfigRun, RandomPlay, RawConfig, RawStep, Scenario, Vary};
use crate::catalog::SourceFile;
use crate::catalog::diag::Diagnostic;
use crate::check::playout::{RandomChooser, pick};
use crate::check::suite::check_step;
use crate::engine::{Config, ConfigError, Forced, PathKey, Scripted, Seat, ToMove, Unapplied};
use crate::yaml::{Spanned, position};

/// Whether the steps go on after one: a failure that makes the rest
/// meaningless stops them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flow {
    Go,
    Stop,
}

type Step<G> = RawStep<<G as Scripted>::ActionSpec, <G as Scripted>::Expect>;

/// Plays one configuration of a scenario: its set-up, its steps in order,
/// then its expectations.
pub(super) fn run_config<G: Scripted>(
    rules: &G::Rules,
    file: &SourceFile,
    sc: &Scenario<G>,
    spanned_rc: &Spanned<RawConfig<G::Expect>>,
    vary: &Vary<'_>,
) -> Result<(ConfigRun, G), Diagnostic> {
    let rc = &spanned_rc.value;
    let rc_at = position(spanned_rc);
    let config = Config {
        game: sc.game.value.clone(),
        players: rc.players,
        seed: rc.seed,
        variants: rc.variants.iter().chain(&vary.variants).cloned().collect(),
        interpretations: rc.interpretations.iter().chain(&vary.readings).map(|(k, v)| (k.clone(), v.clone())).collect(),
        turn_cap: rc.turn_cap,
    };
    let name = rc.name.clone().unwrap_or_else(|| "default".to_string());
    let mut run = Run::<G>::start(rules, file, sc, &config, &name, rc_at, vary.fault)?;
    for (i, st) in sc.steps.iter().enumerate() {
        if run.step(i + 1, st)? == Flow::Stop {
            break;
        }
    }
    // each block with where it is written: the scenario's `expect:`, and a
    // configuration's (below the configuration's place)
    let expects = [
        sc.expect.as_ref().map(|e| (&e.value, position(e), None)),
        rc.expect.as_ref().map(|e| (e, rc_at, Some(PathKey::from("expect")))),
    ];
    let expected = run.finish(expects.into_iter().flatten())?;
    let Run { mut t, failures, state, .. } = run;
    let verdict = if failures.is_empty() { "PASS".to_string() } else { format!("FAIL\n  {}", failures.join("\n  ")) };
    t.push_str(&format!("\nexpectation blocks checked: {expected}\nverdict: {verdict}\n"));
    Ok((ConfigRun { name, config, passed: failures.is_empty(), failures, transcript: t }, state))
}

struct Run<'a, G: Scripted> {
    rules: &'a G::Rules,
    file: &'a SourceFile,
    sc: &'a Scenario<G>,
    state: G,
    /// The contract checks of each `do` step replay from here.
    replay: G,
    /// `do` steps applied so far (the salt of the contract checks).
    applied: usize,
    /// Chance nodes no step scripts are sampled from the configuration's seed.
    chance: RandomChooser,
    legal: Vec<G::Action>,
    weights: Vec<u32>,
    /// The seats whose observation the transcript shows after each action.
    observers: Vec<Seat>,
    /// The ids a named forced outcome can be: the catalog's entities.
    entity_ids: BTreeSet<String>,
    t: String,
    failures: Vec<String>,
    /// The configuration's name (what a step's `error_under` names).
    name: String,
}

impl<'a, G: Scripted> Run<'a, G> {
    /// The state after the configuration's set-up, the scenario's set-up
    /// overrides and the fault of the run, if any.
    fn start(
        rules: &'a G::Rules,
        file: &'a SourceFile,
        sc: &'a Scenario<G>,
        config: &Config,
        name: &str,
        rc_at: (u64, u64),
        fault: Option<&str>,
    ) -> Result<Self, Diagnostic> {
        let bad = |at: (u64, u64), m: String| Diagnostic::new(&file.path, at.0, at.1, m).with_snippet_from(&file.text);
        let mut state = G::new(rules, config)
            .map_err(|e| bad(place_in(file, rc_at, &config_path(&e)), format!("configuration `{name}`: {e}")))?;
        if let Some(s) = &sc.setup {
            state
                .apply_setup(rules, &s.value)
                .map_err(|e| bad(place_in(file, position(s), &e.path), format!("set-up: {e}")))?;
        }
        if let Some(f) = fault
            && !state.inject_fault(f)
        {
            return Err(bad(position(&sc.game), format!("unknown fault `{f}`")));
        }
        let players = state.players();
        let mut observers = Vec::new();
        for o in &sc.observe {
            observers.push(G::seat_of(&o.value, players).map_err(|e| bad(position(o), format!("observe: {e}")))?);
        }
        let t = format!("# {}\nconfiguration `{name}`: {config}\n\nset-up:\n{}", sc.title, state.describe_state(rules));
        let entity_ids = G::coverage_keys(rules)
            .iter()
            .map(|k| k.split_once(':').map_or(k.as_str(), |(_, id)| id).to_string())
            .collect();
        Ok(Run {
            rules,
            file,
            sc,
            replay: state.clone(),
            state,
            applied: 0,
            chance: RandomChooser::new(config.seed),
            legal: Vec::new(),
            weights: Vec::new(),
            observers,
            entity_ids,
            t,
            failures: Vec::new(),
            name: name.to_string(),
        })
    }

    fn bad(&self, at: (u64, u64), m: String) -> Diagnostic {
        Diagnostic::new(&self.file.path, at.0, at.1, m).with_snippet_from(&self.file.text)
    }

    /// Step `n`: the chance nodes and decisions in front of it, then the
    /// step itself.
    fn step(&mut self, n: usize, st: &Spanned<Step<G>>) -> Result<Flow, Diagnostic> {
        let at = position(st);
        let s = &st.value;
        if let Some(spec) = &s.act {
            self.sample_chance(n, at, spec)?;
        }
        self.auto_decide(n, at, s)?;
        if !self.failures.is_empty() {
            return Ok(Flow::Stop);
        }
        if let Some(spec) = &s.act {
            self.act(n, at, s, spec)
        } else if !s.force.is_empty() {
            self.force(n, at, &s.force)
        } else if let Some(rp) = &s.play_randomly {
            self.play_randomly(n, at, rp)
        } else if let Some(e) = &s.check {
            self.check(n, at, e)
        } else {
            Ok(Flow::Go)
        }
    }

    /// Samples the chance nodes before a `do` step, unless it names their
    /// outcome.
    fn sample_chance(&mut self, n: usize, at: (u64, u64), spec: &G::ActionSpec) -> Result<(), Diagnostic> {
        let rules = self.rules;
        while self.state.to_move() == ToMove::Chance {
            self.state.legal_actions(rules, &mut self.legal);
            if self.legal.is_empty() || G::action_from_spec(rules, spec).is_ok_and(|a| self.legal.contains(&a)) {
                break;
            }
            let a = self.legal.swap_remove(pick(&self.state, rules, &self.legal, &mut self.weights, &mut self.chance));
            let ev = self.state.apply(rules, &a).map_err(|e| self.bad(at, format!("step {n}: {e}")))?;
            let _ = self.replay.apply(rules, &a);
            self.t.push_str(&format!("\nchance (sampled): {}\n", G::describe_action(rules, &a)));
            self.events(&ev);
            self.observe();
        }
        Ok(())
    }

    /// Takes the first legal choice of each decision the engine waits for
    /// that the step does not answer (strict mode fails instead unless the
    /// step says `auto`).
    fn auto_decide(&mut self, n: usize, at: (u64, u64), s: &Step<G>) -> Result<(), Diagnostic> {
        let rules = self.rules;
        while let Some((seat, decision)) = self.state.pending_decision() {
            let answered =
                s.act.is_some() && s.by.as_deref().is_some_and(|b| G::seat_of(b, self.state.players()) == Ok(seat));
            if answered {
                break;
            }
            if self.sc.strict && !s.auto {
                self.failures.push(format!("step {n} (line {}): unscripted decision `{decision}` for p{} (strict mode; script it, or set `auto: true` on the step)", at.0, seat + 1));
                break;
            }
            self.state.legal_actions(rules, &mut self.legal);
            let Some(a) = self.legal.first().cloned() else {
                self.failures.push(no_legal_action(n, at, &format!("the decision `{decision}` for p{}", seat + 1)));
                break;
            };
            let ev = self.state.apply(rules, &a).map_err(|e| self.bad(at, format!("step {n}: {e}")))?;
            let _ = self.replay.apply(rules, &a);
            self.t.push_str(&format!(
                "\nauto-decided `{decision}` for P{}: {}\n",
                seat + 1,
                G::describe_action(rules, &a)
            ));
            self.events(&ev);
        }
        Ok(())
    }

    /// A `do` step: the action applied and checked, or rejected with the
    /// rule the step expects.
    fn act(&mut self, n: usize, at: (u64, u64), s: &Step<G>, spec: &G::ActionSpec) -> Result<Flow, Diagnostic> {
        let rules = self.rules;
        // the step's `do:` or `by:`
        let key = |k: &str| place_in(self.file, at, &[PathKey::from(k)]);
        let action = (G::action_from_spec(rules, spec))
            .map_err(|e| self.bad_below(at, e.under("do"), |e| format!("step {n}: {e}")))?;
        if let Some(b) = &s.by {
            let want =
                G::seat_of(b, self.state.players()).map_err(|e| self.bad(key("by"), format!("step {n}: {e}")))?;
            let on_move = match self.state.to_move() {
                ToMove::Seat(s) => s == want,
                ToMove::Simultaneous(seats) => seats.contains(want),
                ToMove::Chance | ToMove::Terminal => false,
            };
            if !on_move {
                let who = format!("step {n}: `{b}` is not on move; {} is", self.state.to_move());
                return Err(self.bad(key("by"), who));
            }
        }
        let text = G::describe_action(rules, &action);
        let who = match self.state.to_move() {
            ToMove::Chance => "chance:".to_string(),
            _ => self.state.actor(&action).map(|p| format!("P{}", p + 1)).unwrap_or_default(),
        };
        let before = self.state.clone();
        let snapshot = self.state.before();
        let line = at.0;
        // under this configuration only, or under every one
        let error = s.error.as_ref().or_else(|| s.error_under.get(&self.name));
        match (self.state.apply(rules, &action), error) {
            (Ok(ev), None) => {
                self.t.push_str(&format!("\nstep {n}: {who} {text}\n"));
                self.events(&ev);
                self.observe();
                if let Err(v) = self.state.check_invariants(rules, &snapshot, &action, &ev) {
                    return Ok(self.fail(format!("step {n} (line {line}): {v}")));
                }
                let salt = self.applied as u32;
                if let Some(f) = check_step::<G>(rules, &before, &action, &ev, &self.state, &mut self.replay, salt) {
                    return Ok(self.fail(format!("step {n} (line {line}): {f}")));
                }
                self.applied += 1;
            }
            (Ok(_), Some(rule)) => {
                return Ok(self
                    .fail(format!("step {n} (line {line}): expected rule error `{rule}`, but `{text}` was accepted")));
            }
            (Err(e), Some(rule)) if e.rule == *rule => {
                self.t.push_str(&format!("\nstep {n}: {who} {text}\n  - rejected as expected: {e}\n"));
                if self.state != before {
                    // the steps go on to the next one's decisions, which stop on it
                    self.failures.push(format!("step {n}: a rejected action changed the state"));
                }
            }
            (Err(e), Some(rule)) => {
                return Ok(self.fail(format!(
                    "step {n} (line {line}): expected rule error `{rule}`, got `{}`: {}",
                    e.rule, e.message
                )));
            }
            (Err(e), None) => return Err(self.bad(key("do"), format!("step {n}: illegal action `{text}`: {e}"))),
        }
        Ok(Flow::Go)
    }

    /// A `force` step: chance outcomes named by catalog id, for the state
    /// and its replay.
    fn force(&mut self, n: usize, at: (u64, u64), force: &[String]) -> Result<Flow, Diagnostic> {
        for (i, f) in force.iter().enumerate() {
            if !self.entity_ids.contains(f) {
                return Err(self.bad(
                    place_in(self.file, at, &[PathKey::from("force"), PathKey::Item(i)]),
                    format!(
                        "step {n}: `{f}` is not an id of the {} catalog; `force` names chance outcomes (cards) by id, never by position",
                        self.sc.game.value
                    ),
                ));
            }
            self.state.force(Forced(f.clone()));
            self.replay.force(Forced(f.clone()));
        }
        self.t.push_str(&format!("\nstep {n}: force [{}]\n", force.join(", ")));
        Ok(Flow::Go)
    }

    /// A `play_randomly` step: seeded random legal actions up to a count or
    /// the end of the game.
    fn play_randomly(&mut self, n: usize, at: (u64, u64), rp: &RandomPlay) -> Result<Flow, Diagnostic> {
        let rules = self.rules;
        let mut chooser = RandomChooser::new(rp.seed);
        let mut k = 0;
        while k < rp.actions && !self.state.is_over() {
            self.state.legal_actions(rules, &mut self.legal);
            if self.legal.is_empty() {
                self.failures.push(no_legal_action(n, at, "random play"));
                break;
            }
            let a = self.legal.swap_remove(pick(&self.state, rules, &self.legal, &mut self.weights, &mut chooser));
            self.state
                .apply(rules, &a)
                .map_err(|e| self.bad(at, format!("step {n}: a random legal action was rejected: {e}")))?;
            let _ = self.replay.apply(rules, &a);
            k += 1;
        }
        self.t.push_str(&format!(
            "\nstep {n}: played {k} random actions (seed {})\n{}",
            rp.seed,
            self.state.describe_state(rules)
        ));
        Ok(if self.failures.is_empty() { Flow::Go } else { Flow::Stop })
    }

    /// A `check` step: expectations mid-way, each difference a failure.
    fn check(&mut self, n: usize, at: (u64, u64), e: &G::Expect) -> Result<Flow, Diagnostic> {
        let mism = (self.state.check_expect(self.rules, e))
            .map_err(|m| self.bad_below(at, m.under("check"), |m| format!("step {n}: {m}")))?;
        self.t.push_str(&format!("\nstep {n}: check ({} fact(s) differ)\n", mism.len()));
        for (fact, want, got) in mism {
            self.failures.push(format!("step {n} (line {}): {fact}: expected {want}, actual {got}", at.0));
        }
        Ok(Flow::Go)
    }

    /// After the steps: a decision left waiting (strict mode), forced
    /// outcomes left over or misfit, the final state and the expectation
    /// blocks; returns how many blocks were checked.
    fn finish<'e>(
        &mut self,
        expects: impl Iterator<Item = (&'e G::Expect, (u64, u64), Option<PathKey>)>,
    ) -> Result<usize, Diagnostic>
    where
        G::Expect: 'e,
    {
        if self.failures.is_empty()
            && self.sc.strict
            && let Some((seat, d)) = self.state.pending_decision()
        {
            self.failures.push(format!(
                "the scenario ends while the engine waits for decision `{d}` from p{} (strict mode)",
                seat + 1
            ));
        }
        let (misfits, unused) = self.state.forced_leftovers();
        for m in misfits {
            self.failures.push(format!("the forced chance outcome `{}` did not fit the chance event it met", m.0));
        }
        if unused > 0 {
            self.failures.push(format!("{unused} forced chance outcome(s) were never used"));
        }
        self.t.push_str(&format!("\nfinal state:\n{}", self.state.describe_state(self.rules)));
        let mut expected = 0;
        for (e, at, under) in expects {
            let mism = (self.state.check_expect(self.rules, e)).map_err(|m| {
                let m = under.into_iter().fold(m, Unapplied::under);
                self.bad_below(at, m, |m| format!("expect: {m}"))
            })?;
            expected += 1;
            for (fact, want, got) in mism {
                self.failures.push(format!("{fact}: expected {want}, actual {got}"));
            }
        }
        Ok(expected)
    }

    /// Bad input at what `e`'s path names below the value written at `at`,
    /// worded by `say`.
    fn bad_below(&self, at: (u64, u64), e: Unapplied, say: impl FnOnce(&Unapplied) -> String) -> Diagnostic {
        self.bad(place_in(self.file, at, &e.path), say(&e))
    }

    fn fail(&mut self, failure: String) -> Flow {
        self.failures.push(failure);
        Flow::Stop
    }

    fn events(&mut self, ev: &[G::Event]) {
        for e in ev {
            self.t.push_str(&format!("  - {}\n", G::describe_event(self.rules, e)));
        }
    }

    /// What each observed seat sees, after an action.
    fn observe(&mut self) {
        for &seat in &self.observers {
            self.t.push_str(&format!("  P{} sees:\n", seat + 1));
            for line in self.state.observation(self.rules, seat).lines() {
                self.t.push_str(&format!("    {line}\n"));
            }
        }
    }
}

/// The failure of a step that needs a legal action when the engine lists
/// none although the game is not over (the contract says that never happens).
fn no_legal_action(n: usize, at: (u64, u64), what: &str) -> String {
    format!(
        "step {n} (line {}): {what} needs a legal action, but the engine lists no legal action and the game is not over",
        at.0
    )
}

/// What in a scenario's configuration a `ConfigError` is about: the
/// variant, interpretation or player count it names (empty: the whole
/// configuration).
fn config_path(e: &ConfigError) -> Vec<PathKey> {
    match e {
        ConfigError::Players { .. } => vec![PathKey::from("players")],
        ConfigError::UnknownVariant(v) => vec![PathKey::from("variants"), PathKey::Word(v.clone())],
        ConfigError::UnknownInterpretation(i) | ConfigError::UnknownOption { interpretation: i, .. } => {
            vec![PathKey::from("interpretations"), PathKey::from(i)]
        }
        _ => Vec::new(),
    }
}
