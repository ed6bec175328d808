//! `same-action-limit`: which action of the turn rule's list an action
//! begins, how often each was begun this turn, and the check of a third.

use serde::{Deserialize, Serialize};

use super::readings::*;
use super::rules::{Action, State, refuse};
use super::rules_data::*;
use crate::engine::Why;

/// The actions the turn rule lists, each counted by `State::repeats`
/// (`same-action-limit`; passing is not listed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Listed {
    Move,
    Load,
    Purchase,
    SuperDeal,
    /// The crew actions, one entry as the list writes them.
    Crew,
    Officer,
    Boost,
}

impl Listed {
    /// This action's bit in `Repeats`.
    fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// Which listed actions were begun once, and which twice or more, this
/// turn: two bit sets, so that the check on every legal action is one
/// test while no action has been repeated.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Repeats {
    once: u8,
    twice: u8,
}

impl Repeats {
    pub(super) fn begun(&mut self, a: Listed) {
        if self.once & a.bit() != 0 {
            self.twice |= a.bit();
        }
        self.once |= a.bit();
    }
}

/// Which action of the turn rule's list `a` begins (`same-action-limit`
/// counts them): the crew actions are one entry, as the list writes them.
/// A pass takes no action, and a declared action is offered once a turn
/// anyway, so neither is counted.
pub(super) fn listed_action(a: &Action) -> Option<Listed> {
    Some(match a {
        Action::Move(_) => Listed::Move,
        Action::Load => Listed::Load,
        Action::Buy { .. } => Listed::Purchase,
        Action::Deal(_) => Listed::SuperDeal,
        Action::Mine(_)
        | Action::Displace(_)
        | Action::Swap(_)
        | Action::Salvage
        | Action::Agents
        | Action::RascalDeal(_) => Listed::Crew,
        Action::Officer(_) => Listed::Officer,
        Action::Boost(_) => Listed::Boost,
        _ => return None,
    })
}

impl State {
    /// A third time of a listed action this turn, under `at-most-twice`.
    /// The count is looked at on every legality check, the reading only
    /// when the action would be a third.
    #[inline]
    pub(super) fn check_repeat<W: Why>(&self, rules: &Rules, a: &Action) -> Result<(), W> {
        if self.repeats.twice == 0 {
            return Ok(());
        }
        match listed_action(a) {
            Some(k) if self.repeats.twice & k.bit() != 0 => self.third_time(rules),
            _ => Ok(()),
        }
    }

    #[cold]
    fn third_time<W: Why>(&self, rules: &Rules) -> Result<(), W> {
        match self.r::<SameActionLimit>() {
            SameActionLimit::AtMostTwice => {
                Err(refuse(rules, R::TurnActions, "this action has been taken twice this turn"))
            }
            SameActionLimit::NoLimit => Ok(()),
        }
    }
}
