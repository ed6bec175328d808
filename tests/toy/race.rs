//! Race to ten, a test-only game with what bid-and-roll lacks: a seat's
//! node with a play policy. Seats take turns adding 1 or 2 to a shared
//! count; whoever brings it to ten wins. The random player prefers to add
//! 2 (`play_weights`). Faults plant a policy that breaks the contract, so
//! the suite's `play-weights` check is shown catching it.

use rulecheck::engine::{
    Check, Config, ConfigError, Cover, Describe, EndReason, Game, InvariantDef, Outcome, RuleError, Seat, ToMove,
    Violation,
};
use serde::{Deserialize, Serialize};

pub const GOAL: u8 = 10;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fault {
    /// The policy gives a legal action no weight, so a line of play is unreachable.
    ZeroWeight,
    /// The policy lists fewer weights than legal actions.
    ShortWeights,
    /// An addition counts twice.
    DoubleStep,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Race {
    pub players: usize,
    pub count: u8,
    pub turn: u32,
    pub fault: Option<Fault>,
}

impl Race {
    fn seat(&self) -> Seat {
        self.turn as usize % self.players
    }
}

impl Game for Race {
    type Rules = ();
    type Action = u8;
    type Event = u8;
    type Deferred = ();

    fn new(_: &(), config: &Config) -> Result<Race, ConfigError> {
        if !(2..=3).contains(&config.players) {
            return Err(ConfigError::Players { players: config.players, min: 2, max: 3 });
        }
        Ok(Race { players: config.players as usize, count: 0, turn: 0, fault: None })
    }
    fn players(&self) -> usize {
        self.players
    }
    fn to_move(&self) -> ToMove {
        if self.count >= GOAL { ToMove::Terminal } else { ToMove::Seat(self.seat()) }
    }
    fn legal_actions(&self, _: &(), out: &mut Vec<u8>) {
        out.clear();
        if self.count < GOAL {
            out.extend((1..=2).filter(|&n| self.count + n <= GOAL));
        }
    }
    fn play_weights(&self, _: &(), legal: &[u8], out: &mut Vec<u32>) {
        out.clear();
        out.extend(legal.iter().map(|&n| match (n, self.fault) {
            (1, Some(Fault::ZeroWeight)) => 0,
            (n, _) => u32::from(n),
        }));
        if self.fault == Some(Fault::ShortWeights) && legal.len() > 1 {
            out.pop();
        }
    }
    fn apply(&mut self, rules: &(), action: &u8) -> Result<Vec<u8>, RuleError> {
        let mut legal = Vec::new();
        self.legal_actions(rules, &mut legal);
        if !legal.contains(action) {
            return Err(RuleError::new("race/turn", "race § Turn", format!("adding {action} is not legal now")));
        }
        self.count += if self.fault == Some(Fault::DoubleStep) { (2 * action).min(GOAL - self.count) } else { *action };
        self.turn += 1;
        Ok(vec![*action])
    }
    fn outcome(&self, _: &()) -> Option<Outcome> {
        (self.count >= GOAL).then(|| {
            let winner = (self.turn as usize + self.players - 1) % self.players;
            let keys: Vec<Vec<i64>> = (0..self.players).map(|s| vec![i64::from(s == winner)]).collect();
            Outcome::ranked(EndReason::Goal, &keys)
        })
    }
    fn turns(&self) -> u32 {
        self.turn
    }
    fn observation(&self, _: &(), _: Seat) -> String {
        format!("count {}", self.count)
    }
}

impl Describe for Race {
    fn describe_action(_: &(), a: &u8) -> String {
        format!("adds {a}")
    }
    fn describe_event(_: &(), e: &u8) -> String {
        format!("the count rises by {e}")
    }
}

pub const INVARIANTS: &[InvariantDef] = &[InvariantDef {
    name: "count-by-step",
    statement: "an action raises the count by exactly the number added",
    source: "race § Turn",
    fault: "double-step",
}];

impl Check for Race {
    type Before = u8;
    fn before(&self) -> u8 {
        self.count
    }
    fn invariants() -> &'static [InvariantDef] {
        INVARIANTS
    }
    fn check_invariants(&self, _: &(), before: &u8, action: &u8, _: &[u8]) -> Result<(), Violation> {
        if self.count != before + action {
            return Err(Violation {
                invariant: "count-by-step",
                detail: format!("adding {action} took the count from {before} to {}", self.count),
            });
        }
        Ok(())
    }
    fn inject_fault(&mut self, fault: &str) -> bool {
        self.fault = Some(match fault {
            "zero-play-weight" => Fault::ZeroWeight,
            "short-play-weights" => Fault::ShortWeights,
            "double-step" => Fault::DoubleStep,
            _ => return false,
        });
        true
    }
    fn faults() -> &'static [&'static str] {
        &["zero-play-weight", "short-play-weights", "double-step"]
    }
}

impl Cover for Race {
    fn coverage_keys(_: &()) -> Vec<String> {
        vec!["add:1".into(), "add:2".into()]
    }
    fn coverage_of(_: &(), e: &u8) -> Option<usize> {
        Some(usize::from(*e) - 1)
    }
    fn consulted(&self, _: &()) -> Vec<String> {
        Vec::new()
    }
}
