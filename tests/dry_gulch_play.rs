//! Dry Gulch played at random: every configuration finishes, and the
//! shared suite holds after every action.

use rulecheck::check::playout::RandomChooser;
use rulecheck::check::suite::{Checks, run_game};
use rulecheck::engine::{Config, Outcome};
use rulecheck::games::dry_gulch::{Rules, State};
use rulecheck::games::{self, AnyRules};

pub fn rules() -> Rules {
    let src = rulecheck::bundled::rules().unwrap();
    let g = src.iter().find(|g| g.name == "dry-gulch").unwrap();
    match games::load(g).unwrap() {
        AnyRules::DryGulch(r) => *r,
    }
}

#[test]
fn contract_holds_in_random_games() {
    let rules = rules();
    for seed in 0..40u64 {
        let config = Config::new("dry-gulch", 3 + (seed % 4) as u32, seed);
        let mut chooser = RandomChooser::new(seed);
        let run = run_game::<State>(&rules, &config, &mut chooser, Checks::ALL, None, 100_000, &mut []).unwrap();
        if let Some(f) = &run.failure {
            panic!("{f} (seed {seed}, after {} actions: {:?})", run.actions.len(), run.actions.last());
        }
        assert!(matches!(run.outcome, Some(Outcome::Win(_) | Outcome::Draw(_))));
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

#[test]
fn invariants_hold_in_every_configuration() {
    let rules = rules();
    let games: u64 = std::env::var("RULECHECK_GAMES").ok().and_then(|s| s.parse().ok()).unwrap_or(20);
    for players in 3..=6 {
        for config in single_change_configs(&rules, players, 0) {
            for seed in 0..games {
                let config = Config { seed, ..config.clone() };
                let mut chooser = RandomChooser::new(seed);
                let run = run_game::<State>(&rules, &config, &mut chooser, Checks::INVARIANTS, None, 100_000, &mut [])
                    .unwrap();
                if let Some(f) = &run.failure {
                    panic!("{f} ({config}, after {} actions: {:?})", run.actions.len(), run.actions.last());
                }
            }
        }
    }
}
