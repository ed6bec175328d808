//! Dry Gulch's part of the effect language (`crate::lang`): what only this
//! game has. Operations `damage`, `take_random` and `give` (run with their
//! decisions in `rules::takes`), `draw_permit` (a `draw` from the permit
//! deck) and `draw_per_point_behind`; the cards a `move` may name;
//! selectors `target-owner`, `leaders` and `owner:<building>` (read
//! through the `damaged-transfers` reading), and `discard` as a
//! destination; conditions `built`, `intact` and `owned_by_active`;
//! measures `hand`, `permits`, `influence`; decks `resources` and `permits`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::readings::*;
use super::rules::{Damage, Decision, Dest, Event, Fault, Placed, State, Step};
use super::rules_data::*;
use crate::engine::{move_n, move_tagged, moved};
use crate::lang::{
    self, Args, Compiler, Host, Lang, Node, OpDef, Param, Report, Sel, Ty, Word, World, no_check, opt, req,
};

/// Dry Gulch in the effect language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Dg {}

/// A pending step of a Dry Gulch effect: a shared one or the game's own.
pub type Queued = lang::Step<Dg>;

/// Dry Gulch's selectors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum DgSel {
    /// The owner of the event's target.
    TargetOwner,
    /// The players with the most counted (or on-board) influence.
    Leaders,
    /// The owner of a building.
    Owner(Bld),
    /// The discard pile (a destination only).
    Discard,
}

/// Dry Gulch's conditions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum DgCond {
    /// The building stands on the board (damaged or not).
    Built(Bld),
    /// The building stands and is not damaged.
    Intact(Bld),
    /// The building is owned by the active player.
    OwnedByActive(Bld),
}

/// What a `count` may measure of a player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Measure {
    Hand,
    Permits,
    Influence,
}

/// The decks a `draw` may name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Deck {
    Resources,
    Permits,
}

impl Lang for Dg {
    type Sel = DgSel;
    type Cond = DgCond;
    type Measure = Measure;
    type Deck = Deck;
    type Card = CardKind;
    type Flag = Flag;
    type Source = CardKind;
    type Step = Step;
    type Decision = Decision;
    type Rules = Rules;
    type Event = Event;
    type State = State;
    fn operations() -> Vec<OpDef<Dg>> {
        vec![
            OpDef { name: DAMAGE, params: &[], bare: None, check: check_damage, expand: expand_damage },
            OpDef { name: "take_random", params: TAKE, bare: None, check: check_take, expand: expand_take },
            OpDef { name: "give", params: GIVE, bare: None, check: check_take, expand: expand_give },
            OpDef { name: "draw_permit", params: DRAW_PERMIT, bare: None, check: no_check, expand: expand_draw_permit },
            OpDef {
                name: "draw_per_point_behind",
                params: PER_POINT,
                bare: None,
                check: no_check,
                expand: expand_per_point,
            },
        ]
    }
}

/// The operation that damages the target (what spreading fire leaves out).
pub const DAMAGE: &str = "damage";

const TAKE: &[Param] = &[
    req("from", Ty::Selector),
    req("to", Ty::Destination),
    req("count", Ty::Count),
    opt("tie_count", Ty::Count),
    opt("insurable", Ty::Bool),
];
const GIVE: &[Param] = &[req("from", Ty::Selector), req("to", Ty::Destination), req("count", Ty::Count)];
const DRAW_PERMIT: &[Param] = &[req("to", Ty::Selector), req("count", Ty::Count)];
const PER_POINT: &[Param] = &[req("per_point", Ty::Count)];

// ------------------------------------------------------------ operations

/// Damage the target building: marker on it, card in front of its owner.
fn check_damage(cx: &mut Compiler<'_, Dg>, _: &mut Args<Dg>, at: (u64, u64)) {
    if !cx.has_target {
        cx.error(at, "`damage` needs the event to have a `target`");
    }
}

fn expand_damage(st: &mut State, _: &Rules, _: &Args<Dg>, card: CardKind) {
    if let Some(plot) = st.target {
        st.agenda.queue.push_back(Queued::Game(Step::Damage { plot, card }));
    }
}

fn several(s: Option<Sel<Dg>>) -> bool {
    matches!(s, Some(Sel::EachPlayer | Sel::EachOtherPlayer | Sel::Game(DgSel::Leaders)))
}

/// `to` draws `count` random cards from the hand of `from`. With several
/// leaders, each loses `tie_count` instead (when given). A Fire Insurance
/// discarded by the victim prevents an `insurable` loss.
fn check_take(cx: &mut Compiler<'_, Dg>, a: &mut Args<Dg>, at: (u64, u64)) {
    let (from, to) = (a.sel("from"), a.sel("to"));
    if several(from) && several(to) {
        cx.error(at, "`from` and `to` cannot both name several players");
    }
    if a.count("tie_count").is_some() && from != Some(Sel::Game(DgSel::Leaders)) {
        cx.error(at, "`tie_count` only applies when taking from `leaders`");
    }
}

fn expand_take(st: &mut State, rules: &Rules, a: &Args<Dg>, _: CardKind) {
    transfer(st, rules, a, false);
}

/// `from` picks `count` cards of his hand and gives them to `to` (one
/// decision per card). Not a draw: no Fire Insurance, I.O.U. or Ace answers
/// it. A giver or receiver that is a building not built is read as for
/// `take_random`.
fn expand_give(st: &mut State, rules: &Rules, a: &Args<Dg>, _: CardKind) {
    transfer(st, rules, a, true);
}

/// The steps of a `take_random` (random cards, with reactions) or, when
/// `chosen`, of a `give` (the giver picks).
fn transfer(st: &mut State, rules: &Rules, a: &Args<Dg>, chosen: bool) {
    let (Some(from), Some(to), Some(count)) = (a.sel("from"), a.sel("to"), a.count("count")) else { return };
    let froms = lang::seats::<Dg>(st, rules, from);
    let tos = lang::seats::<Dg>(st, rules, to);
    let n = match a.count("tie_count") {
        Some(t) if froms.len() > 1 => t,
        _ => count,
    };
    let insurable = a.flag("insurable");
    for f in &froms {
        for t in &tos {
            let dest = match (t, to) {
                (_, Sel::Game(DgSel::Discard)) => Some(Dest::Discard),
                (Some(s), _) => Some(Dest::Seat(*s)),
                (None, _) => None,
            };
            let take = |from, to| match chosen {
                true => Queued::Game(Step::Give { from, to, left: n }),
                false => Queued::Game(Step::Take { from, to, count: n, insurable, stage: 0, protect: None }),
            };
            // a loss to oneself, as self-transfer reads it
            let to_self = matches!((f, dest), (Some(f), Some(Dest::Seat(t))) if *f == t);
            let discarded = to_self && st.r::<SelfTransfer>() == SelfTransfer::Discards;
            let q = &mut st.agenda.queue;
            match (f, dest) {
                (Some(f), _) if discarded => q.push_back(take(*f, Dest::Discard)),
                (Some(_), _) if to_self => {}
                (Some(f), Some(d)) => q.push_back(take(*f, d)),
                // losing cards to a building not built: discard them
                (Some(f), None) => q.push_back(take(*f, Dest::Discard)),
                // receiving from a building not built: draw from the deck
                (None, Some(Dest::Seat(t))) => q.push_back(Queued::Draw { deck: Deck::Resources, seat: t, count: n }),
                (None, _) => {}
            }
        }
    }
}

/// The party draws `count` permits from the deck (lapses when empty).
fn expand_draw_permit(st: &mut State, rules: &Rules, a: &Args<Dg>, _: CardKind) {
    let (Some(to), Some(count)) = (a.sel("to"), a.count("count")) else { return };
    lang::queue_each::<Dg>(st, rules, to, |seat| Queued::Draw { deck: Deck::Permits, seat, count });
}

/// Each player draws `per_point` resource cards per influence point by
/// which they trail the leader.
fn expand_per_point(st: &mut State, rules: &Rules, a: &Args<Dg>, _: CardKind) {
    let per_point = a.count("per_point").unwrap_or(0);
    let best = (0..st.players).map(|s| st.leader_measure(rules, s)).max().unwrap_or(0);
    for s in st.seats_from_active().collect::<Vec<_>>() {
        let behind = best - st.leader_measure(rules, s);
        if behind > 0 {
            st.agenda.queue.push_back(Queued::Draw { deck: Deck::Resources, seat: s, count: behind * per_point });
        }
    }
}

// ------------------------------------------------------------ compiling

/// The catalog's buildings and cards, for Dry Gulch's selectors and
/// conditions (`target-owner` needs the entry compiled to have a target).
pub struct DgHost<'a> {
    pub buildings: &'a BTreeMap<String, Bld>,
    pub cards: &'a BTreeMap<String, CardKind>,
}

impl DgHost<'_> {
    fn building(&self, w: &Word, r: &mut Report<'_>) -> Bld {
        lang::named(self.buildings, "building", w, r).unwrap_or(Bld::ZERO)
    }
}

impl Host<Dg> for DgHost<'_> {
    fn selector(&self, w: &Word, destination: bool, r: &mut Report<'_>) -> Option<DgSel> {
        let sel = match w.text.as_str() {
            "target-owner" => DgSel::TargetOwner,
            "leaders" => DgSel::Leaders,
            "discard" if destination => DgSel::Discard,
            v => {
                let b = v.strip_prefix("owner:")?;
                // point at the building id itself, past `owner:` and any opening quote
                let (line, col) = w.at;
                let quoted = (r.text.lines().nth(line.saturating_sub(1) as usize))
                    .and_then(|l| l.chars().nth(col.saturating_sub(1) as usize))
                    .is_some_and(|c| c == '"' || c == '\'');
                let at = (line, col + "owner:".len() as u64 + u64::from(quoted));
                DgSel::Owner(self.building(&Word { text: b.to_string(), at }, r))
            }
        };
        Some(sel)
    }
    fn needs_target(&self, sel: DgSel) -> bool {
        sel == DgSel::TargetOwner
    }
    fn selector_names(&self, destination: bool) -> &'static [&'static str] {
        if destination {
            &["target-owner", "leaders", "owner:<building>", "discard"]
        } else {
            &["target-owner", "leaders", "owner:<building>"]
        }
    }
    fn cond(&self, name: &Word, arg: &Node, r: &mut Report<'_>) -> Option<DgCond> {
        let make: fn(Bld) -> DgCond = match name.text.as_str() {
            "built" => DgCond::Built,
            "intact" => DgCond::Intact,
            "owned_by_active" => DgCond::OwnedByActive,
            _ => return None,
        };
        match arg.word() {
            Some(w) => Some(make(self.building(&w, r))),
            None => {
                r.error(arg.at, format!("`{}` takes a building id, found {}", name.text, arg.value.kind()));
                Some(make(Bld::ZERO))
            }
        }
    }
    fn cond_names(&self) -> &'static [&'static str] {
        &["built", "intact", "owned_by_active"]
    }
    fn measures(&self) -> &'static [(&'static str, Measure)] {
        &[("hand", Measure::Hand), ("permits", Measure::Permits), ("influence", Measure::Influence)]
    }
    fn decks(&self) -> &'static [(&'static str, Deck)] {
        &[("resources", Deck::Resources), ("permits", Deck::Permits)]
    }
    fn card(&self, w: &Word, r: &mut Report<'_>) -> Option<CardKind> {
        lang::named(self.cards, "card", w, r)
    }
}

// ------------------------------------------------------------ running

impl World<Dg> for State {
    fn active(&self) -> usize {
        self.active
    }
    fn players(&self) -> usize {
        self.players
    }
    /// Other than the target's owner where there is a target, else than the active player.
    fn subject(&self) -> Option<usize> {
        if self.target.is_some() { self.target_owner() } else { Some(self.active) }
    }
    fn each(&self) -> Option<usize> {
        self.each
    }
    fn set_each(&mut self, seat: Option<usize>) {
        self.each = seat;
    }
    fn game_seats(&self, rules: &Rules, s: DgSel) -> Vec<Option<usize>> {
        match s {
            // an ownerless target (the Town Hall) has nobody to lose cards,
            // so nobody receives any: no text gives cards for it
            DgSel::TargetOwner => self.target_owner().map(Some).into_iter().collect(),
            DgSel::Leaders => {
                let best = (0..self.players).map(|s| self.leader_measure(rules, s)).max().unwrap_or(0);
                self.seats_from_active().filter(|&s| self.leader_measure(rules, s) == best).map(Some).collect()
            }
            // every copy's owner (none built: nobody, `None`); a damaged
            // copy's owner as the `damaged-transfers` reading has it
            DgSel::Owner(b) => {
                let copies = self.owners_of(b);
                if copies.is_empty() {
                    return vec![None];
                }
                let mut seats = Vec::new();
                for (o, damaged) in copies {
                    match damaged {
                        false => seats.push(Some(o)),
                        true => match self.r::<DamagedTransfers>() {
                            DamagedTransfers::Void => {}
                            DamagedTransfers::AsUnbuilt => seats.push(None),
                            DamagedTransfers::AsBuilt => seats.push(Some(o)),
                        },
                    }
                }
                seats
            }
            DgSel::Discard => vec![None],
        }
    }
    fn flag(&self, f: Flag) -> bool {
        self.flags[f.index()]
    }
    fn game_cond(&self, _: &Rules, c: &DgCond) -> bool {
        match *c {
            DgCond::Built(b) => self.building_plot(b).is_some(),
            // any copy of it (a building may stand more than once under a `repeat:`)
            DgCond::Intact(b) => self.plots_with(b).any(|p| self.board[p.index()].is_some_and(|x| x.damage.is_none())),
            DgCond::OwnedByActive(b) => self.owners_of(b).iter().any(|&(o, _)| o == self.active),
        }
    }
    fn measure(&self, rules: &Rules, m: Measure, seat: usize) -> u32 {
        match m {
            Measure::Hand => self.seats[seat].hand_size(),
            Measure::Permits => self.seats[seat].permits.total(),
            Measure::Influence => self.counted_influence(rules, seat),
        }
    }
    fn choose_by(&self, seat: usize, choice: u32, card: CardKind) -> Decision {
        Decision::Choose { seat, choice, card }
    }
    fn draw(&mut self, _: &Rules, deck: Deck, seat: usize, count: u32, ev: &mut Vec<Event>) {
        let wait = self.gains_wait();
        match deck {
            Deck::Resources => self.draw_cards(seat, count, wait, ev),
            Deck::Permits if self.special_permits_barred() => {
                ev.push(Event::Lapsed { why: "the Town Hall is closed: no player may draw permits".into() });
            }
            Deck::Permits => {
                for _ in 0..count {
                    if !self.draw_permit_to(seat, wait, ev) {
                        ev.push(Event::Lapsed { why: "the permit deck is empty".into() });
                        break;
                    }
                }
            }
        }
    }
    fn set_flag(&mut self, f: Flag, ev: &mut Vec<Event>) {
        self.flags[f.index()] = true;
        ev.push(Event::FlagSet { flag: f });
    }
    /// Cards out of play go to their discard pile.
    fn move_cards(
        &mut self,
        rules: &Rules,
        from: usize,
        to: Option<usize>,
        count: u32,
        card: Option<CardKind>,
        ev: &mut Vec<Event>,
    ) {
        let to = to.map_or(Dest::Discard, Dest::Seat);
        for _ in 0..count {
            let c = match card {
                Some(c) if self.seats[from].hand.count(c) > 0 => c,
                Some(_) => break,
                None => match self.random_card(rules, from, &[]) {
                    Some(c) => c,
                    None => break,
                },
            };
            self.hand_to(rules, from, to, c);
            ev.push(Event::Took { from, to, card: c });
        }
    }
    fn game_step(&mut self, rules: &Rules, step: Step, ev: &mut Vec<Event>) {
        match step {
            Step::Damage { plot, card } => self.damage(rules, plot, card, ev),
            Step::Spread { origin } => {
                let Some(fire) = self.fire_card(rules) else { return };
                let options = self.spread_candidates(rules, origin, fire);
                if !options.is_empty() && self.markers_used() < self.p(P::DamageMarkers) {
                    self.agenda.decision = Some(Decision::SpreadTo { seat: self.active, origin, options });
                }
            }
            Step::Take { .. } => self.run_take(rules, step, ev),
            Step::EndStep => self.end_step(rules, ev),
            Step::RewardDraw { seat, .. } => self.wait_for(step, Decision::RewardDraw { seat }),
            Step::Give { from, left, .. } => {
                if left > 0 && self.seats[from].hand_size() > 0 {
                    self.wait_for(step, Decision::Give { seat: from });
                }
            }
        }
    }
}

impl State {
    fn target_owner(&self) -> Option<usize> {
        self.target.and_then(|t| self.board[t.index()]).and_then(|p| p.owner)
    }

    pub(super) fn damage(&mut self, rules: &Rules, plot: Plot, card: CardKind, ev: &mut Vec<Event>) {
        let Some(p) = self.board[plot.index()] else {
            return;
        };
        let why = if p.damage.is_some() {
            // second-disaster: losses-only — no second marker; the card goes
            Some("the building is already damaged: no second marker")
        } else if self.markers_used() >= self.p(P::DamageMarkers) {
            // marker-shortage: no-marker — the card's losses happen, the card is discarded
            Some("no damage marker left: the building is not damaged")
        } else {
            None
        };
        if let Some(why) = why {
            ev.push(Event::Lapsed { why: why.into() });
            moved(move_n(&mut self.played, &mut self.event_discard, card, 1));
            return;
        }
        let fault = self.fault == Some(Fault::FireWithoutMarker) && Some(card) == self.fire_card(rules);
        if !fault {
            self.board.edit()[plot.index()] = Some(Placed { damage: Some(Damage { card, origin: plot }), ..p });
            ev.push(Event::Damaged { plot, card });
        }
        match p.owner {
            Some(o) => moved(move_tagged(&mut self.played, &mut self.seats[o].in_front, card, plot)),
            None => {
                moved(move_n(&mut self.played, &mut self.event_discard, card, 1));
                self.close_town_hall(ev);
            }
        }
    }
}
