//! What the zones' tests share: a kind of card and a table of zones.

use crate::engine::{Id, Multiset, Pile, Supply};

crate::kinds! { Card = "card kind" }

/// Card `i`.
pub fn card(i: usize) -> Id<Card> {
    Id::new(i).unwrap()
}

/// A deck, each seat's hand, a face-up row, and two zones there only at
/// times: offered cards, and a supply (a zone that keeps no stamp).
pub struct Table {
    pub deck: Pile<Card>,
    pub hands: Vec<Multiset<Card>>,
    pub row: Pile<Card>,
    pub offered: Option<Pile<Card>>,
    pub supply: Option<Supply<Card>>,
}

impl Table {
    /// `deck` as counts per kind, two kinds, and `seats` empty hands.
    pub fn new(deck: &[u32], seats: usize) -> Table {
        let hands = vec![Multiset::new(2); seats];
        Table { deck: Pile::from_counts(deck), hands, row: Pile::new(), offered: None, supply: None }
    }
}
