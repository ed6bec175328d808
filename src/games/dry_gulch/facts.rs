//! Every fact of a Dry Gulch state in the words of a scenario's `expect:`
//! block (`seats.p1.hand.lumber: 3`, `owner.saloon: p2`; the zones'
//! facts are the engine's, `Zones::facts`): what `check_expect`
//! compares (`Facts::unmet`), and where `diff` says two games part; and
//! `Expect`, the shape of that block (its schema).

use super::readings::VioletCards;
use super::rules::{End, Placed, State};
use super::rules_data::{Plot, Rules};
use super::scenario_io::{outcome_name, phase_name};
use super::zones::with_zones;
use crate::engine::{Facts, Reads, SeatZones, TableZone, seat_name};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

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
    with_zones(rules, (n, s.peek::<VioletCards>()), |zones| {
        zones.cards.facts(s, &mut f);
        zones.permits.facts(s, &mut f);
    });
    // one copy standing: its owner and whether it is damaged; several (the
    // Residences, Saloons under `saloon-copies: several`): a list of each,
    // copy by copy in plot order, with `plots.<id>` saying which is which
    for b in rules.buildings() {
        let copies: Vec<(Plot, Placed)> = s.plots_with(b).filter_map(|p| s.board[p.index()].map(|x| (p, x))).collect();
        let owner = |x: &Placed| x.owner.map_or_else(|| "nobody".to_string(), seat_name);
        let id = &rules.building(b).id;
        match copies.as_slice() {
            [] => f.set(format!("owner.{id}"), "none").set(format!("damaged.{id}"), false),
            [(_, x)] => f.set(format!("owner.{id}"), owner(x)).set(format!("damaged.{id}"), x.damage.is_some()),
            several => f
                .set(format!("owner.{id}"), several.iter().map(|(_, x)| owner(x)).collect::<Vec<_>>())
                .set(format!("damaged.{id}"), several.iter().map(|(_, x)| x.damage.is_some()).collect::<Vec<_>>()),
        };
        f.set(format!("plots.{id}"), copies.iter().map(|(p, _)| rules.plot(*p).id.as_str()).collect::<Vec<_>>());
    }
    f.set("markers", s.markers_used()).set("town_hall_closed", s.town_hall_closed.is_some());
    for (flag, on) in rules.flags.iter().zip(&s.flags) {
        f.set(format!("flags.{flag}"), on);
    }
    f
}

/// Facts about the state; only what is written is checked.
#[derive(Debug, Clone, PartialEq, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// `p1`, …, or `none` while nobody has won.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner: Option<String>,
    /// `ongoing`, `win`, or `draw:<reason>`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active: Option<String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub hand_size: BTreeMap<String, u32>,
    /// Each seat's zones in the words of the set-up: seat → zone (`hand`,
    /// `permits`, and the zones only play fills: `in-front`,
    /// `influence-cards`, `waiting`, `waiting-permits`) → card or building
    /// → how many (ids not named are not checked).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub seats: SeatZones,
    /// The table's zones in the words of the set-up (`face-up`, the decks,
    /// the discard piles, `permits-spent`, and the zones only play fills:
    /// `revealed`, `played`, `draft-pool`, `offered`): how many they hold,
    /// exactly what (top first), or how many of the ids named.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub table: BTreeMap<String, TableZone>,
    /// building → seat, or `none` when it does not stand; where several
    /// copies stand (the Residences), a list of each copy's owner in plot order.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub owner: BTreeMap<String, OneOrEach<String>>,
    /// building → whether it is damaged; a list, copy by copy, where several stand.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub damaged: BTreeMap<String, OneOrEach<bool>>,
    /// building → the plots where its copies stand, in plot order.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub plots: BTreeMap<String, Vec<String>>,
    /// Counted influence per seat.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub influence: BTreeMap<String, u32>,
    /// Chips still in reserve per seat.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub chips_left: BTreeMap<String, u32>,
    /// Disaster cards lying in front of each seat.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub in_front: BTreeMap<String, Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub markers: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub town_hall_closed: Option<bool>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub flags: BTreeMap<String, bool>,
}

/// One value, or one per copy where several copies of a building stand.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum OneOrEach<T> {
    One(T),
    Each(Vec<T>),
}
