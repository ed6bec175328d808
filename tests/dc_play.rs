//! Dodge City under the shared harness: the contract suite (simultaneous
//! Marshal round included) at every player count and under every option of
//! every interpretation, each invariant caught by its planted fault, and
//! the catalog's size and assumption split.

use rulecheck::check::playout::RandomChooser;
use rulecheck::check::suite::{Checks, run_game};
use rulecheck::engine::{Check, Config, Game};
use rulecheck::games::dodge_city::invariants::{FAULTS, INVARIANTS};
use rulecheck::games::dodge_city::{Action, Rules, State};
use rulecheck::games::{self, AnyRules};

pub fn rules() -> Rules {
    let src = rulecheck::bundled::rules().unwrap();
    let g = src.iter().find(|g| g.name == "dodge-city").unwrap();
    match games::load(g).unwrap() {
        AnyRules::DodgeCity(r) => *r,
        _ => unreachable!("the dodge-city folder loads as Dodge City"),
    }
}

/// The default configuration and one per option of every interpretation
/// that is not its default.
fn single_change_configs(rules: &Rules, players: u32) -> Vec<Config> {
    let mut out = vec![Config::new("dodge-city", players, 0)];
    for i in &rules.interpretations {
        for o in i.options.iter().filter(|o| o.id != i.default) {
            let mut c = Config::new("dodge-city", players, 0);
            c.interpretations.insert(i.id.clone(), o.id.clone());
            out.push(c);
        }
    }
    out
}

/// Every option of every interpretation (the default configuration and one
/// per other option) plays a random game at 2, 3, 4 and 5 players under the
/// contract and the invariants; across them the random player answers an
/// event's `choose` with each of its options.
#[test]
fn the_contract_holds_at_every_player_count_and_reading() {
    let rules = rules();
    let checks = Checks { invariants: true, contract: true, yaml_every: 0 };
    let mut options_chosen = std::collections::BTreeSet::new();
    let configs = single_change_configs(&rules, 2);
    assert!(configs.len() > rules.interpretations.len(), "{} configurations", configs.len());
    for (k, config) in configs.into_iter().enumerate() {
        for players in 2..=5u32 {
            let config = Config { seed: k as u64 * 10 + u64::from(players), players, ..config.clone() };
            let mut chooser = RandomChooser::new(config.seed);
            let run = run_game::<State>(&rules, &config, &mut chooser, checks, None, 20_000, &mut []).unwrap();
            if let Some(f) = &run.failure {
                panic!("{f}\nconfiguration: {}\n{} actions", config.flags(), run.actions.len());
            }
            assert!(run.outcome.is_some(), "{}: the game did not end", config.flags());
            options_chosen.extend(run.actions.iter().filter_map(|a| match *a {
                Action::Choose { choice, option } => Some((choice, option)),
                _ => None,
            }));
        }
    }
    let every: std::collections::BTreeSet<(u32, u32)> = (0..rules.choices.len() as u32)
        .flat_map(|c| (0..rules.choices[c as usize].len() as u32).map(move |o| (c, o)))
        .collect();
    assert!(!every.is_empty(), "the catalog has an event that chooses");
    assert_eq!(options_chosen, every, "every option of every `choose` is taken in random play");
}

#[test]
fn every_dodge_city_invariant_catches_its_fault() {
    let rules = rules();
    for inv in INVARIANTS {
        let caught = (0..200u64).find_map(|seed| {
            let config = Config::new("dodge-city", 2 + (seed % 4) as u32, seed);
            let mut chooser = RandomChooser::new(seed);
            let run =
                run_game::<State>(&rules, &config, &mut chooser, Checks::INVARIANTS, Some(inv.fault), 20_000, &mut [])
                    .unwrap();
            run.failure.map(|f| (seed, f))
        });
        let (seed, f) =
            caught.unwrap_or_else(|| panic!("fault `{}` was never caught: `{}` cannot fail", inv.fault, inv.name));
        assert_eq!(f.name(), inv.name, "fault `{}` (seed {seed}) broke `{}`: {f}", inv.fault, f.name());
    }
}

#[test]
fn dodge_city_invariants_and_faults_pair_up() {
    let mut named: Vec<&str> = INVARIANTS.iter().map(|i| i.fault).collect();
    named.sort();
    let mut faults = FAULTS.to_vec();
    faults.sort();
    assert_eq!(named, faults);
    assert_eq!(State::invariants().len(), INVARIANTS.len());
    let rules = rules();
    let mut s = State::new(&rules, &Config::new("dodge-city", 3, 1)).unwrap();
    assert_eq!(s.fault, None);
    assert!(!s.inject_fault("no-such-fault"));
}

#[test]
fn the_catalog_shows_its_interpretations_and_assumptions() {
    let s = rulecheck::games::AnyRules::DodgeCity(Box::new(rules())).summary();
    assert!(s.interpretations >= 20, "{s:?}");
    assert_eq!(s.entities["cards"], 44);
    assert_eq!(s.entities["events"], 32);
    assert!(s.numbers.assumed > s.numbers.cited, "{s:?}");
    assert_eq!((s.min_players, s.max_players), (2, 5));
}

// The house-rules overlay tests (a file of their own, run in this binary).
#[path = "dodge_city_overlay.rs"]
mod overlay;

/// A recorded game pins its final state: the facts `record_expect` keeps
/// hold every seat's money and are met by the state they were read from
/// (a record that fell back to an empty `expect:` would fail here).
#[test]
fn a_recorded_game_pins_the_facts_it_reached() {
    use rulecheck::check::playout::play;
    use rulecheck::engine::Scripted;
    let rules = rules();
    for (players, seed) in [(2, 3), (4, 9)] {
        let config = Config::new("dodge-city", players, seed);
        let mut last = None;
        play::<State, ()>(&rules, &config, &mut RandomChooser::new(seed), 60, |s, _, _| {
            last = Some((s.record_expect(&rules), s.facts(&rules)));
            Ok(())
        })
        .unwrap();
        let (expect, facts) = last.expect("the game played an action");
        assert_eq!(expect.money.len(), players as usize, "{config}: {expect:?}");
        assert!(expect.phase.is_some() && expect.outcome.is_some(), "{config}: {expect:?}");
        assert_eq!(facts.unmet(&expect), Ok(vec![]), "{config}");
    }
}
