//! Carrying out a legal action: its moves and events, the effects it
//! starts, the turn driven on, and the win check of the building phase.

use super::*;

impl State {
    // ------------------------------------------------------------ turns

    pub(super) fn check_win(&mut self, rules: &Rules, ev: &mut Vec<Event>) {
        if self.outcome.is_some()
            || (self.phase != Phase::Build && self.fault != Some(Fault::WinOutsideBuild))
            || self.agenda.decision.is_some()
        {
            return;
        }
        // the seats asked, in turn order from the active player (asked after
        // every action of a building phase: no list of them is made)
        let asked = match self.r::<WinCheck>() {
            WinCheck::AnyPlayer => self.players,
            WinCheck::ActivePlayer => 1,
        };
        // every seat's count from one pass over the board
        let (each, decided) = self.influences_of_each(rules);
        for seat in (0..asked).map(|i| (self.active + i) % self.players) {
            if decided & (1 << (seat % 64)) != 0 {
                self.r::<DamagedInfluence>();
            }
            let inf = each[seat];
            if inf >= self.win_threshold(seat) {
                ev.push(Event::Won { seat, influence: inf, during_build: self.phase == Phase::Build });
                self.end(End::Win(seat), ev);
                return;
            }
        }
    }

    pub(super) fn end(&mut self, o: End, ev: &mut Vec<Event>) {
        if let End::Draw(reason) = o {
            ev.push(Event::GameDrawn { reason });
        }
        self.outcome = Some(o);
        self.phase = Phase::Over;
        self.agenda.clear();
    }

    // ------------------------------------------------------------ effects

    /// Turns effects into steps at the back of the queue (`effects.rs` has
    /// Dry Gulch's operations; the language is `crate::lang`).
    pub(super) fn expand(&mut self, rules: &Rules, effects: &[Effect], card: CardKind) {
        lang::expand::<Dg>(self, rules, effects, card);
    }

    /// Runs queued steps until the queue is empty or a decision is needed.
    pub(super) fn run(&mut self, rules: &Rules, ev: &mut Vec<Event>) {
        lang::run(self, rules, ev);
        if self.agenda.decision.is_none() && self.phase == Phase::Build {
            self.check_win(rules, ev);
        }
    }

    /// Carries out a legal action (checked by `checked_apply`, or taken from
    /// the state's own list: `Game::apply_listed`), adding its events to
    /// `ev`; then runs the effects it started, ends an event phase with
    /// nothing left to do, drives the turn on and checks the win.
    pub(in crate::games::dry_gulch) fn execute(&mut self, rules: &Rules, action: &Action, ev: &mut Vec<Event>) {
        let done = match action {
            Action::UseInsurance(_)
            | Action::UseIou(_)
            | Action::Protect(_)
            | Action::Give(_)
            | Action::RewardDraw(_)
            | Action::Choose { .. }
            | Action::SpreadTo(_) => self.decide(rules, action, ev),
            Action::PlaceResidence(_) | Action::DraftPermit(_) => self.set_up_action(rules, action, ev),
            Action::DiscardRevealed(_)
            | Action::KeepRevealed(_)
            | Action::ReopenTownHall(_)
            | Action::EndEvents
            | Action::DrawResources
            | Action::TakeFaceUpPermit(_)
            | Action::DrawPermits
            | Action::KeepPermit(_)
            | Action::ChoosePermit(_)
            | Action::BankDraw => self.events_or_draw(rules, action, ev),
            Action::Build { .. }
            | Action::PlayInfluence(_)
            | Action::PlayDisaster { .. }
            | Action::Resolve { .. }
            | Action::EndBuild
            | Action::Discard(_)
            | Action::EndTurn
            | Action::StartTurn => self.build_or_discard(rules, action, ev),
            Action::Declared(act) => {
                self.take_declared(rules, *act, ev);
                true
            }
        };
        if !done {
            return;
        }
        self.run(rules, ev);
        // an effect's target stays while its steps run (a `choose` option expands later)
        if self.agenda.is_idle() {
            self.target = None;
        }
        if self.agenda.decision.is_none()
            && self.agenda.queue.is_empty()
            && matches!(self.phase, Phase::Events { .. })
            && self.revealed.is_empty()
            && self.town_hall_closed.is_none()
            && self.outcome.is_none()
        {
            // nothing left to do in the event phase
            if matches!(action, Action::DiscardRevealed(_) | Action::KeepRevealed(_) | Action::ReopenTownHall(_)) {
                self.end_events(rules, ev);
            }
        }
        self.drive(rules, ev);
        if self.agenda.decision.is_none() && (self.phase == Phase::Build || self.fault == Some(Fault::WinOutsideBuild))
        {
            self.check_win(rules, ev);
        }
    }

    /// The answer to the decision a pending effect waits for; `false` if
    /// the decision waited for is another.
    fn decide(&mut self, rules: &Rules, action: &Action, ev: &mut Vec<Event>) -> bool {
        match *action {
            Action::UseInsurance(yes) => {
                let Some(Decision::UseInsurance { seat }) = self.agenda.decision.take() else {
                    return false;
                };
                if yes {
                    let c = rules.reactions[&ReactionKey::Insurance];
                    self.agenda.queue.pop_front();
                    self.use_insurance(rules, seat, c, ev);
                } else if self.r::<FireInsuranceMoment>() == FireInsuranceMoment::BeforeFirstDraw {
                    self.decline_insurance(seat);
                }
            }
            Action::UseIou(yes) => {
                let Some(Decision::UseIou { seat }) = self.agenda.decision.take() else {
                    return false;
                };
                if yes && let Some(Queued::Game(Step::Take { to, .. })) = self.agenda.queue.pop_front() {
                    let c = rules.reactions[&ReactionKey::Iou];
                    self.hand_over_iou(rules, seat, to, c, ev);
                }
            }
            Action::Protect(card) => {
                let Some(Decision::Protect { seat }) = self.agenda.decision.take() else {
                    return false;
                };
                if let Some(Queued::Game(Step::Take { protect, .. })) = self.agenda.queue.front_mut() {
                    *protect = card;
                }
                ev.push(Event::AceShown { seat, protected: card });
            }
            Action::Give(card) => self.give_chosen(rules, card, ev),
            Action::RewardDraw(yes) => self.reward_draw(yes, ev),
            Action::Choose { option: k, .. } => {
                let Some(Decision::Choose { choice, card, .. }) = self.agenda.decision.take() else {
                    return false;
                };
                // the chosen effect runs before the steps that were already queued
                lang::chosen::<Dg>(self, rules, choice, k, card);
            }
            Action::SpreadTo(to) => {
                let Some(Decision::SpreadTo { origin, .. }) = self.agenda.decision.take() else {
                    return false;
                };
                if let Some(fire) = self.fire_card(rules) {
                    self.spread_to(rules, origin, to, fire, ev);
                }
            }
            _ => return false,
        }
        true
    }

    /// A Residence placed or a permit drafted at set-up; `false` out of set-up.
    fn set_up_action(&mut self, rules: &Rules, action: &Action, ev: &mut Vec<Event>) -> bool {
        match *action {
            Action::PlaceResidence(plot) => {
                let Phase::Residence { seat } = self.phase else {
                    return false;
                };
                let res = rules.with_ability(Ability::Residence).unwrap_or(Id::ZERO);
                let chips = self.p(P::ChipsOnResidence).min(self.seats[seat].chips.count());
                let mut on = Chips::new();
                moved(move_n(&mut self.seats[seat].chips, &mut on, colour(seat), chips));
                self.board.edit()[plot.index()] =
                    Some(Placed { building: res, owner: Some(seat), damage: None, chips: on });
                ev.push(Event::ResidencePlaced { seat, plot });
                ev.push(Event::ChipsPlaced { seat, chips });
                if seat + 1 < self.players {
                    self.phase = Phase::Residence { seat: seat + 1 };
                } else {
                    self.after_residences();
                }
            }
            Action::DraftPermit(b) => {
                let Phase::Draft { seat, mut pool, picks } = std::mem::replace(&mut self.phase, Phase::Over) else {
                    return false;
                };
                moved(move_n(&mut pool, &mut self.seats[seat].permits, b, 1));
                ev.push(Event::Drafted { seat, building: b });
                let picks = picks + 1;
                if picks >= self.draft_count() * self.players as u32 || pool.is_empty() {
                    move_all(&mut pool, &mut self.permit_discard);
                    self.phase = Phase::NextTurn;
                } else {
                    let next = (seat + self.players - 1) % self.players;
                    self.phase = Phase::Draft { seat: next, pool, picks };
                }
            }
            _ => return false,
        }
        true
    }

    /// An action of the event or the draw phase; `false` if a permit was
    /// kept with none offered.
    fn events_or_draw(&mut self, rules: &Rules, action: &Action, ev: &mut Vec<Event>) -> bool {
        let a = self.active;
        match *action {
            Action::DiscardRevealed(c) => {
                moved(move_n(&mut self.revealed, &mut self.event_discard, c, 1));
                ev.push(Event::RevealedDiscarded { card: c });
                if let Phase::Events { discard } = &mut self.phase {
                    *discard -= 1;
                }
            }
            Action::KeepRevealed(c) => {
                moved(move_n(&mut self.revealed, &mut self.seats[a].hand, c, 1));
                ev.push(Event::Kept { seat: a, card: c });
            }
            Action::ReopenTownHall(ref cards) => {
                for &(c, n) in cards {
                    for _ in 0..n {
                        self.discard_from_hand(rules, a, c, 1);
                        ev.push(Event::Discarded { seat: a, card: c });
                    }
                }
                self.reopen_town_hall(ev);
                ev.push(Event::TownHallReopened { seat: a });
            }
            Action::EndEvents => self.end_events(rules, ev),
            Action::DrawResources => {
                self.draw_resources(a, self.p(P::DrawResources), ev);
                self.after_draw(rules, ev);
            }
            Action::TakeFaceUpPermit(b) => {
                self.take_face_up_permit(a, b);
                ev.push(Event::PermitDrawn { seat: a, building: b });
                self.after_draw(rules, ev);
            }
            Action::DrawPermits => self.draw_permits(rules, a, ev),
            Action::KeepPermit(b) => {
                let Phase::DrawKeep { mut offered } = std::mem::replace(&mut self.phase, Phase::Draw) else {
                    return false;
                };
                moved(move_n(&mut offered, &mut self.seats[a].permits, b, 1));
                ev.push(Event::PermitDrawn { seat: a, building: b });
                ev.extend(offered.iter().map(|&o| Event::PermitDiscarded { building: o }));
                move_all(&mut offered, &mut self.permit_discard);
                self.after_draw(rules, ev);
            }
            Action::ChoosePermit(b) => {
                moved(move_n(&mut self.permit_deck, &mut self.seats[a].permits, b, 1));
                ev.push(Event::PermitDrawn { seat: a, building: b });
                self.after_draw(rules, ev);
            }
            Action::BankDraw => {
                self.bank_draw(ev);
                self.cursor.finish();
            }
            _ => return false,
        }
        true
    }

    /// An action of the building or the discard phase, or the start of a turn.
    fn build_or_discard(&mut self, rules: &Rules, action: &Action, ev: &mut Vec<Event>) -> bool {
        let a = self.active;
        match *action {
            Action::Build { building, plot, payment: ref pay } => self.build(rules, building, plot, pay, ev),
            Action::PlayInfluence(c) => {
                self.play_event_card(a, c, true);
                let e = rules.event_of(c).expect("legal influence cards are events");
                ev.push(Event::InfluencePlayed { seat: a, card: c });
                let p = &mut self.seats[a];
                let place = 1u32.min(p.chips.count());
                moved(move_n(&mut p.chips, &mut p.card_chips, colour(a), place));
                ev.push(Event::ChipsPlaced { seat: a, chips: place });
                self.pending_rewards.extend(rules.events[e].rewards.iter().copied());
            }
            Action::PlayDisaster { card, plot } => {
                self.play_event_card(a, card, false);
                ev.push(Event::DisasterPlayed { seat: a, card, plot });
                self.target = Some(plot);
                let e = rules.event_of(card).expect("legal disasters are events");
                self.expand(rules, self.effect_of(rules, e), card);
            }
            Action::Resolve { card, plot } => {
                moved(move_n(&mut self.face_up, &mut self.event_discard, card, 1));
                ev.push(Event::EventResolved { seat: a, card });
                self.target = plot;
                let e = rules.event_of(card).expect("face-up cards are events");
                self.expand(rules, self.effect_of(rules, e), card);
            }
            Action::EndBuild => self.cursor.finish(),
            Action::Discard(c) => {
                self.discard_from_hand(rules, a, c, 1);
                ev.push(Event::Discarded { seat: a, card: c });
            }
            Action::EndTurn => self.cursor.finish(),
            Action::StartTurn => self.start_turn(rules, ev),
            _ => return false,
        }
        true
    }

    /// Plays an event card from the face-up row if it lies there, else from
    /// hand: in front of `seat` as influence, or as a disaster about to strike.
    pub(super) fn play_event_card(&mut self, seat: usize, c: CardKind, influence: bool) {
        let p = &mut self.seats[seat];
        let to = if influence { &mut p.influence } else { &mut self.played };
        moved(if self.face_up.contains(&c) {
            move_n(&mut self.face_up, to, c, 1)
        } else {
            move_n(&mut p.hand, to, c, 1)
        });
    }

    pub(super) fn build(&mut self, rules: &Rules, b: Bld, plot: Plot, pay: &Payment, ev: &mut Vec<Event>) {
        let a = self.active;
        let mut paid: BTreeMap<CardKind, u8> = BTreeMap::new();
        for &(r, n) in &pay.direct {
            *paid.entry(r.lift()).or_default() += n;
        }
        if let Some(h) = rules.reactions.get(&ReactionKey::Handyman) {
            let n: u8 = pay.handyman.iter().map(|(_, n)| n).sum();
            if n > 0 {
                *paid.entry(*h).or_default() += n;
            }
        }
        for &(c, n) in &pay.cards {
            *paid.entry(c).or_default() += n;
        }
        for (&c, &n) in &paid {
            self.discard_from_hand(rules, a, c, u32::from(n));
        }
        self.store_used += pay.store.iter().map(|(_, n)| u32::from(*n)).sum::<u32>();
        ev.push(Event::CardsPaid { seat: a, cards: paid.into_iter().collect() });
        self.spend_permit(a, b, ev);
        let inf = rules.buildings[b.index()].influence;
        let reserve = &mut self.seats[a].chips;
        let chips = inf.min(reserve.count());
        let standing = if self.fault == Some(Fault::ChipLeak) { chips.saturating_sub(1) } else { chips };
        let mut on = Chips::new();
        moved(move_n(reserve, &mut on, colour(a), standing));
        // the fault's missing chip goes into a supply no conservation check declares
        moved(move_n(reserve, &mut Supply::new(), colour(a), chips - standing));
        self.board.edit()[plot.index()] = Some(Placed { building: b, owner: Some(a), damage: None, chips: on });
        self.built_this_turn.push(plot);
        ev.push(Event::Built { seat: a, building: b, plot });
        ev.push(Event::ChipsPlaced { seat: a, chips });
    }
}
