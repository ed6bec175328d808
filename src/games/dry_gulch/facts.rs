//! Every fact of a state in the words of a scenario's `expect:` block, so
//! `diff` can say where two games part as `hand.p1.lumber: 3 | 4`.

use super::rules::{Placed, State};
use super::rules_data::Rules;
use super::scenario_io::{Expect, outcome_name, phase_name, record_expect, seat_name};

/// The facts `record_expect` writes, plus hands, permits, owners, damage,
/// cards in front, the face-up cards, markers, the Town Hall and the flags.
pub fn facts(s: &State, rules: &Rules) -> Expect {
    let mut e = record_expect(s, rules);
    e.outcome = Some(outcome_name(s.outcome));
    e.phase = Some(phase_name(&s.phase).into());
    e.active = Some(seat_name(s.active));
    for (i, p) in s.seats.iter().enumerate() {
        let hand = p.hand.iter().filter(|(_, n)| *n > 0).map(|(c, n)| (rules.card_id(c).to_string(), n)).collect();
        e.hand.insert(seat_name(i), hand);
        let permits = p.permits.iter().filter(|(_, n)| *n > 0);
        e.permits.insert(seat_name(i), permits.map(|(b, n)| (rules.buildings[b.index()].id.clone(), n)).collect());
        let front = p.in_front.iter().map(|(c, _)| rules.card_id(*c).to_string()).collect();
        e.in_front.insert(seat_name(i), front);
    }
    for x in s.board.iter().flatten() {
        let Placed { building, owner, damage, .. } = *x;
        let id = rules.buildings[building.index()].id.clone();
        e.owner.insert(id.clone(), owner.map_or("nobody".into(), seat_name));
        e.damaged.insert(id, damage.is_some());
    }
    e.face_up = Some(s.face_up.iter().map(|&c| rules.card_id(c).to_string()).collect());
    e.markers = Some(s.markers_used());
    e.town_hall_closed = Some(s.town_hall_closed.is_some());
    e.flags = rules.flags.iter().cloned().zip(s.flags.iter().copied()).collect();
    e
}
