//! Dodge City's round as data, changed by a user catalog: a house-rules
//! overlay (`tests/catalogs/dodge-city-house`) whose interpretations remove
//! the duel step and add a payday step, an overlay `game.yaml` that
//! declares its own round, and the diagnostics of bad ones.

use std::path::{Path, PathBuf};

use rulecheck::engine::{Config, Game};
use rulecheck::games::dodge_city::{Event, Rules, State};
use rulecheck::games::{self, AnyRules};

use crate::support::{Scratch, rulecheck};

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn house() -> PathBuf {
    manifest_dir().join("tests/catalogs/dodge-city-house")
}

fn load(dir: &Path) -> Result<Rules, String> {
    let srcs = rulecheck::catalog::read_root(dir).map_err(|d| format!("{d:?}"))?;
    let src = srcs.first().ok_or("no catalog")?;
    match games::load(src).map_err(|d| d.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("\n"))? {
        AnyRules::DodgeCity(r) => Ok(*r),
        _ => Err("not Dodge City".into()),
    }
}

/// Plays `games` random games under `config` (seeds 1..), the invariants
/// checked after every action; how many duels were fought in all.
fn duels_fought(rules: &Rules, config: &Config, games: u64) -> usize {
    let mut duels = 0;
    for seed in 1..=games {
        let config = Config { seed, ..config.clone() };
        let mut s = State::new(rules, &config).unwrap();
        let mut rng = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let mut legal = Vec::new();
        for _ in 0..20_000 {
            s.legal_actions(rules, &mut legal);
            if legal.is_empty() {
                break;
            }
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let a = legal[(rng >> 33) as usize % legal.len()];
            let events = s.apply(rules, &a).unwrap();
            duels += events.iter().filter(|e| matches!(e, Event::Challenged { .. })).count();
            if let Err(v) = rulecheck::engine::Check::check_invariants(&s, rules, &(), &a, &events) {
                panic!("seed {seed}: {v}");
            }
        }
        assert!(s.outcome(rules).is_some(), "seed {seed}: the game did not end");
    }
    duels
}

#[test]
fn an_overlay_adds_readings_that_change_the_round() {
    let rules = load(&house()).unwrap();
    assert!(rules.interpretations.iter().any(|i| i.id == "house-duels"));
    assert!(rules.events.iter().any(|e| e.id == "stagecoach"));
    assert!(rules.documents.iter().any(|d| d.id == "saturday-sheet"));
    let (code, out, err) = rulecheck(&["validate", house().to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    // the house scenarios pass under the overlay, and name what the bundled catalog lacks
    let scenarios = manifest_dir().join("tests/catalogs/dodge-city-house-scenarios");
    let (code, out, err) = rulecheck(&["run", scenarios.to_str().unwrap(), "--rules", house().to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("4 configuration(s) passed, 0 failed"), "{out}");
    let (code, _, err) = rulecheck(&["run", scenarios.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn a_round_without_its_duel_step_fights_no_duel() {
    let rules = load(&house()).unwrap();
    let printed = Config::new("dodge-city", 3, 0);
    assert!(duels_fought(&rules, &printed, 20) > 0, "the printed round fights duels");
    let mut no_duels = printed.clone();
    no_duels.interpretations.insert("house-duels".into(), "no-duels".into());
    assert_eq!(duels_fought(&rules, &no_duels, 20), 0);
    // the reading is consulted every round, and `diff` says how often it changes a game
    let (code, out, err) = rulecheck(&[
        "diff",
        "--game",
        "dodge-city",
        "house-duels",
        "--rules",
        house().to_str().unwrap(),
        "--games",
        "20",
        "--players",
        "3",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("no-duels"), "{out}");
}

#[test]
fn an_overlay_game_yaml_declares_its_own_round() {
    let s = Scratch::copy_of(&house(), "dc-round");
    // the house reading that removes the duel step has no step to remove here
    std::fs::remove_file(s.0.join("interpretations.yaml")).unwrap();
    s.write("game.yaml", "round:\n  phases: [marshal, place-1, place-2, score]\n");
    let rules = load(&s.0).unwrap();
    assert_eq!(duels_fought(&rules, &Config::new("dodge-city", 4, 0), 10), 0);
    // a round without its scoring can never be won: exit 2 at the overlay's line
    s.write("game.yaml", "# the table's round\nround:\n  phases: [marshal, place-1, duel]\n");
    let (code, out, err) = rulecheck(&["validate", s.path()]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("game.yaml:3:12") && err.contains("lacks step `score`"), "{err}");
    s.write("game.yaml", "round:\n  phases: [marshal, place-1, duels, score]\n");
    let (code, _, err) = rulecheck(&["validate", s.path()]);
    assert_eq!(code, 2);
    assert!(err.contains("game.yaml:2:30") && err.contains("did you mean `duel`?"), "{err}");
}

#[test]
fn an_overlay_cannot_redraw_the_board_or_override_what_is_missing() {
    let s = Scratch::copy_of(&house(), "dc-bad");
    s.write("cards.yaml", "cards: []\n");
    let (code, _, err) = rulecheck(&["validate", s.path()]);
    assert_eq!(code, 2);
    assert!(err.contains("cards.yaml:1:1") && err.contains("copy the whole catalog"), "{err}");
    let s = Scratch::copy_of(&house(), "dc-missing");
    s.write(
        "events.yaml",
        "override:\n  - id: gold-finds\n    names: {en: Gold}\n    copies: 1\n    effect: []\n    source: [{doc: saturday-sheet, ref: \"3\"}]\n",
    );
    let (code, _, err) = rulecheck(&["validate", s.path()]);
    assert_eq!(code, 2);
    assert!(err.contains("events.yaml:2:9") && err.contains("did you mean `gold-find`?"), "{err}");
}
