//! The Dodge City round, run from the catalog's declared steps through the
//! engine's cursor (`engine::turn`).
//!
//! `game.yaml` lists the steps (`round.phases`), each naming one of the
//! procedures `readings::Proc` declares; an interpretation adds data steps,
//! removes steps or moves them. The interactive steps (the Marshal round,
//! the placing phases, the duels) wait for the players until the action
//! that ends them — the last Marshal card, the last seat's end of turn, the
//! last duellist's challenge or pass — finishes the step (`settle`); the
//! scoring and data steps finish at once. Past the last step the round is
//! over: what is left in the hands goes, and the next round is dealt (or
//! the game ends at the round cap or with the deck).

use super::readings::*;
use super::rules_data::*;
use super::state::{End, Event, Phase, State};
use crate::engine::{Cursor, EndReason, Flow, Procedure, TurnFlow, TurnPlan, TurnStep, drive};
use crate::lang;

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
        self.over.is_some() || !self.pending.is_empty() || !self.debts.is_empty() || !self.agenda.queue.is_empty()
    }
    fn begin(&mut self, rules: &Rules, step: TurnStep<Proc>, ev: &mut Vec<Event>) -> Flow {
        self.begin_step(rules, step, ev)
    }
    /// The next round is dealt (unless the game ended) and plays on.
    fn turn_over(&mut self, rules: &Rules, ev: &mut Vec<Event>) -> bool {
        self.next_round(rules, ev)
    }
}

impl State {
    /// Moves the round on as far as it goes without the players (into the
    /// next round when one ends).
    pub(super) fn drive(&mut self, rules: &Rules, ev: &mut Vec<Event>) {
        drive(self, rules, ev);
    }

    /// Begins one step of the round.
    fn begin_step(&mut self, rules: &Rules, step: TurnStep<Proc>, ev: &mut Vec<Event>) -> Flow {
        let p = match step {
            TurnStep::Effect { effect, anchor } => {
                // an added step runs its effect for the start player
                self.touched.mark(rules.declared.step_point(anchor.index()));
                if let Some(effect) = rules.replacements.get(effect as usize) {
                    self.actor = self.start;
                    lang::expand::<super::effects::Dc>(self, rules, effect, Ev::ZERO);
                    // a `choose` in it waits for the start player (`pending`)
                    self.resolve(rules, ev);
                }
                return Flow::Done;
            }
            TurnStep::Proc(p) => p,
        };
        // a reading that moves this step is consulted where it is played
        self.touched.mark(rules.declared.step_point(p.index()));
        match p {
            Proc::Marshal => {
                self.phase = Phase::Marshal;
                Flow::Wait
            }
            Proc::Place1 => {
                self.phase = Phase::Place { round: 1, turn: 0, carded: false };
                Flow::Wait
            }
            Proc::Place2 => {
                self.phase = Phase::Place { round: 2, turn: 0, carded: false };
                Flow::Wait
            }
            Proc::Duel => {
                self.phase = Phase::Duel { turn: 0 };
                Flow::Wait
            }
            Proc::Score => {
                self.score_all(rules, ev);
                Flow::Done
            }
        }
    }

    /// The interactive step under way is over when the last seat has acted
    /// (its phase counted past the last seat, or every Marshal card laid).
    pub(super) fn step_done(&self) -> bool {
        let n = self.players;
        match self.phase {
            Phase::Marshal => self.seats.iter().all(|p| p.picked.is_some()),
            Phase::Place { turn, .. } | Phase::Duel { turn } => usize::from(turn) >= n,
        }
    }

    /// The round is over: the cards left in the hands go, and the next round
    /// is dealt unless the round cap or the deck ends the game. Whether a
    /// round was dealt.
    fn next_round(&mut self, rules: &Rules, ev: &mut Vec<Event>) -> bool {
        for s in 0..self.players {
            let cards: Vec<CardId> = self.seats[s].hand.iter().filter(|(_, n)| *n > 0).map(|(c, _)| c).collect();
            for c in cards {
                while self.seats[s].hand.count(c) > 0 {
                    self.discard_card(s, c);
                }
            }
            let p = &mut self.seats[s];
            p.played = 0;
            p.fought = false;
        }
        // a reading that removes or moves a step changes every round
        for &p in self.readings.turn.reshaped() {
            self.touched.mark(rules.declared.step_point(usize::from(p)));
        }
        if self.round >= self.round_cap {
            self.finish(End::Cap, EndReason::TurnCap, ev);
            return false;
        }
        let needed = self.players * self.p(P::Hand) as usize;
        if self.deck.len() < needed && self.r::<DeckExhausted>() == DeckExhausted::GameEnds {
            self.finish(End::DeckOut, EndReason::TieBreak, ev);
            return false;
        }
        self.deal(rules, ev);
        self.cursor.restart();
        true
    }

    /// Cards a seat has played before the step `p` of this round: one for
    /// each card-playing step before it (for the invariant).
    pub fn cards_before(&self, p: Proc) -> u32 {
        let plan = &self.readings.turn;
        let at = plan.position(p.index() as u16).unwrap_or(0);
        (0..at).filter(|&i| matches!(plan.get::<Proc>(i), Some(TurnStep::Proc(q)) if q != Proc::Score)).count() as u32
    }

    /// For a state a scenario sets up mid-round: the cursor waits on the
    /// step of the phase it names. An error when this configuration's round
    /// has no such step.
    pub(crate) fn place_cursor(&mut self) -> Result<(), String> {
        self.cursor = Cursor::waiting_on(&self.readings.turn, self.step_of_phase(), "round")?;
        Ok(())
    }
}
