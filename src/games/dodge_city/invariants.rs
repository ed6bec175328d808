//! Dodge City's invariants, each named, cited, and with the fault that
//! breaks it (`every_invariant_catches_its_fault` in the tests plants each).

use serde::{Deserialize, Serialize};

use super::readings::*;
use super::rules_data::*;
use super::scenario_io::{CARD_ZONES, EVENT_ZONES, TOKEN_ZONES};
use super::state::{Action, End, Event, Phase, State};
use crate::engine::{Check, Id, Imbalance, InvariantDef, Kind, Tally, Violation, conserved};

/// Faults planted on purpose (tests and `fuzz --fault`), one per invariant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fault {
    /// A payment the money does not cover leaves the money below zero.
    NegativeMoney,
    /// A bought token is not taken from the supply.
    FreeToken,
    /// The turn's purchase limit is not checked.
    NoLimit,
    /// A token may be placed away from its owner's chain.
    LooseChain,
    /// A token may stand on a special field.
    SpecialField,
    /// A played card stays in the hand.
    CardStays,
    /// A scored building keeps its tokens.
    ClosedKeepsTokens,
    /// A scored disc goes to the next player too.
    DiscTwice,
    /// The game goes on past the goal.
    NoEnd,
    /// The Marshal round's cards go to the discard pile and stay on the
    /// table too.
    TableKept,
}

crate::invariant_table! { Fault;
    "money-not-negative": "no player's money is below zero once a phase's payments are settled",
        "dodge-city-de Beschreibung 4",
        "negative-money" => NegativeMoney;
    "tokens-conserved": "each player's tokens in town, beside the board and out of the game add up to his tokens",
        "dodge-city-de Beschreibung 1; outside keirat-review",
        "free-token" => FreeToken;
    "purchase-limit": "no more than the limit of tokens go into one building (or the town, per-turn) in one turn",
        "dodge-city-de Beschreibung 5",
        "no-limit" => NoLimit;
    "one-chain-on-placement": "a token placed joins its owner's tokens in the building, unless it is his first there (under chain-binding: any-tokens it joins some token there unless it is the first; under advice-only nothing is asked)",
        "dodge-city-de Beschreibung 6",
        "loose-chain" => LooseChain;
    "no-token-on-special-field": "no token stands on a special field (or off the squares)",
        "dodge-city-de Beschreibung 6",
        "special-field" => SpecialField;
    "one-card-per-phase": "every player holds four cards at a round's start and plays exactly one in each phase",
        "dodge-city-de Beschreibung 1-3, 7",
        "card-stays" => CardStays;
    "closed-building-empty": "a closed building holds no tokens",
        "dodge-city-de Beschreibung 7",
        "closed-keeps-tokens" => ClosedKeepsTokens;
    "disc-one-owner": "every scored disc belongs to exactly one player, and points are the discs' values",
        "dodge-city-de Beschreibung 7; Spielende",
        "disc-twice" => DiscTwice;
    "ends-at-goal": "the game ends when, and only when, someone holds the goal's points (or the deck or the round cap ends it)",
        "dodge-city-de Spielende",
        "no-end" => NoEnd;
    "card-conservation": "every playing card lies in the deck, the discard pile, face down on the table or in a hand, and every event card in the event deck or its discard: as many of each as the game has",
        "dodge-city-de Beschreibung 1, 7; outside keirat-review (44 playing cards, 32 event cards)",
        "table-kept" => TableKept;
}

fn broken(invariant: &'static str, detail: String) -> Result<(), Violation> {
    Err(Violation { invariant, detail })
}

/// Each seat's tokens in town, beside the board and out of the game add
/// up to his tokens: the engine's check over every token zone, a colour
/// for each seat.
fn check_tokens(st: &State) -> Result<(), Violation> {
    let tokens = st.param(P::Tokens);
    conserved(TOKEN_ZONES, st, (st.players, st.players, &[]), (&st.conserved.tokens, u64::from(tokens)), |t| {
        match t.check(|_| tokens) {
            Ok(()) => Ok(()),
            Err(Imbalance::Count { kind, found, .. }) => {
                broken("tokens-conserved", format!("p{} has {found} tokens in all, not {tokens}", kind.index() + 1))
            }
            Err(Imbalance::Unknown { index }) => {
                broken("tokens-conserved", format!("a token of colour {index}, which no seat has"))
            }
            Err(Imbalance::Misplaced { kind, zone }) => {
                broken("tokens-conserved", format!("a p{} token in {zone}, which does not take it", kind.index() + 1))
            }
        }
    })
}

/// Card conservation: the engine's check over every zone of the card and
/// the event card tables, against the copies the game has (the catalog's,
/// kept in `Rules`, or `State::card_totals` where the configuration sets
/// some).
fn check_conserved(st: &State, rules: &Rules) -> Result<(), Violation> {
    let counted = || (!st.readings.counts.is_empty()).then(|| st.card_totals(rules));
    let also = rules as *const Rules as u64;
    conserved(CARD_ZONES, st, (st.players, rules.cards.len(), &[]), (&st.conserved.cards, also), |t| {
        let counted = counted();
        let totals = counted.as_ref().map_or(&rules.copies.0, |c| &c.0);
        balanced(t, totals, ("a card", "cards"), |k| &rules.card(k).id)
    })?;
    conserved(EVENT_ZONES, st, (st.players, rules.events.len(), &[]), (&st.conserved.events, also), |t| {
        let counted = counted();
        let totals = counted.as_ref().map_or(&rules.copies.1, |c| &c.1);
        balanced(t, totals, ("an event card", "event cards"), |k| &rules.events[k.index()].id)
    })
}

/// A tally of cards (named `one` and `many`) against the copies the game
/// has, worded as `card-conservation`.
fn balanced<'r, K: Kind>(
    t: &Tally<K>,
    totals: &[u32],
    (one, many): (&str, &str),
    id: impl Fn(Id<K>) -> &'r str,
) -> Result<(), Violation> {
    match t.check_totals(totals) {
        Ok(()) => Ok(()),
        Err(Imbalance::Count { kind, found, expected }) => {
            broken("card-conservation", format!("{found} {} {many} in play, the game has {expected}", id(kind)))
        }
        Err(Imbalance::Unknown { index }) => broken("card-conservation", format!("{one} of no kind ({index})")),
        Err(Imbalance::Misplaced { kind, zone }) => {
            broken("card-conservation", format!("{} in {zone}, which does not take it", id(kind)))
        }
    }
}

/// Cards per player: four at the round's start, one fewer per phase played.
fn check_cards(st: &State, rules: &Rules) -> Result<(), Violation> {
    let _ = rules;
    if st.over.is_some() {
        return Ok(());
    }
    let hand = st.param(P::Hand);
    // the cards of the round's card-playing steps before this one
    let before = st.cards_before(match st.phase {
        Phase::Marshal => Proc::Marshal,
        Phase::Place { round: 1, .. } => Proc::Place1,
        Phase::Place { .. } => Proc::Place2,
        Phase::Duel { .. } => Proc::Duel,
    });
    for (s, p) in st.seats.iter().enumerate() {
        let held = p.hand.total() + u32::from(p.picked.is_some());
        if held + p.played != hand {
            return broken(
                "one-card-per-phase",
                format!("p{} holds {held} and played {}, not {hand} in all", s + 1, p.played),
            );
        }
        let pos = (0..st.players).position(|i| st.seat_at(i) == s).unwrap_or(0) as u8;
        // one card for each card-playing step the round played before this one
        let expected = match st.phase {
            Phase::Marshal => Some(before),
            Phase::Place { turn, carded, .. } => Some(before + u32::from(pos < turn || (pos == turn && carded))),
            Phase::Duel { .. } => None,
        };
        let ok = match expected {
            Some(n) => p.played == n.min(hand),
            None => p.played == before.min(hand) || p.played == (before + 1).min(hand),
        };
        if !ok {
            return broken(
                "one-card-per-phase",
                format!("p{} has played {} cards at this point of the round", s + 1, p.played),
            );
        }
    }
    Ok(())
}

impl Check for State {
    type Before = ();
    fn before(&self) {}
    fn invariants() -> &'static [InvariantDef] {
        INVARIANTS
    }
    fn check_invariants(&self, rules: &Rules, _: &(), action: &Action, events: &[Event]) -> Result<(), Violation> {
        let st = self;
        if st.debts.is_empty() {
            for (s, p) in st.seats.iter().enumerate() {
                if p.money.value() < 0 {
                    return broken("money-not-negative", format!("p{} has ${}", s + 1, p.money.value()));
                }
            }
        }
        check_tokens(st)?;
        let limit = st.param(P::BuyPerBuilding);
        if let Some(b) = st.this_turn.iter().position(|&n| n > limit) {
            return broken(
                "purchase-limit",
                format!("{} tokens went into the {} this turn", st.this_turn[b], rules.buildings[b].name),
            );
        }
        if st.turn_total > limit && st.peek::<PurchaseLimit>() == PurchaseLimit::PerTurn {
            return broken("purchase-limit", format!("{} tokens went into the town this turn", st.turn_total));
        }
        // the tokens a placed one must join, as chain-binding reads the chain sentence
        let binding = st.peek::<ChainBinding>();
        for e in events {
            if let Event::Placed { seat, building, square, .. } = *e {
                let def = rules.building(building);
                let town = &st.town[building.index()];
                let mine = Some(seat as u8);
                let of = |o: Option<u8>| match binding {
                    ChainBinding::OwnChain => o == mine,
                    ChainBinding::AnyTokens => o.is_some(),
                    ChainBinding::AdviceOnly => false,
                };
                let others = town.owners().filter(|&o| of(o)).count() > 1;
                let joined = def.grid.orthogonal(square).iter().any(|n| of(town.owner(n.index())));
                if others && !joined && !matches!(action, Action::Sell { .. }) {
                    return broken(
                        "one-chain-on-placement",
                        format!(
                            "p{}'s token on {} of the {} touches {} there",
                            seat + 1,
                            def.square_name(square),
                            def.name,
                            if binding == ChainBinding::AnyTokens { "no token" } else { "none of his tokens" }
                        ),
                    );
                }
            }
        }
        for (b, t) in st.town.iter().enumerate() {
            let def = &rules.buildings[b];
            for s in Id::first(t.tokens.slots().len()) {
                if t.owner(s.index()).is_some() && !def.plain(s) {
                    return broken(
                        "no-token-on-special-field",
                        format!("a token stands on {} of the {}", def.square_name(s), def.name),
                    );
                }
            }
            if t.closed && t.tokens.filled() > 0 {
                return broken("closed-building-empty", format!("the closed {} holds tokens", def.name));
            }
        }
        check_cards(st, rules)?;
        check_conserved(st, rules)?;
        for (i, sym) in rules.symbols.iter().enumerate() {
            let held = st.seats.iter().flat_map(|p| &p.discs).filter(|d| d.index() == i).count() as u32;
            if held + st.discs_left[i] != sym.discs {
                return broken(
                    "disc-one-owner",
                    format!("{held} {} discs are held and {} left, of {}", sym.name, st.discs_left[i], sym.discs),
                );
            }
        }
        for (s, p) in st.seats.iter().enumerate() {
            let value: u32 = p.discs.iter().map(|d| rules.symbol(*d).points).sum();
            if value != p.points {
                return broken("disc-one-owner", format!("p{} has {} points but discs worth {value}", s + 1, p.points));
            }
        }
        let goal = st.param(P::GoalPoints);
        let reached = st.seats.iter().any(|p| p.points >= goal);
        match st.over {
            Some(End::Goal) if !reached => {
                broken("ends-at-goal", "the game ended at the goal, but nobody reached it".into())
            }
            None if reached => broken("ends-at-goal", format!("someone holds {goal} points and the game goes on")),
            _ => Ok(()),
        }
    }
    fn inject_fault(&mut self, fault: &str) -> bool {
        fault_named(fault).map(|f| self.fault = Some(f)).is_some()
    }
    fn faults() -> &'static [&'static str] {
        FAULTS
    }
}
