//! Red Dog Junction's vocabulary for conditions over its states
//! (`rulecheck find --until`): a ship's cargo and storage, its crew and
//! score, where it is docked, the bank and space, the decks and the
//! countdown; event kinds are its event variants (`cubes`, `bought`) and,
//! for a cube movement, what moved it (`mined`, `jettisoned`, …).

use super::rules::{Event, State};
use super::rules_data::Rules;
use crate::engine::{Id, NO_ARGS, ONE_PLAYER, PLAYER, Query, Term, variant_kind};

/// The terms, in `value`'s order.
const TERMS: &[Term] = &[
    Term::num("cargo", ONE_PLAYER, "cubes in the player's ship"),
    Term::num("carries", &[PLAYER, "cube"], "cubes of a commodity in the player's ship"),
    Term::num("capacity", ONE_PLAYER, "how many cubes the player's ship holds"),
    Term::num("storage", ONE_PLAYER, "cubes in the player's storage"),
    Term::num("stored", &[PLAYER, "cube"], "cubes of a commodity in the player's storage"),
    Term::num("score", ONE_PLAYER, "the player's score (gold, card points, deals)"),
    Term::num("crew", ONE_PLAYER, "crew and officer cards the player has"),
    Term::num("boosts", ONE_PLAYER, "boost cards the player has"),
    Term::num("deals", ONE_PLAYER, "deal tiles the player has"),
    Term::pred("docked", ONE_PLAYER, "the player's ship is at a dock"),
    Term::pred("at", &[PLAYER, "location"], "the player's ship is docked at a location"),
    Term::pred("active", ONE_PLAYER, "the player is on turn"),
    Term::num("bank-gold", NO_ARGS, "gold left in the bank"),
    Term::num("space", &["cube"], "cubes of a commodity floating in space"),
    Term::num("at-location", &["location", "cube"], "cubes of a commodity on a location"),
    Term::num("deck", NO_ARGS, "cards left in the deck"),
    Term::num("discard", NO_ARGS, "cards in the discard pile"),
    Term::pred("countdown", NO_ARGS, "the end countdown runs"),
    Term::num("actions-left", NO_ARGS, "actions the active player has left this turn"),
    Term::num("turn", NO_ARGS, "turns played"),
    Term::pred("over", NO_ARGS, "the game has ended"),
];

/// What a `cubes` event says moved the cubes.
const MOVES: &[&str] = &["mined", "salvaged", "loaded", "unloaded", "jettisoned"];

impl Query for State {
    crate::event_variants!(Event);

    fn terms() -> &'static [Term] {
        TERMS
    }

    fn kinds(rules: &Rules) -> Vec<(&'static str, Vec<String>)> {
        vec![
            ("cube", rules.cubes.iter().map(|c| c.id.clone()).collect()),
            ("location", rules.locations.iter().map(|l| l.id.clone()).collect()),
        ]
    }

    fn value(&self, rules: &Rules, term: usize, a: &[usize]) -> i64 {
        let b = |x: bool| i64::from(x);
        let cube = |i: usize| Id::new(i).unwrap_or(rules.gold);
        let v: u32 = match TERMS[term].name {
            "cargo" => self.cargo[a[0]].total(),
            "carries" => self.cargo[a[0]].count(cube(a[1])),
            "capacity" => self.capacity(rules, a[0]),
            "storage" => self.storage[a[0]].total(),
            "stored" => self.storage[a[0]].count(cube(a[1])),
            "score" => return self.total_score(rules, a[0]),
            "crew" => self.crew[a[0]].total(),
            "boosts" => self.boosts[a[0]].total(),
            "deals" => self.deals[a[0]].total(),
            "docked" => return b(self.ships[a[0]].is_some()),
            "at" => return b(self.loc_of(rules, a[0]) == Some(a[1])),
            "active" => return b(self.active == a[0] && self.end.is_none()),
            "bank-gold" => self.bank_gold(rules),
            "space" => self.space.count(cube(a[0])),
            "at-location" => self.locs[a[0]].count(cube(a[1])),
            "deck" => self.deck.len() as u32,
            "discard" => self.discard.len() as u32,
            "countdown" => return b(self.countdown.is_some()),
            "actions-left" => self.actions_left,
            "turn" => self.turns,
            "over" => return b(self.end.is_some()),
            other => unreachable!("a term without a value: {other}"),
        };
        i64::from(v)
    }

    fn event_kinds(_rules: &Rules) -> Vec<String> {
        Self::event_variants().iter().cloned().chain(MOVES.iter().map(|m| m.to_string())).collect()
    }

    fn kinds_of_event(_rules: &Rules, event: &Event, out: &mut Vec<usize>) {
        out.extend(variant_kind(Self::event_variants(), event));
        if let Event::Cubes { what, .. } = event
            && let Some(i) = MOVES.iter().position(|m| m == what)
        {
            out.push(Self::event_variants().len() + i);
        }
    }
}
