//! Cards passing between players inside an effect, and the decisions that
//! answer them: the random take (`take_random`) with its reaction stages
//! (Fire Insurance, I.O.U., the Ace up your sleeve), the chosen gift
//! (`give`), and the actions each pending decision offers; and the random
//! picks from a hand (a take's card, and the cut of a hand over the limit,
//! picked card by card).

use super::*;

/// A decision an effect waits for, and the seat that makes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Decision {
    UseInsurance { seat: usize },
    UseIou { seat: usize },
    Protect { seat: usize },
    Give { seat: usize },
    RewardDraw { seat: usize },
    SpreadTo { seat: usize, origin: Plot, options: Vec<Plot> },
    Choose { seat: usize, choice: u32, card: CardKind },
}

impl Decision {
    pub fn seat(&self) -> usize {
        match self {
            Decision::UseInsurance { seat }
            | Decision::UseIou { seat }
            | Decision::Protect { seat }
            | Decision::Give { seat }
            | Decision::RewardDraw { seat }
            | Decision::SpreadTo { seat, .. }
            | Decision::Choose { seat, .. } => *seat,
        }
    }
    pub fn name(&self) -> &'static str {
        match self {
            Decision::UseInsurance { .. } => "use-insurance",
            Decision::UseIou { .. } => "use-iou",
            Decision::Protect { .. } => "protect",
            Decision::Give { .. } => "give",
            Decision::RewardDraw { .. } => "reward-draw",
            Decision::SpreadTo { .. } => "spread-to",
            Decision::Choose { .. } => "choose",
        }
    }
}

impl State {
    pub(in crate::games::dry_gulch) fn run_take(&mut self, rules: &Rules, step: Step, ev: &mut Vec<Event>) {
        let Step::Take { from, to, count, insurable, mut stage, protect } = step else {
            return;
        };
        // the hand cannot change between the stages of one call: each stage
        // that acts on it returns (a decision resumes the step anew)
        let hand = &self.seats[from].hand;
        let has = |k: ReactionKey| rules.reactions.get(&k).filter(|&&c| hand.count(c) > 0).copied();
        let (insurance, iou, ace) = (has(ReactionKey::Insurance), has(ReactionKey::Iou), has(ReactionKey::Ace));
        let resume = |stage| Step::Take { from, to, count, insurable, stage, protect };
        if stage == 0 {
            stage = 1;
            if insurable && let Some(c) = insurance {
                if self.r::<FireInsuranceUse>() == FireInsuranceUse::Automatic {
                    self.use_insurance(rules, from, c, ev);
                } else {
                    self.wait_for(resume(stage), Decision::UseInsurance { seat: from });
                }
                return;
            }
        }
        if stage == 1 {
            stage = 2;
            if let Some(c) = iou {
                if self.r::<IouUse>() == IouUse::Automatic {
                    self.hand_over_iou(rules, from, to, c, ev);
                } else {
                    self.wait_for(resume(stage), Decision::UseIou { seat: from });
                }
                return;
            }
        }
        if stage == 2 && ace.is_some() && self.seats[from].hand_size() > 0 {
            self.wait_for(resume(3), Decision::Protect { seat: from });
            return;
        }
        // stage 3: take
        let mut exclude: Vec<(CardKind, u8)> = Vec::new();
        if let Some(ace) = ace {
            if self.r::<AceProtection>() == AceProtection::AceAndOneCard {
                exclude.push((ace, 1));
            }
            if let Some(p) = protect {
                exclude.push((p, 1));
            }
        }
        for _ in 0..count {
            let Some(c) = self.random_card(rules, from, &exclude) else {
                break;
            };
            self.hand_to(rules, from, to, c);
            if let (Dest::Seat(s), Some(Fault::DuplicateOnTake)) = (to, self.fault) {
                // out of nowhere: a supply no conservation check declares
                moved(move_n(&mut Supply::new(), &mut self.seats[s].hand, c, 1));
            }
            ev.push(Event::Took { from, to, card: c });
        }
    }

    /// The actions that answer a pending decision.
    pub(in crate::games::dry_gulch) fn decision_actions(&self, rules: &Rules, d: &Decision, out: &mut Vec<Action>) {
        match d {
            Decision::UseInsurance { .. } => out.extend([Action::UseInsurance(true), Action::UseInsurance(false)]),
            Decision::UseIou { .. } => out.extend([Action::UseIou(true), Action::UseIou(false)]),
            Decision::Protect { seat } => {
                out.push(Action::Protect(None));
                let ace = rules.reactions.get(&ReactionKey::Ace).copied();
                let skip_ace = self.r::<AceProtection>() == AceProtection::AceAndOneCard;
                for (k, &n) in rules.cards().zip(self.seats[*seat].hand.counts()) {
                    let avail = if skip_ace && Some(k) == ace { n.saturating_sub(1) } else { n };
                    if avail > 0 {
                        out.push(Action::Protect(Some(k)));
                    }
                }
            }
            Decision::RewardDraw { .. } => out.extend([Action::RewardDraw(true), Action::RewardDraw(false)]),
            Decision::Give { seat } => {
                let held = rules.cards().zip(self.seats[*seat].hand.counts());
                out.extend(held.filter(|&(_, &n)| n > 0).map(|(k, _)| Action::Give(k)));
            }
            Decision::SpreadTo { options, .. } => out.extend(options.iter().map(|&p| Action::SpreadTo(p))),
            Decision::Choose { choice, .. } => {
                let n = rules.choices.get(*choice as usize).map_or(0, Vec::len);
                out.extend((0..n as u32).map(|option| Action::Choose { choice: *choice, option }));
            }
        }
    }

    /// The giver of a pending `give` hands over `card`; the step waits again
    /// for the next card while any is left to give and he holds one.
    pub(in crate::games::dry_gulch) fn give_chosen(&mut self, rules: &Rules, card: CardKind, ev: &mut Vec<Event>) {
        let Some(Decision::Give { seat }) = self.agenda.decision.take() else {
            return;
        };
        let Some(Queued::Game(Step::Give { to, left, .. })) = self.agenda.queue.pop_front() else {
            return;
        };
        self.hand_to(rules, seat, to, card);
        ev.push(Event::Gave { from: seat, to, card });
        if left > 1 {
            self.agenda.queue.push_front(Queued::Game(Step::Give { from: seat, to, left: left - 1 }));
        }
    }

    /// The owner asked by `influence-reward-draw: optional` draws the
    /// influence card's reward, or declines it.
    pub(in crate::games::dry_gulch) fn reward_draw(&mut self, yes: bool, ev: &mut Vec<Event>) {
        let Some(Decision::RewardDraw { seat }) = self.agenda.decision.take() else {
            return;
        };
        let Some(Queued::Game(Step::RewardDraw { count, .. })) = self.agenda.queue.pop_front() else {
            return;
        };
        match yes {
            true => self.draw_resources(seat, count, ev),
            false => ev.push(Event::RewardDeclined { seat }),
        }
    }

    /// Whether what an effect gives a player waits for the reward phase
    /// (`reward-card-german-rule-7`); asked only where an effect gives.
    pub(in crate::games::dry_gulch) fn gains_wait(&self) -> bool {
        self.r::<RewardCardTiming>() == RewardCardTiming::AllAtReward
    }

    /// The cards and permits waiting beside each player join his hand and
    /// permits (the reward phase; a turn whose catalog has no reward step
    /// hands them over as it ends).
    pub(in crate::games::dry_gulch) fn release_waiting(&mut self, ev: &mut Vec<Event>) {
        if self.fault == Some(Fault::WaitingKept) {
            return;
        }
        for (seat, p) in self.seats.iter_mut().enumerate() {
            // asked twice a turn of every seat; piles wait only under `all-at-reward`
            if p.waiting.is_empty() && p.waiting_permits.is_empty() {
                continue;
            }
            let cards = p.waiting.total() + p.waiting_permits.total();
            for (k, n) in p.waiting.iter().collect::<Vec<_>>() {
                moved(move_n(&mut p.waiting, &mut p.hand, k, u32::from(n)));
            }
            for (b, n) in p.waiting_permits.iter().collect::<Vec<_>>() {
                moved(move_n(&mut p.waiting_permits, &mut p.permits, b, u32::from(n)));
            }
            ev.push(Event::WaitingReleased { seat, cards });
        }
    }

    /// ", N card(s) waiting for the reward phase" when any wait beside `seat`.
    pub fn waiting_note(&self, seat: usize) -> String {
        match self.seats[seat].waiting.total() + self.seats[seat].waiting_permits.total() {
            0 => String::new(),
            n => format!(", {n} card(s) waiting for the reward phase"),
        }
    }

    /// Puts `step` back in front of the queue, to resume once `d` is decided.
    pub(in crate::games::dry_gulch) fn wait_for(&mut self, step: Step, d: Decision) {
        self.agenda.queue.push_front(Queued::Game(step));
        self.agenda.decision = Some(d);
    }

    pub(in crate::games::dry_gulch) fn use_insurance(
        &mut self,
        rules: &Rules,
        seat: usize,
        card: CardKind,
        ev: &mut Vec<Event>,
    ) {
        self.discard_from_hand(rules, seat, card, 1);
        ev.push(Event::InsuranceUsed { seat });
        self.agenda
            .queue
            .retain(|s| !matches!(s, Queued::Game(Step::Take { from, insurable: true, .. }) if *from == seat));
    }

    /// Fire Insurance kept at a fire's first draw stays kept for the rest
    /// of its draws (`fire-insurance-moment: before-first-draw`).
    pub(in crate::games::dry_gulch) fn decline_insurance(&mut self, seat: usize) {
        for s in self.agenda.queue.iter_mut() {
            if let Queued::Game(Step::Take { from, insurable, .. }) = s
                && *from == seat
            {
                *insurable = false;
            }
        }
    }

    pub(in crate::games::dry_gulch) fn hand_over_iou(
        &mut self,
        rules: &Rules,
        from: usize,
        to: Dest,
        card: CardKind,
        ev: &mut Vec<Event>,
    ) {
        // a loss whose card is thrown away (Vandalism, a building not yet
        // built): the I.O.U. goes the same way, or to the active player, who
        // draws for the event (iou-discarded-loss); nobody draws in the
        // hand-limit cut
        let to = match to {
            Dest::Discard
                if self.cut.is_none()
                    && from != self.active
                    && self.r::<IouDiscardedLoss>() == IouDiscardedLoss::ToTheDrawer =>
            {
                Dest::Seat(self.active)
            }
            _ => to,
        };
        self.hand_to(rules, from, to, card);
        ev.push(Event::IouHandedOver { from, to });
        // the event's further draws from the same player (a Fire's one per
        // other player): the I.O.U. stops them too, or only the draw it
        // answered (iou-several-draws, consulted only where some are left;
        // the hand-limit cut is one draw)
        let same = |q: &Queued| matches!(q, Queued::Game(Step::Take { from: f, .. }) if *f == from);
        if self.cut.is_none()
            && self.agenda.queue.iter().any(same)
            && self.r::<IouSeveralDraws>() == IouSeveralDraws::WholeEvent
        {
            self.agenda.queue.retain(|q| !same(q));
            ev.push(Event::Lapsed {
                why: format!("the I.O.U. answers the whole event: no more cards are drawn from P{}", from + 1),
            });
        }
    }
}

/// Random picks from a hand: a card for a random take, and the cut of a
/// hand over the limit.
impl State {
    /// A uniformly random card of `seat`'s hand, skipping `exclude` counts
    /// (a forced outcome names the card's id).
    pub(in crate::games::dry_gulch) fn random_card(
        &mut self,
        rules: &Rules,
        seat: usize,
        exclude: &[(CardKind, u8)],
    ) -> Option<CardKind> {
        self.seats[seat].hand.pick(exclude, &mut self.chance, &|c| rules.card_id(c).to_string())
    }

    /// Cuts `seat`'s hand down to `limit` at random, one uniform pick of the
    /// cards left at a time (each as `random_card` makes it), the cards
    /// discarded as they are picked: the cards cut, in order.
    pub(in crate::games::dry_gulch) fn cut_at_random(
        &mut self,
        rules: &Rules,
        seat: usize,
        limit: u32,
    ) -> Vec<CardKind> {
        let mut cut = Vec::new();
        for _ in limit..self.seats[seat].hand.total() {
            let Some(c) = self.random_card(rules, seat, &[]) else { break };
            self.discard_from_hand(rules, seat, c, 1);
            cut.push(c);
        }
        cut
    }
}
