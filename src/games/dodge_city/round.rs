//! The round's end of things: the Marshal reveal (Beschreibung 2), the
//! duels with the last card (Beschreibung 7), scoring the buildings a chain
//! controls and the 6-point goal (Spielende). `flow.rs` runs them in the
//! order the catalog declares.

use super::invariants::Fault;
use super::play::refuse;
use super::readings::*;
use super::rules_data::*;
use super::state::{End, Event, Pending, Phase, State, SymbolAt};
use crate::engine::{EndReason, Id, Seat, Why, move_all, moved};

/// How a card ranks (higher is better): the symbol class, then the printed value.
pub fn rank(rules: &Rules, c: CardId, only_indios: MarshalOnlyIndios) -> (u32, u32) {
    let d = rules.card(c);
    let n = rules.symbols.len() as u32;
    match d.kind {
        CardKind::Number(s) | CardKind::Picture(s) => (2 + n - s.index() as u32, d.value),
        CardKind::Question => (1, d.value),
        CardKind::Indio => match only_indios {
            MarshalOnlyIndios::IndioRanksLast => (0, 0),
            MarshalOnlyIndios::IndioAsQuestion => (1, d.value),
        },
    }
}

impl State {
    /// All have chosen: the cards are shown, the best becomes start player.
    pub(super) fn reveal(&mut self, rules: &Rules, ev: &mut Vec<Event>) {
        let cards: Vec<(usize, CardId)> =
            (0..self.players).filter_map(|s| self.seats[s].picked.map(|c| (s, c))).collect();
        let any_indio = cards.iter().any(|(_, c)| rules.card(*c).kind == CardKind::Indio);
        let reading = if any_indio { self.r::<MarshalOnlyIndios>() } else { MarshalOnlyIndios::IndioRanksLast };
        let best = cards.iter().map(|(_, c)| rank(rules, *c, reading)).max();
        let tied: Vec<usize> =
            cards.iter().filter(|(_, c)| Some(rank(rules, *c, reading)) == best).map(|(s, _)| *s).collect();
        let start = match tied.as_slice() {
            [one] => *one,
            _ => match self.r::<MarshalTie>() {
                MarshalTie::EarlierInTurnOrder => (1..=self.players)
                    .map(|i| (self.start + i) % self.players)
                    .find(|s| tied.contains(s))
                    .unwrap_or(self.start),
                MarshalTie::StartPlayerStays => self.start,
            },
        };
        for p in &mut self.seats {
            p.picked = None;
            p.played += 1;
        }
        let kept = (self.fault == Some(Fault::TableKept)).then(|| self.table.clone());
        move_all(&mut self.table, &mut self.discard);
        if let Some(kept) = kept {
            self.table = kept;
        }
        self.start = start;
        ev.push(Event::Revealed { cards, start });
    }

    /// The card a seat fights with: his last one.
    pub fn duel_card(&self, seat: Seat) -> Option<CardId> {
        let h = &self.seats.get(seat)?.hand;
        let mut it = h.iter().filter(|(_, n)| *n > 0);
        match (it.next(), it.next()) {
            (Some((c, 1)), None) => Some(c),
            _ => None,
        }
    }

    fn is_indio(&self, rules: &Rules, seat: Seat) -> bool {
        self.duel_card(seat).is_some_and(|c| rules.card(c).kind == CardKind::Indio)
    }

    /// Whether `seat` can be challenged (has a card to fight with, and has not fought).
    fn challengeable(&self, rules: &Rules, seat: Seat) -> bool {
        self.duel_card(seat).is_some()
            && !self.seats[seat].fought
            && (!self.is_indio(rules, seat) || self.r::<LastCardIndio>() == LastCardIndio::LosesAnyDuel)
    }

    /// Whether `seat` may challenge: a card to fight with, not an Indio,
    /// and not fought yet (`fight-once` is inert: a duel spends the last
    /// card, so a player who fought has nothing left to challenge with).
    fn may_challenge(&self, rules: &Rules, seat: Seat) -> bool {
        self.duel_card(seat).is_some() && !self.is_indio(rules, seat) && !self.seats[seat].fought
    }

    pub(super) fn check_challenge<W: Why>(&self, rules: &Rules, seat: Seat, opp: Seat, b: Bld) -> Result<(), W> {
        if opp >= self.players || opp == seat {
            return Err(refuse(rules, R::DuelChallenge, || "challenge another player"));
        }
        if !self.may_challenge(rules, seat) {
            return Err(refuse(rules, R::DuelChallenge, || {
                format!("p{} cannot challenge (fought already, or no card to fight with)", seat + 1)
            }));
        }
        if !self.challengeable(rules, opp) {
            return Err(refuse(rules, R::DuelChallenge, || {
                format!("p{} cannot be challenged (fought already, or no card to fight with)", opp + 1)
            }));
        }
        let open = self.town.get(b.index()).is_some_and(|t| t.in_play && !t.closed);
        if !open || self.tokens_in(b, seat) == 0 || self.tokens_in(b, opp) == 0 {
            return Err(refuse(rules, R::DuelChallenge, || "both duellists must have tokens in the building"));
        }
        Ok(())
    }

    pub(super) fn check_pass<W: Why>(&self, rules: &Rules, seat: Seat) -> Result<(), W> {
        if self.r::<MustChallenge>() == MustChallenge::MayPass {
            return Ok(());
        }
        for opp in 0..self.players {
            for b in 0..self.town.len() {
                if self.check_challenge::<()>(rules, seat, opp, Id::new(b).unwrap_or(Bld::ZERO)).is_ok() {
                    return Err(refuse(rules, R::DuelPass, || format!("p{} can challenge and must", seat + 1)));
                }
            }
        }
        Ok(())
    }

    pub(super) fn next_duellist(&mut self) {
        self.acted.clear();
        if let Phase::Duel { turn } = &mut self.phase {
            *turn += 1;
        }
    }

    /// A duel (Beschreibung 7): the higher card wins; a question mark draws
    /// an event and loses; the winner takes one of the loser's tokens there.
    pub(super) fn duel(&mut self, rules: &Rules, a: Seat, b: Seat, bld: Bld, ev: &mut Vec<Event>) {
        let (Some(ca), Some(cb)) = (self.duel_card(a), self.duel_card(b)) else { return };
        ev.push(Event::Challenged { seat: a, opponent: b, building: bld, cards: (ca, cb) });
        let kind = |c: CardId| rules.card(c).kind;
        let (qa, qb) = (kind(ca) == CardKind::Question, kind(cb) == CardKind::Question);
        if qa {
            self.draw_event(rules, a, ev);
        }
        if qb {
            self.draw_event(rules, b, ev);
        }
        let auto_a = qa || kind(ca) == CardKind::Indio;
        let auto_b = qb || kind(cb) == CardKind::Indio;
        let results: Vec<(Seat, Seat)> = match (auto_a, auto_b) {
            (true, true) => match self.r::<DuelBothQuestion>() {
                DuelBothQuestion::BothDrawNoneLose => vec![],
                DuelBothQuestion::BothDrawBothLose => vec![(a, b), (b, a)],
            },
            (true, false) => vec![(b, a)],
            (false, true) => vec![(a, b)],
            (false, false) => {
                let (ka, kb) = (
                    rank(rules, ca, MarshalOnlyIndios::IndioRanksLast),
                    rank(rules, cb, MarshalOnlyIndios::IndioRanksLast),
                );
                match ka.cmp(&kb) {
                    std::cmp::Ordering::Greater => vec![(a, b)],
                    std::cmp::Ordering::Less => vec![(b, a)],
                    std::cmp::Ordering::Equal => match self.r::<DuelTie>() {
                        DuelTie::Nobody => vec![],
                        DuelTie::Defender => vec![(b, a)],
                    },
                }
            }
        };
        for (s, c) in [(a, ca), (b, cb)] {
            self.discard_card(s, c);
            self.seats[s].played += 1;
            self.seats[s].fought = true;
        }
        if results.is_empty() {
            ev.push(Event::DuelDrawn);
        }
        for (w, l) in results {
            ev.push(Event::DuelWon { winner: w, loser: l });
            self.pending.push(Pending::Take { winner: w as u8, loser: l as u8, building: bld });
        }
        self.next_duellist();
    }

    /// The longest chain of `seat` in building `b` that controls it, if any.
    pub fn control(&self, rules: &Rules, b: Bld, seat: Seat) -> Option<usize> {
        let def = rules.building(b);
        let town = &self.town[b.index()];
        let need = self.p(P::ControlFields) as usize;
        let meaning = self.r::<ControlMeaning>();
        let mine = Some(seat as u8);
        def.grid
            .chains(|s| (town.owner(s.index()) == mine).then_some(()))
            .into_iter()
            .filter(|(_, chain)| {
                let linked = def
                    .grid
                    .squares()
                    .filter(|&s| def.special(s))
                    .filter(|&s| {
                        let beside = def.grid.orthogonal(s);
                        match meaning {
                            ControlMeaning::ChainTouchesFour => beside.iter().any(|n| chain.contains(n)),
                            ControlMeaning::ChainSurroundsFour => {
                                let open: Vec<_> = beside.iter().filter(|n| def.plain(**n)).collect();
                                !open.is_empty() && open.iter().all(|n| chain.contains(n))
                            }
                        }
                    })
                    .count();
                linked >= need
            })
            .map(|(_, chain)| chain.len())
            .max()
    }

    /// The scoring step: every building a chain controls is scored, then
    /// the goal is checked (Spielende).
    pub(super) fn score_all(&mut self, rules: &Rules, ev: &mut Vec<Event>) {
        for b in Id::first(self.town.len()) {
            self.score(rules, b, ev);
        }
        let goal = self.p(P::GoalPoints);
        if self.seats.iter().any(|p| p.points >= goal) && self.fault != Some(Fault::NoEnd) {
            self.finish(End::Goal, EndReason::Goal, ev);
        }
    }

    pub(super) fn finish(&mut self, end: End, reason: EndReason, ev: &mut Vec<Event>) {
        self.over = Some(end);
        self.pending.clear();
        self.agenda.clear();
        ev.push(Event::GameOver { reason });
    }

    /// Scores building `b` if one chain controls it (Beschreibung 7).
    fn score(&mut self, rules: &Rules, b: Bld, ev: &mut Vec<Event>) {
        let t = &self.town[b.index()];
        let Some(sym) = t.symbol.filter(|_| t.in_play && !t.closed) else { return };
        let ctrl: Vec<(Seat, usize)> =
            (0..self.players).filter_map(|s| Some((s, self.control(rules, b, s)?))).collect();
        let winner = match ctrl.as_slice() {
            [] => return,
            [(s, _)] => *s,
            // the reading decides something only where one chain is longest
            _ => {
                let best = ctrl.iter().map(|(_, n)| *n).max().unwrap_or(0);
                let top: Vec<Seat> = ctrl.iter().filter(|(_, n)| *n == best).map(|(s, _)| *s).collect();
                match (top.as_slice(), self.r_if::<SeveralControllers>(top.len() == 1)) {
                    ([one], Some(SeveralControllers::LongerChainScores)) => *one,
                    _ => return,
                }
            }
        };
        let points = rules.symbol(sym).points;
        self.seats[winner].points += points;
        self.seats[winner].discs.push(sym);
        if self.fault == Some(Fault::DiscTwice) {
            let next = (winner + 1) % self.players;
            self.seats[next].discs.push(sym);
            self.seats[next].points += points;
        }
        self.discs_left[sym.index()] = self.discs_left[sym.index()].saturating_sub(1);
        ev.push(Event::Scored { seat: winner, building: b, symbol: sym, points });
        let dollars = points * self.p(P::MoneyPerPoint);
        self.income(rules, winner, dollars, ev);
        let t = &mut self.town[b.index()];
        t.closed = true;
        t.symbol = None;
        t.disc = Some((sym, winner));
        // every token goes back beside the board, seat by seat
        for seat in (0..self.players).filter(|_| self.fault != Some(Fault::ClosedKeepsTokens)) {
            let tokens = &mut self.town[b.index()].tokens;
            let mut n = 0;
            for sq in 0..tokens.slots().len() {
                if tokens.at(sq) == Some(colour(seat)) {
                    moved(tokens.take_slot(sq, &mut self.seats[seat].supply));
                    n += 1;
                }
            }
            if n > 0 {
                ev.push(Event::Returned { seat, building: b, tokens: n });
            }
        }
        self.symbols[sym.index()] = match self.r::<ClosedSymbol>() {
            ClosedSymbol::SymbolMovesOn if self.discs_left[sym.index()] > 0 => SymbolAt::Free,
            _ => SymbolAt::Retired,
        };
    }
}
