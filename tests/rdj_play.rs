//! Red Dog Junction played at random: the shared contract holds in every
//! configuration at every player count, every invariant catches its
//! planted fault, and the catalog keeps its interpretations.

use rulecheck::check::playout::{Chooser, RandomChooser};
use rulecheck::check::suite::{Checks, run_game};
use rulecheck::engine::{Check, Config, Game};
use rulecheck::games::red_dog_junction::invariants::{FAULTS, INVARIANTS};
use rulecheck::games::red_dog_junction::scenario_io::SetupSpec;
use rulecheck::games::red_dog_junction::{Rules, State};
use rulecheck::games::{self, AnyRules};

pub fn rules() -> Rules {
    let src = rulecheck::bundled::rules().unwrap();
    let g = src.iter().find(|g| g.name == "red-dog-junction").unwrap();
    match games::load(g).unwrap() {
        AnyRules::RedDogJunction(r) => *r,
        _ => unreachable!("found by name"),
    }
}

/// The default, and each non-default option of each live interpretation alone.
fn single_change_configs(rules: &Rules, players: u32, seed: u64) -> Vec<Config> {
    let base = Config::new("red-dog-junction", players, seed);
    let mut out = vec![base.clone()];
    for i in rules.interpretations.iter().filter(|i| i.inert.is_none()) {
        for o in i.options.iter().filter(|o| o.id != i.default) {
            out.push(base.clone().with_reading(&i.id, &o.id));
        }
    }
    out
}

#[test]
fn contract_holds_in_every_configuration() {
    let rules = rules();
    for players in 2..=5u32 {
        for (k, config) in single_change_configs(&rules, players, u64::from(players)).into_iter().enumerate() {
            // 60 turns a game keep the whole contract within the test budget
            let config = Config { seed: config.seed * 100 + k as u64, turn_cap: Some(60), ..config };
            let mut chooser = RandomChooser::new(config.seed);
            let run = run_game::<State>(&rules, &config, &mut chooser, Checks::ALL, None, 20_000, &mut []).unwrap();
            if let Some(f) = &run.failure {
                panic!("{f} ({}, after {} actions: {:?})", config.flags(), run.actions.len(), run.actions.last());
            }
            assert!(run.outcome.is_some());
        }
    }
}

#[test]
fn the_catalog_has_its_interpretations_and_the_engine_branches_on_them() {
    let rules = rules();
    assert!(rules.interpretations.len() >= 25, "{}", rules.interpretations.len());
    let live = rules.interpretations.iter().filter(|i| i.inert.is_none()).count();
    assert!(live >= 23, "{live} live");
    assert_eq!(rules.cards.iter().map(|c| c.copies).sum::<u32>(), 81);
    assert_eq!(rules.cubes.iter().map(|c| c.copies).sum::<u32>(), 230);
}

/// A game where the bank's gold is nearly gone, so the countdown starts
/// soon: `bank` gold left in the bank, the rest and six scrap in p1's
/// storage (to pay with), thirteen scrap aboard (one over capacity).
fn near_the_end(rules: &Rules, players: u32, seed: u64, bank: u32) -> State {
    let mut s = State::new(rules, &Config::new("red-dog-junction", players, seed)).unwrap();
    let left = s.bank_gold(rules);
    let setup: SetupSpec = serde_json::from_value(serde_json::json!({
        "storage": {"p1": {"gold": left.saturating_sub(bank), "scrap": 6}},
        "cargo": {"p1": {"scrap": 13}},
    }))
    .unwrap();
    s.apply_setup(rules, &setup).unwrap();
    s
}

/// Plays at random from `s` with the invariants after every action; the
/// first violation's invariant name.
fn play(rules: &Rules, mut s: State, seed: u64) -> Option<&'static str> {
    let mut chooser = RandomChooser::new(seed);
    let mut legal = Vec::new();
    for _ in 0..20_000 {
        s.legal_actions(rules, &mut legal);
        if legal.is_empty() {
            return None;
        }
        let a = legal[chooser.choose(legal.len())];
        let before = s.before();
        let ev = s.apply(rules, &a).unwrap();
        if let Err(v) = s.check_invariants(rules, &before, &a, &ev) {
            return Some(v.invariant);
        }
    }
    None
}

/// For every invariant, its planted fault is caught, and it is exactly that
/// invariant that breaks.
#[test]
fn every_invariant_catches_its_fault() {
    let rules = rules();
    assert_eq!(INVARIANTS.len(), FAULTS.len());
    for inv in INVARIANTS {
        let caught = (0..60u64).find_map(|seed| {
            // the countdown's and the score's faults show only at the end
            let bank = u32::from(!matches!(inv.fault, "countdown-short" | "score-bonus"));
            let mut s = near_the_end(&rules, 2 + (seed % 4) as u32, seed, bank);
            assert!(s.inject_fault(inv.fault));
            play(&rules, s, seed).map(|name| (seed, name))
        });
        let (seed, name) = caught.unwrap_or_else(|| panic!("fault `{}` was never caught by `{}`", inv.fault, inv.name));
        assert_eq!(name, inv.name, "fault `{}` (seed {seed}) broke `{name}`", inv.fault);
    }
    let rules2 = rules.clone();
    let mut s = State::new(&rules2, &Config::new("red-dog-junction", 3, 1)).unwrap();
    assert!(!s.inject_fault("no-such-fault"));
}

/// The fault-free games from near the end keep every invariant and end
/// by the countdown.
#[test]
fn the_countdown_ends_games_cleanly() {
    let rules = rules();
    for seed in 0..20u64 {
        let s = near_the_end(&rules, 2 + (seed % 4) as u32, seed, 0);
        assert_eq!(play(&rules, s.clone(), seed), None, "seed {seed}");
        assert!(ends_by_countdown(&rules, s, seed), "seed {seed}");
    }
}

fn ends_by_countdown(rules: &Rules, mut s: State, seed: u64) -> bool {
    let mut chooser = RandomChooser::new(seed);
    let mut legal = Vec::new();
    while !s.is_over() {
        s.legal_actions(rules, &mut legal);
        let a = legal[chooser.choose(legal.len())];
        s.apply(rules, &a).unwrap();
    }
    s.outcome(rules).is_some_and(|o| o.reason != rulecheck::engine::EndReason::TurnCap)
}
