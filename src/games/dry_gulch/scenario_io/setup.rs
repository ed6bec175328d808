//! Set-up overrides: a scenario builds its situation directly, after the
//! normal set-up. Cards and permits are moved from wherever they are
//! (decks first), so every card stays in exactly one place.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{building, card, plot};
use crate::engine::{Game, Pile, Zone, move_n, move_tagged, move_to_bottom, seat_name, seat_of};
use crate::games::dry_gulch::readings::V;
use crate::games::dry_gulch::rules::{Action, Closure, Damage, Phase, Placed, State};
use crate::games::dry_gulch::rules_data::kind::{self, Card};
use crate::games::dry_gulch::rules_data::{Ability, Bld, CHIP, CardKind, Chips, Rules, Triangle};
use crate::lang::{by_seat, counted, top_first};

/// Overrides applied after the normal set-up, so a situation can be built
/// directly. Cards and permits are moved from wherever they are (decks
/// first), so every card stays in exactly one place.
#[derive(Debug, Clone, PartialEq, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SetupSpec {
    /// Residence plot per seat; seats not named take the first free edge plot.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub residences: BTreeMap<String, String>,
    /// Whose turn, in which phase (`events`, `draw`, `build`, `discard`), and
    /// which turn of the game (1-based).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<TurnSpec>,
    /// Hands, replacing the dealt ones: seat → card → count.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub hands: BTreeMap<String, BTreeMap<String, u8>>,
    /// Permits, replacing the dealt ones: seat → building → count.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub permits: BTreeMap<String, BTreeMap<String, u8>>,
    /// Buildings already standing.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub buildings: Vec<BuildingSpec>,
    /// Influence cards already played: seat → cards.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub influence: BTreeMap<String, Vec<String>>,
    /// Event cards lying face up this turn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub face_up: Vec<String>,
    /// Cards put on top of the decks, the first listed drawn first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deck_top: Option<DeckTop>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<String>,
    /// The Town Hall is closed (optional rule 2), by this seat's disaster.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub town_hall_closed_by: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TurnSpec {
    pub seat: String,
    pub phase: String,
    #[serde(default = "one")]
    pub number: u32,
}

fn one() -> u32 {
    1
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BuildingSpec {
    pub building: String,
    pub plot: String,
    pub owner: String,
    /// A disaster card that damaged it (it then lies in front of the owner).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damaged_by: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeckTop {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resources: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub permits: Vec<String>,
}

impl State {
    /// Takes one card of kind `c` from the piles (decks, discards, then
    /// other hands) into a pile of its own, to be placed elsewhere.
    fn pull_card(&mut self, rules: &Rules, c: CardKind, except_seat: Option<usize>) -> Result<Pile<Card>, String> {
        let mut held = Pile::new();
        for pile in [&mut self.resource_deck, &mut self.resource_discard, &mut self.event_deck, &mut self.event_discard]
        {
            if move_n(pile, &mut held, c, 1).is_ok() {
                return Ok(held);
            }
        }
        for (s, p) in self.seats.iter_mut().enumerate() {
            if Some(s) != except_seat && move_n(&mut p.hand, &mut held, c, 1).is_ok() {
                return Ok(held);
            }
        }
        Err(format!("no {} card is left to place (the deck has {})", rules.card_id(c), self.card_copies(rules, c)))
    }

    /// Takes one permit for `b` from the piles, then other players' permits.
    fn pull_permit(&mut self, rules: &Rules, b: Bld, except_seat: usize) -> Result<Pile<kind::Building>, String> {
        let mut held = Pile::new();
        for pile in [&mut self.permit_deck, &mut self.permit_discard, &mut self.permits_spent] {
            if move_n(pile, &mut held, b, 1).is_ok() {
                return Ok(held);
            }
        }
        for (s, p) in self.seats.iter_mut().enumerate() {
            if s != except_seat && move_n(&mut p.permits, &mut held, b, 1).is_ok() {
                return Ok(held);
            }
        }
        Err(format!("no {} permit is left (the deck has {})", rules.building(b).id, rules.building(b).permits))
    }

    /// Puts one card of kind `c` from `held` where it belongs.
    fn place(held: Result<Pile<Card>, String>, to: &mut impl Zone<Card>, c: CardKind) -> Result<(), String> {
        move_n(&mut held?, to, c, 1).map_err(|e| format!("cannot place that card: {e}"))
    }

    /// Applies the set-up overrides of a scenario, one kind after another.
    pub fn apply_setup(&mut self, rules: &Rules, spec: &SetupSpec) -> Result<(), String> {
        self.play_residences(rules, spec)?;
        self.set_hands(rules, spec)?;
        self.set_permits(rules, spec)?;
        for bs in &spec.buildings {
            self.set_building(rules, bs)?;
        }
        self.set_influence(rules, spec)?;
        self.set_face_up_and_decks(rules, spec)?;
        for f in &spec.flags {
            let i = crate::lang::index_named("flag", &rules.flags, f)?;
            self.flags[i] = true;
        }
        if let Some(s) = &spec.town_hall_closed_by {
            let seat = seat_of(s, self.players)?;
            self.town_hall_closed = Some(Closure { reopens_for: Some(seat) });
            if let Some(p) = self.board.edit()[rules.town_hall_plot.index()].as_mut() {
                let vandal = disaster_for_setup(rules).ok_or("no disaster card")?;
                p.damage = Some(Damage { card: vandal, origin: rules.town_hall_plot });
            }
        }
        if let Some(t) = &spec.turn {
            self.set_turn(t)?;
        }
        Ok(())
    }

    /// Residences: the set-up phase is played with the given or first free plots.
    fn play_residences(&mut self, rules: &Rules, spec: &SetupSpec) -> Result<(), String> {
        while let Phase::Residence { seat } = self.phase {
            let mut legal = Vec::new();
            self.legal_actions(rules, &mut legal);
            let chosen = match spec.residences.get(&seat_name(seat)) {
                Some(p) => Action::PlaceResidence(plot(rules, p)?),
                None => legal.first().cloned().ok_or("no free plot for a Residence")?,
            };
            self.apply(rules, &chosen).map_err(|e| format!("residence of {}: {e}", seat_name(seat)))?;
        }
        by_seat(&spec.residences, self.players)?;
        Ok(())
    }

    /// Hands, replacing the dealt ones (which go back under their decks).
    fn set_hands(&mut self, rules: &Rules, spec: &SetupSpec) -> Result<(), String> {
        for (seat, cards) in by_seat(&spec.hands, self.players)? {
            let old: Vec<(CardKind, u8)> = self.seats[seat].hand.iter().collect();
            for (k, x) in old {
                // back to the bottom of its deck
                let deck = if rules.event_of(k).is_some() { &mut self.event_deck } else { &mut self.resource_deck };
                move_to_bottom(&mut self.seats[seat].hand, deck, k, u32::from(x)).map_err(|e| e.to_string())?;
            }
            for (c, x) in counted(cards, |id| card(rules, id))? {
                for _ in 0..x {
                    let held = self.pull_card(rules, c, Some(seat));
                    State::place(held, &mut self.seats[seat].hand, c)?;
                }
            }
        }
        Ok(())
    }

    /// Permits, replacing the dealt ones (which go back under the deck).
    fn set_permits(&mut self, rules: &Rules, spec: &SetupSpec) -> Result<(), String> {
        for (seat, permits) in by_seat(&spec.permits, self.players)? {
            let old: Vec<(Bld, u8)> = self.seats[seat].permits.iter().collect();
            for (b, x) in old {
                move_to_bottom(&mut self.seats[seat].permits, &mut self.permit_deck, b, u32::from(x))
                    .map_err(|e| e.to_string())?;
            }
            for (b, x) in counted(permits, |id| building(rules, id))? {
                for _ in 0..x {
                    let mut held = self.pull_permit(rules, b, seat)?;
                    move_n(&mut held, &mut self.seats[seat].permits, b, 1).map_err(|e| e.to_string())?;
                }
            }
        }
        Ok(())
    }

    /// A building already standing, with its owner's chips on it and the
    /// disaster that damaged it in front of the owner.
    fn set_building(&mut self, rules: &Rules, bs: &BuildingSpec) -> Result<(), String> {
        let b = building(rules, &bs.building)?;
        let p = plot(rules, &bs.plot)?;
        let owner = seat_of(&bs.owner, self.players)?;
        if self.board[p.index()].is_some() {
            return Err(format!("plot {} is already taken", bs.plot));
        }
        if self.building_plot(b).is_some() && rules.buildings[b.index()].ability != Some(Ability::Residence) {
            return Err(format!("{} already stands", bs.building));
        }
        let chips = rules.building(b).influence.min(self.seats[owner].chips.count());
        let mut on = Chips::new();
        move_n(&mut self.seats[owner].chips, &mut on, CHIP, chips).map_err(|e| e.to_string())?;
        let damage = match &bs.damaged_by {
            Some(d) => {
                let c = card(rules, d)?;
                if rules.event_of(c).map(|e| rules.events[e].triangle) != Some(Triangle::Red) {
                    return Err(format!("`{d}` is not a disaster"));
                }
                let mut held = self.pull_card(rules, c, None)?;
                move_tagged(&mut held, &mut self.seats[owner].in_front, c, p).map_err(|e| e.to_string())?;
                Some(Damage { card: c, origin: p })
            }
            None => None,
        };
        self.board.edit()[p.index()] = Some(Placed { building: b, owner: Some(owner), damage, chips: on });
        Ok(())
    }

    /// Influence cards already played, each with a chip on it.
    fn set_influence(&mut self, rules: &Rules, spec: &SetupSpec) -> Result<(), String> {
        for (seat, cards) in by_seat(&spec.influence, self.players)? {
            for id in cards {
                let c = card(rules, id)?;
                let held = self.pull_card(rules, c, None);
                State::place(held, &mut self.seats[seat].influence, c)?;
                let p = &mut self.seats[seat];
                let place = 1u32.min(p.chips.count());
                move_n(&mut p.chips, &mut p.card_chips, CHIP, place).map_err(|e| e.to_string())?;
            }
        }
        Ok(())
    }

    /// Event cards face up, then cards on top of the decks.
    fn set_face_up_and_decks(&mut self, rules: &Rules, spec: &SetupSpec) -> Result<(), String> {
        for id in &spec.face_up {
            let c = card(rules, id)?;
            let held = self.pull_card(rules, c, None);
            State::place(held, &mut self.face_up, c)?;
        }
        let Some(top) = &spec.deck_top else { return Ok(()) };
        let by_id = |id: &str| card(rules, id);
        top_first(&top.resources, by_id, |c, _| {
            State::place(self.pull_card(rules, c, None), &mut self.resource_deck, c)
        })?;
        top_first(&top.events, by_id, |c, _| State::place(self.pull_card(rules, c, None), &mut self.event_deck, c))?;
        top_first(
            &top.permits,
            |id| building(rules, id),
            |b, _| {
                let mut held = self.pull_permit(rules, b, usize::MAX)?;
                move_n(&mut held, &mut self.permit_deck, b, 1).map_err(|e| e.to_string())
            },
        )
    }

    /// Whose turn, in which phase, and which turn of the game.
    fn set_turn(&mut self, t: &TurnSpec) -> Result<(), String> {
        let seat = seat_of(&t.seat, self.players)?;
        if t.number == 0 {
            return Err("turn numbers start at 1".into());
        }
        if self.on(V::AdvancedSetup) && matches!(self.phase, Phase::Draft { .. }) {
            return Err("set a turn only after the advanced set-up draft (script the draft instead)".into());
        }
        self.active = seat;
        self.turns = t.number - 1;
        self.phase = match t.phase.as_str() {
            "start" => Phase::NextTurn,
            "events" => Phase::Events { discard: 0 },
            "draw" => Phase::Draw,
            "build" => Phase::Build,
            "discard" => Phase::Discard,
            other => {
                return Err(format!("unknown phase `{other}`; expected start, events, draw, build or discard"));
            }
        };
        self.place_cursor()
    }
}

/// The disaster a set-up override marks a damaged Town Hall with: a red card
/// that does not spread (so the override starts no fire), else any red card.
fn disaster_for_setup(rules: &Rules) -> Option<CardKind> {
    let red: Vec<usize> = (0..rules.events.len()).filter(|&e| rules.events[e].triangle == Triangle::Red).collect();
    let calm = red.iter().map(|&e| rules.event_card(e)).find(|&c| Some(c) != rules.spreading_fire);
    calm.or_else(|| red.first().map(|&e| rules.event_card(e)))
}
