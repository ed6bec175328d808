//! The engine's board blocks: a face-up display counted by the one
//! conservation check, counters that refuse to leave their bounds, and the
//! topologies (a graph with capacities, a grid with token chains, blocks of
//! plots).

use rulecheck::engine::{
    Blocked, Blocks, Bounds, Chance, Counter, CounterError, Display, Graph, Grid, Id, Imbalance, Kind, Multiset,
    Occupancy, Pile, Tally, WhenEmpty, move_n,
};

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
enum Tile {}
impl Kind for Tile {
    const NAME: &'static str = "tile";
}

fn t(i: usize) -> Id<Tile> {
    Id::new(i).unwrap()
}

#[test]
fn a_display_refills_in_slot_order_and_the_tally_counts_it() {
    let totals = [3u32, 2];
    let mut chance = Chance::new(9);
    let mut deck: Pile<Tile> = Pile::from_counts(&totals);
    let mut discard = Pile::new();
    let mut row: Display<Tile> = Display::new(3);
    let done = row.refill(&mut deck, &mut discard, WhenEmpty::Stop, &mut chance);
    assert_eq!((done.filled, done.reshuffled, row.filled(), deck.len()), (3, false, 3, 2));
    // the deck's top three, top first
    assert_eq!(row.slots(), &[Some(t(1)), Some(t(1)), Some(t(0))]);

    let mut hand: Multiset<Tile> = Multiset::new(2);
    assert_eq!(row.take_slot(1, &mut hand), Ok(t(1)));
    assert_eq!(row.at(1), None);
    assert!(row.take_slot(1, &mut hand).is_err(), "an empty slot gives nothing");
    let mut tally = Tally::new(2);
    tally.add(&deck).add(&discard).add(&row).add(&hand);
    assert_eq!(tally.check(|k| totals[k.index()]), Ok(()));

    // the taken slot is filled again, and only that one
    let done = row.refill(&mut deck, &mut discard, WhenEmpty::Stop, &mut chance);
    assert_eq!((done.filled, row.at(1), deck.len()), (1, Some(t(0)), 1));

    // a move into a full row is refused; out of it, the slot empties
    assert!(move_n(&mut hand, &mut row, t(1), 1).is_err());
    move_n(&mut row, &mut discard, t(0), 2).unwrap();
    assert_eq!(row.slots(), &[Some(t(1)), None, None]);
    // an empty deck reshuffles the discard pile when the policy says so
    let done = row.refill(&mut deck, &mut discard, WhenEmpty::Reshuffle, &mut chance);
    assert_eq!((done.filled, done.reshuffled, row.filled()), (2, true, 3));

    // a tile dropped from the row (a planted fault) shows in the tally
    let mut tally = Tally::new(2);
    tally.add(&deck).add(&discard).add(&hand);
    assert!(matches!(tally.check(|k| totals[k.index()]), Err(Imbalance::Count { .. })));
}

#[test]
fn counters_stay_within_their_bounds_and_a_refused_transfer_changes_neither() {
    assert_eq!(Bounds::new(3, 2), None);
    let money = Bounds::new(0, 10).unwrap();
    assert!(Counter::new(money, 11).is_err());
    let mut a = Counter::new(money, 4).unwrap();
    let mut b = Counter::new(money, 9).unwrap();
    assert_eq!(Counter::transfer(&mut a, &mut b, 2), Err(CounterError::Above { max: 10, would_be: 11 }));
    assert_eq!(Counter::transfer(&mut a, &mut b, 5), Err(CounterError::Below { min: 0, would_be: -1 }));
    assert_eq!((a.value(), b.value()), (4, 9));
    Counter::transfer(&mut b, &mut a, 6).unwrap();
    assert_eq!((a.value(), b.value()), (10, 3));
    assert!(!a.can_add(1) && a.can_add(-10));
    let mut points = Counter::new(Bounds::UNBOUNDED, 0).unwrap();
    points.add(-5).unwrap();
    assert_eq!(points.value(), -5);
    assert!(points.add(i64::from(i32::MIN)).is_err(), "past what the value holds is refused, not wrapped");
}

#[test]
fn a_graph_keeps_capacities_and_walks_only_open_locations() {
    // a sea: 0 - 1 - 2 - 3, and 1 - 3
    let mut g: Graph<Tile> = Graph::new(4, 1).unwrap();
    g.connect(t(0), t(1));
    g.connect(t(1), t(2));
    g.connect(t(2), t(3));
    g.connect(t(1), t(3));
    g.connect(t(3), t(1));
    assert_eq!(g.neighbours(t(1)), &[t(0), t(2), t(3)]);
    assert!(g.adjacent(t(3), t(1)) && !g.adjacent(t(0), t(3)));
    assert_eq!(g.distances(t(0), |_| true), vec![Some(0), Some(1), Some(2), Some(2)]);
    // location 1 closed: nothing is reached through it
    assert_eq!(g.distances(t(0), |l| l != t(1)), vec![Some(0), Some(1), None, None]);

    g.set_capacity(t(2), 2);
    let mut at = Occupancy::new(&g);
    at.enter(&g, t(0)).unwrap();
    assert_eq!(at.enter(&g, t(0)), Err(Blocked::Full { capacity: 1 }));
    at.step(&g, t(0), t(2)).unwrap();
    at.enter(&g, t(2)).unwrap();
    assert_eq!((at.at(t(0)), at.at(t(2))), (0, 2));
    assert_eq!(at.step(&g, t(0), t(1)), Err(Blocked::Empty));
    at.enter(&g, t(1)).unwrap();
    assert_eq!(at.step(&g, t(1), t(2)), Err(Blocked::Full { capacity: 2 }));
    assert_eq!((at.at(t(1)), at.at(t(2))), (1, 2), "a refused step moves nothing");
    assert!(Graph::<Tile>::new(257, 1).is_err(), "more locations than an id holds is refused");
}

#[test]
fn a_grid_finds_each_chain_of_one_owner() {
    // 4 x 3, owners:
    //   a a . b
    //   . a . b
    //   b . b b
    let own = [
        Some('a'),
        Some('a'),
        None,
        Some('b'),
        None,
        Some('a'),
        None,
        Some('b'),
        Some('b'),
        None,
        Some('b'),
        Some('b'),
    ];
    let mut grid: Grid<Tile> = Grid::new(4, 3).unwrap();
    grid.set_field(t(5), 2);
    assert_eq!((grid.field(t(5)), grid.field(t(4))), (2, 0));
    assert_eq!(grid.position(t(7)), (3, 1));
    assert_eq!(grid.at(3, 1), Some(t(7)));
    assert_eq!(grid.at(4, 0), None);
    assert_eq!(grid.orthogonal(t(0)).as_slice(), &[t(1), t(4)]);
    assert_eq!(grid.orthogonal(t(5)).as_slice(), &[t(1), t(4), t(6), t(9)]);
    let chains = grid.chains(|s| own[s.index()]);
    let got: Vec<(char, Vec<usize>)> =
        chains.into_iter().map(|(o, c)| (o, c.into_iter().map(|s| s.index()).collect())).collect();
    assert_eq!(got, vec![('a', vec![0, 1, 5]), ('b', vec![3, 7, 10, 11]), ('b', vec![8])]);
}

#[test]
fn blocks_make_neighbours_of_plots_side_by_side_along_a_street() {
    let b: Blocks<Tile> = Blocks::new(6, vec![vec![t(0), t(1), t(2)], vec![t(4), t(3)]]).unwrap();
    assert_eq!(b.neighbours(t(1)), &[t(0), t(2)]);
    assert_eq!(b.neighbours(t(0)), &[t(1)]);
    assert_eq!(b.neighbours(t(3)), &[t(4)]);
    assert_eq!(b.neighbours(t(5)), &[] as &[Id<Tile>], "a plot in no block has no neighbours");
    assert_eq!(b.block_of(t(3)), Some((1, 1)));
    assert_eq!(b.block_of(t(5)), None);
    assert_eq!(b.graph().distances(t(0), |_| true)[2], Some(2));
}
