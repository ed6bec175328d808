//! Red Dog Junction played at random: the shared contract holds in every
//! configuration at every player count (1 is the solo game against the
//! Automa), every invariant catches its planted fault, and the catalog
//! keeps its interpretations.

use rulecheck::check::playout::{Chooser, RandomChooser, pick};
use rulecheck::check::suite::{Checks, run_game};
use rulecheck::engine::{Check, Config, Game, Scripted};
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

/// The default, each variant alone, and each non-default option of each
/// live interpretation alone (with the variant it belongs to).
fn single_change_configs(rules: &Rules, players: u32, seed: u64) -> Vec<Config> {
    let base = Config::new("red-dog-junction", players, seed);
    let mut out = vec![base.clone()];
    out.extend(rules.variants.iter().map(|v| base.clone().with_variant(&v.id)));
    for i in rules.interpretations.iter().filter(|i| i.inert.is_none()) {
        let under = i.variant.as_ref().map_or(base.clone(), |v| base.clone().with_variant(v));
        for o in i.options.iter().filter(|o| o.id != i.default) {
            out.push(under.clone().with_reading(&i.id, &o.id));
        }
    }
    out
}

#[test]
fn contract_holds_in_every_configuration() {
    let rules = rules();
    for players in 1..=5u32 {
        for (k, config) in single_change_configs(&rules, players, u64::from(players)).into_iter().enumerate() {
            // 60 turns a game, and the YAML round trip (the slowest check)
            // at every tenth action, keep the whole contract within the test budget
            let config = Config { seed: config.seed * 100 + k as u64, turn_cap: Some(60), ..config };
            let mut chooser = RandomChooser::new(config.seed);
            let checks = Checks { yaml_every: 10, ..Checks::ALL };
            let run = run_game::<State>(&rules, &config, &mut chooser, checks, None, 20_000, &mut []).unwrap();
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
            let mut s = near_the_end(&rules, 1 + (seed % 5) as u32, seed, bank);
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

/// The solo player's turn allows three actions: fault-free solo games keep
/// `actions-per-turn` with three actions a turn begun, and the planted
/// extra action (a fourth) is caught in solo games too.
#[test]
fn solo_turns_have_three_actions_and_a_fourth_is_caught() {
    let rules = rules();
    let mut threes = 0;
    for seed in 0..10u64 {
        let mut s = State::new(&rules, &Config::new("red-dog-junction", 1, seed)).unwrap();
        assert!(s.solo && s.players == 2 && s.actions_left == 3);
        let mut chooser = RandomChooser::new(seed);
        let mut legal = Vec::new();
        for _ in 0..3000 {
            s.legal_actions(&rules, &mut legal);
            if legal.is_empty() {
                break;
            }
            let a = legal[chooser.choose(legal.len())];
            let before = s.before();
            let ev = s.apply(&rules, &a).unwrap();
            threes += usize::from(s.active == 0 && s.actions_taken == 3);
            s.check_invariants(&rules, &before, &a, &ev).unwrap();
        }
        let mut f = near_the_end(&rules, 1, seed, 1);
        assert!(f.inject_fault("third-action"));
        assert_eq!(play(&rules, f, seed), Some("actions-per-turn"), "seed {seed}");
    }
    assert!(threes > 0, "no solo turn began three actions");
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

/// Random games, choosing by the game's play weights as `fuzz` and `check`
/// do, mostly reach an end the rules give (the countdown after the bank's
/// last gold, or the deck's last card) before the turn cap, at every player
/// count; choosing uniformly, none did (0 of 200 at `fuzz --seed 1`).
#[test]
fn random_games_reach_the_end_the_rules_give() {
    let rules = rules();
    for players in 1..=5u32 {
        let games = 12u64;
        let mut ends = [0u64; 3];
        for seed in 0..games {
            let mut s = State::new(&rules, &Config::new("red-dog-junction", players, seed)).unwrap();
            let mut chooser = RandomChooser::new(seed);
            let (mut legal, mut weights) = (Vec::new(), Vec::new());
            while !s.is_over() {
                s.legal_actions(&rules, &mut legal);
                let i = pick(&s, &rules, &legal, &mut weights, &mut chooser);
                s.apply(&rules, &legal[i]).unwrap();
            }
            ends[s.end.map_or(2, |e| e as usize)] += 1;
        }
        eprintln!("{players} players: countdown {}, deck out {}, turn cap {}", ends[0], ends[1], ends[2]);
        assert_eq!(ends.iter().sum::<u64>(), games);
        assert!(2 * (ends[0] + ends[1]) > games, "{players} players: {ends:?} (countdown, deck out, turn cap)");
    }
}

/// `legal` (the candidates `check` accepts) is the list the first
/// definition gives (each candidate carried out on a copy of the state),
/// action for action and in the same order, in the states of random games
/// under every single reading at every player count, from the set-up and
/// from a rich storage near the end.
#[test]
fn rdj_legal_by_check_is_legal_by_trying() {
    let rules = rules();
    let (mut fast, mut slow) = (Vec::new(), Vec::new());
    let (mut states, mut rich_ones) = (0, 0);
    for players in 1..=5u32 {
        for (k, config) in single_change_configs(&rules, players, u64::from(players)).into_iter().enumerate() {
            let seed = config.seed * 1000 + k as u64;
            let fresh = State::new(&rules, &Config { seed, ..config.clone() }).unwrap();
            let mut rich = fresh.clone();
            let setup: SetupSpec = serde_json::from_value(serde_json::json!({
                "storage": {"p1": {"gold": 3, "scrap": 6, "whiskey": 5, "ruby": 4, "oxygen": 4}},
                "cargo": {"p1": {"ruby": 2, "oxygen": 2, "gas": 2, "scrap": 6}, "p2": {"ice": 3}},
                "crew": {
                    "p1": {"agent": 1, "miner": 1, "outlaw": 1, "rustler": 2, "rascal": 1},
                    "p2": {"outlaw": 1, "rustler": 1},
                },
            }))
            .unwrap();
            // a deal may hold too few of a card in the deck: then only the set-up
            let rich = rich.apply_setup(&rules, &setup).is_ok().then_some(rich);
            rich_ones += usize::from(rich.is_some());
            for (mut s, n) in [Some(fresh), rich].into_iter().flatten().map(|s| (s, 300)) {
                let mut chooser = RandomChooser::new(seed);
                for _ in 0..n {
                    s.legal_actions(&rules, &mut fast);
                    s.legal_by_trying(&rules, &mut slow);
                    assert_eq!(fast, slow, "{} after {} turns", config.flags(), s.turns);
                    states += 1;
                    if fast.is_empty() {
                        break;
                    }
                    let a = fast[chooser.choose(fast.len())];
                    s.apply(&rules, &a).unwrap();
                }
            }
        }
    }
    assert!(states > 10_000 && rich_ones > 20, "{states} states, {rich_ones} rich set-ups");
}

/// A reading consulted only while the legal list is built (what a Rascal
/// may do: only `check` of a Rascal's Super Deal asks) is recorded on the
/// state the list was built from, so `check` does not call it dead.
#[test]
fn rdj_readings_consulted_by_the_legal_list_are_recorded() {
    use rulecheck::engine::Cover;
    let rules = rules();
    let mut s = State::new(&rules, &Config::new("red-dog-junction", 3, 7)).unwrap();
    let mut legal = Vec::new();
    while s.to_move() == rulecheck::engine::ToMove::Chance {
        s.legal_actions(&rules, &mut legal);
        s.apply(&rules, &legal[0]).unwrap();
    }
    assert!(!s.consulted(&rules).iter().any(|r| r == "rascal-ability"));
    s.legal_actions(&rules, &mut legal);
    assert!(s.consulted(&rules).iter().any(|r| r == "rascal-ability"), "{:?}", s.consulted(&rules));
}

/// A copy of the bundled Red Dog Junction folder outside `rules/`, with
/// `edits` (from, to) made in `file`; its load result.
fn load_edited(label: &str, file: &str, edits: &[(&str, &str)]) -> Result<Rules, String> {
    let root = std::env::temp_dir().join(format!("rulecheck-rdj-{}-{label}", std::process::id()));
    let dir = root.join("red-dog-junction");
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&dir).unwrap();
    let bundled = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/red-dog-junction");
    for entry in std::fs::read_dir(bundled).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
    }
    let path = dir.join(file);
    let mut text = std::fs::read_to_string(&path).unwrap();
    for (from, to) in edits {
        assert_eq!(text.matches(from).count(), 1, "`{from}` is not once in {file}");
        text = text.replacen(from, to, 1);
    }
    std::fs::write(&path, text).unwrap();
    let srcs = rulecheck::catalog::read_root(&root).map_err(|d| format!("{d:?}"))?;
    let loaded = games::load(&srcs[0]).map_err(|d| d.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("\n"));
    let _ = std::fs::remove_dir_all(&root);
    match loaded? {
        AnyRules::RedDogJunction(r) => Ok(*r),
        _ => Err("not the Red Dog Junction catalog".into()),
    }
}

/// The effect a card has: the Mayor's action under a configuration.
fn mayor_gold(rules: &Rules, config: Config) -> Result<u32, String> {
    let mut s = State::new(rules, &config).map_err(|e| e.to_string())?;
    let setup: SetupSpec = serde_json::from_value(serde_json::json!({"crew": {"p1": {"mayor": 1}}})).unwrap();
    s.apply_setup(rules, &setup).map_err(|e| e.to_string())?;
    let mut legal = Vec::new();
    while s.to_move() == rulecheck::engine::ToMove::Chance {
        s.legal_actions(rules, &mut legal);
        s.apply(rules, &legal[0]).unwrap();
    }
    let mayor = rules.card_by_id("mayor").unwrap();
    s.apply(rules, &rulecheck::games::red_dog_junction::Action::Officer(mayor)).map_err(|e| e.to_string())?;
    Ok(s.storage[0].count(rules.gold))
}

/// A user catalog outside `rules/` replaces a card's effect with an
/// interpretation option's `replace:` (the card's id in `event:`), and a
/// bad operation in it is a load error at its line and column.
#[test]
fn rdj_replace_changes_a_cards_effect_in_a_user_catalog() {
    let option = "  - id: points-only\n    consequence: Officers only score";
    let mine = "  - id: double-levy\n    hook: assumed-effects\n    consequence: the Mayor levies two gold\n    \
                replace:\n    - event: mayor\n      effect:\n      - gain: {commodity: gold, count: 2, to: storage}\n";
    let rules = load_edited("replace", "interpretations.yaml", &[(option, &format!("{mine}{option}"))]).unwrap();
    let base = Config::new("red-dog-junction", 2, 3);
    assert_eq!(mayor_gold(&rules, base.clone()), Ok(2), "the Mayor's own effect levies one gold");
    let double = base.clone().with_reading("officer-boost-text", "double-levy");
    assert_eq!(mayor_gold(&rules, double), Ok(3), "the replacement levies two");
    let off = base.with_reading("officer-boost-text", "points-only");
    assert!(mayor_gold(&rules, off).unwrap_err().contains("card.effect"));

    let bad = mine.replace("- gain: {commodity", "- gane: {commodity");
    let err = load_edited("replace-bad", "interpretations.yaml", &[(option, &format!("{bad}{option}"))]).unwrap_err();
    assert!(err.contains("interpretations.yaml:630:9") && err.contains("unknown operation `gane`"), "{err}");
}

// The house-rules overlay tests (a file of their own, run in this binary).
#[path = "rdj_overlay.rs"]
mod overlay;
