//! `rulecheck sensitivity`: which invented numbers move the outcome. The
//! measurement is `check::sensitivity`'s, the intervals and the ranking
//! `interp::doubt`'s (the edge-case book ranks alike); here is the command
//! and its printing.

use std::path::PathBuf;
use std::sync::atomic::AtomicUsize;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::check::sensitivity::{Change, Sensitivity, SensitivityOptions, select_groups, sensitivity};
use crate::interp::Estimate;
pub use crate::interp::doubt::{Ranked, rank};

use super::{Exit, load_all, print_diagnostics, read_sources, readings_take_effect, with_progress};

/// What `rulecheck sensitivity` was asked (`opts.deadline` is set from
/// `budget` when the run starts).
pub struct SensitivityArgs {
    pub game: String,
    pub opts: SensitivityOptions,
    /// No change starts after this long; the ones left are reported as not measured.
    pub budget: Duration,
    pub rules: Option<PathBuf>,
    pub json: bool,
}

/// Everything a run reports (the JSON of `--format json`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SensitivityReport {
    pub game: String,
    /// The configuration, games, seed, the base's outcomes and length, and
    /// the fields that could not be rewritten.
    #[serde(flatten)]
    pub run: Sensitivity,
    pub ranking: Vec<Ranked>,
}

pub fn sensitivity_command(a: &SensitivityArgs) -> Exit {
    let (sources, catalogs) =
        match read_sources(a.rules.as_deref()).and_then(|s| Ok((s, load_all(a.rules.as_deref())?))) {
            Ok(x) => x,
            Err(d) => return print_diagnostics(&d),
        };
    // `load_all` loads every folder or fails, so catalogs and folders pair up
    let Some((src, rules)) = sources.iter().zip(&catalogs).find(|(_, r)| r.id() == a.game) else {
        let loaded: Vec<&str> = catalogs.iter().map(|c| c.id()).collect();
        eprintln!("error: unknown game `{}`; loaded: {}", a.game, loaded.join(", "));
        return Exit::BadInput;
    };
    if let Err(e) = readings_take_effect(rules, &a.opts.config) {
        eprintln!("error: {e}");
        return Exit::BadInput;
    }
    let opts = SensitivityOptions { deadline: Instant::now().checked_add(a.budget), ..a.opts.clone() };
    let groups = match select_groups(src, &opts) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{e}");
            return Exit::BadInput;
        }
    };
    if groups.is_empty() && !opts.only.is_empty() {
        eprintln!("error: no group of assumed numbers matches --group {}", opts.only.join(", --group "));
        return Exit::BadInput;
    }
    crate::note!(
        "sensitivity: {} group(s), up to {} changes of {} games each, plus the base",
        groups.len(),
        groups.len() * Change::ALL.len(),
        opts.games
    );
    let total = opts.games.saturating_mul(1 + (groups.len() * Change::ALL.len()) as u64);
    let started = AtomicUsize::new(0);
    let run = with_progress("sensitivity", total, |p| sensitivity(src, rules, &opts, p, &started));
    let s = match run {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return Exit::BadInput;
        }
    };
    let report = SensitivityReport { game: a.game.clone(), ranking: rank(&s), run: s };
    if a.json {
        println!("{}", serde_json::to_string_pretty(&report).expect("reports serialise"));
    } else {
        print!("{}", render(&report));
    }
    Exit::Ok
}

fn est(e: &Estimate, signed: bool) -> String {
    if signed {
        format!("{:+.2} [{:+.2}, {:+.2}]", e.value, e.low, e.high)
    } else {
        format!("{:.2} [{:.2}, {:.2}]", e.value, e.low, e.high)
    }
}

/// The ranking as a table, then the changes that were not measured and why.
pub fn render(r: &SensitivityReport) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let base: Vec<String> = r.run.base_outcomes.iter().map(|(k, v)| format!("{k} {v}")).collect();
    let _ = writeln!(out, "sensitivity {}: {} games per change from seed {}", r.run.config, r.run.games, r.run.seed);
    let _ = writeln!(out, "  base: mean {:.1} turns; {}", r.run.base_mean_turns, base.join(", "));
    let _ = writeln!(
        out,
        "{:>4}  {:<34} {:>5} {:>9}  {:<8} {:<19} {:<25} {:<24} most moved (per game)",
        "rank", "group", "sites", "values", "change", "outcome changed", "largest win shift", "length (turns)"
    );
    for row in &r.ranking {
        let values = format!("{}..{}", row.values.0, row.values.1);
        let head = format!("{:>4}  {:<34} {:>5} {:>9}", row.rank, row.group, row.sites, values);
        let (Some(by), Some(e)) = (row.by, &row.effect) else {
            let _ = writeln!(out, "{head}  (no change measured)");
            continue;
        };
        let moved = e.most_moved.as_ref().map_or_else(String::new, |(k, a, b)| format!("{k} {a:.2} -> {b:.2}"));
        let _ = writeln!(
            out,
            "{head}  {:<8} {:<19} {:<25} {:<24} {moved}",
            by.name(),
            est(&e.changed, false),
            format!("{} {}", e.seat, est(&e.win_shift, true)),
            est(&e.turns, true),
        );
    }
    let mut skipped = Vec::new();
    for row in &r.ranking {
        for t in row.trials.iter().filter(|t| t.reason.is_some()) {
            let reason = t.reason.as_deref().unwrap_or_default();
            skipped.push(format!("  {} {}: {} ({reason})", row.group, t.change.name(), t.status));
        }
        for t in row.trials.iter().filter_map(|t| t.effect.as_ref().filter(|e| e.paired.failed > 0).map(|e| (t, e))) {
            let (t, e) = t;
            let first = e.paired.first_failure.as_deref().unwrap_or_default();
            skipped.push(format!(
                "  {} {}: {} game(s) broke down (first: {first})",
                row.group,
                t.change.name(),
                e.paired.failed
            ));
        }
    }
    if !skipped.is_empty() {
        let _ = writeln!(out, "changes not measured or broken:");
        for s in skipped {
            let _ = writeln!(out, "{s}");
        }
    }
    for u in &r.run.unplaced {
        let _ = writeln!(out, "  {u}: written in a form that cannot be rewritten, not perturbed");
    }
    out
}
