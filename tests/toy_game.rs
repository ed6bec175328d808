//! The state API's simultaneous and chance nodes, on a test-only game
//! (`tests/toy`): the shared contract suite passes on it, catches each of
//! its planted faults (an illegal action accepted and a rejected one that
//! changed the state among them, caught by the shared malformed actions of
//! `check::malformed`), samples chance by weight, and scenarios script
//! chance by outcome name.

use std::collections::BTreeSet;

use crate::toy::race::Race;
use crate::toy::{Action, Toy, ToyRules};
use rulecheck::catalog::SourceFile;
use rulecheck::check::malformed::malformed;
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

#[test]
fn contract_catches_an_action_not_in_the_legal_list_accepted() {
    assert_eq!(first_failure(Some("any-bid"), 50).as_deref(), Some("illegal-rejected"));
}

#[test]
fn contract_catches_a_rejected_action_that_changed_the_state() {
    assert_eq!(first_failure(Some("dirty-reject"), 50).as_deref(), Some("illegal-unchanged"));
}

/// The malformed action the suite tries: read back from the action's JSON
/// perturbed, never the action itself nor a legal one, the same for the
/// same salt; a number moves on or back, two fields of a type swap, a
/// variant becomes another with the same payload or a unit variant.
#[test]
fn malformed_actions_are_other_illegal_actions_picked_by_salt() {
    let bid = Action::Bid { seat: 1, bid: 2 };
    let legal: Vec<Action> = (1..=3).map(|bid| Action::Bid { seat: 1, bid }).collect();
    let made: Vec<Action> = (0..60).map(|salt| malformed(&bid, salt, &legal).expect("a perturbation")).collect();
    assert!(made.iter().all(|a| *a != bid && !legal.contains(a)), "{made:?}");
    assert_eq!(made, (0..60).map(|salt| malformed(&bid, salt, &legal).unwrap()).collect::<Vec<_>>());
    assert!(made.iter().any(|a| matches!(a, Action::Bid { seat: 1, bid } if *bid > 3)), "{made:?}");
    assert!(made.iter().any(|a| matches!(a, Action::Bid { seat, bid: 2 } if *seat > 1)), "{made:?}");
    assert!(made.contains(&Action::Bid { seat: 2, bid: 1 }), "{made:?}");
    assert!(made.contains(&Action::Bid { seat: 0, bid: 2 }), "{made:?}");
    // a die of 250 cannot move 100 on as a `u8`: the next perturbation is taken
    assert!((0..20).all(|salt| malformed(&Action::Roll(250), salt, &[]).is_some_and(|a| a != Action::Roll(250))));

    #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
    #[serde(rename_all = "kebab-case")]
    enum Move {
        Pass,
        EndTurn,
        Take(u8),
        Give(u8),
    }
    let of = |a: Move| -> Vec<Move> { (0..20).filter_map(|salt| malformed(&a, salt, &[])).collect() };
    assert!(of(Move::Pass).iter().all(|a| *a == Move::EndTurn));
    assert!(!of(Move::Pass).is_empty());
    let take = of(Move::Take(3));
    for a in [Move::Give(3), Move::Pass, Move::EndTurn, Move::Take(4)] {
        assert!(take.contains(&a), "{a:?} not among {take:?}");
    }
    assert!(take.iter().any(|a| matches!(a, Move::Take(n) if *n > 100)), "{take:?}");
    assert!(take.iter().any(|a| matches!(a, Move::Take(n) if *n < 3)), "{take:?}");
    // nothing to perturb
    assert_eq!(malformed(&"pass".to_string(), 0, &[]), None);
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
