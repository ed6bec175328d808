//! Every zone of Dry Gulch by name, in three tables (cards, permits and
//! chips):
//! what a scenario's set-up sets and takes from, what its expectations
//! name (`Zones::facts`), and what the conservation invariants add up
//! (`engine::conserved`), so a zone left out of a table is a zone no check
//! sees. The zones play alone fills are read only (`SetUp::Read`).

use super::readings::VioletCards;
use super::rules::{Phase, State, in_resource_deck};
use super::rules_data::kind::{self, Card};
use super::rules_data::{Bld, CardKind, Chips, Rules};
use crate::engine::{Back, Holds, Id, Lies, Named, Pile, SetUp, Whose, Zones, unknown_zone};

use SetUp::{Read, Set, Source};

/// The class of a card of the resource deck, and of the event deck
/// (`Admits::Class`: the table's piles each take one deck's cards; which
/// cards are whose is the dealing reading's, `violet-cards`).
pub(super) const RESOURCE: u8 = 0;
pub(super) const EVENT: u8 = 1;

/// The card zones, in the order set-up sets the table's and looks for a
/// card in the sources (the decks and discard piles, then the hands).
pub(super) const CARD_ZONES: &[Named<State, Card>] = &[
    Named::only(EVENT, "face-up", Set, crate::lies!(table(s) => s.face_up)),
    Named::only(RESOURCE, "resource-deck", Source, crate::lies!(table(s) => s.resource_deck)),
    Named::only(RESOURCE, "resource-discard", Source, crate::lies!(table(s) => s.resource_discard)),
    Named::only(EVENT, "event-deck", Source, crate::lies!(table(s) => s.event_deck)),
    Named::only(EVENT, "event-discard", Source, crate::lies!(table(s) => s.event_discard)),
    // the event cards of this event phase, and the disasters whose damage is still to come
    Named::only(EVENT, "revealed", Read, crate::lies!(table(s) => s.revealed)),
    Named::only(EVENT, "played", Read, crate::lies!(table(s) => s.played)),
    Named::new("hand", Source, crate::lies!(seat(s, i) => s.seats[i].hand)),
    // each with the plot it damaged (set-up's `buildings:` puts one there)
    Named::new("in-front", Read, crate::lies!(seat(s, i) => s.seats[i].in_front)),
    // with chips on them (set-up's `influence:` plays them)
    Named::new("influence-cards", Read, crate::lies!(seat(s, i) => s.seats[i].influence)),
    // under `reward-card-german-rule-7: all-at-reward`, until the reward phase
    Named::new("waiting", Read, crate::lies!(seat(s, i) => s.seats[i].waiting)),
];

/// The permit zones, likewise (the deck, the face-up discards and the
/// spent ones, then the players').
pub(super) const PERMIT_ZONES: &[Named<State, kind::Building>] = &[
    Named::new("permit-deck", Source, crate::lies!(table(s) => s.permit_deck)),
    Named::new("permit-discard", Source, crate::lies!(table(s) => s.permit_discard)),
    Named::new("permits-spent", Source, crate::lies!(table(s) => s.permits_spent)),
    Named::new("draft-pool", Read, Lies::Passing { read: draft_pool }),
    Named::new("offered", Read, Lies::Passing { read: offered }),
    Named::new("permits", Source, crate::lies!(seat(s, i) => s.seats[i].permits)),
    Named::new("waiting-permits", Read, crate::lies!(seat(s, i) => s.seats[i].waiting_permits)),
];

/// The chip zones: each seat's reserve and the chips on its influence
/// cards, and the chips on each plot's building (its owner's colour).
/// Read only: set-up places chips with the buildings and influence cards
/// it sets. Only the conservation check adds them up (the facts count a
/// seat's reserve as `chips_left`).
pub(super) const CHIP_ZONES: &[Named<State, kind::Chip>] = &[
    Named::new("reserve", Read, crate::lies!(seat(s, i) => s.seats[i].chips)),
    Named::new("on-influence-cards", Read, crate::lies!(seat(s, i) => s.seats[i].card_chips)),
    Named::new(
        "on-buildings",
        Read,
        Lies::Each { len: |s| s.board.len(), read: plot_chips, watched: Some(|s| s.board.stamp()) },
    ),
];

/// The chips on plot `i`'s building (none on an empty plot).
fn plot_chips(s: &State, i: usize) -> &dyn Holds<kind::Chip> {
    const NONE: &Chips = &Chips::new();
    s.board[i].as_ref().map_or(NONE, |p| &p.chips)
}

/// The permits passed round in the advanced set-up's draft, while it lasts.
fn draft_pool(s: &State) -> Option<&dyn Holds<kind::Building>> {
    match &s.phase {
        Phase::Draft { pool, .. } => Some(pool),
        _ => None,
    }
}

/// The two permits a draw from the deck offers, until one is kept.
fn offered(s: &State) -> Option<&dyn Holds<kind::Building>> {
    match &s.phase {
        Phase::DrawKeep { offered } => Some(offered),
        _ => None,
    }
}

/// Dry Gulch's zones by name: cards and permits.
pub(super) struct Tables<'a> {
    pub cards: Zones<'a, State, Card>,
    pub permits: Zones<'a, State, kind::Building>,
}

impl Tables<'_> {
    /// The error for a zone neither table has.
    pub(super) fn unknown(&self, zone: &str, whose: Whose) -> String {
        let names: Vec<&str> = self.cards.names(whose).chain(self.permits.names(whose)).collect();
        unknown_zone(zone, whose, &names)
    }
}

/// What set-up and the card-conservation check call the cards of each
/// class, by class.
pub(super) const CLASS_NAMES: &[&str] = &["resource card", "event card"];

/// Each card kind's class, `RESOURCE` or `EVENT`, as `violet` deals the
/// violet cards (a kind no card has counts as a resource, as
/// `in_resource_deck` says); room for every id.
pub(super) fn card_classes(rules: &Rules, violet: VioletCards) -> [u8; Id::<Card>::CAPACITY] {
    let mut class = [RESOURCE; Id::<Card>::CAPACITY];
    for c in rules.cards().filter(|&c| !in_resource_deck(rules, violet, c)) {
        class[c.index()] = EVENT;
    }
    class
}

/// Dry Gulch's zones of cards and of permits, for set-up (what a seat's
/// zone gives back goes under its deck, the deck `violet` deals it to;
/// a table pile takes only its deck's cards) and the facts, handed to `f`.
pub(super) fn with_zones<T>(
    rules: &Rules,
    (players, violet): (usize, VioletCards),
    f: impl FnOnce(&Tables<'_>) -> T,
) -> T {
    let card_id = |c: CardKind| rules.card_id(c).to_string();
    let classes = card_classes(rules, violet);
    let card_home: &dyn Fn(&mut State, CardKind) -> &mut Pile<Card> =
        &|s, c| if classes[c.index()] == EVENT { &mut s.event_deck } else { &mut s.resource_deck };
    let cards = Zones::new(CARD_ZONES, "card", (rules.card_count(), players), &card_id, card_home, Back::Under)
        .admitting(&classes, CLASS_NAMES);
    let permit_id = |b: Bld| rules.building(b).id.clone();
    let kinds = (rules.buildings.len(), players);
    let permits = Zones::new(PERMIT_ZONES, "permit", kinds, &permit_id, &|s, _| &mut s.permit_deck, Back::Under);
    f(&Tables { cards, permits })
}
