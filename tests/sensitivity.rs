//! `rulecheck sensitivity` (issue #13 item 3): the assumed numbers are
//! found in the source and rewritten exactly where they stand, a number the
//! engine never reads ranks at zero and one that decides the game ranks
//! first, a change the validator refuses is reported with its place, the
//! ranking does not depend on the thread count, and bad arguments exit 2.

use serde_json::Value;

use rulecheck::check::sensitivity::{Change, Number, Record, find_sites, group_sites, pair, perturb};

use rulecheck::games::red_dog_junction::readings::P;

use crate::support::rulecheck;

fn run_json(args: &[&str]) -> Value {
    let mut all = vec!["sensitivity", "--format", "json"];
    all.extend_from_slice(args);
    let (code, out, err) = rulecheck(&all);
    assert_eq!(code, 0, "{err}\n{out}");
    serde_json::from_str(&out).expect("a JSON report")
}

fn row<'a>(report: &'a Value, group: &str) -> &'a Value {
    let rows = report["ranking"].as_array().expect("a ranking");
    rows.iter().find(|r| r["group"] == group).unwrap_or_else(|| panic!("no row {group} in {report}"))
}

fn changed(row: &Value) -> f64 {
    row["effect"]["changed"]["value"].as_f64().unwrap_or_else(|| panic!("no effect in {row}"))
}

/// Every assumed number of every bundled game is found where it is written:
/// +1 at one site, then the sites found again are the same but for that one,
/// one higher (an empty list, which has no item to repeat, stays as it is).
/// A rewrite at the wrong place (or of the wrong length) fails.
#[test]
fn each_site_is_rewritten_exactly_where_it_stands() {
    for src in rulecheck::bundled::rules().unwrap() {
        let (sites, _) = find_sites(&src).unwrap();
        assert!(!sites.is_empty() || src.files.values().all(|f| !f.text.contains("assumed:")), "{}", src.name);
        for (i, s) in sites.iter().enumerate() {
            let Some(changed) = perturb(&src, std::slice::from_ref(s), Change::PlusOne) else {
                // only an empty list has nothing to repeat
                assert!(matches!(&s.number, Number::Count { items, .. } if items.is_empty()), "{}", s.place());
                continue;
            };
            let (again, _) = find_sites(&changed).unwrap();
            assert_eq!(again.len(), sites.len(), "{}: {}", src.name, s.place());
            for (j, (a, b)) in sites.iter().zip(&again).enumerate() {
                let want = a.value() + i64::from(i == j);
                assert_eq!(
                    (b.value(), &b.record, &b.field),
                    (want, &a.record, &a.field),
                    "{} after {}",
                    b.place(),
                    s.place()
                );
            }
        }
    }
}

/// The sites of the bundled game with the most assumed numbers include a
/// list counted by its length (a cost) and plain integers, grouped per file
/// and field by default and one by one with `--each`.
#[test]
fn sites_are_integers_and_counted_lists_grouped_by_file_and_field() {
    let src = rulecheck::bundled::rules().unwrap().into_iter().find(|g| g.name == "dry-gulch").unwrap();
    let (sites, unplaced) = find_sites(&src).unwrap();
    assert!(unplaced.is_empty(), "{unplaced:?}");
    let cost = sites.iter().find(|s| s.file == "buildings.yaml" && s.field == "cost").expect("a building cost");
    assert!(matches!(cost.number, Number::Count { .. }), "{cost:?}");
    let line = src.files["buildings.yaml"].text.lines().nth(cost.line as usize - 1).unwrap();
    assert!(line.trim_start().starts_with("cost: ["), "{line}");
    let cap = sites.iter().find(|s| s.field == "turn_cap").expect("the turn cap");
    assert!(matches!(cap.number, Number::Int { value: 300, .. }), "{cap:?}");
    let groups = group_sites(&sites, false);
    assert!(groups.iter().any(|(g, s)| g == "buildings.yaml:cost" && s.len() > 10), "{groups:?}");
    assert_eq!(group_sites(&sites, true).len(), sites.len());
    // halving 0 or a list of nothing changes nothing, so it is no trial
    assert_eq!(Change::Halved.of(0), Some(0));
    assert_eq!(Change::MinusOne.of(0), None);
}

/// Identical games pair to nothing changed; one flipped winner is one
/// changed outcome, +1 for the new winner's seat and -1 for the old one's.
#[test]
fn pairing_counts_changed_outcomes_and_win_shifts() {
    let rec = |o: &str, w: u64, t: u32| Record { outcome: o.into(), winners: w, turns: t, coverage: vec![t.into()] };
    let keys = vec!["event:x".to_string()];
    let base = vec![rec("win:p1", 1, 10), rec("win:p2", 2, 12)];
    let same = pair(&keys, &base, &keys, &base, 2);
    assert_eq!((same.games, same.changed, same.failed), (2, 0, 0));
    assert!(same.coverage.is_empty());
    let other = vec![rec("win:p2", 2, 14), rec("win:p2", 2, 12)];
    let p = pair(&keys, &base, &keys, &other, 2);
    assert_eq!(p.changed, 1);
    assert_eq!(p.win_diff, vec![vec![-1.0, 0.0], vec![1.0, 0.0]]);
    assert_eq!(p.turn_diff, vec![4.0, 0.0]);
    assert_eq!(p.coverage["event:x"], (22, 26));
}

/// Under the default reading of the winning total the fixed threshold is
/// never read, so no change of it moves a single game; under
/// `win-threshold=fixed` it decides the game and ranks first, above the
/// turn cap, with an interval clear of zero.
#[test]
fn an_ignored_number_ranks_at_zero_and_a_deciding_one_ranks_first() {
    let args = ["--game", "dry-gulch", "--group", "game.yaml", "--games", "12", "--jobs", "2"];
    let plain = run_json(&args);
    let fixed_row = row(&plain, "game.yaml:fixed_win_threshold");
    // a group of one number has nothing to move one to
    for t in fixed_row["trials"].as_array().unwrap().iter().filter(|t| t["change"] != "moved-one") {
        assert_eq!(t["status"], "measured", "{t}");
        assert_eq!(t["effect"]["changed"]["value"], 0.0, "{t}");
        assert_eq!(t["effect"]["turns"]["value"], 0.0, "{t}");
        assert_eq!(t["effect"]["paired"]["coverage"], serde_json::json!({}), "{t}");
    }
    let mut with = args.to_vec();
    with.extend(["--interpretation", "win-threshold=fixed"]);
    let fixed = run_json(&with);
    let top = &fixed["ranking"][0];
    assert_eq!(top["group"], "game.yaml:fixed_win_threshold", "{fixed}");
    assert!(changed(top) >= 0.5, "{top}");
    assert!(top["effect"]["changed"]["low"].as_f64().unwrap() > 0.0, "{top}");
    assert!(changed(top) > changed(row(&fixed, "game.yaml:turn_cap")), "{fixed}");
}

/// A change the catalog's validation refuses (resource copies that no
/// longer add up to the printed total) is not played: it is reported out of
/// range with the diagnostic's file:line:column. Moving one copy from one
/// kind to another keeps the total, so that change is measured.
#[test]
fn a_change_the_validator_refuses_is_out_of_range_with_its_place() {
    let report = run_json(&["--game", "dry-gulch", "--group", "resources.yaml:copies", "--games", "2"]);
    let r = row(&report, "resources.yaml:copies");
    let trials = r["trials"].as_array().unwrap();
    for t in trials.iter().filter(|t| t["change"] != "moved-one") {
        assert_eq!(t["status"], "out-of-range", "{t}");
        let reason = t["reason"].as_str().unwrap();
        let place = reason.split(": ").next().unwrap();
        assert!(place.contains(".yaml:") && place.split(':').count() == 3, "{reason}");
    }
    let moved = trials.iter().find(|t| t["change"] == "moved-one").expect("a moved-one trial");
    assert_eq!(moved["status"], "measured", "{moved}");
    assert_eq!(r["by"], "moved-one", "{r}");
    let (code, out, _) =
        rulecheck(&["sensitivity", "--game", "dry-gulch", "--group", "resources.yaml:copies", "--games", "2"]);
    assert_eq!(code, 0);
    assert!(out.contains("resources.yaml:copies doubled: out-of-range ("), "{out}");
}

/// A `game.yaml` number a default option also sets (Red Dog Junction's
/// `capacity_per_cowboy`, 4, and `four-per-cowboy`'s `set:`) changes in
/// both places at once: `validate` holds the two together, so a change of
/// one alone was refused and the number went unmeasured. Every trial that
/// changes it loads, the default game plays the changed number, and a
/// change that left the option behind fails (as the run without twins did).
#[test]
fn a_number_a_default_option_also_sets_changes_with_it() {
    let src = rulecheck::bundled::rules().unwrap().into_iter().find(|s| s.name == "red-dog-junction").unwrap();
    let (sites, _) = find_sites(&src).unwrap();
    let site = sites.iter().find(|s| s.field == "capacity_per_cowboy").expect("the capacity is assumed");
    assert_eq!(site.twins.len(), 1, "{site:?}");
    let halved = perturb(&src, std::slice::from_ref(site), Change::Halved).unwrap();
    let text = &halved.files["interpretations.yaml"].text;
    assert!(text.contains("set: {ship.capacity_per_cowboy: 2}\n"), "the option's number halved too");
    let rules = rulecheck::games::load(&halved).expect("the changed catalog validates");
    let rules = match rules {
        rulecheck::games::AnyRules::RedDogJunction(r) => r,
        _ => unreachable!(),
    };
    let config = rulecheck::engine::Config::new("red-dog-junction", 4, 1);
    let state = <rulecheck::games::red_dog_junction::State as rulecheck::engine::Game>::new(&rules, &config).unwrap();
    assert_eq!(state.readings.param(P::CapacityPerCowboy), 2);
    let alone = rulecheck::check::sensitivity::Site { twins: Vec::new(), ..site.clone() };
    let refused = perturb(&src, &[alone], Change::Halved).unwrap();
    assert!(rulecheck::games::load(&refused).is_err(), "without its twin the change is refused");
    let report = run_json(&["--game", "red-dog-junction", "--group", "game.yaml:capacity_per_cowboy", "--games", "2"]);
    let r = row(&report, "game.yaml:capacity_per_cowboy");
    // one site has no second to move one to
    let trials = r["trials"].as_array().unwrap().iter().filter(|t| t["change"] != "moved-one");
    assert!(trials.clone().count() == 4 && trials.clone().all(|t| t["status"] == "measured"), "{r}");
}

/// Moving one keeps a group's sum: one site one lower, another one higher.
#[test]
fn moving_one_keeps_the_groups_sum() {
    for src in rulecheck::bundled::rules().unwrap() {
        let (sites, _) = find_sites(&src).unwrap();
        for (name, group) in group_sites(&sites, false) {
            let Some(changed) = perturb(&src, &group, Change::MovedOne) else { continue };
            let (again, _) = find_sites(&changed).unwrap();
            let after: Vec<_> = group_sites(&again, false).into_iter().find(|(n, _)| *n == name).unwrap().1;
            let sum = |g: &[rulecheck::check::sensitivity::Site]| g.iter().map(|s| s.value()).sum::<i64>();
            assert_eq!(sum(&after), sum(&group), "{name}");
            let moved: Vec<i64> =
                group.iter().zip(&after).map(|(a, b)| b.value() - a.value()).filter(|d| *d != 0).collect();
            assert_eq!(moved, if moved.first() == Some(&1) { vec![1, -1] } else { vec![-1, 1] }, "{name}");
        }
    }
}

/// The same seed gives the same ranking, on one thread or two.
#[test]
fn the_ranking_is_the_same_for_the_same_seed_whatever_the_threads() {
    let args = |jobs| ["--game", "dry-gulch", "--group", "game.yaml", "--games", "6", "--seed", "5", "--jobs", jobs];
    assert_eq!(run_json(&args("1")), run_json(&args("2")));
}

#[test]
fn bad_arguments_exit_2() {
    for args in [
        &["sensitivity", "--game", "no-such-game", "--games", "2"][..],
        &["sensitivity", "--game", "dry-gulch", "--games", "0"],
        &["sensitivity", "--game", "dry-gulch", "--group", "nothing-is-called-this"],
        &["sensitivity", "--game", "dry-gulch", "--interpretation", "no-equals-sign"],
        &["sensitivity", "--game", "dry-gulch", "--budget", "0s"],
        &["sensitivity", "--game", "dry-gulch", "--players", "99", "--games", "2", "--group", "turn_cap"],
        &["sensitivity", "--game", "dry-gulch", "--rules", "/nonexistent/folder"],
    ] {
        let (code, out, err) = rulecheck(args);
        assert_eq!(code, 2, "{args:?}\n{out}\n{err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}
