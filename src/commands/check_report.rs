//! What `check` prints, and its last stage: which consulted readings
//! changed no game.
//!
//! A reading can be consulted (the engine reads its hook or parameter)
//! and still never change play: its options agree wherever random play
//! reaches it, or the branch it guards makes no difference there. The
//! stage lists each live interpretation the fuzz stage consulted for which
//! `interp::changes_no_game` holds.

use super::CheckReport;
use crate::games::AnyRules;
use crate::interp::{UNCHANGED_GAMES, changes_no_game};

/// The live interpretations, not among `dead`, whose options change no
/// game of `UNCHANGED_GAMES` paired ones.
pub(super) fn unchanged_readings(rules: &AnyRules, dead: &[String]) -> Vec<String> {
    rules
        .interpretations()
        .iter()
        .filter(|i| i.inert.is_none() && !dead.contains(&i.id))
        .filter(|i| changes_no_game(rules, &i.id, UNCHANGED_GAMES))
        .map(|i| i.id.clone())
        .collect()
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
        if !g.unchanged_interpretations.is_empty() {
            println!(
                "  consulted, but changed no game in {UNCHANGED_GAMES} paired games per option: {}",
                g.unchanged_interpretations.join(", ")
            );
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
