//! Dry Gulch's vocabulary for conditions over its states (`rulecheck
//! find --until`): what a player holds and has built, the buildings on
//! the board, the decks, the turn; event kinds are its event variants
//! (`fire-spread`) and, for an event that names a card (resolved, played,
//! damaging), that card's id (`fire`).

use super::rules::{End, Event, Placed, State};
use super::rules_data::Rules;
use crate::engine::{Id, NO_ARGS, ONE_PLAYER, PLAYER, Query, Term, variant_kind};

const B: &[&str] = &["building"];

/// The terms, in `value`'s order.
const TERMS: &[Term] = &[
    Term::num("hand", ONE_PLAYER, "cards in the player's hand"),
    Term::num("holds", &[PLAYER, "card"], "copies of a card in the player's hand"),
    Term::num("permits", ONE_PLAYER, "permits the player holds"),
    Term::num("influence", ONE_PLAYER, "the player's counted influence (damage applied, influence cards)"),
    Term::num("chips-on-board", ONE_PLAYER, "the player's chips on buildings and influence cards"),
    Term::num("chips-left", ONE_PLAYER, "the player's chips not yet placed"),
    Term::num("in-front", ONE_PLAYER, "disaster cards lying in front of the player"),
    Term::num("influence-cards", ONE_PLAYER, "influence cards the player has played"),
    Term::num("buildings", ONE_PLAYER, "buildings the player owns"),
    Term::pred("active", ONE_PLAYER, "the player is (or was, when the game ended) on turn"),
    Term::pred("winner", ONE_PLAYER, "the player has won"),
    Term::num("threshold", ONE_PLAYER, "the influence the player needs to win"),
    Term::pred("built", B, "the building stands on the board"),
    Term::pred("damaged", B, "the building stands damaged"),
    Term::pred("owns", &[PLAYER, "building"], "the player owns the building"),
    Term::num("chips-on", B, "chips standing on the building"),
    Term::num("deck", &["deck"], "cards left in a deck (resource, event, permit)"),
    Term::num("discard", &["deck"], "cards in a deck's discard pile"),
    Term::num("face-up", NO_ARGS, "event cards lying face up"),
    Term::num("markers", NO_ARGS, "disaster markers on the board"),
    Term::pred("town-hall-closed", NO_ARGS, "the Town Hall is closed"),
    Term::num("turn", NO_ARGS, "turns played"),
    Term::pred("over", NO_ARGS, "the game has ended"),
    Term::pred("drawn", NO_ARGS, "the game ended without a winner"),
    Term::pred("flag", &["flag"], "a catalog flag is set"),
];

const DECKS: [&str; 3] = ["resource", "event", "permit"];

fn placed(s: &State, building: usize) -> Option<&Placed> {
    s.board.iter().flatten().find(|p| p.building.index() == building)
}

impl Query for State {
    crate::event_variants!(Event);

    fn terms() -> &'static [Term] {
        TERMS
    }

    fn kinds(rules: &Rules) -> Vec<(&'static str, Vec<String>)> {
        let cards = rules.resources.iter().map(|r| r.id.clone()).chain(rules.events.iter().map(|e| e.id.clone()));
        vec![
            ("card", cards.collect()),
            ("building", rules.buildings.iter().map(|b| b.id.clone()).collect()),
            ("deck", DECKS.iter().map(|d| d.to_string()).collect()),
            ("flag", rules.flags.clone()),
        ]
    }

    fn value(&self, rules: &Rules, term: usize, a: &[usize]) -> i64 {
        let seat = || &self.seats[a[0]];
        let b = |x: bool| i64::from(x);
        let v: u32 = match TERMS[term].name {
            "hand" => seat().hand_size(),
            "holds" => Id::new(a[1]).map_or(0, |c| seat().hand.count(c)),
            "permits" => seat().permits.total(),
            "influence" => self.counted_influence(rules, a[0]),
            "chips-on-board" => self.chips_on_board(a[0]),
            "chips-left" => seat().chips.count(),
            "in-front" => seat().in_front.len() as u32,
            "influence-cards" => seat().influence.len() as u32,
            "buildings" => self.board.iter().flatten().filter(|p| p.owner == Some(a[0])).count() as u32,
            "active" => return b(self.active == a[0]),
            "winner" => return b(self.outcome == Some(End::Win(a[0]))),
            "threshold" => self.win_threshold(a[0]),
            "built" => return b(placed(self, a[0]).is_some()),
            "damaged" => return b(placed(self, a[0]).is_some_and(|p| p.damage.is_some())),
            "owns" => return b(placed(self, a[1]).is_some_and(|p| p.owner == Some(a[0]))),
            "chips-on" => placed(self, a[0]).map_or(0, |p| p.chips.count()),
            "deck" => [self.resource_deck.len(), self.event_deck.len(), self.permit_deck.len()][a[0]] as u32,
            "discard" => {
                [self.resource_discard.len(), self.event_discard.len(), self.permit_discard.len()][a[0]] as u32
            }
            "face-up" => self.face_up.len() as u32,
            "markers" => self.markers_used(),
            "town-hall-closed" => return b(self.town_hall_closed.is_some()),
            "turn" => self.turns,
            "over" => return b(self.outcome.is_some()),
            "drawn" => return b(matches!(self.outcome, Some(End::Draw(_)))),
            "flag" => return b(self.flags.get(a[0]).copied().unwrap_or(false)),
            other => unreachable!("a term without a value: {other}"),
        };
        i64::from(v)
    }

    fn event_kinds(rules: &Rules) -> Vec<String> {
        let mut out = Self::event_variants().to_vec();
        out.extend(rules.resources.iter().map(|r| r.id.clone()));
        out.extend(rules.events.iter().map(|e| e.id.clone()));
        out
    }

    fn kinds_of_event(_rules: &Rules, event: &Event, out: &mut Vec<usize>) {
        out.extend(variant_kind(Self::event_variants(), event));
        let card = match event {
            Event::EventResolved { card, .. }
            | Event::Damaged { card, .. }
            | Event::DisasterPlayed { card, .. }
            | Event::InfluencePlayed { card, .. } => *card,
            _ => return,
        };
        out.push(Self::event_variants().len() + card.index());
    }
}
