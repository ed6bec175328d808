//! `rulecheck find` and conditions over states (issue #15, items 1 and 2):
//! the condition language's errors at their column, distances that are 0
//! exactly where a condition holds, best-first search and its proof of
//! unreachability on the test-only toy game, and on Dry Gulch a witness
//! whose saved scenario passes `run` and pins the state, a budget that
//! runs out with its counts and exit 1, and one seed giving one trace.

use serde_json::Value;

use crate::support::rulecheck;
use crate::toy::{Event, Toy, ToyRules};
use rulecheck::check::find::{FindOptions, Method, Stop, find, reaches};
use rulecheck::check::query::{At, compile, kinds_of};
use rulecheck::engine::{Config, Game, PLAYER, Query, Sort, Term, variant_name};

const TERMS: &[Term] = &[
    Term { name: "score", args: &[PLAYER], sort: Sort::Num, about: "points" },
    Term { name: "risk", args: &[PLAYER], sort: Sort::Num, about: "risk" },
    Term { name: "leads", args: &[PLAYER], sort: Sort::Bool, about: "strictly ahead" },
    Term { name: "rounds", args: &[], sort: Sort::Num, about: "rounds played" },
];
const EVENTS: &[&str] = &["revealed", "rolled", "scored"];

impl Query for Toy {
    fn terms() -> &'static [Term] {
        TERMS
    }
    fn kinds(_: &ToyRules) -> Vec<(&'static str, Vec<String>)> {
        vec![("face", (1..=6).map(|f| f.to_string()).collect())]
    }
    fn value(&self, _: &ToyRules, term: usize, a: &[usize]) -> i64 {
        match term {
            0 => self.scores[a[0]],
            1 => self.risk[a[0]],
            2 => i64::from((0..self.players).all(|s| s == a[0] || self.scores[s] < self.scores[a[0]])),
            _ => i64::from(self.rounds),
        }
    }
    fn event_kinds(_: &ToyRules) -> Vec<String> {
        EVENTS.iter().map(|e| e.to_string()).collect()
    }
    fn kinds_of_event(_: &ToyRules, e: &Event, out: &mut Vec<usize>) {
        out.extend(EVENTS.iter().position(|k| *k == variant_name(e)));
    }
}

fn toy(players: u32, cap: u32) -> (ToyRules, Toy) {
    let rules = ToyRules::default();
    let config = Config { turn_cap: Some(cap), ..Config::new("toy", players, 1) };
    let start = Toy::new(&rules, &config).unwrap();
    (rules, start)
}

fn opts(games: u64) -> FindOptions {
    FindOptions { seed: 1, games, max_actions: 1000, max_states: 100_000, time_limit: None, jobs: 1 }
}

fn column(text: &str) -> usize {
    let (rules, start) = toy(2, 3);
    compile::<Toy>(&rules, start.players(), text).map(|_| 0).unwrap_or_else(|e| e.column)
}

#[test]
fn bad_conditions_name_their_column() {
    let (rules, start) = toy(2, 3);
    let cases = [
        ("score(p1) >= 3 and scroe(p2) == 0", 20, "unknown name `scroe`; did you mean `score`?"),
        ("score(p3) >= 1", 7, "unknown player `p3`"),
        ("leads(p1) >= 1", 1, "a condition is not a number"),
        ("any player: score(player)", 13, "a number is not a condition"),
        ("score(p1) >=", 13, "expected a number"),
        ("score(p1) >= 1)", 15, "expected `and`, `or` or the end"),
        ("any building: leads(building)", 5, "unknown kind `building`"),
        ("any face: leads(face)", 17, "`face` is a face, but a player is wanted"),
        ("happened(fire)", 10, "unknown event `fire`"),
        ("rounds(p1) == 1", 8, "`rounds` takes 0 argument(s)"),
        ("score(p1) # 2", 11, "unexpected character `#`"),
    ];
    for (text, col, message) in cases {
        let e = compile::<Toy>(&rules, start.players(), text).expect_err(text);
        assert_eq!(e.column, col, "{text}: {e}");
        assert!(e.message.contains(message), "{text}: {e}");
    }
    assert_eq!(column("all player: score(player) >= 0 and not leads(player) or rounds == 0"), 0);
    assert_eq!(column("count(x in player: score(x) + risk(x) > 2) - 1 == 0 and happened(rolled)"), 0);
}

#[test]
fn distance_is_zero_exactly_where_the_condition_holds() {
    let (rules, mut state) = toy(2, 3);
    state.scores = vec![2, 5];
    let at = |s: &Toy, text: &str, happened: &[usize]| {
        let c = compile::<Toy>(&rules, 2, text).unwrap();
        c.distance(&At { rules: &rules, state: s, happened })
    };
    assert_eq!(at(&state, "score(p1) >= 6", &[]), 4);
    assert_eq!(at(&state, "score(p1) > 6", &[]), 5);
    assert_eq!(at(&state, "score(p2) <= 3", &[]), 2);
    assert_eq!(at(&state, "score(p1) == score(p2)", &[]), 3);
    assert_eq!(at(&state, "score(p1) != 2", &[]), 1);
    assert_eq!(at(&state, "any player: score(player) >= 6", &[]), 1);
    assert_eq!(at(&state, "all player: score(player) >= 6", &[]), 5);
    assert_eq!(at(&state, "score(p1) >= 3 or score(p2) >= 7", &[]), 1);
    assert_eq!(at(&state, "count(player: score(player) >= 2) == 2", &[]), 0);
    assert_eq!(at(&state, "leads(p2) and not leads(p1)", &[]), 0);
    assert_eq!(at(&state, "happened(rolled)", &[]), 1);
    assert_eq!(at(&state, "happened(rolled)", &[1]), 0);
    let c = compile::<Toy>(&rules, 2, "happened(scored)").unwrap();
    let kinds = kinds_of::<Toy>(&rules, &[Event::Rolled(6), Event::Scored { seat: 0, points: 3 }]);
    assert!(c.holds(&At { rules: &rules, state: &state, happened: &kinds }));
}

#[test]
fn best_first_finds_a_witness_that_replays() {
    let (rules, start) = toy(2, 3);
    let cond = compile::<Toy>(&rules, 2, "score(p1) >= 3 and happened(scored)").unwrap();
    // no random games: the best-first search alone
    let r = find::<Toy>(&rules, &start, &cond, &opts(0));
    assert_eq!(r.stop, Stop::Found);
    let w = r.witness.expect("a witness");
    assert_eq!(w.method, Method::BestFirst);
    // greedy by distance, not shortest: at least two bids and a roll, at most three rounds
    assert!((3..=9).contains(&w.actions.len()), "{:?}", w.actions);
    assert_eq!(reaches::<Toy>(&rules, &start, &cond, &w.choices), Some(w.actions.len()));
    assert!(r.expanded > 0 && r.distinct > 1);
}

#[test]
fn random_restarts_find_and_shrink() {
    let (rules, start) = toy(3, 20);
    let cond = compile::<Toy>(&rules, 3, "all player: score(player) >= 2").unwrap();
    let r = find::<Toy>(&rules, &start, &cond, &opts(50));
    let w = r.witness.expect("a witness");
    assert!(matches!(w.method, Method::Random(_)), "{:?}", w.method);
    assert!(w.actions.len() <= w.actions_before_shrinking);
    assert_eq!(reaches::<Toy>(&rules, &start, &cond, &w.choices), Some(w.actions.len()));
    // same seed, same witness, on any number of threads
    let again = find::<Toy>(&rules, &start, &cond, &FindOptions { jobs: 3, ..opts(50) });
    assert_eq!(again.witness.map(|w| w.choices), Some(w.choices));
}

#[test]
fn an_unreachable_condition_is_proven_so() {
    let (rules, start) = toy(2, 2);
    // two rounds score at most 3 + 3
    let cond = compile::<Toy>(&rules, 2, "score(p1) >= 7").unwrap();
    let r = find::<Toy>(&rules, &start, &cond, &opts(5));
    assert_eq!(r.stop, Stop::Exhausted);
    assert!(r.witness.is_none());
    assert_eq!(r.closest, 1);
    assert_eq!(r.games, 5);
    // the same search with too small a bound does not claim a proof
    let bounded = find::<Toy>(&rules, &start, &cond, &FindOptions { max_states: 10, ..opts(0) });
    assert_eq!(bounded.stop, Stop::StateBound);
}

/// `find --format json` with `args`: the exit code and the report.
fn find_json(args: &[&str]) -> (i32, Value) {
    let mut all = vec!["find", "--format", "json"];
    all.extend(args);
    let (code, out, err) = rulecheck(&all);
    let v = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}\n{err}"));
    (code, v)
}

const DAMAGED_TWO: &str = "count(building: damaged(building)) >= 2";

#[test]
fn a_dry_gulch_witness_is_saved_as_a_passing_scenario() {
    let dir = std::env::temp_dir().join(format!("rulecheck-find-save-{}", std::process::id()));
    let d = dir.display().to_string();
    let (code, v) = find_json(&["--game", "dry-gulch", "--until", DAMAGED_TWO, "--jobs", "1", "--save", &d]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["stop"], "found");
    let saved = v["saved"].as_str().expect("saved").to_string();
    let text = std::fs::read_to_string(&saved).unwrap();
    assert!(text.contains("\nexpect:\n"), "{text}");
    let (code, out, err) = rulecheck(&["run", &saved]);
    assert_eq!(code, 0, "{out}{err}");
    // the pin holds: a scenario whose last action is dropped no longer passes
    let cut = text
        .rsplit_once("\n- by:")
        .map(|(head, tail)| format!("{head}\nexpect:{}", tail.split_once("\nexpect:").unwrap().1));
    std::fs::write(&saved, cut.unwrap()).unwrap();
    let (code, out, _) = rulecheck(&["run", &saved]);
    assert_eq!(code, 1, "{out}");
    std::fs::remove_dir_all(&dir).ok();
}

/// A scenario whose step is refused under one configuration only
/// (`error_under`); the path found from the other is saved with that
/// configuration alone, so the step keeps its refusal as `error:` and the
/// saved file passes `run`; from the configuration that accepts it, the
/// step is saved without one.
#[test]
fn a_path_from_a_configuration_that_refuses_a_step_saves_the_refusal() {
    let dir = std::env::temp_dir().join(format!("rulecheck-find-refused-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let from = dir.join("self-disaster.yaml");
    std::fs::write(
        &from,
        "title: A disaster against one's own building, both readings\nwhy: refused under forbidden\n\
         game: dry-gulch\nconfigs:\n  - {name: allowed, players: 3}\n  - name: forbidden\n    players: 3\n    \
         interpretations: {self-disaster: forbidden}\nsetup:\n  turn: {seat: p1, phase: build, number: 4}\n  \
         seats: {p1: {hand: {vandalism: 1}}}\n  buildings:\n    - {building: saddlery, plot: nw-4, owner: p1}\n\
         steps:\n  - by: p1\n    do: {play-disaster: {card: vandalism, plot: nw-4}}\n    \
         error_under: {forbidden: dry-gulch/disaster.play}\n",
    )
    .unwrap();
    for (config, refused) in [("forbidden", true), ("allowed", false)] {
        let save = dir.join(config).display().to_string();
        let args = ["--from", from.to_str().unwrap(), "--config", config, "--until", "happened(turn-started)"];
        let (code, v) = find_json(&[&args[..], &["--jobs", "1", "--save", &save]].concat());
        assert_eq!(code, 0, "{v}");
        let saved = v["saved"].as_str().expect("saved").to_string();
        let text = std::fs::read_to_string(&saved).unwrap();
        assert!(!text.contains("error_under"), "{text}");
        assert_eq!(text.contains("  error: dry-gulch/disaster.play\n"), refused, "{text}");
        let (code, out, err) = rulecheck(&["run", &saved]);
        assert_eq!(code, 0, "{config}: {out}{err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn not_found_reports_what_was_searched_and_exits_1() {
    let args = ["--game", "dry-gulch", "--until", "turn < 0", "--games", "3", "--max-states", "300", "--jobs", "1"];
    let (code, v) = find_json(&args);
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["stop"], "state-bound");
    assert_eq!(v["games"], 3);
    assert!(v["actions"].as_u64().unwrap() > 300 && v["distinct"].as_u64().unwrap() >= 300, "{v}");
    let (code, out, _) =
        rulecheck(&["find", args[0], args[1], args[2], args[3], "--games", "3", "--max-states", "300"]);
    assert_eq!(code, 1);
    assert!(out.contains("NOT FOUND") && out.contains("3 random game(s)"), "{out}");
}

#[test]
fn bad_conditions_on_the_command_line_are_exit_2_with_the_column() {
    for (cond, col) in [("hand(p1) >= 10 and bogus(p1)", 20), ("damaged(saloon) > 1", 1), ("hand(p1) >=", 12)] {
        let (code, out, err) = rulecheck(&["find", "--game", "dry-gulch", "--until", cond]);
        assert_eq!(code, 2, "{cond}: {out}{err}");
        assert!(err.contains(&format!("--until:1:{col}: error:")), "{cond}: {err}");
    }
}

#[test]
fn one_seed_gives_one_trace() {
    let args = ["--game", "dry-gulch", "--until", "any player: in-front(player) >= 1", "--jobs", "1", "--seed", "7"];
    let (a, b) = (find_json(&args).1, find_json(&args).1);
    assert_eq!(a["trace"], b["trace"]);
    assert!(!a["trace"].as_array().unwrap().is_empty());
}

/// Each game's event kinds are read from its `Event` type, so every
/// variant can be asked for. The lists kept by hand had missed some, each
/// then an unknown event: Dry Gulch's `waiting-released`, `gave`,
/// `reward-declined` and `drew-waiting`, Red Dog Junction's `picked`,
/// `played` and `automa-takes`, Dodge City's `chose`.
#[test]
fn every_event_variant_is_an_event_kind() {
    let cond = "happened(waiting-released)";
    let reading = "reward-card-german-rule-7=all-at-reward";
    let (code, v) = find_json(&["--game", "dry-gulch", "--interpretation", reading, "--until", cond, "--jobs", "1"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["stop"], "found");
    let missed = [
        ("dry-gulch", "gave"),
        ("dry-gulch", "reward-declined"),
        ("dry-gulch", "drew-waiting"),
        ("red-dog-junction", "picked"),
        ("red-dog-junction", "played"),
        ("red-dog-junction", "automa-takes"),
        ("dodge-city", "chose"),
    ];
    for (game, kind) in missed {
        let until = format!("happened({kind})");
        let (code, _, err) =
            rulecheck(&["find", "--game", game, "--until", &until, "--games", "1", "--max-states", "10"]);
        assert!(!err.contains("unknown event"), "{kind}: {code} {err}");
    }
}

/// A card whose id is spelt like an event variant (`drew`) makes
/// `happened(drew)` name two event kinds: refused at its column, where the
/// variant used to win without a word.
#[test]
fn an_event_name_two_kinds_share_is_refused() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let s = crate::support::Scratch::copy_of(&root.join("rules/dry-gulch"), "find-ambiguous");
    s.edit("events.yaml", "  - id: two-ton-safe\n", "  - id: drew\n");
    let until = ["find", "--game", "dry-gulch", "--rules", s.path(), "--games", "1", "--max-states", "10", "--until"];
    let (code, _, err) = rulecheck(&[&until[..], &["happened(drew)"]].concat());
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--until:1:10: error: `drew` names two events"), "{err}");
    assert_ne!(rulecheck(&[&until[..], &["happened(fire)"]].concat()).0, 2);
}
