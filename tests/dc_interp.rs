//! Dodge City under the interpretation tools (issue #12): `explain` lists
//! every entry with its scenarios, `diff` replays the same random games
//! under each option and finds the reading consulted, and `matrix` tells
//! every live interpretation apart.

use rulecheck::catalog::SourceFile;
use rulecheck::engine::Config;
use rulecheck::games::{self, AnyRules};
use rulecheck::interp;

use crate::support::rulecheck;

fn catalogs() -> Vec<AnyRules> {
    rulecheck::bundled::rules().unwrap().iter().map(|g| games::load(g).unwrap()).collect()
}

fn dodge_city(catalogs: &[AnyRules]) -> &AnyRules {
    catalogs.iter().find(|c| c.id() == "dodge-city").unwrap()
}

/// The Dodge City files written for an interpretation (`interp-*`, and a
/// `*-reading` beside the file that pins the default): the whole folder
/// under `matrix` takes longer than this test may.
fn interpretation_scenarios() -> Vec<SourceFile> {
    let mine = |p: &str| p.starts_with("scenarios/dodge-city/interp-") || p.ends_with("-reading.yaml");
    let files = rulecheck::bundled::scenarios().unwrap();
    files.into_iter().filter(|f| f.path.starts_with("scenarios/dodge-city/") && mine(&f.path)).collect()
}

#[test]
fn explain_covers_every_dodge_city_entry_with_its_scenarios() {
    let all = catalogs();
    let rules = dodge_city(&all);
    let whole = interp::explain(rules, None, None).unwrap();
    for i in rules.interpretations() {
        let one = interp::explain(rules, Some(&i.id), None).unwrap();
        assert!(whole.contains(&one), "{}: the one-entry text is not part of the whole", i.id);
        assert!(one.contains(&i.question), "{}", i.id);
        assert!(one.contains(&format!("* {} — ", i.default)), "{}: the default is not marked", i.id);
        let status = if i.inert.is_some() { "status: inert" } else { "status: live" };
        assert!(one.contains(status), "{}: {one}", i.id);
        assert!(one.contains("scenarios/dodge-city/"), "{}: no scenario listed\n{one}", i.id);
    }
    let (code, out, _) = rulecheck(&["explain", "--game", "dodge-city", "duel-tie"]);
    assert_eq!(code, 0);
    assert!(out.contains("interp-duel-tie.yaml") && out.contains("[tells apart nobody, defender]"), "{out}");
    let (code, _, err) = rulecheck(&["explain", "--game", "dodge-city", "no-such-reading"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn diff_replays_dodge_city_games_under_each_option() {
    let all = catalogs();
    let rules = dodge_city(&all);
    let base = Config::new("dodge-city", 3, 0);
    let same = interp::diff_any(
        rules,
        &base,
        "marshal-tie",
        &["start-player-stays".into(), "start-player-stays".into()],
        5,
        3,
    )
    .unwrap();
    assert_eq!(same.pairs[0].play_differs, 0, "the same option plays the same games");
    let d = interp::diff_any(rules, &base, "marshal-tie", &[], 12, 1).unwrap();
    assert_eq!(d, interp::diff_any(rules, &base, "marshal-tie", &[], 12, 1).unwrap(), "deterministic");
    assert_eq!(d.options, ["earlier-in-turn-order", "start-player-stays"], "default first");
    assert_eq!(d.failed, 0, "{}", interp::render_diff(&d));
    assert!(d.consulted > 0 && !d.dead, "{}", interp::render_diff(&d));
    let p = &d.pairs[0];
    assert!(p.play_differs > 0, "{}", interp::render_diff(&d));
    // where two games part, the difference is said in scenario words (`start: p2 | p1`)
    let parted = p.examples.iter().flat_map(|e| &e.first_difference).flat_map(|f| &f.keys);
    assert!(parted.clone().any(|k| k.path == "start"), "{:?}", parted.collect::<Vec<_>>());
    for o in &d.per_option {
        assert_eq!(o.wins.iter().sum::<u64>() + o.draws, 12, "{o:?}");
    }
    let (code, out, _) = rulecheck(&["diff", "--game", "dodge-city", "scoring-money", "--games", "4"]);
    assert_eq!(code, 0);
    assert!(out.contains("two-hundred-per-point → two-thousand-per-point"), "{out}");
}

/// Every live interpretation has a scenario that tells its options apart;
/// `fight-once` is inert (the duel spends each player's last card, so a
/// challenged player has none left to challenge with) and its entry says so.
#[test]
fn matrix_tells_apart_every_dodge_city_reading_that_can_change_play() {
    let all = catalogs();
    let rules = dodge_city(&all);
    let m = rulecheck::matrix::matrix(&all, rules, &interpretation_scenarios());
    assert!(m.rows.len() >= 20, "{} rows", m.rows.len());
    assert!(m.undistinguished.is_empty(), "{}", rulecheck::matrix::render(&m));
    let entry = rules.interpretations().iter().find(|i| i.id == "fight-once").unwrap();
    assert!(entry.inert.as_deref().is_some_and(|why| why.contains("last card")), "{entry:?}");
    for (id, files) in &m.distinguishing {
        assert!(!files.is_empty(), "{id}");
    }
}

/// `rulecheck matrix --game dodge-city` from the command line: a scenario
/// written for one interpretation fails under its other option and is named
/// as distinguishing it; an unknown game is exit 2.
#[test]
fn matrix_runs_for_dodge_city_from_the_command_line() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/dodge-city/interp-duel-tie.yaml");
    let (code, out, err) = rulecheck(&["matrix", "--game", "dodge-city", "-q", file]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("matrix dodge-city: 1 scenarios"), "{out}");
    assert!(out.contains("duel-tie: nobody | defender"), "{out}");
    assert!(out.contains("interpretations with a distinguishing scenario: 1"), "{out}");
    assert!(!out.lines().any(|l| l.starts_with("no distinguishing scenario:") && l.contains("duel-tie")), "{out}");
    let (code, _, _) = rulecheck(&["matrix", "--game", "no-such-game", file]);
    assert_eq!(code, 2);
}
