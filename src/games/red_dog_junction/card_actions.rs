//! Officer actions and Boosts: the action that runs a card's effect
//! (`effects`), the choice an effect waits on, and the played Boosts'
//! discard at the turn's end. What each card does is in `cards.yaml`;
//! whether they act at all is `officer-boost-text`.

use super::readings::{R, UnpurchasedBoosts};
use super::rules::{Action, Event, State, refuse, rule};
use super::rules_data::*;
use crate::engine::{Id, RuleError, Why, move_n};

type Checked = Result<(), RuleError>;

impl State {
    /// The Officer actions and Boosts the active player might take.
    pub(super) fn card_candidates(&self, rules: &Rules, out: &mut Vec<Action>) {
        let seat = self.active;
        for (c, _) in self.crew[seat].iter().filter(|(c, _)| rules.card(*c).class == Class::Officer) {
            out.push(Action::Officer(c));
        }
        out.extend(self.boosts[seat].iter().map(|(c, _)| Action::Boost(c)));
    }

    /// Whether `seat` may begin this Officer action or play this Boost.
    pub(super) fn check_card<W: Why>(&self, rules: &Rules, seat: usize, a: &Action) -> Result<(), W> {
        let (c, class, what) = match *a {
            Action::Officer(c) => (c, Class::Officer, "an Officer in the crew"),
            Action::Boost(c) => (c, Class::Boost, "an unused Boost"),
            _ => return Err(refuse(rules, R::TurnActions, "not a card's action")),
        };
        let zone = if class == Class::Officer { &self.crew[seat] } else { &self.boosts[seat] };
        if c.index() >= rules.cards.len() || rules.card(c).class != class || zone.count(c) == 0 {
            return Err(W::why(|| rule(rules, R::CardEffect, format!("that is not {what}"))));
        }
        if class == Class::Boost
            && self.purchased_copies(seat, c) == 0
            && self.r::<UnpurchasedBoosts>() == UnpurchasedBoosts::PurchasedOnly
        {
            return Err(refuse(rules, R::TurnActions, "a Boost action needs a Boost the player purchased"));
        }
        if !self.cards_act() {
            return Err(refuse(
                rules,
                R::CardEffect,
                "under `officer-boost-text: points-only` Officers and Boosts take no action",
            ));
        }
        if self.card_effect(rules, c).is_empty() {
            return Err(W::why(|| {
                rule(rules, R::CardEffect, format!("{} has no effect in this catalog", rules.card(c).name))
            }));
        }
        Ok(())
    }

    /// Begins an Officer action or plays a Boost (the Boost waits beside
    /// the crew until the turn's end).
    pub(super) fn start_card(&mut self, rules: &Rules, seat: usize, a: &Action, ev: &mut Vec<Event>) -> Checked {
        self.check_card::<RuleError>(rules, seat, a)?;
        let c = match *a {
            Action::Boost(c) => {
                // the reading decides which copy is played only while the
                // seat holds an unbought one
                let unbought = self.boosts[seat].count(c) > u32::from(self.purchased_copies(seat, c));
                let bought = !unbought || self.r::<UnpurchasedBoosts>() == UnpurchasedBoosts::PurchasedOnly;
                move_n(&mut self.boosts[seat], &mut self.played, c, 1)
                    .map_err(|_| rule(rules, R::CardEffect, "no such Boost"))?;
                self.unmark_left(seat, c, bought);
                c
            }
            Action::Officer(c) => c,
            _ => return Ok(()),
        };
        ev.push(Event::Played { seat, card: c });
        self.run_effect(rules, c, ev);
        Ok(())
    }

    /// Whether `a` answers the pending choice.
    pub(super) fn check_choose<W: Why>(&self, rules: &Rules, a: &Action) -> Result<(), W> {
        let pending = self.agenda.decision.map(|d| d.choice);
        match *a {
            Action::Choose { choice, option }
                if pending == Some(u32::from(choice)) && usize::from(option) < self.pending_options(rules) =>
            {
                Ok(())
            }
            Action::Choose { .. } => {
                Err(refuse(rules, R::CardEffect, "that is not an option of the choice the card's effect waits on"))
            }
            _ => Err(refuse(rules, R::CardEffect, "choose an option of the card's effect first")),
        }
    }

    /// The option an action names (0 for any other action).
    pub(super) fn chosen(&self, a: &Action) -> u8 {
        if let Action::Choose { option, .. } = *a { option } else { 0 }
    }

    /// End of turn: the played Boosts go to the discard pile.
    pub(super) fn discard_played(&mut self) {
        let played: Vec<(Id<Card>, u8)> = self.played.iter().collect();
        for (c, n) in played {
            let _ = move_n(&mut self.played, &mut self.discard, c, u32::from(n));
        }
    }
}
