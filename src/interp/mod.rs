//! Interpretation tooling: what each interpretation and variant of a game
//! says and how it plays out.
//!
//! - `explain` (plain text, `explain.rs`) and `edge_case_book` (Markdown,
//!   committed as `docs/<game>-edge-cases.md`, `book.rs`) lay out every
//!   interpretation and variant: the question, the citations on each side,
//!   the options and their consequences, the default and why, whether the
//!   engine branches on it, the bundled scenarios that pin its options
//!   (`scenarios.rs`), and (`doubt`) the assumed numbers to doubt first.
//! - `diff` (`diff.rs`) plays the same random games under two or more
//!   options of one interpretation (the same seeds, and the same choice
//!   indices while each node lists the same actions) and reports how often the outcome and the length change,
//!   where the states first part, and whether the engine consults the
//!   interpretation at all.
//! - `win_rates` (`rates.rs`) gives per-seat win rates with Wilson
//!   intervals and the mean game length with a normal-approximation
//!   interval, for statistical gates.
//!
//! Everything here is deterministic for a given catalog, configuration and
//! seed; nothing prints timings or dates.

pub use crate::check::playout::ScriptThenRandom;

mod book;
mod diff;
pub mod doubt;
mod explain;
mod parting;
mod rates;
mod scenarios;
mod stats;
mod unchanged;
pub mod witness;
pub use book::{book_command, book_path, book_section, edge_case_book};
pub use diff::{
    DiffSummary, Divergence, OptionStats, PairDiff, default_first, diff, diff_all, diff_any, outcome_text, render_diff,
    render_diff_table,
};
pub use explain::explain;
pub use parting::{KeyDiff, StateDiff, json_diff};
pub use rates::{WinRates, render_win_rates, win_rates, win_rates_any};
pub use scenarios::{ScenarioRef, scenarios_by_interpretation};
pub use stats::{Estimate, mean_interval, wilson};
pub use unchanged::{UNCHANGED_GAMES, changes_no_game};

/// The most actions a game in `diff` and `win_rates` may take before it
/// counts as failed: `fuzz`'s default, as in `check`.
pub use crate::check::fuzz::MAX_ACTIONS;

/// How many diverging games per option pair get a first-difference report.
pub const EXAMPLES: usize = 3;

/// What each interpretation kind means (see `RawInterpretation::kind`).
pub fn kind_meaning(kind: &str) -> &'static str {
    match kind {
        "translation" => "the texts disagree",
        "silent" => "no text says",
        "contradiction" => "a text contradicts itself",
        "numbers" => "numbers missing or not adding up",
        "interaction" => "cards interact in a way no text settles",
        "house-rule" => "a table's own rule, cited from its house-rules sheet",
        _ => "unknown kind",
    }
}
