//! One conservation check for every game. A game's tables name every zone
//! a kind of component can lie in (`Named`, the ones a scenario only reads
//! included), so adding them all up and comparing the sums with the totals
//! the game was set up with covers every card, permit or token, whatever
//! moved it. The answer is kept with the stamps of the zones it counted:
//! after an action that moved none of them, the check finds it again
//! without counting.

use super::named::{Lies, Named};
use super::{Holds, KeptOver, Kind, Stamps, Tally};

/// Hands `f` every zone of `zones` in `s`, each seat's (of `seats`) for a
/// seat's zone, and `None` for a passing zone that is not there (a plain
/// loop: `conserved` walks the zones after every action).
#[inline]
fn visit<'s, S, K: Kind>(zones: &[Named<S, K>], s: &'s S, seats: usize, mut f: impl FnMut(Option<&'s dyn Holds<K>>)) {
    for z in zones {
        match z.lies {
            Lies::Seat { read, .. } => (0..seats).for_each(|i| f(Some(read(s, i)))),
            Lies::Table { read, .. } => f(Some(read(s))),
            Lies::Passing { read } => f(read(s)),
            Lies::Each { len, read, .. } => (0..len(s)).for_each(|i| f(Some(read(s, i)))),
        }
    }
}

/// How many stamps `conserved` gathers over `zones` with `seats` seats
/// and `each` zones for each `Lies::Each` (one for one that names the
/// `Watched` its zones lie in), the one of `also` included: the
/// `N` a game's `KeptOver` needs for every answer at that many to be kept.
pub const fn stamps_over<S, K: Kind>(zones: &[Named<S, K>], (seats, each): (usize, usize)) -> usize {
    let (mut n, mut i) = (1, 0);
    while i < zones.len() {
        n += match zones[i].lies {
            Lies::Seat { .. } => seats,
            Lies::Each { watched: Some(_), .. } => 1,
            Lies::Each { watched: None, .. } => each,
            Lies::Table { .. } | Lies::Passing { .. } => 1,
        };
        i += 1;
    }
    n
}

/// Conservation over one kind of component: every zone of `zones` (each
/// seat's, for `seats` seats) added into one tally of `kinds` kinds, which
/// `check` compares with the game's totals (and may read further, from the
/// same zones).
///
/// The answer is kept in `kept` with the stamps of every zone counted and
/// `also` (a number that stands for whatever else `check` reads, such as
/// the address of the totals), and given again without counting while
/// none of them has changed. A passing zone that is not there counts as
/// an empty zone made anew (stamp 0). A zone that keeps no stamp, or more
/// zones than `N`, and the check counts every time; a failure is never kept.
pub fn conserved<S, K: Kind, R: Copy, E, const N: usize>(
    zones: &[Named<S, K>],
    s: &S,
    (seats, kinds): (usize, usize),
    (kept, also): (&KeptOver<R, N>, u64),
    check: impl FnOnce(&Tally<K>) -> Result<R, E>,
) -> Result<R, E> {
    let count = || {
        let mut t = Tally::new(kinds);
        visit(zones, s, seats, |z| z.into_iter().for_each(|z| z.tally_into(&mut t)));
        check(&t)
    };
    let mut stamps = Stamps::<N>::new();
    stamps.add(also);
    let mut stamped = true;
    for z in zones {
        if let Lies::Each { watched: Some(watched), .. } = z.lies {
            stamps.add(watched(s));
            continue;
        }
        visit(std::slice::from_ref(z), s, seats, |z| match z.map_or(Some(0), |z| z.stamped()) {
            Some(x) => {
                stamps.add(x);
            }
            None => stamped = false,
        });
    }
    if stamped { kept.get(&stamps, count) } else { count() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::zones::named::SetUp;
    use crate::engine::zones::named::fixture::{Card, Table, card};
    use crate::engine::{Imbalance, Pile, Supply, move_n};

    const ZONES: &[Named<Table, Card>] = &[
        Named { name: "deck", setup: SetUp::Source, lies: crate::lies!(table(t) => t.deck) },
        Named { name: "hand", setup: SetUp::Source, lies: crate::lies!(seat(t, s) => t.hands[s]) },
        Named {
            name: "offered",
            setup: SetUp::Read,
            lies: Lies::Passing { read: |t| t.offered.as_ref().map(|p| p as &dyn Holds<Card>) },
        },
        Named {
            name: "supply",
            setup: SetUp::Read,
            lies: Lies::Passing { read: |t| t.supply.as_ref().map(|p| p as &dyn Holds<Card>) },
        },
    ];

    /// The check: the tally against two of each kind, counting its calls.
    fn check(t: &Tally<Card>, calls: &mut u32) -> Result<(), Imbalance<Card>> {
        *calls += 1;
        t.check_totals(&[2, 2])
    }

    #[test]
    fn every_zone_is_counted_and_the_answer_kept_until_one_changes() {
        let mut t = Table::new(&[2, 2], 2);
        move_n(&mut t.deck, &mut t.hands[1], card(0), 1).unwrap();
        move_n(&mut t.deck, &mut t.hands[0], card(1), 1).unwrap();
        // the totals, the deck, two hands and two passing zones
        assert_eq!(stamps_over(ZONES, (2, 0)), 6);
        let kept: KeptOver<(), { stamps_over(ZONES, (2, 0)) }> = KeptOver::default();
        let mut calls = 0;
        let mut run = |t: &Table| conserved(ZONES, t, (2, 2), (&kept, 7), |tally| check(tally, &mut calls));
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
        t.offered = None;
        assert_eq!(run(&t), Ok(()));
        t.deck = Pile::new();
        assert_eq!(run(&t), Err(Imbalance::Count { kind: card(1), found: 1, expected: 2 }));
        // counted once per change: the first, the offered card, the copy,
        // the passing zone gone, the deck emptied
        assert_eq!(calls, 5);
    }

    #[test]
    fn a_zone_without_a_stamp_is_counted_every_time() {
        // a supply that took in two of the first kind
        let mut supply = Supply::new();
        move_n(&mut Pile::from_counts(&[2]), &mut supply, card(0), 2).unwrap();
        let t = Table { supply: Some(supply), ..Table::new(&[0, 2], 1) };
        let kept: KeptOver<(), 16> = KeptOver::default();
        let mut calls = 0;
        for _ in 0..3 {
            assert_eq!(conserved(ZONES, &t, (1, 2), (&kept, 0), |tally| check(tally, &mut calls)), Ok(()));
        }
        assert_eq!(calls, 3);
    }

    /// Piles that all lie in one `Watched` value (the buildings of a board).
    struct Board {
        plots: crate::engine::Watched<Vec<Pile<Card>>>,
    }

    const PLOTS: &[Named<Board, Card>] = &[Named {
        name: "plots",
        setup: SetUp::Read,
        lies: Lies::Each { len: |b| b.plots.len(), read: |b, i| &b.plots[i], watched: Some(|b| b.plots.stamp()) },
    }];

    #[test]
    fn zones_in_one_watched_value_are_kept_over_its_one_stamp() {
        let mut b = Board { plots: crate::engine::Watched::new(vec![Pile::from_counts(&[1, 2]), Pile::new()]) };
        // the totals and the board's one stamp, however many plots it has
        assert_eq!(stamps_over(PLOTS, (0, 48)), 2);
        let kept: KeptOver<(), 2> = KeptOver::default();
        let calls = std::cell::Cell::new(0);
        let run = |b: &Board| {
            conserved(PLOTS, b, (0, 2), (&kept, 0), |t| {
                calls.set(calls.get() + 1);
                t.check_totals(&[2, 2])
            })
        };
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
