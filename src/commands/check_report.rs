//! What `check` prints, and its last stage: which consulted readings
//! changed no game.
//!
//! A reading can be consulted (the engine reads its hook or parameter)
//! and still never change play: its options agree wherever random play
//! reaches it, or the branch it guards makes no difference there. The
//! stage lists each live interpretation the fuzz stage consulted for which
//! `interp::changes_no_game` holds.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::check::pool::map_until;
use crate::games::AnyRules;
use crate::interp::{UNCHANGED_GAMES, changes_no_game};

#[derive(Debug, Clone, Serialize)]
pub struct GameCheck {
    pub game: String,
    pub entities: usize,
    pub interpretations: usize,
    pub assumed_numbers: usize,
    pub scenarios_passed: usize,
    pub scenarios_total: usize,
    pub configurations: usize,
    pub games: u64,
    pub actions_checked: u64,
    pub invariants: usize,
    pub invariants_held: bool,
    pub dead_interpretations: Vec<String>,
    /// Live readings consulted in play that changed no game of the paired
    /// runs (`check_report::UNCHANGED_GAMES` games per option).
    pub unchanged_interpretations: Vec<String>,
    /// Live readings the readings stage left unpaired when the budget ran out.
    pub readings_not_paired: usize,
    pub failures: Vec<String>,
    /// Bundled scenarios that play otherwise under a user's catalogs
    /// (`--rules` without `--scenarios`): what those rules change, each
    /// with where it parts first. Not failures: the scenarios pin the
    /// bundled rules.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub parted: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct CheckReport {
    pub games: Vec<GameCheck>,
    /// Stage → seconds.
    pub stages: BTreeMap<String, f64>,
    pub passed: bool,
    /// Why scenario files were left unrun (the budget ran out), if they were.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scenarios_not_run: Option<String>,
}

/// `check`'s last stage: each game's consulted readings paired, within
/// what is `left` of the budget in equal slices, one per game in turn.
pub(super) fn readings_stage(games: &mut [GameCheck], catalogs: &[AnyRules], jobs: usize, left: Duration) {
    let (t, n) = (Instant::now(), games.len().max(1) as u32);
    for (k, (gc, rules)) in games.iter_mut().zip(catalogs).enumerate() {
        let until = t.checked_add(left * (k as u32 + 1) / n);
        (gc.unchanged_interpretations, gc.readings_not_paired) =
            unchanged_readings(rules, &gc.dead_interpretations, jobs, until);
    }
}

/// The live interpretations, not among `dead`, whose options change no
/// game of `UNCHANGED_GAMES` paired ones (paired on `jobs` threads), and
/// how many were left unpaired because `deadline` (the check's budget)
/// passed first.
pub(super) fn unchanged_readings(
    rules: &AnyRules,
    dead: &[String],
    jobs: usize,
    deadline: Option<Instant>,
) -> (Vec<String>, usize) {
    let live: Vec<&str> = rules
        .interpretations()
        .iter()
        .filter(|i| i.inert.is_none() && !dead.contains(&i.id))
        .map(|i| i.id.as_str())
        .collect();
    let paired = map_until(&live, jobs, deadline, |id| changes_no_game(rules, id, UNCHANGED_GAMES));
    let unchanged = live.iter().zip(&paired).filter(|(_, p)| **p == Some(true)).map(|(id, _)| id.to_string());
    (unchanged.collect(), paired.iter().filter(|p| p.is_none()).count())
}

pub(super) fn print_check(r: &CheckReport) {
    let w = r.games.iter().map(|g| g.game.len()).max().unwrap_or(0).max(12);
    println!();
    println!(
        "{:<w$} {:>9} {:>8} {:>8} {:>11} {:>8} {:>9} {:>12} {:>10} {:>5}",
        "game", "entities", "interp.", "assumed", "scenarios", "configs", "games", "actions", "invariants", "dead"
    );
    for g in &r.games {
        println!(
            "{:<w$} {:>9} {:>8} {:>8} {:>11} {:>8} {:>9} {:>12} {:>10} {:>5}",
            g.game,
            g.entities,
            g.interpretations,
            g.assumed_numbers,
            format!("{}/{}", g.scenarios_passed, g.scenarios_total),
            g.configurations,
            g.games,
            g.actions_checked,
            format!("{} {}", g.invariants, if g.invariants_held { "held" } else { "BROKEN" }),
            g.dead_interpretations.len()
        );
        for d in &g.dead_interpretations {
            println!("  dead interpretation (never consulted): {d}");
        }
        if g.readings_not_paired > 0 {
            println!("  readings stage: the budget ran out with {} reading(s) not paired", g.readings_not_paired);
        }
        if !g.unchanged_interpretations.is_empty() {
            println!(
                "  consulted, but changed no game in {UNCHANGED_GAMES} paired games per option: {}",
                g.unchanged_interpretations.join(", ")
            );
        }
        if !g.parted.is_empty() {
            println!(
                "  {} bundled scenario(s) play otherwise under these rules (they pin the bundled rules; --scenarios names your own):",
                g.parted.len()
            );
            for p in &g.parted {
                println!("    {p}");
            }
        }
        for f in &g.failures {
            println!("  FAILED {f}");
        }
    }
    let stages: Vec<String> = r.stages.iter().map(|(k, v)| format!("{} {:.1}s", &k[2..], v)).collect();
    if let Some(why) = &r.scenarios_not_run {
        println!("  FAILED {why}");
    }
    println!("stages: {}", stages.join(", "));
    println!("check: {}", if r.passed { "everything held" } else { "FAILED" });
}
