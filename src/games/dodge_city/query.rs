//! Dodge City's vocabulary for conditions over its states (`rulecheck
//! find --until`): a player's money, debt, points, hand and tokens, who
//! controls a building, the town and the decks; event kinds are its event
//! variants (`duel-won`, `sold`, `debt-left`).

use super::rules_data::Rules;
use super::state::{Event, State};
use crate::engine::{Id, PLAYER, Query, Sort, Term, variant_name};

const fn num(name: &'static str, args: &'static [&'static str], about: &'static str) -> Term {
    Term { name, args, sort: Sort::Num, about }
}
const fn pred(name: &'static str, args: &'static [&'static str], about: &'static str) -> Term {
    Term { name, args, sort: Sort::Bool, about }
}

const P: &[&str] = &[PLAYER];
const B: &[&str] = &["building"];
const NONE: &[&str] = &[];

/// The terms, in `value`'s order.
const TERMS: &[Term] = &[
    num("money", P, "the player's dollars"),
    num("debt", P, "dollars the player still owes"),
    num("points", P, "the player's points"),
    num("hand", P, "cards in the player's hand"),
    num("supply", P, "tokens in the player's supply"),
    num("out", P, "the player's tokens out of the game"),
    num("tokens", P, "the player's tokens in the town"),
    num("tokens-in", &[PLAYER, "building"], "the player's tokens in a building"),
    num("discs", P, "symbol discs the player has"),
    pred("controls", &[PLAYER, "building"], "the player controls a building"),
    pred("open", B, "the building is in play"),
    pred("closed", B, "the building is closed"),
    num("deck", NONE, "cards left in the deck"),
    num("discard", NONE, "cards in the discard pile"),
    num("events-left", NONE, "event cards left"),
    num("round", NONE, "the round"),
    pred("over", NONE, "the game has ended"),
];

/// The event variants, as `variant_name` spells them.
const EVENTS: &[&str] = &[
    "picked",
    "revealed",
    "played",
    "income",
    "charged",
    "symbol-laid",
    "placed",
    "lapsed",
    "removed",
    "returned",
    "event-drawn",
    "sold",
    "debt-left",
    "challenged",
    "duel-won",
    "duel-drawn",
    "passed",
    "scored",
    "new-round",
    "game-over",
];

impl Query for State {
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
            "supply" => seat().supply,
            "out" => seat().out,
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

    fn event_kinds(_rules: &Rules) -> Vec<String> {
        EVENTS.iter().map(|e| e.to_string()).collect()
    }

    fn kinds_of_event(_rules: &Rules, event: &Event, out: &mut Vec<usize>) {
        let name = variant_name(event);
        if let Some(i) = EVENTS.iter().position(|e| *e == name) {
            out.push(i);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_names_are_variants() {
        assert!(EVENTS.contains(&variant_name(&Event::DuelDrawn).as_str()));
        assert!(EVENTS.contains(&variant_name(&Event::Passed { seat: 0 }).as_str()));
        let mut seen = std::collections::BTreeSet::new();
        assert!(EVENTS.iter().all(|e| seen.insert(*e)), "no event kind twice");
    }
}
