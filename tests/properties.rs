//! Property tests: random games under proptest (shrinking to a short choice
//! list), the contract in every configuration, one planted fault per
//! invariant, and quickcheck for the cheap type-driven properties.
//!
//! Case counts are fixed and small so `cargo test` stays fast; raise them with
//! `PROPTEST_CASES` (proptest) and `QUICKCHECK_TESTS` (quickcheck).

use proptest::prelude::*;
use proptest::test_runner::{Config as PropConfig, FileFailurePersistence};
use quickcheck::{QuickCheck, TestResult};

use rulecheck::catalog;
use rulecheck::check::playout::{RandomChooser, ScriptThenRandom};
use rulecheck::check::suite::{Checks, Failure, run_game};
use rulecheck::engine::{Check, Config, Describe, Game, Id, move_n};
use rulecheck::games::dry_gulch::invariants::{FAULTS, INVARIANTS};
use rulecheck::games::dry_gulch::payment::{self, Payment, Terms};
use rulecheck::games::dry_gulch::rules::{Damage, Placed};
use rulecheck::games::dry_gulch::rules_data::ResourceKind;
use rulecheck::games::dry_gulch::{Rules, State};
use rulecheck::games::{self, AnyRules};

use crate::dry_gulch_play::{rules, single_change_configs};

fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(default)
}

fn prop_config(default_cases: u32) -> PropConfig {
    PropConfig {
        cases: cases(default_cases),
        failure_persistence: Some(Box::new(FileFailurePersistence::SourceParallel("proptest-regressions"))),
        ..PropConfig::default()
    }
}

/// The message a failing property prints: the broken check, the
/// configuration, the actions, and the command that reproduces it.
fn report(rules: &Rules, config: &Config, f: &Failure, actions: &[<State as Game>::Action]) -> String {
    let listed: Vec<String> = actions
        .iter()
        .enumerate()
        .map(|(i, a)| format!("  {:>3}. {}", i + 1, State::describe_action(rules, a)))
        .collect();
    format!(
        "{f}\nconfiguration: {config}\n{} actions:\n{}\nreproduce: rulecheck fuzz {} --seed {} --games 1",
        actions.len(),
        listed.join("\n"),
        config.flags(),
        config.seed
    )
}

proptest! {
    #![proptest_config(prop_config(12))]

    /// The whole contract and every invariant after every action of random
    /// games under the default configuration; a failure shrinks to a short
    /// choice list.
    #[test]
    fn random_games_keep_the_contract(seed in any::<u64>(), players in 3u32..=6, script in proptest::collection::vec(any::<u32>(), 0..300)) {
        let rules = rules();
        let config = Config::new("dry-gulch", players, seed);
        let mut chooser = ScriptThenRandom::new(&script, seed);
        let checks = Checks { invariants: true, contract: true, yaml_every: 25 };
        let run = run_game::<State>(&rules, &config, &mut chooser, checks, None, 50_000, &mut []).unwrap();
        if let Some(f) = &run.failure {
            prop_assert!(false, "{}", report(&rules, &config, f, &run.actions));
        }
    }
}

/// Every configuration (default, each variant, each option of each
/// interpretation) keeps the contract (JSON round trip, clone, replay,
/// malformed actions) and every invariant.
#[test]
fn every_configuration_keeps_the_contract() {
    let rules = rules();
    let checks = Checks { invariants: true, contract: true, yaml_every: 0 };
    for (k, config) in single_change_configs(&rules, 3, 0).into_iter().enumerate() {
        let players = 3 + (k % 4) as u32;
        for seed in 0..2u64 {
            let config = Config { seed: seed + 100 * k as u64, players, ..config.clone() };
            let mut chooser = RandomChooser::new(config.seed);
            let run = run_game::<State>(&rules, &config, &mut chooser, checks, None, 50_000, &mut []).unwrap();
            if let Some(f) = &run.failure {
                panic!("{}", report(&rules, &config, f, &run.actions));
            }
        }
    }
}

/// The configuration in which a fault can show: some need a variant.
fn fault_config(fault: &str, seed: u64) -> Config {
    let c = Config::new("dry-gulch", 3 + (seed % 4) as u32, seed);
    match fault {
        "open-closed-town-hall" => c.with_variant("town-hall-damage"),
        "waiting-kept" => c.with_reading("reward-card-german-rule-7", "all-at-reward"),
        _ => c,
    }
}

/// For every invariant, its planted fault is caught, and it is exactly that
/// invariant that the harness reports.
#[test]
fn every_invariant_catches_its_fault() {
    let rules = rules();
    for inv in INVARIANTS {
        let mut caught = None;
        for seed in 0..400u64 {
            let config = fault_config(inv.fault, seed);
            let mut chooser = RandomChooser::new(seed);
            let run =
                run_game::<State>(&rules, &config, &mut chooser, Checks::INVARIANTS, Some(inv.fault), 50_000, &mut [])
                    .unwrap();
            if let Some(f) = run.failure {
                caught = Some((seed, f));
                break;
            }
        }
        if let Some((seed, _)) = &caught {
            eprintln!("fault {} caught at seed {seed}", inv.fault);
        }
        let (seed, f) = caught
            .unwrap_or_else(|| panic!("fault `{}` was never caught: invariant `{}` cannot fail", inv.fault, inv.name));
        assert_eq!(
            f.name(),
            inv.name,
            "fault `{}` (seed {seed}) broke `{}`, not `{}`: {f}",
            inv.fault,
            f.name(),
            inv.name
        );
    }
}

/// As many fault tests as invariants: every invariant names a fault, every
/// fault belongs to one invariant, and unknown faults are refused.
#[test]
fn invariants_and_faults_pair_up() {
    assert_eq!(INVARIANTS.len(), FAULTS.len());
    let mut named: Vec<&str> = INVARIANTS.iter().map(|i| i.fault).collect();
    named.sort();
    let mut faults = FAULTS.to_vec();
    faults.sort();
    assert_eq!(named, faults);
    assert_eq!(State::invariants().len(), INVARIANTS.len());
    let rules = rules();
    let mut s = State::new(&rules, &Config::new("dry-gulch", 3, 1)).unwrap();
    assert!(!s.inject_fault("no-such-fault"));
}

/// A 3-player game as set up, its legal actions and what the checks
/// remember before the first, checked once: all hold.
fn checked_at_start() -> (Rules, State, Vec<<State as Game>::Action>, <State as Check>::Before) {
    let rules = rules();
    let s = State::new(&rules, &Config::new("dry-gulch", 3, 1)).unwrap();
    let mut legal = Vec::new();
    s.legal_actions(&rules, &mut legal);
    let before = s.before();
    assert_eq!(s.check_invariants(&rules, &before, &legal[0], &[]), Ok(()));
    (rules, s, legal, before)
}

/// Card conservation keeps the two decks apart: a resource card and an
/// event card that trade piles leave every total right, and the check
/// still names the card out of place and the pile it lies in (each pile
/// of the table admits one deck's cards, `engine::Admits`). It reads again
/// only the piles an action moved (each kept with its stamp), and a pile
/// found wrong is read again at every check until it is right.
#[test]
fn card_conservation_catches_a_card_in_the_other_deck() {
    let (rules, mut s, legal, before) = checked_at_start();
    let (r, e) = (s.resource_deck.top().unwrap(), s.event_deck.top().unwrap());
    move_n(&mut s.resource_deck, &mut s.event_deck, r, 1).unwrap();
    move_n(&mut s.event_deck, &mut s.resource_deck, e, 1).unwrap();
    let check = |s: &State| s.check_invariants(&rules, &before, &legal[0], &[]);
    for _ in 0..2 {
        let v = check(&s).unwrap_err();
        assert_eq!(v.invariant, "card-conservation");
        assert_eq!(v.detail, format!("event card {} in resource-deck", rules.card_id(e)));
    }
    // put back: every pile holds its own cards again
    move_n(&mut s.resource_deck, &mut s.event_deck, e, 1).unwrap();
    move_n(&mut s.event_deck, &mut s.resource_deck, r, 1).unwrap();
    assert_eq!(check(&s), Ok(()));
    // the event deck's top on the resource deck, after checks that found
    // every pile right; then a resource card among the face-up events too,
    // the first pile in the table's order
    move_n(&mut s.event_deck, &mut s.resource_deck, e, 1).unwrap();
    let v = check(&s).unwrap_err();
    assert_eq!(v.detail, format!("event card {} in resource-deck", rules.card_id(e)));
    move_n(&mut s.resource_deck, &mut s.face_up, r, 1).unwrap();
    let v = check(&s).unwrap_err();
    assert_eq!(v.detail, format!("resource card {} in face-up", rules.card_id(r)));
    move_n(&mut s.resource_deck, &mut s.event_deck, e, 1).unwrap();
    let v = check(&s).unwrap_err();
    assert_eq!(v.detail, format!("resource card {} in face-up", rules.card_id(r)));
    move_n(&mut s.face_up, &mut s.resource_deck, r, 1).unwrap();
    assert_eq!(check(&s), Ok(()));
}

/// The conservation checks keep their tally zone by zone, each part with
/// its zone's stamp (`engine::Ledger`), and their answer while no zone
/// changes: a card or a permit taken out of play after a check is found
/// by the next, in the state it left and not in the state it was cloned
/// from, whose kept answer stands.
#[test]
fn a_kept_conservation_answer_never_hides_a_component_gone() {
    use rulecheck::engine::Pile;
    let (rules, s, legal, before) = checked_at_start();
    for (what, invariant) in [("card", "card-conservation"), ("permit", "permits-kept")] {
        let mut gone = s.clone();
        assert_eq!(gone.check_invariants(&rules, &before, &legal[0], &[]), Ok(()), "kept in the clone too");
        let detail = if what == "card" {
            let c = gone.resource_deck.top().unwrap();
            move_n(&mut gone.resource_deck, &mut Pile::new(), c, 1).unwrap();
            "in play, the deck has"
        } else {
            let b = gone.permit_deck.top().unwrap();
            move_n(&mut gone.permit_deck, &mut Pile::new(), b, 1).unwrap();
            "permits exist, the deck has"
        };
        let v = gone.check_invariants(&rules, &before, &legal[0], &[]).unwrap_err();
        assert_eq!(v.invariant, invariant, "{what}");
        assert!(v.detail.contains(detail), "{what}: {}", v.detail);
        assert_eq!(s.check_invariants(&rules, &before, &legal[0], &[]), Ok(()), "{what}: the original is whole");
    }
}

/// The invariants keep their reading of the board while it is unchanged;
/// a change made after a check (the board is changed only through `edit`)
/// is read at the next: a marker with no disaster card behind it, put on
/// the Town Hall after a clean check, is found.
#[test]
fn a_board_changed_after_a_check_is_read_again() {
    let (rules, mut s, legal, before) = checked_at_start();
    assert_eq!(s.check_invariants(&rules, &before, &legal[0], &[]), Ok(()));
    let th = s.board.iter().position(Option::is_some).expect("the Town Hall stands");
    let plot = Id::new(th).unwrap();
    s.board.edit()[th].as_mut().unwrap().damage = Some(Damage { card: Id::ZERO, origin: plot });
    let v = s.check_invariants(&rules, &before, &legal[0], &[]).unwrap_err();
    assert_eq!(v.invariant, "damage-markers");
    assert_eq!(v.detail, format!("{} carries a marker with no disaster card behind it", rules.plot(plot).id));
}

/// The rules keep each player's buildings' influence until the board
/// changes: a building put up, then damaged, is counted anew each time,
/// and a fault planted after the count (the damage ignored) is not
/// answered with the count kept from before it.
#[test]
fn the_kept_board_influence_follows_the_board_and_the_fault() {
    let (rules, mut s, _, _) = checked_at_start();
    let at_start = s.counted_influence(&rules, 0);
    let free = s.board.iter().position(Option::is_none).expect("a free plot");
    let (b, inf) = (0..rules.buildings.len())
        .map(|i| (Id::new(i).unwrap(), rules.building_influence[i]))
        .find(|&(_, inf)| inf >= 2)
        .expect("a building worth two or more");
    s.board.edit()[free] = Some(Placed { building: b, owner: Some(0), damage: None, chips: Default::default() });
    assert_eq!(s.counted_influence(&rules, 0), at_start + inf);
    let plot = Id::new(free).unwrap();
    s.board.edit()[free].as_mut().unwrap().damage = Some(Damage { card: Id::ZERO, origin: plot });
    let damaged = s.counted_influence(&rules, 0);
    assert!(damaged < at_start + inf, "a damaged building counts less ({damaged})");
    assert!(s.inject_fault("damage-ignored"));
    assert_eq!(s.counted_influence(&rules, 0), at_start + inf);
}

/// A state that is not over lists legal actions and a clean game never
/// trips a fault-free run: the fault switch is off by default.
#[test]
fn no_fault_is_on_by_default() {
    let rules = rules();
    let s = State::new(&rules, &Config::new("dry-gulch", 3, 1)).unwrap();
    assert_eq!(s.fault, None);
}

// ------------------------------------------------------------- quickcheck

fn qc(tests: u64) -> QuickCheck {
    let n = std::env::var("QUICKCHECK_TESTS").ok().and_then(|s| s.parse().ok()).unwrap_or(tests);
    QuickCheck::new().tests(n).max_tests(n * 10)
}

fn bundled_sources() -> catalog::GameSources {
    rulecheck::bundled::rules().unwrap().into_iter().find(|g| g.name == "dry-gulch").unwrap()
}

/// load → write → load gives an equal catalog (and so does the lowering).
#[test]
fn catalog_round_trip() {
    let src = bundled_sources();
    let raw = games::dry_gulch::catalog::parse_raw(&src).unwrap();
    let mut written = src.clone();
    for (name, text) in raw.to_files() {
        written.files.insert(name.to_string(), catalog::SourceFile { path: format!("written/{name}"), text });
    }
    let again = games::dry_gulch::catalog::parse_raw(&written).unwrap();
    // locations differ between the two texts; the written form must be a fixed point
    assert_eq!(raw.to_files(), again.to_files());
    let a = games::dry_gulch::catalog::load(&src).unwrap();
    let b = games::dry_gulch::catalog::load(&written).unwrap();
    assert_eq!(format!("{:?}", a.events), format!("{:?}", b.events));
    assert_eq!(a.tally, b.tally);
}

/// Every effect of the catalog survives YAML → effect → YAML unchanged.
#[test]
fn effect_language_round_trip() {
    let raw = games::dry_gulch::catalog::parse_raw(&bundled_sources()).unwrap();
    for e in &raw.events.events {
        let text = rulecheck::yaml::to_string(&e.effect);
        let back: Vec<games::dry_gulch::schema::RawEffect> = rulecheck::yaml::from_str("effect", &text).unwrap();
        assert_eq!(rulecheck::yaml::to_string(&back), text, "{}", e.id.value);
        assert_eq!(back, e.effect, "{}", e.id.value);
    }
}

fn cached_rules() -> &'static Rules {
    static RULES: std::sync::OnceLock<Rules> = std::sync::OnceLock::new();
    RULES.get_or_init(rules)
}

fn terms(rules: &Rules, bits: u8) -> Terms<'static> {
    Terms {
        only_missing: bits & 1 == 0,
        // 1 or 2 as the readings set it, and 0 and 3 as a house rule may
        labor_units: [1, 2, 0, 3][usize::from(bits >> 1 & 1) | usize::from(bits >> 6 & 2)],
        blank_from_de: bits & 4 == 0,
        store_left: u32::from(bits >> 5),
        store_missing_only: bits & 8 != 0,
        handyman: rules.card_by_id("handyman-brother"),
        unprinted_is: if bits & 16 == 0 { ResourceKind::Good } else { ResourceKind::Ability },
        touched: None,
    }
}

/// Substitution arithmetic: every enumerated payment is accepted by the
/// check, payments are listed once each, and a payment is accepted only if
/// it is one of the enumerated ones.
#[test]
fn payment_accepted_iff_enumerated() {
    fn prop(hand_seed: Vec<u8>, building: u8, bits: u8, probe: Vec<(u8, u8)>) -> TestResult {
        let rules = cached_rules();
        let mut hand = vec![0u8; rules.card_count()];
        for (i, h) in hand_seed.iter().take(15).enumerate() {
            hand[(*h as usize + i) % rules.card_count()] += 1;
        }
        let buildable: Vec<usize> =
            (0..rules.buildings.len()).filter(|&b| !rules.buildings[b].cost.is_empty()).collect();
        let b = buildable[building as usize % buildable.len()];
        let need = rules.buildings[b].cost.clone();
        let t = terms(rules, bits);
        let mut all = Vec::new();
        payment::enumerate(rules, &t, &need, &hand, &mut all);
        for p in &all {
            if let Err(e) = payment::check(rules, &t, &need, &hand, p) {
                return TestResult::error(format!("enumerated payment rejected: {e}: {p:?}"));
            }
        }
        let mut sorted = all.clone();
        sorted.sort();
        sorted.dedup();
        if sorted.len() != all.len() {
            return TestResult::error("a payment is listed twice");
        }
        // the count and the k-th payment a random pick uses agree with the list
        if payment::count(rules, &t, &need, &hand) != all.len() {
            return TestResult::error("payment::count disagrees with the enumeration");
        }
        if (0..=all.len()).any(|k| payment::nth(rules, &t, &need, &hand, k).as_ref() != all.get(k)) {
            return TestResult::error("payment::nth disagrees with the enumeration");
        }
        // a perturbed payment is accepted only if it was enumerated
        if let Some(base) = all.first() {
            let mut p: Payment = base.clone();
            for (k, v) in probe.iter().take(3) {
                match k % 3 {
                    0 if !p.direct.is_empty() => {
                        let i = *v as usize % p.direct.len();
                        p.direct[i].1 = p.direct[i].1.saturating_add(1);
                    }
                    1 if !p.cards.is_empty() => {
                        let i = *v as usize % p.cards.len();
                        p.cards[i].1 = p.cards[i].1.saturating_sub(1).max(1);
                    }
                    _ => {
                        let c = rules.cards().nth(*v as usize % rules.card_count()).unwrap();
                        if !p.cards.iter().any(|(k, _)| *k == c) {
                            p.cards.push((c, 1));
                            p.cards.sort();
                        }
                    }
                }
            }
            let accepted = payment::check(rules, &t, &need, &hand, &p).is_ok();
            if accepted != all.contains(&p) {
                return TestResult::error(format!("check says {accepted} for {p:?}, enumeration disagrees"));
            }
        }
        TestResult::passed()
    }
    qc(200).quickcheck(prop as fn(Vec<u8>, u8, u8, Vec<(u8, u8)>) -> TestResult);
}

/// The invariants must not depend on numbers no rulebook prints: a catalog
/// with random assumed building costs, influence and plot rewards (in
/// valid ranges) still satisfies the whole suite in random games.
#[test]
fn random_assumed_numbers_keep_the_suite() {
    fn prop(seed: u64, influence: Vec<u8>, rewards: Vec<u8>, extra_cost: Vec<u8>) -> TestResult {
        let src = bundled_sources();
        let mut raw = games::dry_gulch::catalog::parse_raw(&src).unwrap();
        for (i, b) in raw.buildings.buildings.iter_mut().enumerate() {
            if b.assumed.contains_key("influence") && !b.cost.is_empty() {
                if let Some(x) = influence.get(i) {
                    b.influence = 1 + u32::from(*x % 4);
                }
                if let Some(x) = extra_cost.get(i) {
                    let r = raw.resources.resources[*x as usize % raw.resources.resources.len()].id.clone();
                    if *x % 2 == 0 {
                        b.cost.push(r);
                    }
                }
            }
        }
        let mut k = 0;
        for block in &mut raw.board.board.blocks {
            for p in &mut block.plots {
                if let Some(x) = rewards.get(k) {
                    p.reward = u32::from(*x % 3);
                }
                k += 1;
            }
        }
        let mut written = src.clone();
        for (name, text) in raw.to_files() {
            written.files.insert(name.to_string(), catalog::SourceFile { path: name.to_string(), text });
        }
        let rules = match games::load(&written) {
            Ok(AnyRules::DryGulch(r)) => r,
            Ok(_) => unreachable!("the dry-gulch folder loads as Dry Gulch"),
            Err(d) => return TestResult::error(format!("the mutated catalog does not load: {}", d[0])),
        };
        let config = Config::new("dry-gulch", 3 + (seed % 4) as u32, seed);
        let checks = Checks { invariants: true, contract: true, yaml_every: 0 };
        let run =
            run_game::<State>(&rules, &config, &mut RandomChooser::new(seed), checks, None, 50_000, &mut []).unwrap();
        match run.failure {
            Some(f) => TestResult::error(report(&rules, &config, &f, &run.actions)),
            None => TestResult::passed(),
        }
    }
    qc(10).quickcheck(prop as fn(u64, Vec<u8>, Vec<u8>, Vec<u8>) -> TestResult);
}

/// Checking the invariants does not change which readings a game consulted:
/// each check reads the readings without recording them, so `diff` and the
/// reachability counts say the same with invariants on or off.
#[test]
fn checking_records_no_reading() {
    let rules = rules();
    for (k, config) in single_change_configs(&rules, 6, 0).into_iter().enumerate() {
        let config = Config { seed: 7 + k as u64, ..config };
        let play = |checks| {
            let mut chooser = RandomChooser::new(config.seed);
            run_game::<State>(&rules, &config, &mut chooser, checks, None, 50_000, &mut []).unwrap()
        };
        let (checked, bare) = (play(Checks::INVARIANTS), play(Checks::NONE));
        assert!(checked.failure.is_none(), "{config}: {:?}", checked.failure);
        assert_eq!(checked.actions, bare.actions, "{config}");
        assert_eq!(checked.consulted, bare.consulted, "{config}");
    }
}
