//! The command line end to end: `check` covers every bundled game, sharded
//! fuzz runs merge into the single-machine totals, results do not depend on
//! the thread count, and exit codes follow the README.

use serde_json::Value;

use crate::support::rulecheck;

/// A summary without its wall time (which differs between runs).
fn totals(json: &str) -> Value {
    let mut v: Value = serde_json::from_str(json).expect("a JSON summary");
    v.as_object_mut().expect("an object").remove("seconds");
    v
}

#[test]
fn check_covers_every_bundled_game() {
    let (code, out, err) = rulecheck(&["check", "--budget", "4s", "--format", "json"]);
    assert_eq!(code, 0, "{err}\n{out}");
    let report: Value = serde_json::from_str(&out).unwrap();
    let mut in_summary: Vec<String> =
        report["games"].as_array().unwrap().iter().map(|g| g["game"].as_str().unwrap().to_string()).collect();
    in_summary.sort();
    let mut bundled: Vec<String> = rulecheck::bundled::rules().unwrap().iter().map(|g| g.name.clone()).collect();
    bundled.sort();
    assert_eq!(in_summary, bundled);
    for g in report["games"].as_array().unwrap() {
        assert!(g["games"].as_u64().unwrap() > 0, "{g}");
        // Dry Gulch's floor; a game still being built has its own (its first slice)
        let floor = if g["game"] == "dry-gulch" { 40 } else { 10 };
        assert!(g["scenarios_passed"].as_u64().unwrap() >= floor, "{g}");
        assert_eq!(g["scenarios_passed"], g["scenarios_total"], "{g}");
    }
}

/// Under a house-rules overlay that adds an event card, the bundled seeded
/// scenarios take other paths: `check` and `run` list each as parting from
/// the bundled rules, where it parts first, and hold; named with
/// `--scenarios` or as a path, such a scenario is the user's input and is
/// refused as before.
#[test]
fn bundled_scenarios_under_an_overlay_show_where_they_part() {
    let house = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/catalogs/house-rules");
    let (code, out, err) = rulecheck(&["check", "--rules", house, "--budget", "3s", "--format", "json"]);
    assert_eq!(code, 0, "{err}\n{out}");
    let report: Value = serde_json::from_str(&out).unwrap();
    let g = &report["games"][0];
    assert_eq!(g["game"], "dry-gulch");
    assert_eq!(g["failures"].as_array().unwrap().len(), 0, "{g}");
    let parted: Vec<&str> = g["parted"].as_array().unwrap().iter().map(|p| p.as_str().unwrap()).collect();
    let markers = "scenarios/dry-gulch/found/found-markers-3.yaml:78:3: step 19: illegal action `build hotel";
    assert!(parted.iter().any(|p| p.starts_with(markers) && p.ends_with("no permit for Hotel")), "{parted:?}");
    // a scenario that plays to its end and finds another state says which fact
    let town_hall = "scenarios/dry-gulch/town-hall-damage-closes-and-reopens.yaml [default]: seats.p3.permits.opera:";
    assert!(parted.iter().any(|p| p.starts_with(town_hall)), "{parted:?}");
    let (code, out, err) = rulecheck(&["run", "--rules", house]);
    assert_eq!(code, 0, "{err}\n{out}");
    assert!(out.contains(&format!("PARTS {markers}")), "{out}");
    assert!(out.contains(&format!("; {} part from the bundled rules they pin", parted.len())), "{out}");
    // the same runs as JSON: an unplayable one is a run with where it stops
    let (code, out, err) = rulecheck(&["run", "--rules", house, "--format", "json"]);
    assert_eq!(code, 0, "{err}\n{out}");
    let runs: Value = serde_json::from_str(&out).unwrap();
    let unplayable: Vec<&str> = runs.as_array().unwrap().iter().filter_map(|r| r["unplayable"].as_str()).collect();
    assert!(unplayable.iter().any(|u| u.starts_with(markers)), "{unplayable:?}");
    let failed = runs.as_array().unwrap().iter().flat_map(|r| r["runs"].as_array().unwrap());
    let failed = failed.filter(|c| c["passed"] == false).count();
    assert_eq!(unplayable.len() + failed, parted.len(), "{out}");
    let named = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/dry-gulch/found/found-markers-3.yaml");
    let (code, _, err) = rulecheck(&["run", named, "--rules", house]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("found-markers-3.yaml:78:3: error: step 19: illegal action"), "{err}");
}

#[test]
fn shards_merge_to_the_single_machine_totals() {
    let base = [
        "fuzz",
        "--game",
        "dry-gulch",
        "--games",
        "30",
        "--seed",
        "7",
        "--players",
        "3",
        "--format",
        "json",
        "--jobs",
        "1",
    ];
    let (code, whole, err) = rulecheck(&base);
    assert_eq!(code, 0, "{err}");
    let dir = std::env::temp_dir().join(format!("rulecheck-shards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut files = Vec::new();
    for k in 1..=3 {
        let shard = format!("{k}/3");
        let mut args = base.to_vec();
        args.extend(["--shard", &shard]);
        let (code, out, err) = rulecheck(&args);
        assert_eq!(code, 0, "{err}");
        let f = dir.join(format!("shard-{k}.json"));
        std::fs::write(&f, out).unwrap();
        files.push(f.display().to_string());
    }
    let mut args = vec!["merge", "--format", "json"];
    args.extend(files.iter().map(String::as_str));
    let (code, merged, err) = rulecheck(&args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(totals(&merged), totals(&whole));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A failure found by one shard is printed by `merge` with a command that
/// reproduces it (the bound on actions is the run's, not a refused 0);
/// shards run with different bounds are not parts of one run.
#[test]
fn a_merged_failure_prints_the_command_that_reproduces_it() {
    let dir = std::env::temp_dir().join(format!("rulecheck-merge-fault-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let shard = |k: u32, extra: &[&str]| {
        let shard = format!("{k}/2");
        let mut args = vec!["fuzz", "--game", "dry-gulch", "--games", "6", "--seed", "1", "--players", "3"];
        args.extend(["--fault", "no-hand-limit", "--format", "json", "--shard", &shard]);
        args.extend(extra);
        let (code, out, err) = rulecheck(&args);
        assert!(code <= 1, "{err}");
        let f = dir.join(format!("shard-{k}{}.json", extra.len()));
        std::fs::write(&f, out).unwrap();
        f.display().to_string()
    };
    let (one, two) = (shard(1, &[]), shard(2, &[]));
    let (code, out, err) = rulecheck(&["merge", &one, &two]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(!out.contains("(0 jobs)"), "{out}");
    let line = out.lines().find_map(|l| l.trim().strip_prefix("reproduce: rulecheck ")).expect(&out);
    assert!(!line.contains("--max-actions"), "{line}");
    let (code, again, _) = rulecheck(&line.split(' ').collect::<Vec<_>>());
    assert_eq!(code, 1, "the printed command finds the failure again: {line}\n{again}");
    assert!(again.contains("invariant `hand-limit` broken"), "{again}");
    let bounded = shard(2, &["--max-actions", "100000"]);
    let (code, _, err) = rulecheck(&["merge", &one, &bounded]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("different action bounds"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn fuzz_results_do_not_depend_on_jobs() {
    let run = |jobs: &str| {
        let (code, out, err) = rulecheck(&[
            "fuzz",
            "--game",
            "dry-gulch",
            "--games",
            "24",
            "--players",
            "5",
            "--format",
            "json",
            "--jobs",
            jobs,
        ]);
        assert_eq!(code, 0, "{err}");
        totals(&out)
    };
    assert_eq!(run("1"), run("2"));
}

#[test]
fn a_planted_fault_is_found_shrunk_and_saved_as_a_failing_scenario() {
    let dir = std::env::temp_dir().join(format!("rulecheck-fault-{}", std::process::id()));
    let save = dir.display().to_string();
    let (code, out, _) = rulecheck(&[
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
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("invariant `hand-limit` broken"), "{out}");
    assert!(out.contains("reproduce: rulecheck fuzz --game dry-gulch --players 3 --seed"), "{out}");
    let saved: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(saved.len(), 1);
    let file = saved[0].display().to_string();
    let steps = std::fs::read_to_string(&saved[0]).unwrap().matches("- by:").count();
    assert!(steps <= 80, "the counterexample has {steps} steps");
    // the command it prints beside the file carries the fault, so it fails
    assert!(out.contains(&format!("(rulecheck run {file} --fault no-hand-limit fails until")), "{out}");
    let (code, out, _) = rulecheck(&["run", &file, "--fault", "no-hand-limit"]);
    assert_eq!(code, 1, "with the fault the scenario fails: {out}");
    assert!(out.contains("hand-limit"), "{out}");
    let (code, out, _) = rulecheck(&["run", &file]);
    assert_eq!(code, 0, "without the fault it passes: {out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A game longer than `--max-actions` breaks `termination`; the command
/// that reproduces it carries the bound, and the failure says how a house
/// rule whose games are long by design is played to its end.
#[test]
fn a_game_past_max_actions_breaks_termination_and_its_reproduction_keeps_the_bound() {
    let (code, out, _) =
        rulecheck(&["fuzz", "--game", "dry-gulch", "--games", "1", "--players", "3", "--max-actions", "40"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("`termination` broken: no end after 40 actions"), "{out}");
    assert!(out.contains("--games 1 --max-actions 40\n"), "{out}");
    assert!(out.contains("plays to its end with a larger --max-actions"), "{out}");
    let (code, out, _) = rulecheck(&["fuzz", "--game", "dry-gulch", "--games", "1", "--players", "3"]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(rulecheck(&["fuzz", "--game", "dry-gulch", "--max-actions", "0"]).0, 2);
}

/// `check --max-actions` bounds each fuzzed game as `fuzz` does, and the
/// command each failure prints to reproduce it keeps the bound.
#[test]
fn check_bounds_each_game_by_max_actions_and_its_reproductions_keep_the_bound() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let rules = crate::support::Scratch::copy_of(&root.join("rules/dry-gulch"), "check-max-actions");
    let scenarios = rules.0.parent().unwrap().join("scenarios");
    std::fs::create_dir_all(&scenarios).unwrap();
    let one = "advanced-setup-reverse-order-permit-draft.yaml";
    std::fs::copy(root.join("scenarios/dry-gulch").join(one), scenarios.join(one)).unwrap();
    let scenarios = scenarios.to_str().unwrap();
    let check = ["check", "--rules", rules.path(), "--scenarios", scenarios, "--budget", "1s", "--jobs", "1"];
    let (code, out, err) = rulecheck(&[&check[..], &["--max-actions", "40"]].concat());
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("contract `termination` broken: no end after 40 actions"), "{out}");
    assert!(out.contains(" --games 1 --rules ") && out.contains(" --max-actions 40\n"), "{out}");
    let (code, out, err) = rulecheck(&check);
    assert!(!out.contains("termination") && !out.contains("--max-actions"), "{code} {out}{err}");
    assert_eq!(rulecheck(&[&check[..], &["--max-actions", "0"]].concat()).0, 2);
}

#[test]
fn exit_codes() {
    assert_eq!(rulecheck(&["validate"]).0, 0);
    assert_eq!(rulecheck(&["validate", "/no/such/folder"]).0, 2);
    assert_eq!(rulecheck(&["fuzz", "--game", "dry-gulch", "--players", "9", "--games", "1"]).0, 2);
    assert_eq!(
        rulecheck(&["fuzz", "--game", "dry-gulch", "--interpretation", "win-check=sometimes", "--games", "1"]).0,
        2
    );
    assert_eq!(rulecheck(&["fuzz", "--game", "no-such-game", "--games", "1"]).0, 2);
    assert_eq!(rulecheck(&["merge", "Cargo.toml"]).0, 2);
}

/// The scenario × interpretation matrix runs, and every live interpretation
/// but one has a scenario whose outcome changes with its option; the one
/// (`labor-card-value`) cannot change play with this catalog, and its entry
/// says so. The whole matrix is built once, in process (it plays every
/// scenario under some 140 options); the command runs on one file.
#[test]
fn matrix_finds_a_distinguishing_scenario_for_every_interpretation_that_matters() {
    let catalogs: Vec<_> =
        rulecheck::bundled::rules().unwrap().iter().map(|g| rulecheck::games::load(g).unwrap()).collect();
    let files = rulecheck::bundled::scenarios().unwrap();
    let dry_gulch = catalogs.iter().find(|c| c.id() == "dry-gulch").unwrap();
    let m = rulecheck::matrix::matrix(&catalogs, dry_gulch, &files);
    assert!(m.rows.len() >= 40);
    assert_eq!(m.undistinguished, vec!["labor-card-value".to_string()]);
    let entry = dry_gulch.interpretations().iter().find(|i| i.id == "labor-card-value").unwrap();
    assert!(entry.reason.contains("cannot change play"), "{}", entry.reason);
    let text = rulecheck::matrix::render(&m);
    assert!(text.contains("no distinguishing scenario: labor-card-value\n"), "{text}");
    // the command prints the same rendering, here of one file's row
    let file = "scenarios/dry-gulch/fire-spread-extent-all-or-one-neighbour.yaml";
    let (code, out, err) = rulecheck(&["matrix", "--game", "dry-gulch", file]);
    assert_eq!(code, 0, "{err}");
    let row = text.lines().find(|l| l.ends_with(file)).expect("the file has a row");
    assert!(out.starts_with("matrix dry-gulch: 1 scenarios × ") && out.contains(&format!("{row}\n")), "{out}");
}

/// Runs the binary with the environment variables `env` set.
fn rulecheck_env(args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_rulecheck"))
        .args(args)
        .env_remove("RULECHECK_SHARD")
        .env_remove("RULECHECK_SHARDS")
        .env_remove("JOB_COMPLETION_INDEX")
        .envs(env.iter().copied())
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const SMALL_FUZZ: [&str; 11] =
    ["fuzz", "--game", "dry-gulch", "--games", "12", "--players", "3", "--format", "json", "--jobs", "1"];

/// A Kubernetes Indexed Job gives each pod `JOB_COMPLETION_INDEX` (0-based);
/// with the number of shards from `--shards` or `RULECHECK_SHARDS`, index 1
/// of 3 plays exactly what `--shard 2/3` plays.
#[test]
fn a_kubernetes_completion_index_picks_the_same_shard_as_the_flag() {
    let with = |extra: &[&str], env: &[(&str, &str)]| {
        let mut args = SMALL_FUZZ.to_vec();
        args.extend(extra);
        let (code, out, err) = rulecheck_env(&args, env);
        assert_eq!(code, 0, "{extra:?} {env:?}: {err}");
        totals(&out)
    };
    let by_flag = with(&["--shard", "2/3"], &[]);
    assert_eq!(by_flag["shard"], serde_json::json!({"of": 3, "parts": [2]}), "{by_flag}");
    assert_eq!(with(&["--shards", "3"], &[("JOB_COMPLETION_INDEX", "1")]), by_flag);
    assert_eq!(with(&[], &[("JOB_COMPLETION_INDEX", "1"), ("RULECHECK_SHARDS", "3")]), by_flag);
    assert_eq!(with(&[], &[("RULECHECK_SHARD", "2/3"), ("JOB_COMPLETION_INDEX", "0")]), by_flag);
}

/// A bad completion index or shard count is bad input naming the variable
/// (or flag) it came from.
#[test]
fn a_bad_completion_index_or_shard_count_names_its_variable() {
    type Case<'a> = (&'a [&'a str], &'a [(&'a str, &'a str)], &'a str);
    let cases: [Case; 7] = [
        (&[], &[("JOB_COMPLETION_INDEX", "x"), ("RULECHECK_SHARDS", "3")], "JOB_COMPLETION_INDEX"),
        (&[], &[("JOB_COMPLETION_INDEX", "3"), ("RULECHECK_SHARDS", "3")], "JOB_COMPLETION_INDEX"),
        (&[], &[("JOB_COMPLETION_INDEX", "0")], "RULECHECK_SHARDS"),
        (&[], &[("JOB_COMPLETION_INDEX", "0"), ("RULECHECK_SHARDS", "0")], "RULECHECK_SHARDS"),
        (&[], &[("JOB_COMPLETION_INDEX", "0"), ("RULECHECK_SHARDS", "many")], "RULECHECK_SHARDS"),
        (&["--shards", "3"], &[], "JOB_COMPLETION_INDEX"),
        (&["--shards", "3", "--shard", "1/3"], &[], "--shard"),
    ];
    for (extra, env, names) in cases {
        let mut args = SMALL_FUZZ.to_vec();
        args.extend(extra);
        let (code, out, err) = rulecheck_env(&args, env);
        assert_eq!(code, 2, "{extra:?} {env:?}: {out}{err}");
        assert!(err.contains(names) && !err.contains("panicked"), "{extra:?} {env:?}: {err}");
    }
}

/// `bench --against` measures this build and another in alternating rounds
/// and gives each row's ratio; measured against itself, every row of the
/// game asked for is there with finite, positive rates.
#[test]
fn bench_against_another_build_reports_a_ratio_per_row() {
    let me = env!("CARGO_BIN_EXE_rulecheck");
    let args = ["bench", "--game", "dry-gulch", "--games", "2", "--repetitions", "1", "--format", "json"];
    let (code, out, err) = rulecheck(&[&args[..], &["--against", me]].concat());
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["against"], me);
    let rows = v["rows"].as_array().expect("rows");
    let players: Vec<u64> = rows.iter().map(|r| r["players"].as_u64().unwrap()).collect();
    assert_eq!(players, [3, 4, 5, 6], "{out}");
    for r in rows {
        assert_eq!(r["game"], "dry-gulch");
        for key in ["checked_ratio", "bare_ratio"] {
            let x = r[key].as_f64().unwrap();
            assert!(x.is_finite() && x > 0.0, "{key}: {r}");
        }
        assert_eq!(
            r["checked_ratio"].as_f64().unwrap(),
            r["checked"][0].as_f64().unwrap() / r["checked"][1].as_f64().unwrap()
        );
    }
}

/// A program that cannot run, or that prints no bench report, is bad input
/// named in the message; so is a game no catalog has.
#[test]
fn bench_against_refuses_what_is_not_a_build_of_rulecheck() {
    let base = ["bench", "--games", "1", "--repetitions", "1"];
    let cases: [(&[&str], &str); 3] = [
        (&["--game", "dry-gulch", "--against", "/nonexistent/rulecheck"], "could not be run"),
        (&["--game", "dry-gulch", "--against", "/bin/echo"], "did not print a bench report"),
        (&["--game", "nope"], "unknown game `nope`"),
    ];
    for (extra, says) in cases {
        let (code, out, err) = rulecheck(&[&base[..], extra].concat());
        assert_eq!(code, 2, "{extra:?}: {out}{err}");
        assert!(err.contains(says) && !err.contains("panicked"), "{extra:?}: {err}");
    }
}
