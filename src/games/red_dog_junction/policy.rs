//! The random player's policy (`Game::play_weights`): a positive weight for
//! every legal action, so random games play towards the bank's gold as
//! players do, and reach the end the rules give.
//!
//! Not a rule: every legal action keeps a weight of at least 1, so every
//! line of play stays reachable, and scripted choices (replays, shrinking,
//! scenarios) ignore the weights. Uniform choice over the legal list starves
//! the game's end: a ship has a dozen docks to move to and a purchase
//! expands to a slot and a cost each, while the two ways gold leaves the
//! bank (a trade for gold at the Junction, a Super Deal at the Haberdashery)
//! are one action each, legal only after several purposeful ones (mine,
//! fly to the right dock). The weights prefer, in this order: completing a
//! Super Deal or a trade for gold that the cargo already pays; flying where
//! the cargo pays one; mining and salvaging; flying home to unload; hiring
//! crew (more Miners and Agents, more gold a turn) over buying Boosts, whose
//! gold goes back to the bank. Readings are peeked, not marked consulted:
//! the policy is not the rules.

use super::readings::*;
use super::rules::{Action, Phase, State};
use super::rules_data::*;
use crate::engine::Id;

/// Certain: the action the policy is after (a Super Deal, a trade for gold).
const SURE: u32 = 10_000;
/// Flying to where the cargo pays a Super Deal or a trade for gold.
const TOWARDS: u32 = 3_000;

impl State {
    /// The policy's weight of each legal action, aligned with `legal`.
    pub fn play_weights(&self, rules: &Rules, legal: &[Action], out: &mut Vec<u32>) {
        out.clear();
        out.extend(legal.iter().map(|a| self.weight(rules, a).max(1)));
    }

    fn weight(&self, rules: &Rules, a: &Action) -> u32 {
        let seat = self.active;
        let cargo = &self.cargo[seat];
        match (self.phase, *a) {
            (Phase::Jettison, Action::Jettison(c)) => {
                if c == rules.gold {
                    1
                } else {
                    10
                }
            }
            (Phase::Loading, Action::UnloadCube(_)) => 50,
            (Phase::Loading, Action::LoadCube(_)) => 2,
            (Phase::Loading, _) => 5,
            (Phase::Salvage { .. }, Action::SalvageCube(c)) => {
                if c == rules.gold {
                    100
                } else {
                    10
                }
            }
            (Phase::Agents { .. }, Action::Trade { take, .. }) if take == rules.gold => SURE,
            (Phase::Agents { .. }, Action::Trade { .. }) => 5,
            (Phase::Agents { .. }, Action::Nudge { place: Some(p), up: false }) => {
                if cargo.count(self.die_commodity(rules, p)) > 0 { 20 } else { 2 }
            }
            (Phase::Agents { .. }, Action::Nudge { .. }) => 2,
            (Phase::Agents { .. }, _) => 10,
            (Phase::Actions, a) => self.action_weight(rules, seat, a),
            _ => 1,
        }
    }

    fn action_weight(&self, rules: &Rules, seat: usize, a: Action) -> u32 {
        let cargo = &self.cargo[seat];
        match a {
            Action::Deal(_) | Action::RascalDeal(_) => SURE,
            Action::Agents => match self.ships[seat] {
                Some(d) if self.gold_trade_at(rules, seat, d) => SURE,
                _ => 1,
            },
            Action::Mine(n) => 100 * u32::from(n),
            Action::Salvage => 30,
            Action::Load => {
                if cargo.total() > 0 {
                    200
                } else {
                    2
                }
            }
            Action::Buy { slot, way } => {
                let Some(card) = self.display.at(usize::from(slot)).map(|c| rules.card(c)) else { return 1 };
                let gold = card.cost.get(usize::from(way)).is_some_and(|p| p.iter().any(|&(c, _)| c == rules.gold));
                match card.ability {
                    _ if gold => 2,
                    Ability::Mine | Ability::Trade | Ability::Cargo => 100,
                    _ => 20,
                }
            }
            Action::Officer(_) | Action::Boost(_) => 20,
            Action::Move(None) => 20,
            Action::Move(Some(d)) => match rules.locations[rules.docks[d.index()].loc].kind {
                LocKind::Junction if self.gold_trade_at(rules, seat, d) => TOWARDS,
                LocKind::Junction => 5,
                LocKind::Haberdashery if self.deal_in_cargo(rules, seat) => TOWARDS,
                LocKind::Haberdashery => 1,
                LocKind::Planet(_) => 20,
                LocKind::Home(_) if cargo.count(rules.gold) > 0 || cargo.total() >= 6 => 100,
                LocKind::Home(_) => 5,
                LocKind::Bank => 1,
            },
            _ => 1,
        }
    }

    /// The commodity of the die on a place.
    fn die_commodity(&self, rules: &Rules, place: u8) -> Id<Cube> {
        rules.dice[usize::from(self.die_at[usize::from(place)])].0
    }

    /// Whether the cargo pays a trade for gold at Junction dock `d` now.
    fn gold_trade_at(&self, rules: &Rules, seat: usize, d: Id<Dock>) -> bool {
        if rules.docks[d.index()].loc != rules.junction || self.bank_gold(rules) < u32::from(self.gold_die) {
            return false;
        }
        let places = &rules.docks[d.index()].places;
        let n = match self.peek::<DiceAdjacency>() {
            DiceAdjacency::TwoBeside => places.len(),
            DiceAdjacency::OneFacing => places.len().min(1),
        };
        places[..n]
            .iter()
            .any(|&p| self.cargo[seat].count(self.die_commodity(rules, p)) >= u32::from(self.dice[usize::from(p)]))
    }

    /// Whether the cargo pays the top Super Deal of a pile the bank can pay.
    fn deal_in_cargo(&self, rules: &Rules, seat: usize) -> bool {
        let bank = self.bank_gold(rules);
        self.deal_piles.iter().zip(&rules.piles).any(|(pile, def)| {
            pile.top().is_some_and(|t| bank >= def.gold && self.can_pay(true, seat, &rules.tiles[t.index()].price))
        })
    }
}
