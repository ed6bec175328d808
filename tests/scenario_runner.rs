//! The scenario runner itself: failures, strict mode, malformed files, catalog changes.
//!
//! * a wrong expectation fails and names the fact, the expected and the actual value;
//! * strict mode fails a scenario that leaves a decision unscripted, naming it;
//! * malformed scenarios are bad input (`Err`, exit code 2) at a file:line:column;
//! * one changed number in the catalog fails exactly the scenarios that pin it;
//! * `rulecheck run` passes the bundled scenarios;
//! * a recorded random game replays as a passing scenario.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use rulecheck::catalog::SourceFile;
use rulecheck::check::playout::{RandomChooser, play};
use rulecheck::engine::Config;
use rulecheck::games::dry_gulch::State;
use rulecheck::games::{self, AnyRules};
use rulecheck::scenario::{self, ScenarioRun, run_file};

use crate::scenarios::catalogs;

/// The scenario that pins the hand limit (and the only one that does).
const HAND_LIMIT_SCENARIO: &str = "hand-limit-random-cut-permits-never-count.yaml";

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn inline(path: &str, text: &str) -> SourceFile {
    SourceFile { path: path.to_string(), text: text.to_string() }
}

/// Runs a scenario that must be well-formed.
fn run_ok(catalogs: &[AnyRules], file: &SourceFile) -> ScenarioRun {
    run_file(catalogs, file).unwrap_or_else(|d| panic!("{} should be well-formed:\n{d}", file.path))
}

/// Every failure line of every configuration of a run.
fn failures(run: &ScenarioRun) -> Vec<String> {
    run.runs.iter().flat_map(|r| r.failures.iter().cloned()).collect()
}

/// Every bundled scenario file, read from disk, sorted by path.
fn scenario_files() -> Vec<SourceFile> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let p = entry.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "yaml") {
                out.push(p);
            }
        }
    }
    let mut paths = Vec::new();
    walk(&manifest_dir().join("scenarios"), &mut paths);
    paths.sort();
    paths.iter().map(|p| rulecheck::catalog::read_file(p).unwrap()).collect()
}

/// A scratch folder under the system's temporary folder, removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new(label: &str) -> Scratch {
        let root = std::env::temp_dir().join(format!("rulecheck-scenario-runner-{}-{label}", std::process::id()));
        if root.exists() {
            std::fs::remove_dir_all(&root).unwrap();
        }
        std::fs::create_dir_all(&root).unwrap();
        Scratch(root)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn rulecheck(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rulecheck")).args(args).output().unwrap()
}

/// Line and column (1-based) of the first `needle` in `text`.
fn locate(text: &str, needle: &str) -> (u64, u64) {
    let at = text.find(needle).unwrap_or_else(|| panic!("`{needle}` not found"));
    let before = &text[..at];
    let line = before.matches('\n').count() as u64 + 1;
    let column = before.rsplit('\n').next().unwrap_or("").chars().count() as u64 + 1;
    (line, column)
}

const VANDALISM: &str = "\
title: Vandalism with a wrong expectation
why: the owner loses one card, not none
game: dry-gulch
config: {players: 3, seed: 1}
setup:
  turn: {seat: p1, phase: build, number: 4}
  seats:
    p1: {hand: {vandalism: 1}}
    p2: {hand: {lumber: 1, brick: 1}}
  buildings:
    - {building: saddlery, plot: nw-4, owner: p2}
steps:
  - force: [brick]
  - by: p1
    do: {play-disaster: {card: vandalism, plot: nw-4}}
expect:
  damaged: {saddlery: true}
  hand_size: {p2: 2}
";

#[test]
fn a_wrong_expectation_fails_naming_fact_expected_and_actual() {
    let catalogs = catalogs();
    let run = run_ok(&catalogs, &inline("wrong-expectation.yaml", VANDALISM));
    assert!(!run.passed(), "a scenario expecting the wrong hand size passed");
    let f = failures(&run);
    assert_eq!(f, vec!["hand_size.p2: expected 2, actual 1".to_string()], "{f:?}");
    let t = run.transcript();
    assert!(t.contains("verdict: FAIL"), "{t}");
    assert!(t.contains("hand_size.p2: expected 2, actual 1"), "{t}");

    // the same scenario with the right number passes
    let fixed = VANDALISM.replace("hand_size: {p2: 2}", "hand_size: {p2: 1}");
    let run = run_ok(&catalogs, &inline("right-expectation.yaml", &fixed));
    assert!(run.passed(), "{:?}\n{}", failures(&run), run.transcript());

    // a mid-way `check` names its step and line as well
    let mid = VANDALISM.replace("expect:\n", "  - check:\n      hand_size: {p2: 0}\nexpect:\n");
    let run = run_ok(&catalogs, &inline("wrong-check.yaml", &mid));
    let line = locate(&mid, "  - check:").0;
    let want = format!("step 3 (line {line}): hand_size.p2: expected 0, actual 1");
    assert!(failures(&run).contains(&want), "no `{want}` in {:?}", failures(&run));
}

const ACE: &str = "\
title: Vandalism against an Ace holder, the protect decision left out
why: strict mode must notice the unanswered decision
game: dry-gulch
config: {players: 3, seed: 1}
setup:
  turn: {seat: p1, phase: build, number: 4}
  seats:
    p1: {hand: {vandalism: 1}}
    p2: {hand: {ace-up-your-sleeve: 1, lumber: 1, brick: 1}}
  buildings:
    - {building: saddlery, plot: nw-4, owner: p2}
steps:
  - by: p1
    do: {play-disaster: {card: vandalism, plot: nw-4}}
  - check:
      damaged: {saddlery: true}
expect:
  damaged: {saddlery: true}
";

#[test]
fn strict_mode_fails_on_an_unscripted_decision_naming_it() {
    let catalogs = catalogs();
    let run = run_ok(&catalogs, &inline("unscripted.yaml", ACE));
    assert!(!run.passed(), "the unanswered `protect` went unnoticed:\n{}", run.transcript());
    let line = locate(ACE, "  - check:").0;
    let f = failures(&run);
    assert!(
        f.iter().any(|m| m.starts_with(&format!("step 2 (line {line}): unscripted decision `protect` for p2"))),
        "{f:?}"
    );

    // the last step leaving the decision open is caught at the end
    let last = ACE.replace("  - check:\n      damaged: {saddlery: true}\n", "");
    let run = run_ok(&catalogs, &inline("unscripted-at-end.yaml", &last));
    let f = failures(&run);
    assert!(f.iter().any(|m| m.contains("waits for decision `protect` from p2 (strict mode)")), "{f:?}");

    // `auto: true` on the step (taking the first legal choice) or `strict: false` lets it pass
    let auto = ACE.replace("  - check:\n", "  - auto: true\n    check:\n");
    let run = run_ok(&catalogs, &inline("auto.yaml", &auto));
    assert!(run.passed(), "{:?}", failures(&run));
    assert!(run.transcript().contains("auto-decided `protect` for P2"), "{}", run.transcript());
    let lax = ACE.replace("steps:\n", "strict: false\nsteps:\n");
    let run = run_ok(&catalogs, &inline("lax.yaml", &lax));
    assert!(run.passed(), "{:?}", failures(&run));
}

const UNKNOWN_KEY: &str = "\
title: A misspelt step key
why: bad input
game: dry-gulch
config: {players: 3, seed: 1}
steps:
  - by: p1
    doo: end-build
";

const DANGLING_CARD: &str = "\
title: A card id that names no card
why: bad input
game: dry-gulch
config: {players: 3, seed: 1}
setup:
  turn: {seat: p1, phase: build, number: 4}
steps:
  - by: p1
    do: {play-disaster: {card: fier, plot: nw-4}}
";

/// Both readings of `self-disaster` in one file: P1 vandalises his own
/// Saddlery, refused only under `forbidden` (`error_under`), accepted under
/// `allowed`; the expectations part there.
const SELF_DISASTER: &str = "\
title: A disaster against one's own building, both readings
why: allowed by default, refused under forbidden
game: dry-gulch
configs:
  - name: allowed
    players: 3
    expect:
      damaged: {saddlery: true}
  - name: forbidden
    players: 3
    interpretations: {self-disaster: forbidden}
    expect:
      damaged: {saddlery: false}
setup:
  turn: {seat: p1, phase: build, number: 4}
  seats:
    p1: {hand: {vandalism: 1}}
  buildings:
    - {building: saddlery, plot: nw-4, owner: p1}
steps:
  - by: p1
    do: {play-disaster: {card: vandalism, plot: nw-4}}
    error_under: {forbidden: dry-gulch/disaster.play}
";

/// A step refused under one configuration only (`error_under`) is
/// checked as refused there and as accepted under the others: naming the
/// other configuration fails both.
#[test]
fn an_error_under_one_configuration_tells_two_readings_apart_in_one_file() {
    let catalogs = catalogs();
    let run = run_ok(&catalogs, &inline("self-disaster.yaml", SELF_DISASTER));
    assert!(run.runs.iter().all(|r| r.passed), "{:?}", failures(&run));
    assert!(run.runs[1].transcript.contains("rejected as expected"), "{}", run.runs[1].transcript);
    // named under the other configuration, the step is accepted where a
    // refusal is expected (a failure) and refused where none is (bad input)
    let wrong = SELF_DISASTER.replace("error_under: {forbidden:", "error_under: {allowed:");
    let d = run_file(&catalogs, &inline("self-disaster.yaml", &wrong)).expect_err("refused where no error is expected");
    assert!(d.message.contains("illegal action `play-disaster vandalism on nw-4`"), "{d}");
    let only_allowed = wrong.replace("  - name: forbidden", "  - name: forbidden-not-run").replace(
        "    interpretations: {self-disaster: forbidden}\n    expect:\n      damaged: {saddlery: false}\n",
        "    expect:\n      damaged: {saddlery: true}\n",
    );
    let run = run_ok(&catalogs, &inline("self-disaster.yaml", &only_allowed));
    let says = "expected rule error `dry-gulch/disaster.play`, but `play-disaster vandalism on nw-4` was accepted";
    assert!(run.runs[0].failures.iter().any(|f| f.contains(says)), "{:?}", run.runs[0].failures);
}

#[test]
fn malformed_scenarios_are_bad_input_at_line_and_column() {
    let catalogs = catalogs();
    let scratch = Scratch::new("malformed");
    // (file name, text, where the diagnostic points, what it says)
    let cases = [
        ("unknown-key.yaml", UNKNOWN_KEY, locate(UNKNOWN_KEY, "doo:"), "unknown field `doo`"),
        // The diagnostic points at the dangling id itself, the word the
        // action was read with, though actions are resolved after parsing.
        ("dangling-card.yaml", DANGLING_CARD, locate(DANGLING_CARD, "fier"), "unknown card `fier`"),
        (
            "error-under-unknown.yaml",
            &SELF_DISASTER.replace("{forbidden: dry", "{forbiden: dry"),
            locate(SELF_DISASTER, "forbidden: dry"),
            "`error_under` names configuration `forbiden`, which the scenario does not have (its named `configs`: \
             allowed, forbidden); did you mean `forbidden`?",
        ),
        (
            "error-and-error-under.yaml",
            &SELF_DISASTER.replace("    error_under:", "    error: dry-gulch/disaster.play\n    error_under:"),
            locate(SELF_DISASTER, "by: p1"),
            "give `error` (every configuration) or `error_under`, not both",
        ),
    ];
    // a step's force, expected rule and configuration, each at what is wrong in it
    let wrong = [
        ("  - force: [brick]", "  - force: [brick, bricks]", "bricks]", "step 1: `bricks` is not an id"),
        ("nw-4}}\n", "nw-4}}\n    error: dry-gulch/nope\n", "error: dry-gulch/nope", "is no rule id of the game"),
        ("seed: 1}", "seed: 1, interpretations: {self-disaster: nope}}", "self-disaster: nope", "has no option"),
        ("seed: 1}", "seed: 1, variants: [open-permits, nope]}", "nope]", "unknown variant `nope`"),
        ("players: 3", "players: 9", "players: 9", "9 players is outside"),
        // an expectation naming no fact, at the fact: nested, in a
        // configuration, in a `check` step (Dry Gulch's expectations are
        // typed: a dotted key is a field it does not have)
        ("{p2: 2}", "{p2: 2, p7: 1}", "p7: 1", "expect: `hand_size.p7` is no fact of this state"),
        ("damaged: {saddlery: true}", "damaged.sadlery: true", "damaged.sadlery", "unknown field `damaged.sadlery`"),
        ("seed: 1}", "seed: 1, expect: {hand_size: {p8: 2}}}", "p8: 2", "`hand_size.p8` is no fact"),
        ("nw-4}}\n", "nw-4}}\n  - check: {hand_size: {p9: 2}}\n", "p9: 2", "step 3: `hand_size.p9` is no fact"),
        // a misspelt `game:`, which the parse reports only as missing
        ("game: dry-gulch", "gmae: dry-gulch", "gmae", "unknown key `gmae`; did you mean `game`?"),
    ];
    for (from, to, at, says) in wrong {
        assert!(VANDALISM.contains(from), "`{from}` is not in the scenario");
        let text = VANDALISM.replacen(from, to, 1);
        let d = run_file(&catalogs, &inline("wrong.yaml", &text)).expect_err(&text);
        assert_eq!((d.line, d.column), locate(&text, at), "{d}");
        assert!(d.message.contains(says), "{d}");
    }
    // a fact written as one dotted key, in a game whose expectations are facts by name
    let rdj = std::fs::read_to_string(manifest_dir().join("scenarios/red-dog-junction/nudge-stops-at-the-faces.yaml"));
    let text = rdj.unwrap().replacen("die.6: 5", "die.9: 5", 1);
    let d = run_file(&catalogs, &inline("dotted.yaml", &text)).expect_err(&text);
    assert_eq!((d.line, d.column), locate(&text, "die.9"), "{d}");
    assert!(d.message.contains("expect: `die.9` is no fact of this state"), "{d}");
    // a place written from 1 given as 0: bad input at it (it once wrapped to 255,
    // and the contract's round trip overflowed writing it back)
    let text = text.replacen("place: 6, up: true", "place: 0, up: true", 1);
    let d = run_file(&catalogs, &inline("place-0.yaml", &text)).expect_err(&text);
    assert_eq!((d.line, d.column), locate(&text, "0, up: true"), "{d}");
    assert!(d.message.contains("places are numbered from 1"), "{d}");
    // a step's `by:` that names no seat is pointed at, after its `do:`
    let by_after = DANGLING_CARD.replace(
        "  - by: p1\n    do: {play-disaster: {card: fier, plot: nw-4}}",
        "  - do: {play-disaster: {card: fire, plot: nw-4}}\n    by: p9",
    );
    let cases = cases.into_iter().chain([(
        "by-no-seat.yaml",
        by_after.as_str(),
        locate(&by_after, "by: p9"),
        "step 1: seat `p9` does not exist with 3 players",
    )]);
    let other_deck = VANDALISM.replace("  buildings:", "  table: {resource-deck: [lumber, fire]}\n  buildings:");
    let cases = cases.into_iter().chain([(
        "card-in-the-other-deck.yaml",
        other_deck.as_str(),
        locate(&other_deck, "fire]"),
        "set-up: `resource-deck` takes only resource cards, and `fire` is not one",
    )]);
    for (name, text, at, says) in cases {
        let text: &str = text;
        let path = scratch.0.join(name);
        std::fs::write(&path, text).unwrap();
        let shown = path.display().to_string();

        let d = run_file(&catalogs, &inline(&shown, text)).expect_err(name);
        assert_eq!((d.line, d.column), at, "{name}: {d}");
        assert!(d.message.contains(says), "{name}: {d}");
        assert_eq!(d.file, shown);

        let out = rulecheck(&["run", &shown]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {stderr}");
        assert!(!stderr.contains("panicked"), "{name}: {stderr}");
        let place = format!("{shown}:{}:{}: error: ", at.0, at.1);
        assert!(stderr.contains(&place), "{name}: stderr does not name {place}:\n{stderr}");
        assert!(stderr.contains(says), "{name}: {stderr}");
    }
}

/// A set-up override that cannot be applied is bad input at the entry of
/// `setup:` at fault (the key, or the list's item), in every game, not at
/// the block's first line; an action's unknown id, at the id; an action
/// the rules refuse, at its `do:`, and a seat not on move, at its `by:`.
#[test]
fn set_up_and_action_errors_point_at_the_entry_at_fault() {
    let catalogs = catalogs();
    let bundled = |name: &str| std::fs::read_to_string(manifest_dir().join("scenarios").join(name)).unwrap();
    let (rdj, dc) =
        (bundled("red-dog-junction/nudge-stops-at-the-faces.yaml"), bundled("dodge-city/interp-scoring-money.yaml"));
    // (base, what to replace, with what, the text at fault, what the message says)
    let cases = [
        (VANDALISM, "lumber: 1, brick", "lumber: 1, bricks", "bricks: 1", "unknown card `bricks`"),
        (VANDALISM, "phase: build", "phase: bild", "phase: bild", "unknown phase `bild`"),
        (VANDALISM, "    p1: {hand", "    p9: {hand", "p9:", "seat `p9` does not exist with 3 players"),
        (VANDALISM, "building: saddlery", "building: sadlery", "building: sadlery", "unknown building `sadlery`"),
        (VANDALISM, "owner: p2}", "owner: p2}\n    - {building: hotel, owner: p3, plot: nw-4}", "plot: nw-4}", "taken"),
        (&rdj, "dice: {6: 6}", "dice: {6: 6, 9: 1}", "9: 1", "no dice place 9"),
        (&rdj, "ships: {p1: red-dog-junction-6}", "ships: {p2: nowhere}", "p2: nowhere", "unknown dock `nowhere`"),
        (&dc, "p2: [c1r1]", "p2: [c1r1, c2r3]", "c2r3]", "c2r3 of the Saloon is already taken"),
        (&dc, "cowboy-1: 1}", "cowboy-1: 1, cowgirl: 1}", "cowgirl", "unknown card `cowgirl`"),
        (&dc, "phase: duel", "phase: dual", "phase: dual", "unknown phase `dual`"),
        // an action's id, pointed at as written, in another game
        (&rdj, "do: agents}", "do: {move: nowhere}}", "nowhere", "unknown dock `nowhere`"),
        // an action the rules refuse, at its `do:`; a seat not on move, at its `by:`
        (
            VANDALISM,
            "plot: nw-4}}",
            "plot: nw-5}}",
            "do: {play-disaster",
            "illegal action `play-disaster vandalism on nw-5`",
        ),
        (
            VANDALISM,
            "by: p1\n    do: {play-disaster: {card: vandalism, plot: nw-4}}",
            "do: {play-disaster: {card: vandalism, plot: nw-4}}\n    by: p2",
            "by: p2",
            "`p2` is not on move; p1 is",
        ),
    ];
    for (i, (base, from, to, at, says)) in cases.into_iter().enumerate() {
        assert!(base.contains(from), "case {i}: `{from}` is not in its base");
        let text = base.replacen(from, to, 1);
        let d = run_file(&catalogs, &inline(&format!("case-{i}.yaml"), &text)).expect_err(&text);
        assert_eq!((d.line, d.column), locate(&text, at), "case {i}: {d}");
        let (setup, step) = (d.message.starts_with("set-up: "), d.message.starts_with("step "));
        assert!((setup || step) && d.message.contains(says), "case {i}: {d}");
    }
}

#[test]
fn one_changed_catalog_number_fails_the_scenario_that_pins_it() {
    let scratch = Scratch::new("hand-limit");
    let game = scratch.0.join("dry-gulch");
    std::fs::create_dir_all(&game).unwrap();
    for entry in std::fs::read_dir(manifest_dir().join("rules/dry-gulch")).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, game.join(path.file_name().unwrap())).unwrap();
    }
    let text = std::fs::read_to_string(game.join("game.yaml")).unwrap();
    assert_eq!(text.matches("  hand_limit: 15\n").count(), 1, "game.yaml no longer has `hand_limit: 15`");
    std::fs::write(game.join("game.yaml"), text.replace("  hand_limit: 15\n", "  hand_limit: 16\n")).unwrap();
    let sources = rulecheck::catalog::read_root(&scratch.0).unwrap_or_else(|d| panic!("{d:?}"));
    let mut changed: Vec<AnyRules> =
        sources.iter().map(|g| games::load(g).unwrap_or_else(|d| panic!("{d:?}"))).collect();
    changed.extend(catalogs().into_iter().filter(|c| c.id() != "dry-gulch"));

    let bundled = catalogs();
    let mut failed = Vec::new();
    let mut passed = 0;
    // only Dry Gulch's catalog is changed (and copied), so only its scenarios run; a `find`
    // witness (`found/`) pins a whole game's facts, so any changed number may fail it
    for file in scenario_files().into_iter().filter(|f| f.path.contains("dry-gulch") && !f.path.contains("/found/")) {
        assert!(run_ok(&bundled, &file).passed(), "{} fails with the bundled catalog", file.path);
        let run = run_ok(&changed, &file);
        if run.passed() {
            passed += 1;
        } else {
            let name = Path::new(&file.path).file_name().unwrap().to_string_lossy().into_owned();
            failed.push((name, failures(&run), run.transcript()));
        }
    }
    let names: Vec<&str> = failed.iter().map(|(n, _, _)| n.as_str()).collect();
    // the two hand-cut-reactions scenarios cut to the limit of 15 too
    let pinned = [
        "hand-cut-like-a-draw-ace-keeps-itself-and-a-card.yaml",
        "hand-cut-not-a-take-or-iou-answers-like-a-draw.yaml",
    ];
    assert_eq!(names, [&pinned[..], &[HAND_LIMIT_SCENARIO]].concat(), "{failed:#?}");
    assert!(passed >= 40, "only {passed} scenarios ran");

    let (_, lines, transcript) = failed.iter().find(|(n, _, _)| n == HAND_LIMIT_SCENARIO).unwrap();
    for want in [
        "hand_size.p1: expected 15, actual 16",
        "seats.p1.hand.brick: expected 3, actual 4",
        "1 forced chance outcome(s) were never used",
    ] {
        assert!(lines.iter().any(|l| l == want), "no `{want}` in {lines:#?}");
        assert!(transcript.contains(want), "the transcript lacks `{want}`:\n{transcript}");
    }
    assert!(transcript.contains("P1 is over the hand limit and loses [lumber] at random"), "{transcript}");
}

#[test]
fn rulecheck_run_passes_the_bundled_scenarios() {
    let out = rulecheck(&["run"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    let pass = stdout.lines().filter(|l| l.starts_with("PASS ")).count();
    assert!(pass >= 40, "only {pass} PASS lines:\n{stdout}");
    assert!(!stdout.lines().any(|l| l.starts_with("FAIL ")), "{stdout}");
    assert!(stdout.contains(&format!("PASS scenarios/dry-gulch/{HAND_LIMIT_SCENARIO} [default]")), "{stdout}");
}

#[test]
fn a_recorded_random_game_replays_as_a_passing_scenario() {
    let catalogs = catalogs();
    let rules = catalogs
        .iter()
        .find_map(|c| match c {
            AnyRules::DryGulch(r) => Some(r),
            _ => None,
        })
        .expect("the Dry Gulch catalog is bundled");
    for (players, seed) in [(3, 11), (4, 7), (6, 2)] {
        let config = Config::new("dry-gulch", players, seed);
        let played = play::<State, ()>(rules, &config, &mut RandomChooser::new(seed), 200, |_, _, _| Ok(())).unwrap();
        assert_eq!(played.actions.len(), 200, "the random game ended early ({config})");
        let text = scenario::record::<State>(
            rules,
            &config,
            &played.actions,
            "A recorded random game",
            "replays 200 random actions and expects the facts they reached",
            true,
        )
        .unwrap();
        assert!(text.contains("expect:"), "{text}");
        let run = run_ok(&catalogs, &inline("recorded.yaml", &text));
        assert!(run.passed(), "{config}: {:?}\n{}", failures(&run), run.transcript());
        // the recording pins something: a wrong final fact makes it fail
        let wrong = text.replacen("outcome: ongoing", "outcome: win", 1);
        assert_ne!(wrong, text, "the recorded game did not stay ongoing:\n{text}");
        assert!(!run_ok(&catalogs, &inline("recorded-wrong.yaml", &wrong)).passed());
    }
}
