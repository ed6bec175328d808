//! The actions themselves: moving, mining, displacing, buying, Super
//! Deals, and the single choices of the loading, salvage, agents and swap
//! phases.

use super::readings::*;
use super::rules::Action;
use super::rules::{Event, Fault, Phase, State, TradeDie, refuse, rule};
use super::rules_data::*;
use crate::engine::{Id, RuleError, Why, move_n};
use smallvec::SmallVec;

type Checked = Result<(), RuleError>;

impl State {
    /// The dice a Junction dock touches: (place, commodity, value), then the gold die.
    pub fn trade_dice(&self, rules: &Rules, d: Id<Dock>) -> SmallVec<[TradeDie; 4]> {
        let places = &rules.docks[d.index()].places;
        let n = match self.r::<DiceAdjacency>() {
            DiceAdjacency::TwoBeside => places.len(),
            DiceAdjacency::OneFacing => places.len().min(1),
        };
        // a few dice: on the stack, as the legal list asks for every trade
        let mut out: SmallVec<[_; 4]> = places[..n]
            .iter()
            .map(|&p| {
                (Some(p), rules.dice[usize::from(self.die_at[usize::from(p)])].0, u32::from(self.dice[usize::from(p)]))
            })
            .collect();
        out.push((None, rules.gold, u32::from(self.gold_die)));
        out
    }

    pub(super) fn do_move(&mut self, rules: &Rules, seat: usize, to: Option<Id<Dock>>, ev: &mut Vec<Event>) -> Checked {
        let from = self.ships[seat];
        let Some(d) = to else {
            let Some(f) = from else {
                return Err(rule(rules, R::MoveDock, "the ship is in space already"));
            };
            let _ = self.occupancy.leave(f);
            self.ships[seat] = None;
            ev.push(Event::Moved { seat, to: None });
            return Ok(());
        };
        if d.index() >= rules.docks.len() {
            return Err(rule(rules, R::MoveDock, "no such dock"));
        }
        let loc = rules.docks[d.index()].loc;
        let taxi = from.is_some_and(|f| rules.docks[f.index()].loc == rules.junction && loc == rules.junction);
        if from.is_some() && !taxi {
            return Err(rule(
                rules,
                R::MoveDock,
                "space lies between locations: move to space first (only Junction docks taxi)",
            ));
        }
        match rules.locations[loc].kind {
            LocKind::Home(s) if s != seat && self.fault != Some(Fault::EnterForeignHome) => {
                return Err(rule(rules, R::MoveHomeBase, "no ship docks at another player's home base"));
            }
            LocKind::Bank if self.r::<BankLocation>() == BankLocation::Supply => {
                return Err(rule(
                    rules,
                    R::MoveDock,
                    "the Bank/Distillery is a supply, not a location (reading bank-location)",
                ));
            }
            _ => {}
        }
        if self.occupancy.at(d) > 0 && self.fault != Some(Fault::DoubleDock) {
            return Err(rule(rules, R::MoveDock, "only one ship can be on a dock at a time"));
        }
        if let Some(f) = from {
            let _ = self.occupancy.leave(f);
        }
        if self.occupancy.enter(&rules.dock_graph, d).is_err() {
            // the planted fault `double-dock` docks anyway, uncounted
        }
        self.ships[seat] = Some(d);
        ev.push(Event::Moved { seat, to: Some(d) });
        Ok(())
    }

    pub(super) fn do_mine(&mut self, rules: &Rules, seat: usize, n: u8, ev: &mut Vec<Event>) -> Checked {
        let miners = self.count_ability(rules, seat, Ability::Mine);
        let Some(loc) = self.loc_of(rules, seat) else {
            return Err(rule(rules, R::CrewMine, "the ship is not docked at a planet"));
        };
        let LocKind::Planet(c) = rules.locations[loc].kind else {
            return Err(rule(rules, R::CrewMine, "the ship is not docked at a planet"));
        };
        let n = u32::from(n);
        if n == 0 || n > miners {
            return Err(rule(rules, R::CrewMine, format!("one cube per Miner: at most {miners}")));
        }
        move_n(&mut self.locs[loc], &mut self.cargo[seat], c, n)
            .map_err(|_| rule(rules, R::CrewMine, "the planet does not have that many cubes left"))?;
        if self.fault == Some(Fault::MineExtraCube) {
            let _ = move_n(&mut self.leak.0, &mut self.cargo[seat], c, 1);
        }
        ev.push(Event::Cubes { seat, what: "mined", cube: c, n });
        Ok(())
    }

    pub(super) fn do_displace(&mut self, rules: &Rules, seat: usize, mask: u8, ev: &mut Vec<Event>) -> Checked {
        let n = self.count_ability(rules, seat, Ability::Displace);
        let targets: Vec<usize> = (0..self.players).filter(|s| mask & (1 << s) != 0).collect();
        if n == 0 || targets.is_empty() || targets.len() as u32 > n || mask >> self.players != 0 {
            return Err(rule(rules, R::CrewDisplace, format!("one ship per Rustler: 1 to {n} ships")));
        }
        for &t in &targets {
            let Some(d) = self.ships[t] else {
                return Err(rule(rules, R::CrewDisplace, "a ship in space cannot be displaced"));
            };
            let at_home = rules.home_of(t) == Some(rules.docks[d.index()].loc);
            if at_home && self.r::<DisplaceHomeBase>() == DisplaceHomeBase::NotFromHomeBase {
                return Err(rule(
                    rules,
                    R::CrewDisplace,
                    "a ship at its home base cannot be displaced (reading displace-home-base)",
                ));
            }
        }
        for t in targets {
            if let Some(d) = self.ships[t].take() {
                let _ = self.occupancy.leave(d);
            }
            ev.push(Event::Displaced { seat: t });
        }
        Ok(())
    }

    pub(super) fn pay(&mut self, rules: &Rules, from_cargo: bool, seat: usize, price: &Price) -> bool {
        let zone = if from_cargo { &self.cargo[seat] } else { &self.storage[seat] };
        if price.iter().any(|&(c, n)| zone.count(c) < n) {
            return false;
        }
        for &(c, n) in price {
            let mut from = if from_cargo { self.cargo[seat].clone() } else { self.storage[seat].clone() };
            let to = if c == rules.scrap && self.fault != Some(Fault::ScrapToBank) {
                self.home_zone(rules, c)
            } else if c == rules.scrap {
                &mut self.locs[rules.bank]
            } else {
                self.home_zone(rules, c)
            };
            let _ = move_n(&mut from, to, c, n);
            if from_cargo {
                self.cargo[seat] = from;
            } else {
                self.storage[seat] = from;
            }
        }
        true
    }

    pub(super) fn do_buy(&mut self, rules: &Rules, seat: usize, slot: u8, way: u8, ev: &mut Vec<Event>) -> Checked {
        if self.bought > 0 && self.r::<PurchasesPerTurn>() == PurchasesPerTurn::OnePerTurn {
            return Err(rule(rules, R::BuyLimit, "one card a turn (reading purchases-per-turn)"));
        }
        let Some(card) = self.display.at(usize::from(slot)) else {
            return Err(rule(rules, R::BuyPayment, "that display slot is empty"));
        };
        let Some(price) = rules.card(card).cost.get(usize::from(way)).cloned() else {
            return Err(rule(rules, R::BuyPayment, "the card has no such cost"));
        };
        if !self.pay(rules, false, seat, &price) {
            return Err(rule(rules, R::BuyPayment, "the storage does not hold the cost (cargo cannot pay for cards)"));
        }
        let boost = rules.card(card).class == Class::Boost;
        let took = if self.fault == Some(Fault::LoseBoughtCard) {
            self.display.take_slot(usize::from(slot), &mut self.leak.1)
        } else if boost {
            self.display.take_slot(usize::from(slot), &mut self.boosts[seat])
        } else {
            self.display.take_slot(usize::from(slot), &mut self.crew[seat])
        };
        if took.is_ok() && self.fault != Some(Fault::LoseBoughtCard) {
            self.mark_bought(seat, card, 1);
        }
        self.bought += 1;
        ev.push(Event::Bought { seat, card });
        if self.r::<RefillTiming>() == RefillTiming::AtOnce {
            self.refill(rules, ev);
        }
        Ok(())
    }

    pub(super) fn do_deal(&mut self, rules: &Rules, seat: usize, p: u8, ev: &mut Vec<Event>) -> Checked {
        let Some(tile) = self.deal_piles.get(usize::from(p)).and_then(|pile| pile.top()) else {
            return Err(rule(rules, R::DealPayment, "that pile is empty"));
        };
        let gold = rules.piles[usize::from(p)].gold;
        let bank = self.bank_gold(rules);
        let pays = match self.r::<SuperDealShortBank>() {
            SuperDealShortBank::NotAllowed if bank < gold => {
                return Err(rule(
                    rules,
                    R::DealPayment,
                    "the bank does not hold the deal's gold (reading super-deal-short-bank)",
                ));
            }
            _ => gold.min(bank),
        };
        let price = rules.tiles[tile.index()].price.clone();
        if !self.pay(rules, true, seat, &price) {
            return Err(rule(rules, R::DealPayment, "the cargo does not hold the deal's price"));
        }
        let to_storage = self.r::<SuperDealGoldWhere>() == SuperDealGoldWhere::Storage;
        let g = rules.gold;
        let mut bankz = self.home_zone(rules, g).clone();
        let _ = move_n(&mut bankz, if to_storage { &mut self.storage[seat] } else { &mut self.cargo[seat] }, g, pays);
        *self.home_zone(rules, g) = bankz;
        let _ = move_n(&mut self.deal_piles[usize::from(p)], &mut self.deals[seat], tile, 1);
        ev.push(Event::Deal { seat, tile, gold: pays });
        Ok(())
    }

    pub(super) fn phase_step(&mut self, rules: &Rules, a: &Action, ev: &mut Vec<Event>) -> Checked {
        let seat = self.active;
        match (self.phase, *a) {
            (Phase::Swap { give: Some(_), .. }, Action::Done) | (_, Action::Done)
                if matches!(self.phase, Phase::Swap { give: Some(_), .. }) =>
            {
                Err(rule(rules, R::CrewSwap, "pick the cube taken back first"))
            }
            (_, Action::Done) => {
                self.phase = Phase::Actions;
                Ok(())
            }
            (Phase::Loading, Action::LoadCube(c)) => move_n(&mut self.storage[seat], &mut self.cargo[seat], c, 1)
                .map(|_| ev.push(Event::Cubes { seat, what: "loaded", cube: c, n: 1 }))
                .map_err(|_| rule(rules, R::LoadHomeBase, "no such cube in storage")),
            (Phase::Loading, Action::UnloadCube(c)) => move_n(&mut self.cargo[seat], &mut self.storage[seat], c, 1)
                .map(|_| ev.push(Event::Cubes { seat, what: "unloaded", cube: c, n: 1 }))
                .map_err(|_| rule(rules, R::LoadHomeBase, "no such cube aboard")),
            (Phase::Salvage { left }, Action::SalvageCube(c)) => {
                move_n(&mut self.space, &mut self.cargo[seat], c, 1)
                    .map_err(|_| rule(rules, R::CrewSalvage, "no such cube in space"))?;
                ev.push(Event::Cubes { seat, what: "salvaged", cube: c, n: 1 });
                self.phase =
                    if left > 1 && self.space.total() > 0 { Phase::Salvage { left: left - 1 } } else { Phase::Actions };
                Ok(())
            }
            (Phase::Agents { left }, Action::Trade { give, take }) => {
                self.do_trade(rules, seat, give, take, ev)?;
                self.phase = if left > 1 { Phase::Agents { left: left - 1 } } else { Phase::Actions };
                Ok(())
            }
            (Phase::Agents { left }, Action::Nudge { place, up }) => {
                self.do_nudge(rules, seat, place, up, ev)?;
                self.phase = if left > 1 { Phase::Agents { left: left - 1 } } else { Phase::Actions };
                Ok(())
            }
            (Phase::Swap { with, left, give: None }, Action::SwapGive(c)) => {
                if self.cargo[seat].count(c) == 0 {
                    return Err(rule(rules, R::CrewSwap, "no such cube aboard"));
                }
                self.phase = Phase::Swap { with, left, give: Some(c) };
                Ok(())
            }
            (Phase::Swap { with, left, give: Some(g) }, Action::SwapTake(c)) => {
                let w = usize::from(with);
                let (mut mine, mut theirs) = (self.cargo[seat].clone(), self.cargo[w].clone());
                move_n(&mut theirs, &mut mine, c, 1)
                    .map_err(|_| rule(rules, R::CrewSwap, "no such cube aboard the other ship"))?;
                let _ = move_n(&mut mine, &mut theirs, g, 1);
                (self.cargo[seat], self.cargo[w]) = (mine, theirs);
                ev.push(Event::Cubes { seat, what: "swapped away", cube: g, n: 1 });
                ev.push(Event::Cubes { seat, what: "swapped in", cube: c, n: 1 });
                let more = left > 1 && self.cargo[seat].total() > 0 && self.cargo[w].total() > 0;
                self.phase = if more { Phase::Swap { with, left: left - 1, give: None } } else { Phase::Actions };
                Ok(())
            }
            _ => Err(rule(rules, R::TurnActions, "finish the action under way first (or `done`)")),
        }
    }

    pub(super) fn do_trade(
        &mut self,
        rules: &Rules,
        seat: usize,
        give: Id<Cube>,
        take: Id<Cube>,
        ev: &mut Vec<Event>,
    ) -> Checked {
        let Some(d) = self.ships[seat] else {
            return Err(rule(rules, R::CrewTrade, "the ship is not docked"));
        };
        let dice = self.trade_dice(rules, d);
        let find = |c: Id<Cube>| dice.iter().find(|x| x.1 == c).copied();
        let (Some(g), Some(t)) = (find(give), find(take)) else {
            return Err(rule(rules, R::CrewTrade, "the dice beside the dock do not offer that trade"));
        };
        if give == take {
            return Err(rule(rules, R::CrewTrade, "a trade gives one commodity for another"));
        }
        if give == rules.gold && self.r::<TradeDirection>() == TradeDirection::GoldBoughtOnly {
            return Err(rule(rules, R::CrewTrade, "gold is only bought (reading trade-direction)"));
        }
        if take == rules.scrap && self.r::<TradeForScrap>() == TradeForScrap::NotObtainable {
            return Err(rule(rules, R::CrewTrade, "no trade gives scrap (reading trade-for-scrap)"));
        }
        if self.cargo[seat].count(give) < g.2 || self.home_count(rules, take) < t.2 {
            return Err(rule(rules, R::CrewTrade, "the cargo or the supply does not hold the trade's cubes"));
        }
        let mut cargo = self.cargo[seat].clone();
        let _ = move_n(&mut cargo, self.home_zone(rules, give), give, g.2);
        let mut src = self.home_zone(rules, take).clone();
        let _ = move_n(&mut src, &mut cargo, take, t.2);
        *self.home_zone(rules, take) = src;
        self.cargo[seat] = cargo;
        ev.push(Event::Traded { seat, give: (give, g.2), take: (take, t.2) });
        if self.r::<DiceReroll>() == DiceReroll::AfterEachTrade {
            self.rolls.extend([g.0, t.0].into_iter().flatten());
        }
        Ok(())
    }

    pub(super) fn do_nudge(
        &mut self,
        rules: &Rules,
        seat: usize,
        place: Option<u8>,
        up: bool,
        ev: &mut Vec<Event>,
    ) -> Checked {
        let Some(d) = self.ships[seat] else {
            return Err(rule(rules, R::CrewTrade, "the ship is not docked"));
        };
        let (value, faces) = match place {
            None if self.r::<GoldDieNudge>() == GoldDieNudge::GoldDieToo => (self.gold_die, rules.gold_faces),
            None => {
                return Err(rule(rules, R::CrewTrade, "Agents nudge six-sided dice only (reading gold-die-nudge)"));
            }
            Some(p) if self.trade_dice(rules, d).iter().any(|x| x.0 == Some(p)) => {
                (self.dice[usize::from(p)], rules.faces)
            }
            Some(_) => return Err(rule(rules, R::CrewTrade, "that die is not beside the dock")),
        };
        let next = match (up, self.r::<NudgeRange>()) {
            (true, _) if value < faces => value + 1,
            (false, _) if value > 1 => value - 1,
            (true, NudgeRange::WrapAround) => 1,
            (false, NudgeRange::WrapAround) => faces,
            _ => {
                return Err(rule(rules, R::CrewTrade, "the die cannot go past its faces (reading nudge-range)"));
            }
        };
        match place {
            None => self.gold_die = next,
            Some(p) => self.dice[usize::from(p)] = next,
        }
        ev.push(Event::Nudged { place, value: next });
        Ok(())
    }
}

/// The checks of the actions above, reading the state only (`State::check`
/// in `play` calls them).
impl State {
    pub(super) fn check_move<W: Why>(&self, rules: &Rules, seat: usize, to: Option<Id<Dock>>) -> Result<(), W> {
        let from = self.ships[seat];
        let Some(d) = to else {
            return match from {
                Some(_) => Ok(()),
                None => Err(refuse(rules, R::MoveDock, "the ship is in space already")),
            };
        };
        if d.index() >= rules.docks.len() {
            return Err(refuse(rules, R::MoveDock, "no such dock"));
        }
        let loc = rules.docks[d.index()].loc;
        let taxi = from.is_some_and(|f| rules.docks[f.index()].loc == rules.junction && loc == rules.junction);
        if from.is_some() && !taxi {
            return Err(refuse(
                rules,
                R::MoveDock,
                "space lies between locations: move to space first (only Junction docks taxi)",
            ));
        }
        match rules.locations[loc].kind {
            LocKind::Home(s) if s != seat && self.fault != Some(Fault::EnterForeignHome) => {
                return Err(refuse(rules, R::MoveHomeBase, "no ship docks at another player's home base"));
            }
            LocKind::Bank if self.r::<BankLocation>() == BankLocation::Supply => {
                return Err(refuse(
                    rules,
                    R::MoveDock,
                    "the Bank/Distillery is a supply, not a location (reading bank-location)",
                ));
            }
            _ => {}
        }
        if self.occupancy.at(d) > 0 && self.fault != Some(Fault::DoubleDock) {
            return Err(refuse(rules, R::MoveDock, "only one ship can be on a dock at a time"));
        }
        Ok(())
    }

    pub(super) fn check_mine<W: Why>(&self, rules: &Rules, seat: usize, n: u8) -> Result<(), W> {
        let miners = self.count_ability(rules, seat, Ability::Mine);
        let planet = self.loc_of(rules, seat).and_then(|loc| match rules.locations[loc].kind {
            LocKind::Planet(c) => Some((loc, c)),
            _ => None,
        });
        let Some((loc, c)) = planet else {
            return Err(refuse(rules, R::CrewMine, "the ship is not docked at a planet"));
        };
        let n = u32::from(n);
        if n == 0 || n > miners {
            return Err(W::why(|| rule(rules, R::CrewMine, format!("one cube per Miner: at most {miners}"))));
        }
        if self.locs[loc].count(c) < n {
            return Err(refuse(rules, R::CrewMine, "the planet does not have that many cubes left"));
        }
        Ok(())
    }

    pub(super) fn check_displace<W: Why>(&self, rules: &Rules, seat: usize, mask: u8) -> Result<(), W> {
        let n = self.count_ability(rules, seat, Ability::Displace);
        let targets = (0..self.players).filter(|s| mask & (1 << s) != 0);
        let count = targets.clone().count() as u32;
        if n == 0 || count == 0 || count > n || mask >> self.players != 0 {
            return Err(W::why(|| rule(rules, R::CrewDisplace, format!("one ship per Rustler: 1 to {n} ships"))));
        }
        for t in targets {
            let Some(d) = self.ships[t] else {
                return Err(refuse(rules, R::CrewDisplace, "a ship in space cannot be displaced"));
            };
            let at_home = rules.home_of(t) == Some(rules.docks[d.index()].loc);
            if at_home && self.r::<DisplaceHomeBase>() == DisplaceHomeBase::NotFromHomeBase {
                return Err(refuse(
                    rules,
                    R::CrewDisplace,
                    "a ship at its home base cannot be displaced (reading displace-home-base)",
                ));
            }
        }
        Ok(())
    }

    /// Whether the storage (or cargo) of `seat` holds `price`.
    pub(super) fn can_pay(&self, from_cargo: bool, seat: usize, price: &Price) -> bool {
        let zone = if from_cargo { &self.cargo[seat] } else { &self.storage[seat] };
        price.iter().all(|&(c, n)| zone.count(c) >= n)
    }

    pub(super) fn check_buy<W: Why>(&self, rules: &Rules, seat: usize, slot: u8, way: u8) -> Result<(), W> {
        if self.bought > 0 && self.r::<PurchasesPerTurn>() == PurchasesPerTurn::OnePerTurn {
            return Err(refuse(rules, R::BuyLimit, "one card a turn (reading purchases-per-turn)"));
        }
        let Some(card) = self.display.at(usize::from(slot)) else {
            return Err(refuse(rules, R::BuyPayment, "that display slot is empty"));
        };
        let Some(price) = rules.card(card).cost.get(usize::from(way)) else {
            return Err(refuse(rules, R::BuyPayment, "the card has no such cost"));
        };
        if !self.can_pay(false, seat, price) {
            return Err(refuse(
                rules,
                R::BuyPayment,
                "the storage does not hold the cost (cargo cannot pay for cards)",
            ));
        }
        Ok(())
    }

    pub(super) fn check_deal<W: Why>(&self, rules: &Rules, seat: usize, p: u8) -> Result<(), W> {
        let Some(tile) = self.deal_piles.get(usize::from(p)).and_then(|pile| pile.top()) else {
            return Err(refuse(rules, R::DealPayment, "that pile is empty"));
        };
        let gold = rules.piles[usize::from(p)].gold;
        if self.r::<SuperDealShortBank>() == SuperDealShortBank::NotAllowed && self.bank_gold(rules) < gold {
            return Err(refuse(
                rules,
                R::DealPayment,
                "the bank does not hold the deal's gold (reading super-deal-short-bank)",
            ));
        }
        if !self.can_pay(true, seat, &rules.tiles[tile.index()].price) {
            return Err(refuse(rules, R::DealPayment, "the cargo does not hold the deal's price"));
        }
        Ok(())
    }

    pub(super) fn check_trade<W: Why>(
        &self,
        rules: &Rules,
        seat: usize,
        give: Id<Cube>,
        take: Id<Cube>,
    ) -> Result<(), W> {
        let Some(d) = self.ships[seat] else {
            return Err(refuse(rules, R::CrewTrade, "the ship is not docked"));
        };
        let dice = self.trade_dice(rules, d);
        let find = |c: Id<Cube>| dice.iter().find(|x| x.1 == c).copied();
        let (Some(g), Some(t)) = (find(give), find(take)) else {
            return Err(refuse(rules, R::CrewTrade, "the dice beside the dock do not offer that trade"));
        };
        if give == take {
            return Err(refuse(rules, R::CrewTrade, "a trade gives one commodity for another"));
        }
        if give == rules.gold && self.r::<TradeDirection>() == TradeDirection::GoldBoughtOnly {
            return Err(refuse(rules, R::CrewTrade, "gold is only bought (reading trade-direction)"));
        }
        if take == rules.scrap && self.r::<TradeForScrap>() == TradeForScrap::NotObtainable {
            return Err(refuse(rules, R::CrewTrade, "no trade gives scrap (reading trade-for-scrap)"));
        }
        if self.cargo[seat].count(give) < g.2 || self.home_count(rules, take) < t.2 {
            return Err(refuse(rules, R::CrewTrade, "the cargo or the supply does not hold the trade's cubes"));
        }
        Ok(())
    }

    pub(super) fn check_nudge<W: Why>(&self, rules: &Rules, seat: usize, place: Option<u8>, up: bool) -> Result<(), W> {
        let Some(d) = self.ships[seat] else {
            return Err(refuse(rules, R::CrewTrade, "the ship is not docked"));
        };
        let (value, faces) = match place {
            None if self.r::<GoldDieNudge>() == GoldDieNudge::GoldDieToo => (self.gold_die, rules.gold_faces),
            None => {
                return Err(refuse(rules, R::CrewTrade, "Agents nudge six-sided dice only (reading gold-die-nudge)"));
            }
            Some(p) if self.trade_dice(rules, d).iter().any(|x| x.0 == Some(p)) => {
                (self.dice[usize::from(p)], rules.faces)
            }
            Some(_) => return Err(refuse(rules, R::CrewTrade, "that die is not beside the dock")),
        };
        let within = self.r::<NudgeRange>() == NudgeRange::WithinFaces;
        if within && !(if up { value < faces } else { value > 1 }) {
            return Err(refuse(rules, R::CrewTrade, "the die cannot go past its faces (reading nudge-range)"));
        }
        Ok(())
    }
}
