//! The solo Automa (red-dog-junction-en, Solo Play): seat p2 of a solo
//! game takes no actions. When its turn comes it takes the last card of the
//! display onto its crew stack and reacts to the card's type; the two
//! choices the text gives the solo player (which Junction dock for an
//! Agent, which planet for a Miner) wait as `Phase::Automa` for p1's
//! `Action::Send`. Every reaction the text leaves open is an
//! interpretation (`automa-*` in `interpretations.yaml`).

use super::readings::*;
use super::rules::{Errand, Event, Phase, State, refuse};
use super::rules_data::*;
use crate::engine::{Id, Why, move_n};

/// The Automa's seat.
const AUTOMA: usize = 1;

impl State {
    /// The salvage order of the text (gold, whiskey, mined commodities,
    /// scrap) as a rank, 0 first: what the Automa takes first and gives,
    /// trades and jettisons last.
    fn rank(rules: &Rules, c: Id<Cube>) -> u8 {
        if c == rules.gold {
            0
        } else if c == rules.scrap {
            3
        } else if rules.cube(c).home == Home::Loc(rules.bank) {
            1
        } else {
            2
        }
    }

    /// The commodities in the salvage order (catalog order within a rank).
    fn by_rank(rules: &Rules) -> Vec<Id<Cube>> {
        let mut all: Vec<Id<Cube>> = Id::first(rules.cubes.len()).collect();
        all.sort_by_key(|&c| (Self::rank(rules, c), c.index()));
        all
    }

    /// The Automa's turn: the last display card, and its reaction.
    pub(super) fn automa_turn(&mut self, rules: &Rules, ev: &mut Vec<Event>) {
        let mut filled = self.display.slots().iter().enumerate().filter(|(_, s)| s.is_some()).map(|(i, _)| i);
        let slot = match self.r::<AutomaLastCard>() {
            AutomaLastCard::FarthestFromDeck => filled.next_back(),
            AutomaLastCard::NearestToDeck => filled.next(),
        };
        let Some(card) = slot.and_then(|i| self.display.at(i)).zip(slot) else {
            return self.automa_finish(rules, ev);
        };
        let (card, slot) = card;
        let def = rules.card(card);
        let to_discard = def.class == Class::Boost;
        let taken = if to_discard {
            self.display.take_slot(slot, &mut self.discard)
        } else {
            self.display.take_slot(slot, &mut self.crew[AUTOMA])
        };
        if taken.is_err() {
            return self.automa_finish(rules, ev);
        }
        ev.push(Event::AutomaTakes { card });
        match (def.class, def.ability) {
            (Class::Boost, _) => self.automa_gold(rules, ev),
            (Class::Officer, _) => {
                if self.r::<AutomaOfficer>() == AutomaOfficer::GoldLikeABoost {
                    self.automa_gold(rules, ev);
                }
            }
            (Class::Crew, Ability::Cargo) => {
                if let Some(home) = rules.home_of(AUTOMA) {
                    self.automa_move(rules, Id::new(rules.locations[home].first_dock).ok(), ev);
                }
                let aboard: Vec<(Id<Cube>, u8)> = self.cargo[AUTOMA].iter().collect();
                for (c, n) in aboard {
                    let _ = move_n(&mut self.cargo[AUTOMA], &mut self.storage[AUTOMA], c, u32::from(n));
                    ev.push(Event::Cubes { seat: AUTOMA, what: "unloads", cube: c, n: u32::from(n) });
                }
            }
            (Class::Crew, Ability::Salvage) => self.automa_salvage(rules, ev),
            (Class::Crew, Ability::Trade) => return self.automa_errand(rules, Errand::Trade, ev),
            (Class::Crew, Ability::Mine) => return self.automa_errand(rules, Errand::Mine, ev),
            (Class::Crew, Ability::Displace) => {
                for seat in [0, AUTOMA] {
                    if let Some(d) = self.ships[seat].take() {
                        let _ = self.occupancy.leave(d);
                        ev.push(Event::Displaced { seat });
                    }
                }
            }
            (Class::Crew, Ability::Swap) => self.automa_swap(rules, ev),
            (Class::Crew, Ability::None) => self.automa_deal(rules, ev),
        }
        self.automa_finish(rules, ev);
    }

    /// A Boost's gold from the bank to the Automa's home base (what is left).
    fn automa_gold(&mut self, rules: &Rules, ev: &mut Vec<Event>) {
        let g = rules.gold;
        let n = self.p(super::readings::P::AutomaBoostGold).min(self.bank_gold(rules));
        let mut bank = self.home_zone(rules, g).clone();
        let _ = move_n(&mut bank, &mut self.storage[AUTOMA], g, n);
        *self.home_zone(rules, g) = bank;
        if n > 0 {
            ev.push(Event::Cubes { seat: AUTOMA, what: "stores", cube: g, n });
        }
    }

    /// The Automa's ship to a dock or to space (no rule applies: the text moves it).
    fn automa_move(&mut self, rules: &Rules, to: Option<Id<Dock>>, ev: &mut Vec<Event>) {
        if self.ships[AUTOMA] == to {
            return;
        }
        if let Some(d) = self.ships[AUTOMA].take() {
            let _ = self.occupancy.leave(d);
        }
        if let Some(d) = to {
            let _ = self.occupancy.enter(&rules.dock_graph, d);
        }
        self.ships[AUTOMA] = to;
        ev.push(Event::Moved { seat: AUTOMA, to });
    }

    fn automa_salvage(&mut self, rules: &Rules, ev: &mut Vec<Event>) {
        if self.space.total() == 0 && self.r::<AutomaScavengerEmpty>() == AutomaScavengerEmpty::StaysPut {
            return;
        }
        self.automa_move(rules, None, ev);
        let mut left = self.p(P::AutomaSalvage);
        for c in Self::by_rank(rules) {
            let n = left.min(self.space.count(c));
            if n > 0 {
                let _ = move_n(&mut self.space, &mut self.cargo[AUTOMA], c, n);
                ev.push(Event::Cubes { seat: AUTOMA, what: "salvages", cube: c, n });
                left -= n;
            }
        }
    }

    /// The docks the solo player may send the Automa's ship to: free
    /// Junction docks, or free planets (its own, as `automa-own-dock` says).
    pub(super) fn errand_docks(&self, rules: &Rules, errand: Errand) -> Vec<Id<Dock>> {
        Id::<Dock>::first(rules.docks.len())
            .filter(|&d| {
                let kind = rules.dock_loc(d).kind;
                let fits = match errand {
                    Errand::Trade => kind == LocKind::Junction,
                    Errand::Mine => matches!(kind, LocKind::Planet(_)),
                };
                let own = self.ships[AUTOMA] == Some(d);
                fits && if own {
                    self.r::<AutomaOwnDock>() == AutomaOwnDock::CountsAsFree
                } else {
                    self.occupancy.at(d) == 0
                }
            })
            .collect()
    }

    /// An Agent or a Miner: the solo player chooses the dock. (Two ships
    /// never fill four planets or six Junction docks, so a free one is
    /// always left; should none be, the card does nothing.)
    fn automa_errand(&mut self, rules: &Rules, errand: Errand, ev: &mut Vec<Event>) {
        if self.errand_docks(rules, errand).is_empty() {
            return self.automa_finish(rules, ev);
        }
        self.phase = Phase::Automa(errand);
    }

    pub(super) fn check_send<W: Why>(&self, rules: &Rules, errand: Errand, d: Id<Dock>) -> Result<(), W> {
        if self.errand_docks(rules, errand).contains(&d) {
            return Ok(());
        }
        Err(refuse(
            rules,
            R::SoloAutoma,
            match errand {
                Errand::Trade => "the Automa's Agent goes to a free Red Dog Junction dock",
                Errand::Mine => "the Automa's Miner goes to an unoccupied planet",
            },
        ))
    }

    /// The solo player's choice: the Automa docks there and trades or mines.
    pub(super) fn send(&mut self, rules: &Rules, errand: Errand, d: Id<Dock>, ev: &mut Vec<Event>) {
        self.phase = Phase::Actions;
        self.automa_move(rules, Some(d), ev);
        match (errand, rules.dock_loc(d).kind) {
            (Errand::Trade, _) => self.automa_trade(rules, ev),
            (Errand::Mine, LocKind::Planet(c)) => {
                let loc = rules.docks[d.index()].loc;
                let n = self.p(P::AutomaMine).min(self.locs[loc].count(c));
                let _ = move_n(&mut self.locs[loc], &mut self.cargo[AUTOMA], c, n);
                ev.push(Event::Cubes { seat: AUTOMA, what: "mines", cube: c, n });
            }
            (Errand::Mine, _) => {}
        }
        self.automa_finish(rules, ev);
    }

    /// Every cube aboard but gold, one for one for the bank's gold while it
    /// has any, in the order `automa-agent-short-bank` says.
    fn automa_trade(&mut self, rules: &Rules, ev: &mut Vec<Event>) {
        let g = rules.gold;
        let mut order = Self::by_rank(rules);
        if self.cargo[AUTOMA].total() > self.bank_gold(rules)
            && self.r::<AutomaShortBank>() == AutomaShortBank::LeastWorthFirst
        {
            order.reverse();
        }
        for c in order.into_iter().filter(|&c| c != g) {
            let n = self.cargo[AUTOMA].count(c).min(self.bank_gold(rules));
            if n == 0 || !self.pay(rules, true, AUTOMA, &vec![(c, n)]) {
                continue;
            }
            let mut bank = self.home_zone(rules, g).clone();
            let _ = move_n(&mut bank, &mut self.cargo[AUTOMA], g, n);
            *self.home_zone(rules, g) = bank;
            ev.push(Event::Traded { seat: AUTOMA, give: (c, n), take: (g, n) });
        }
    }

    /// An Outlaw: both ships to space, then up to six cubes each way, the
    /// solo player's best for the Automa's least worth (`automa-outlaw`).
    fn automa_swap(&mut self, rules: &Rules, ev: &mut Vec<Event>) {
        for seat in [0, AUTOMA] {
            if let Some(d) = self.ships[seat].take() {
                let _ = self.occupancy.leave(d);
                ev.push(Event::Displaced { seat });
            }
        }
        let order = Self::by_rank(rules);
        let n = self.p(P::AutomaSwap) as usize;
        let spread = |z: &super::rules::Cubes, order: &mut dyn Iterator<Item = Id<Cube>>| {
            order.flat_map(|c| std::iter::repeat_n(c, z.count(c) as usize)).take(n).collect::<Vec<_>>()
        };
        let take = spread(&self.cargo[0], &mut order.iter().copied());
        let give = spread(&self.cargo[AUTOMA], &mut order.iter().rev().copied());
        let gains_only = self.r::<AutomaOutlaw>() == AutomaOutlaw::GainsOnly;
        let pairs: Vec<(Id<Cube>, Id<Cube>)> = take
            .into_iter()
            .zip(give)
            .take_while(|&(t, g)| !gains_only || Self::rank(rules, t) < Self::rank(rules, g))
            .collect();
        for (t, g) in pairs {
            let (player, automa) = self.cargo.split_at_mut(AUTOMA);
            let _ = move_n(&mut player[0], &mut automa[0], t, 1);
            let _ = move_n(&mut automa[0], &mut player[0], g, 1);
            ev.push(Event::Cubes { seat: AUTOMA, what: "swaps in", cube: t, n: 1 });
            ev.push(Event::Cubes { seat: AUTOMA, what: "swaps away", cube: g, n: 1 });
        }
    }

    /// A Rascal: to the Haberdashery (if its dock is free, else as
    /// `automa-rascal-dock-taken` says) and the top tile of the eight-gold
    /// pile, its gold aboard (`automa-rascal`); with that pile empty the
    /// Automa deals nothing (a commodity that has run out, FAQ).
    fn automa_deal(&mut self, rules: &Rules, ev: &mut Vec<Event>) {
        let want = self.p(P::AutomaDealGold);
        let Some(p) = rules.piles.iter().position(|p| p.gold == want) else { return };
        let dock = Id::new(rules.locations[rules.haberdashery].first_dock).ok();
        if let Some(d) = dock {
            if self.occupancy.at(d) == 0 || self.ships[AUTOMA] == Some(d) {
                self.automa_move(rules, Some(d), ev);
            } else if self.r::<AutomaRascalDock>() == AutomaRascalDock::NoDeal {
                return;
            }
        }
        let Some(tile) = self.deal_piles[p].top() else { return };
        if self.r::<AutomaRascal>() == AutomaRascal::PaysFromCargo {
            let price = rules.tiles[tile.index()].price.clone();
            if !self.pay(rules, true, AUTOMA, &price) {
                return;
            }
        }
        let g = rules.gold;
        let gold = rules.piles[p].gold.min(self.bank_gold(rules));
        let mut bank = self.home_zone(rules, g).clone();
        let _ = move_n(&mut bank, &mut self.cargo[AUTOMA], g, gold);
        *self.home_zone(rules, g) = bank;
        let _ = move_n(&mut self.deal_piles[p], &mut self.deals[AUTOMA], tile, 1);
        ev.push(Event::Deal { seat: AUTOMA, tile, gold });
    }

    /// The end of the Automa's turn: cargo above its capacity goes to
    /// space, in the order `automa-jettison` says; the display refills
    /// (`automa-refill`).
    fn automa_finish(&mut self, rules: &Rules, ev: &mut Vec<Event>) {
        let cap = self.capacity(rules, AUTOMA);
        if self.cargo[AUTOMA].total() > cap && self.fault != Some(super::rules::Fault::NoJettison) {
            let mut order = Self::by_rank(rules);
            if self.r::<AutomaJettison>() == AutomaJettison::LeastWorthFirst {
                order.reverse();
            }
            for c in order {
                let n = self.cargo[AUTOMA].total().saturating_sub(cap).min(self.cargo[AUTOMA].count(c));
                if n > 0 {
                    let _ = move_n(&mut self.cargo[AUTOMA], &mut self.space, c, n);
                    ev.push(Event::Cubes { seat: AUTOMA, what: "jettisoned", cube: c, n });
                }
            }
        }
        if self.r::<AutomaRefill>() == AutomaRefill::Refills {
            self.refill(rules, ev);
        }
        self.watch_bank(rules, ev);
        self.pass_turn(ev);
    }
}
