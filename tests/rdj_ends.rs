//! Red Dog Junction's random player (`games::red_dog_junction::policy`):
//! its weights are aligned with the legal list and positive everywhere a
//! random game goes, so no legal action becomes unreachable, and the
//! playout draws by them.

use rulecheck::check::playout::{Chooser, RandomChooser};
use rulecheck::engine::{Config, Game, ToMove};
use rulecheck::games::red_dog_junction::{Action, State};

use crate::rdj_play::rules;

#[test]
fn play_weights_are_aligned_positive_and_favour_purchases() {
    let rules = rules();
    let (mut legal, mut weights) = (Vec::new(), Vec::new());
    let mut favoured = 0u32;
    for players in 2..=5u32 {
        let config = Config { turn_cap: Some(40), ..Config::new("red-dog-junction", players, u64::from(players)) };
        let mut s = State::new(&rules, &config).unwrap();
        let mut chooser = RandomChooser::new(config.seed);
        while !s.is_over() {
            s.legal_actions(&rules, &mut legal);
            if s.to_move() == ToMove::Chance {
                s.apply(&rules, &legal[0]).unwrap();
                continue;
            }
            s.play_weights(&rules, &legal, &mut weights);
            assert_eq!(weights.len(), legal.len(), "one weight per legal action");
            assert!(weights.iter().all(|&w| w > 0), "a legal action weighted zero: {legal:?} {weights:?}");
            let pass = legal.iter().position(|a| *a == Action::Pass).map(|i| weights[i]);
            for (a, w) in legal.iter().zip(&weights) {
                if matches!(a, Action::Buy { .. } | Action::Deal(_)) && pass.is_some_and(|p| *w > p) {
                    favoured += 1;
                }
            }
            let i = chooser.choose_weighted(&weights);
            s.apply(&rules, &legal[i]).unwrap();
        }
    }
    assert!(favoured > 0, "no purchase or Super Deal was ever weighted above a pass");
}
