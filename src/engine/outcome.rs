//! Who acts at a node, and how a game ended: the shapes of the state API
//! that every game shares (OpenSpiel's `CurrentPlayer` and `Returns`, with a
//! ranking instead of one winner).

use std::fmt;

use serde::{Deserialize, Serialize};

use super::game::seat_name;

/// A player's seat, 0-based in turn order from the starting player.
pub type Seat = usize;

/// The most seats a game can have: a `Seats` set is one `u64`.
pub const MAX_SEATS: usize = 64;

/// A set of seats (at most `MAX_SEATS`), iterated in seat order.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Seats(u64);

impl Seats {
    pub const EMPTY: Seats = Seats(0);

    /// Seats `0..n` (`n` is clamped to `MAX_SEATS`).
    pub fn first(n: usize) -> Seats {
        if n >= MAX_SEATS { Seats(u64::MAX) } else { Seats((1u64 << n) - 1) }
    }
    pub fn one(seat: Seat) -> Seats {
        Seats::EMPTY.with(seat)
    }
    /// The set with `seat` added (a seat past `MAX_SEATS` is ignored).
    pub fn with(self, seat: Seat) -> Seats {
        if seat < MAX_SEATS { Seats(self.0 | 1 << seat) } else { self }
    }
    pub fn without(self, seat: Seat) -> Seats {
        if seat < MAX_SEATS { Seats(self.0 & !(1 << seat)) } else { self }
    }
    pub fn contains(self, seat: Seat) -> bool {
        seat < MAX_SEATS && self.0 & (1 << seat) != 0
    }
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub fn iter(self) -> impl Iterator<Item = Seat> {
        (0..MAX_SEATS).filter(move |&s| self.contains(s))
    }
}

impl fmt::Display for Seats {
    /// `p1, p3`, or `nobody`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("nobody");
        }
        let names: Vec<String> = self.iter().map(seat_name).collect();
        f.write_str(&names.join(", "))
    }
}

/// Who acts next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToMove {
    /// One seat chooses.
    Seat(Seat),
    /// These seats (the ones that have not chosen yet) choose at the same
    /// time: a choice stays hidden from every other seat until all have
    /// chosen.
    Simultaneous(Seats),
    /// Chance picks one of the listed outcomes by their weights.
    Chance,
    /// The game is over.
    Terminal,
}

impl fmt::Display for ToMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ToMove::Seat(s) => f.write_str(&seat_name(*s)),
            ToMove::Simultaneous(seats) => write!(f, "{seats} (choosing at once)"),
            ToMove::Chance => f.write_str("chance"),
            ToMove::Terminal => f.write_str("nobody (the game is over)"),
        }
    }
}

/// Why a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EndReason {
    /// A seat met the game's winning condition.
    Goal,
    /// The game ended on scores and a tie-break decided some places.
    TieBreak,
    /// An end-game countdown ran out; the scores decide.
    Countdown,
    /// The configuration's turn cap was reached: nobody wins.
    TurnCap,
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EndReason::Goal => "goal",
            EndReason::TieBreak => "tie-break",
            EndReason::Countdown => "end-game countdown",
            EndReason::TurnCap => "turn cap",
        })
    }
}

/// One seat's place in a finished game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Standing {
    pub seat: Seat,
    /// 1 is first; seats that tie share a place.
    pub place: u32,
    /// The game's score for the seat (influence, points, money).
    pub score: i64,
}

/// How a game ended: every seat's place and score, and the reason.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Outcome {
    pub reason: EndReason,
    /// One entry per seat, in seat order.
    pub standings: Vec<Standing>,
}

impl Outcome {
    /// `winner` is first, every other seat shares second place.
    pub fn winner(winner: Seat, reason: EndReason, scores: &[i64]) -> Outcome {
        let standings = scores
            .iter()
            .enumerate()
            .map(|(seat, &score)| Standing { seat, place: if seat == winner { 1 } else { 2 }, score })
            .collect();
        Outcome { reason, standings }
    }

    /// Nobody wins (`TurnCap`): every seat shares first place.
    pub fn no_winner(reason: EndReason, scores: &[i64]) -> Outcome {
        let standings = scores.iter().enumerate().map(|(seat, &score)| Standing { seat, place: 1, score }).collect();
        Outcome { reason, standings }
    }

    /// Places by `keys` (higher is better, compared in order: the score and
    /// then each tie-break); seats with equal keys share a place. The score
    /// of a standing is the first key.
    pub fn ranked(reason: EndReason, keys: &[Vec<i64>]) -> Outcome {
        let standings = keys
            .iter()
            .enumerate()
            .map(|(seat, k)| Standing {
                seat,
                place: 1 + keys.iter().filter(|other| *other > k).count() as u32,
                score: k.first().copied().unwrap_or(0),
            })
            .collect();
        Outcome { reason, standings }
    }

    /// The seats in first place; none when the turn cap ended the game.
    pub fn winners(&self) -> impl Iterator<Item = Seat> + '_ {
        let none = self.reason == EndReason::TurnCap;
        self.standings.iter().filter(move |s| !none && s.place == 1).map(|s| s.seat)
    }

    /// The one winner, if exactly one seat is first.
    pub fn sole_winner(&self) -> Option<Seat> {
        let mut w = self.winners();
        match (w.next(), w.next()) {
            (Some(s), None) => Some(s),
            _ => None,
        }
    }

    /// Counts a win for each seat in first place (a shared first place
    /// counts for each), or a draw when nobody won. `wins` grows to the
    /// outcome's seats: a game may seat more than the configured players
    /// (Red Dog Junction's solo game seats the Automa as p2).
    pub fn tally(&self, wins: &mut Vec<u64>, draws: &mut u64) {
        if wins.len() < self.standings.len() {
            wins.resize(self.standings.len(), 0);
        }
        let mut any = false;
        for seat in self.winners() {
            any = true;
            if let Some(w) = wins.get_mut(seat) {
                *w += 1;
            }
        }
        *draws += u64::from(!any);
    }

    /// A short stable key for tallies: `win:p1`, `win:p1+p3`, `draw:turn-cap`.
    pub fn key(&self) -> String {
        let winners: Vec<String> = self.winners().map(seat_name).collect();
        if winners.is_empty() {
            let reason = serde_json::to_value(self.reason).ok().and_then(|v| v.as_str().map(String::from));
            format!("draw:{}", reason.unwrap_or_default())
        } else {
            format!("win:{}", winners.join("+"))
        }
    }
}

impl fmt::Display for Outcome {
    /// `p1 wins`, `p1 and p3 share first place (tie-break)`, `draw (turn cap)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let winners: Vec<String> = self.winners().map(seat_name).collect();
        match winners.as_slice() {
            [] => write!(f, "draw ({})", self.reason),
            [one] if self.reason == EndReason::Goal => write!(f, "{one} wins"),
            [one] => write!(f, "{one} wins ({})", self.reason),
            many => write!(f, "{} share first place ({})", many.join(" and "), self.reason),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_hold_sixty_four() {
        let all = Seats::first(MAX_SEATS);
        assert_eq!(all.len(), 64);
        assert!(all.contains(63));
        assert!(!Seats::first(3).contains(3));
        assert_eq!(Seats::first(3).without(1).to_string(), "p1, p3");
        assert_eq!(Seats::EMPTY.with(99), Seats::EMPTY);
    }

    #[test]
    fn ranking_shares_places_and_reads_well() {
        let o = Outcome::ranked(EndReason::TieBreak, &[vec![5, 1], vec![7, 0], vec![5, 1]]);
        let places: Vec<u32> = o.standings.iter().map(|s| s.place).collect();
        assert_eq!(places, [2, 1, 2]);
        assert_eq!(o.key(), "win:p2");
        assert_eq!(o.to_string(), "p2 wins (tie-break)");
        let tie = Outcome::ranked(EndReason::Countdown, &[vec![3], vec![3]]);
        assert_eq!(tie.key(), "win:p1+p2");
        assert_eq!(tie.sole_winner(), None);
        let cap = Outcome::no_winner(EndReason::TurnCap, &[1, 2]);
        assert_eq!(cap.key(), "draw:turn-cap");
        assert_eq!(cap.to_string(), "draw (turn cap)");
        assert_eq!(Outcome::winner(1, EndReason::Goal, &[0, 9]).to_string(), "p2 wins");
        let (mut wins, mut draws) = (vec![0u64; 1], 0);
        tie.tally(&mut wins, &mut draws);
        cap.tally(&mut wins, &mut draws);
        assert_eq!((wins, draws), (vec![1, 1], 1));
    }
}
