//! `win_rates`: per-seat win rates with Wilson intervals and the mean
//! game length, for statistical gates.

use std::fmt::Write as _;

use serde::Serialize;

use super::MAX_ACTIONS;
use super::stats::{Estimate, mean_interval, wilson};
use crate::check::playout::RandomChooser;
use crate::check::suite::{Checks, run_game};
use crate::engine::{Config, ConfigError, Harnessed};
use crate::games::{AnyRules, with_game};

/// Per-seat win rates and game lengths over seeded random games.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WinRates {
    pub config: String,
    pub games: u64,
    pub seed: u64,
    /// Seat i (p{i+1}): its wins over all games, with the Wilson interval.
    pub seats: Vec<Estimate>,
    pub wins: Vec<u64>,
    pub draws: u64,
    /// Games that broke down (counted in `games`, not won by anyone).
    pub failed: u64,
    pub mean_actions: Estimate,
    pub mean_turns: Estimate,
}

/// Plays `games` random games (game i: seed `seed + i`, `RandomChooser::new(seed + i)`,
/// no checks) and measures each seat's win rate and the game length.
pub fn win_rates<G: Harnessed>(
    rules: &G::Rules,
    config: &Config,
    games: u64,
    seed: u64,
) -> Result<WinRates, ConfigError> {
    let mut wins = vec![0u64; config.players as usize];
    let (mut draws, mut failed) = (0, 0);
    let mut actions = Vec::new();
    let mut turns = Vec::new();
    for g in 0..games {
        let s = seed.wrapping_add(g);
        let c = Config { seed: s, ..config.clone() };
        let run = run_game::<G>(rules, &c, &mut RandomChooser::new(s), Checks::NONE, None, MAX_ACTIONS, &mut [])?;
        if let Some(o) = &run.outcome {
            o.tally(&mut wins, &mut draws);
        }
        failed += u64::from(run.failure.is_some());
        actions.push(run.actions.len() as f64);
        turns.push(f64::from(run.turns));
    }
    Ok(WinRates {
        config: config.flags(),
        games,
        seed,
        seats: wins.iter().map(|&w| wilson(w, games)).collect(),
        wins,
        draws,
        failed,
        mean_actions: mean_interval(&actions),
        mean_turns: mean_interval(&turns),
    })
}

/// `win_rates` for any loaded game.
pub fn win_rates_any(rules: &AnyRules, config: &Config, games: u64, seed: u64) -> Result<WinRates, String> {
    let result = with_game!(rules, |r, G| win_rates::<G>(r, config, games, seed));
    result.map_err(|e| e.to_string())
}

pub fn render_win_rates(w: &WinRates) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "win rates {}: {} games from seed {}", w.config, w.games, w.seed);
    for (i, (e, n)) in w.seats.iter().zip(&w.wins).enumerate() {
        let _ = writeln!(out, "  p{}: {n} wins, {:.3} (95% {:.3}–{:.3})", i + 1, e.value, e.low, e.high);
    }
    let _ = writeln!(out, "  draws: {}, broke down: {}", w.draws, w.failed);
    let m = &w.mean_actions;
    let _ = writeln!(out, "  mean length: {:.1} actions (95% {:.1}–{:.1})", m.value, m.low, m.high);
    let t = &w.mean_turns;
    let _ = writeln!(out, "  mean length: {:.1} turns (95% {:.1}–{:.1})", t.value, t.low, t.high);
    out
}
