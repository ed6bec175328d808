//! Dry Gulch played at random: every configuration finishes, and the
//! shared suite holds after every action.

use rulecheck::check::playout::RandomChooser;
use rulecheck::check::suite::{Checks, run_game};
use rulecheck::engine::Config;
use rulecheck::games::dry_gulch::{Rules, State};
use rulecheck::games::{self, AnyRules};

pub fn rules() -> Rules {
    let src = rulecheck::bundled::rules().unwrap();
    let g = src.iter().find(|g| g.name == "dry-gulch").unwrap();
    match games::load(g).unwrap() {
        AnyRules::DryGulch(r) => *r,
        _ => unreachable!("the dry-gulch folder loads as Dry Gulch"),
    }
}

/// 100 random games with the whole contract after every action: replay of
/// seed and actions, clone and the JSON round trip at every step, the YAML
/// round trip (most of the test's time) at every tenth.
/// A scenario sets the table's piles by name: the cards listed go on top
/// of a discard pile (the first listed on top) and of the spent permits,
/// taken from the decks; an expectation reads them back in the same words,
/// and the invariants (card and permit conservation among them) hold after
/// the next action.
#[test]
fn set_up_puts_cards_on_any_pile_of_the_table() {
    use rulecheck::engine::{Check, Game, Scripted};
    use rulecheck::games::dry_gulch::scenario_io::{Expect, SetupSpec};
    let rules = rules();
    let mut s = State::new(&rules, &Config::new("dry-gulch", 3, 5)).unwrap();
    let mut setup = SetupSpec::default();
    let ids = |ids: &[&str]| ids.iter().map(|id| id.to_string()).collect();
    setup.table.insert("resource-discard".into(), ids(&["food", "lumber", "lumber"]));
    setup.table.insert("event-discard".into(), ids(&["fire"]));
    setup.table.insert("permits-spent".into(), ids(&["saloon"]));
    let (resources, events) = (s.resource_deck.len(), s.event_deck.len());
    s.apply_setup(&rules, &setup).unwrap();
    let id = |c| rules.card_id(c).to_string();
    let discard: Vec<String> = s.resource_discard.iter().map(|&c| id(c)).collect();
    assert_eq!(discard, ["lumber", "lumber", "food"], "bottom first: the first listed lies on top");
    assert_eq!((s.resource_deck.len(), s.event_deck.len()), (resources - 3, events - 1));
    assert_eq!(s.permits_spent.iter().map(|&b| rules.building(b).id.as_str()).collect::<Vec<_>>(), ["saloon"]);
    // an expectation names the same piles in the same words: exactly what
    // lies there (top first), how many, or how many of some ids
    let unmet = |yaml: &str| {
        let expect: Expect = rulecheck::yaml::from_str("expect.yaml", yaml).unwrap();
        s.check_expect(&rules, &expect).unwrap()
    };
    let met =
        "table: {resource-discard: [food, lumber, lumber], event-discard: 1, permits-spent: {saloon: 1, bank: 0}}";
    assert_eq!(unmet(met), vec![]);
    assert_eq!(unmet("seats: {p2: {hand: {fire: 0}}}"), vec![]);
    let triple = |f: &str, want: &str, have: &str| (f.to_string(), want.to_string(), have.to_string());
    assert_eq!(
        unmet("table: {resource-discard: [lumber, food, lumber], event-discard: {fire: 2}, permits-spent: 0}"),
        [
            triple("table.event-discard.fire", "2", "1"),
            triple("table.permits-spent", "0", "1"),
            triple("table.resource-discard", "[lumber, food, lumber]", "[food, lumber, lumber]"),
        ]
    );
    let (before, mut legal) = (s.before(), Vec::new());
    s.legal_actions(&rules, &mut legal);
    let events = s.apply(&rules, &legal[0]).unwrap();
    s.check_invariants(&rules, &before, &legal[0], &events).unwrap();
}

/// 100 random games with the whole contract after every action: replay of
/// seed and actions, clone and the JSON round trip at every step, the YAML
/// round trip (most of the test's time) at every tenth.
#[test]
fn contract_holds_in_random_games() {
    let rules = rules();
    for seed in 0..100u64 {
        let config = Config::new("dry-gulch", 3 + (seed % 4) as u32, seed);
        let mut chooser = RandomChooser::new(seed);
        let checks = Checks { yaml_every: 10, ..Checks::ALL };
        let run = run_game::<State>(&rules, &config, &mut chooser, checks, None, 100_000, &mut []).unwrap();
        if let Some(f) = &run.failure {
            panic!("{f} (seed {seed}, after {} actions: {:?})", run.actions.len(), run.actions.last());
        }
        assert!(run.outcome.is_some());
    }
}

/// Every configuration the issue names: the default, each variant alone,
/// and each non-default option of each interpretation alone.
pub fn single_change_configs(rules: &Rules, players: u32, seed: u64) -> Vec<Config> {
    let base = Config::new("dry-gulch", players, seed);
    let mut out = vec![base.clone()];
    for v in &rules.variants {
        out.push(base.clone().with_variant(&v.id));
    }
    for i in rules.interpretations.iter().filter(|i| i.inert.is_none()) {
        for o in i.options.iter().filter(|o| o.id != i.default) {
            let mut c = base.clone().with_reading(&i.id, &o.id);
            if let Some(v) = &i.variant {
                c = c.with_variant(v);
            }
            out.push(c);
        }
    }
    out
}

/// Every configuration at every player count finishes without a panic or
/// a broken invariant; prints how the games ended. 20 games each by
/// default, `RULECHECK_GAMES=1000` for the full run.
#[test]
fn invariants_hold_in_every_configuration() {
    let rules = rules();
    let games: u64 = std::env::var("RULECHECK_GAMES").ok().and_then(|s| s.parse().ok()).unwrap_or(20);
    for players in 3..=6 {
        for config in single_change_configs(&rules, players, 0) {
            let mut ends: std::collections::BTreeMap<String, u64> = std::collections::BTreeMap::new();
            let (mut turns, mut actions) = (0u64, 0u64);
            for seed in 0..games {
                let config = Config { seed, ..config.clone() };
                let mut chooser = RandomChooser::new(seed);
                let run = run_game::<State>(&rules, &config, &mut chooser, Checks::INVARIANTS, None, 100_000, &mut [])
                    .unwrap();
                if let Some(f) = &run.failure {
                    panic!("{f} ({config}, after {} actions: {:?})", run.actions.len(), run.actions.last());
                }
                *ends.entry(rulecheck::check::fuzz::outcome_key(run.outcome.as_ref())).or_default() += 1;
                turns += u64::from(run.turns);
                actions += run.actions.len() as u64;
            }
            let ends: Vec<String> = ends.iter().map(|(k, v)| format!("{k} {v}")).collect();
            println!(
                "{}: {} | mean {:.1} turns, {:.1} actions",
                config.flags(),
                ends.join(", "),
                turns as f64 / games as f64,
                actions as f64 / games as f64
            );
        }
    }
}

/// Illegal actions name their rule and leave the state byte-for-byte
/// unchanged (compared as serialised JSON).
#[test]
fn illegal_actions_name_the_rule_and_change_nothing() {
    use rulecheck::engine::{Game, Scripted, Written};
    use rulecheck::games::dry_gulch::scenario_io::{BuildingSpec, SetupSpec, TurnSpec};
    let rules = rules();
    let action = |written: &str| {
        let spec: Written<_> = rulecheck::yaml::from_str("action.yaml", written).unwrap();
        State::action_from_spec(&rules, &spec).unwrap()
    };
    let config = Config::new("dry-gulch", 3, 5).with_variant("town-hall-damage");
    let mut s = State::new(&rules, &config).unwrap();
    let mut setup = SetupSpec::default();
    let counts = |c: &[(&str, u8)]| c.iter().map(|&(id, n)| (id.to_string(), n)).collect();
    let zones =
        [("hand".to_string(), counts(&[("fire", 1), ("lumber", 1)])), ("permits".into(), counts(&[("pharmacy", 1)]))];
    setup.seats.insert("p1".into(), zones.into_iter().collect());
    setup.buildings.push(BuildingSpec {
        building: "saloon".into(),
        plot: "nc-1".into(),
        owner: "p2".into(),
        damaged_by: None,
    });
    setup.buildings.push(BuildingSpec {
        building: "hotel".into(),
        plot: "nw-1".into(),
        owner: "p2".into(),
        damaged_by: Some("fire".into()),
    });
    setup.turn = Some(TurnSpec { seat: "p1".into(), phase: "build".into(), number: 4 });
    s.apply_setup(&rules, &setup).unwrap();
    let cases = [
        ("{build: {building: pharmacy, plot: nc-2, payment: {direct: {lumber: 1}}}}", "dry-gulch/build.payment"),
        ("{play-disaster: {card: fire, plot: nc-1}}", "dry-gulch/disaster.limit"),
        ("draw-permits", "dry-gulch/turn.order"),
        ("end-turn", "dry-gulch/turn.order"),
    ];
    for (spec, rule) in cases {
        let before = serde_json::to_string(&s).unwrap();
        let err = s.apply(&rules, &action(spec)).expect_err("the action is illegal");
        assert_eq!(err.rule, rule, "{err}");
        assert!(!err.source.is_empty(), "{err} cites no rulebook place");
        assert_eq!(serde_json::to_string(&s).unwrap(), before, "{spec:?} changed the state");
    }
    // a closed Town Hall: no permit may be drawn
    let closed = SetupSpec {
        town_hall_closed_by: Some("p2".into()),
        turn: Some(TurnSpec { seat: "p1".into(), phase: "draw".into(), number: 4 }),
        ..SetupSpec::default()
    };
    s.apply_setup(&rules, &closed).unwrap();
    let before = serde_json::to_string(&s).unwrap();
    let err = s.apply(&rules, &action("draw-permits")).unwrap_err();
    assert_eq!(err.rule, "dry-gulch/town-hall.closed", "{err}");
    assert_eq!(serde_json::to_string(&s).unwrap(), before);
}

/// `hand-limit` allows a hand over the limit under `hand-cut-reactions:
/// like-a-draw` only where the I.O.U. or the Ace answered the cut: with the
/// cut left out (the planted fault) it still fails, and it fails as
/// `hand-limit`.
#[test]
fn hand_limit_still_catches_a_missing_cut_when_the_cut_is_a_draw() {
    let rules = rules();
    let caught = (0..400u64).find_map(|seed| {
        let config =
            Config::new("dry-gulch", 3 + (seed % 4) as u32, seed).with_reading("hand-cut-reactions", "like-a-draw");
        let mut chooser = RandomChooser::new(seed);
        let run = run_game::<State>(
            &rules,
            &config,
            &mut chooser,
            Checks::INVARIANTS,
            Some("no-hand-limit"),
            50_000,
            &mut [],
        )
        .unwrap();
        run.failure.map(|f| (seed, f))
    });
    let (seed, f) = caught.expect("a hand over the limit with no cut is caught under like-a-draw");
    assert_eq!(f.name(), "hand-limit", "seed {seed}: {f}");
}

/// Two Saloons under `saloon-copies: several`, P2's on nw-5 and P1's built
/// on nc-1, and Main Street Shootout rewritten to give "the Saloon" one card: a card
/// that names a building names its owners (Notes on event cards), so each
/// Saloon's owner draws one, and the facts name both copies. Before every
/// copy was named, only the first Saloon's owner (P2) drew.
const TWO_SALOONS: &str = r#"
title: A card naming the Saloon names every Saloon's owner
why: test
game: dry-gulch
config: {players: 3, seed: 1, interpretations: {saloon-copies: several}}
setup:
  turn: {seat: p1, phase: build, number: 4}
  seats:
    p1:
      hand: {lumber: 1, whiskey: 1, entertainment: 1, labor: 1}
      permits: {saloon: 1}
    p2: {hand: {}}
    p3: {hand: {}}
  buildings:
    - {building: saloon, plot: nw-5, owner: p2}
  table:
    face-up: [main-street-shootout]
    resource-deck: [mason, brick]
steps:
  - by: p1
    do:
      build:
        building: saloon
        plot: nc-1
        payment:
          direct: {lumber: 1, whiskey: 1, entertainment: 1, labor: 1}
  - {by: p1, do: {resolve: {card: main-street-shootout}}}
expect:
  owner: {saloon: [p2, p1]}
  plots: {saloon: [nw-5, nc-1]}
  damaged: {saloon: [false, false]}
  hand_size: {p1: 1, p2: 1, p3: 0}
"#;

#[test]
fn a_card_naming_a_building_names_every_copys_owner() {
    let src = rulecheck::bundled::rules().unwrap();
    let mut g = src.iter().find(|g| g.name == "dry-gulch").unwrap().clone();
    let events = g.files.get_mut("events.yaml").unwrap();
    let (from, to) = (r#"draw: {to: "owner:undertaker", count: 1}"#, r#"draw: {to: "owner:saloon", count: 1}"#);
    assert!(events.text.contains(from), "Main Street Shootout's effect moved");
    events.text = events.text.replacen(from, to, 1);
    let rules = games::load(&g).unwrap();
    let file = rulecheck::catalog::SourceFile { path: "two-saloons.yaml".into(), text: TWO_SALOONS.into() };
    let run = rulecheck::scenario::run_file(&[rules], &file).unwrap();
    assert!(run.passed(), "{}", run.transcript());
}
