//! Dodge City's vocabulary for conditions over its states (`rulecheck
//! find --until`): a player's money, debt, points, hand and tokens, who
//! controls a building, the town and the decks; event kinds are its event
//! variants (`duel-won`, `sold`, `debt-left`).

use super::rules_data::Rules;
use super::state::{Event, State};
use crate::engine::{Id, NO_ARGS, ONE_PLAYER, PLAYER, Query, Term};

const B: &[&str] = &["building"];

/// The terms, in `value`'s order.
const TERMS: &[Term] = &[
    Term::num("money", ONE_PLAYER, "the player's dollars"),
    Term::num("debt", ONE_PLAYER, "dollars the player still owes"),
    Term::num("points", ONE_PLAYER, "the player's points"),
    Term::num("hand", ONE_PLAYER, "cards in the player's hand"),
    Term::num("supply", ONE_PLAYER, "tokens in the player's supply"),
    Term::num("out", ONE_PLAYER, "the player's tokens out of the game"),
    Term::num("tokens", ONE_PLAYER, "the player's tokens in the town"),
    Term::num("tokens-in", &[PLAYER, "building"], "the player's tokens in a building"),
    Term::num("discs", ONE_PLAYER, "symbol discs the player has"),
    Term::pred("controls", &[PLAYER, "building"], "the player controls a building"),
    Term::pred("open", B, "the building is in play"),
    Term::pred("closed", B, "the building is closed"),
    Term::num("deck", NO_ARGS, "cards left in the deck"),
    Term::num("discard", NO_ARGS, "cards in the discard pile"),
    Term::num("events-left", NO_ARGS, "event cards left"),
    Term::num("round", NO_ARGS, "the round"),
    Term::pred("over", NO_ARGS, "the game has ended"),
];

impl Query for State {
    crate::event_variants!(Event);

    fn terms() -> &'static [Term] {
        TERMS
    }

    fn kinds(rules: &Rules) -> Vec<(&'static str, Vec<String>)> {
        vec![("building", rules.buildings.iter().map(|b| b.id.clone()).collect())]
    }

    fn value(&self, rules: &Rules, term: usize, a: &[usize]) -> i64 {
        let b = |x: bool| i64::from(x);
        let bld = |i: usize| Id::new(i).ok();
        let seat = || &self.seats[a[0]];
        let v: u32 = match TERMS[term].name {
            "money" => return i64::from(seat().money.value()),
            "debt" => self.debts.iter().filter(|(s, _)| usize::from(*s) == a[0]).map(|(_, d)| *d).sum(),
            "points" => seat().points,
            "hand" => seat().hand.total(),
            "supply" => seat().supply.count(),
            "out" => seat().out.count(),
            "tokens" => self.tokens_in_town(a[0]),
            "tokens-in" => bld(a[1]).map_or(0, |x| self.tokens_in(x, a[0])),
            "discs" => seat().discs.len() as u32,
            "controls" => return b(bld(a[1]).is_some_and(|x| self.control(rules, x, a[0]).is_some())),
            "open" => return b(self.town.get(a[0]).is_some_and(|t| t.in_play)),
            "closed" => return b(self.town.get(a[0]).is_some_and(|t| t.closed)),
            "deck" => self.deck.len() as u32,
            "discard" => self.discard.len() as u32,
            "events-left" => self.events.len() as u32,
            "round" => self.round,
            "over" => return b(self.over.is_some()),
            other => unreachable!("a term without a value: {other}"),
        };
        i64::from(v)
    }
}
