//! The Dry Gulch turn, run from the catalog's declared steps through the
//! engine's cursor (`engine::turn`).
//!
//! `game.yaml` lists the steps (`turn.phases`), each naming one of the
//! procedures `readings::Proc` declares; readings and variants add data
//! steps, remove steps or move them. `StartTurn` begins a turn (its
//! bookkeeping) and every action ends by driving the cursor on: a
//! procedure that needs the players (events, draw, build, discard) waits
//! until the action that ends its phase (`EndEvents`, a draw, `EndBuild`,
//! `EndTurn`) finishes it; the others (`turn-start`, `reward`, and the
//! optional rules' `town-hall-reopens` and `spread-fire`, which their
//! variants add) and data steps finish once their effects are resolved.
//! Past the last step the turn ends: disasters in front of the active
//! player go, hands are cut to the limit, and the next player is on.

use super::*;
use crate::engine::{Cursor, Flow, Procedure, TurnFlow, TurnPlan, TurnStep, drive};

impl TurnFlow for State {
    type Proc = Proc;
    type Rules = Rules;
    type Event = Event;
    fn plan(&self) -> &TurnPlan {
        &self.readings.turn
    }
    fn cursor(&mut self) -> &mut Cursor {
        &mut self.cursor
    }
    fn busy(&self) -> bool {
        self.outcome.is_some()
            || self.agenda.decision.is_some()
            || !self.agenda.queue.is_empty()
            || matches!(self.phase, Phase::NextTurn | Phase::Residence { .. } | Phase::Draft { .. } | Phase::Over)
    }
    fn begin(&mut self, rules: &Rules, step: TurnStep<Proc>, ev: &mut Vec<Event>) -> Flow {
        let flow = self.begin_step(rules, step, ev);
        self.run(rules, ev);
        flow
    }
    /// The next player's turn starts with the next action.
    fn turn_over(&mut self, rules: &Rules, ev: &mut Vec<Event>) -> bool {
        self.end_turn(rules, ev);
        false
    }
}

impl State {
    /// Moves the turn on as far as it goes without the players.
    pub(super) fn drive(&mut self, rules: &Rules, ev: &mut Vec<Event>) {
        drive(self, rules, ev);
    }

    /// The bookkeeping of a new turn; the cursor then plays the declared
    /// steps from the first.
    pub(super) fn start_turn(&mut self, rules: &Rules, ev: &mut Vec<Event>) {
        self.store_used = 0;
        self.acted.clear();
        self.pending_rewards.clear();
        self.built_this_turn.clear();
        self.cut = None;
        ev.push(Event::TurnStarted { seat: self.active, turn: self.turns + 1, round: self.round() });
        // a reading that removes or moves a step changes every turn
        for &p in self.readings.turn.reshaped() {
            self.touched.mark(rules.declared.step_point(usize::from(p)));
        }
        self.cursor.restart();
        self.phase = Phase::TurnStart;
    }

    /// Begins one step of the turn.
    fn begin_step(&mut self, rules: &Rules, step: TurnStep<Proc>, ev: &mut Vec<Event>) -> Flow {
        let p = match step {
            TurnStep::Effect { effect, anchor } => {
                // an added step has no target and no card of its own: its
                // effect is lowered without `damage` or `target-owner`
                self.touched.mark(rules.declared.step_point(anchor.index()));
                if let Some(effect) = rules.replacements.get(effect as usize) {
                    self.expand(rules, effect, CardKind::ZERO);
                }
                return Flow::Done;
            }
            TurnStep::Proc(p) => p,
        };
        // a reading that moves this step is consulted where it is played
        self.touched.mark(rules.declared.step_point(p.index()));
        match p {
            Proc::TurnStart => Flow::Done,
            Proc::TownHallReopens => {
                self.town_hall_reopens(ev);
                Flow::Done
            }
            Proc::SpreadFire => {
                if self.firehouse_absent(rules) {
                    self.spread_fires(rules, ev);
                }
                Flow::Done
            }
            Proc::Events => self.begin_events(ev),
            Proc::Draw => {
                self.phase = Phase::Draw;
                Flow::Wait
            }
            Proc::Build => {
                self.phase = Phase::Build;
                self.check_win(rules, ev);
                Flow::Wait
            }
            Proc::Reward => {
                self.phase = Phase::Reward;
                self.rewards(rules, ev);
                Flow::Done
            }
            Proc::Discard => {
                self.phase = Phase::Discard;
                Flow::Wait
            }
        }
    }

    /// The Town Hall closed by the active player's disaster reopens as
    /// his turn starts, if `town-hall-closed` reads it so (optional rule 2).
    fn town_hall_reopens(&mut self, ev: &mut Vec<Event>) {
        if self.town_hall_closed == Some(Closure { reopens_for: Some(self.active) })
            && self.r::<TownHallClosed>() == TownHallClosed::UntilAttackerTurn
        {
            self.reopen_town_hall(ev);
            ev.push(Event::TownHallReopened { seat: self.active });
        }
    }

    /// Reveals the events; the phase waits for the player unless nothing
    /// was revealed and the Town Hall is open.
    fn begin_events(&mut self, ev: &mut Vec<Event>) -> Flow {
        self.phase = Phase::Events { discard: 0 };
        if self.round() > self.p(P::RoundsWithoutEvents) {
            for _ in 0..self.p(P::EventsRevealed) {
                // the reading is consulted only when the deck runs out
                let when_empty = if self.event_deck.is_empty()
                    && !self.event_discard.is_empty()
                    && self.r::<EventDeckEmpty>() == EventDeckEmpty::Reshuffle
                {
                    WhenEmpty::Reshuffle
                } else {
                    WhenEmpty::Stop
                };
                let drawn =
                    self.event_deck.draw(&mut self.event_discard, when_empty, &mut self.chance, &mut self.revealed);
                if drawn.reshuffled {
                    ev.push(Event::EventsReshuffled);
                }
                if drawn.card.is_none() {
                    break;
                }
            }
            if !self.revealed.is_empty() {
                ev.push(Event::Revealed { cards: self.revealed.as_slice().to_vec() });
            }
            let discard = self.p(P::EventsDiscarded).min(self.revealed.len() as u32);
            self.phase = Phase::Events { discard };
        }
        if self.revealed.is_empty() && self.town_hall_closed.is_none() { Flow::Done } else { Flow::Wait }
    }

    /// Whether a revealed card may be taken into the hand.
    pub(super) fn keepable(&self, rules: &Rules, c: CardKind) -> bool {
        match rules.event_of(c).map(|e| rules.events[e].triangle) {
            Some(Triangle::Red | Triangle::Yellow) => true,
            Some(Triangle::Violet) => self.r::<VioletIntoHand>() == VioletIntoHand::MayTake,
            _ => false,
        }
    }

    /// The event phase ends: what is still revealed lies face up (a red or
    /// yellow card not taken is discarded under `revealed-not-taken:
    /// discarded`).
    pub(super) fn end_events(&mut self, rules: &Rules, ev: &mut Vec<Event>) {
        let red_or_yellow = |c: CardKind| {
            matches!(rules.event_of(c).map(|e| rules.events[e].triangle), Some(Triangle::Red | Triangle::Yellow))
        };
        let left: Vec<CardKind> = self.revealed.kinds().into_iter().filter(|&c| red_or_yellow(c)).collect();
        // the reading decides something only when such a card was left
        if !left.is_empty() && self.r::<RevealedNotTaken>() == RevealedNotTaken::Discarded {
            for c in left {
                while self.revealed.contains(&c) {
                    moved(move_n(&mut self.revealed, &mut self.event_discard, c, 1));
                    ev.push(Event::RevealedDiscarded { card: c });
                }
            }
        }
        if !self.revealed.is_empty() {
            ev.push(Event::LeftFaceUp { cards: self.revealed.as_slice().to_vec() });
            move_all(&mut self.revealed, &mut self.face_up);
        }
        self.cursor.finish();
    }

    /// The draw phase ends (with the Bank's draw when it comes in addition).
    pub(super) fn after_draw(&mut self, rules: &Rules, ev: &mut Vec<Event>) {
        if self.owns_intact(rules, self.active, Ability::Bank) > 0 && self.r::<BankDraw>() == BankDraw::InAddition {
            // the ability lapses as a whole with the permit deck (Special Rules 3.1)
            if self.permit_deck.is_empty() {
                ev.push(Event::Lapsed {
                    why: "the permit deck is empty, so the Bank's ability no longer applies".into(),
                });
            } else {
                self.bank_draw(ev);
            }
        }
        self.cursor.finish();
    }

    pub(super) fn bank_draw(&mut self, ev: &mut Vec<Event>) {
        let a = self.active;
        self.draw_resources(a, self.p(P::BankResources), ev);
        if self.special_permits_barred() {
            ev.push(Event::Lapsed { why: "the Town Hall is closed, so the Bank draws no permit".into() });
            return;
        }
        for _ in 0..self.p(P::BankPermits) {
            if !self.draw_permit(a, ev) {
                ev.push(Event::Lapsed { why: "the permit deck is empty, so the Bank draws no permit".into() });
            }
        }
    }

    /// The reward phase: face-up cards nobody could play go, plots and
    /// influence cards pay their rewards.
    fn rewards(&mut self, rules: &Rules, ev: &mut Vec<Event>) {
        self.release_waiting(ev);
        // face-up cards that could not be played
        if !self.face_up.is_empty() {
            let cards = self.face_up.as_slice().to_vec();
            let into_hand = self.r::<UnplayableFaceUp>() == UnplayableFaceUp::IntoHand;
            for &c in &cards {
                let hand = &mut self.seats[self.active].hand;
                moved(if into_hand {
                    move_n(&mut self.face_up, hand, c, 1)
                } else {
                    move_n(&mut self.face_up, &mut self.event_discard, c, 1)
                });
            }
            ev.push(Event::FaceUpCleared { cards, into_hand });
        }
        let seats: SmallVec<[usize; 8]> = match self.r::<RewardsWho>() {
            RewardsWho::ActivePlayer => SmallVec::from_elem(self.active, 1),
            RewardsWho::EveryPlayer => self.seats_from_active().collect(),
        };
        // every seat's rewards of all its plots and of those built this turn,
        // in one pass over the board (a plot of no seat adds to the last slot)
        let n = self.seats.len();
        let (mut all, mut new): (SmallVec<[u32; 8]>, SmallVec<[u32; 8]>) =
            (SmallVec::from_elem(0, n + 1), SmallVec::from_elem(0, n + 1));
        for (i, p) in self.board.iter().enumerate() {
            let Some(p) = p.filter(|p| p.damage.is_none()) else { continue };
            let (o, reward) = (p.owner.map_or(n, |o| o.min(n)), rules.plots[i].reward);
            all[o] += reward;
            if reward > 0 && self.built_this_turn.iter().any(|b| b.index() == i) {
                new[o] += reward;
            }
        }
        let sums: SmallVec<[(usize, u32, u32); 8]> = seats.into_iter().map(|s| (s, all[s], new[s])).collect();
        // the reading decides something only where the two differ
        let once = sums.iter().any(|&(_, all, new)| all != new) && self.r::<PlotReward>() == PlotReward::Once;
        for (seat, all, new) in sums {
            let n = if once { new } else { all };
            if n > 0 {
                self.draw_resources(seat, n, ev);
            }
        }
        let named: Vec<Bld> = if self.r::<InfluenceReward>() == InfluenceReward::EveryRewardPhase {
            let mut v = Vec::new();
            for p in &self.seats {
                for &c in &p.influence {
                    if let Some(e) = rules.event_of(c) {
                        v.extend(rules.events[e].rewards.iter().copied());
                    }
                }
            }
            v
        } else {
            std::mem::take(&mut self.pending_rewards)
        };
        for b in named {
            for owner in self.intact_owners(b) {
                let count = self.p(P::InfluenceCardReward);
                match self.r::<InfluenceRewardDraw>() {
                    InfluenceRewardDraw::Automatic => self.draw_resources(owner, count, ev),
                    InfluenceRewardDraw::Optional => {
                        self.agenda.queue.push_back(Queued::Game(Step::RewardDraw { seat: owner, count }))
                    }
                }
            }
        }
    }

    /// The turn is over: the active player's disasters in front of him go
    /// (and their markers, under `marker-removal: with-card`), every hand is
    /// cut to the limit, and the next player is on.
    fn end_turn(&mut self, rules: &Rules, ev: &mut Vec<Event>) {
        // a cut drawn like a random loss waited for a reaction: finish the turn
        if self.cut.is_none() {
            self.release_waiting(ev);
            self.front_cards_go(ev);
            if self.fault != Some(Fault::NoHandLimit) && !self.cut_hands(rules, ev) {
                return;
            }
        }
        self.turns += 1;
        self.active = (self.active + 1) % self.players;
        if self.turns >= self.turn_cap {
            self.end(End::Draw(EndReason::TurnCap), ev);
        } else {
            self.phase = Phase::NextTurn;
        }
    }

    /// The active player's disasters in front of him go, with their
    /// markers under `marker-removal: with-card`.
    fn front_cards_go(&mut self, ev: &mut Vec<Event>) {
        let a = self.active;
        let cards = self.seats[a].in_front.as_slice().to_vec();
        for (card, plot) in cards {
            moved(move_n(&mut self.seats[a].in_front, &mut self.event_discard, card, 1));
            ev.push(Event::Discarded { seat: a, card });
            if self.r::<MarkerRemoval>() == MarkerRemoval::WithCard {
                for (i, p) in Plot::first(self.board.len()).zip(self.board.edit().iter_mut()) {
                    if let Some(p) = p.as_mut()
                        && p.damage.is_some_and(|d| d.origin == plot && d.card == card)
                    {
                        p.damage = None;
                        ev.push(Event::Repaired { plot: i });
                    }
                }
            }
        }
    }

    /// Every hand over the limit is cut at random; false while a cut drawn
    /// like a random loss waits for its holder's I.O.U. or Ace.
    fn cut_hands(&mut self, rules: &Rules, ev: &mut Vec<Event>) -> bool {
        let limit = self.p(P::HandLimit);
        let over: Vec<(usize, u32)> =
            (0..self.players).map(|s| (s, self.seats[s].hand_size())).filter(|&(_, n)| n > limit).collect();
        let answers = [ReactionKey::Iou, ReactionKey::Ace].map(|k| rules.reactions.get(&k).copied());
        let reacts = |s: usize| answers.iter().flatten().any(|&c| self.seats[s].hand.count(c) > 0);
        // the reading decides something only when a hand over the limit holds an answer
        let drawn = over.iter().any(|&(s, _)| reacts(s))
            && self.r::<HandCutReactions>() == HandCutReactions::LikeADraw
            && self.fault != Some(Fault::PermitInHand);
        if drawn {
            for &(from, n) in &over {
                let (to, count, insurable) = (Dest::Discard, n - limit, false);
                let take = Step::Take { from, to, count, insurable, stage: 1, protect: None };
                self.agenda.queue.push_back(Queued::Game(take));
            }
            let ious = |s: usize| answers[0].map_or(0, |c| self.seats[s].hand.count(c));
            self.cut = Some(over.iter().map(|&(s, n)| (s, n, ious(s))).collect());
            self.run(rules, ev);
            return self.agenda.decision.is_none();
        }
        for seat in 0..self.players {
            let limit = if self.fault == Some(Fault::PermitInHand) {
                limit.saturating_sub(self.seats[seat].permits.total())
            } else {
                limit
            };
            let cut = self.cut_at_random(rules, seat, limit);
            if !cut.is_empty() {
                ev.push(Event::HandCut { seat, cards: cut });
            }
        }
        true
    }

    /// For a state a scenario sets up mid-turn: the cursor waits on the
    /// step of the phase it names. An error when this configuration's turn
    /// has no such step.
    pub(crate) fn place_cursor(&mut self) -> Result<(), String> {
        let p = match self.phase {
            Phase::Events { .. } => Proc::Events,
            Phase::Draw | Phase::DrawKeep { .. } => Proc::Draw,
            Phase::Build => Proc::Build,
            Phase::Discard => Proc::Discard,
            _ => return Ok(()),
        };
        self.cursor = Cursor::waiting_on(&self.readings.turn, p, "turn")?;
        Ok(())
    }
}
