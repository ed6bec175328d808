//! Dodge City's round as data, changed by a user catalog: a house-rules
//! overlay (`tests/catalogs/dodge-city-house`) whose interpretations remove
//! the duel step, add a payday step and declare an action (a bank loan),
//! an overlay `game.yaml` that
//! declares its own round, and the diagnostics of bad ones.

use std::path::{Path, PathBuf};

use rulecheck::check::playout::RandomChooser;
use rulecheck::check::suite::{Checks, run_game};
use rulecheck::engine::{Config, Game};
use rulecheck::games::dodge_city::{Action, Event, Rules, State};
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
    events_seen(rules, config, games, |e| matches!(e, Event::Challenged { .. }))
}

/// Plays `games` random games under `config` (seeds 1..), the invariants
/// checked after every action; how many of their events were `counted`.
fn events_seen(rules: &Rules, config: &Config, games: u64, counted: impl Fn(&Event) -> bool) -> usize {
    let mut seen = 0;
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
            seen += events.iter().filter(|e| counted(e)).count();
            if let Err(v) = rulecheck::engine::Check::check_invariants(&s, rules, &(), &a, &events) {
                panic!("seed {seed}: {v}");
            }
        }
        assert!(s.outcome(rules).is_some(), "seed {seed}: the game did not end");
    }
    seen
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
    assert!(out.contains("5 configuration(s) passed, 0 failed"), "{out}");
    let (code, _, err) = rulecheck(&["run", scenarios.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn a_house_rule_declares_an_action_of_the_placing_turn() {
    let rules = load(&house()).unwrap();
    let printed = Config::new("dodge-city", 3, 0);
    let loans = |e: &Event| matches!(e, Event::ActionTaken { .. });
    assert_eq!(events_seen(&rules, &printed, 10, loans), 0, "the printed round offers no loan");
    let mut config = printed.clone();
    config.interpretations.insert("house-loans".into(), "loans".into());
    // random players take the loan, and every invariant and the engine
    // contract (malformed actions, replay, round trips) hold after it
    assert!(events_seen(&rules, &config, 10, loans) > 0);
    let checks = Checks { invariants: true, contract: true, yaml_every: 0 };
    let mut taken = 0;
    for players in 2..=5u32 {
        let config = Config { seed: u64::from(players), players, ..config.clone() };
        let mut chooser = RandomChooser::new(config.seed);
        let run = run_game::<State>(&rules, &config, &mut chooser, checks, None, 20_000, &mut []).unwrap();
        assert!(run.failure.is_none(), "{:?}", run.failure.map(|f| f.to_string()));
        taken += run.actions.iter().filter(|a| matches!(a, Action::Declared(_))).count();
    }
    assert!(taken > 0, "the contract games took no loan");
    // offered only after the turn's card, to a seat under $500, once a turn
    let mut s = State::new(&rules, &config).unwrap();
    let mut legal = Vec::new();
    let offered = |s: &State, legal: &mut Vec<_>| {
        s.legal_actions(&rules, legal);
        legal.iter().any(|a| matches!(a, Action::Declared(_)))
    };
    let mut seen_with_money = false;
    for _ in 0..2_000 {
        if offered(&s, &mut legal) {
            let seat = s.active_seat();
            assert!(matches!(
                s.phase,
                rulecheck::games::dodge_city::state::Phase::Place { round: 1, carded: true, .. }
            ));
            assert!(s.seats[seat].money.value() < 500, "offered to a seat with ${}", s.seats[seat].money.value());
            assert!(s.acted.is_empty());
        } else if s.seats[s.active_seat()].money.value() >= 500 {
            seen_with_money = true;
        }
        let Some(&a) = legal.first() else { break };
        s.apply(&rules, &a).unwrap();
    }
    assert!(seen_with_money);
    // `explain` lists the rule its refusals name, and the change it makes
    let (code, out, err) = rulecheck(&["explain", "--game", "dodge-city", "--rules", house().to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("dodge-city/action.declared"), "{out}");
    assert!(out.contains("adds the action bank-loan, taken once a turn in the step place-1, which it ends"), "{out}");
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
    // a scenario set up in the duels of a round that has none is exit 2 at its `phase:`
    let s = Scratch::copy_of(&house(), "dc-no-duel-phase");
    let scenario = "title: t\nwhy: w\nsource: [{doc: saturday-sheet, ref: \"1\"}]\ngame: dodge-city\nconfigs:\n  - \
                    {name: n, players: 2, seed: 1, interpretations: {house-duels: no-duels}}\nsetup:\n  phase: duel\n\
                    steps: []\nexpect: {phase: duel}\n";
    s.write("no-duel.yaml", scenario);
    let file = s.0.join("no-duel.yaml");
    let (code, _, err) = rulecheck(&["run", file.to_str().unwrap(), "--rules", house().to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no-duel.yaml:8:3: error: set-up: this configuration's round has no `duel` step"), "{err}");
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
    // an event card has no condition for a reading to replace
    let s = Scratch::copy_of(&house(), "dc-condition");
    s.edit(
        "interpretations.yaml",
        "        consequence: \"no wage\"\n",
        "        consequence: \"no wage\"\n        replace:\n          - {event: gold-find, condition: {all: []}}\n",
    );
    let (code, _, err) = rulecheck(&["validate", s.path()]);
    assert_eq!(code, 2);
    let says = "interpretations.yaml:29:21: error: `replace:` gives `gold-find` a `condition:`, but this game's events \
                have none; replace its `effect:`";
    assert!(err.contains(says), "{err}");
    // an action of the Marshal round, where every seat lays its card at once, is refused
    let s = Scratch::copy_of(&house(), "dc-action");
    s.edit(
        "interpretations.yaml",
        "        consequence: \"no wage\"\n",
        "        consequence: \"no wage\"\n        actions:\n          - {id: loan, during: marshal, effect: []}\n",
    );
    let (code, _, err) = rulecheck(&["validate", s.path()]);
    assert_eq!(code, 2);
    let says = "interpretations.yaml:29:32: error: action `loan` is taken during `marshal`, where the turn does not \
                wait for a player; take it during place-1, place-2, duel";
    assert!(err.contains(says), "{err}");
}

/// A reading of the table's own sets how many copies a card or an event
/// card has (`set: {cards.lady-1.copies: 3}`), as the other games' do: the
/// decks are made with them and card conservation counts with them; a
/// misspelt key or too many copies is refused at its line, and numbers
/// that cannot deal every hand are refused when the game is set up.
#[test]
fn a_house_reading_sets_how_many_copies_a_card_has() {
    let s = Scratch::copy_of(&house(), "dc-copies");
    let option = "      - id: no-duels\n";
    let more = "      - id: more-ladies\n        consequence: \"three Lady 1 and one gold find\"\n        set: {cards.lady-1.copies: 3, events.gold-find.copies: 1}\n";
    s.edit("interpretations.yaml", option, &format!("{more}{option}"));
    let rules = load(&s.0).unwrap();
    let (lady, gold) = (
        rules.cards.iter().position(|c| c.id == "lady-1").unwrap(),
        rules.events.iter().position(|e| e.id == "gold-find").unwrap(),
    );
    let config = Config::new("dodge-city", 4, 1).with_reading("house-duels", "more-ladies");
    let (cards, events) = State::new(&rules, &config).unwrap().card_totals(&rules);
    let printed = State::new(&rules, &Config::new("dodge-city", 4, 1)).unwrap().card_totals(&rules);
    let (mut want_cards, mut want_events) = printed;
    (want_cards[lady], want_events[gold]) = (3, 1);
    assert_eq!((cards, events), (want_cards, want_events));
    // every invariant, card conservation with the set copies among them,
    // holds after every action of six games
    duels_fought(&rules, &config, 6);
    let (code, out, _) = rulecheck(&["explain", "--game", "dodge-city", "house-duels", "--rules", s.path()]);
    assert_eq!(code, 0);
    assert!(
        out.contains("sets cards.lady-1.copies to 3") && out.contains("sets events.gold-find.copies to 1"),
        "{out}"
    );
    let set = "{cards.lady-1.copies: 3, events.gold-find.copies: 1}";
    for (bad, says) in [
        ("{cards.lady-l.copies: 3}", "which is no entity's number; did you mean `cards.lady-1.copies`?"),
        ("{cards.lady-1.copies: 65}", "more than 64 (the most the game counts of one entity)"),
    ] {
        s.edit("interpretations.yaml", set, bad);
        let (code, out, err) = rulecheck(&["validate", s.path()]);
        assert_eq!(code, 2, "{out}{err}");
        assert!(err.contains("interpretations.yaml:14:") && err.contains(says), "{out}{err}");
        s.edit("interpretations.yaml", bad, set);
    }
    // too few cards for every hand: refused at set-up, not found by an invariant
    let none = (0..rules.cards.len()).map(|i| format!("cards.{}.copies: 0", rules.cards[i].id)).collect::<Vec<_>>();
    s.edit("interpretations.yaml", set, &format!("{{{}}}", none.join(", ")));
    let rules = load(&s.0).unwrap();
    let err = State::new(&rules, &config).err().map(|e| e.to_string()).unwrap_or_default();
    assert_eq!(err, "this configuration's numbers cannot be played: the deck holds 0 cards, fewer than 4 hands of 4");
}

/// A reading's numbers are held to the ranges the catalog's are (a hand
/// of no card, a goal of no point): refused at the `set:` that writes them,
/// exit 2, instead of played until the contract or an invariant fails.
#[test]
fn a_reading_is_held_to_the_ranges_of_the_catalog_numbers() {
    let s = Scratch::copy_of(&house(), "dc-ranges");
    let option = "      - id: no-duels\n";
    for (set, says) in [
        (
            "{setup.hand: 0}",
            "interpretations.yaml:14:27: error: option `odd` of interpretation `house-duels` sets `setup.hand` to 0, but it must be from 1 to 16",
        ),
        (
            "{rules.goal_points: 0}",
            "interpretations.yaml:14:34: error: option `odd` of interpretation `house-duels` sets `rules.goal_points` to 0, but it must be from 1 to 10000",
        ),
    ] {
        let odd = format!("      - id: odd\n        consequence: \"odd\"\n        set: {set}\n");
        s.edit("interpretations.yaml", option, &format!("{odd}{option}"));
        let (code, out, err) =
            rulecheck(&["fuzz", "--game", "dodge-city", "--rules", s.path(), "--interpretation", "house-duels=odd"]);
        assert_eq!(code, 2, "{out}{err}");
        assert!(err.contains(says), "{err}");
        s.edit("interpretations.yaml", &odd, "");
    }
}

/// A number an overlay's `game.yaml` changes that breaks a rule with a
/// file it cannot hold (the deck, the buildings) is refused at the
/// overlay's number, once, naming the other file: it was said at line 1 of
/// the bundled `cards.yaml`, or at each building of the bundled
/// `buildings.yaml`.
#[test]
fn a_number_the_overlay_changes_is_refused_at_the_overlay_number() {
    let s = Scratch::copy_of(&house(), "dc-overlay-numbers");
    let bundled = std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("rules/dodge-city/game.yaml"));
    let bundled = bundled.unwrap();
    let sections = &bundled[bundled.find("\nsetup:").unwrap() + 1..];
    for (from, to, says) in [
        (
            "  hand: 4\n",
            "  hand: 12\n",
            "game.yaml:5:9: error: setup.hand is 12, but the deck (rules/dodge-city/cards.yaml) holds 44 cards, fewer than 5 hands of 12",
        ),
        (
            "  control_fields: 4\n",
            "  control_fields: 5\n",
            "game.yaml:36:19: error: rules.control_fields is 5, but in rules/dodge-city/buildings.yaml building `saloon` has 4, building `bank` has 4",
        ),
    ] {
        assert!(sections.contains(from), "{from}");
        s.write("game.yaml", &sections.replace(from, to));
        let (code, out, err) = rulecheck(&["validate", s.path()]);
        assert_eq!(code, 2, "{out}{err}");
        let msg = format!("{out}{err}");
        assert!(msg.contains(says), "{msg}");
        assert_eq!(msg.matches("rules.control_fields is").count(), usize::from(to.contains("control")), "{msg}");
        assert!(!msg.contains("cards.yaml:1:1") && !msg.contains("buildings.yaml:"), "{msg}");
    }
}

/// An overlay's `game.yaml` number that the default reading sets anyway
/// (`rules.money_per_point`, which `scoring-money` sets) is refused at the
/// overlay's number: the house rule would change nothing.
#[test]
fn an_overlay_number_the_default_reading_overrides_is_refused() {
    let s = Scratch::copy_of(&house(), "dc-overridden-number");
    let bundled = std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("rules/dodge-city/game.yaml"));
    let bundled = bundled.unwrap();
    let sections =
        bundled[bundled.find("\nsetup:").unwrap() + 1..].replace("money_per_point: 200", "money_per_point: 300");
    let line = sections.lines().position(|l| l.contains("money_per_point: 300")).unwrap() + 1;
    s.write("game.yaml", &sections);
    let (code, out, err) = rulecheck(&["validate", s.path()]);
    assert_eq!(code, 2, "{out}{err}");
    // the option's place in the bundled registry, where its `set:` is written
    let registry = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("rules/dodge-city/interpretations.yaml");
    let registry = std::fs::read_to_string(registry).unwrap();
    let option = registry.lines().position(|l| l.contains("{id: two-hundred-per-point,")).unwrap() + 1;
    let says = format!(
        "game.yaml:{line}:20: error: `rules.money_per_point` is 300, but the default option `two-hundred-per-point` of \
         interpretation `scoring-money` sets it to 200 (rules/dodge-city/interpretations.yaml:{option}:"
    );
    assert!(format!("{out}{err}").contains(&says), "{out}{err}");
}
