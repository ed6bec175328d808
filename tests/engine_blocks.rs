//! The engine's building blocks: zones changed only by moves, the one
//! conservation check (shown catching a planted fault), and typed ids
//! assigned by a checked conversion, so a catalog with more entities of one
//! kind than an id holds is a load diagnostic, never a wrap.

use std::path::{Path, PathBuf};

use rulecheck::engine::{
    Chance, Drawn, Id, Imbalance, Kind, MoveError, Multiset, Pile, Stack, Supply, Tally, WhenEmpty, move_all, move_n,
    move_to_bottom,
};
use rulecheck::games;

// ------------------------------------------------------------------ zones

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
enum Card {}
impl Kind for Card {
    const NAME: &'static str = "card kind";
}

fn id(i: usize) -> Id<Card> {
    Id::new(i).unwrap()
}

const TOTALS: [u32; 3] = [2, 3, 1];

fn tally(zones: (&Pile<Card>, &Pile<Card>, &Multiset<Card>, &Multiset<Card>)) -> Result<(), Imbalance<Card>> {
    let mut t = Tally::new(3);
    t.add(zones.0).add(zones.1).add(zones.2).add(zones.3);
    t.check(|k| TOTALS[k.index()])
}

#[test]
fn moves_keep_every_total_and_a_failed_move_changes_nothing() {
    let mut chance = Chance::new(3);
    let mut deck: Pile<Card> = Pile::from_counts(&TOTALS);
    deck.shuffle(&mut chance);
    let mut discard = Pile::new();
    let (mut a, mut b): (Multiset<Card>, Multiset<Card>) = (Multiset::new(3), Multiset::new(3));
    for _ in 0..4 {
        deck.draw(&mut discard, WhenEmpty::Stop, &mut chance, &mut a);
    }
    assert_eq!((deck.len(), a.total()), (2, 4));
    let (k, _) = a.iter().next().unwrap();
    move_n(&mut a, &mut b, k, 1).unwrap();
    let before = (a.clone(), b.clone());
    assert_eq!(move_n(&mut a, &mut b, id(2), 5), Err(MoveError::Short { held: a.count(id(2)) }));
    assert_eq!((a.clone(), b.clone()), before);
    move_n(&mut b, &mut discard, k, 1).unwrap();
    assert_eq!(discard.top(), Some(k));
    assert!(tally((&deck, &discard, &a, &b)).is_ok());
}

#[test]
fn a_multiset_refuses_what_it_cannot_count() {
    let mut supply: Supply<Card> = Supply::new();
    let mut hand: Multiset<Card> = Multiset::new(2);
    move_n(&mut supply, &mut hand, id(0), 255).unwrap();
    assert_eq!(move_n(&mut supply, &mut hand, id(0), 1), Err(MoveError::Full));
    assert_eq!(move_n(&mut supply, &mut hand, id(2), 1), Err(MoveError::Full));
    assert_eq!(hand.count(id(0)), 255);
}

#[test]
fn a_pile_gives_up_its_lowest_copy_and_takes_on_top() {
    let mut row: Pile<Card> = Pile::new();
    let mut supply = Supply::new();
    for k in [1, 0, 1, 2] {
        move_n(&mut supply, &mut row, id(k), 1).unwrap();
    }
    let mut hand: Multiset<Card> = Multiset::new(3);
    move_n(&mut row, &mut hand, id(1), 1).unwrap();
    assert_eq!(row.as_slice(), [id(0), id(1), id(2)]);
    move_to_bottom(&mut hand, &mut row, id(1), 1).unwrap();
    assert_eq!(row.as_slice(), [id(1), id(0), id(1), id(2)]);
    assert_eq!(row.kinds().as_slice(), [id(0), id(1), id(2)]);
    let mut other = Pile::new();
    move_all(&mut row, &mut other);
    assert!(row.is_empty());
    assert_eq!(other.len(), 4);
}

#[test]
fn an_empty_deck_reshuffles_its_discards_only_when_the_policy_says_so() {
    let mut chance = Chance::new(9);
    let mut deck: Pile<Card> = Pile::new();
    let mut discard: Pile<Card> = Pile::from_counts(&TOTALS);
    let mut hand: Multiset<Card> = Multiset::new(3);
    let stop = deck.draw(&mut discard, WhenEmpty::Stop, &mut chance, &mut hand);
    assert_eq!(stop, Drawn { card: None, reshuffled: false });
    let drawn = deck.draw(&mut discard, WhenEmpty::Reshuffle, &mut chance, &mut hand);
    assert!(drawn.reshuffled && drawn.card.is_some());
    assert!(discard.is_empty());
    assert_eq!((deck.len(), hand.total()), (5, 1));
    // the same seed shuffles the same way
    let mut again = Pile::from_counts(&TOTALS);
    again.shuffle(&mut Chance::new(9));
    let mut drawn_deck = deck.clone();
    move_n(&mut hand, &mut drawn_deck, drawn.card.unwrap(), 1).unwrap();
    assert_eq!(drawn_deck.as_slice(), again.as_slice());
}

#[test]
fn the_conservation_check_catches_a_component_from_an_undeclared_source() {
    let mut deck: Pile<Card> = Pile::from_counts(&TOTALS);
    let mut discard = Pile::new();
    let mut hand: Multiset<Card> = Multiset::new(3);
    let other: Multiset<Card> = Multiset::new(3);
    move_n(&mut deck, &mut hand, id(1), 2).unwrap();
    assert!(tally((&deck, &discard, &hand, &other)).is_ok());
    // a seeded fault: a card taken is duplicated out of nowhere
    move_n(&mut Supply::new(), &mut hand, id(1), 1).unwrap();
    assert_eq!(tally((&deck, &discard, &hand, &other)), Err(Imbalance::Count { kind: id(1), found: 4, expected: 3 }));
    // and one lost to an undeclared sink
    move_n(&mut hand, &mut discard, id(1), 1).unwrap();
    move_n(&mut deck, &mut Supply::new(), id(0), 1).unwrap();
    assert_eq!(tally((&deck, &discard, &hand, &other)), Err(Imbalance::Count { kind: id(0), found: 1, expected: 2 }));
}

#[test]
fn a_declared_supply_balances_what_it_gave_out() {
    let mut bank: Supply<Card> = Supply::new();
    let mut hand: Multiset<Card> = Multiset::new(3);
    move_n(&mut bank, &mut hand, id(2), 4).unwrap();
    move_n(&mut hand, &mut bank, id(2), 1).unwrap();
    assert_eq!(bank.balance(id(2)), -3);
    let mut t = Tally::new(3);
    t.add(&hand);
    assert_eq!(t.found(id(2)), 3);
    t.add(&bank);
    assert!(t.check(|_| 0).is_ok());
}

#[test]
fn a_component_of_no_kind_is_reported() {
    let mut supply = Supply::new();
    let mut row: Pile<Card> = Pile::new();
    move_n(&mut supply, &mut row, id(7), 1).unwrap();
    let mut t = Tally::new(3);
    t.add(&row);
    assert_eq!(t.check(|_| 0), Err(Imbalance::Unknown { index: 7 }));
}

/// `check_totals`, the one-pass comparison with totals listed in kind
/// order, gives what `check` gives in every case: a match, a count off, a
/// kind past the list, a component of no kind, a count past every id.
#[test]
fn checking_against_listed_totals_agrees_with_checking_by_kind() {
    let totals = [2u32, 0, 3];
    let cases: [&[usize]; 7] =
        [&[0, 0, 2, 2, 2], &[0, 2, 2, 2], &[0, 0, 1, 2, 2, 2], &[0, 0, 2, 2, 2, 3], &[], &[0, 0, 2, 2, 2, 9], &[255]];
    for (i, ids) in cases.iter().enumerate() {
        let mut pile: Pile<Card> = Pile::new();
        for &k in *ids {
            move_n(&mut Supply::new(), &mut pile, id(k), 1).unwrap();
        }
        let mut t = Tally::new(4);
        t.add(&pile);
        let by_kind = t.check(|k| totals.get(k.index()).copied().unwrap_or(0));
        assert_eq!(t.check_totals(&totals), by_kind, "case {i}");
        assert_eq!(by_kind.is_ok(), i == 0, "case {i}: {by_kind:?}");
    }
}

#[test]
fn zones_serialise_as_plain_lists() {
    let pile: Pile<Card> = Pile::from_counts(&[1, 2]);
    assert_eq!(serde_json::to_string(&pile).unwrap(), "[0,1,1]");
    let mut hand: Multiset<Card> = Multiset::new(3);
    move_n(&mut pile.clone(), &mut hand, id(1), 2).unwrap();
    assert_eq!(serde_json::to_string(&hand).unwrap(), "[0,2,0]");
    let back: Multiset<Card> = serde_json::from_str("[0,2,0]").unwrap();
    assert_eq!(back, hand);
}

#[test]
fn a_stack_counts_one_kind_and_a_leak_breaks_its_tally() {
    #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
    enum Chip {}
    impl Kind for Chip {
        const NAME: &'static str = "chip";
    }
    let chip: Id<Chip> = Id::ZERO;
    let (mut reserve, mut building): (Stack<Chip>, Stack<Chip>) = (Stack::of(chip, 9), Stack::new());
    move_n(&mut reserve, &mut building, chip, 3).unwrap();
    assert_eq!((reserve.count(), building.count()), (6, 3));
    assert_eq!(move_n(&mut reserve, &mut building, chip, 7), Err(MoveError::Short { held: 6 }));
    assert_eq!(move_n(&mut reserve, &mut building, Id::new(1).unwrap(), 1), Err(MoveError::Short { held: 0 }));
    let total = |a: &Stack<Chip>, b: &Stack<Chip>| Tally::new(1).add(a).add(b).check(|_| 9);
    assert!(total(&reserve, &building).is_ok());
    // a planted leak: one chip into a supply nobody counts
    move_n(&mut reserve, &mut Supply::new(), chip, 1).unwrap();
    assert_eq!(total(&reserve, &building), Err(Imbalance::Count { kind: chip, found: 8, expected: 9 }));
    assert_eq!(serde_json::to_string(&building).unwrap(), r#"{"kind":0,"n":3}"#);
}

// -------------------------------------------------------------------- ids

/// A copy of the bundled Dry Gulch folder with `extra` resources appended.
fn with_resources(extra: usize, label: &str) -> PathBuf {
    let from = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("rules/dry-gulch");
    let root = std::env::temp_dir().join(format!("rulecheck-ids-{}-{label}", std::process::id()));
    let dir = root.join("dry-gulch");
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&dir).unwrap();
    for entry in std::fs::read_dir(&from).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
    }
    let mut text = std::fs::read_to_string(dir.join("resources.yaml")).unwrap();
    for i in 0..extra {
        text.push_str(&format!(
            "\n  - id: extra-{i}\n    names: {{en: Extra {i}, de: Extra {i}}}\n    kind: good\n    copies: 0\n    substitution: {{en: 2, de: 2}}\n    source:\n      - doc: dry-gulch-en\n        ref: \"Reference: Resource Cards\"\n        says: \"a test resource\"\n"
        ));
    }
    std::fs::write(dir.join("resources.yaml"), text).unwrap();
    dir
}

fn load(dir: &Path) -> Result<(), Vec<String>> {
    let srcs = rulecheck::catalog::read_root(dir).map_err(|d| vec![format!("{d:?}")])?;
    let src = srcs.first().expect("a catalog");
    let result = games::load(src).map(|_| ()).map_err(|d| d.iter().map(|d| d.to_string()).collect());
    let _ = std::fs::remove_dir_all(dir.parent().unwrap());
    result
}

#[test]
fn a_catalog_with_more_resources_than_an_id_holds_is_a_load_diagnostic() {
    // the bundled nine and 290 more: 299 resources, 43 past what an id holds
    let errors = load(&with_resources(290, "too-many")).unwrap_err();
    let overflow: Vec<&String> = errors.iter().filter(|e| e.contains("has no id")).collect();
    assert!(
        overflow.iter().any(|e| e.contains("entry 257 of kind `resource` has no id")),
        "no overflow diagnostic among {errors:#?}"
    );
    // the card kinds (resources, then events) overflow too, each reported once
    assert!(overflow.iter().any(|e| e.contains("of kind `card` has no id")), "{errors:#?}");
    assert_eq!(overflow.len(), 2, "{overflow:#?}");
    // and the diagnostic points at the first entry without an id
    assert!(overflow[0].contains("resources.yaml:"), "{overflow:#?}");
}

#[test]
fn a_catalog_just_within_the_width_loads_its_ids() {
    // nine bundled and a few more load like the bundled catalog
    assert_eq!(load(&with_resources(3, "within")), Ok(()));
}

/// A state read on the side (a copy) records what it consulted into the
/// original: `Touched::merge` ORs the points, whatever their lengths.
#[test]
fn touched_points_merge_from_a_copy() {
    let (main, side) = (rulecheck::engine::Touched::default(), rulecheck::engine::Touched::default());
    main.mark(3);
    side.mark(70);
    side.mark(5);
    main.merge(&side);
    assert!([3, 5, 70].iter().all(|&p| main.get(p)));
    assert!(!main.get(4) && !side.get(3));
}
