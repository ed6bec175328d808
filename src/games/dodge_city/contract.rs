//! Dodge City's side of the engine contract: the state API (`Game`) and
//! the harness hooks `Describe` and `Cover`, each a thin wiring of `state`,
//! `play`, `round` and `words`. `Check` lives beside the invariants and
//! `Scripted` beside the scenario words (`scenario_io`).

use super::readings::*;
use super::rules_data::*;
use super::scenario_io;
use super::state::{Action, End, Event, Phase, State};
use crate::engine::{Cover, Describe, EndReason, Game, Outcome, RuleError, Seat, Seats, ToMove};

impl Game for State {
    crate::games::game_fields!();
    type Deferred = ();

    fn to_move(&self) -> ToMove {
        if self.over.is_some() {
            return ToMove::Terminal;
        }
        if let Some(&(debtor, _)) = self.debts.first() {
            return ToMove::Seat(usize::from(debtor));
        }
        if let Some(&p) = self.pending.first() {
            return ToMove::Seat(self.pending_seat(p));
        }
        match self.phase {
            Phase::Marshal => ToMove::Simultaneous(
                (0..self.players).filter(|&s| self.seats[s].picked.is_none()).fold(Seats::EMPTY, Seats::with),
            ),
            _ => ToMove::Seat(self.active_seat()),
        }
    }

    fn legal_actions(&self, rules: &Rules, out: &mut Vec<Action>) {
        self.legal(rules, out);
    }

    fn actor(&self, action: &Action) -> Option<Seat> {
        match (self.to_move(), action) {
            (ToMove::Simultaneous(_), Action::Pick { seat, .. }) => Some(usize::from(*seat)),
            (ToMove::Seat(s), _) => Some(s),
            _ => None,
        }
    }

    fn apply(&mut self, rules: &Rules, action: &Action) -> Result<Vec<Event>, RuleError> {
        self.checked_apply(rules, action)
    }

    /// A ranking by points, then money (`several-reach-six`); a deck that
    /// ends the game ranks the same way; the round cap is a draw.
    fn outcome(&self, _: &Rules) -> Option<Outcome> {
        let end = self.over?;
        let points: Vec<i64> = self.seats.iter().map(|p| i64::from(p.points)).collect();
        let by_points_then_money = |reason| {
            Outcome::ranked(
                reason,
                &self.seats.iter().map(|p| vec![i64::from(p.points), i64::from(p.money.value())]).collect::<Vec<_>>(),
            )
        };
        Some(match end {
            End::Cap => Outcome::no_winner(EndReason::TurnCap, &points),
            End::DeckOut => by_points_then_money(EndReason::TieBreak),
            End::Goal => {
                let goal = i64::from(self.param(P::GoalPoints));
                let reached = points.iter().filter(|&&p| p >= goal).count();
                // the reading decides something only when several reached the goal
                match self.r_if::<SeveralReachSix>(reached > 1) {
                    Some(SeveralReachSix::SharedWin) => Outcome::ranked(
                        EndReason::Goal,
                        &points.iter().map(|&p| vec![p.min(goal), p]).collect::<Vec<_>>(),
                    ),
                    Some(SeveralReachSix::MostPointsThenMoney) | None => {
                        let top = points.iter().max().copied().unwrap_or(0);
                        let tied = points.iter().filter(|&&p| p == top).count() > 1;
                        by_points_then_money(if tied && reached > 1 { EndReason::TieBreak } else { EndReason::Goal })
                    }
                }
            }
        })
    }

    fn turns(&self) -> u32 {
        self.round
    }

    fn observation(&self, rules: &Rules, seat: Seat) -> String {
        scenario_io::describe_view(self, rules, Some(seat))
    }
}

impl Describe for State {
    fn describe_action(rules: &Rules, a: &Action) -> String {
        super::words::action(rules, a)
    }
    fn describe_event(rules: &Rules, e: &Event) -> String {
        super::words::event(rules, e)
    }
}

impl Cover for State {
    fn coverage_keys(rules: &Rules) -> Vec<String> {
        let mut keys: Vec<String> = rules.cards.iter().map(|c| format!("card:{}", c.id)).collect();
        keys.extend(rules.events.iter().map(|e| format!("event:{}", e.id)));
        keys.extend(rules.buildings.iter().map(|b| format!("scored:{}", b.id)));
        keys.extend(rules.actions.iter().map(|a| format!("action:{}", a.id)));
        keys
    }
    fn coverage_of(rules: &Rules, e: &Event) -> Option<usize> {
        match e {
            Event::Played { card, .. } => Some(card.index()),
            Event::EventDrawn { event, .. } => Some(rules.cards.len() + event.index()),
            Event::Scored { building, .. } => Some(rules.cards.len() + rules.events.len() + building.index()),
            Event::ActionTaken { action, .. } => {
                Some(rules.cards.len() + rules.events.len() + rules.buildings.len() + action.index())
            }
            _ => None,
        }
    }
    fn consulted(&self, rules: &Rules) -> Vec<String> {
        self.touched.consulted(&rules.interpretations)
    }
}
