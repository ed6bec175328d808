//! Set-up overrides: a scenario builds its situation directly, after the
//! normal set-up. Cards and permits are moved from wherever they are
//! (decks first), so every card stays in exactly one place; the zones a
//! scenario names (`seats:`, `table:`) are set through the engine's
//! `Zones`, from the two tables here.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{building, card, plot};
use crate::engine::{Game, Pile, Reads, Unapplied, Whose, Zone, Zones, move_n, move_tagged, seat_name, seat_of, under};
use crate::games::dry_gulch::readings::{V, VioletCards};
use crate::games::dry_gulch::rules::{Action, Closure, Damage, Phase, Placed, State};
use crate::games::dry_gulch::rules_data::kind::Card;
use crate::games::dry_gulch::rules_data::{Ability, CardKind, Chips, Rules, Triangle, colour};
use crate::games::dry_gulch::zones::{Tables, with_zones};
use crate::lang::{by_seat, each_seat};

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
    /// Each seat's zones (`hand`, `permits`), replacing what they hold:
    /// seat → zone → card or building → count. What a zone held goes
    /// under its deck; what it takes comes from the decks and discard
    /// piles first, then from the other seats.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub seats: BTreeMap<String, BTreeMap<String, BTreeMap<String, u8>>>,
    /// Buildings already standing.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub buildings: Vec<BuildingSpec>,
    /// Influence cards already played: seat → cards.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub influence: BTreeMap<String, Vec<String>>,
    /// The table's zones (`face-up`, the decks, the discard piles,
    /// `permits-spent`): zone → cards or permits put on top of what it
    /// holds, the first listed on top (a deck's is drawn first).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub table: BTreeMap<String, Vec<String>>,
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

impl State {
    /// Puts one card of kind `c` from `held` where it belongs.
    fn place(held: Result<Pile<Card>, String>, to: &mut impl Zone<Card>, c: CardKind) -> Result<(), String> {
        move_n(&mut held?, to, c, 1).map_err(|e| format!("cannot place that card: {e}"))
    }

    /// Applies the set-up overrides of a scenario, one kind after another;
    /// an error is placed under the key of `setup:` it concerns.
    pub fn apply_setup(&mut self, rules: &Rules, spec: &SetupSpec) -> Result<(), Unapplied> {
        self.play_residences(rules, spec).map_err(under("residences"))?;
        with_zones(rules, (self.players, self.peek::<VioletCards>()), |zones| {
            self.set_seats(rules, spec, zones).map_err(under("seats"))?;
            for (i, bs) in spec.buildings.iter().enumerate() {
                self.set_building(rules, bs, &zones.cards).map_err(under(i)).map_err(under("buildings"))?;
            }
            self.set_influence(rules, spec, &zones.cards).map_err(under("influence"))?;
            self.set_table(rules, spec, zones).map_err(under("table"))
        })?;
        for (i, f) in spec.flags.iter().enumerate() {
            let i = crate::lang::index_named("flag", &rules.flags, f).map_err(under(i)).map_err(under("flags"))?;
            self.flags[i] = true;
        }
        if let Some(s) = &spec.town_hall_closed_by {
            let seat = seat_of(s, self.players).map_err(under("town_hall_closed_by"))?;
            self.town_hall_closed = Some(Closure { reopens_for: Some(seat) });
            if let Some(p) = self.board.edit()[rules.town_hall_plot.index()].as_mut() {
                let vandal = disaster_for_setup(rules).ok_or("no disaster card")?;
                p.damage = Some(Damage { card: vandal, origin: rules.town_hall_plot });
            }
        }
        if let Some(t) = &spec.turn {
            self.set_turn(t).map_err(under("turn"))?;
        }
        Ok(())
    }

    /// Residences: the set-up phase is played with the given or first free plots.
    fn play_residences(&mut self, rules: &Rules, spec: &SetupSpec) -> Result<(), Unapplied> {
        by_seat(&spec.residences, self.players)?;
        while let Phase::Residence { seat } = self.phase {
            let mut legal = Vec::new();
            self.legal_actions(rules, &mut legal);
            let name = seat_name(seat);
            let chosen = match spec.residences.get(&name) {
                Some(p) => Action::PlaceResidence(plot(rules, p).map_err(under(&name))?),
                None => legal.first().cloned().ok_or("no free plot for a Residence")?,
            };
            let placed = self.apply(rules, &chosen).map_err(|e| format!("residence of {name}: {e}"));
            placed.map_err(|e| if spec.residences.contains_key(&name) { under(&name)(e) } else { e.into() })?;
        }
        Ok(())
    }

    /// Each seat's zones, replacing what they held, seat by seat.
    fn set_seats(&mut self, rules: &Rules, spec: &SetupSpec, tables: &Tables<'_>) -> Result<(), Unapplied> {
        each_seat(&spec.seats, self.players, |seat, zones| {
            for (zone, ids) in zones {
                if !tables.cards.set_written(self, (seat, zone), ids, &|id| card(rules, id))?
                    && !tables.permits.set_written(self, (seat, zone), ids, &|id| building(rules, id))?
                {
                    return Err(under(zone)(tables.unknown(zone, Whose::Seat)));
                }
            }
            Ok(())
        })
    }

    /// A building already standing, with its owner's chips on it and the
    /// disaster that damaged it in front of the owner.
    fn set_building(
        &mut self,
        rules: &Rules,
        bs: &BuildingSpec,
        cards: &Zones<'_, State, Card>,
    ) -> Result<(), Unapplied> {
        let b = building(rules, &bs.building).map_err(under("building"))?;
        let p = plot(rules, &bs.plot).map_err(under("plot"))?;
        let owner = seat_of(&bs.owner, self.players).map_err(under("owner"))?;
        if self.board[p.index()].is_some() {
            return Err(under("plot")(format!("plot {} is already taken", bs.plot)));
        }
        if self.building_plot(b).is_some() && rules.buildings[b.index()].ability != Some(Ability::Residence) {
            return Err(under("building")(format!("{} already stands", bs.building)));
        }
        let chips = rules.building(b).influence.min(self.seats[owner].chips.count());
        let mut on = Chips::new();
        move_n(&mut self.seats[owner].chips, &mut on, colour(owner), chips).map_err(|e| e.to_string())?;
        let damage = match &bs.damaged_by {
            Some(d) => {
                let mut disaster = || -> Result<CardKind, String> {
                    let c = card(rules, d)?;
                    if rules.event_of(c).map(|e| rules.events[e].triangle) != Some(Triangle::Red) {
                        return Err(format!("`{d}` is not a disaster"));
                    }
                    let mut held = cards.pull(self, c)?;
                    move_tagged(&mut held, &mut self.seats[owner].in_front, c, p).map_err(|e| e.to_string())?;
                    Ok(c)
                };
                Some(Damage { card: disaster().map_err(under("damaged_by"))?, origin: p })
            }
            None => None,
        };
        self.board.edit()[p.index()] = Some(Placed { building: b, owner: Some(owner), damage, chips: on });
        Ok(())
    }

    /// Influence cards already played, each with a chip on it.
    fn set_influence(
        &mut self,
        rules: &Rules,
        spec: &SetupSpec,
        zones: &Zones<'_, State, Card>,
    ) -> Result<(), Unapplied> {
        each_seat(&spec.influence, self.players, |seat, cards| {
            for (i, id) in cards.iter().enumerate() {
                let mut one = || -> Result<(), String> {
                    let c = card(rules, id)?;
                    let held = zones.pull(self, c);
                    State::place(held, &mut self.seats[seat].influence, c)?;
                    let p = &mut self.seats[seat];
                    let place = 1u32.min(p.chips.count());
                    move_n(&mut p.chips, &mut p.card_chips, colour(seat), place).map_err(|e| e.to_string())
                };
                one().map_err(under(i))?;
            }
            Ok(())
        })
    }

    /// The table's zones, in the order the tables list them: cards and
    /// permits put on top.
    fn set_table(&mut self, rules: &Rules, spec: &SetupSpec, tables: &Tables<'_>) -> Result<(), Unapplied> {
        let Tables { cards, permits } = tables;
        if let Some(zone) = spec.table.keys().find(|z| cards.get(z).is_none() && permits.get(z).is_none()) {
            return Err(under(zone)(tables.unknown(zone, Whose::Table)));
        }
        cards.put_written(self, &spec.table, &|id| card(rules, id))?;
        permits.put_written(self, &spec.table, &|id| building(rules, id))
    }

    /// Whose turn, in which phase, and which turn of the game.
    fn set_turn(&mut self, t: &TurnSpec) -> Result<(), Unapplied> {
        let seat = seat_of(&t.seat, self.players).map_err(under("seat"))?;
        if t.number == 0 {
            return Err(under("number")("turn numbers start at 1"));
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
                let known = "expected start, events, draw, build or discard";
                return Err(under("phase")(format!("unknown phase `{other}`; {known}")));
            }
        };
        self.place_cursor().map_err(under("phase"))
    }
}

/// The disaster a set-up override marks a damaged Town Hall with: a red card
/// that does not spread (so the override starts no fire), else any red card.
fn disaster_for_setup(rules: &Rules) -> Option<CardKind> {
    let red: Vec<usize> = (0..rules.events.len()).filter(|&e| rules.events[e].triangle == Triangle::Red).collect();
    let calm = red.iter().map(|&e| rules.event_card(e)).find(|&c| Some(c) != rules.spreading_fire);
    calm.or_else(|| red.first().map(|&e| rules.event_card(e)))
}
