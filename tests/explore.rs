//! `rulecheck explore` (issue #15, item 3): breadth-first from a scenario's
//! state, counts that add up, a planted fault found at the shortest depth
//! it can occur at and not before, chance outcomes enumerated with their
//! weights (on the test-only toy game), the state bound, saved paths that
//! fail `run` for their reason, and bad input as exit 2.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::support::rulecheck;
use crate::toy::{Action, Toy, ToyRules};
use rulecheck::catalog::SourceFile;
use rulecheck::check::explore::{Options, Report, Stop, explore};
use rulecheck::engine::{Check, Config, Game};
use rulecheck::scenario::{self, Vary};

const FIRST_ROUND: &str = "scenarios/dry-gulch/first-round-without-events.yaml";

/// `explore --format json` with `args`: the exit code and the report.
fn explore_json(args: &[&str]) -> (i32, Value) {
    let mut all = vec!["explore"];
    all.extend(args);
    all.extend(["--format", "json"]);
    let (code, out, err) = rulecheck(&all);
    let report = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}\n{err}"));
    (code, report)
}

fn count(v: &Value, key: &str) -> u64 {
    v[key].as_u64().unwrap_or_else(|| panic!("no count `{key}` in {v}"))
}

/// Totals are the sums of the layers, and distinct ≤ visited, terminal ≤ distinct.
fn assert_consistent(v: &Value) {
    let layers = v["layers"].as_array().unwrap();
    for key in ["visited", "distinct", "terminal"] {
        assert_eq!(count(v, key), layers.iter().map(|l| count(l, key)).sum::<u64>(), "{key}: {v}");
    }
    for l in layers.iter().chain([v]) {
        assert!(count(l, "distinct") <= count(l, "visited"), "{l}");
        assert!(count(l, "terminal") <= count(l, "distinct"), "{l}");
    }
    assert!(count(v, "distinct") > 0 && count(v, "visited") > 0, "{v}");
}

#[test]
fn depth_four_from_three_dry_gulch_scenarios_finishes_with_consistent_counts() {
    for name in ["first-round-without-events", "build-needs-permit", "worked-pharmacy-payment"] {
        let file = format!("scenarios/dry-gulch/{name}.yaml");
        let (code, v) = explore_json(&["--from", &file, "--depth", "4"]);
        assert_eq!(code, 0, "{v}");
        assert_eq!(v["stop"], "depth", "{v}");
        assert_eq!(count(&v, "depth_reached"), 4);
        assert_eq!(v["layers"].as_array().unwrap().len(), 5, "one layer per depth, the start's included");
        assert_consistent(&v);
        assert!(count(&v, "distinct") > 4, "{name}: a layer per depth holds at least one new state: {v}");
        assert!(v["states_per_second"].as_f64().unwrap() > 0.0, "{v}");
        assert!(v["violation"].is_null(), "{v}");
    }
    let (code, out, _) = rulecheck(&["explore", "--from", FIRST_ROUND, "--depth", "4"]);
    assert_eq!(code, 0);
    assert!(out.contains("states/s") && out.contains("all held"), "{out}");
}

/// A leaked chip needs a build, four actions from the start of the
/// scenario's fourth turn: found at depth 4 with `--depth 4` or more, not at all with 3.
#[test]
fn a_planted_dry_gulch_fault_is_found_at_the_shortest_depth() {
    let (code, v) = explore_json(&["--from", FIRST_ROUND, "--depth", "3", "--fault", "chip-leak"]);
    assert_eq!((code, &v["stop"]), (0, &Value::from("depth")), "{v}");
    for depth in ["4", "6"] {
        let (code, v) = explore_json(&["--from", FIRST_ROUND, "--depth", depth, "--fault", "chip-leak"]);
        assert_eq!(code, 1, "{v}");
        assert_eq!(v["stop"], "violation");
        let found = &v["violation"];
        assert_eq!(found["broken"], "chip-conservation");
        assert_eq!(count(found, "depth"), 4, "{found}");
        assert_eq!(found["path"].as_array().unwrap().len(), 4);
        assert_eq!(count(&v, "depth_reached"), 4, "the search stops in the layer of the violation");
        assert_eq!(found["reproduce"], format!("rulecheck explore --from {FIRST_ROUND} --depth 4 --fault chip-leak"));
    }
}

/// The printed command finds the same violation again.
#[test]
fn the_reproduce_command_finds_the_violation_again() {
    let (_, v) = explore_json(&["--from", FIRST_ROUND, "--depth", "5", "--fault", "permit-vanishes"]);
    let reproduce = v["violation"]["reproduce"].as_str().unwrap().to_string();
    let words: Vec<&str> = reproduce.split_whitespace().skip(2).collect();
    assert_eq!(reproduce.split_whitespace().nth(1), Some("explore"));
    let (code, again) = explore_json(&words);
    assert_eq!(code, 1);
    assert_eq!(again["violation"]["path"], v["violation"]["path"]);
    assert_eq!(again["violation"]["detail"], v["violation"]["detail"]);
}

#[test]
fn a_saved_path_fails_run_with_the_fault_and_passes_without() {
    let dir = std::env::temp_dir().join(format!("rulecheck-explore-save-{}", std::process::id()));
    let d = dir.display().to_string();
    let (code, v) = explore_json(&["--from", FIRST_ROUND, "--depth", "4", "--fault", "chip-leak", "--save", &d]);
    assert_eq!(code, 1);
    let saved = v["violation"]["saved"].as_str().expect("saved").to_string();
    let (code, out, err) = rulecheck(&["run", &saved, "--fault", "chip-leak"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("chip-conservation"), "{out}");
    let (code, out, err) = rulecheck(&["run", &saved]);
    assert_eq!(code, 0, "{out}{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A scenario with several configurations starts from the one named.
#[test]
fn a_named_configuration_is_the_start() {
    let file = "scenarios/dry-gulch/ace-protection-ace-and-card-or-one-card.yaml";
    let (code, first) = explore_json(&["--from", file, "--depth", "1"]);
    assert_eq!((code, &first["configuration"]), (0, &Value::from("ace-and-one-card")), "{first}");
    let (code, named) = explore_json(&["--from", file, "--depth", "1", "--config", "one-card-only"]);
    assert_eq!(code, 0, "{named}");
    assert_eq!(named["configuration"], "one-card-only");
    assert_eq!(named["config"]["interpretations"]["ace-protection"], "one-card-only");
}

#[test]
fn the_state_bound_stops_with_a_clear_message_and_exit_1() {
    let (code, v) = explore_json(&["--from", FIRST_ROUND, "--depth", "4", "--max-states", "10"]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["stop"], "state-bound");
    assert_eq!(count(&v, "distinct"), 10);
    assert_consistent(&v);
    let (code, out, _) = rulecheck(&["explore", "--from", FIRST_ROUND, "--depth", "4", "--max-states", "10"]);
    assert_eq!(code, 1);
    assert!(out.contains("INCOMPLETE: the bound of 10 distinct states was reached in depth"), "{out}");
    assert!(out.contains("raise --max-states"), "{out}");
}

#[test]
fn bad_input_is_exit_2_with_a_clear_message() {
    let missing = "scenarios/dry-gulch/no-such-scenario.yaml";
    let (code, _, err) = rulecheck(&["explore", "--from", missing, "--depth", "2"]);
    assert_eq!(code, 2);
    assert!(err.contains(&format!("{missing}:1:1: error: does not exist")), "{err}");
    for depth in ["four", "-1", "0"] {
        let (code, _, err) = rulecheck(&["explore", "--from", FIRST_ROUND, "--depth", depth]);
        assert_eq!(code, 2, "--depth {depth}: {err}");
        assert!(err.contains("--depth"), "{err}");
    }
    let (code, _, err) = rulecheck(&["explore", "--from", FIRST_ROUND, "--depth", "2", "--fault", "no-such-fault"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown fault `no-such-fault`; the game's faults: duplicate-on-take"), "{err}");
    let (code, _, err) = rulecheck(&["explore", "--from", FIRST_ROUND, "--depth", "2", "--config", "nope"]);
    assert_eq!(code, 2);
    assert!(err.contains("has no configuration `nope`; its configurations: default"), "{err}");
    // a scenario that fails reaches no state to start from
    let dir = std::env::temp_dir().join(format!("rulecheck-explore-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let failing = dir.join("failing.yaml");
    let text = std::fs::read_to_string(FIRST_ROUND).unwrap().replace("phase: events", "phase: build");
    std::fs::write(&failing, text).unwrap();
    let (code, _, err) = rulecheck(&["explore", "--from", &failing.display().to_string(), "--depth", "2"]);
    assert_eq!(code, 2);
    assert!(err.contains("fails, so it reaches no state to explore from: phase: expected build"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

// ----------------------------------------------------- the toy game: chance nodes

fn toy(players: u32, turn_cap: Option<u32>) -> Toy {
    let config = Config {
        game: "toy".into(),
        players,
        seed: 1,
        variants: BTreeSet::new(),
        interpretations: Default::default(),
        turn_cap,
    };
    Toy::new(&ToyRules::default(), &config).expect("a toy configuration")
}

fn run(start: &Toy, depth: usize) -> Report<Action> {
    explore::<Toy>(&ToyRules::default(), start, &Options { depth, max_states: 100_000 })
}

/// Both seats bid 3: only a six (weight 2 of 7) pays them.
fn both_bid_three(fault: Option<&str>) -> Toy {
    let mut t = toy(2, None);
    if let Some(f) = fault {
        assert!(t.inject_fault(f));
    }
    for seat in 0..2 {
        t.apply(&ToyRules::default(), &Action::Bid { seat, bid: 3 }).unwrap();
    }
    t
}

#[test]
fn chance_outcomes_are_enumerated_with_their_weights() {
    let r = run(&both_bid_three(None), 1);
    let layer = &r.layers[1];
    assert_eq!((layer.chance_nodes, layer.chance_outcomes, layer.visited), (1, 6, 6));
    // faces 1 to 5 pay nobody and reach one state; the six another
    assert_eq!(layer.distinct, 2);
    // a double score shows only on the six: found with its weight
    let r = run(&both_bid_three(Some("double-score")), 1);
    let found = r.violation.expect("the six scores twice");
    assert_eq!(found.failure.name(), "score-by-bid");
    assert_eq!(found.path.len(), 1);
    assert_eq!(found.path[0].action, Action::Roll(6));
    assert_eq!(found.path[0].chance, Some((2, 7)));
    assert!((found.chance_probability() - 2.0 / 7.0).abs() < 1e-12);
}

/// A double score needs two bids and a roll that pays: depth 3, first
/// with bids of 1 and a roll of 2 (breadth-first, legal order).
#[test]
fn a_toy_fault_that_needs_three_actions_is_found_at_depth_three() {
    let mut start = toy(2, None);
    assert!(start.inject_fault("double-score"));
    let r = run(&start, 2);
    assert_eq!((r.stop, r.depth_reached), (Stop::Depth, 2));
    assert!(r.violation.is_none());
    for depth in [3, 5] {
        let r = run(&start, depth);
        assert_eq!(r.stop, Stop::Violation);
        let found = r.violation.expect("found");
        let actions: Vec<Action> = found.path.iter().map(|s| s.action.clone()).collect();
        assert_eq!(
            actions,
            [Action::Bid { seat: 0, bid: 1 }, Action::Bid { seat: 1, bid: 1 }, Action::Roll(2)],
            "depth {depth}"
        );
        assert_eq!(found.path.iter().map(|s| s.chance).collect::<Vec<_>>(), [None, None, Some((1, 7))]);
    }
}

/// Bids commute: p1 then p2 and p2 then p1 reach one state.
#[test]
fn states_are_deduplicated_by_their_serialised_form() {
    let r = run(&toy(2, None), 2);
    assert_eq!((r.layers[1].visited, r.layers[1].distinct), (6, 6));
    assert_eq!((r.layers[2].visited, r.layers[2].distinct), (18, 9));
}

#[test]
fn the_contract_is_checked_on_every_new_state() {
    let mut leak = toy(3, None);
    assert!(leak.inject_fault("leak"));
    let found = run(&leak, 3).violation.expect("a leaked bid");
    assert_eq!((found.failure.name(), found.path.len()), ("simultaneous-hidden", 1));
    let mut zero = toy(2, None);
    assert!(zero.inject_fault("zero-weight"));
    let found = run(&zero, 3).violation.expect("a weightless face");
    // the legal list of the chance node two bids reach
    assert_eq!((found.failure.name(), found.path.len()), ("chance-weights", 2));
}

#[test]
fn a_game_that_ends_within_the_depth_is_explored_to_its_end() {
    let r = run(&toy(2, Some(1)), 10);
    assert_eq!((r.stop, r.depth_reached), (Stop::Exhausted, 3));
    assert!(r.terminal > 0);
    assert_eq!(r.terminal, r.layers[3].distinct, "one round, then every game is over");
}

/// From a scenario's state (`scenario::run_keeping_states`): a toy game two
/// rounds in, where some games end within three more actions.
#[test]
fn explore_starts_from_the_state_a_scenario_reaches() {
    let path = "tests/toy/scenarios/forced-roll.yaml".to_string();
    let text = std::fs::read_to_string(&path).unwrap();
    let rule_ids = BTreeSet::from(["toy/turn".to_string()]);
    let (_, runs) = scenario::run_keeping_states::<Toy>(
        &ToyRules::default(),
        &SourceFile { path, text },
        &Vary::default(),
        &rule_ids,
    )
    .unwrap();
    let (outcome, state) = &runs[0];
    assert!(outcome.passed);
    assert_eq!(state.scores, [4, 3]);
    let r = run(state, 3);
    assert_eq!(r.stop, Stop::Depth);
    assert!(r.terminal > 0 && r.terminal <= r.distinct && r.distinct <= r.visited, "{r:?}");
}
