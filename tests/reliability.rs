//! The reliability promise of the README: nothing a user types or writes
//! crashes the harness, hangs it, or is silently wrong. Each test is named
//! after the input it pins; the inputs are small so nothing here can hang.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::support::rulecheck;

/// A fresh, empty temporary folder for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rulecheck-rel-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

/// A copy of the bundled catalogs in `dir/rules`, with `edit` applied to
/// (file path under `rules/`, text); returns the `rules` folder.
fn catalog_copy(dir: &Path, edit: impl Fn(&str, String) -> String) -> PathBuf {
    let root = dir.join("rules");
    for (rel, bytes) in rulecheck::bundled::RULES {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, edit(rel, String::from_utf8(bytes.to_vec()).unwrap())).unwrap();
    }
    root
}

/// No panic, and nothing on stderr that looks like one.
fn assert_no_panic(code: i32, err: &str) {
    assert!(!err.contains("panicked"), "a panic: {err}");
    assert_ne!(code, 101, "exit code of a panic: {err}");
}

#[test]
fn a_closed_stdout_ends_every_command_quietly() {
    for args in [
        &["validate"][..],
        &["run"],
        &["run", "--format", "json"],
        &["explain", "--game", "dry-gulch"],
        &["fuzz", "--game", "dry-gulch", "--games", "2"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_rulecheck"))
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        #[cfg(unix)]
        {
            use std::os::unix::process::ExitStatusExt;
            // killed by SIGPIPE (the convention of every Unix filter), or done before the pipe closed
            assert!(out.status.signal() == Some(13) || out.status.success(), "{args:?}: {:?} {err}", out.status);
        }
    }
}

#[test]
fn fuzz_with_an_unknown_fault_is_bad_input_before_any_game() {
    let (code, out, err) = rulecheck(&["fuzz", "--game", "dry-gulch", "--games", "2", "--fault", "nope"]);
    assert_no_panic(code, &err);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("unknown fault `nope`") && err.contains("no-hand-limit"), "{err}");
}

#[test]
fn run_with_an_unknown_fault_says_so_once() {
    let (code, out, err) = rulecheck(&["run", "--fault", "nope"]);
    assert_no_panic(code, &err);
    assert_eq!(code, 2, "{out}{err}");
    assert_eq!(err.matches("unknown fault `nope`").count(), 1, "{err}");
    assert!(err.contains("no-hand-limit"), "{err}");
}

#[test]
fn a_duration_beyond_what_a_duration_holds_is_bad_input() {
    for args in [
        &["fuzz", "--game", "dry-gulch", "--games", "1", "--time-limit", "100000000000000000000s"][..],
        &["check", "--budget", "100000000000000000000s"],
        &["check", "--budget", "99999999999999999999999h"],
    ] {
        let (code, out, err) = rulecheck(args);
        assert_no_panic(code, &err);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.contains("too long"), "{args:?}: {err}");
    }
}

#[test]
fn a_time_limit_past_the_end_of_the_clock_means_no_limit() {
    let (code, out, err) =
        rulecheck(&["fuzz", "--game", "dry-gulch", "--games", "1", "--time-limit", "10000000000000000000s"]);
    assert_no_panic(code, &err);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("games 1,"), "{out}");
}

/// A board whose six edge plots include the Town Hall's: the sixth Residence
/// has no plot, so the engine lists no legal action before the game ends.
fn catalog_without_a_sixth_residence_plot(dir: &Path) -> PathBuf {
    catalog_copy(dir, |rel, text| {
        if rel != "dry-gulch/board.yaml" {
            return text;
        }
        let keep = ["nw-2,", "nw-3,", "nc-4,", "ne-3,", "ne-4,"];
        text.lines()
            .map(|l| {
                if l.contains("{id: nc-3, kind: middle, reward: 1}") {
                    l.replace("reward: 1}", "reward: 1, edge: true}")
                } else if keep.iter().any(|k| l.contains(k)) {
                    l.to_string()
                } else {
                    l.replace(", edge: true", "")
                }
            })
            .collect::<Vec<_>>()
            .join("\n")
    })
}

/// The bundled rules with five edge plots for Residences, changed in
/// memory past validation (which refuses such a board for six players).
fn rules_with_five_residence_plots() -> Box<rulecheck::games::dry_gulch::Rules> {
    let mut rules = bundled_dry_gulch();
    let mut kept = 0;
    for p in &mut rules.plots {
        if p.edge && !p.bank && p.kind != rulecheck::games::dry_gulch::schema::PlotKind::Corner {
            kept += 1;
            p.edge = kept <= 5;
        }
    }
    rules
}

/// Such a board now fails `validate` (below); the scenario runner's own
/// guard is shown on rules lowered from the bundled catalog and then
/// changed in memory, past validation: five Residence plots for six players.
#[test]
fn play_randomly_without_a_legal_action_fails_the_scenario() {
    let rules = rules_with_five_residence_plots();
    let catalogs = vec![rulecheck::games::AnyRules::DryGulch(rules)];
    let text = "title: No plot for the last Residence\nwhy: five edge plots for six players\ngame: dry-gulch\n\
                config: {players: 6, seed: 1}\nsteps:\n  - play_randomly: {seed: 1, actions: 10}\n";
    let file = rulecheck::catalog::SourceFile { path: "no-residence-plot.yaml".into(), text: text.into() };
    let run = rulecheck::scenario::run_file(&catalogs, &file).expect("a well-formed scenario");
    assert!(!run.passed(), "{}", run.transcript());
    assert!(run.runs[0].failures.iter().any(|f| f.contains("no legal action")), "{:?}", run.runs[0].failures);
}

/// Where `edit` changed `rules/dry-gulch/<file>`: a copy, validated; the
/// exit code, stderr, and the line and column of `needle` in the edited file.
fn validate_edited(name: &str, file: &str, edit: impl Fn(String) -> String, needle: &str) -> (i32, String, String) {
    let dir = temp_dir(name);
    let rules = catalog_copy(&dir, |rel, t| if rel == format!("dry-gulch/{file}") { edit(t) } else { t });
    let text = std::fs::read_to_string(rules.join("dry-gulch").join(file)).unwrap();
    let (line, col) = text
        .lines()
        .enumerate()
        .find_map(|(i, l)| l.find(needle).map(|c| (i + 1, l[..c].chars().count() + 1)))
        .unwrap_or_else(|| panic!("`{needle}` in the edited {file}"));
    let (code, _, err) = rulecheck_within(60, &["validate", &s(&rules)]).expect("validation ends");
    let _ = std::fs::remove_dir_all(&dir);
    (code, err, format!("{file}:{line}:{col}:"))
}

/// The set-up puts chips from each player's allotment on the Residence;
/// more than the smallest allotment (11 at six players) used to pass
/// `validate` and fail only in play.
#[test]
fn chips_on_the_residence_above_the_allotment_fail_validate() {
    let (code, err, at) = validate_edited(
        "residence-chips",
        "game.yaml",
        |t| t.replace("chips_on_residence: 1", "chips_on_residence: 12"),
        "12",
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(&at) && err.contains("chips_on_residence is 12, more than the 11 chips a player has at 6 players"),
        "{at}: {err}"
    );
}

/// With no building short of its chips a player counts at most his chips,
/// so a catalog whose default winning total is fixed above the smallest
/// allotment (11 at six players) can never be won at six: `validate` used
/// to pass it and every game ran to the turn cap. Under the default
/// winning total the number is not read, and passes.
#[test]
fn a_fixed_win_above_the_allotment_fails_validate_where_it_is_the_default() {
    let validate = |fixed_by_default: bool| {
        let dir = temp_dir(&format!("fixed-win-{fixed_by_default}"));
        let rules = catalog_copy(&dir, |rel, t| match rel {
            "dry-gulch/game.yaml" => t.replace("fixed_win_threshold: 11", "fixed_win_threshold: 12"),
            "dry-gulch/interpretations.yaml" if fixed_by_default => t.replace("default: all-chips", "default: fixed"),
            _ => t,
        });
        let text = std::fs::read_to_string(rules.join("dry-gulch/game.yaml")).unwrap();
        let line = text.lines().position(|l| l.contains("fixed_win_threshold: 12")).unwrap() + 1;
        let (code, _, err) = rulecheck_within(60, &["validate", &s(&rules)]).expect("validation ends");
        let _ = std::fs::remove_dir_all(&dir);
        (code, err, format!("game.yaml:{line}:24:"))
    };
    let (code, err, at) = validate(true);
    assert_eq!(code, 2, "{err}");
    let says = "fixed_win_threshold is 12, more than the 11 influence a player can count at 6 players";
    assert!(err.contains(&at) && err.contains(says), "{at}: {err}");
    let (code, err, _) = validate(false);
    assert_eq!(code, 0, "{err}");
}

/// Six edge plots, one of them the Town Hall's, leave five for six
/// Residences: `validate` used to accept the board and the game stalled.
#[test]
fn a_town_hall_on_one_of_as_many_edge_plots_as_players_fails_validate() {
    let dir = temp_dir("town-hall-edge");
    let rules = catalog_without_a_sixth_residence_plot(&dir);
    let text = std::fs::read_to_string(rules.join("dry-gulch/board.yaml")).unwrap();
    let line = text.lines().position(|l| l.starts_with("  town_hall_plot:")).unwrap() + 1;
    let (code, out, err) = rulecheck(&["validate", &s(&rules)]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains(&format!("board.yaml:{line}:19:")), "{err}");
    assert!(err.contains("only 5 free edge plots for Residences (6 edge plots, one of them the Town Hall's"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A consistent billion-card deck (the copies and the total agree) used to
/// hang the first game dealing it: every count is bounded by what the
/// engine represents, at the count's own line and column.
#[test]
fn a_billion_card_deck_is_refused_at_its_count() {
    let (code, err, at) = validate_edited(
        "billion-events",
        "events.yaml",
        |t| t.replacen("copies: 7", "copies: 1000000000", 1),
        "1000000000",
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(&at) && err.contains("copies is 1000000000, more than 255"), "{at}: {err}");
    for (field, value) in [("deal_resources: 5", "1000000000"), ("bank_permits: 1", "4000000000")] {
        let name = field.split(':').next().unwrap();
        let (code, err, at) =
            validate_edited("billion-count", "game.yaml", |t| t.replace(field, &format!("{name}: {value}")), value);
        assert_eq!(code, 2, "{value}: {err}");
        assert!(err.contains(&at) && err.contains(&format!("{name} is {value}, more than 10000")), "{at}: {err}");
    }
}

/// Semantic errors about a game.yaml number pointed at `game.id` (or 1:1
/// in an overlay): each points at the offending field.
#[test]
fn game_yaml_errors_point_at_the_offending_field() {
    for (from, to, says) in [
        ("hand_limit: 15", "hand_limit: 0", "turn.hand_limit must be at least 1"),
        ("events_discarded: 1", "events_discarded: 4", "turn.events_discarded exceeds"),
        ("colours: 6", "colours: 5", "5 colours cannot seat 6 players"),
        ("min_players: 3", "min_players: 7", "players 7–6 is not a range"),
        ("turn_cap: 300", "turn_cap: 0", "limits.turn_cap must be at least 1"),
    ] {
        let value = to.split(": ").nth(1).unwrap();
        let (code, err, _) = validate_edited("field-positions", "game.yaml", |t| t.replace(from, to), to);
        assert_eq!(code, 2, "{to}: {err}");
        let text = String::from_utf8(
            rulecheck::bundled::RULES.iter().find(|(r, _)| *r == "dry-gulch/game.yaml").unwrap().1.to_vec(),
        )
        .unwrap()
        .replace(from, to);
        let line = text.lines().position(|l| l.contains(to)).unwrap() + 1;
        let col = text.lines().nth(line - 1).unwrap().find(to).unwrap() + to.len() - value.len() + 1;
        let at = format!("game.yaml:{line}:{col}:");
        let diag = err.split("\n\n").find(|d| d.contains(says)).unwrap_or_else(|| panic!("{says}: {err}"));
        assert!(diag.contains(&at), "{to}: expected {at}: {diag}");
    }
}

/// Every game's player counts are checked by the one check of the `game:`
/// section, worded alike, each at the number it is about.
#[test]
fn every_game_checks_its_player_counts_alike() {
    let dir = temp_dir("player-counts");
    for game in ["dry-gulch", "dodge-city", "red-dog-junction"] {
        for (field, value, says) in [
            ("min_players", 0, "min_players is 0; a game seats at least one player".to_string()),
            ("min_players", 7, "is not a range".to_string()),
            ("max_players", 65, "max_players 65 is more than the 64 seats the engine plays".to_string()),
            // once a loop over every seat the count names (a catalog mutant found it)
            ("max_players", u32::MAX, format!("max_players {} is more than the 64 seats the engine plays", u32::MAX)),
        ] {
            let at = std::cell::Cell::new(0);
            let rules = catalog_copy(&dir, |rel, t| {
                if rel != format!("{game}/game.yaml") {
                    return t;
                }
                let line = t.lines().position(|l| l.starts_with(&format!("  {field}: "))).unwrap();
                at.set(line + 1);
                let lines: Vec<String> = (t.lines().enumerate())
                    .map(|(i, l)| if i == line { format!("  {field}: {value}") } else { l.to_string() })
                    .collect();
                lines.join("\n") + "\n"
            });
            let (code, _, err) = rulecheck_within(60, &["validate", &s(&rules)]).expect("validation ends");
            assert_eq!(code, 2, "{game} {field}: {value}: {err}");
            let place = format!("{game}/game.yaml:{}:16: error: ", at.get());
            assert!(err.lines().any(|l| l.contains(&place) && l.contains(&says)), "{game} {field}: {value}: {err}");
            let _ = std::fs::remove_dir_all(&rules);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A folder holding one bundled scenario file, `one.yaml`.
fn folder_with_one_scenario(dir: &Path) -> PathBuf {
    let folder = dir.join("scenarios");
    std::fs::create_dir_all(&folder).unwrap();
    let (_, bytes) = rulecheck::bundled::SCENARIOS[0];
    std::fs::write(folder.join("one.yaml"), bytes).unwrap();
    folder
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    let ok = Command::new("mkfifo").arg(path).status().expect("mkfifo runs").success();
    assert!(ok, "mkfifo {}", path.display());
}

#[cfg(unix)]
#[test]
fn a_fifo_named_yaml_in_a_scenario_folder_is_refused_not_read() {
    let dir = temp_dir("fifo-scenario");
    let folder = folder_with_one_scenario(&dir);
    mkfifo(&folder.join("pipe.yaml"));
    let (code, out, err) = rulecheck(&["run", &s(&folder)]);
    assert_no_panic(code, &err);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("pipe.yaml") && err.contains("not a regular file"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[test]
fn a_fifo_named_yaml_in_a_catalog_folder_is_refused_not_read() {
    let dir = temp_dir("fifo-catalog");
    let rules = catalog_copy(&dir, |_, t| t);
    mkfifo(&rules.join("dry-gulch").join("board.yaml.fifo.yaml"));
    let (code, out, err) = rulecheck(&["validate", &s(&rules)]);
    assert_no_panic(code, &err);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("board.yaml.fifo.yaml") && err.contains("not a regular file"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[test]
fn a_symlink_to_a_device_is_refused_not_read() {
    let dir = temp_dir("device");
    let folder = folder_with_one_scenario(&dir);
    std::os::unix::fs::symlink("/dev/zero", folder.join("zero.yaml")).unwrap();
    let (code, out, err) = rulecheck(&["run", &s(&folder.join("zero.yaml"))]);
    assert_no_panic(code, &err);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("zero.yaml") && err.contains("not a regular file"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[test]
fn symlink_loops_in_a_scenario_folder_read_each_file_once() {
    let dir = temp_dir("loops");
    let folder = folder_with_one_scenario(&dir);
    std::os::unix::fs::symlink(".", folder.join("loop")).unwrap();
    std::os::unix::fs::symlink("..", folder.join("up")).unwrap();
    std::os::unix::fs::symlink("one.yaml", folder.join("same.yaml")).unwrap();
    let (code, out, err) = rulecheck(&["run", &s(&folder)]);
    assert_no_panic(code, &err);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("run: 1 scenario file(s)"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn zero_jobs_turn_caps_games_and_budgets_are_bad_input() {
    let fuzz = ["fuzz", "--game", "dry-gulch", "--games", "1"];
    let with = |extra: &[&'static str]| -> Vec<&'static str> { fuzz.iter().chain(extra).copied().collect() };
    for args in [
        with(&["--jobs", "0"]),
        with(&["--turn-cap", "0"]),
        with(&["--time-limit", "0s"]),
        vec!["fuzz", "--game", "dry-gulch", "--games", "0"],
        vec!["check", "--jobs", "0"],
        vec!["check", "--budget", "0s"],
        vec!["diff", "--game", "dry-gulch", "--games", "0"],
        vec!["diff", "--game", "dry-gulch", "--games", "1", "--turn-cap", "0"],
        vec!["explain", "--game", "dry-gulch", "--diff-games", "0"],
        vec!["bench", "--games", "0"],
    ] {
        let (code, out, err) = rulecheck(&args);
        assert_no_panic(code, &err);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.contains("at least") || err.contains("more than"), "{args:?}: {err}");
    }
}

#[test]
fn a_shard_that_holds_no_game_is_bad_input() {
    let (code, out, err) = rulecheck(&["fuzz", "--game", "dry-gulch", "--games", "2", "--shard", "3/3"]);
    assert_no_panic(code, &err);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("no game"), "{err}");
}

#[test]
fn an_empty_scenario_folder_is_bad_input_not_a_pass() {
    let dir = temp_dir("empty-scenarios");
    for args in [vec!["run", &s(&dir)], vec!["check", "--scenarios", &s(&dir), "--budget", "1s"]] {
        let (code, out, err) = rulecheck(&args);
        assert_no_panic(code, &err);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.contains("no scenario file"), "{args:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn check_fuzzes_each_configuration_once_per_player_count() {
    for g in rulecheck::bundled::rules().unwrap() {
        let rules = rulecheck::games::load(&g).unwrap();
        let s = rules.summary();
        for players in s.min_players..=s.max_players {
            let configs = rulecheck::commands::check_configs(&rules, players);
            let unique: std::collections::BTreeSet<String> = configs.iter().map(|c| c.flags()).collect();
            assert_eq!(unique.len(), configs.len(), "{players} players: {:#?}", configs);
        }
    }
}

#[test]
fn an_unwritable_save_folder_still_prints_the_report_and_the_failure() {
    let dir = temp_dir("unwritable-save");
    let blocker = dir.join("a-file");
    std::fs::write(&blocker, "not a folder").unwrap();
    let save = s(&blocker.join("ce"));
    let (code, out, err) = rulecheck(&[
        "fuzz",
        "--game",
        "dry-gulch",
        "--games",
        "20",
        "--players",
        "3",
        "--fault",
        "no-hand-limit",
        "--save",
        &save,
    ]);
    assert_no_panic(code, &err);
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.contains("FAILURE in the game with seed") && out.contains("reproduce:"), "{out}");
    assert!(err.contains("cannot write") && err.contains("a-file"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The command after `prefix` on the first line of `out` that holds it.
fn line_after<'a>(out: &'a str, prefix: &str) -> &'a str {
    let line = out.lines().find(|l| l.contains(prefix)).unwrap_or_else(|| panic!("no `{prefix}` in {out}"));
    line[line.find(prefix).unwrap() + prefix.len()..].trim().trim_end_matches(')')
}

#[test]
fn reproduce_and_rerun_lines_carry_every_flag_that_shaped_the_run() {
    let dir = temp_dir("reproduce");
    let rules = s(&catalog_copy(&dir, |_, t| t));
    let save = s(&dir.join("ce"));
    let (code, out, err) = rulecheck(&[
        "fuzz",
        "--game",
        "dry-gulch",
        "--games",
        "20",
        "--players",
        "3",
        "--fault",
        "no-hand-limit",
        "--contract",
        "--rules",
        &rules,
        "--save",
        &save,
    ]);
    assert_eq!(code, 1, "{out}{err}");
    let reproduce = line_after(&out, "reproduce: rulecheck ");
    for flag in ["--fault no-hand-limit", "--contract", &format!("--rules {rules}")] {
        assert!(reproduce.contains(flag), "`{flag}` missing from: {reproduce}");
    }
    // the line reproduces the failure
    let args: Vec<&str> = reproduce.split_whitespace().collect();
    let (code, again, err) = rulecheck(&args);
    assert_eq!(code, 1, "{again}{err}");
    assert!(again.contains("invariant `hand-limit` broken"), "{again}");

    let saved = std::fs::read_dir(&save).unwrap().next().unwrap().unwrap().path();
    let (code, out, err) = rulecheck(&["run", &s(&saved), "--fault", "no-hand-limit", "--rules", &rules]);
    assert_eq!(code, 1, "{out}{err}");
    let rerun = line_after(&out, "rerun: rulecheck ");
    for flag in ["--fault no-hand-limit", &format!("--rules {rules}")] {
        assert!(rerun.contains(flag), "`{flag}` missing from: {rerun}");
    }
    let args: Vec<&str> = rerun.split_whitespace().collect();
    let (code, again, _) = rulecheck(&args);
    assert_eq!(code, 1, "{again}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `fuzz --format json` with `args` after the game, written to `dir/name`.
fn summary_file(dir: &Path, name: &str, args: &[&str]) -> String {
    let mut all = vec!["fuzz", "--game", "dry-gulch", "--format", "json", "--jobs", "1"];
    all.extend(args);
    let (code, out, err) = rulecheck(&all);
    assert!(code == 0 || code == 1, "{args:?}: {err}");
    let path = dir.join(name);
    std::fs::write(&path, out).unwrap();
    s(&path)
}

fn without_seconds(json: &str) -> serde_json::Value {
    let mut v: serde_json::Value = serde_json::from_str(json).expect("a JSON summary");
    v.as_object_mut().unwrap().remove("seconds");
    v
}

#[test]
fn merge_refuses_inputs_that_are_not_parts_of_one_run() {
    let dir = temp_dir("merge-refuses");
    let base = ["--games", "6", "--players", "3"];
    let with = |extra: &[&'static str]| -> Vec<&'static str> { base.iter().chain(extra).copied().collect() };
    let one = summary_file(&dir, "one.json", &with(&["--shard", "1/2"]));
    let two = summary_file(&dir, "two.json", &with(&["--shard", "2/2"]));
    let copy = s(&dir.join("copy.json"));
    std::fs::copy(&one, &copy).unwrap();
    let whole = summary_file(&dir, "whole.json", &base);
    let four = summary_file(&dir, "four.json", &["--games", "6", "--players", "4", "--shard", "2/2"]);
    let other_seed = summary_file(&dir, "seed.json", &with(&["--shard", "2/2", "--seed", "9"]));
    let other_games = summary_file(&dir, "games.json", &["--games", "8", "--players", "3", "--shard", "2/2"]);
    let faulted = summary_file(&dir, "fault.json", &with(&["--shard", "2/2", "--fault", "no-hand-limit"]));
    let thirds = summary_file(&dir, "thirds.json", &with(&["--shard", "2/3"]));
    for (files, says) in [
        (vec![], "FILE"),
        (vec![one.as_str(), one.as_str()], "twice"),
        (vec![one.as_str(), copy.as_str()], "overlap"),
        (vec![one.as_str(), whole.as_str()], "overlap"),
        (vec![one.as_str(), four.as_str()], "configuration"),
        (vec![one.as_str(), other_seed.as_str()], "seed"),
        (vec![one.as_str(), other_games.as_str()], "games"),
        (vec![one.as_str(), faulted.as_str()], "fault"),
        (vec![one.as_str(), thirds.as_str()], "shard"),
    ] {
        let mut args = vec!["merge"];
        args.extend(&files);
        let (code, out, err) = rulecheck(&args);
        assert_no_panic(code, &err);
        assert_eq!(code, 2, "{files:?}: {out}{err}");
        assert!(err.contains(says), "{files:?}: `{says}` not in {err}");
    }
    let (code, _, err) = rulecheck(&["merge", &one, &two]);
    assert_eq!(code, 0, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn merge_refuses_totals_that_overflow() {
    let dir = temp_dir("merge-overflow");
    let base = ["--games", "4", "--players", "3"];
    let with = |extra: &[&'static str]| -> Vec<&'static str> { base.iter().chain(extra).copied().collect() };
    let one = summary_file(&dir, "one.json", &with(&["--shard", "1/2"]));
    let two = summary_file(&dir, "two.json", &with(&["--shard", "2/2"]));
    let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&two).unwrap()).unwrap();
    v["actions"] = serde_json::json!(u64::MAX);
    std::fs::write(&two, v.to_string()).unwrap();
    let (code, out, err) = rulecheck(&["merge", &one, &two]);
    assert_no_panic(code, &err);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("overflow"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn merged_failing_shards_give_the_whole_run_s_first_failure_and_its_fault() {
    let dir = temp_dir("merge-failure");
    let base = ["--games", "12", "--players", "3", "--fault", "no-hand-limit"];
    let with = |extra: &[&'static str]| -> Vec<&'static str> { base.iter().chain(extra).copied().collect() };
    let whole = summary_file(&dir, "whole.json", &base);
    let parts: Vec<String> = (1..=3)
        .map(|k| {
            let shard: &'static str = ["1/3", "2/3", "3/3"][k - 1];
            summary_file(&dir, &format!("{k}.json"), &with(&["--shard", shard]))
        })
        .collect();
    let mut args = vec!["merge", "--format", "json"];
    args.extend(parts.iter().map(String::as_str));
    let (code, merged, err) = rulecheck(&args);
    assert_eq!(code, 1, "{err}");
    assert_eq!(without_seconds(&merged), without_seconds(&std::fs::read_to_string(&whole).unwrap()));
    args.drain(1..3);
    let (code, text, _) = rulecheck(&args);
    assert_eq!(code, 1);
    assert!(line_after(&text, "reproduce: ").contains("--fault no-hand-limit"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unknown_yaml_file_in_a_catalog_folder_is_bad_input() {
    for (name, text) in [("notes.yaml", "note: a harmless mapping\n"), ("broken.yaml", "a: [unclosed\n")] {
        let dir = temp_dir("unknown-catalog-file");
        let rules = catalog_copy(&dir, |_, t| t);
        std::fs::write(rules.join("dry-gulch").join(name), text).unwrap();
        let (code, out, err) = rulecheck(&["validate", &s(&rules)]);
        assert_no_panic(code, &err);
        assert_eq!(code, 2, "{name}: {out}{err}");
        assert!(err.contains(name) && err.contains("not a file of"), "{name}: {err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn a_game_id_that_differs_from_its_folder_is_bad_input() {
    let dir = temp_dir("game-id");
    let rules = catalog_copy(&dir, |rel, t| {
        if rel == "dry-gulch/game.yaml" { t.replacen("  id: dry-gulch", "  id: wet-gulch", 1) } else { t }
    });
    let (code, out, err) = rulecheck(&["validate", &s(&rules)]);
    assert_no_panic(code, &err);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("game.yaml:9:7") && err.contains("wet-gulch"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A bundled scenario with its first `force: [lumber]` replaced.
fn scenario_forcing(what: &str) -> String {
    let name = "dry-gulch/disaster-limit-one-fire-one-vandalism-per-player.yaml";
    let (_, bytes) = rulecheck::bundled::SCENARIOS.iter().find(|(rel, _)| *rel == name).unwrap();
    let text = String::from_utf8(bytes.to_vec()).unwrap();
    assert!(text.contains("force: [lumber]"));
    text.replacen("force: [lumber]", &format!("force: [{what}]"), 1)
}

#[test]
fn force_with_an_id_not_in_the_catalog_is_bad_input_in_catalog_words() {
    let dir = temp_dir("force-unknown");
    let file = dir.join("force.yaml");
    std::fs::write(&file, scenario_forcing("opra")).unwrap();
    let (code, out, err) = rulecheck(&["run", &s(&file)]);
    assert_no_panic(code, &err);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("force.yaml:31:") && err.contains("`opra`"), "{err}");
    assert!(!err.contains("Named"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_forced_outcome_that_does_not_fit_is_reported_in_catalog_words() {
    let dir = temp_dir("force-misfit");
    let file = dir.join("force.yaml");
    std::fs::write(&file, scenario_forcing("opera")).unwrap();
    let (code, out, err) = rulecheck(&["run", &s(&file)]);
    assert_no_panic(code, &err);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("`opera`") && !out.contains("Named"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_expected_error_naming_no_rule_of_the_game_is_bad_input() {
    let name = "dry-gulch/permit-draw-two-blind-keep-one.yaml";
    let (_, bytes) = rulecheck::bundled::SCENARIOS.iter().find(|(rel, _)| *rel == name).unwrap();
    let text = String::from_utf8(bytes.to_vec()).unwrap().replacen("dry-gulch/turn.order", "dry-gulch/turn.ordr", 1);
    let dir = temp_dir("error-id");
    let file = dir.join("error.yaml");
    std::fs::write(&file, text).unwrap();
    let (code, out, err) = rulecheck(&["run", &s(&file)]);
    assert_no_panic(code, &err);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("error.yaml:") && err.contains("`dry-gulch/turn.ordr`"), "{err}");
    assert!(err.contains("dry-gulch/turn.order"), "the known rule ids are listed: {err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_path_that_does_not_exist_is_called_so() {
    for args in [
        vec!["validate", "/no/such/folder"],
        vec!["run", "--rules", "/no/such/folder"],
        vec!["run", "/no/such/scenario.yaml"],
    ] {
        let (code, out, err) = rulecheck(&args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.contains("does not exist") && !err.contains("not a directory"), "{args:?}: {err}");
    }
}

#[test]
fn a_bad_shard_variable_is_named_in_its_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_rulecheck"))
        .args(["fuzz", "--game", "dry-gulch", "--games", "2"])
        .env("RULECHECK_SHARD", "3")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("RULECHECK_SHARD"), "{err}");
}

#[test]
fn an_empty_scenario_file_is_called_a_scenario_file() {
    let dir = temp_dir("empty-scenario");
    let file = dir.join("empty.yaml");
    std::fs::write(&file, "\n").unwrap();
    let (code, out, err) = rulecheck(&["run", &s(&file)]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("a scenario file") && !err.contains("catalog"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn check_never_combines_variants_the_catalog_declares_incompatible() {
    let dir = temp_dir("incompatible");
    let root = catalog_copy(&dir, |rel, t| {
        if rel == "dry-gulch/variants.yaml" {
            t.replacen(
                "    changes: [setup.permit-deal]\n",
                "    changes: [setup.permit-deal]\n    incompatible: [town-hall-damage, spreading-fire]\n",
                1,
            )
        } else {
            t
        }
    });
    let sources = rulecheck::catalog::read_root(&root).unwrap();
    let rules = rulecheck::games::load(&sources[0]).unwrap();
    let clash = |c: &rulecheck::engine::Config| {
        rules
            .variants()
            .iter()
            .any(|v| c.variants.contains(&v.id) && v.incompatible.iter().any(|w| c.variants.contains(w)))
    };
    let configs = rulecheck::commands::check_configs(&rules, 4);
    let bad: Vec<String> = configs.iter().filter(|c| clash(c)).map(|c| c.flags()).collect();
    assert!(bad.is_empty(), "{bad:#?}");
    // every pair of options that can be played together is still covered
    let live: Vec<_> = rules.interpretations().iter().filter(|i| i.inert.is_none()).collect();
    for a in &live {
        for b in &live {
            if a.id >= b.id {
                continue;
            }
            for oa in &a.options {
                for ob in &b.options {
                    let mut c = rulecheck::engine::Config::new("dry-gulch", 4, 0);
                    for (i, o) in [(a, oa), (b, ob)] {
                        if o.id != i.default {
                            c.interpretations.insert(i.id.clone(), o.id.clone());
                            c.variants.extend(i.variant.clone());
                        }
                    }
                    if clash(&c) {
                        continue;
                    }
                    let reading = |c: &rulecheck::engine::Config, i: &rulecheck::catalog::common::Interpretation| {
                        c.interpretations.get(&i.id).cloned().unwrap_or_else(|| i.default.clone())
                    };
                    assert!(
                        configs.iter().any(|k| reading(k, a) == oa.id && reading(k, b) == ob.id),
                        "{}={} with {}={} is not covered",
                        a.id,
                        oa.id,
                        b.id,
                        ob.id
                    );
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_scenario_with_no_steps_and_no_expectations_is_bad_input() {
    let dir = temp_dir("empty-scenario-body");
    let file = dir.join("nothing.yaml");
    std::fs::write(&file, "title: Nothing\nwhy: checks nothing\ngame: dry-gulch\nconfig: {players: 3}\nsteps: []\n")
        .unwrap();
    let (code, out, err) = rulecheck(&["run", &s(&file)]);
    assert_no_panic(code, &err);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("nothing.yaml:") && err.contains("checks nothing"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_reading_that_cannot_take_effect_is_bad_input() {
    for (reading, says) in
        [("chip-count-component=eighteen-each", "inert"), ("draft-permits=three", "--variant advanced-setup")]
    {
        let (code, out, err) = rulecheck(&["fuzz", "--game", "dry-gulch", "--games", "1", "--interpretation", reading]);
        assert_no_panic(code, &err);
        assert_eq!(code, 2, "{reading}: {out}{err}");
        assert!(err.contains(says), "{reading}: {err}");
    }
    let (code, _, err) = rulecheck(&[
        "fuzz",
        "--game",
        "dry-gulch",
        "--games",
        "1",
        "--variant",
        "advanced-setup",
        "--interpretation",
        "draft-permits=three",
    ]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn the_caret_stays_under_its_column_after_wide_characters_and_tabs() {
    use rulecheck::catalog::diag::Diagnostic;
    let caret_pad = |text: &str, column: u64| {
        let d = Diagnostic::new("f.yaml", 1, column, "m").with_snippet_from(text);
        let snippet = d.snippet.unwrap();
        let last = snippet.lines().last().unwrap().to_string();
        last.strip_prefix("  | ").unwrap().strip_suffix('^').unwrap().to_string()
    };
    // 名 and 前 are two columns wide each: the `:` (column 3) is at display column 5
    assert_eq!(caret_pad("名前: x", 3), "    ");
    assert_eq!(caret_pad("\tkey: x", 2), "\t");
    assert_eq!(caret_pad("key: x", 4), "   ");
}

/// The "done when", through the binary: random bytes, random YAML
/// and random cuts of the bundled catalogs and scenarios, written to files
/// and given to `validate` and `run`, end with exit 0, 1 or 2, never a
/// panic, and an exit 2 names the file. Few cases (each starts the binary);
/// `random_input` below runs many more through the library.
#[test]
fn random_files_given_to_validate_and_run_exit_0_1_or_2_naming_the_file() {
    use rulecheck::engine::Chance;
    let dir = temp_dir("random-files");
    let files = rulecheck::games::dry_gulch::catalog::FILES;
    let mut chance = Chance::new(14);
    for case in 0..8u32 {
        let pick = |c: &mut Chance, n: usize| c.below(n as u32) as usize;
        // a cut and a splice of random bytes, or random bytes alone
        let garble = |c: &mut Chance, text: &[u8]| -> Vec<u8> {
            let noise: Vec<u8> = (0..pick(c, 40)).map(|_| c.below(256) as u8).collect();
            if case % 4 == 3 {
                return noise;
            }
            let at = pick(c, text.len().max(1)).min(text.len());
            let end = (at + pick(c, 60)).min(text.len());
            [&text[..at], &noise, &text[end..]].concat()
        };
        let file = files[pick(&mut chance, files.len())];
        let rules = catalog_copy(&dir.join(format!("c{case}")), |_, t| t);
        let target = rules.join("dry-gulch").join(file);
        std::fs::write(&target, garble(&mut chance, &std::fs::read(&target).unwrap())).unwrap();
        let (_, scenario) = rulecheck::bundled::SCENARIOS[pick(&mut chance, rulecheck::bundled::SCENARIOS.len())];
        let sfile = dir.join(format!("s{case}.yaml"));
        std::fs::write(&sfile, garble(&mut chance, scenario)).unwrap();
        for (args, named) in [
            (vec!["validate".to_string(), s(&rules)], file.to_string()),
            (vec!["run".to_string(), s(&sfile)], format!("s{case}.yaml")),
        ] {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let (code, out, err) = rulecheck_within(60, &args).expect("ends");
            assert_no_panic(code, &err);
            assert!((0..=2).contains(&code), "{args:?}: exit {code}: {out}{err}");
            if code == 2 {
                assert!(err.contains(&named), "{args:?}: exit 2 without naming {named}: {err}");
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Scenario files are strict too: a quoted number where a number belongs
/// is a type error at its line and column, not the number.
#[test]
fn a_quoted_number_in_a_scenario_is_a_type_error() {
    let dir = temp_dir("quoted-scenario");
    let file = dir.join("quoted.yaml");
    std::fs::write(
        &file,
        "title: T\nwhy: W\ngame: dry-gulch\nconfig: {players: '3', seed: 1}\nsteps: []\nexpect: {winner: p1}\n",
    )
    .unwrap();
    let (code, out, err) = rulecheck(&["run", &s(&file)]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("quoted.yaml:4:19:") && err.contains("`'3'` is a quoted string"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Random input through the library: no panic, and every diagnostic names
/// the file it is about.
mod random_input {
    use proptest::prelude::*;
    use proptest::strategy::ValueTree;
    use rulecheck::catalog::{self, GameSources};

    fn cases() -> u32 {
        std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(24)
    }

    /// YAML-shaped text: keys, flow and block collections, anchors, tags, quotes.
    fn yamlish() -> impl Strategy<Value = String> {
        let token = prop_oneof![
            Just("key: ".to_string()),
            Just("- ".to_string()),
            Just("\n".to_string()),
            Just("\n  ".to_string()),
            Just("{".to_string()),
            Just("}".to_string()),
            Just("[".to_string()),
            Just("]".to_string()),
            Just(", ".to_string()),
            Just("&a ".to_string()),
            Just("*a".to_string()),
            Just("!!str ".to_string()),
            Just("'q'".to_string()),
            Just("\"q\"".to_string()),
            Just("# c".to_string()),
            Just("---\n".to_string()),
            Just("id: saloon".to_string()),
            Just("game: dry-gulch".to_string()),
            Just("名前".to_string()),
            "[a-z]{1,8}".prop_map(|s| s),
        ];
        prop::collection::vec(token, 0..40).prop_map(|v| v.concat())
    }

    /// A bundled file with random bytes (no digits, so no number grows) put
    /// in or taken out.
    fn mutated(text: String) -> impl Strategy<Value = String> {
        let len = text.len();
        (0..len.max(1), 0usize..40, "[^0-9]{0,6}").prop_map(move |(at, cut, put)| {
            let bytes = text.as_bytes();
            let at = at.min(bytes.len());
            let end = (at + cut).min(bytes.len());
            let mut out = bytes[..at].to_vec();
            out.extend(put.as_bytes());
            out.extend(&bytes[end..]);
            String::from_utf8_lossy(&out).into_owned()
        })
    }

    fn bundled() -> GameSources {
        rulecheck::bundled::rules().unwrap().into_iter().find(|g| g.name == "dry-gulch").unwrap()
    }

    /// Loads the bundled catalog with `file` replaced by `bytes`.
    fn validate(file: &str, bytes: &[u8]) {
        let mut g = bundled();
        let shown = format!("rules/dry-gulch/{file}");
        match catalog::decode(&shown, bytes.to_vec()) {
            Ok(f) => {
                g.files.insert(file.to_string(), f);
                if let Err(diags) = rulecheck::games::load(&g) {
                    assert!(!diags.is_empty());
                    for d in diags {
                        assert!(d.file.starts_with("rules/dry-gulch"), "{d}");
                    }
                }
            }
            Err(d) => assert_eq!(d.file, shown),
        }
    }

    /// A proptest runner seeded from `seed`, for a strategy drawn inside a test.
    fn runner_from(seed: u64) -> proptest::test_runner::TestRunner {
        let mut s = [0u8; 32];
        s[..8].copy_from_slice(&seed.to_le_bytes());
        proptest::test_runner::TestRunner::new_with_rng(
            ProptestConfig::default(),
            proptest::test_runner::TestRng::from_seed(proptest::test_runner::RngAlgorithm::ChaCha, &s),
        )
    }

    /// Runs `text` as a scenario file against the bundled catalog.
    fn run(text: &str) {
        let catalogs = vec![rulecheck::games::load(&bundled()).unwrap()];
        let f = catalog::SourceFile { path: "random.yaml".into(), text: text.to_string() };
        if let Err(d) = rulecheck::scenario::run_file(&catalogs, &f) {
            assert_eq!(d.file, "random.yaml", "{d}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

        #[test]
        fn random_bytes_as_a_catalog_file_or_scenario_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..300), which in 0usize..7) {
            let file = rulecheck::games::dry_gulch::catalog::FILES[which];
            validate(file, &bytes);
            run(&String::from_utf8_lossy(&bytes));
        }

        #[test]
        fn random_yaml_as_a_catalog_file_or_scenario_never_panics(text in yamlish(), which in 0usize..7) {
            let file = rulecheck::games::dry_gulch::catalog::FILES[which];
            validate(file, text.as_bytes());
            run(&text);
        }

        #[test]
        fn mutated_bundled_scenarios_never_panic(which in 0usize..1000, seed in any::<u64>()) {
            let (_, bytes) = rulecheck::bundled::SCENARIOS[which % rulecheck::bundled::SCENARIOS.len()];
            let m = mutated(String::from_utf8_lossy(bytes).into_owned()).new_tree(&mut runner_from(seed)).unwrap().current();
            run(&m);
        }

        #[test]
        fn mutated_bundled_catalog_files_never_panic(which in 0usize..7, seed in any::<u64>()) {
            let file = rulecheck::games::dry_gulch::catalog::FILES[which];
            let text = bundled().files[file].text.clone();
            let mut runner = proptest::test_runner::TestRunner::new_with_rng(
                ProptestConfig::default(),
                proptest::test_runner::TestRng::from_seed(proptest::test_runner::RngAlgorithm::ChaCha, &{
                    let mut s = [0u8; 32];
                    s[..8].copy_from_slice(&seed.to_le_bytes());
                    s
                }),
            );
            let m = mutated(text).new_tree(&mut runner).unwrap().current();
            validate(file, m.as_bytes());
        }
    }
}

#[test]
fn a_termination_failure_is_not_shrunk_below_the_action_bound() {
    use rulecheck::check::fuzz::{FuzzOptions, fuzz};
    use rulecheck::check::suite::Checks;
    let g = rulecheck::bundled::rules().unwrap().into_iter().find(|g| g.name == "dry-gulch").unwrap();
    let rulecheck::games::AnyRules::DryGulch(rules) = rulecheck::games::load(&g).unwrap() else {
        unreachable!("the dry-gulch folder loads as Dry Gulch")
    };
    let config = rulecheck::engine::Config::new("dry-gulch", 3, 0);
    let opts = FuzzOptions {
        games: 1,
        seed: 1,
        jobs: 1,
        checks: Checks::INVARIANTS,
        fault: None,
        time_limit: None,
        max_actions: 30,
        shard: None,
    };
    let s = fuzz::<rulecheck::games::dry_gulch::State>(&rules, &config, &opts, &Default::default()).unwrap();
    let f = &s.failures[0];
    assert_eq!(f.broken, "termination", "{f:?}");
    assert_eq!(f.actions.len(), 30, "a shorter game proves nothing about the bound: {f:?}");
}

#[test]
fn yaml_1_1_booleans_are_not_booleans() {
    for spelling in ["yes", "on", "y"] {
        let dir = temp_dir("yaml11-bool");
        let rules = catalog_copy(&dir, |rel, t| {
            if rel == "dry-gulch/board.yaml" {
                t.replacen(
                    "{id: nw-2, kind: middle, reward: 1, edge: true}",
                    &format!("{{id: nw-2, kind: middle, reward: 1, edge: {spelling}}}"),
                    1,
                )
            } else {
                t
            }
        });
        let (code, out, err) = rulecheck(&["validate", &s(&rules)]);
        assert_no_panic(code, &err);
        assert_eq!(code, 2, "{spelling}: {out}{err}");
        assert!(err.contains("board.yaml:"), "{spelling}: {err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A terminal of a given width that records what is written to it.
#[derive(Debug, Clone)]
struct Screen {
    width: u16,
    written: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
}

impl indicatif::TermLike for Screen {
    fn width(&self) -> u16 {
        self.width
    }
    fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn write_line(&self, s: &str) -> std::io::Result<()> {
        self.write_str(s)
    }
    fn write_str(&self, s: &str) -> std::io::Result<()> {
        self.written.lock().unwrap().push(s.to_string());
        Ok(())
    }
    fn clear_line(&self) -> std::io::Result<()> {
        Ok(())
    }
    fn flush(&self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The progress line was 1,400 characters wide with a long configuration:
/// the bar (indicatif) cuts its label to the terminal's width.
#[test]
fn the_progress_bar_fits_the_terminal_width() {
    let label = format!("fuzz {}", "--interpretation x=y ".repeat(70));
    for width in [20u16, 80, 200] {
        let screen = Screen { width, written: Default::default() };
        let target = indicatif::ProgressDrawTarget::term_like(Box::new(screen.clone()));
        let bar = rulecheck::commands::progress_bar(target);
        bar.set_message(rulecheck::commands::progress_message(&label, 12, 1_000_000));
        bar.abandon();
        let written = screen.written.lock().unwrap();
        let line = written.iter().rev().find(|l| !l.trim().is_empty()).expect("the bar was drawn");
        assert!(line.chars().count() <= usize::from(width), "{width}: {} chars: {line}", line.chars().count());
        assert!(line.starts_with("12/1000000 games"), "{line}");
        assert!(width < 30 || line.contains("fuzz --interpretation"), "{line}");
        assert!(line.chars().count() > usize::from(width) - 5, "the line uses the width: {line}");
        assert!(!line.contains('\x1b'), "{line:?}");
    }
}

/// Progress is drawn only on a terminal that is not `TERM=dumb`; a run
/// whose stderr is a pipe has no progress line and no escape code in it.
#[test]
fn progress_is_hidden_off_a_terminal_and_under_term_dumb() {
    use rulecheck::commands::shows_progress;
    assert!(shows_progress(true, Some("xterm-256color")));
    assert!(shows_progress(true, None));
    assert!(!shows_progress(true, Some("dumb")));
    assert!(!shows_progress(false, Some("xterm")));
    let (code, _, err) = rulecheck(&["fuzz", "--game", "dry-gulch", "--games", "3"]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains('\r') && !err.contains('\x1b') && !err.contains("games"), "{err:?}");
}

#[test]
fn scenario_configuration_setup_and_expectation_errors_point_at_their_lines() {
    let dir = temp_dir("scenario-lines");
    let head = "title: T\nwhy: W\ngame: dry-gulch\n";
    for (body, line) in [
        ("config: {players: 2}\nsteps: []\nexpect: {winner: p1}\n", 4),
        (
            "config: {players: 3}\nsetup:\n  seats: {p1: {hand: {no-such-card: 1}}}\nsteps: []\nexpect: {winner: p1}\n",
            6,
        ),
        ("config: {players: 3}\nsteps: []\nexpect: {owner: {no-such-building: p1}}\n", 6),
    ] {
        let file = dir.join("lines.yaml");
        std::fs::write(&file, format!("{head}{body}")).unwrap();
        let (code, out, err) = rulecheck(&["run", &s(&file)]);
        assert_eq!(code, 2, "{body}: {out}{err}");
        assert!(err.contains(&format!("lines.yaml:{line}:")), "{body}: expected line {line}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_set_up_zone_is_one_the_game_names() {
    let dir = temp_dir("set-up-zones");
    let head = "title: T\nwhy: W\ngame: dry-gulch\nconfig: {players: 3}\nsetup:\n";
    let tables = "face-up, resource-deck, resource-discard, event-deck, event-discard, permit-deck, permit-discard, \
                  permits-spent";
    let sources = "resource-deck, resource-discard, event-deck, event-discard, hand";
    for (setup, says) in [
        ("  seats: {p1: {hnad: {lumber: 1}}}", "unknown zone `hnad`; a seat's zones: hand, permits".to_string()),
        ("  table: {discard: [lumber]}", format!("unknown zone `discard`; the table's zones: {tables}")),
        ("  table: {hand: [lumber]}", "`hand` is each seat's zone: write it under `seats: {p1: {hand: ...}}`".into()),
        ("  seats: {p2: {face-up: {fire: 1}}}", "`face-up` is the table's zone".into()),
        // zones only play fills: expectations name them, set-up may not set them
        ("  seats: {p2: {in-front: {fire: 1}}}", "set-up cannot set `in-front`: play puts what lies there".into()),
        ("  table: {offered: [bank]}", "set-up cannot set `offered`: play puts what lies there".into()),
        (
            "  seats: {p1: {hand: {lumber: 200}}}",
            format!(
                "no card `lumber` is left to place (set-up takes them from {sources}, but never from a seat's zone it has set)"
            ),
        ),
    ] {
        let file = dir.join("zones.yaml");
        std::fs::write(&file, format!("{head}{setup}\nsteps: []\nexpect: {{winner: none}}\n")).unwrap();
        let (code, out, err) = rulecheck(&["run", &s(&file)]);
        assert_eq!(code, 2, "{setup}: {out}{err}");
        assert!(err.contains("zones.yaml:6:") && err.contains(&says), "{setup}: expected {says:?}: {err}");
    }
    // Dodge City's words are the same engine's
    let dc = "title: T\nwhy: W\ngame: dodge-city\nconfig: {players: 3}\nsetup:\n  table: {hand: [indio]}\n\
              steps: []\nexpect: {phase: marshal}\n";
    let file = dir.join("zones.yaml");
    std::fs::write(&file, dc).unwrap();
    let (code, out, err) = rulecheck(&["run", &s(&file)]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("zones.yaml:6:") && err.contains("`hand` is each seat's zone"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A Dodge City set-up places each token from its seat's supply onto an
/// empty square: two on one square is bad input at the set-up's line (it
/// used to put the second over the first, and the first token was lost).
#[test]
fn a_set_up_token_goes_onto_an_empty_square() {
    let dir = temp_dir("set-up-tokens");
    let file = dir.join("tokens.yaml");
    for (players, says) in [("p1: [c1r1], p2: [c1r1]", "c1r1 of the Saloon is already taken"), ("p1: [c1r1]", "")] {
        let text = format!(
            "title: T\nwhy: W\ngame: dodge-city\nconfig: {{players: 2}}\nsetup:\n  tokens: {{saloon: {{{players}}}}}\n\
             steps: []\nexpect: {{phase: marshal, supply: {{p1: 40}}}}\n"
        );
        std::fs::write(&file, text).unwrap();
        let (code, out, err) = rulecheck(&["run", &s(&file)]);
        if says.is_empty() {
            assert_eq!(code, 0, "{players}: {out}{err}");
        } else {
            assert_eq!(code, 2, "{players}: {out}{err}");
            assert!(err.contains("tokens.yaml:6:") && err.contains(says), "{players}: expected {says:?}: {err}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// An expectation names a zone in the set-up's words; a zone the game does
/// not have (or a kind of component it has no fact for) is bad input at
/// the expectation's line, naming the zones there are.
#[test]
fn an_expected_zone_is_one_the_game_names() {
    let dir = temp_dir("expected-zones");
    // every zone, the ones only play fills included
    let tables = "draft-pool, event-deck, event-discard, face-up, offered, permit-deck, permit-discard, permits-spent, \
                  played, resource-deck, resource-discard, revealed";
    let seats = "hand, in-front, influence-cards, permits, waiting-permits, waiting";
    for (game, expect, says) in [
        ("dry-gulch", "seats: {p1: {hnad: {lumber: 1}}}", format!("`seats.p1` may name {seats}")),
        ("dry-gulch", "table: {discard: 3}", format!("`table` may name {tables}")),
        ("dry-gulch", "table: {face-up: {lumbr: 1}}", "`table.face-up` may name ".to_string()),
        ("dodge-city", "seats: {p2: {permits: {saloon: 1}}}", "`seats.p2` may name hand".into()),
        ("dry-gulch", "table: {face-up: true}", "expected how many it holds (`3`), exactly what it holds".into()),
    ] {
        let file = dir.join("zones.yaml");
        let text = format!("title: T\nwhy: W\ngame: {game}\nconfig: {{players: 3}}\nsteps: []\nexpect:\n  {expect}\n");
        std::fs::write(&file, text).unwrap();
        let (code, out, err) = rulecheck(&["run", &s(&file)]);
        assert_eq!(code, 2, "{expect}: {out}{err}");
        assert!(err.contains("zones.yaml:7:") && err.contains(&says), "{expect}: expected {says:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs the binary, killing it after `secs` seconds: a guard so that a
/// regression of a hang fails the test instead of hanging the suite.
fn rulecheck_within(secs: u64, args: &[&str]) -> Option<(i32, String, String)> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rulecheck"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let start = std::time::Instant::now();
    while start.elapsed() < std::time::Duration::from_secs(secs) {
        if child.try_wait().unwrap().is_some() {
            let out = child.wait_with_output().unwrap();
            return Some((
                out.status.code().unwrap_or(-1),
                String::from_utf8_lossy(&out.stdout).into_owned(),
                String::from_utf8_lossy(&out.stderr).into_owned(),
            ));
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

/// `deal_resources: 1000000000` used to keep drawing from an empty deck:
/// the deal now ends when nothing is left to give (and a billion is past
/// the bound on catalog numbers, `a_billion_card_deck_is_refused_at_its_count`).
#[test]
fn a_deal_larger_than_the_deck_ends_when_the_deck_is_empty() {
    let dir = temp_dir("huge-deal");
    let rules = catalog_copy(&dir, |rel, t| {
        if rel.ends_with("game.yaml") { t.replace("deal_resources: 5", "deal_resources: 10000") } else { t }
    });
    let args = ["fuzz", "--game", "dry-gulch", "--games", "2", "--players", "3", "--rules", &s(&rules)];
    let (code, out, err) = rulecheck_within(60, &args).expect("the deal ends");
    assert_no_panic(code, &err);
    assert!(code == 0 || code == 1, "{out}{err}");
}

/// `max_players: 1000000000` used to give one diagnostic per player count
/// until memory ran out: it is one diagnostic naming the bound.
#[test]
fn a_huge_player_count_is_one_diagnostic_naming_the_bound() {
    let dir = temp_dir("huge-players");
    let rules = catalog_copy(&dir, |rel, t| {
        if rel.ends_with("game.yaml") { t.replace("max_players: 6", "max_players: 1000000000") } else { t }
    });
    let (code, _, err) = rulecheck_within(60, &["validate", &s(&rules)]).expect("validation ends");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("max_players 1000000000 is more than the 64 seats the engine plays"), "{err}");
    assert!(err.lines().count() < 60, "one diagnostic per player count:\n{}", &err[..err.len().min(2000)]);
}

/// Six colours × 715,827,883 chips wraps to 2 in 32 bits; the product is
/// checked, so the total of 2 is not taken for it.
#[test]
fn a_chip_product_that_wraps_does_not_equal_the_total() {
    let dir = temp_dir("wrapping-chips");
    let rules = catalog_copy(&dir, |rel, t| {
        if rel.ends_with("game.yaml") {
            t.replace("chips: {3: 17, 4: 15, 5: 13, 6: 11}", "chips: {3: 715827883, 4: 15, 5: 13, 6: 11}")
                .replace("  chips: 102\n", "  chips: 2\n")
        } else {
            t
        }
    });
    let (code, _, err) = rulecheck(&["validate", &s(&rules)]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("components.chips is 2 but 6 colours × 715827883 chips"), "{err}");
}

/// `apply` never panics on any action value: out-of-range card, building
/// and plot indexes in every action shape are rule errors that leave the
/// state unchanged.
#[test]
fn apply_with_out_of_range_indexes_is_a_rule_error_not_a_panic() {
    use rulecheck::engine::{Config, Game, Id, Kind};
    use rulecheck::games::dry_gulch::{Action, State};
    let srcs = rulecheck::bundled::rules().unwrap();
    let rulecheck::games::AnyRules::DryGulch(rules) =
        rulecheck::games::load(srcs.iter().find(|g| g.name == "dry-gulch").unwrap()).unwrap()
    else {
        unreachable!("the dry-gulch folder loads as Dry Gulch")
    };
    let mut state = State::new(&rules, &Config::new("dry-gulch", 4, 1)).unwrap();
    let mut pick = rulecheck::engine::Chance::new(3);
    let mut legal = Vec::new();
    let mut states = Vec::new();
    // states from every phase of a random game, one every third action
    for step in 0..700 {
        state.legal_actions(&rules, &mut legal);
        if legal.is_empty() {
            break;
        }
        if step % 3 == 0 {
            states.push(state.clone());
        }
        let a = legal.swap_remove(pick.below(legal.len() as u32) as usize);
        state.apply(&rules, &a).unwrap();
    }
    assert!(states.len() > 20, "{} states", states.len());
    // ids far past the catalog's entities of each kind
    fn far<K: Kind>() -> Id<K> {
        Id::new(250).unwrap()
    }
    let actions = [
        Action::PlaceResidence(far()),
        Action::DraftPermit(far()),
        Action::DiscardRevealed(far()),
        Action::KeepRevealed(far()),
        Action::ReopenTownHall(vec![(far(), 2)]),
        Action::TakeFaceUpPermit(far()),
        Action::KeepPermit(far()),
        Action::ChoosePermit(far()),
        Action::PlayInfluence(far()),
        Action::PlayDisaster { card: far(), plot: far() },
        Action::Resolve { card: far(), plot: Some(far()) },
        Action::Discard(far()),
        Action::Protect(Some(far())),
        Action::SpreadTo(far()),
        Action::Choose { choice: 9, option: 9 },
    ];
    for state in &states {
        for a in &actions {
            let before = serde_json::to_string(state).unwrap();
            let mut s = state.clone();
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| s.apply(&rules, a)));
            match result {
                Ok(r) => assert!(r.is_err(), "{a:?} was accepted"),
                Err(_) => panic!("apply panicked on {a:?}"),
            }
            assert_eq!(before, serde_json::to_string(&s).unwrap(), "{a:?} changed the state");
        }
    }
}

/// `build.rs`, included so its walk can be tested on a folder of our own.
#[allow(dead_code)]
#[path = "../build.rs"]
mod build_script;

/// The walk that embeds `rules/` and `scenarios/` used to follow symlinks
/// without end (two loops never finished): it enters each directory once,
/// and takes only regular files (a FIFO would block the compiler).
#[cfg(unix)]
#[test]
fn the_build_script_walk_ends_on_symlink_loops_and_skips_fifos() {
    let dir = temp_dir("build-walk");
    let root = dir.join("rules");
    std::fs::create_dir_all(root.join("g/sub")).unwrap();
    std::fs::write(root.join("g/game.yaml"), "x: 1\n").unwrap();
    std::fs::write(root.join("g/sub/more.yaml"), "x: 1\n").unwrap();
    std::os::unix::fs::symlink(&root, root.join("g/sub/up")).unwrap();
    std::os::unix::fs::symlink(root.join("g"), root.join("g/sub/back")).unwrap();
    mkfifo(&root.join("g/pipe.yaml"));
    let (tx, rx) = std::sync::mpsc::channel();
    let walked = root.clone();
    std::thread::spawn(move || {
        let mut out = Vec::new();
        build_script::collect(&walked, &walked, &mut out, &mut Default::default());
        let _ = tx.send(out);
    });
    let out = rx.recv_timeout(std::time::Duration::from_secs(20)).expect("the walk ends");
    assert_eq!(out, ["g/game.yaml", "g/sub/more.yaml"]);
    let _ = std::fs::remove_dir_all(&dir);
}

fn bundled_dry_gulch() -> Box<rulecheck::games::dry_gulch::Rules> {
    let g = rulecheck::bundled::rules().unwrap().into_iter().find(|g| g.name == "dry-gulch").unwrap();
    let rulecheck::games::AnyRules::DryGulch(rules) = rulecheck::games::load(&g).unwrap() else {
        unreachable!("the dry-gulch folder loads as Dry Gulch")
    };
    rules
}

/// `fuzz` used to keep every game's actions until the end of the run: it
/// folds each game into the totals as it ends and keeps the actions of the
/// first failing game only, so what it holds does not grow with the games.
#[test]
fn fuzz_keeps_only_the_first_failing_game_however_many_it_plays() {
    use rulecheck::check::fuzz::{FuzzOptions, Retention, fuzz_retaining};
    use std::sync::atomic::Ordering;
    let rules = bundled_dry_gulch();
    let config = rulecheck::engine::Config::new("dry-gulch", 3, 0);
    let opts = |max_actions| FuzzOptions {
        games: 40,
        seed: 1,
        jobs: 2,
        checks: rulecheck::check::suite::Checks::INVARIANTS,
        fault: None,
        time_limit: None,
        max_actions,
        shard: None,
    };
    let run = |max_actions| {
        let held = Retention::default();
        let s = fuzz_retaining::<rulecheck::games::dry_gulch::State>(
            &rules,
            &config,
            &opts(max_actions),
            &Default::default(),
            &held,
        )
        .unwrap();
        (s, held.peak_games.load(Ordering::Relaxed), held.peak_actions.load(Ordering::Relaxed))
    };
    let (clean, games, actions) = run(200_000);
    assert!(clean.failures.is_empty() && clean.games == 40 && clean.actions > 1000, "{clean:?}");
    assert_eq!((games, actions), (0, 0), "a run without failures keeps no game");
    // 30 actions end no game: every game fails `termination`
    let (failing, games, actions) = run(30);
    assert_eq!(failing.outcomes.get("failed"), Some(&40), "{:?}", failing.outcomes);
    assert_eq!(failing.failures[0].seed, 1, "the first failure by game index");
    assert!(games <= 2 && actions <= 60, "held {games} games, {actions} actions at once");
}

/// `check --budget` bounded only the fuzz stage: a slow scenario (here one
/// file of 20,000 configurations, each a whole random game, a minute or
/// more of play) held it as long as it ran. The budget now bounds the
/// scenario stage too; what it did not run is a failure that says so.
#[test]
fn check_budget_bounds_the_scenario_stage() {
    let dir = temp_dir("slow-scenario");
    let folder = dir.join("scenarios");
    std::fs::create_dir_all(&folder).unwrap();
    let configs: String = (0..20_000).map(|i| format!("  - {{players: 3, seed: {i}}}\n")).collect();
    std::fs::write(
        folder.join("slow.yaml"),
        format!(
            "title: Slow\nwhy: many whole games\ngame: dry-gulch\nconfigs:\n{configs}steps:\n  - play_randomly: {{seed: 1, actions: 100000}}\n"
        ),
    )
    .unwrap();
    let started = std::time::Instant::now();
    let (code, out, err) =
        rulecheck_within(40, &["check", "--budget", "2s", "--scenarios", &s(&folder), "--jobs", "1"])
            .expect("check ends within its budget and the first game of each configuration");
    assert_no_panic(code, &err);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("ran out in the scenario stage with 1 of 1 scenario file(s) not run"), "{out}");
    assert!(started.elapsed().as_secs() < 40);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A saved counterexample of a contract failure used to pass `run`: a
/// game that stalls (no legal action before the end) is saved with a last
/// random step, which fails `run` for that reason; a failure `run` does
/// not check (termination here) is not saved as a scenario that would pass.
#[test]
fn a_contract_counterexample_fails_run_for_its_reason_or_is_not_saved() {
    use rulecheck::check::fuzz::{FuzzOptions, fuzz};
    use rulecheck::games::AnyRules;
    let opts = |max_actions| FuzzOptions {
        games: 1,
        seed: 1,
        jobs: 1,
        checks: rulecheck::check::suite::Checks::INVARIANTS,
        fault: None,
        time_limit: None,
        max_actions,
        shard: None,
    };
    let rules = rules_with_five_residence_plots();
    let config = rulecheck::engine::Config::new("dry-gulch", 6, 0);
    let s = fuzz::<rulecheck::games::dry_gulch::State>(&rules, &config, &opts(200_000), &Default::default()).unwrap();
    let f = &s.failures[0];
    assert_eq!(f.broken, "legal-nonempty", "{f:?}");
    let catalogs = vec![AnyRules::DryGulch(rules)];
    let seeded = rulecheck::engine::Config { seed: f.seed, ..config.clone() };
    let text = rulecheck::commands::counterexample(&catalogs[0], &seeded, f).expect("saved");
    let file = rulecheck::catalog::SourceFile { path: "ce.yaml".into(), text: text.clone() };
    let run = rulecheck::scenario::run_file(&catalogs, &file).unwrap_or_else(|d| panic!("{d}\n{text}"));
    assert!(!run.passed(), "the counterexample passes:\n{text}");
    // the same reason: the step's contract check sees the empty legal list
    let reason = |m: &String| m.contains("legal-nonempty") || m.contains("no legal action");
    assert!(run.runs[0].failures.iter().any(reason), "{:?}", run.runs[0].failures);
    // termination: `run` bounds no game, so no file that would pass
    let rules = bundled_dry_gulch();
    let config = rulecheck::engine::Config::new("dry-gulch", 3, 0);
    let s = fuzz::<rulecheck::games::dry_gulch::State>(&rules, &config, &opts(30), &Default::default()).unwrap();
    let f = &s.failures[0];
    assert_eq!(f.broken, "termination");
    let seeded = rulecheck::engine::Config { seed: f.seed, ..config };
    let err = rulecheck::commands::counterexample(&AnyRules::DryGulch(rules), &seeded, f).unwrap_err();
    assert!(err.contains("`termination` is not checked by `rulecheck run`"), "{err}");
}
