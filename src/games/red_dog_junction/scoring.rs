//! The end of a Red Dog Junction game: each seat's score (gold, crew
//! points, Super Deals) and the ranking with its tie-breaks
//! (`final-tie`, `tie-crew-count`, `unpurchased-cards-score`,
//! `automa-crew-scores`).

use super::readings::*;
use super::rules::{End, Fault, State};
use super::rules_data::{Card, Class, Rules};
use crate::engine::{EndReason, Id, Outcome, Reads};

impl State {
    pub fn score(&self, rules: &Rules, seat: usize) -> (u32, u32, u32) {
        let gold = self.storage[seat].count(rules.gold);
        let counted = !self.is_automa(seat) || self.r::<AutomaCrewScores>() == AutomaCrewScores::CardsScore;
        // the Automa buys nothing: whether its stack scores is automa-crew-scores's
        // question; the reading is asked only while the crew holds an unbought copy
        let unbought = || self.crew[seat].iter().any(|(c, n)| n > self.purchased_copies(seat, c));
        let bought_only = counted
            && !self.is_automa(seat)
            && unbought()
            && self.r::<UnpurchasedCards>() == UnpurchasedCards::PurchasedOnly;
        let scoring = |c: Id<Card>, n: u8| if bought_only { n.min(self.purchased_copies(seat, c)) } else { n };
        let cards: u32 = if counted {
            self.crew[seat].iter().map(|(c, n)| rules.card(c).points * u32::from(scoring(c, n))).sum()
        } else {
            0
        };
        let deals = self.deals[seat].total();
        (gold, cards, deals)
    }
    pub fn total_score(&self, rules: &Rules, seat: usize) -> i64 {
        let (g, c, d) = self.score(rules, seat);
        i64::from(g + c + d) + i64::from(self.fault == Some(Fault::ScoreBonus) && seat == 0)
    }

    pub fn outcome(&self, rules: &Rules) -> Option<Outcome> {
        let end = self.end?;
        if end == End::TurnCap {
            let scores: Vec<i64> = (0..self.players).map(|s| self.total_score(rules, s)).collect();
            return Some(Outcome::no_winner(EndReason::TurnCap, &scores));
        }
        let officers_count = self.r::<TieCrewCount>() == TieCrewCount::CrewAndOfficers;
        let later = self.r::<FinalTie>() == FinalTie::LaterSeatWins;
        let keys: Vec<Vec<i64>> = (0..self.players)
            .map(|s| {
                let crew: u32 = self.crew[s]
                    .iter()
                    .filter(|(c, _)| officers_count || rules.card(*c).class == Class::Crew)
                    .map(|(_, n)| u32::from(n))
                    .sum();
                let mut k = vec![self.total_score(rules, s), i64::from(self.boosts[s].total()), i64::from(crew)];
                if later {
                    k.push(s as i64);
                }
                k
            })
            .collect();
        let top = keys.iter().map(|k| k[0]).max().unwrap_or(0);
        let tied = keys.iter().filter(|k| k[0] == top).count() > 1;
        Some(Outcome::ranked(if tied { EndReason::TieBreak } else { EndReason::Countdown }, &keys))
    }
}
