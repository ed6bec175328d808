//! Scenario files for Dodge City: set-up overrides, actions and
//! expectations written with catalog ids and square names (`c2r1`: column
//! 2, row 1 of the building's grid), and the state in words.

use std::collections::BTreeMap;
use std::rc::Rc;

use serde::{Deserialize, Serialize};

use super::rules_data::*;
use super::state::{Action, Pending, Phase, State, SymbolAt};
use crate::engine::{
    Back, Chance, Facts, Game, Id, Ledger, Lies, Lookup, MoveError, Named, Scripted, Seat, SeatZones, SetUp, TableZone,
    Unapplied, Whose, Written, Zones, seat_name, seat_of, under, unknown_zone,
};
use crate::lang::{CatalogIds, each_seat, id_named};

/// Set-up overrides, applied after the deal.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SetupSpec {
    /// The start player.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    /// `marshal` (the default), `place-1`, `place-2` or `duel`, at `turn`'s turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<String>,
    /// Each seat's zones (`hand`), replacing the dealt ones: seat → zone
    /// → card → count. Every zone named gives back its cards (on top of
    /// the deck) before any takes its new ones, which come from the deck
    /// first, then the discard pile, then another seat's hand.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub seats: BTreeMap<String, BTreeMap<String, BTreeMap<String, u8>>>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub money: BTreeMap<String, u32>,
    /// Discs already won (symbol ids); points follow from them.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub discs: BTreeMap<String, Vec<String>>,
    /// Building → symbol.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub symbols: BTreeMap<String, String>,
    /// Building → seat → squares with his tokens, each taken from his
    /// supply and put on an empty square.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub tokens: BTreeMap<String, BTreeMap<String, Vec<String>>>,
    /// The table's zones (`deck`, `discard`, `event-deck`,
    /// `event-discard`): zone → cards put on top, the first listed on top
    /// (a deck's is drawn first).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub table: BTreeMap<String, Vec<String>>,
}

/// What a scenario expects at its end.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub money: BTreeMap<String, i64>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub points: BTreeMap<String, u32>,
    /// Tokens in town per seat.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub tokens: BTreeMap<String, u32>,
    /// Tokens beside the board per seat.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub supply: BTreeMap<String, u32>,
    /// Debt carried per seat.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub carried: BTreeMap<String, u32>,
    /// Building → square → `p1` or `none`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub squares: BTreeMap<String, BTreeMap<String, String>>,
    /// Building → its symbol, `none`, or `closed`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub buildings: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<String>,
    /// What the game waits for, in the words of `waiting_words` (`p1 to
    /// sell tokens`, `p2 to take the duel loser's token`): where two
    /// readings part at a decision, before any step could differ.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub waiting: Option<String>,
    /// Each seat's zones in the words of the set-up: seat → `hand` → card
    /// → how many (cards not named are not checked).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub seats: SeatZones,
    /// The table's zones in the words of the set-up (`deck`, `discard`,
    /// `event-deck`, `event-discard`, and `face-down`, the Marshal round's
    /// cards, which only play fills): how many they hold, exactly what
    /// (top first), or how many of the ids named.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub table: BTreeMap<String, TableZone>,
}

pub fn card(r: &Rules, id: &str) -> Result<CardId, String> {
    id_named("card", r.cards.iter().map(|c| &c.id), id)
}
pub fn building(r: &Rules, id: &str) -> Result<Bld, String> {
    id_named("building", r.buildings.iter().map(|c| &c.id), id)
}
pub fn symbol(r: &Rules, id: &str) -> Result<Sym, String> {
    id_named("symbol", r.symbols.iter().map(|c| &c.id), id)
}
fn event(r: &Rules, id: &str) -> Result<Ev, String> {
    id_named("event", r.events.iter().map(|c| &c.id), id)
}
fn square(def: &BuildingDef, at: &str) -> Result<Sq, String> {
    def.square_named(at).ok_or_else(|| format!("`{at}` is no square of the {} (write c<column>r<row>)", def.name))
}
/// The catalog ids Dodge City's actions are written with; a square is
/// named within its building (`c2r1`).
pub fn names(r: &Rules) -> Rc<dyn Lookup> {
    let defs = r.buildings.clone();
    let named = defs.clone();
    CatalogIds::default()
        .kind::<kind::Card, _>("card", r.cards.iter().map(|c| &c.id))
        .kind::<kind::Building, _>("building", r.buildings.iter().map(|c| &c.id))
        .within::<kind::Square>(
            move |b, sq| Some(defs.get(b)?.square_name(Id::new(sq).ok()?)),
            move |b, at| {
                let def = named.get(b).ok_or_else(|| format!("`{at}` is no square"))?;
                square(def, at).map(Id::index)
            },
        )
        .kind::<crate::lang::declared::ActKind, _>("declared action", r.actions.iter().map(|a| &a.id))
        .options(&r.choices)
        .shared()
}

// How a building and a square of it are written (a doc comment here would
// enter the schema).
#[derive(Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(inline)]
pub struct At {
    building: String,
    at: String,
}

/// A building and a square of it (`Place { building, square }`), written
/// `{building: saloon, at: c2r1}`.
pub mod at {
    use serde::de::Error as _;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::{At, Bld, Sq};
    use crate::engine::names::{id_named, id_within, name_of, name_within};

    pub fn serialize<S: Serializer>(b: &Bld, sq: &Sq, s: S) -> Result<S::Ok, S::Error> {
        At { building: name_of(*b), at: name_within(*b, *sq) }.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<(Bld, Sq), D::Error> {
        let at = At::deserialize(d)?;
        let b = id_named(&at.building).map_err(D::Error::custom)?;
        Ok((b, id_within(b, &at.at).map_err(D::Error::custom)?))
    }
}

/// Every card zone, in the order set-up sets the table's and looks for a
/// card in the sources (the deck, the discard pile, then the hands); the
/// conservation invariant adds them all up.
pub(super) const CARD_ZONES: &[Named<State, kind::Card>] = &[
    Named::new("deck", SetUp::Source, crate::lies!(table(s) => s.deck)),
    Named::new("discard", SetUp::Source, crate::lies!(table(s) => s.discard)),
    // the Marshal round's cards, face down until every seat has chosen
    Named::new("face-down", SetUp::Read, crate::lies!(table(s) => s.table)),
    Named::new("hand", SetUp::Source, crate::lies!(seat(s, i) => s.seats[i].hand)),
];

/// Every event card zone, likewise.
pub(super) const EVENT_ZONES: &[Named<State, kind::EventCard>] = &[
    Named::new("event-deck", SetUp::Source, crate::lies!(table(s) => s.events)),
    Named::new("event-discard", SetUp::Source, crate::lies!(table(s) => s.event_discard)),
];

/// Every token zone: each seat's beside the board and out of the game,
/// and each building's squares (every token of its owner's colour). Read
/// only: set-up's `tokens:` places them from the seats' supplies; only the
/// conservation invariant adds them up (the facts say `supply`, `out` and
/// `squares`).
pub(super) const TOKEN_ZONES: &[Named<State, kind::Token>] = &[
    Named::new("supply", SetUp::Read, crate::lies!(seat(s, i) => s.seats[i].supply)),
    Named::new("out", SetUp::Read, crate::lies!(seat(s, i) => s.seats[i].out)),
    Named::new(
        "town",
        SetUp::Read,
        Lies::Each { len: |s| s.town.len(), read: |s, b| &s.town[b].tokens, watched: None },
    ),
];

/// The conservation checks' parts, each kept zone by zone with the zone's
/// stamp (`engine::conserved`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Conserved {
    pub cards: Ledger<kind::Card, ()>,
    pub events: Ledger<kind::EventCard, ()>,
    pub tokens: Ledger<kind::Token, ()>,
}

/// Dodge City's zones of cards and of event cards, handed to `f`: what a
/// seat's zone gives back goes on top of its deck.
fn with_zones<T>(
    r: &Rules,
    seats: usize,
    f: impl FnOnce(&Zones<'_, State, kind::Card>, &Zones<'_, State, kind::EventCard>) -> T,
) -> T {
    let (card_id, event_id) = (|c: CardId| r.cards[c.index()].id.clone(), |e: Ev| r.events[e.index()].id.clone());
    let cards = Zones::new(CARD_ZONES, "card", (r.cards.len(), seats), &card_id, &|s, _| &mut s.deck, Back::OnTop);
    let events =
        Zones::new(EVENT_ZONES, "event card", (r.events.len(), seats), &event_id, &|s, _| &mut s.events, Back::OnTop);
    f(&cards, &events)
}

/// The zones a set-up names: every seat's named zone gives back its cards
/// (on top of the deck) before any takes its new ones, so one seat's new
/// cards may come from another's old hand; then the table's piles, in the
/// tables' order.
fn set_zones(st: &mut State, r: &Rules, s: &SetupSpec) -> Result<(), Unapplied> {
    with_zones(r, st.players, |cards, events| {
        let unknown = |zone: &str, whose| {
            let names: Vec<&str> = cards.names(whose).chain(events.names(whose)).collect();
            under(zone)(unknown_zone(zone, whose, &names))
        };
        each_seat(&s.seats, st.players, |seat, zones| {
            for zone in zones.keys() {
                let cleared =
                    cards.clear_seat(st, seat, zone).and_then(|c| Ok(c || events.clear_seat(st, seat, zone)?));
                if !cleared.map_err(under(zone))? {
                    return Err(unknown(zone, Whose::Seat));
                }
            }
            Ok(())
        })
        .map_err(under("seats"))?;
        // each zone is empty now: setting it gives nothing back
        each_seat(&s.seats, st.players, |seat, zones| {
            for (zone, ids) in zones {
                cards.set_written(st, (seat, zone), ids, &|c| card(r, c))?;
            }
            Ok(())
        })
        .map_err(under("seats"))?;
        if let Some(zone) = s.table.keys().find(|z| cards.get(z).is_none() && events.get(z).is_none()) {
            return Err(unknown(zone, Whose::Table).under("table"));
        }
        cards.put_written(st, &s.table, &|c| card(r, c)).map_err(under("table"))?;
        events.put_written(st, &s.table, &|e| event(r, e)).map_err(under("table"))
    })
}

/// Building `id`'s tokens: seat → squares, each token taken from the
/// seat's supply and put on an empty square.
fn set_tokens(st: &mut State, r: &Rules, id: &str, seats: &BTreeMap<String, Vec<String>>) -> Result<(), Unapplied> {
    let b = building(r, id)?;
    each_seat(seats, st.players, |seat, squares| {
        for (i, a) in squares.iter().enumerate() {
            let sq = square(r.building(b), a).map_err(under(i))?;
            let tokens = &mut st.town[b.index()].tokens;
            tokens.put_slot(sq.index(), &mut st.seats[seat].supply, colour(seat)).map_err(|e| {
                under(i)(match e {
                    MoveError::Short { .. } => format!("p{} has no tokens left to place", seat + 1),
                    _ => format!("{a} of the {} is already taken", r.building(b).name),
                })
            })?;
        }
        Ok(())
    })
}

pub fn phase_name(st: &State) -> String {
    if st.over.is_some() {
        return "over".to_string();
    }
    match st.phase {
        Phase::Marshal => "marshal".to_string(),
        Phase::Place { round, .. } => format!("place-{round}"),
        Phase::Duel { .. } => "duel".to_string(),
    }
}

/// Every fact a Dodge City expectation can name: what `check_expect`
/// compares and where `diff` says two games part.
pub fn facts(st: &State, r: &Rules) -> Facts {
    let (n, seat) = (st.players, |o: Option<u8>| o.map_or_else(|| "none".to_string(), |o| seat_name(o.into())));
    let mut f = Facts::new();
    f.set("phase", phase_name(st)).set("start", seat_name(st.start));
    f.per_seat("money", n, |s| i64::from(st.seats[s].money.value()));
    f.per_seat("points", n, |s| st.seats[s].points).per_seat("tokens", n, |s| st.tokens_in_town(s));
    f.per_seat("supply", n, |s| st.seats[s].supply.count()).per_seat("carried", n, |s| st.seats[s].carried);
    for b in Id::first(r.buildings.len()) {
        let (def, town) = (r.building(b), &st.town[b.index()]);
        for sq in def.grid.squares() {
            f.set(format!("squares.{}.{}", def.id, def.square_name(sq)), seat(town.owner(sq.index())));
        }
        f.set(format!("buildings.{}", def.id), building_word(st, r, b));
    }
    f.set("waiting", waiting_words(st, r));
    f.set("outcome", st.outcome(r).map_or_else(|| "ongoing".to_string(), |o| o.to_string()));
    with_zones(r, n, |cards, events| {
        cards.facts(st, &mut f);
        events.facts(st, &mut f);
    });
    f
}

/// What the game waits for next, in words: the seat and its decision.
pub fn waiting_words(st: &State, r: &Rules) -> String {
    if st.over.is_some() {
        return "nobody: the game is over".to_string();
    }
    if let Some((debtor, _)) = st.debts.first() {
        return format!("p{} to sell tokens", debtor + 1);
    }
    match st.pending.first() {
        Some(&p) => {
            let what = match p {
                Pending::Open { .. } => "to choose the building for the picture card",
                Pending::Free { .. } => "to place the picture card's tokens",
                Pending::Indio { .. } => "to make the Indio's removals",
                Pending::Take { .. } => "to take the duel loser's token",
                Pending::Choose { .. } => "to choose the event's effect",
            };
            format!("p{} {what}", st.pending_seat(p) + 1)
        }
        None => st.waiting_for(r),
    }
}

fn building_word(st: &State, r: &Rules, b: Bld) -> String {
    let t = &st.town[b.index()];
    match (t.closed, t.symbol) {
        (true, _) => "closed".to_string(),
        (false, Some(s)) => r.symbol(s).id.clone(),
        (false, None) => "none".to_string(),
    }
}

/// The state in words; `seat` is the viewer (`None`: everything).
pub fn describe_view(st: &State, r: &Rules, seat: Option<Seat>) -> String {
    let mut out = format!("round {}, {}, start player p{}\n", st.round, phase_name(st), st.start + 1);
    // what a phase line cannot say: the result, or a decision under way
    if let Some(o) = st.outcome(r) {
        out.push_str(&format!("outcome: {o}\n"));
    } else if !st.pending.is_empty() || !st.debts.is_empty() {
        out.push_str(&format!("waiting for {}\n", waiting_words(st, r)));
    }
    for (s, p) in st.seats.iter().enumerate() {
        let hand = if seat.is_none_or(|v| v == s) {
            let cards: Vec<String> =
                p.hand.iter().filter(|(_, n)| *n > 0).map(|(c, n)| format!("{} x{n}", r.card(c).id)).collect();
            format!("hand [{}]", cards.join(", "))
        } else {
            format!("{} cards in hand", p.hand.total())
        };
        let picked = match (p.picked, seat.is_none_or(|v| v == s)) {
            (Some(c), true) => format!(", chose {}", r.card(c).id),
            (Some(_), false) => ", has chosen".to_string(),
            (None, _) => String::new(),
        };
        out.push_str(&format!(
            "p{}: ${}, {} points, {} tokens in town, {} beside the board{}; {hand}{picked}\n",
            s + 1,
            p.money.value(),
            p.points,
            st.tokens_in_town(s),
            p.supply.count(),
            if p.carried > 0 { format!(", owes ${}", p.carried) } else { String::new() },
        ));
    }
    for (b, t) in st.town.iter().enumerate().filter(|(_, t)| t.in_play) {
        let def = &r.buildings[b];
        let b = Id::new(b).unwrap_or(Bld::ZERO);
        let mut rows = Vec::new();
        let (cols, _) = def.grid.position(Id::new(def.grid.squares().len().saturating_sub(1)).unwrap_or(Sq::ZERO));
        let mut row = String::new();
        for s in def.grid.squares() {
            row.push(match (def.grid.field(s), t.owner(s.index())) {
                (_, Some(o)) => char::from(b'1' + o),
                (SPECIAL, None) => '*',
                (NO_SQUARE, None) => ' ',
                _ => '.',
            });
            if def.grid.position(s).0 == cols {
                rows.push(std::mem::take(&mut row));
            }
        }
        out.push_str(&format!("  {} ({}): {}\n", def.name, building_word(st, r, b), rows.join(" | ")));
    }
    out
}

impl Scripted for State {
    type Setup = SetupSpec;
    type ActionSpec = Written<Action>;
    type Expect = Expect;

    fn apply_setup(&mut self, r: &Rules, s: &SetupSpec) -> Result<(), Unapplied> {
        let st = self;
        let n = st.players;
        set_zones(st, r, s)?;
        let hand = st.param(super::readings::P::Hand);
        for p in &mut st.seats {
            p.played = hand.saturating_sub(p.hand.total());
        }
        each_seat(&s.money, n, |seat, dollars| {
            let money = st.seats[seat].money.set(i32::try_from(*dollars).unwrap_or(i32::MAX));
            Ok(money.map_err(|e| e.to_string())?)
        })
        .map_err(under("money"))?;
        each_seat(&s.discs, n, |seat, discs| {
            for (i, d) in discs.iter().enumerate() {
                let sym = symbol(r, d).map_err(under(i))?;
                let left = &mut st.discs_left[sym.index()];
                *left = left.checked_sub(1).ok_or_else(|| under(i)(format!("no {d} disc is left")))?;
                st.seats[seat].discs.push(sym);
                st.seats[seat].points += r.symbol(sym).points;
            }
            Ok(())
        })
        .map_err(under("discs"))?;
        for (b, sym) in &s.symbols {
            let read = || Ok::<_, String>((building(r, b)?, symbol(r, sym)?));
            let (b, sym) = read().map_err(under(b)).map_err(under("symbols"))?;
            st.town[b.index()].symbol = Some(sym);
            st.symbols[sym.index()] = SymbolAt::On(b);
        }
        for (id, seats) in &s.tokens {
            set_tokens(st, r, id, seats).map_err(under(id)).map_err(under("tokens"))?;
        }
        if let Some(start) = &s.start {
            st.start = seat_of(start, n).map_err(under("start"))?;
        }
        let turn = match &s.turn {
            Some(t) => {
                let seat = seat_of(t, n).map_err(under("turn"))?;
                (0..n).position(|i| st.seat_at(i) == seat).unwrap_or(0) as u8
            }
            None => 0,
        };
        st.phase = match s.phase.as_deref() {
            // the round as dealt, at its first step
            None => return Ok(()),
            Some("marshal") => Phase::Marshal,
            Some("place-1") => Phase::Place { round: 1, turn, carded: false },
            Some("place-2") => Phase::Place { round: 2, turn, carded: false },
            Some("duel") => Phase::Duel { turn },
            Some(other) => {
                let known = "phases: marshal, place-1, place-2, duel";
                return Err(under("phase")(format!("unknown phase `{other}`; {known}")));
            }
        };
        st.place_cursor().map_err(under("phase"))
    }

    fn action_from_spec(r: &Rules, spec: &Written<Action>) -> Result<Action, Unapplied> {
        spec.read(&names(r))
    }
    fn action_to_spec(r: &Rules, a: &Action) -> Written<Action> {
        Written::of(*a, names(r))
    }

    fn record_expect(&self, r: &Rules) -> Expect {
        self.facts(r).record(&["phase", "start", "money", "points", "tokens", "supply", "outcome"])
    }

    fn facts(&self, r: &Rules) -> Facts {
        facts(self, r)
    }
    fn describe_state(&self, r: &Rules) -> String {
        describe_view(self, r, None)
    }
    fn pending_decision(&self) -> Option<(Seat, &'static str)> {
        None
    }
    fn chance(&mut self) -> Option<&mut Chance> {
        Some(&mut self.chance)
    }
}
