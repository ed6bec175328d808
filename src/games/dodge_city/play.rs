//! Legality and `apply`: every action the game can take is first listed as
//! a candidate (`candidates`, in a fixed order), and `check` says whether it
//! is legal now, or which rule forbids it; the legal list is the candidates
//! `check` accepts, so the two cannot disagree. `apply` checks, carries the
//! action out, and `settle`s what follows by itself.

use super::effects::Dc;
use super::invariants::Fault;
use super::readings::*;
use super::rules_data::*;
use super::state::{Action, Event, Pending, Phase, State, SymbolAt, err};
use crate::engine::{Id, RuleError, Seat, Supply, Why, moved};
use crate::lang::declared;

/// A refusal of `rule`, worded (`err`, with `msg`) only when `W` keeps
/// it: the legal list asks `check::<()>`, which words no error for the
/// candidates it drops; `apply` and scenarios ask `check::<RuleError>`
/// (`engine::Why`).
pub(super) fn refuse<W: Why, M: Into<String>>(rules: &Rules, rule: R, msg: impl FnOnce() -> M) -> W {
    W::why(|| err(rules, rule, msg()))
}

impl State {
    /// Every action that might be legal now, in canonical order.
    fn candidates(&self, rules: &Rules, out: &mut Vec<Action>) {
        out.clear();
        if self.over.is_some() {
            return;
        }
        let squares = |out: &mut Vec<Action>, make: &dyn Fn(Bld, Sq) -> Action| {
            for (i, t) in self.town.iter().enumerate().filter(|(_, t)| t.in_play) {
                for s in Id::first(t.tokens.slots().len()) {
                    out.push(make(Id::new(i).unwrap_or(Bld::ZERO), s));
                }
            }
        };
        if !self.debts.is_empty() {
            return squares(out, &|building, square| Action::Sell { building, square });
        }
        match self.pending.first() {
            Some(Pending::Open { .. }) => {
                out.extend((0..self.town.len()).filter_map(|b| Some(Action::Open { building: Id::new(b).ok()? })))
            }
            Some(Pending::Free { .. }) => squares(out, &|building, square| Action::Place { building, square }),
            Some(Pending::Indio { .. }) => squares(out, &|building, square| Action::Remove { building, square }),
            Some(Pending::Take { building, .. }) => {
                let squares = Id::first(self.town[building.index()].tokens.slots().len());
                out.extend(squares.map(|square| Action::Take { building: *building, square }));
                out.push(Action::Decline);
            }
            Some(Pending::Choose { .. }) => {
                if let Some(d) = self.agenda.decision {
                    let n = rules.choices.get(d.choice as usize).map_or(0, Vec::len) as u32;
                    out.extend((0..n).map(|option| Action::Choose { choice: d.choice, option }));
                }
            }
            None => match self.phase {
                Phase::Marshal => {
                    for seat in 0..self.players {
                        for (card, n) in self.seats[seat].hand.iter() {
                            if n > 0 {
                                out.push(Action::Pick { seat: seat as u8, card });
                            }
                        }
                    }
                }
                Phase::Place { carded: false, .. } => {
                    let hand = &self.seats[self.active_seat()].hand;
                    out.extend(hand.iter().filter(|(_, n)| *n > 0).map(|(card, _)| Action::Play { card }));
                }
                Phase::Place { carded: true, .. } => {
                    squares(out, &|building, square| Action::Buy { building, square });
                    out.push(Action::EndTurn);
                }
                Phase::Duel { .. } => {
                    for opponent in 0..self.players as u8 {
                        for (b, t) in self.town.iter().enumerate().filter(|(_, t)| t.in_play) {
                            let _ = t;
                            out.push(Action::Challenge { opponent, building: Id::new(b).unwrap_or(Bld::ZERO) });
                        }
                    }
                    out.push(Action::Pass);
                }
            },
        }
        // after the step's own: every action on, which `check` (as for every
        // candidate) keeps where the round waits for the seat on turn in its step
        out.extend(declared::on(&self.readings).map(Action::Declared));
    }

    /// The legal actions, in canonical order.
    pub fn legal(&self, rules: &Rules, out: &mut Vec<Action>) {
        self.candidates(rules, out);
        out.retain(|a| self.check::<()>(rules, a).is_ok());
    }

    /// Whether `a` is legal now, or the rule that forbids it.
    pub fn check<W: Why>(&self, rules: &Rules, a: &Action) -> Result<(), W> {
        if self.over.is_some() {
            return Err(refuse(rules, R::Turn, || "the game is over"));
        }
        if let Some(&(debtor, owed)) = self.debts.first() {
            return match *a {
                Action::Sell { building, square } => self.own_token(rules, R::DebtSale, debtor, building, square),
                _ => Err(refuse(rules, R::DebtSale, || {
                    format!("p{} must first sell tokens to pay ${owed} owed", debtor + 1)
                })),
            };
        }
        if let Some(p) = self.pending.first() {
            return self.check_pending(rules, *p, a);
        }
        if let Action::Declared(act) = *a {
            return declared::check::<Dc, W>(self, rules, act);
        }
        let seat = self.active_seat();
        match (self.phase, *a) {
            (Phase::Marshal, Action::Pick { seat, card }) => self.check_pick(rules, usize::from(seat), card),
            (Phase::Place { carded: false, .. }, Action::Play { card }) => {
                if self.seats[seat].hand.count(card) == 0 || card.index() >= rules.cards.len() {
                    return Err(refuse(rules, R::PlaceCard, || {
                        format!("p{} holds no {}", seat + 1, self.card_name(rules, card))
                    }));
                }
                Ok(())
            }
            (Phase::Place { carded: true, .. }, Action::Buy { building, square }) => {
                self.check_buy(rules, seat, building, square)
            }
            (Phase::Place { carded: true, .. }, Action::EndTurn) => Ok(()),
            (Phase::Duel { .. }, Action::Challenge { opponent, building }) => {
                self.check_challenge(rules, seat, usize::from(opponent), building)
            }
            (Phase::Duel { .. }, Action::Pass) => self.check_pass(rules, seat),
            _ => Err(refuse(rules, R::Turn, || format!("the game waits for {}", self.waiting_for(rules)))),
        }
    }

    fn card_name(&self, rules: &Rules, c: CardId) -> String {
        rules.cards.get(c.index()).map_or_else(|| "such card".to_string(), |d| d.name.clone())
    }

    /// What the game waits for, in words (for errors).
    pub fn waiting_for(&self, rules: &Rules) -> String {
        let _ = rules;
        match self.phase {
            Phase::Marshal => "every player's Marshal-round card".to_string(),
            Phase::Place { carded: false, .. } => format!("p{} to play a card", self.active_seat() + 1),
            Phase::Place { carded: true, .. } => format!("p{} to buy tokens or end the turn", self.active_seat() + 1),
            Phase::Duel { .. } => format!("p{} to challenge or pass", self.active_seat() + 1),
        }
    }

    fn check_pick<W: Why>(&self, rules: &Rules, seat: Seat, card: CardId) -> Result<(), W> {
        let Some(p) = self.seats.get(seat) else {
            return Err(refuse(rules, R::MarshalCard, || format!("there is no seat p{}", seat + 1)));
        };
        if p.picked.is_some() {
            return Err(refuse(rules, R::MarshalCard, || format!("p{} has already chosen a card", seat + 1)));
        }
        if card.index() >= rules.cards.len() || p.hand.count(card) == 0 {
            return Err(refuse(rules, R::MarshalCard, || {
                format!("p{} holds no {}", seat + 1, self.card_name(rules, card))
            }));
        }
        let only_indios = p.hand.iter().all(|(c, n)| n == 0 || rules.card(c).kind == CardKind::Indio);
        if rules.card(card).kind == CardKind::Indio && !only_indios {
            return Err(refuse(rules, R::MarshalCard, || "an Indio may not be played in the Marshal round"));
        }
        Ok(())
    }

    /// Whether the seat may put a token on a square: a square of an open
    /// building in play, plain, free, and beside his tokens there if he has any.
    pub(super) fn check_square<W: Why>(&self, rules: &Rules, seat: Seat, b: Bld, sq: Sq) -> Result<(), W> {
        let (Some(t), Some(def)) = (self.town.get(b.index()), rules.buildings.get(b.index())) else {
            return Err(refuse(rules, R::PlaceSquare, || "there is no such building"));
        };
        if !t.in_play || t.closed {
            let why = if t.closed { "is closed" } else { "is not in play with this many players" };
            return Err(refuse(rules, R::PlaceSquare, || format!("the {} {why}", def.name)));
        }
        let Some(owner) = t.tokens.slots().get(sq.index()).map(|o| o.map(|c| c.index() as u8)) else {
            return Err(refuse(rules, R::PlaceSquare, || format!("the {} has no such square", def.name)));
        };
        if def.grid.field(sq) == NO_SQUARE {
            return Err(refuse(rules, R::PlaceSquare, || {
                format!("{} is no square of the {}", def.square_name(sq), def.name)
            }));
        }
        if def.special(sq) && self.fault != Some(Fault::SpecialField) {
            return Err(refuse(rules, R::PlaceSpecialField, || {
                format!("{} of the {} is a special field; no token may stand there", def.square_name(sq), def.name)
            }));
        }
        if let Some(o) = owner {
            return Err(refuse(rules, R::PlaceSquare, || format!("{} is taken by p{}", def.square_name(sq), o + 1)));
        }
        if self.fault == Some(Fault::LooseChain) {
            return Ok(());
        }
        // the tokens a placed one must join, as `chain-binding` reads the chain sentence
        let mine = Some(seat as u8);
        let (own, any) = (|o: Option<u8>| o == mine, |o: Option<u8>| o.is_some());
        let (of, whose, must): (&dyn Fn(Option<u8>) -> bool, _, _) = match self.r::<ChainBinding>() {
            ChainBinding::OwnChain => {
                (&own, format!("p{}'s tokens", seat + 1), "they must form one orthogonally connected chain")
            }
            ChainBinding::AnyTokens => {
                (&any, "the tokens".to_string(), "a placed token must touch one of them orthogonally")
            }
            ChainBinding::AdviceOnly => return Ok(()),
        };
        if t.owners().any(of) && !def.grid.orthogonal(sq).iter().any(|n| of(t.owner(n.index()))) {
            return Err(refuse(rules, R::PlaceChain, || {
                let (sq, b) = (def.square_name(sq), &def.name);
                format!("{sq} touches none of {whose} in the {b}: {must}")
            }));
        }
        Ok(())
    }

    /// Whether the turn's limit leaves room for a token in building `b`.
    pub(super) fn room<W: Why>(&self, rules: &Rules, b: Bld) -> Result<(), W> {
        let limit = self.p(P::BuyPerBuilding);
        if self.fault == Some(Fault::NoLimit) {
            return Ok(());
        }
        match self.r::<PurchaseLimit>() {
            PurchaseLimit::PerBuilding if self.this_turn[b.index()] >= limit => Err(refuse(rules, R::BuyLimit, || {
                format!("{limit} tokens were already put into this building this turn")
            })),
            PurchaseLimit::PerTurn if self.turn_total >= limit => {
                Err(refuse(rules, R::BuyLimit, || format!("{limit} tokens were already put into the town this turn")))
            }
            _ => Ok(()),
        }
    }

    fn check_buy<W: Why>(&self, rules: &Rules, seat: Seat, b: Bld, sq: Sq) -> Result<(), W> {
        self.check_square(rules, seat, b, sq)?;
        if self.town[b.index()].symbol.is_none() && self.r::<BuyWhere>() == BuyWhere::SymbolBuildingsOnly {
            return Err(refuse(rules, R::BuyBuilding, || {
                format!("the {} has no symbol, so no price", rules.building(b).name)
            }));
        }
        self.room(rules, b)?;
        let p = &self.seats[seat];
        if p.supply.count() == 0 {
            return Err(refuse(rules, R::BuyLimit, || format!("p{} has no tokens left beside the board", seat + 1)));
        }
        let price = self.price(rules, b);
        if (p.money.value().max(0) as u32) < price {
            return Err(refuse(rules, R::BuyMoney, || {
                format!("a token costs ${price}; p{} has ${}", seat + 1, p.money.value())
            }));
        }
        Ok(())
    }

    /// `seat` has a token on the square.
    fn own_token<W: Why>(&self, rules: &Rules, rule: R, seat: u8, b: Bld, sq: Sq) -> Result<(), W> {
        match self.town.get(b.index()).and_then(|t| t.owner(sq.index())) {
            Some(o) if o == seat => Ok(()),
            _ => Err(refuse(rules, rule, || format!("p{} has no token there", seat + 1))),
        }
    }

    fn check_pending<W: Why>(&self, rules: &Rules, p: Pending, a: &Action) -> Result<(), W> {
        let seat = self.active_seat();
        match (p, *a) {
            (Pending::Open { symbol, .. }, Action::Open { building }) => {
                let Some(t) = self.town.get(building.index()).filter(|t| t.in_play && !t.closed) else {
                    return Err(refuse(rules, R::PlaceOpen, || "choose an open building in play"));
                };
                if symbol.is_some() && (t.symbol.is_some() || t.tokens.filled() > 0) {
                    return Err(refuse(rules, R::PlaceOpen, || "the symbol goes on an empty building"));
                }
                Ok(())
            }
            (Pending::Free { building, .. }, Action::Place { building: b, square }) => {
                if b != building {
                    return Err(refuse(
                        rules,
                        R::PlaceCard,
                        || "the picture card's tokens go into the building of its symbol",
                    ));
                }
                self.check_square(rules, seat, b, square)?;
                if self.seats[seat].supply.count() == 0 {
                    return Err(refuse(rules, R::PlaceCard, || "no tokens left beside the board"));
                }
                if self.r::<PictureTokensLimit>() == PictureTokensLimit::CountTowardLimit {
                    self.room(rules, b)?;
                }
                Ok(())
            }
            (Pending::Indio { victim, .. }, Action::Remove { building, square }) => {
                match self.town.get(building.index()).and_then(|t| t.owner(square.index())) {
                    Some(o) if usize::from(o) == seat => {
                        Err(refuse(rules, R::IndioTarget, || "the Indio removes opposing tokens"))
                    }
                    Some(o)
                        if victim.is_some_and(|v| v != o) && self.r::<IndioTargets>() == IndioTargets::OneOpponent =>
                    {
                        Err(refuse(rules, R::IndioTarget, || "all three tokens come from the same opponent"))
                    }
                    Some(_) => Ok(()),
                    None => Err(refuse(rules, R::IndioTarget, || "no token there")),
                }
            }
            (Pending::Take { loser, building, .. }, Action::Take { building: b, square }) => {
                if b != building {
                    return Err(refuse(rules, R::DuelTake, || "the token comes from the building fought over"));
                }
                self.own_token(rules, R::DuelTake, loser, building, square)
            }
            (Pending::Take { .. }, Action::Decline) => match self.r::<DuelTake>() {
                DuelTake::MayDecline => Ok(()),
                DuelTake::OneToken => Err(refuse(rules, R::DuelTake, || "the winner takes one of the loser's tokens")),
            },
            (Pending::Choose { .. }, Action::Choose { choice, option }) => {
                let d = self.agenda.decision.filter(|d| d.choice == choice);
                match d.and_then(|d| rules.choices.get(d.choice as usize)) {
                    Some(options) if (option as usize) < options.len() => Ok(()),
                    Some(_) => Err(refuse(rules, R::EventChoose, || "the event's `choose` has no such option")),
                    None => Err(refuse(rules, R::EventChoose, || "that option belongs to another event's `choose`")),
                }
            }
            _ => Err(refuse(rules, R::Turn, || format!("the game waits for {}", pending_words(p)))),
        }
    }

    /// Who may act on a pending item.
    pub fn pending_seat(&self, p: Pending) -> Seat {
        match p {
            Pending::Take { winner, .. } | Pending::Choose { seat: winner } => usize::from(winner),
            _ => self.active_seat(),
        }
    }

    /// Carries out a legal action; the state is unchanged on an error. (One
    /// short arm per action, hence its length.)
    pub fn checked_apply(&mut self, rules: &Rules, a: &Action) -> Result<Vec<Event>, RuleError> {
        self.check::<RuleError>(rules, a)?;
        let mut ev = Vec::new();
        let seat = self.active_seat();
        match *a {
            Action::Pick { seat, card } => {
                let p = &mut self.seats[usize::from(seat)];
                let _ = crate::engine::move_n(&mut p.hand, &mut self.table, card, 1);
                p.picked = Some(card);
                ev.push(Event::Picked { seat: usize::from(seat) });
            }
            Action::Play { card } => self.play(rules, seat, card, &mut ev),
            Action::Open { building } => {
                if let Some(Pending::Open { symbol, tokens }) = self.pending.first().copied() {
                    if let Some(s) = symbol {
                        self.town[building.index()].symbol = Some(s);
                        self.symbols[s.index()] = SymbolAt::On(building);
                        ev.push(Event::SymbolLaid { symbol: s, building });
                    }
                    self.place_next(building, tokens);
                }
            }
            Action::Place { building, square } => {
                self.put_token(
                    seat,
                    building,
                    square,
                    self.r::<PictureTokensLimit>() == PictureTokensLimit::CountTowardLimit,
                );
                ev.push(Event::Placed { seat, building, square, price: None });
                if let Some(Pending::Free { left, .. }) = self.pending.first_mut() {
                    *left -= 1;
                    if *left == 0 {
                        self.pending.remove(0);
                    }
                }
            }
            Action::Remove { building, square } => {
                let owner = self.town[building.index()].owner(square.index());
                self.remove_token(rules, building, square, &mut ev);
                if let Some(Pending::Indio { left, victim }) = self.pending.first_mut() {
                    *left -= 1;
                    *victim = victim.or(owner);
                    if *left == 0 {
                        self.pending.remove(0);
                    }
                }
            }
            Action::Buy { building, square } => {
                let price = self.price(rules, building);
                let _ = self.seats[seat].money.add(-i64::from(price));
                self.put_token(seat, building, square, true);
                ev.push(Event::Placed { seat, building, square, price: Some(price) });
            }
            Action::EndTurn => self.end_turn(),
            Action::Challenge { opponent, building } => {
                self.duel(rules, seat, usize::from(opponent), building, &mut ev)
            }
            Action::Pass => {
                ev.push(Event::Passed { seat });
                self.next_duellist();
            }
            Action::Take { building, square } => {
                self.pending.remove(0);
                self.remove_token(rules, building, square, &mut ev);
            }
            Action::Decline => {
                let p = self.pending.remove(0);
                ev.push(Event::Declined { seat: self.pending_seat(p) });
            }
            Action::Sell { building, square } => self.sell_for_debt(rules, building, square, &mut ev),
            Action::Choose { option, .. } => self.chosen(rules, option, &mut ev),
            Action::Declared(act) => self.take_declared(rules, seat, act, &mut ev),
        }
        self.settle(rules, &mut ev);
        Ok(ev)
    }

    /// The first debtor sells the token on `sq` of `b`: what it fetches
    /// goes to his debt, which is paid, left unpaid when he has no token
    /// left in town, or waits for the next sale.
    fn sell_for_debt(&mut self, rules: &Rules, b: Bld, sq: Sq, ev: &mut Vec<Event>) {
        let (debtor, owed) = self.debts[0];
        let left = self.sell(rules, usize::from(debtor), b, sq, owed, ev);
        if left == 0 {
            self.debts.remove(0);
        } else if self.tokens_in_town(usize::from(debtor)) == 0 {
            self.debts.remove(0);
            self.unpaid(usize::from(debtor), left, ev);
        } else {
            self.debts[0].1 = left;
        }
    }

    fn put_token(&mut self, seat: Seat, b: Bld, sq: Sq, counts: bool) {
        let tokens = &mut self.town[b.index()].tokens;
        moved(if self.fault == Some(Fault::FreeToken) {
            // out of a supply no conservation check declares
            tokens.put_slot(sq.index(), &mut Supply::new(), colour(seat))
        } else {
            tokens.put_slot(sq.index(), &mut self.seats[seat].supply, colour(seat))
        });
        if counts {
            self.this_turn[b.index()] += 1;
            self.turn_total += 1;
        }
    }

    /// The card of a placing turn (Beschreibung 3-4).
    fn play(&mut self, rules: &Rules, seat: Seat, card: CardId, ev: &mut Vec<Event>) {
        if self.fault != Some(Fault::CardStays) {
            self.discard_card(seat, card);
        }
        self.seats[seat].played += 1;
        if let Phase::Place { carded, .. } = &mut self.phase {
            *carded = true;
        }
        ev.push(Event::Played { seat, card });
        let def = rules.card(card);
        match def.kind {
            CardKind::Number(_) => {
                let dollars = def.value * self.p(P::NumberCardPay);
                self.income(rules, seat, dollars, ev);
            }
            CardKind::Picture(sym) => self.picture(rules, seat, (sym, def.value), ev),
            CardKind::Question => self.draw_event(rules, seat, ev),
            CardKind::Indio => self.pending.push(Pending::Indio { left: self.p(P::IndioRemoves), victim: None }),
        }
    }

    /// After a building is opened, its picture card's `tokens` are placed
    /// there (`Pending::free`: a card of no tokens places none).
    fn place_next(&mut self, building: Bld, tokens: u32) {
        match Pending::free(building, tokens) {
            Some(free) => self.pending[0] = free,
            None => drop(self.pending.remove(0)),
        }
    }

    /// A picture card of symbol `sym` and printed value `value`.
    fn picture(&mut self, rules: &Rules, seat: Seat, (sym, value): (Sym, u32), ev: &mut Vec<Event>) {
        let tokens = match self.r::<PictureTokens>() {
            PictureTokens::Three => self.p(P::PictureTokenCount),
            PictureTokens::ByRank => rules.symbol(sym).points,
            PictureTokens::PrintedValue => value,
        };
        let empty = |t: &super::state::Town| t.in_play && !t.closed && t.symbol.is_none() && t.tokens.filled() == 0;
        match self.symbols[sym.index()] {
            SymbolAt::On(building) => self.pending.extend(Pending::free(building, tokens)),
            SymbolAt::Free if self.town.iter().any(empty) => {
                self.pending.push(Pending::Open { symbol: Some(sym), tokens })
            }
            SymbolAt::Free => match self.r::<NoEmptyBuilding>() {
                NoEmptyBuilding::AnyOpenBuilding if self.town.iter().any(|t| t.in_play && !t.closed) => {
                    self.pending.push(Pending::Open { symbol: None, tokens })
                }
                _ => ev.push(Event::Lapsed { seat, what: "the picture card's tokens: no building is empty" }),
            },
            SymbolAt::Retired => {
                ev.push(Event::Lapsed { seat, what: "the picture card's tokens: its symbol is retired" })
            }
        }
    }

    pub(super) fn end_turn(&mut self) {
        self.acted.clear();
        self.this_turn.iter_mut().for_each(|n| *n = 0);
        self.turn_total = 0;
        if let Phase::Place { round, turn, .. } = self.phase {
            self.phase = Phase::Place { round, turn: turn + 1, carded: false };
        }
    }

    /// Runs what follows by itself: pending items with nothing legal lapse,
    /// and once the last seat has acted in a step (the Marshal reveal when
    /// all have chosen) the round goes on through the catalog's steps.
    pub(super) fn settle(&mut self, rules: &Rules, ev: &mut Vec<Event>) {
        let mut legal = Vec::new();
        loop {
            if self.over.is_some() {
                return;
            }
            // a debt waits for its sale; one whose debtor has no token left
            // (an earlier debt of his sold the last) is left unpaid
            if let Some(&(debtor, owed)) = self.debts.first() {
                if self.tokens_in_town(usize::from(debtor)) > 0 {
                    return;
                }
                self.debts.remove(0);
                self.unpaid(usize::from(debtor), owed, ev);
                continue;
            }
            if let Some(p) = self.pending.first().copied() {
                self.legal(rules, &mut legal);
                if !legal.is_empty() {
                    return;
                }
                self.pending.remove(0);
                ev.push(Event::Lapsed { seat: self.pending_seat(p), what: pending_words(p) });
                continue;
            }
            // a placing turn without a card to play passes
            if let Phase::Place { carded: false, .. } = self.phase
                && !self.step_done()
                && self.seats[self.active_seat()].hand.total() == 0
            {
                ev.push(Event::Lapsed { seat: self.active_seat(), what: "the placing turn: no card left to play" });
                self.end_turn();
                continue;
            }
            if self.cursor.waiting() {
                if !self.step_done() {
                    return;
                }
                if self.phase == Phase::Marshal {
                    self.reveal(rules, ev);
                }
                self.cursor.finish();
            }
            // the round goes on to its next step that waits for the players
            self.drive(rules, ev);
        }
    }
}

/// A pending item in words.
pub fn pending_words(p: Pending) -> &'static str {
    match p {
        Pending::Open { .. } => "the building for the picture card's tokens",
        Pending::Free { .. } => "the picture card's tokens to be placed",
        Pending::Indio { .. } => "the Indio's removals",
        Pending::Take { .. } => "the duel winner to take a token",
        Pending::Choose { .. } => "the choice the event card gives",
    }
}
