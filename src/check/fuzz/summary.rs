//! What a fuzz run reports (`FuzzSummary`, with its failure shrunk), in
//! the JSON form `--format json` writes and `merge` reads back: the shards
//! of one run add up to one machine's totals.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{FuzzOptions, MAX_ACTIONS};
use crate::engine::Config;

/// A failure, shrunk, with what reproduces it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct FailureReport {
    /// The seed of the failing game (also its configuration's seed).
    pub seed: u64,
    pub broken: String,
    pub detail: String,
    /// Choice indices into the legal-action lists, shrunk.
    pub choices: Vec<u32>,
    /// The shrunk actions, described.
    pub actions: Vec<String>,
    pub actions_before_shrinking: usize,
}

/// The shards of one run a summary covers: `parts` (1-based, ascending)
/// of `of`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ShardSet {
    pub of: u64,
    pub parts: Vec<u64>,
}

fn max_actions() -> usize {
    MAX_ACTIONS
}

fn is_max_actions(n: &usize) -> bool {
    *n == MAX_ACTIONS
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// What a fuzz run (or a shard of one) found; `merge_part` adds the shards
/// of one run up. Besides its totals a summary records what identifies the
/// run (game, configuration, first seed, games asked for, shard, fault,
/// checks, catalog folder), so only parts of one run merge.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct FuzzSummary {
    pub game: String,
    /// The configuration's command-line flags (without the seed).
    pub config: String,
    /// The seed of game 0 (`--seed`).
    pub seed: u64,
    /// The games of the whole run (`--games`), over all its shards.
    pub requested: u64,
    /// The shards this summary covers; absent for a whole run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<ShardSet>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fault: Option<String>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub contract: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub no_invariants: bool,
    /// The catalog folder (`--rules`); absent for the bundled catalogs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<String>,
    /// The bound on one game's actions (`--max-actions`); absent where it
    /// is the default, `MAX_ACTIONS`.
    #[serde(default = "max_actions", skip_serializing_if = "is_max_actions")]
    pub max_actions: usize,
    pub games: u64,
    pub actions: u64,
    pub invariant_checks: u64,
    pub seconds: f64,
    /// `win:p1`, …, `draw:turn-cap` → games.
    pub outcomes: BTreeMap<String, u64>,
    pub turns: u64,
    /// Invariant name → times checked.
    pub invariants: BTreeMap<String, u64>,
    /// Catalog entity → times it took effect.
    pub coverage: BTreeMap<String, u64>,
    /// A game's length in turns → games that long (the histograms of `report`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub lengths: BTreeMap<u32, u64>,
    /// Interpretation → games in which the engine consulted it.
    pub consulted: BTreeMap<String, u64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failures: Vec<FailureReport>,
}

impl FuzzSummary {
    /// A summary of no game yet, of the run `opts` makes of `base`: what
    /// identifies the run, for `merge_part`.
    pub fn of_run(base: &Config, opts: &FuzzOptions) -> FuzzSummary {
        FuzzSummary {
            game: base.game.clone(),
            config: base.flags(),
            seed: opts.seed,
            requested: opts.games,
            shard: opts.shard.map(|(k, n)| ShardSet { of: n, parts: vec![k + 1] }),
            fault: opts.fault.clone(),
            contract: opts.checks.contract,
            no_invariants: !opts.checks.invariants,
            max_actions: opts.max_actions,
            ..FuzzSummary::default()
        }
    }

    pub fn actions_per_second(&self) -> f64 {
        if self.seconds > 0.0 { self.actions as f64 / self.seconds } else { 0.0 }
    }

    /// Adds another part of the same run (a shard), refusing anything else:
    /// a different game, configuration, seed range, fault, checks or
    /// catalog, shards of a different split, or shards already covered.
    /// Totals are added with checked arithmetic, and the first failure (by
    /// game index) is kept, as one machine's run keeps it.
    pub fn merge_part(&mut self, other: &FuzzSummary) -> Result<(), String> {
        let same = |what: &str, a: String, b: String| {
            if a == b { Ok(()) } else { Err(format!("they are of different {what}s (`{a}` and `{b}`)")) }
        };
        let opt = |o: &Option<String>| o.clone().unwrap_or_else(|| "none".into());
        same("game", self.game.clone(), other.game.clone())?;
        same("configuration", self.config.clone(), other.config.clone())?;
        same("first seed", self.seed.to_string(), other.seed.to_string())?;
        same("numbers of games", self.requested.to_string(), other.requested.to_string())?;
        same("fault", opt(&self.fault), opt(&other.fault))?;
        same("catalog folder", opt(&self.rules), opt(&other.rules))?;
        same("action bound", self.max_actions.to_string(), other.max_actions.to_string())?;
        same(
            "check",
            format!("contract {} invariants {}", self.contract, !self.no_invariants),
            format!("contract {} invariants {}", other.contract, !other.no_invariants),
        )?;
        let shard = match (&self.shard, &other.shard) {
            (Some(a), Some(b)) if a.of != b.of => {
                return Err(format!("their shards split the run differently (into {} and into {})", a.of, b.of));
            }
            (Some(a), Some(b)) => {
                if let Some(k) = a.parts.iter().find(|k| b.parts.contains(k)) {
                    return Err(format!("their shards overlap: both hold shard {k}/{}", a.of));
                }
                let mut parts: Vec<u64> = a.parts.iter().chain(&b.parts).copied().collect();
                parts.sort_unstable();
                if parts.len() as u64 == a.of { None } else { Some(ShardSet { of: a.of, parts }) }
            }
            _ => return Err("they overlap: a whole run holds every game of the other".to_string()),
        };
        let mut sum = self.clone();
        sum.shard = shard;
        sum.add_counts(other, |a, b| a.checked_add(b).ok_or_else(|| "the totals overflow".to_string()))?;
        let base = self.seed;
        sum.failures.extend(other.failures.iter().cloned());
        sum.failures.sort_by_key(|f| f.seed.wrapping_sub(base));
        sum.failures.truncate(1);
        *self = sum;
        Ok(())
    }

    /// Adds another run's totals to report them together (`check` over
    /// its configurations), saturating rather than wrapping.
    pub fn add_totals(&mut self, other: &FuzzSummary) {
        if self.game.is_empty() {
            self.game = other.game.clone();
            self.config = other.config.clone();
        }
        let saturating = |a: u64, b: u64| Ok::<_, std::convert::Infallible>(a.saturating_add(b));
        let Ok(()) = self.add_counts(other, saturating);
        self.failures.extend(other.failures.iter().cloned());
        self.failures.sort_by_key(|f| f.seed);
    }

    /// Adds every count of `other` to this summary's with `add` (checked
    /// for a merge, saturating for `check`'s totals); the seconds are the
    /// longer part's, as parts run side by side.
    fn add_counts<E>(&mut self, other: &FuzzSummary, add: impl Fn(u64, u64) -> Result<u64, E>) -> Result<(), E> {
        self.games = add(self.games, other.games)?;
        self.actions = add(self.actions, other.actions)?;
        self.invariant_checks = add(self.invariant_checks, other.invariant_checks)?;
        self.turns = add(self.turns, other.turns)?;
        self.seconds = self.seconds.max(other.seconds);
        for (mine, theirs) in [
            (&mut self.outcomes, &other.outcomes),
            (&mut self.invariants, &other.invariants),
            (&mut self.coverage, &other.coverage),
            (&mut self.consulted, &other.consulted),
        ] {
            for (k, v) in theirs {
                let e = mine.entry(k.clone()).or_default();
                *e = add(*e, *v)?;
            }
        }
        for (k, v) in &other.lengths {
            let e = self.lengths.entry(*k).or_default();
            *e = add(*e, *v)?;
        }
        Ok(())
    }
}
