//! `report`: one `check`-sized run over every bundled game, kept as data
//! (`Report`, written as `report.json`) and drawn as one self-contained
//! HTML page (`html`, charts as inline SVG from plotters in `charts`).
//!
//! What is shown is what the harness collects: the catalog summary, the
//! paired runs of `interp::diff_any` per live reading, the matrix of
//! `matrix::matrix_until`, and the fuzz summaries of `check`'s
//! configurations (lengths, outcomes, invariant evaluations, the games'
//! `Cover` hook). Anything not collected is said to be missing, never
//! estimated.

pub mod charts;
pub mod html;

use std::collections::BTreeMap;
use std::time::Instant;

use serde::Serialize;

use crate::check::fuzz::FuzzSummary;
use crate::check::pool::map_until;
use crate::engine::Config;
use crate::games::AnyRules;
use crate::interp::{Estimate, diff_any, wilson};
use crate::matrix::Matrix;

/// The whole report: one entry per game, in registry order.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub seed: u64,
    pub budget_seconds: f64,
    pub seconds: f64,
    pub games: Vec<GameReport>,
}

#[derive(Debug, Clone, Serialize)]
pub struct GameReport {
    pub game: String,
    pub name: String,
    pub min_players: u32,
    pub max_players: u32,
    /// Entities by kind.
    pub entities: BTreeMap<String, usize>,
    pub variants: usize,
    pub interpretations: usize,
    pub interpretations_live: usize,
    pub numbers_cited: usize,
    /// The assumption debt: numbers the catalog says are assumed.
    pub numbers_assumed: usize,
    pub readings: Readings,
    /// Which assumed numbers move the outcome (`rulecheck sensitivity`).
    pub sensitivity: Sensitivities,
    pub matrix: Matrix,
    /// Scenario files of this game left without a matrix row (budget).
    pub matrix_rows_left: usize,
    pub configurations: Vec<ConfigRun>,
    /// Configurations `check` fuzzes that the budget left unstarted.
    pub configurations_not_fuzzed: Vec<String>,
    /// Invariant → times it was evaluated, over every configuration.
    pub invariants: BTreeMap<String, u64>,
    /// Coverage key (`kind:id`) → times it took effect in random play.
    pub coverage: BTreeMap<String, u64>,
    /// Variant → random games played with it on.
    pub variant_games: BTreeMap<String, u64>,
    /// Fuzz failures, one line each.
    pub failures: Vec<String>,
}

/// The paired runs of the live readings: each reading's default against
/// each other option on the same seeds.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Readings {
    /// The configuration the pairs are played in.
    pub config: String,
    /// Paired games per reading.
    pub games: u64,
    pub rows: Vec<ReadingRow>,
    /// Live readings not paired before the budget ran out.
    pub not_measured: Vec<String>,
    /// Readings whose paired run could not start, with why.
    pub errors: Vec<String>,
}

/// The assumption-sensitivity ranking of one short run: each group of
/// assumed numbers changed in the catalog source, the same seeds played
/// under the base and the change.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Sensitivities {
    /// The configuration the seeds are played in.
    pub config: String,
    /// Games per change.
    pub games: u64,
    /// Measured groups, largest effect first.
    pub rows: Vec<SensitivityRow>,
    /// Groups with no change measured before the budget ran out.
    pub not_measured: Vec<String>,
    /// Why the run could not start, if it could not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// A group of assumed numbers and the effect of its largest change.
#[derive(Debug, Clone, Serialize)]
pub struct SensitivityRow {
    pub group: String,
    /// Its first number's place in the catalog (`buildings.yaml:40:11`).
    pub at: String,
    pub sites: usize,
    /// The change with the largest effect (`halved`, `+1`, …).
    pub change: String,
    /// The share of seeds whose outcome changes (95% interval).
    pub changed: Estimate,
    /// The seat whose win rate moves most, and by how much.
    pub seat: String,
    pub win_shift: Estimate,
    /// The mean change in game length, in turns.
    pub turns: Estimate,
}

#[derive(Debug, Clone, Serialize)]
pub struct ReadingRow {
    pub interpretation: String,
    pub base: String,
    pub option: String,
    pub games: u64,
    /// Games in which the engine consulted the reading (under either option).
    pub consulted: u64,
    pub outcome_differs: u64,
    /// The share of paired games whose outcome changes, with its 95% interval.
    pub share: Estimate,
}

/// One fuzzed configuration.
#[derive(Debug, Clone, Serialize)]
pub struct ConfigRun {
    pub config: String,
    pub players: u32,
    pub variants: Vec<String>,
    /// Interpretations set to other than their defaults.
    pub readings_set: usize,
    pub games: u64,
    pub actions: u64,
    /// Length in turns → games.
    pub lengths: BTreeMap<u32, u64>,
    /// Wins of each seat (a shared first place counts for each winner).
    pub wins: Vec<u64>,
    /// Each seat's win rate with its 95% interval.
    pub win_rates: Vec<Estimate>,
    /// Games without a winner (draws, unfinished, failed).
    pub no_winner: u64,
}

impl ConfigRun {
    /// The players, the variants and how many readings differ from the
    /// defaults (`4 players, town-hall, 2 readings set`); the full flags
    /// are `config`.
    pub fn short_name(&self) -> String {
        let mut parts = vec![format!("{} players", self.players)];
        parts.extend(self.variants.iter().cloned());
        let readings = self.readings_set;
        if readings > 0 {
            parts.push(format!("{readings} reading{} set", if readings == 1 { "" } else { "s" }));
        }
        parts.join(", ")
    }

    /// The run of `config` as its fuzz summary records it.
    pub fn from_summary(config: &Config, s: &FuzzSummary) -> ConfigRun {
        let players = config.players;
        let mut wins = vec![0u64; players as usize];
        let mut no_winner = 0;
        for (key, n) in &s.outcomes {
            match key.strip_prefix("win:") {
                Some(seats) => {
                    for seat in seats.split('+') {
                        let k = seat.strip_prefix('p').and_then(|d| d.parse::<usize>().ok());
                        // a seat past the configured players (the solo game's Automa) grows the list
                        if let Some(k) = k.filter(|&k| (1..=64).contains(&k)) {
                            if wins.len() < k {
                                wins.resize(k, 0);
                            }
                            wins[k - 1] += n;
                        }
                    }
                }
                None => no_winner += n,
            }
        }
        ConfigRun {
            config: config.flags(),
            players,
            variants: config.variants.iter().cloned().collect(),
            readings_set: config.interpretations.len(),
            games: s.games,
            actions: s.actions,
            lengths: s.lengths.clone(),
            win_rates: wins.iter().map(|w| wilson(*w, s.games)).collect(),
            wins,
            no_winner,
        }
    }
}

/// The players the readings are paired at: four, within the game's range.
pub fn pairing_players(rules: &AnyRules) -> u32 {
    let s = rules.summary();
    4u32.clamp(s.min_players, s.max_players.max(s.min_players))
}

/// Pairs `games` random games under each live reading's default and each
/// other option (`interp::diff_any`), one reading at a time on each of
/// `jobs` threads, starting no reading once `deadline` has passed (the
/// first is always paired).
pub fn readings(rules: &AnyRules, seed: u64, games: u64, jobs: usize, deadline: Option<Instant>) -> Readings {
    let base = Config::new(rules.id(), pairing_players(rules), seed);
    let mut out =
        Readings { config: base.flags(), games, rows: Vec::new(), not_measured: Vec::new(), errors: Vec::new() };
    let live: Vec<&str> = rules.interpretations().iter().filter(|i| i.inert.is_none()).map(|i| i.id.as_str()).collect();
    let paired = map_until(&live, jobs, deadline, |id| diff_any(rules, &base, id, &[], games, seed));
    for (id, d) in live.iter().zip(paired) {
        match d {
            None => out.not_measured.push(id.to_string()),
            Some(Ok(d)) => {
                for p in &d.pairs {
                    out.rows.push(ReadingRow {
                        interpretation: id.to_string(),
                        base: p.base.clone(),
                        option: p.other.clone(),
                        games: d.games,
                        consulted: d.consulted,
                        outcome_differs: p.outcome_differs,
                        share: wilson(p.outcome_differs, d.games),
                    });
                }
            }
            Some(Err(e)) => out.errors.push(format!("{id}: {e}")),
        }
    }
    out
}

/// The kinds the game's coverage hook counts (`building` of `building:x`).
pub fn coverage_kinds(coverage: &BTreeMap<String, u64>) -> Vec<String> {
    let mut kinds: Vec<String> = Vec::new();
    for k in coverage.keys() {
        let kind = k.split(':').next().unwrap_or(k).to_string();
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    kinds
}
