//! Whether a reading, consulted or not, changes any game: its options
//! played on the same seeds, compared action by action.

use crate::engine::Config;
use crate::games::AnyRules;

/// Games per option in `check`'s paired runs.
pub const UNCHANGED_GAMES: u64 = 20;

/// Whether the options of interpretation `id` change no game of `games`
/// paired ones (seeds 1 to `games`, a middle player count, its variant
/// on) although the engine consulted it in at least one: under every
/// option every game's action list and outcome are the same (a reading
/// read only when the game is scored, a tie-break, changes no action but
/// may change the winner). False for a reading not
/// consulted there (nothing is known), an inert one, or a configuration
/// the game refuses (the fuzz stage reports those).
pub fn changes_no_game(rules: &AnyRules, id: &str, games: u64) -> bool {
    let s = rules.summary();
    let base = Config::new(rules.id(), (s.min_players + s.max_players) / 2, 0);
    super::diff_any(rules, &base, id, &[], games, 1)
        .is_ok_and(|d| !d.dead && d.pairs.iter().all(|p| p.play_differs == 0 && p.outcome_differs == 0))
}
