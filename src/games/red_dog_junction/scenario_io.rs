//! Red Dog Junction's scenario vocabulary: set-up overrides, actions by
//! catalog id, facts for expectations, and the state description.

use std::collections::BTreeMap;
use std::rc::Rc;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::rules::{Action, State};
use super::rules_data::*;
use crate::engine::names::{id_named, name_of, seat_named, seat_written};
use crate::engine::{Chance, Facts, Game, Id, Lookup, Scripted, Unapplied, Written, move_n, seat_name, seat_of, under};
use crate::lang::{self, CatalogIds, counted, each_seat};

fn cube(rules: &Rules, id: &str) -> Result<Id<Cube>, String> {
    lang::id_named("commodity", rules.cubes.iter().map(|c| &c.id), id)
}
fn card(rules: &Rules, id: &str) -> Result<Id<Card>, String> {
    lang::id_named("card", rules.cards.iter().map(|c| &c.id), id)
}
fn dock(rules: &Rules, id: &str) -> Result<Id<Dock>, String> {
    lang::id_named("dock", Id::first(rules.docks.len()).map(|d| rules.dock_id(d)), id)
}

/// Overrides applied after the normal set-up. Cubes and cards move from
/// where they lie (a commodity's supply, the deck), so all stay counted.
#[derive(Debug, Clone, PartialEq, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SetupSpec {
    /// Whose turn it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<String>,
    /// Ships: seat → dock id, or `space`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub ships: BTreeMap<String, String>,
    /// Cubes added aboard: seat → commodity → count (from its supply).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub cargo: BTreeMap<String, BTreeMap<String, u32>>,
    /// Cubes added to storage.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub storage: BTreeMap<String, BTreeMap<String, u32>>,
    /// Cards added, as bought earlier: seat → card → count (from the
    /// deck); Boosts lie beside the crew, unused.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub crew: BTreeMap<String, BTreeMap<String, u32>>,
    /// Cards added as `crew:` adds them, but not bought: dealt or drafted
    /// (`unpurchased-cards-score`, `unpurchased-boosts`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub dealt: BTreeMap<String, BTreeMap<String, u32>>,
    /// Dice values by place (1-based), instead of their set-up roll.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub dice: BTreeMap<u8, u8>,
    /// The gold die's value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gold_die: Option<u8>,
    /// Display slots (1-based) → card, swapped in from the deck.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub display: BTreeMap<u8, String>,
}

/// The catalog ids Red Dog Junction's actions are written with.
pub fn names(rules: &Rules) -> Rc<dyn Lookup> {
    CatalogIds::default()
        .kind::<Cube, _>("commodity", rules.cubes.iter().map(|c| &c.id))
        .kind::<Card, _>("card", rules.cards.iter().map(|c| &c.id))
        .kind::<Dock, _>("dock", Id::first(rules.docks.len()).map(|d| rules.dock_id(d)))
        .kind::<pile_kind::Pile, _>("Super Deal pile", rules.piles.iter().map(|p| &p.id))
        .kind::<crate::lang::declared::ActKind, _>("declared action", rules.actions.iter().map(|a| &a.id))
        .options(&rules.choices)
        .shared()
}

mod pile_kind {
    crate::kinds! {
        /// A Super Deal pile, as an action names it.
        Pile = "Super Deal pile",
    }
}

/// A dock, or `space` (`None`).
pub mod dock_or_space {
    use super::*;

    pub fn serialize<S: Serializer>(d: &Option<Id<Dock>>, s: S) -> Result<S::Ok, S::Error> {
        d.map_or_else(|| "space".to_string(), name_of).serialize(s)
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Id<Dock>>, D::Error> {
        let to = String::deserialize(d)?;
        if to == "space" { Ok(None) } else { id_named(&to).map(Some).map_err(D::Error::custom) }
    }
}

/// A seat of at most five, written `p1` … `p5`.
pub mod seat {
    use super::*;

    pub fn serialize<S: Serializer>(w: &u8, s: S) -> Result<S::Ok, S::Error> {
        seat_written(usize::from(*w)).serialize(s)
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u8, D::Error> {
        Ok(seat_named(&String::deserialize(d)?, 5).map_err(D::Error::custom)? as u8)
    }
}

/// Seats (a bit each), written as a list of `pN`.
pub mod seats {
    use super::*;

    pub fn serialize<S: Serializer>(m: &u8, s: S) -> Result<S::Ok, S::Error> {
        (0..8).filter(|i| m & (1 << i) != 0).map(seat_written).collect::<Vec<_>>().serialize(s)
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u8, D::Error> {
        let mut m = 0u8;
        for s in Vec::<String>::deserialize(d)? {
            m |= 1u8
                .checked_shl(seat_named(&s, 5).map_err(D::Error::custom)? as u32)
                .ok_or_else(|| D::Error::custom("too many seats"))?;
        }
        Ok(m)
    }
}

/// A position written from 1.
pub mod one_based {
    use super::*;

    pub fn serialize<S: Serializer>(i: &u8, s: S) -> Result<S::Ok, S::Error> {
        (u16::from(*i) + 1).serialize(s)
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u8, D::Error> {
        from_one(u8::deserialize(d)?)
    }
}

/// A position written from 1, counted from 0; a 0 is an error.
fn from_one<E: serde::de::Error>(p: u8) -> Result<u8, E> {
    p.checked_sub(1).ok_or_else(|| E::custom("places are numbered from 1; 0 is none of them"))
}

/// A position written from 1, or none.
pub mod one_based_or_none {
    use super::*;

    pub fn serialize<S: Serializer>(i: &Option<u8>, s: S) -> Result<S::Ok, S::Error> {
        i.map(|i| u16::from(i) + 1).serialize(s)
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u8>, D::Error> {
        Option::<u8>::deserialize(d)?.map(from_one).transpose()
    }
}

/// A Super Deal pile, by its id.
pub mod pile {
    use super::*;

    pub fn serialize<S: Serializer>(p: &u8, s: S) -> Result<S::Ok, S::Error> {
        name_of(Id::<pile_kind::Pile>::new(usize::from(*p)).unwrap_or(Id::ZERO)).serialize(s)
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u8, D::Error> {
        let p: Id<pile_kind::Pile> = id_named(&String::deserialize(d)?).map_err(D::Error::custom)?;
        Ok(p.index() as u8)
    }
}

/// A fact's value as a scenario writes it.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum Fact {
    Number(i64),
    Text(String),
}

impl std::fmt::Display for Fact {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fact::Number(n) => write!(f, "{n}"),
            Fact::Text(t) => f.write_str(t),
        }
    }
}

/// Expectations: fact name → value (`cargo.p1.gold: 2`, `ship.p1: space`,
/// `score.p2: 7`, `winner: p1`, `to-move: p2`).
pub type Expect = BTreeMap<String, Fact>;

impl State {
    /// Dice place `place` (1-based) shows `v`, and is not rolled at the start.
    fn set_die(&mut self, rules: &Rules, place: u8, v: u8) -> Result<(), String> {
        let p = usize::from(place).wrapping_sub(1);
        let slot = self.dice.get_mut(p).ok_or_else(|| format!("no dice place {place}"))?;
        if v == 0 || v > rules.faces {
            return Err(format!("a die shows 1 to {}", rules.faces));
        }
        *slot = v;
        self.rolls.retain(|&r| usize::from(r) != p);
        Ok(())
    }

    /// Display slot `slot` (1-based) holds card `id`, taken from the deck.
    fn set_display(&mut self, rules: &Rules, slot: u8, id: &str) -> Result<(), String> {
        let c = card(rules, id)?;
        let i = usize::from(slot).wrapping_sub(1);
        if i >= rules.display {
            return Err(format!("no display slot {slot}"));
        }
        let _ = self.display.take_slot(i, &mut self.deck);
        // the slot is the only empty one, so the card fills it
        move_n(&mut self.deck, &mut self.display, c, 1).map_err(|e| format!("{id}: {e}"))
    }
}

impl Scripted for State {
    type Setup = SetupSpec;
    type ActionSpec = Written<Action>;
    type Expect = Expect;

    fn apply_setup(&mut self, rules: &Rules, s: &SetupSpec) -> Result<(), Unapplied> {
        let n = self.players;
        if let Some(seat) = &s.seat {
            self.active = seat_of(seat, n).map_err(under("seat"))?;
            // the scenario says who is on turn: no first player is rolled
            self.first = Some(self.active as u8);
        }
        each_seat(&s.ships, n, |seat, at| {
            if let Some(d) = self.ships[seat].take() {
                let _ = self.occupancy.leave(d);
            }
            if at != "space" {
                let d = dock(rules, at)?;
                self.occupancy.enter(&rules.dock_graph, d).map_err(|_| format!("dock `{at}` is taken"))?;
                self.ships[seat] = Some(d);
            }
            Ok(())
        })
        .map_err(under("ships"))?;
        for (into_storage, map, key) in [(false, &s.cargo, "cargo"), (true, &s.storage, "storage")] {
            each_seat(map, n, |seat, cubes| {
                for (c, k) in counted(cubes, |c| cube(rules, c))? {
                    let mut from = self.home_zone(rules, c).clone();
                    let to = if into_storage { &mut self.storage[seat] } else { &mut self.cargo[seat] };
                    let id = &rules.cube(c).id;
                    move_n(&mut from, to, c, k).map_err(|e| under(id)(format!("{id}: {e}")))?;
                    *self.home_zone(rules, c) = from;
                }
                Ok(())
            })
            .map_err(under(key))?;
        }
        for (bought, map, key) in [(true, &s.crew, "crew"), (false, &s.dealt, "dealt")] {
            each_seat(map, n, |seat, cards| {
                for (c, k) in counted(cards, |c| card(rules, c))? {
                    let to =
                        if rules.card(c).class == Class::Boost { &mut self.boosts[seat] } else { &mut self.crew[seat] };
                    let id = &rules.card(c).id;
                    move_n(&mut self.deck, to, c, k).map_err(|e| under(id)(format!("{id}: {e}")))?;
                    if bought {
                        self.mark_bought(seat, c, k.min(255) as u8);
                    }
                }
                Ok(())
            })
            .map_err(under(key))?;
        }
        for (&place, &v) in &s.dice {
            self.set_die(rules, place, v).map_err(under(place.to_string())).map_err(under("dice"))?;
        }
        if let Some(v) = s.gold_die {
            if v == 0 || v > rules.gold_faces {
                return Err(under("gold_die")(format!("the gold die shows 1 to {}", rules.gold_faces)));
            }
            self.gold_die = v;
        }
        for (&slot, id) in &s.display {
            self.set_display(rules, slot, id).map_err(under(slot.to_string())).map_err(under("display"))?;
        }
        Ok(())
    }
    fn action_from_spec(rules: &Rules, s: &Written<Action>) -> Result<Action, Unapplied> {
        s.read(&names(rules))
    }
    fn action_to_spec(rules: &Rules, a: &Action) -> Written<Action> {
        Written::of(*a, names(rules))
    }
    /// Every fact an expectation can name: the recorded ones, and what
    /// they leave out (counts of zero; `none` for a winner, a countdown or
    /// a decision not there).
    fn facts(&self, rules: &Rules) -> Facts {
        let mut f = Facts::of(&self.record_expect(rules));
        let absent = |f: &mut Facts, path: String, v: Fact| {
            if f.get(&path).is_none() {
                f.set(path, v);
            }
        };
        for seat in 0..self.players {
            let p = seat_name(seat);
            for c in &rules.cubes {
                absent(&mut f, format!("cargo.{p}.{}", c.id), Fact::Number(0));
                absent(&mut f, format!("storage.{p}.{}", c.id), Fact::Number(0));
            }
            for c in &rules.cards {
                absent(&mut f, format!("crew.{p}.{}", c.id), Fact::Number(0));
                absent(&mut f, format!("hand.{p}.{}", c.id), Fact::Number(0));
            }
        }
        for c in &rules.cubes {
            absent(&mut f, format!("space.{}", c.id), Fact::Number(0));
        }
        absent(&mut f, "boosts.played".into(), Fact::Number(0));
        for k in ["waiting", "countdown", "winner"] {
            absent(&mut f, k.into(), Fact::Text("none".into()));
        }
        f
    }
    /// The facts of a state a recorded scenario keeps (zero counts left out).
    fn record_expect(&self, rules: &Rules) -> Expect {
        let s = self;
        let mut out = Expect::new();
        for seat in 0..s.players {
            let p = seat_name(seat);
            for (what, zone) in [("cargo", &s.cargo[seat]), ("storage", &s.storage[seat])] {
                for (c, n) in zone.iter() {
                    out.insert(format!("{what}.{p}.{}", rules.cube(c).id), Fact::Number(i64::from(n)));
                }
            }
            for (c, n) in s.crew[seat].iter() {
                out.insert(format!("crew.{p}.{}", rules.card(c).id), Fact::Number(i64::from(n)));
            }
            let at = s.ships[seat].map_or("space".to_string(), |d| rules.dock_id(d));
            out.insert(format!("ship.{p}"), Fact::Text(at));
            out.insert(format!("score.{p}"), Fact::Number(s.total_score(rules, seat)));
            out.insert(format!("deals.{p}"), Fact::Number(i64::from(s.deals[seat].total())));
            for (c, n) in s.hands[seat].iter() {
                out.insert(format!("hand.{p}.{}", rules.card(c).id), Fact::Number(i64::from(n)));
            }
            let cards = s.crew[seat].total() + s.boosts[seat].total();
            out.insert(format!("cards.{p}"), Fact::Number(i64::from(cards)));
        }
        for (place, v) in s.dice.iter().enumerate() {
            out.insert(format!("die.{}", place + 1), Fact::Number(i64::from(*v)));
        }
        for (c, n) in s.space.iter() {
            out.insert(format!("space.{}", rules.cube(c).id), Fact::Number(i64::from(n)));
        }
        for (i, slot) in s.display.slots().iter().enumerate() {
            let card = slot.map_or("empty".to_string(), |c| rules.card(c).id.clone());
            out.insert(format!("display.{}", i + 1), Fact::Text(card));
        }
        for seat in 0..s.players {
            out.insert(format!("boosts.p{}", seat + 1), Fact::Number(i64::from(s.boosts[seat].total())));
        }
        if s.played.total() > 0 {
            out.insert("boosts.played".into(), Fact::Number(i64::from(s.played.total())));
        }
        if let Some(d) = s.agenda.decision {
            let options = rules.choices.get(d.choice as usize).map(|c| c.iter().map(|(id, _)| id.as_str()));
            let options: Vec<&str> = options.into_iter().flatten().collect();
            out.insert("waiting".into(), Fact::Text(format!("p{} chooses {}", d.seat + 1, options.join(" or "))));
        }
        out.insert("deck".into(), Fact::Number(s.deck.len() as i64));
        out.insert("boxed-cards".into(), Fact::Number(i64::from(s.boxed_cards.total())));
        out.insert("gold-die".into(), Fact::Number(i64::from(s.gold_die)));
        out.insert("bank.gold".into(), Fact::Number(i64::from(s.bank_gold(rules))));
        out.insert("actions-left".into(), Fact::Number(i64::from(s.actions_left)));
        out.insert("to-move".into(), Fact::Text(s.to_move().to_string()));
        if let Some((left, _)) = s.countdown {
            out.insert("countdown".into(), Fact::Number(i64::from(left)));
        }
        if let Some(o) = s.outcome(rules) {
            let w: Vec<String> = o.winners().map(seat_name).collect();
            out.insert("winner".into(), Fact::Text(w.join(" ")));
        }
        out
    }
    fn describe_state(&self, rules: &Rules) -> String {
        let s = self;
        let mut out = match s.phase {
            super::rules::Phase::Extra | super::rules::Phase::Draft => {
                format!("set-up picks · p{} to pick · {} picks left\n", s.active + 1, s.picks_left)
            }
            _ if s.first.is_none() => "turn 1 · the die is to pick the first player\n".to_string(),
            _ => format!("turn {} · p{} to act · {} actions left\n", s.turns + 1, s.active + 1, s.actions_left),
        };
        for seat in 0..s.players {
            let at = s.ships[seat].map_or("in space".to_string(), |d| format!("at {}", rules.dock_name(d)));
            let list = |z: &super::rules::Cubes| {
                z.iter().map(|(c, n)| format!("{n} {}", rules.cube(c).name)).collect::<Vec<_>>().join(", ")
            };
            out.push_str(&format!(
                "p{}{}: ship {at}; cargo [{}]; storage [{}]; score {}\n",
                seat + 1,
                if s.is_automa(seat) { " (Automa)" } else { "" },
                list(&s.cargo[seat]),
                list(&s.storage[seat]),
                s.total_score(rules, seat)
            ));
        }
        let dice: Vec<String> = s
            .dice
            .iter()
            .enumerate()
            .map(|(p, v)| format!("{}:{}={v}", p + 1, rules.cube(rules.dice[usize::from(s.die_at[p])].0).id))
            .collect();
        out.push_str(&format!(
            "dice {} · gold die {} · bank gold {}\n",
            dice.join(" "),
            s.gold_die,
            s.bank_gold(rules)
        ));
        out
    }
    fn pending_decision(&self) -> Option<(usize, &'static str)> {
        let what = match self.phase {
            super::rules::Phase::Automa(_) => "automa-dock",
            super::rules::Phase::Extra | super::rules::Phase::Draft => "pick-for-the-automa",
            _ if self.agenda.decision.is_some() => "card-choice",
            _ => "swap-take",
        };
        (self.to_act() != self.active && self.end.is_none()).then_some((self.to_act(), what))
    }
    fn chance(&mut self) -> Option<&mut Chance> {
        Some(&mut self.chance)
    }
}
