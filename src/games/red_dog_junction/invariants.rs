//! Red Dog Junction's invariants, each with its rulebook place and the
//! planted fault (`rules::Fault`) that breaks it.

use super::rules::{Action, Event, Fault, State};
use super::rules_data::*;
use super::zones::{CARD_ZONES, CUBE_ZONES};
use crate::engine::{Check, Id, InvariantDef, Violation, conserved};

crate::invariant_table! { Fault;
    "commodity-conservation": "every commodity's cubes add up to its count across space, locations, ships, storage and the box", "Components; Game Concepts: Paying with commodities", "mine-extra-cube" => MineExtraCube;
    "scrap-never-in-bank": "no scrap lies on any location tile", "FAQ (scrap goes back into space)", "scrap-to-bank" => ScrapToBank;
    "one-ship-per-dock": "no dock holds two ships", "Game Concepts: Docks", "double-dock" => DoubleDock;
    "no-foreign-home-base": "no ship is docked at another player's home base", "Actions: Move", "enter-foreign-home" => EnterForeignHome;
    "cargo-within-capacity": "when a turn ends, the ship that played it holds no more than its capacity", "Game Concepts: Capacity and Jettison", "no-jettison" => NoJettison;
    "actions-per-turn": "a turn begins no more actions than the turn allows (two; three for the solo player; more a card's effect gives)", "On Your Turn; Solo Play", "third-action" => ThirdAction;
    "dice-within-faces": "every die shows one of its faces", "Setup; Crew Actions: Trade", "die-seven" => DieSeven;
    "card-conservation": "every card type's copies add up across deck, display, crews, boosts (unused and played), draft hands, discard and the box", "Components; Setup", "lose-bought-card" => LoseBoughtCard;
    "countdown-turns": "once the bank's gold is gone, the game lasts the turns the countdown allows", "End of Game", "countdown-short" => CountdownShort;
    "score-is-sum": "a final score is stored gold plus card points plus Super Deals", "End of Game", "score-bonus" => ScoreBonus;
}

/// What the transition checks remember from before an action.
#[derive(Debug, Clone)]
pub struct Before {
    turns: u32,
    seat: usize,
}

fn fail(invariant: &'static str, detail: String) -> Result<(), Violation> {
    Err(Violation { invariant, detail })
}

impl Check for State {
    type Before = Before;
    fn before(&self) -> Before {
        Before { turns: self.turns, seat: self.active }
    }
    fn invariants() -> &'static [InvariantDef] {
        INVARIANTS
    }
    fn check_invariants(&self, rules: &Rules, b: &Before, _: &Action, events: &[Event]) -> Result<(), Violation> {
        let s = self;
        // the totals are the rules' (cubes) or fixed by the configuration (cards)
        let also = rules as *const Rules as u64;
        let (seats, kept) = (s.players, &s.conserved);
        conserved(CUBE_ZONES, s, (seats, rules.cubes.len(), &[]), (&kept.cubes, also), |t| {
            t.check(|c| rules.cube_total(c)).or_else(|e| {
                fail("commodity-conservation", crate::games::red_dog_junction::describe_imbalance(rules, e))
            })
        })?;
        if s.locs.iter().any(|z| z.count(rules.scrap) > 0) {
            return fail("scrap-never-in-bank", "scrap lies on a location tile".into());
        }
        for (i, a) in s.ships.iter().enumerate() {
            if let Some(d) = a {
                if s.ships[..i].contains(&Some(*d)) {
                    return fail("one-ship-per-dock", format!("two ships on {}", rules.dock_name(*d)));
                }
                if let LocKind::Home(owner) = rules.dock_loc(*d).kind
                    && owner != i
                {
                    return fail("no-foreign-home-base", format!("p{} is docked at p{}'s home base", i + 1, owner + 1));
                }
            }
        }
        if s.turns != b.turns && s.cargo[b.seat].total() > s.capacity(rules, b.seat) {
            return fail(
                "cargo-within-capacity",
                format!("p{} ended a turn with {} cubes aboard", b.seat + 1, s.cargo[b.seat].total()),
            );
        }
        if s.actions_taken > s.actions_for(s.active) + s.bonus_actions {
            return fail("actions-per-turn", format!("{} actions begun this turn", s.actions_taken));
        }
        if s.dice.iter().any(|&v| v == 0 || v > rules.faces) || s.gold_die == 0 || s.gold_die > rules.gold_faces {
            return fail("dice-within-faces", "a die shows a value it does not have".into());
        }
        conserved(CARD_ZONES, s, (seats, rules.cards.len(), &[]), (&kept.cards, also), |t| {
            t.check(s.card_total(rules))
                .or_else(|_| fail("card-conservation", "a card type's copies do not add up".into()))
        })?;
        if let (Some((_, started)), Some(super::rules::End::Countdown)) = (s.countdown, s.end) {
            let after = s.turns.saturating_sub(started + 1);
            let k = s.p(super::readings::P::CountdownTurns) * s.players as u32;
            let due = match s.r::<super::readings::CountdownTurns>() {
                super::readings::CountdownTurns::AfterThisTurn => k,
                super::readings::CountdownTurns::ThisTurnCounts => k.saturating_sub(1),
            };
            if after != due {
                return fail(
                    "countdown-turns",
                    format!("the game ended {after} turns after the bank emptied, not {due}"),
                );
            }
        }
        if s.end.is_some() && events.iter().any(|e| matches!(e, Event::GameOver(_))) {
            for seat in 0..s.players {
                let (g, k, d) = s.score(rules, seat);
                if s.total_score(rules, seat) != i64::from(g + k + d) {
                    return fail("score-is-sum", format!("p{}'s score is not the sum of its parts", seat + 1));
                }
            }
        }
        let _ = Id::<Cube>::ZERO;
        Ok(())
    }
    fn inject_fault(&mut self, fault: &str) -> bool {
        fault_named(fault).map(|f| self.fault = Some(f)).is_some()
    }
    fn faults() -> &'static [&'static str] {
        FAULTS
    }
}
