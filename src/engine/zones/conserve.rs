//! One conservation check for every game. A game's tables name every zone
//! a kind of component can lie in (`Named`, the ones a scenario only reads
//! included), so adding them all up and comparing the sums with the totals
//! the game was set up with covers every card, permit or token, whatever
//! moved it. The count is kept zone by zone with each zone's stamp
//! (`Ledger`): after an action only the zones it moved are counted again,
//! and after one that moved none of them the answer stands.

use super::ledger::{Ledger, Pass};
use super::named::{Admits, Lies, Named};
use super::{Holds, Kind, Tally};

/// Hands `f` every zone of `zones` in `s` with the zone it is of, each
/// seat's (of `seats`) for a seat's zone, and `None` for a passing zone
/// that is not there (a plain loop: `conserved` walks the zones after
/// every action).
#[inline]
fn visit<'s, 'z, S, K: Kind>(
    zones: &'z [Named<S, K>],
    s: &'s S,
    seats: usize,
    mut f: impl FnMut(&'z Named<S, K>, Option<&'s dyn Holds<K>>),
) {
    for z in zones {
        match z.lies {
            Lies::Seat { read, .. } => (0..seats).for_each(|i| f(z, Some(read(s, i)))),
            Lies::Table { read, .. } => f(z, Some(read(s))),
            Lies::Passing { read } => f(z, read(s)),
            Lies::Each { len, read, .. } => (0..len(s)).for_each(|i| f(z, Some(read(s, i)))),
        }
    }
}

/// Adds one zone (`None`: a passing zone not there, empty) to a tally,
/// and gives the tally back.
#[inline]
fn add<'t, K: Kind>(z: Option<&dyn Holds<K>>, t: &'t mut Tally<K>) -> &'t mut Tally<K> {
    if let Some(z) = z {
        z.tally_into(t);
    }
    t
}

/// Conservation over one kind of component: every zone of `zones` (each
/// seat's, for `seats` seats) added into one tally of `kinds` kinds, which
/// `check` compares with the game's totals (and may read further, from the
/// same zones). A zone that admits one class of kinds (`Admits::Class`;
/// `classes` gives each kind's, in kind order) and holds a kind of
/// another is recorded in the tally, whose `check_totals` and `check` then
/// give `Imbalance::Misplaced` (the first such zone in table order).
///
/// The tally is kept in `ledger` zone by zone with each zone's stamp, and
/// `also` (a number that stands for whatever else `check` reads, such as
/// the address of the totals, and for the classes): only the zones whose
/// stamps changed are counted again (a classed zone's part read for a kind
/// of another class then), and while none has, `check`'s last answer is
/// given without running it. A passing zone that is not there counts as an
/// empty zone made anew (stamp 0); the zones of a `Lies::Each` that names
/// the `Watched` they lie in count as one zone, under its stamp. A zone
/// that keeps no stamp, or one holding a component of no kind, and every
/// zone is counted every time; a failure is never kept.
#[inline]
pub fn conserved<S, K: Kind, R: Copy, E>(
    zones: &[Named<S, K>],
    s: &S,
    (seats, kinds, classes): (usize, usize, &[u8]),
    (ledger, also): (&Ledger<K, R>, u64),
    mut check: impl FnMut(&Tally<K>) -> Result<R, E>,
) -> Result<R, E> {
    // what a zone counted into an empty tally (its part): whether the zone admits it all
    let admitted = |z: &Named<S, K>, t: &Tally<K>| match z.admits {
        Admits::Any => true,
        Admits::Class(class) => t.outside(classes, class).is_none(),
    };
    let parts = |pass: &mut Pass<'_, K, R>| {
        for z in zones {
            let ok = |t: &mut Tally<K>| admitted(z, t);
            match z.lies {
                Lies::Seat { read, stamp, .. } => {
                    (0..seats).for_each(|i| pass.zone(stamp(s, i), |t| ok(add(Some(read(s, i)), t))))
                }
                Lies::Table { read, stamp, .. } => pass.zone(stamp(s), |t| ok(add(Some(read(s)), t))),
                Lies::Each { len, read, watched: Some(watched) } => pass.zone(Some(watched(s)), |t| {
                    (0..len(s)).for_each(|i| read(s, i).tally_into(t));
                    ok(t)
                }),
                Lies::Passing { read } => {
                    let zone = read(s);
                    pass.zone(zone.map_or(Some(0), |z| z.stamped()), |t| ok(add(zone, t)))
                }
                Lies::Each { len, read, watched: None } => (0..len(s)).for_each(|i| {
                    let zone = read(s, i);
                    pass.zone(zone.stamped(), |t| ok(add(Some(zone), t)))
                }),
            }
        }
    };
    if let Some(r) = ledger.run((kinds, also), parts, &mut check) {
        return r;
    }
    let mut t = Tally::new(kinds);
    visit(zones, s, seats, |named, z| {
        if let (Admits::Class(class), Some(z)) = (named.admits, z) {
            let mut one = Tally::new(kinds);
            z.tally_into(&mut one);
            if let Some(k) = one.outside(classes, class) {
                t.misplace(named.name, k);
            }
        }
        add(z, &mut t);
    });
    check(&t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::zones::fixture::{Card, Table, card};
    use crate::engine::zones::named::SetUp;
    use crate::engine::{Imbalance, Pile, Supply, move_n};

    const ZONES: &[Named<Table, Card>] = &[
        Named::new("deck", SetUp::Source, crate::lies!(table(t) => t.deck)),
        Named::new("hand", SetUp::Source, crate::lies!(seat(t, s) => t.hands[s])),
        Named::new(
            "offered",
            SetUp::Read,
            Lies::Passing { read: |t| t.offered.as_ref().map(|p| p as &dyn Holds<Card>) },
        ),
        Named::new("supply", SetUp::Read, Lies::Passing { read: |t| t.supply.as_ref().map(|p| p as &dyn Holds<Card>) }),
    ];

    /// The check: the tally against two of each kind, counting its calls.
    fn check(t: &Tally<Card>, calls: &std::cell::Cell<u32>) -> Result<(), Imbalance<Card>> {
        calls.set(calls.get() + 1);
        t.check_totals(&[2, 2])
    }

    #[test]
    fn every_zone_is_counted_and_the_answer_kept_until_one_changes() {
        let mut t = Table::new(&[2, 2], 2);
        move_n(&mut t.deck, &mut t.hands[1], card(0), 1).unwrap();
        move_n(&mut t.deck, &mut t.hands[0], card(1), 1).unwrap();
        let ledger: Ledger<Card, ()> = Ledger::default();
        let calls = std::cell::Cell::new(0);
        let run = |t: &Table| conserved(ZONES, t, (2, 2, &[]), (&ledger, 7), |tally| check(tally, &calls));
        assert_eq!(run(&t), Ok(()));
        assert_eq!(run(&t), Ok(()));
        // a card taken out of the game: found, in a zone the check only reads
        let mut offered = Pile::new();
        move_n(&mut t.deck, &mut offered, card(0), 1).unwrap();
        t.offered = Some(offered);
        assert_eq!(run(&t), Ok(()));
        // a seeded fault: a card copied into a hand, then one lost
        move_n(&mut Pile::from_counts(&[1]), &mut t.hands[0], card(0), 1).unwrap();
        assert_eq!(run(&t), Err(Imbalance::Count { kind: card(0), found: 3, expected: 2 }));
        // a failure is never kept: the check runs again with nothing changed
        assert_eq!(run(&t), Err(Imbalance::Count { kind: card(0), found: 3, expected: 2 }));
        t.offered = None;
        assert_eq!(run(&t), Ok(()));
        t.deck = Pile::new();
        assert_eq!(run(&t), Err(Imbalance::Count { kind: card(1), found: 1, expected: 2 }));
        // a clone of a ledger counts afresh, and alike
        let fresh = ledger.clone();
        assert_eq!(conserved(ZONES, &t, (2, 2, &[]), (&fresh, 7), |tally| check(tally, &calls)), run(&t));
        // the check ran once per change and per failure: the first, the
        // offered card, the copy twice, the passing zone gone, the deck
        // emptied, then the clone's and the failure again
        assert_eq!(calls.get(), 8);
    }

    /// The parts kept zone by zone add up to what counting every zone
    /// gives, whichever zones moved (each count is checked against a fresh
    /// count of every zone).
    #[test]
    fn the_parts_kept_add_up_to_a_count_of_every_zone() {
        let mut t = Table::new(&[3, 4], 3);
        let mut chance = crate::engine::Chance::new(11);
        let ledger: Ledger<Card, [i32; 2]> = Ledger::default();
        let sums = |tally: &Tally<Card>| Ok::<_, ()>([0, 1].map(|k| tally.found(card(k))));
        for step in 0..200u32 {
            let (k, seat) = (card((step % 2) as usize), chance.below(3) as usize);
            let _ = match chance.below(3) {
                0 => move_n(&mut t.deck, &mut t.hands[seat], k, 1),
                1 => move_n(&mut t.hands[seat], &mut t.deck, k, 1),
                _ => {
                    let [from, to] = t.hands.get_disjoint_mut([seat, (seat + 1) % 3]).unwrap();
                    move_n(from, to, k, 1)
                }
            };
            let mut all = Tally::new(2);
            visit(ZONES, &t, 3, |_, z| {
                add(z, &mut all);
            });
            let kept = conserved(ZONES, &t, (3, 2, &[]), (&ledger, 0), sums);
            assert_eq!(kept, sums(&all), "step {step}");
        }
        // a pass over fewer zones (two seats' hands) takes the last part out
        let mut two = Tally::new(2);
        visit(ZONES, &t, 2, |_, z| {
            add(z, &mut two);
        });
        assert_eq!(conserved(ZONES, &t, (2, 2, &[]), (&ledger, 0), sums), sums(&two));
    }

    #[test]
    fn a_zone_without_a_stamp_is_counted_every_time() {
        // a supply that took in two of the first kind
        let mut supply = Supply::new();
        move_n(&mut Pile::from_counts(&[2]), &mut supply, card(0), 2).unwrap();
        let t = Table { supply: Some(supply), ..Table::new(&[0, 2], 1) };
        let ledger: Ledger<Card, ()> = Ledger::default();
        let calls = std::cell::Cell::new(0);
        for _ in 0..3 {
            assert_eq!(conserved(ZONES, &t, (1, 2, &[]), (&ledger, 0), |tally| check(tally, &calls)), Ok(()));
        }
        assert_eq!(calls.get(), 3);
    }

    /// The fixture's deck and hands, its row admitting the second kind
    /// only, and its supply (a zone without a stamp: counted every time).
    const CLASSED: &[Named<Table, Card>] = &[
        Named::only(1, "row", SetUp::Set, crate::lies!(table(t) => t.row)),
        Named::new("deck", SetUp::Source, crate::lies!(table(t) => t.deck)),
        Named::new("hand", SetUp::Source, crate::lies!(seat(t, s) => t.hands[s])),
        Named::new("supply", SetUp::Read, Lies::Passing { read: |t| t.supply.as_ref().map(|p| p as &dyn Holds<Card>) }),
    ];

    #[test]
    fn a_zone_of_one_class_finds_a_kind_of_another_until_it_is_gone() {
        let mut t = Table::new(&[2, 2], 2);
        let ledger: Ledger<Card, ()> = Ledger::default();
        let calls = std::cell::Cell::new(0);
        let run = |t: &Table| conserved(CLASSED, t, (2, 2, &[0, 1]), (&ledger, 0), |tally| check(tally, &calls));
        move_n(&mut t.deck, &mut t.row, card(1), 1).unwrap();
        assert_eq!(run(&t), Ok(()));
        // a seeded fault: a card of the other class in the row, totals right
        move_n(&mut t.deck, &mut t.row, card(0), 1).unwrap();
        let misplaced = Err(Imbalance::Misplaced { kind: card(0), zone: "row" });
        assert_eq!(run(&t), misplaced);
        // a failure is never kept: found again with nothing changed, and
        // where every zone is counted (a supply keeps no stamp)
        assert_eq!(run(&t), misplaced);
        t.supply = Some(Supply::new());
        assert_eq!(run(&t), misplaced);
        move_n(&mut t.row, &mut t.hands[0], card(0), 1).unwrap();
        assert_eq!(run(&t), Ok(()));
        t.supply = None;
        assert_eq!(run(&t), Ok(()));
        // a kind the classes do not list has no class: out of place too
        let short = conserved(CLASSED, &t, (2, 2, &[0]), (&ledger, 1), |tally| check(tally, &calls));
        assert_eq!(short, Err(Imbalance::Misplaced { kind: card(1), zone: "row" }));
    }

    /// Piles that all lie in one `Watched` value (the buildings of a board).
    struct Board {
        plots: crate::engine::Watched<Vec<Pile<Card>>>,
    }

    const PLOTS: &[Named<Board, Card>] = &[Named::new(
        "plots",
        SetUp::Read,
        Lies::Each { len: |b| b.plots.len(), read: |b, i| &b.plots[i], watched: Some(|b| b.plots.stamp()) },
    )];

    #[test]
    fn zones_in_one_watched_value_are_counted_again_when_it_changes() {
        let mut b = Board { plots: crate::engine::Watched::new(vec![Pile::from_counts(&[1, 2]), Pile::new()]) };
        let ledger: Ledger<Card, ()> = Ledger::default();
        let calls = std::cell::Cell::new(0);
        let run = |b: &Board| conserved(PLOTS, b, (0, 2, &[]), (&ledger, 0), |t| check(t, &calls));
        // a failure is never kept: counted again with nothing changed
        assert_eq!(run(&b), Err(Imbalance::Count { kind: card(0), found: 1, expected: 2 }));
        assert_eq!(run(&b), Err(Imbalance::Count { kind: card(0), found: 1, expected: 2 }));
        move_n(&mut Pile::from_counts(&[1]), &mut b.plots.edit()[1], card(0), 1).unwrap();
        assert_eq!(run(&b), Ok(()));
        assert_eq!(run(&b), Ok(()));
        assert_eq!(calls.get(), 3);
        // a move between two plots, through the board, is counted again
        let [from, to] = b.plots.edit().get_disjoint_mut([0, 1]).unwrap();
        move_n(from, to, card(1), 1).unwrap();
        assert_eq!(run(&b), Ok(()));
        assert_eq!(calls.get(), 4);
        // a seeded fault: a plot's cards lost
        b.plots.edit()[1] = Pile::new();
        assert_eq!(run(&b), Err(Imbalance::Count { kind: card(0), found: 1, expected: 2 }));
        assert_eq!(calls.get(), 5);
    }
}
