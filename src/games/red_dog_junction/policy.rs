//! The random player's preferences (`Game::play_weights`): how a playout
//! picks among the legal actions. Uniform choice over Red Dog Junction's
//! legal list almost never chains the actions a purchase or a Super Deal
//! needs (fly out, dock at a planet, mine, fly home, unload, buy), so
//! gold never leaves the bank, the deck never runs out, and every uniform
//! game ran into the turn cap. These weights are a harness choice, not a
//! rule: every legal action keeps a weight of at least one, so nothing
//! legal becomes unreachable, and a recorded game (its choice indices)
//! replays the same whatever the weights. Not yet enough: with these
//! weights random games still reach the turn cap (0 of 200 at 2 and 4
//! players end for real); `tests/rdj_ends.rs` checks the weights' shape.

use super::rules::{Action, Phase, State};
use super::rules_data::*;
use crate::engine::Id;

/// A buy, a Super Deal, a trade for gold: what moves the game to its end.
const GOAL: u32 = 60;
/// Docking where a goal can be reached now (the Haberdashery with a deal's
/// price aboard, home with a hold worth unloading).
const GOAL_DOCK: u32 = 30;
/// An action that gathers what a goal needs (mining, unloading, a trade).
const GATHER: u32 = 12;
/// Docking where the crew or the cargo can do something.
const USEFUL_DOCK: u32 = 6;
/// Leaving a dock for space.
const UNDOCK: u32 = 3;
/// Everything else legal.
const OTHER: u32 = 1;
/// Cubes aboard worth flying home to unload.
const HOLD: u32 = 4;

impl State {
    /// A positive weight for each action of `legal`, aligned with it.
    pub fn play_weights(&self, rules: &Rules, legal: &[Action], out: &mut Vec<u32>) {
        out.clear();
        out.extend(legal.iter().map(|a| self.weight(rules, a)));
    }

    fn weight(&self, rules: &Rules, a: &Action) -> u32 {
        let seat = self.active;
        let target = self.target_deal(rules, seat);
        // a cube the target deal still asks aboard
        let short = |c: Id<Cube>| target.iter().any(|&(k, n)| k == c && self.cargo[seat].count(c) < n);
        let pick = |yes: bool, w: u32| if yes { w } else { OTHER };
        match *a {
            Action::Buy { .. } | Action::Deal(_) | Action::RascalDeal(_) => GOAL,
            Action::Trade { take, .. } => pick(take == rules.gold || short(take), GOAL),
            Action::Agents | Action::Salvage => GATHER,
            Action::Mine(_) => {
                let here = self.loc_of(rules, seat).map(|l| rules.locations[l].kind);
                pick(matches!(here, Some(LocKind::Planet(c)) if short(c)), GOAL)
            }
            Action::SalvageCube(c) => pick(short(c) || c == rules.gold, GATHER),
            Action::LoadCube(c) => pick(short(c), GATHER),
            // storage pays for cards and scores gold: unload what the deal does not need
            Action::UnloadCube(c) => pick(!short(c), GOAL),
            Action::Jettison(c) => pick(!short(c) && c != rules.gold, GATHER),
            Action::Load => GATHER,
            Action::Done if self.phase == Phase::Loading => 1,
            Action::Move(None) => UNDOCK,
            Action::Move(Some(d)) => self.dock_weight(rules, seat, rules.docks[d.index()].loc, &short),
            _ => OTHER,
        }
    }

    /// The price of the top Super Deal `seat` is closest to holding aboard
    /// (a cube no planet yields counts as far off).
    fn target_deal(&self, rules: &Rules, seat: usize) -> Price {
        let far = |p: &Price| -> u32 {
            p.iter()
                .map(|&(c, n)| {
                    let missing = n.saturating_sub(self.cargo[seat].count(c));
                    let mined = rules.locations.iter().any(|l| l.kind == LocKind::Planet(c));
                    missing * if mined { 1 } else { 10 }
                })
                .sum()
        };
        let tops = self.deal_piles.iter().filter_map(|p| p.top()).map(|t| &rules.tiles[t.index()].price);
        tops.min_by_key(|p| far(p)).cloned().unwrap_or_default()
    }

    /// How much docking at `loc` lets `seat` do there.
    fn dock_weight(&self, rules: &Rules, seat: usize, loc: usize, short: &dyn Fn(Id<Cube>) -> bool) -> u32 {
        let aboard = self.cargo[seat].total();
        match rules.locations[loc].kind {
            LocKind::Haberdashery if self.deal_aboard(rules, seat) => GOAL_DOCK,
            LocKind::Planet(c)
                if self.count_ability(rules, seat, Ability::Mine) > 0 && self.locs[loc].count(c) > 0 && short(c) =>
            {
                GOAL_DOCK
            }
            LocKind::Home(_) if aboard >= HOLD || self.cargo[seat].count(rules.gold) > 0 => GOAL_DOCK,
            LocKind::Junction if aboard > 0 && self.count_ability(rules, seat, Ability::Trade) > 0 => USEFUL_DOCK,
            _ => OTHER,
        }
    }

    /// Whether the cargo holds the price of a Super Deal on top of a pile.
    fn deal_aboard(&self, rules: &Rules, seat: usize) -> bool {
        self.deal_piles
            .iter()
            .filter_map(|p| p.top())
            .any(|t| rules.tiles[t.index()].price.iter().all(|&(c, n)| self.cargo[seat].count(c) >= n))
    }
}
