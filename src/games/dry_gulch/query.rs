//! Dry Gulch's vocabulary for conditions over its states (`rulecheck
//! find --until`): what a player holds and has built, the buildings on
//! the board, the decks, the turn; event kinds are its event variants
//! (`fire-spread`) and, for an event that names a card (resolved, played,
//! damaging), that card's id (`fire`).

use super::rules::{End, Event, Placed, State};
use super::rules_data::Rules;
use crate::engine::{Id, PLAYER, Query, Sort, Term, variant_name};

const fn num(name: &'static str, args: &'static [&'static str], about: &'static str) -> Term {
    Term { name, args, sort: Sort::Num, about }
}
const fn pred(name: &'static str, args: &'static [&'static str], about: &'static str) -> Term {
    Term { name, args, sort: Sort::Bool, about }
}

const P: &[&str] = &[PLAYER];
const B: &[&str] = &["building"];
const NONE: &[&str] = &[];

/// The terms, in `value`'s order.
const TERMS: &[Term] = &[
    num("hand", P, "cards in the player's hand"),
    num("holds", &[PLAYER, "card"], "copies of a card in the player's hand"),
    num("permits", P, "permits the player holds"),
    num("influence", P, "the player's counted influence (damage applied, influence cards)"),
    num("chips-on-board", P, "the player's chips on buildings and influence cards"),
    num("chips-left", P, "the player's chips not yet placed"),
    num("in-front", P, "disaster cards lying in front of the player"),
    num("influence-cards", P, "influence cards the player has played"),
    num("buildings", P, "buildings the player owns"),
    pred("active", P, "the player is (or was, when the game ended) on turn"),
    pred("winner", P, "the player has won"),
    num("threshold", P, "the influence the player needs to win"),
    pred("built", B, "the building stands on the board"),
    pred("damaged", B, "the building stands damaged"),
    pred("owns", &[PLAYER, "building"], "the player owns the building"),
    num("chips-on", B, "chips standing on the building"),
    num("deck", &["deck"], "cards left in a deck (resource, event, permit)"),
    num("discard", &["deck"], "cards in a deck's discard pile"),
    num("face-up", NONE, "event cards lying face up"),
    num("markers", NONE, "disaster markers on the board"),
    pred("town-hall-closed", NONE, "the Town Hall is closed"),
    num("turn", NONE, "turns played"),
    pred("over", NONE, "the game has ended"),
    pred("drawn", NONE, "the game ended without a winner"),
    pred("flag", &["flag"], "a catalog flag is set"),
];

/// The event variants, as `variant_name` spells them.
const EVENTS: &[&str] = &[
    "turn-started",
    "residence-placed",
    "drafted",
    "revealed",
    "events-reshuffled",
    "revealed-discarded",
    "kept",
    "left-face-up",
    "town-hall-reopened",
    "town-hall-closed",
    "drew",
    "resources-reshuffled",
    "deck-empty",
    "permit-drawn",
    "permit-discarded",
    "built",
    "chips-placed",
    "permit-spent",
    "cards-paid",
    "influence-played",
    "disaster-played",
    "event-resolved",
    "damaged",
    "fire-spread",
    "repaired",
    "took",
    "insurance-used",
    "iou-handed-over",
    "ace-shown",
    "lapsed",
    "flag-set",
    "face-up-cleared",
    "discarded",
    "hand-cut",
    "won",
    "game-drawn",
];

const DECKS: [&str; 3] = ["resource", "event", "permit"];

fn placed(s: &State, building: usize) -> Option<&Placed> {
    s.board.iter().flatten().find(|p| p.building.index() == building)
}

impl Query for State {
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
        let mut out: Vec<String> = EVENTS.iter().map(|e| e.to_string()).collect();
        out.extend(rules.resources.iter().map(|r| r.id.clone()));
        out.extend(rules.events.iter().map(|e| e.id.clone()));
        out
    }

    fn kinds_of_event(_rules: &Rules, event: &Event, out: &mut Vec<usize>) {
        let name = variant_name(event);
        if let Some(i) = EVENTS.iter().position(|e| *e == name) {
            out.push(i);
        }
        let card = match event {
            Event::EventResolved { card, .. }
            | Event::Damaged { card, .. }
            | Event::DisasterPlayed { card, .. }
            | Event::InfluencePlayed { card, .. } => *card,
            _ => return,
        };
        out.push(EVENTS.len() + card.index());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every listed event kind is a variant's name (a misspelt one would never happen).
    #[test]
    fn event_names_are_variants() {
        let e = Event::FireSpread { from: Id::new(0).unwrap(), to: Id::new(1).unwrap() };
        assert!(EVENTS.contains(&variant_name(&e).as_str()));
        assert!(EVENTS.contains(&variant_name(&Event::EventsReshuffled).as_str()));
        let mut seen = std::collections::BTreeSet::new();
        assert!(EVENTS.iter().all(|e| seen.insert(*e)), "no event kind twice");
    }
}
