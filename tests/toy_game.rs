//! The state API's simultaneous and chance nodes, on a test-only game
//! (`tests/toy`): the shared contract suite passes on it, catches each of
//! its planted faults, samples chance by weight, and scenarios script
//! chance by outcome name.

use std::collections::BTreeSet;

use crate::toy::race::Race;
use crate::toy::{Toy, ToyRules};
use rulecheck::catalog::SourceFile;
use rulecheck::check::playout::RandomChooser;
use rulecheck::check::suite::{Checks, run_game};
use rulecheck::engine::{Config, Harnessed};
use rulecheck::scenario::{self, Vary};

fn config(players: u32, seed: u64) -> Config {
    Config {
        game: "toy".into(),
        players,
        seed,
        variants: BTreeSet::new(),
        interpretations: Default::default(),
        turn_cap: None,
    }
}

/// The first failure (check name) of `games` checked games of `G` (the
/// seed picks the player count among `counts`), if any.
fn first_failure_of<G: Harnessed>(
    rules: &G::Rules,
    game: &str,
    counts: &[u32],
    fault: Option<&str>,
    games: u64,
) -> Option<String> {
    (0..games).find_map(|seed| {
        let players = counts[seed as usize % counts.len()];
        let c = Config { game: game.into(), ..config(players, seed) };
        let run = run_game::<G>(rules, &c, &mut RandomChooser::new(seed), Checks::ALL, fault, 10_000, &mut [])
            .expect("valid configuration");
        run.failure.map(|f| f.name().to_string())
    })
}

/// The first failure of `games` checked games of bid-and-roll.
fn first_failure(fault: Option<&str>, games: u64) -> Option<String> {
    first_failure_of::<Toy>(&ToyRules::default(), "toy", &[2, 3, 4], fault, games)
}

#[test]
fn contract_holds_on_simultaneous_and_chance_nodes() {
    assert_eq!(first_failure(None, 300), None);
}

#[test]
fn contract_catches_a_leaked_simultaneous_choice() {
    assert_eq!(first_failure(Some("leak"), 50).as_deref(), Some("simultaneous-hidden"));
}

#[test]
fn contract_catches_a_chance_outcome_without_weight() {
    assert_eq!(first_failure(Some("zero-weight"), 50).as_deref(), Some("chance-weights"));
}

/// The first failure of `games` checked games of race to ten.
fn first_race_failure(fault: Option<&str>, games: u64) -> Option<String> {
    first_failure_of::<Race>(&(), "race", &[2, 3], fault, games)
}

#[test]
fn contract_holds_on_a_seat_node_with_a_play_policy() {
    assert_eq!(first_race_failure(None, 100), None);
}

#[test]
fn contract_catches_a_play_policy_that_makes_a_legal_action_unreachable() {
    assert_eq!(first_race_failure(Some("zero-play-weight"), 20).as_deref(), Some("play-weights"));
    assert_eq!(first_race_failure(Some("short-play-weights"), 20).as_deref(), Some("play-weights"));
    assert_eq!(first_race_failure(Some("double-step"), 20).as_deref(), Some("count-by-step"));
}

#[test]
fn invariant_catches_its_fault() {
    assert_eq!(first_failure(Some("double-score"), 50).as_deref(), Some("score-by-bid"));
}

#[test]
fn chance_is_sampled_by_weight() {
    let rules = ToyRules::default();
    let mut faces = vec![0u64; 6];
    for seed in 0..400 {
        run_game::<Toy>(
            &rules,
            &config(2, seed),
            &mut RandomChooser::new(seed),
            Checks::NONE,
            None,
            10_000,
            &mut faces,
        )
        .expect("valid configuration");
    }
    let others = faces[..5].iter().sum::<u64>() as f64 / 5.0;
    let six = faces[5] as f64;
    // the six weighs 2, every other face 1
    assert!(six > 1.6 * others && six < 2.4 * others, "faces rolled: {faces:?}");
}

#[test]
fn outcomes_are_rankings_with_reasons() {
    let rules = ToyRules::default();
    let mut reasons = BTreeSet::new();
    for seed in 0..300 {
        let run = run_game::<Toy>(
            &rules,
            &config(4, seed),
            &mut RandomChooser::new(seed),
            Checks::NONE,
            None,
            10_000,
            &mut [],
        )
        .expect("valid configuration");
        let o = run.outcome.expect("every game ends");
        assert_eq!(o.standings.len(), 4);
        assert!(o.standings.iter().any(|s| s.place == 1));
        reasons.insert(o.reason);
    }
    // games end on a clear lead and on ties the risk breaks
    assert!(reasons.len() >= 2, "reasons seen: {reasons:?}");
}

fn run(name: &str) -> scenario::ScenarioRun {
    let path = format!("tests/toy/scenarios/{name}");
    let text = std::fs::read_to_string(&path).expect("scenario file");
    let rule_ids = BTreeSet::from(["toy/turn".to_string()]);
    scenario::run_typed::<Toy>(&ToyRules::default(), &SourceFile { path, text }, &Vary::default(), &rule_ids)
        .unwrap_or_else(|d| panic!("{d}"))
}

#[test]
fn scenarios_name_chance_outcomes_and_show_observations() {
    for name in ["forced-roll.yaml", "sampled-roll.yaml"] {
        let r = run(name);
        assert!(r.passed(), "{}", r.transcript());
        insta::assert_snapshot!(format!("toy-{name}"), r.transcript());
    }
}

#[test]
fn a_seat_that_already_chose_is_not_on_move() {
    let path = "tests/toy/scenarios/forced-roll.yaml".to_string();
    let text = std::fs::read_to_string(&path)
        .expect("scenario file")
        .replace("- {by: p2, do: {seat: p2, bid: 2}}", "- {by: p1, do: {seat: p1, bid: 2}}");
    let rule_ids = BTreeSet::from(["toy/turn".to_string()]);
    let err = scenario::run_typed::<Toy>(&ToyRules::default(), &SourceFile { path, text }, &Vary::default(), &rule_ids)
        .expect_err("p1 has bid already");
    assert!(err.to_string().contains("`p1` is not on move; p2 (choosing at once) is"), "{err}");
}

/// A contract failure found by `fuzz` (here a leaked simultaneous choice)
/// becomes a scenario that fails `run` for the same reason while the fault
/// is in, and passes once it is out.
#[test]
fn a_saved_contract_counterexample_fails_run_for_its_reason() {
    use rulecheck::check::fuzz::{FuzzOptions, fuzz, replay};
    let rules = ToyRules::default();
    let opts = FuzzOptions {
        games: 20,
        seed: 1,
        jobs: 1,
        checks: Checks::ALL,
        fault: Some("leak".into()),
        time_limit: None,
        max_actions: 10_000,
        shard: None,
    };
    let base = config(3, 0);
    let s = fuzz::<Toy>(&rules, &base, &opts, &Default::default()).expect("fuzz runs");
    let f = &s.failures[0];
    assert_eq!(f.broken, "simultaneous-hidden");
    let seeded = Config { seed: f.seed, ..base };
    let run = replay::<Toy>(&rules, &seeded, Checks::NONE, None, &f.choices);
    let text = scenario::record::<Toy>(&rules, &seeded, &run.actions, "leak", "found by fuzz", false).unwrap();
    let file = SourceFile { path: "ce.yaml".into(), text };
    let rule_ids = BTreeSet::from(["toy/turn".to_string()]);
    let with = |fault| Vary { fault, ..Vary::default() };
    let failing = scenario::run_typed::<Toy>(&rules, &file, &with(Some("leak")), &rule_ids).unwrap();
    assert!(failing.runs[0].failures.iter().any(|m| m.contains("simultaneous-hidden")), "{:?}", failing.runs[0]);
    let fixed = scenario::run_typed::<Toy>(&rules, &file, &with(None), &rule_ids).unwrap();
    assert!(fixed.passed(), "{}", fixed.transcript());
}
