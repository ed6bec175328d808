use rulecheck::check::playout::{RandomChooser, play};
use rulecheck::engine::{Config, Outcome};
use rulecheck::games::{self, AnyRules};

fn rules() -> rulecheck::games::dry_gulch::Rules {
    let src = rulecheck::bundled::rules().unwrap();
    let g = src.iter().find(|g| g.name == "dry-gulch").unwrap();
    match games::load(g).unwrap() {
        AnyRules::DryGulch(r) => *r,
    }
}

#[test]
fn random_games_finish() {
    let rules = rules();
    let mut wins = 0;
    let mut draws = 0;
    let mut total = 0;
    let t = std::time::Instant::now();
    for seed in 0..2000u64 {
        let config = Config::new("dry-gulch", 3 + (seed % 4) as u32, seed);
        let mut chooser = RandomChooser::new(seed);
        let r =
            play::<rulecheck::games::dry_gulch::State, ()>(&rules, &config, &mut chooser, 1_000_000, |_, _, _| Ok(()))
                .unwrap();
        total += r.actions.len();
        match r.outcome {
            Some(Outcome::Win(_)) => wins += 1,
            _ => draws += 1,
        }
    }
    println!("wins {wins} draws {draws} actions {total} in {:?}", t.elapsed());
}
