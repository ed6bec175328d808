//! Every fact of a Dry Gulch state in the words of a scenario's `expect:`
//! block (`hand.p1.lumber: 3`, `owner.saloon: p2`): what `check_expect`
//! compares (`Facts::unmet`), and where `diff` says two games part.

use super::rules::{End, Placed, State};
use super::rules_data::Rules;
use super::scenario_io::{outcome_name, phase_name, seat_name};
use crate::engine::Facts;

/// Every fact an expectation can name, counts of zero included.
pub fn facts(s: &State, rules: &Rules) -> Facts {
    let (n, mut f) = (s.players, Facts::new());
    let winner = match s.outcome {
        Some(End::Win(x)) => seat_name(x),
        _ => "none".into(),
    };
    f.set("winner", winner).set("outcome", outcome_name(s.outcome)).set("phase", phase_name(&s.phase));
    f.set("active", seat_name(s.active));
    f.per_seat("hand_size", n, |i| s.seats[i].hand_size());
    f.per_seat("influence", n, |i| s.counted_influence(rules, i));
    f.per_seat("chips_left", n, |i| s.seats[i].chips.count());
    f.per_seat("in_front", n, |i| s.seats[i].in_front.iter().map(|(c, _)| rules.card_id(*c)).collect::<Vec<_>>());
    for (i, p) in s.seats.iter().enumerate() {
        for c in rules.cards() {
            f.set(format!("hand.{}.{}", seat_name(i), rules.card_id(c)), p.hand.count(c));
        }
        for b in rules.buildings() {
            f.set(format!("permits.{}.{}", seat_name(i), rules.building(b).id), p.permits.count(b));
        }
    }
    for b in rules.buildings() {
        let placed = s.building_plot(b).and_then(|p| s.board[p.index()]);
        let owner = match placed {
            Some(Placed { owner: Some(o), .. }) => seat_name(o),
            Some(_) => "nobody".into(),
            None => "none".into(),
        };
        let id = &rules.building(b).id;
        f.set(format!("owner.{id}"), owner).set(format!("damaged.{id}"), placed.is_some_and(|p| p.damage.is_some()));
    }
    for c in rules.cards() {
        f.set(format!("event_deck.{}", rules.card_id(c)), s.event_deck.iter().filter(|&&k| k == c).count());
    }
    f.set("face_up", s.face_up.iter().map(|&c| rules.card_id(c)).collect::<Vec<_>>());
    f.set("markers", s.markers_used()).set("town_hall_closed", s.town_hall_closed.is_some());
    for (flag, on) in rules.flags.iter().zip(&s.flags) {
        f.set(format!("flags.{flag}"), on);
    }
    f
}
