//! Bid-and-roll, a test-only game with the nodes Dry Gulch lacks: every
//! round all seats bid 1–3 at once (hidden until all have bid), then a
//! chance node rolls a die whose six comes up twice as often as each
//! other face. A seat whose bid is at most half the roll scores its bid,
//! else its bid counts as risk. At the end of a round in which a seat
//! reaches the target the game ends on scores, fewer risk breaking ties.
//! Faults plant one bug each, so the contract suite and the invariant are
//! shown catching them.

pub mod race;

use rulecheck::engine::{
    Check, Config, ConfigError, Cover, Describe, EndReason, Game, InvariantDef, Outcome, RuleError, Scripted, Seat,
    Seats, ToMove, Unapplied, Violation,
};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone)]
pub struct ToyRules {
    pub target: i64,
}

impl Default for ToyRules {
    fn default() -> ToyRules {
        ToyRules { target: 6 }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fault {
    /// Observations show the other seats' bids before the reveal.
    Leak,
    /// The die lists a face with weight 0.
    ZeroWeight,
    /// A successful bid scores twice.
    DoubleScore,
    /// A bid of any size is accepted from a seat still choosing.
    AnyBid,
    /// A rejected action still adds to the first seat's risk.
    DirtyReject,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    Bidding,
    Rolling,
    Over,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Toy {
    pub players: usize,
    pub scores: Vec<i64>,
    pub risk: Vec<i64>,
    pub bids: Vec<Option<u8>>,
    pub phase: Phase,
    pub rounds: u32,
    pub cap: u32,
    pub fault: Option<Fault>,
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Action {
    Bid { seat: usize, bid: u8 },
    Roll(u8),
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum Event {
    Revealed(Vec<u8>),
    Rolled(u8),
    Scored { seat: usize, points: i64 },
}

const FACES: u8 = 6;

impl Toy {
    fn choosing(&self) -> Seats {
        (0..self.players).filter(|&s| self.bids[s].is_none()).fold(Seats::EMPTY, Seats::with)
    }
}

impl Game for Toy {
    type Rules = ToyRules;
    type Action = Action;
    type Event = Event;
    type Deferred = ();

    fn new(_: &ToyRules, config: &Config) -> Result<Toy, ConfigError> {
        let players = config.players as usize;
        if !(2..=4).contains(&players) {
            return Err(ConfigError::Players { players: config.players, min: 2, max: 4 });
        }
        Ok(Toy {
            players,
            scores: vec![0; players],
            risk: vec![0; players],
            bids: vec![None; players],
            phase: Phase::Bidding,
            rounds: 0,
            cap: config.turn_cap.unwrap_or(50),
            fault: None,
        })
    }

    fn players(&self) -> usize {
        self.players
    }

    fn to_move(&self) -> ToMove {
        match self.phase {
            Phase::Bidding => ToMove::Simultaneous(self.choosing()),
            Phase::Rolling => ToMove::Chance,
            Phase::Over => ToMove::Terminal,
        }
    }

    fn legal_actions(&self, _: &ToyRules, out: &mut Vec<Action>) {
        out.clear();
        match self.phase {
            Phase::Bidding => {
                for seat in self.choosing().iter() {
                    out.extend((1..=3).map(|bid| Action::Bid { seat, bid }));
                }
            }
            Phase::Rolling => out.extend((1..=FACES).map(Action::Roll)),
            Phase::Over => {}
        }
    }

    fn chance_weights(&self, _: &ToyRules, out: &mut Vec<u32>) {
        out.clear();
        if self.phase == Phase::Rolling {
            out.extend((1..=FACES).map(|f| match f {
                6 => 2,
                1 if self.fault == Some(Fault::ZeroWeight) => 0,
                _ => 1,
            }));
        }
    }

    fn actor(&self, action: &Action) -> Option<Seat> {
        match (self.phase, action) {
            (Phase::Bidding, Action::Bid { seat, .. }) => Some(*seat),
            _ => None,
        }
    }

    fn apply(&mut self, rules: &ToyRules, action: &Action) -> Result<Vec<Event>, RuleError> {
        let mut legal = Vec::new();
        self.legal_actions(rules, &mut legal);
        let any_bid = self.fault == Some(Fault::AnyBid)
            && matches!(*action, Action::Bid { seat, .. } if self.choosing().contains(seat));
        if !legal.contains(action) && !any_bid {
            if self.fault == Some(Fault::DirtyReject) {
                self.risk[0] += 1;
            }
            return Err(RuleError::new("toy/turn", "toy § Round", format!("{} is not legal now", describe(action))));
        }
        let mut ev = Vec::new();
        match *action {
            Action::Bid { seat, bid } => {
                self.bids[seat] = Some(bid);
                if self.choosing().is_empty() {
                    ev.push(Event::Revealed(self.bids.iter().map(|b| b.unwrap_or(0)).collect()));
                    self.phase = Phase::Rolling;
                }
            }
            Action::Roll(face) => {
                ev.push(Event::Rolled(face));
                for seat in 0..self.players {
                    let bid = i64::from(self.bids[seat].take().unwrap_or(0));
                    if 2 * bid <= i64::from(face) {
                        let points = if self.fault == Some(Fault::DoubleScore) { 2 * bid } else { bid };
                        self.scores[seat] += points;
                        ev.push(Event::Scored { seat, points });
                    } else {
                        self.risk[seat] += bid;
                    }
                }
                self.rounds += 1;
                let done = self.scores.iter().any(|&s| s >= rules.target) || self.rounds >= self.cap;
                self.phase = if done { Phase::Over } else { Phase::Bidding };
            }
        }
        Ok(ev)
    }

    fn outcome(&self, rules: &ToyRules) -> Option<Outcome> {
        if self.phase != Phase::Over {
            return None;
        }
        if self.scores.iter().all(|&s| s < rules.target) {
            return Some(Outcome::no_winner(EndReason::TurnCap, &self.scores));
        }
        let best = self.scores.iter().max().copied().unwrap_or(0);
        let tied = self.scores.iter().filter(|&&s| s == best).count() > 1;
        let keys: Vec<Vec<i64>> = (0..self.players).map(|s| vec![self.scores[s], -self.risk[s]]).collect();
        Some(Outcome::ranked(if tied { EndReason::TieBreak } else { EndReason::Goal }, &keys))
    }

    fn turns(&self) -> u32 {
        self.rounds
    }

    fn observation(&self, _: &ToyRules, seat: Seat) -> String {
        let others: Vec<String> = (0..self.players)
            .filter(|&s| s != seat)
            .map(|s| match (self.bids[s], self.fault) {
                (Some(b), Some(Fault::Leak)) => format!("p{} bid {b}", s + 1),
                (Some(_), _) => format!("p{} has bid", s + 1),
                (None, _) => format!("p{} is choosing", s + 1),
            })
            .collect();
        let mine = self.bids[seat].map_or("none yet".to_string(), |b| b.to_string());
        format!("round {}, scores {:?}\nmy bid: {mine}; {}", self.rounds + 1, self.scores, others.join(", "))
    }
}

fn describe(a: &Action) -> String {
    match a {
        Action::Bid { bid, .. } => format!("bids {bid}"),
        Action::Roll(face) => format!("the die shows {face}"),
    }
}

impl Describe for Toy {
    fn describe_action(_: &ToyRules, a: &Action) -> String {
        describe(a)
    }
    fn describe_event(_: &ToyRules, e: &Event) -> String {
        match e {
            Event::Revealed(bids) => format!("the bids are revealed: {bids:?}"),
            Event::Rolled(face) => format!("rolled {face}"),
            Event::Scored { seat, points } => format!("p{} scores {points}", seat + 1),
        }
    }
}

pub const INVARIANTS: &[InvariantDef] = &[InvariantDef {
    name: "score-by-bid",
    statement: "a roll adds to a seat's score exactly its bid, or nothing",
    source: "toy § Round",
    fault: "double-score",
}];

impl Check for Toy {
    type Before = Vec<(i64, Option<u8>)>;
    fn before(&self) -> Self::Before {
        self.scores.iter().copied().zip(self.bids.iter().copied()).collect()
    }
    fn invariants() -> &'static [InvariantDef] {
        INVARIANTS
    }
    fn check_invariants(&self, _: &ToyRules, before: &Self::Before, _: &Action, _: &[Event]) -> Result<(), Violation> {
        for (seat, &(score, bid)) in before.iter().enumerate() {
            let gained = self.scores[seat] - score;
            if gained != 0 && Some(gained) != bid.map(i64::from) {
                return Err(Violation {
                    invariant: "score-by-bid",
                    detail: format!("p{} bid {bid:?} but gained {gained}", seat + 1),
                });
            }
        }
        Ok(())
    }
    fn inject_fault(&mut self, fault: &str) -> bool {
        self.fault = Some(match fault {
            "leak" => Fault::Leak,
            "zero-weight" => Fault::ZeroWeight,
            "double-score" => Fault::DoubleScore,
            "any-bid" => Fault::AnyBid,
            "dirty-reject" => Fault::DirtyReject,
            _ => return false,
        });
        true
    }
    fn faults() -> &'static [&'static str] {
        &["leak", "zero-weight", "double-score", "any-bid", "dirty-reject"]
    }
}

impl Cover for Toy {
    fn coverage_keys(_: &ToyRules) -> Vec<String> {
        (1..=FACES).map(|f| format!("face:{f}")).collect()
    }
    fn coverage_of(_: &ToyRules, e: &Event) -> Option<usize> {
        match e {
            Event::Rolled(f) => Some(usize::from(*f) - 1),
            _ => None,
        }
    }
    fn consulted(&self, _: &ToyRules) -> Vec<String> {
        Vec::new()
    }
}

/// `{seat: p1, bid: 2}` or `{die: 5}`: a chance outcome is named by its face.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bid: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub die: Option<u8>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scores: Option<Vec<i64>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<String>,
}

fn seat_of(name: &str, players: usize) -> Result<Seat, String> {
    match name.strip_prefix('p').and_then(|n| n.parse::<usize>().ok()) {
        Some(n) if (1..=players).contains(&n) => Ok(n - 1),
        _ => Err(format!("`{name}` is no seat of a {players}-player game")),
    }
}

impl Scripted for Toy {
    type Setup = Vec<i64>;
    type ActionSpec = Spec;
    type Expect = Expect;

    fn apply_setup(&mut self, _: &ToyRules, scores: &Vec<i64>) -> Result<(), Unapplied> {
        if scores.len() != self.players {
            return Err(Unapplied::from(format!("{} scores for {} players", scores.len(), self.players)));
        }
        self.scores.clone_from(scores);
        Ok(())
    }
    fn action_from_spec(_: &ToyRules, spec: &Spec) -> Result<Action, Unapplied> {
        match (spec, spec.die) {
            (Spec { seat: Some(seat), bid: Some(bid), die: None }, _) => {
                Ok(Action::Bid { seat: seat_of(seat, 4)?, bid: *bid })
            }
            (Spec { seat: None, bid: None, .. }, Some(face)) => Ok(Action::Roll(face)),
            _ => Err(Unapplied::from("write `{seat: pN, bid: B}` or `{die: F}`")),
        }
    }
    fn action_to_spec(_: &ToyRules, a: &Action) -> Spec {
        match a {
            Action::Bid { seat, bid } => Spec { seat: Some(format!("p{}", seat + 1)), bid: Some(*bid), die: None },
            Action::Roll(face) => Spec { seat: None, bid: None, die: Some(*face) },
        }
    }
    fn check_expect(
        &self,
        rules: &ToyRules,
        e: &Expect,
    ) -> Result<Vec<(String, String, String)>, rulecheck::engine::Unapplied> {
        let mut out = Vec::new();
        if let Some(s) = &e.scores
            && *s != self.scores
        {
            out.push(("scores".into(), format!("{s:?}"), format!("{:?}", self.scores)));
        }
        if let Some(o) = &e.outcome {
            let actual = self.outcome(rules).map_or("ongoing".to_string(), |o| o.to_string());
            if *o != actual {
                out.push(("outcome".into(), o.clone(), actual));
            }
        }
        Ok(out)
    }
    fn record_expect(&self, _: &ToyRules) -> Expect {
        Expect { scores: Some(self.scores.clone()), outcome: None }
    }
    fn describe_state(&self, rules: &ToyRules) -> String {
        let outcome = self.outcome(rules).map_or("ongoing".to_string(), |o| o.to_string());
        format!("round {}, scores {:?}, risk {:?}, {outcome}\n", self.rounds + 1, self.scores, self.risk)
    }
    fn pending_decision(&self) -> Option<(Seat, &'static str)> {
        None
    }
    fn chance(&mut self) -> Option<&mut rulecheck::engine::Chance> {
        None
    }
    fn seat_of(name: &str, players: usize) -> Result<Seat, String> {
        seat_of(name, players)
    }
}
