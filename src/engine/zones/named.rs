//! Zones by name: what a scenario's set-up calls a game's zones. A game
//! lists, kind by kind of component, the zones a scenario may set and the
//! ones set-up may take components from, in one table each; the words
//! (`seats: {p1: {hand: {lumber: 2}}}`, `table: {event-deck: [fire]}`)
//! and the moves behind them are the engine's, the same for every game.
//!
//! A game's tables name every zone a component can lie in, the ones a
//! scenario may only read included (`SetUp::Read`: cards played in front
//! of a seat, a draw's offered permits while it lasts), so the facts say
//! where each component lies and `conserved` adds every zone up.
//!
//! Set-up changes zones only by moves, so every component stays in exactly
//! one place:
//! - a seat's zone gives back what it held, each kind in turn to its home
//!   pile (`Zones::home`; under it or on top, as `Zones::back` says), then
//!   takes the components asked for (a game may give back every zone it
//!   sets first, with `clear_seat`: setting a zone that is empty gives
//!   nothing back);
//! - a table zone takes the components listed on top of what it holds, the
//!   first listed on top (a deck's first listed is drawn first).
//!
//! Each component asked for is taken from the first source that holds one:
//! the table's sources in the table's order, then each seat's, seat by
//! seat, but never from the zone being set nor from a seat's zone this
//! set-up has set (it keeps what the scenario gave it; `Zones::filled`).

use std::cell::RefCell;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{Holds, Id, Kind, Pile, Zone, move_n, move_to_bottom};
use crate::engine::{Facts, PathKey, Unapplied, seat_name, under};

/// Whose a named zone is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Whose {
    /// Each seat has one (a hand).
    Seat,
    /// The table has one (a deck, a discard pile, a face-up row).
    Table,
}

/// Where a named zone lies in the state: the field, read and written, and
/// its stamp read without going through `dyn Holds` (`conserved` reads
/// every zone's after every action); `lies!` writes all three from one
/// place.
pub enum Lies<S, K: Kind> {
    /// Each seat's (a hand).
    Seat {
        read: fn(&S, usize) -> &dyn Holds<K>,
        write: fn(&mut S, usize) -> &mut dyn Zone<K>,
        stamp: fn(&S, usize) -> Option<u64>,
    },
    /// The table's (a deck, a discard pile, a face-up row).
    Table { read: fn(&S) -> &dyn Holds<K>, write: fn(&mut S) -> &mut dyn Zone<K>, stamp: fn(&S) -> Option<u64> },
    /// The table's while it lasts (the permits a draw offers): read only,
    /// holding nothing when it is not there.
    Passing { read: fn(&S) -> Option<&dyn Holds<K>> },
    /// The table's, one for each of the `len` entities the state holds
    /// (the cubes on each location): read only, and its facts named by
    /// position (`table.locations.1.gold`). `watched`, where all of them
    /// lie in one `Watched` value (the buildings of a board), reads its
    /// stamp: every change to any of them renews it, so `conserved` keeps
    /// them as one part under that one stamp instead of one for each.
    Each { len: fn(&S) -> usize, read: fn(&S, usize) -> &dyn Holds<K>, watched: Option<fn(&S) -> u64> },
}

/// Where a named zone lies, from the place of its field:
/// `lies!(seat(s, i) => s.seats[i].hand)` or `lies!(table(s) => s.deck)`.
#[macro_export]
macro_rules! lies {
    (seat($s:ident, $i:ident) => $($place:tt)+) => {
        $crate::engine::Lies::Seat {
            read: |$s, $i| &$($place)+,
            write: |$s, $i| &mut $($place)+,
            stamp: |$s, $i| $crate::engine::Holds::stamped(&$($place)+),
        }
    };
    (table($s:ident) => $($place:tt)+) => {
        $crate::engine::Lies::Table {
            read: |$s| &$($place)+,
            write: |$s| &mut $($place)+,
            stamp: |$s| $crate::engine::Holds::stamped(&$($place)+),
        }
    };
}

/// Where a component a seat's zone gives back goes on its home pile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Back {
    Under,
    OnTop,
}

/// What a scenario's set-up may do with a zone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SetUp {
    /// Set it, and take components from it to place elsewhere (a deck, a hand).
    Source,
    /// Set it, but never take from it (a face-up row).
    Set,
    /// Neither: its facts are read and it is counted, but what lies there
    /// is placed by play (cards in front of a seat with their plots).
    Read,
}

/// Which kinds of component a zone may hold: any, or only the kinds of one
/// class (a game gives each kind a class, `conserved`'s `classes`: Dry
/// Gulch's resource and event cards, which share one table but never a
/// deck). `conserved` reads a classed zone's counts wherever it counts the
/// zone, so a component out of place is found after the action that put it
/// there, and only the zones an action moved are read again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Admits {
    Any,
    Class(u8),
}

/// One zone of a game, by the name a scenario writes.
pub struct Named<S, K: Kind> {
    /// The word a scenario writes (`hand`, `event-deck`).
    pub name: &'static str,
    pub setup: SetUp,
    pub lies: Lies<S, K>,
    pub admits: Admits,
}

impl<S, K: Kind> Named<S, K> {
    /// The zone `name`, which set-up may use as `setup` says, lying where
    /// `lies` says and holding any kind.
    pub const fn new(name: &'static str, setup: SetUp, lies: Lies<S, K>) -> Named<S, K> {
        Named { name, setup, lies, admits: Admits::Any }
    }

    /// The zone `name`, likewise, holding only the kinds of class `class`.
    pub const fn only(class: u8, name: &'static str, setup: SetUp, lies: Lies<S, K>) -> Named<S, K> {
        Named { name, setup, lies, admits: Admits::Class(class) }
    }

    pub fn whose(&self) -> Whose {
        match self.lies {
            Lies::Seat { .. } => Whose::Seat,
            Lies::Table { .. } | Lies::Passing { .. } | Lies::Each { .. } => Whose::Table,
        }
    }

    /// The zone to change: seat `seat`'s, or the table's (which ignores
    /// the seat); an error for a zone set-up only reads.
    fn zone<'s>(&self, s: &'s mut S, seat: usize) -> Result<&'s mut dyn Zone<K>, String> {
        self.settable()?;
        match self.lies {
            Lies::Seat { write, .. } => Ok(write(s, seat)),
            Lies::Table { write, .. } => Ok(write(s)),
            // read only, whatever its `setup` says
            Lies::Passing { .. } | Lies::Each { .. } => {
                Err(format!("set-up cannot set `{}`: it is read only", self.name))
            }
        }
    }

    /// Why set-up may not set this zone, where it may not.
    fn settable(&self) -> Result<(), String> {
        match self.setup {
            SetUp::Read => Err(format!(
                "set-up cannot set `{}`: play puts what lies there (an expectation may name it)",
                self.name
            )),
            SetUp::Source | SetUp::Set => Ok(()),
        }
    }

    /// The zone to read: seat `seat`'s, or the table's (for an `Each`,
    /// the `seat`-th); `None` for a passing zone that is not there.
    pub fn read<'s>(&self, s: &'s S, seat: usize) -> Option<&'s dyn Holds<K>> {
        match self.lies {
            Lies::Seat { read, .. } => Some(read(s, seat)),
            Lies::Table { read, .. } => Some(read(s)),
            Lies::Passing { read } => read(s),
            Lies::Each { len, read, .. } => (seat < len(s)).then(|| read(s, seat)),
        }
    }
}

/// The zones of one kind of component, and what set-up needs of the kind.
pub struct Zones<'a, S, K: Kind> {
    pub zones: &'a [Named<S, K>],
    /// What a message calls one component (`card`, `permit`).
    pub what: &'static str,
    /// How many kinds there are (ids `0..kinds`).
    pub kinds: usize,
    pub seats: usize,
    /// The catalog id of a kind, for messages.
    pub id: &'a dyn Fn(Id<K>) -> String,
    /// The pile a component a seat's zone gives back goes to.
    pub home: &'a dyn Fn(&mut S, Id<K>) -> &mut Pile<K>,
    pub back: Back,
    /// Each kind's class and each class's name (`admitting`), for the
    /// zones that admit one class only; none given, every zone takes
    /// every kind at set-up.
    classes: (&'a [u8], &'a [&'static str]),
    /// The seats' zones this set-up has filled (seat, zone): never a
    /// source after, so a zone keeps what the scenario gave it.
    filled: RefCell<Vec<(usize, &'static str)>>,
}

impl<'a, S, K: Kind> Zones<'a, S, K> {
    /// The table of `zones`, components called `what`, of `kinds` kinds
    /// (ids `0..kinds`) among `seats` seats: `id` names a kind, and a
    /// component a seat's zone gives back goes to its `home` pile, as
    /// `back` says. No zone is filled yet.
    pub fn new(
        zones: &'a [Named<S, K>],
        what: &'static str,
        (kinds, seats): (usize, usize),
        id: &'a dyn Fn(Id<K>) -> String,
        home: &'a dyn Fn(&mut S, Id<K>) -> &mut Pile<K>,
        back: Back,
    ) -> Zones<'a, S, K> {
        Zones { zones, what, kinds, seats, id, home, back, classes: (&[], &[]), filled: RefCell::default() }
    }

    /// These zones, where set-up puts in a zone that admits one class
    /// (`Admits::Class`) only the kinds `classes` puts in it (each kind's
    /// class, in kind order), naming a class as `names` does (`event
    /// card`): the conservation check would find the component out of
    /// place after the first action, but a scenario's set-up is input, and
    /// is refused where it is wrong.
    pub fn admitting(self, classes: &'a [u8], names: &'a [&'static str]) -> Zones<'a, S, K> {
        Zones { classes: (classes, names), ..self }
    }

    /// An error where zone `z` admits one class of kinds and `k` is of
    /// another.
    fn admit(&self, z: &Named<S, K>, k: Id<K>) -> Result<(), String> {
        let (classes, names) = self.classes;
        match z.admits {
            Admits::Class(c) if !classes.is_empty() && classes.get(k.index()) != Some(&c) => {
                let only = names.get(usize::from(c)).copied().unwrap_or(self.what);
                Err(format!("`{}` takes only {only}s, and `{}` is not one", z.name, (self.id)(k)))
            }
            Admits::Class(_) | Admits::Any => Ok(()),
        }
    }

    /// The zone named `name`, if this table has it.
    pub fn get(&self, name: &str) -> Option<&Named<S, K>> {
        self.zones.iter().find(|z| z.name == name)
    }

    /// The names of `whose`'s zones that set-up may set, for its messages.
    pub fn names(&self, whose: Whose) -> impl Iterator<Item = &'static str> + '_ {
        self.zones.iter().filter(move |z| z.whose() == whose && z.setup != SetUp::Read).map(|z| z.name)
    }

    /// The zone `name` of `whose`, or `None` when the table has no zone of
    /// that name (another kind's table may), or an error when it is the
    /// other's.
    fn zone_of(&self, name: &str, whose: Whose) -> Result<Option<&Named<S, K>>, String> {
        let Some(z) = self.get(name) else { return Ok(None) };
        z.settable()?;
        match z.whose() {
            w if w == whose => Ok(Some(z)),
            Whose::Seat => {
                Err(format!("`{name}` is each seat's zone: write it under `seats: {{p1: {{{name}: ...}}}}`"))
            }
            Whose::Table => Err(format!("`{name}` is the table's zone: write it under `table: {{{name}: [...]}}`")),
        }
    }

    /// One `k` taken from the first source holding one (the table's, then
    /// each seat's), in a pile of its own, to be placed elsewhere.
    pub fn pull(&self, s: &mut S, k: Id<K>) -> Result<Pile<K>, String> {
        let mut held = Pile::new();
        self.pull_into(s, k, "", None, &mut held)?;
        Ok(held)
    }

    /// `pull` into `held`, never from seat `except`'s zone `skip` nor from
    /// the table's `skip`.
    fn pull_into(
        &self,
        s: &mut S,
        k: Id<K>,
        skip: &str,
        except: Option<usize>,
        held: &mut Pile<K>,
    ) -> Result<(), String> {
        let sources = || self.zones.iter().filter(|z| z.setup == SetUp::Source);
        for z in sources().filter(|z| z.whose() == Whose::Table && z.name != skip) {
            if move_n(z.zone(s, 0)?, held, k, 1).is_ok() {
                return Ok(());
            }
        }
        let filled = self.filled.borrow();
        for seat in 0..self.seats {
            let open = |z: &&Named<S, K>| !(filled.contains(&(seat, z.name)) || z.name == skip && Some(seat) == except);
            for z in sources().filter(|z| z.whose() == Whose::Seat).filter(open) {
                if move_n(z.zone(s, seat)?, held, k, 1).is_ok() {
                    return Ok(());
                }
            }
        }
        let from: Vec<&str> = sources().map(|z| z.name).collect();
        Err(format!(
            "no {} `{}` is left to place (set-up takes them from {}, but never from a seat's zone it has set)",
            self.what,
            (self.id)(k),
            from.join(", ")
        ))
    }

    /// Replaces what seat `seat`'s zone `name` holds with `counts` (ids in
    /// the order given), an error placed under its count's place in
    /// `counts`; `Ok(false)` when this table has no such zone.
    pub fn set_seat(&self, s: &mut S, seat: usize, name: &str, counts: &[(Id<K>, u32)]) -> Result<bool, Unapplied> {
        let keyed = counts.iter().enumerate().map(|(i, &(k, n))| (PathKey::Item(i), k, n));
        self.set_keyed(s, seat, name, keyed)
    }

    /// `set_seat` with each count's error placed under its key (the one way a seat's zone is set).
    fn set_keyed(
        &self,
        s: &mut S,
        seat: usize,
        name: &str,
        counts: impl Iterator<Item = (PathKey, Id<K>, u32)>,
    ) -> Result<bool, Unapplied> {
        let Some(z) = self.zone_of(name, Whose::Seat)? else { return Ok(false) };
        self.clear_seat(s, seat, name)?;
        for (key, k, n) in counts {
            self.fill_kind(s, (seat, z), k, n).map_err(under(key))?;
        }
        self.filled.borrow_mut().push((seat, z.name));
        Ok(true)
    }

    /// Seat `seat`'s zone `name` gives back what it holds, kind by kind,
    /// to each kind's home pile; `Ok(false)` when this table has no such zone.
    pub fn clear_seat(&self, s: &mut S, seat: usize, name: &str) -> Result<bool, String> {
        let Some(z) = self.zone_of(name, Whose::Seat)? else { return Ok(false) };
        for k in Id::<K>::first(self.kinds) {
            let n = z.zone(s, seat)?.count(k);
            if n > 0 {
                // the zone and the home pile are both the state's: the
                // components go through a pile of their own between them
                let mut held = Pile::new();
                move_n(z.zone(s, seat)?, &mut held, k, n).map_err(|e| e.to_string())?;
                let home = (self.home)(s, k);
                match self.back {
                    Back::Under => move_to_bottom(&mut held, home, k, n),
                    Back::OnTop => move_n(&mut held, home, k, n),
                }
                .map_err(|e| e.to_string())?;
            }
        }
        Ok(true)
    }

    /// Seat `seat`'s zone `z` takes `n` of kind `k`, each from the first source holding one.
    fn fill_kind(&self, s: &mut S, (seat, z): (usize, &Named<S, K>), k: Id<K>, n: u32) -> Result<(), String> {
        self.admit(z, k)?;
        for _ in 0..n {
            let mut held = Pile::new();
            self.pull_into(s, k, z.name, Some(seat), &mut held)?;
            let (what, id) = (self.what, self.id);
            let full = |e| format!("{}'s {} cannot take another {what} `{}`: {e}", seat_name(seat), z.name, id(k));
            move_n(&mut held, z.zone(s, seat)?, k, 1).map_err(full)?;
        }
        Ok(())
    }

    /// Puts `ids` on top of the table's zone `name`, the first listed on
    /// top; `Ok(false)` when this table has no such zone. An error is
    /// placed under the place in `ids` of the id it concerns.
    pub fn put_on_top(&self, s: &mut S, name: &str, ids: &[Id<K>]) -> Result<bool, Unapplied> {
        let Some(z) = self.zone_of(name, Whose::Table)? else { return Ok(false) };
        for (i, &k) in ids.iter().enumerate() {
            self.admit(z, k).map_err(under(i))?;
        }
        for (i, &k) in ids.iter().enumerate().rev() {
            let mut held = self.pull(s, k).map_err(under(i))?;
            move_n(&mut held, z.zone(s, 0)?, k, 1).map_err(|e| under(i)(e.to_string()))?;
        }
        Ok(true)
    }

    /// `set_seat` with the counts a scenario writes (catalog id → count),
    /// each id read by `id`; `Ok(false)` when this table has no such zone;
    /// an error is placed under the zone's name and the id (`lumber`).
    pub fn set_written(
        &self,
        s: &mut S,
        (seat, zone): (usize, &str),
        written: &BTreeMap<String, u8>,
        id: &dyn Fn(&str) -> Result<Id<K>, String>,
    ) -> Result<bool, Unapplied> {
        let Some(_) = self.zone_of(zone, Whose::Seat).map_err(under(zone))? else { return Ok(false) };
        let mut counts = Vec::with_capacity(written.len());
        for (key, &n) in written {
            counts.push((PathKey::from(key), id(key).map_err(under(key)).map_err(under(zone))?, u32::from(n)));
        }
        self.set_keyed(s, seat, zone, counts.into_iter()).map_err(under(zone))
    }

    /// Puts on top of each of this table's zones the ids `written` lists
    /// for it (zone → catalog ids, the first on top), in the table's order
    /// (a component put on one pile is not taken again for the next); an
    /// error is placed under the zone's name and its id's place in the list.
    pub fn put_written(
        &self,
        s: &mut S,
        written: &BTreeMap<String, Vec<String>>,
        id: &dyn Fn(&str) -> Result<Id<K>, String>,
    ) -> Result<(), Unapplied> {
        for z in self.zones {
            let Some(ids) = written.get(z.name) else { continue };
            let read = |(i, key): (usize, &String)| id(key).map_err(under(i));
            let ids = ids.iter().enumerate().map(read).collect::<Result<Vec<_>, _>>().map_err(under(z.name))?;
            self.put_on_top(s, z.name, &ids).map_err(under(z.name))?;
        }
        Ok(())
    }

    /// The facts of these zones in the words of a scenario's `expect:`
    /// block, which are its set-up's: `seats.p1.hand.lumber` (how many,
    /// every kind, none held included) for each seat's zone, and for the
    /// table's `table.event-deck.fire` likewise and, where the zone keeps
    /// an order, `table.event-deck` (the ids, top first, as set-up lists
    /// them).
    pub fn facts(&self, s: &S, f: &mut Facts) {
        for z in self.zones {
            // a passing zone not there holds nothing
            let mut put = |path: String, zone: Option<&dyn Holds<K>>| {
                for k in Id::<K>::first(self.kinds) {
                    f.set(format!("{path}.{}", (self.id)(k)), zone.map_or(0, |z| z.count(k)));
                }
                match zone.map(|z| z.order()) {
                    Some(Some(order)) => {
                        f.set(path, order.iter().rev().map(|&k| (self.id)(k)).collect::<Vec<_>>());
                    }
                    None => {
                        f.set(path, Vec::<String>::new());
                    }
                    Some(None) => {}
                }
            };
            match z.lies {
                Lies::Seat { .. } => {
                    (0..self.seats).for_each(|i| put(format!("seats.{}.{}", seat_name(i), z.name), z.read(s, i)))
                }
                Lies::Each { len, .. } => {
                    (0..len(s)).for_each(|i| put(format!("table.{}.{}", z.name, i + 1), z.read(s, i)))
                }
                Lies::Table { .. } | Lies::Passing { .. } => put(format!("table.{}", z.name), z.read(s, 0)),
            }
        }
    }
}

/// What an `expect:` block says of the seats' zones, in their set-up
/// words: seat → zone → catalog id → how many (ids not named are not checked).
pub type SeatZones = BTreeMap<String, BTreeMap<String, BTreeMap<String, u32>>>;

/// What an `expect:` block says of one of the table's zones.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum TableZone {
    /// How many components it holds.
    Size(u32),
    /// Exactly what it holds, top first, as set-up lists it (a zone kept in order).
    Exactly(Vec<String>),
    /// Catalog id → how many (ids not named are not checked).
    Counts(BTreeMap<String, u32>),
}

impl<'de> Deserialize<'de> for TableZone {
    /// Any of the three shapes, with one message naming them all.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<TableZone, D::Error> {
        struct Shapes;
        impl<'de> serde::de::Visitor<'de> for Shapes {
            type Value = TableZone;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("how many it holds (`3`), exactly what it holds, top first (`[fire, lumber]`), or how many of some ids (`{fire: 2}`)")
            }
            fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<TableZone, E> {
                u32::try_from(n).map(TableZone::Size).map_err(|_| E::custom(format!("{n} is more than a zone holds")))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, a: A) -> Result<TableZone, A::Error> {
                Vec::deserialize(serde::de::value::SeqAccessDeserializer::new(a)).map(TableZone::Exactly)
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, a: A) -> Result<TableZone, A::Error> {
                BTreeMap::deserialize(serde::de::value::MapAccessDeserializer::new(a)).map(TableZone::Counts)
            }
        }
        d.deserialize_any(Shapes)
    }
}

/// The error for a zone none of a game's tables has: the names it may set.
pub fn unknown_zone(name: &str, whose: Whose, names: &[&str]) -> String {
    let of = match whose {
        Whose::Seat => "a seat's zones",
        Whose::Table => "the table's zones",
    };
    format!("unknown zone `{name}`; {of}: {}", names.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::zones::fixture::{Card, Table, card};

    const ZONES: &[Named<Table, Card>] = &[
        Named::new("row", SetUp::Set, lies!(table(t) => t.row)),
        Named::new("deck", SetUp::Source, lies!(table(t) => t.deck)),
        Named::new("hand", SetUp::Source, lies!(seat(t, s) => t.hands[s])),
    ];

    fn deck(t: &mut Table, _: Id<Card>) -> &mut Pile<Card> {
        &mut t.deck
    }

    fn name(k: Id<Card>) -> String {
        format!("c{}", k.index())
    }

    fn zones() -> Zones<'static, Table, Card> {
        Zones::new(ZONES, "card", (2, 2), &name, &deck, Back::Under)
    }

    #[test]
    fn set_up_moves_every_card_and_takes_from_the_sources_in_order() {
        let mut t = Table::new(&[1, 1], 2);
        let z = zones();
        // p1 takes both cards from the deck
        assert_eq!(z.set_seat(&mut t, 0, "hand", &[(card(0), 1), (card(1), 1)]), Ok(true));
        assert_eq!((t.deck.len(), t.hands[0].total()), (0, 2));
        // p2 may not take card 1 from p1's hand, which this set-up has set
        let never = "set-up takes them from deck, hand, but never from a seat's zone it has set";
        let e = z.set_seat(&mut t, 1, "hand", &[(card(1), 1)]).unwrap_err();
        assert_eq!((e.path, e.message), (vec![PathKey::Item(0)], format!("no card `c1` is left to place ({never})")));
        assert_eq!((t.hands[0].total(), t.hands[1].total()), (2, 0));
        // p1's hand set anew gives both cards back to the deck and takes card 0 again
        assert_eq!(z.set_seat(&mut t, 0, "hand", &[(card(0), 1)]), Ok(true));
        assert_eq!((t.deck.len(), t.hands[0].count(card(0))), (1, 1));
        // p2 takes card 1 from the deck; then a seat not set is a source
        assert_eq!(z.set_seat(&mut t, 1, "hand", &[(card(1), 1)]), Ok(true));
        let unset = Zones { filled: RefCell::default(), ..zones() };
        assert_eq!(unset.put_on_top(&mut t, "row", &[card(1)]), Ok(true));
        assert_eq!((t.hands[1].total(), t.row.top()), (0, Some(card(1))));
        // nothing is left: the message names the sources
        // (the last listed is put first: the error is its, at its place)
        let e = z.put_on_top(&mut t, "row", &[card(0), card(0)]).unwrap_err();
        assert_eq!((e.path, e.message), (vec![PathKey::Item(1)], format!("no card `c0` is left to place ({never})")));
        // a table word for a seat's zone, a name another table may have
        let e = z.put_on_top(&mut t, "hand", &[card(0)]).unwrap_err();
        assert!(e.path.is_empty() && e.message.contains("`seats: {p1: {hand: ...}}`"), "{e:?}");
        assert_eq!(z.set_seat(&mut t, 0, "permits", &[]), Ok(false));
    }

    /// A row that admits the second kind only, and hands that admit the first.
    const CLASSED: &[Named<Table, Card>] = &[
        Named::only(1, "row", SetUp::Set, lies!(table(t) => t.row)),
        Named::new("deck", SetUp::Source, lies!(table(t) => t.deck)),
        Named::only(0, "hand", SetUp::Source, lies!(seat(t, s) => t.hands[s])),
    ];

    #[test]
    fn set_up_puts_in_a_zone_of_one_class_only_its_kinds() {
        let mut t = Table::new(&[1, 1], 2);
        let z = Zones::new(CLASSED, "card", (2, 2), &name, &deck, Back::Under).admitting(&[0, 1], &["low card"]);
        // refused before anything moves, named in the class's words (or
        // the table's, for a class without a name)
        let e = z.put_on_top(&mut t, "row", &[card(1), card(0)]).unwrap_err();
        assert_eq!(
            (e.path, e.message.as_str()),
            (vec![PathKey::Item(1)], "`row` takes only cards, and `c0` is not one")
        );
        let e = z.set_seat(&mut t, 0, "hand", &[(card(1), 1)]).unwrap_err();
        assert_eq!(e.message, "`hand` takes only low cards, and `c1` is not one");
        assert_eq!((t.deck.len(), t.row.len(), t.hands[0].total()), (2, 0, 0));
        assert_eq!(z.put_on_top(&mut t, "row", &[card(1)]), Ok(true));
        assert_eq!(z.set_seat(&mut t, 0, "hand", &[(card(0), 1)]), Ok(true));
        // without the classes, set-up puts any kind anywhere
        let mut t = Table::new(&[1, 1], 2);
        let lax = Zones::new(CLASSED, "card", (2, 2), &name, &deck, Back::Under);
        assert_eq!(lax.put_on_top(&mut t, "row", &[card(0)]), Ok(true));
    }

    #[test]
    fn the_first_listed_ends_on_top() {
        let mut t = Table::new(&[1, 1], 2);
        let z = zones();
        assert_eq!(z.put_on_top(&mut t, "row", &[card(1), card(0)]), Ok(true));
        assert_eq!(t.row.top(), Some(card(1)));
        assert_eq!(t.deck.len(), 0);
    }
}
