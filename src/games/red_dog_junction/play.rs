//! Legal actions and their effects: `candidates` lists every action that
//! might be legal, `check` says which is (reading the state, never
//! changing it), `legal` keeps the candidates `check` accepts, and
//! `checked_apply` checks before it carries an action out.

use super::effects::Rdj;
use super::readings::*;
use super::repeats::{Repeats, listed_action};
use super::rules::{Action, End, Event, Fault, Phase, State, refuse, rule};
use super::rules_data::*;
use crate::engine::{Id, RuleError, WhenEmpty, Why, move_n};
use crate::lang::declared;

type Checked = Result<(), RuleError>;

impl State {
    /// Clears `out`; at the end, or at a chance node (a die, the first
    /// player), leaves it empty or fills it with the outcomes and says so.
    fn no_choice_list(&self, rules: &Rules, out: &mut Vec<Action>) -> bool {
        out.clear();
        if self.end.is_some() {
            return true;
        }
        if !self.rolls.is_empty() {
            out.extend((1..=rules.faces).map(Action::Roll));
        } else if self.first.is_none() {
            out.extend((0..self.players as u8).map(Action::First));
        }
        !out.is_empty()
    }

    /// The legal actions in canonical order (the order `Action` derives).
    pub fn legal(&self, rules: &Rules, out: &mut Vec<Action>) {
        if self.no_choice_list(rules, out) {
            return;
        }
        // the candidates go straight into `out`, which callers reuse, so a
        // legal list allocates nothing once `out` has grown
        self.candidates(rules, out);
        out.retain(|a| self.check::<()>(rules, a).is_ok());
        out.sort_unstable();
        out.dedup();
    }

    /// The legal list as it was first defined: every candidate carried out
    /// on a copy of the state, kept when that succeeds. It clones the state
    /// per candidate, so only the test that holds `legal` (and `check`) to
    /// it calls it.
    #[doc(hidden)]
    pub fn legal_by_trying(&self, rules: &Rules, out: &mut Vec<Action>) {
        if self.no_choice_list(rules, out) {
            return;
        }
        let mut all = Vec::new();
        self.candidates(rules, &mut all);
        for a in all {
            if self.clone().apply_inner(rules, &a, &mut Vec::new()).is_ok() {
                out.push(a);
            }
        }
        out.sort_unstable();
        out.dedup();
    }

    /// Every action that might be legal here (`legal` keeps those `apply` accepts).
    fn candidates(&self, rules: &Rules, out: &mut Vec<Action>) {
        let cubes = || Id::<Cube>::first(rules.cubes.len());
        if self.agenda.decision.is_some() {
            let choice = self.agenda.decision.map_or(0, |d| d.choice as u16);
            let options = self.pending_options(rules).min(64) as u8;
            return out.extend((0..options).map(|option| Action::Choose { choice, option }));
        }
        match self.phase {
            Phase::Jettison => out.extend(cubes().map(Action::Jettison)),
            Phase::Automa(_) => out.extend(Id::first(rules.docks.len()).map(Action::Send)),
            Phase::Extra | Phase::Draft => out.extend(Id::first(rules.cards.len()).map(Action::Pick)),
            Phase::Loading => {
                out.extend(cubes().map(Action::LoadCube));
                out.extend(cubes().map(Action::UnloadCube));
                out.push(Action::Done);
            }
            Phase::Salvage { .. } => {
                out.extend(cubes().map(Action::SalvageCube));
                out.push(Action::Done);
            }
            Phase::Agents { .. } => {
                for g in cubes() {
                    out.extend(cubes().map(|t| Action::Trade { give: g, take: t }));
                }
                for place in (0..rules.dice.len() as u8).map(Some).chain([None]) {
                    out.extend([true, false].map(|up| Action::Nudge { place, up }));
                }
                out.push(Action::Done);
            }
            Phase::Swap { give: None, .. } => {
                out.extend(cubes().map(Action::SwapGive));
                out.push(Action::Done);
            }
            Phase::Swap { give: Some(_), .. } => out.extend(cubes().map(Action::SwapTake)),
            Phase::Actions => {
                out.push(Action::Move(None));
                out.extend(Id::first(rules.docks.len()).map(|d| Action::Move(Some(d))));
                out.extend([Action::Load, Action::Salvage, Action::Agents, Action::Pass]);
                out.extend((1..=self.count_ability(rules, self.active, Ability::Mine).min(30) as u8).map(Action::Mine));
                out.extend((1..(1u8 << self.players)).map(Action::Displace));
                out.extend((0..self.players as u8).map(Action::Swap));
                for slot in 0..rules.display as u8 {
                    let ways = self.display.at(usize::from(slot)).map_or(0, |c| rules.card(c).cost.len());
                    out.extend((0..ways as u8).map(|way| Action::Buy { slot, way }));
                }
                for p in 0..rules.piles.len() as u8 {
                    out.extend([Action::Deal(p), Action::RascalDeal(p)]);
                }
                self.card_candidates(rules, out);
                // every declared action that is on: `check` keeps the open ones
                out.extend(declared::on(&self.readings).map(Action::Declared));
            }
        }
    }

    /// Applies `a`, or returns the rule it breaks and leaves the state unchanged.
    /// `check` decides; the action is then carried out in place. (The
    /// guards `apply_inner` keeps are the first definition of legality,
    /// which a debug build holds `check` to on every action.)
    pub fn checked_apply(&mut self, rules: &Rules, a: &Action) -> Result<Vec<Event>, RuleError> {
        let verdict = self.check::<RuleError>(rules, a);
        #[cfg(debug_assertions)]
        {
            let tried = self.clone().apply_inner(rules, a, &mut Vec::new());
            debug_assert_eq!(
                verdict.as_ref().map_err(|e| &e.rule),
                tried.as_ref().map_err(|e| &e.rule),
                "check and apply disagree on {}",
                super::describe_action(rules, a)
            );
        }
        verdict?;
        let mut ev = Vec::new();
        self.apply_inner(rules, a, &mut ev)?;
        self.after(rules, &mut ev);
        Ok(ev)
    }

    fn who(&self) -> usize {
        if let Some(d) = self.agenda.decision {
            return usize::from(d.seat);
        }
        match self.phase {
            // the Automa makes no choices: the solo player picks for it
            Phase::Swap { with, give: Some(_), .. } if self.r::<SwapPicks>() == SwapPicks::OwnerPicksOwn => {
                if self.is_automa(usize::from(with)) { 0 } else { usize::from(with) }
            }
            Phase::Automa(_) => 0,
            // the solo player picks for the Automa
            Phase::Extra | Phase::Draft if self.is_automa(self.active) => 0,
            _ => self.active,
        }
    }

    /// The seat to act (the active player, or a swap's other owner).
    pub fn to_act(&self) -> usize {
        self.who()
    }

    fn apply_inner(&mut self, rules: &Rules, a: &Action, ev: &mut Vec<Event>) -> Checked {
        if self.end.is_some() {
            return Err(rule(rules, R::GameOver, "the game is over"));
        }
        if let Action::Roll(v) = *a {
            let Some(place) = self.rolls.pop() else {
                return Err(rule(rules, R::ChanceRoll, "no die is waiting to be rolled"));
            };
            if v == 0 || v > rules.faces {
                return Err(rule(rules, R::ChanceRoll, format!("a die shows 1 to {}", rules.faces)));
            }
            self.dice[usize::from(place)] = if self.fault == Some(Fault::DieSeven) { 7 } else { v };
            ev.push(Event::Rolled { place, value: v });
            return Ok(());
        }
        if !self.rolls.is_empty() {
            return Err(rule(rules, R::ChanceRoll, "a die is waiting to be rolled"));
        }
        if let Action::First(seat) = *a {
            return self.roll_first(rules, seat, ev);
        }
        if self.first.is_none() {
            return Err(rule(rules, R::ChanceRoll, "the first player is waiting to be rolled"));
        }
        if self.agenda.decision.is_some() {
            self.check_choose::<RuleError>(rules, a)?;
            self.choose_option(rules, u32::from(self.chosen(a)), ev);
            return Ok(());
        }
        match self.phase {
            Phase::Actions => self.start_action(rules, a, ev),
            Phase::Jettison => match *a {
                Action::Jettison(c) => {
                    let seat = self.active;
                    move_n(&mut self.cargo[seat], &mut self.space, c, 1)
                        .map_err(|_| rule(rules, R::JettisonCapacity, "no such cube aboard"))?;
                    ev.push(Event::Cubes { seat, what: "jettisoned", cube: c, n: 1 });
                    Ok(())
                }
                _ => Err(rule(rules, R::JettisonCapacity, "jettison cargo down to the ship's capacity first")),
            },
            Phase::Automa(errand) => match *a {
                Action::Send(d) => {
                    self.check_send::<RuleError>(rules, errand, d)?;
                    self.send(rules, errand, d, ev);
                    Ok(())
                }
                _ => Err(rule(rules, R::SoloAutoma, "say where the Automa's ship goes first")),
            },
            Phase::Extra | Phase::Draft => self.pick(rules, a, ev),
            _ => self.phase_step(rules, a, ev),
        }
    }

    // About 100 lines: one arm per action a turn can begin with, each a
    // short check and a call; splitting it would only scatter the table.
    fn start_action(&mut self, rules: &Rules, a: &Action, ev: &mut Vec<Event>) -> Checked {
        if self.actions_left == 0 {
            return Err(rule(rules, R::TurnActions, "no action is left this turn"));
        }
        self.check_repeat::<RuleError>(rules, a)?;
        let seat = self.active;
        match *a {
            Action::Move(to) => self.do_move(rules, seat, to, ev)?,
            Action::Load => {
                self.check_load::<RuleError>(rules, seat)?;
                self.phase = Phase::Loading;
            }
            Action::Mine(n) => self.do_mine(rules, seat, n, ev)?,
            Action::Displace(mask) => self.do_displace(rules, seat, mask, ev)?,
            Action::Swap(with) => {
                let n = self.count_ability(rules, seat, Ability::Swap) * self.p(P::SwapPerOutlaw);
                let w = usize::from(with);
                if n == 0 {
                    return Err(rule(rules, R::CrewSwap, "no Outlaw in the crew"));
                }
                if w >= self.players || w == seat || self.ships[seat].is_some() || self.ships[w].is_some() {
                    return Err(rule(
                        rules,
                        R::CrewSwap,
                        "both ships must be in space, and the other another player's",
                    ));
                }
                if self.cargo[seat].total() == 0 || self.cargo[w].total() == 0 {
                    return Err(rule(rules, R::CrewSwap, "both ships need cargo to swap"));
                }
                self.phase = Phase::Swap { with, left: n.min(60) as u8, give: None };
            }
            Action::Salvage => {
                let n = self.count_ability(rules, seat, Ability::Salvage);
                if n == 0 || self.ships[seat].is_some() || self.space.total() == 0 {
                    return Err(rule(
                        rules,
                        R::CrewSalvage,
                        "salvage needs a Scavenger, the ship in space and a cube there",
                    ));
                }
                self.phase = Phase::Salvage { left: n.min(60) as u8 };
            }
            Action::Agents => {
                let n = self.count_ability(rules, seat, Ability::Trade);
                if n == 0 || self.loc_of(rules, seat) != Some(rules.junction) {
                    return Err(rule(
                        rules,
                        R::CrewTrade,
                        "trading needs an Agent and the ship docked at Red Dog Junction",
                    ));
                }
                self.phase = Phase::Agents { left: n.min(60) as u8 };
            }
            Action::Buy { slot, way } => self.do_buy(rules, seat, slot, way, ev)?,
            Action::Deal(p) => {
                if self.loc_of(rules, seat) != Some(rules.haberdashery) {
                    return Err(rule(rules, R::DealPlace, "the ship is not docked at the Haberdashery"));
                }
                self.do_deal(rules, seat, p, ev)?;
            }
            Action::RascalDeal(p) => {
                let rascals = rules.cards.iter().enumerate().any(|(i, c)| {
                    c.class == Class::Crew
                        && c.ability == Ability::None
                        && self.crew[seat].count(Id::new(i).unwrap_or(Id::ZERO)) > 0
                });
                if self.r::<RascalAbility>() == RascalAbility::NoAction || !rascals {
                    return Err(rule(
                        rules,
                        R::CrewNone,
                        "a Rascal has no crew action under this reading, or there is none in the crew",
                    ));
                }
                self.do_deal(rules, seat, p, ev)?;
            }
            Action::Pass => {}
            Action::Officer(_) | Action::Boost(_) => self.start_card(rules, seat, a, ev)?,
            Action::Declared(act) => {
                declared::check::<Rdj, RuleError>(self, rules, act)?;
                self.take_declared(rules, seat, act, ev);
            }
            _ => {
                return Err(rule(rules, R::TurnActions, "that is not an action to begin a turn's action with"));
            }
        }
        // a declared action that ends the turn's actions has left none
        self.actions_left = self.actions_left.saturating_sub(1);
        self.actions_taken += 1;
        if let Some(k) = listed_action(a) {
            self.repeats.begun(k);
        }
        if self.fault == Some(Fault::ThirdAction) && self.actions_taken == 1 {
            self.actions_left += 1;
        }
        Ok(())
    }

    /// Fills the display; the deck's end may end the game (`deck-end`).
    pub(super) fn refill(&mut self, _rules: &Rules, ev: &mut Vec<Event>) {
        let had = !self.deck.is_empty();
        let empty = self.display.slots().iter().filter(|s| s.is_none()).count() as u32;
        let done = self.display.refill(&mut self.deck, &mut self.discard, WhenEmpty::Stop, &mut self.chance);
        let over = match self.r::<DeckEnd>() {
            DeckEnd::LastCardTurned => had && done.filled > 0 && self.deck.is_empty(),
            DeckEnd::RefillFails => done.filled < empty,
        };
        if over && self.end.is_none() {
            self.end = Some(End::DeckOut);
            ev.push(Event::GameOver(End::DeckOut));
        }
    }

    /// What follows any action: the countdown, the end of the turn.
    fn after(&mut self, rules: &Rules, ev: &mut Vec<Event>) {
        self.watch_bank(rules, ev);
        if self.end.is_some()
            || self.agenda.decision.is_some()
            || !self.rolls.is_empty()
            || self.phase != Phase::Actions && self.phase != Phase::Jettison
        {
            return;
        }
        if self.phase == Phase::Actions && self.actions_left > 0 {
            return;
        }
        let over = self.cargo[self.active].total() > self.capacity(rules, self.active);
        if over && self.fault != Some(Fault::NoJettison) {
            self.phase = Phase::Jettison;
            return;
        }
        self.end_turn(rules, ev);
    }

    /// The countdown: the bank's last gold starts it (`countdown-refill`
    /// says whether gold back in the bank stops it).
    pub(super) fn watch_bank(&mut self, rules: &Rules, ev: &mut Vec<Event>) {
        let bank = self.bank_gold(rules);
        match self.countdown {
            None if bank == 0 => {
                let k = self.p(P::CountdownTurns) * self.players as u32;
                let turns = match self.r::<CountdownTurns>() {
                    CountdownTurns::AfterThisTurn => k,
                    CountdownTurns::ThisTurnCounts => k.saturating_sub(1),
                };
                let turns = if self.fault == Some(Fault::CountdownShort) { turns.saturating_sub(1) } else { turns };
                self.countdown = Some((turns, self.turns));
                ev.push(Event::CountdownStarted { turns });
            }
            Some(_) if bank > 0 && self.r::<CountdownRefill>() == CountdownRefill::Resets => {
                self.countdown = None;
                ev.push(Event::CountdownStopped);
            }
            _ => {}
        }
    }

    fn end_turn(&mut self, rules: &Rules, ev: &mut Vec<Event>) {
        self.phase = Phase::Actions;
        self.discard_played();
        if self.r::<RefillTiming>() == RefillTiming::EndOfTurn || self.display.filled() < rules.display {
            self.refill(rules, ev);
        }
        self.pass_turn(ev);
        if self.end.is_none() && self.is_automa(self.active) {
            self.automa_turn(rules, ev);
        }
    }

    /// The turn passes to the next seat; the countdown and the turn cap may end the game.
    pub(super) fn pass_turn(&mut self, ev: &mut Vec<Event>) {
        let seat = self.active;
        self.phase = Phase::Actions;
        ev.push(Event::TurnEnded { seat });
        if let Some((left, started)) = self.countdown
            && self.turns > started
        {
            self.countdown = Some((left.saturating_sub(1), started));
        }
        self.turns += 1;
        self.active = (self.active + 1) % self.players;
        self.actions_left = self.actions_for(self.active);
        self.actions_taken = 0;
        self.repeats = Repeats::default();
        self.bonus_actions = 0;
        self.acted.clear();
        self.bought = 0;
        if self.end.is_some() {
            return;
        }
        if let Some((0, started)) = self.countdown
            && self.turns > started
        {
            self.end = Some(End::Countdown);
            ev.push(Event::GameOver(End::Countdown));
        } else if self.turns >= self.turn_cap {
            self.end = Some(End::TurnCap);
            ev.push(Event::GameOver(End::TurnCap));
        }
    }
}

/// Legality without a change: `check` says whether an action is legal now,
/// or the first rule it breaks (the same rule, in the same order, as
/// carrying it out would find), reading only `&self`. The readings it
/// consults are recorded on this state, so a reading consulted only while
/// the legal list is built counts as consulted.
impl State {
    /// Whether `a` is legal now, or the rule that forbids it.
    pub fn check<W: Why>(&self, rules: &Rules, a: &Action) -> Result<(), W> {
        if self.end.is_some() {
            return Err(refuse(rules, R::GameOver, "the game is over"));
        }
        // one test on the legal list's path: a chance outcome, or a chance node
        if matches!(*a, Action::Roll(_) | Action::First(_)) || !self.rolls.is_empty() || self.first.is_none() {
            return self.check_chance(rules, a);
        }
        if self.agenda.decision.is_some() {
            return self.check_choose(rules, a);
        }
        match (self.phase, *a) {
            (Phase::Actions, _) => self.check_start(rules, a),
            (Phase::Jettison, Action::Jettison(c)) if self.cargo[self.active].count(c) > 0 => Ok(()),
            (Phase::Jettison, Action::Jettison(_)) => Err(refuse(rules, R::JettisonCapacity, "no such cube aboard")),
            (Phase::Jettison, _) => {
                Err(refuse(rules, R::JettisonCapacity, "jettison cargo down to the ship's capacity first"))
            }
            (Phase::Automa(errand), Action::Send(d)) => self.check_send(rules, errand, d),
            (Phase::Automa(_), _) => Err(refuse(rules, R::SoloAutoma, "say where the Automa's ship goes first")),
            (Phase::Extra | Phase::Draft, _) => self.check_pick(rules, a),
            _ => self.check_step(rules, a),
        }
    }

    /// A chance outcome, or any action while a chance node waits.
    fn check_chance<W: Why>(&self, rules: &Rules, a: &Action) -> Result<(), W> {
        match *a {
            Action::Roll(_) if self.rolls.is_empty() => {
                Err(refuse(rules, R::ChanceRoll, "no die is waiting to be rolled"))
            }
            Action::Roll(v) if v == 0 || v > rules.faces => {
                Err(W::why(|| rule(rules, R::ChanceRoll, format!("a die shows 1 to {}", rules.faces))))
            }
            Action::Roll(_) => Ok(()),
            _ if !self.rolls.is_empty() => Err(refuse(rules, R::ChanceRoll, "a die is waiting to be rolled")),
            Action::First(seat) => self.check_first(rules, seat),
            _ => Err(refuse(rules, R::ChanceRoll, "the first player is waiting to be rolled")),
        }
    }

    fn check_start<W: Why>(&self, rules: &Rules, a: &Action) -> Result<(), W> {
        if self.actions_left == 0 {
            return Err(refuse(rules, R::TurnActions, "no action is left this turn"));
        }
        self.check_repeat(rules, a)?;
        let seat = self.active;
        match *a {
            Action::Move(to) => self.check_move(rules, seat, to),
            Action::Load => self.check_load(rules, seat),
            Action::Mine(n) => self.check_mine(rules, seat, n),
            Action::Displace(mask) => self.check_displace(rules, seat, mask),
            Action::Swap(with) => {
                let n = self.count_ability(rules, seat, Ability::Swap) * self.p(P::SwapPerOutlaw);
                let w = usize::from(with);
                if n == 0 {
                    return Err(refuse(rules, R::CrewSwap, "no Outlaw in the crew"));
                }
                if w >= self.players || w == seat || self.ships[seat].is_some() || self.ships[w].is_some() {
                    return Err(refuse(
                        rules,
                        R::CrewSwap,
                        "both ships must be in space, and the other another player's",
                    ));
                }
                if self.cargo[seat].total() == 0 || self.cargo[w].total() == 0 {
                    return Err(refuse(rules, R::CrewSwap, "both ships need cargo to swap"));
                }
                Ok(())
            }
            Action::Salvage => {
                let n = self.count_ability(rules, seat, Ability::Salvage);
                if n == 0 || self.ships[seat].is_some() || self.space.total() == 0 {
                    return Err(refuse(
                        rules,
                        R::CrewSalvage,
                        "salvage needs a Scavenger, the ship in space and a cube there",
                    ));
                }
                Ok(())
            }
            Action::Agents => {
                let n = self.count_ability(rules, seat, Ability::Trade);
                if n == 0 || self.loc_of(rules, seat) != Some(rules.junction) {
                    return Err(refuse(
                        rules,
                        R::CrewTrade,
                        "trading needs an Agent and the ship docked at Red Dog Junction",
                    ));
                }
                Ok(())
            }
            Action::Buy { slot, way } => self.check_buy(rules, seat, slot, way),
            Action::Deal(p) => {
                if self.loc_of(rules, seat) != Some(rules.haberdashery) {
                    return Err(refuse(rules, R::DealPlace, "the ship is not docked at the Haberdashery"));
                }
                self.check_deal(rules, seat, p)
            }
            Action::RascalDeal(p) => {
                if self.r::<RascalAbility>() == RascalAbility::NoAction || !self.has_rascal(rules, seat) {
                    return Err(refuse(
                        rules,
                        R::CrewNone,
                        "a Rascal has no crew action under this reading, or there is none in the crew",
                    ));
                }
                self.check_deal(rules, seat, p)
            }
            Action::Pass => Ok(()),
            Action::Officer(_) | Action::Boost(_) => self.check_card(rules, seat, a),
            Action::Declared(act) => declared::check::<Rdj, W>(self, rules, act),
            _ => Err(refuse(rules, R::TurnActions, "that is not an action to begin a turn's action with")),
        }
    }

    /// Whether `seat` may load and unload: docked at its home base, with a
    /// cube aboard or in storage.
    fn check_load<W: Why>(&self, rules: &Rules, seat: usize) -> Result<(), W> {
        if self.loc_of(rules, seat) != rules.home_of(seat) {
            return Err(refuse(rules, R::LoadHomeBase, "the ship is not docked at its home base"));
        }
        if self.cargo[seat].total() + self.storage[seat].total() == 0 {
            return Err(refuse(rules, R::LoadHomeBase, "nothing to load or unload"));
        }
        Ok(())
    }

    /// Whether the seat's crew holds a Rascal (a crew card without an ability).
    pub(super) fn has_rascal(&self, rules: &Rules, seat: usize) -> bool {
        self.crew[seat]
            .iter()
            .any(|(c, _)| rules.card(c).class == Class::Crew && rules.card(c).ability == Ability::None)
    }

    fn check_step<W: Why>(&self, rules: &Rules, a: &Action) -> Result<(), W> {
        let seat = self.active;
        let have = |zone: &super::rules::Cubes, c: Id<Cube>, r: R, msg: &'static str| {
            if zone.count(c) > 0 { Ok(()) } else { Err(refuse(rules, r, msg)) }
        };
        match (self.phase, *a) {
            (Phase::Swap { give: Some(_), .. }, Action::Done) => {
                Err(refuse(rules, R::CrewSwap, "pick the cube taken back first"))
            }
            (_, Action::Done) => Ok(()),
            (Phase::Loading, Action::LoadCube(c)) => {
                have(&self.storage[seat], c, R::LoadHomeBase, "no such cube in storage")
            }
            (Phase::Loading, Action::UnloadCube(c)) => {
                have(&self.cargo[seat], c, R::LoadHomeBase, "no such cube aboard")
            }
            (Phase::Salvage { .. }, Action::SalvageCube(c)) => {
                have(&self.space, c, R::CrewSalvage, "no such cube in space")
            }
            (Phase::Agents { .. }, Action::Trade { give, take }) => self.check_trade(rules, seat, give, take),
            (Phase::Agents { .. }, Action::Nudge { place, up }) => self.check_nudge(rules, seat, place, up),
            (Phase::Swap { give: None, .. }, Action::SwapGive(c)) => {
                have(&self.cargo[seat], c, R::CrewSwap, "no such cube aboard")
            }
            (Phase::Swap { with, give: Some(_), .. }, Action::SwapTake(c)) => {
                have(&self.cargo[usize::from(with)], c, R::CrewSwap, "no such cube aboard the other ship")
            }
            _ => Err(refuse(rules, R::TurnActions, "finish the action under way first (or `done`)")),
        }
    }
}
