//! `rulecheck sensitivity`: which invented numbers move the outcome. The
//! measurement is `check::sensitivity`'s; here are the intervals (Wilson
//! for the share of seeds whose outcome changes, normal approximations for
//! paired differences), the ranking and the printing.

use std::path::PathBuf;
use std::sync::atomic::AtomicUsize;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::check::sensitivity::{
    Change, GroupResult, Paired, Sensitivity, SensitivityOptions, Trial, select_groups, sensitivity,
};
use crate::interp::{Estimate, mean_interval, wilson};

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

/// One change of one group, measured, with its intervals.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Effect {
    /// The share of seeds whose outcome changed (Wilson, 95%).
    pub changed: Estimate,
    /// The seat whose win rate moved most (`p2`) and by how much (paired, 95%).
    pub seat: String,
    pub win_shift: Estimate,
    /// The mean change in game length, in turns (paired, 95%).
    pub turns: Estimate,
    /// The coverage key that moved most: (key, per game under the base, under the change).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub most_moved: Option<(String, f64, f64)>,
    pub paired: Paired,
}

impl Effect {
    pub fn of(p: &Paired) -> Effect {
        let (seat, win_shift) = p
            .win_diff
            .iter()
            .enumerate()
            .map(|(s, d)| (format!("p{}", s + 1), mean_interval(d)))
            .fold(None, |best: Option<(String, Estimate)>, (s, e)| match best {
                Some((_, b)) if b.value.abs() >= e.value.abs() => best,
                _ => Some((s, e)),
            })
            .unwrap_or_else(|| (String::new(), mean_interval(&[])));
        let per_game = |n: u64| if p.games == 0 { 0.0 } else { n as f64 / p.games as f64 };
        let most_moved = p
            .coverage
            .iter()
            .max_by(|(ka, (a0, a1)), (kb, (b0, b1))| a0.abs_diff(*a1).cmp(&b0.abs_diff(*b1)).then(kb.cmp(ka)))
            .map(|(k, (a, b))| (k.clone(), per_game(*a), per_game(*b)));
        Effect {
            changed: wilson(p.changed, p.games),
            seat,
            win_shift,
            turns: mean_interval(&p.turn_diff),
            most_moved,
            paired: p.clone(),
        }
    }

    /// Larger is more: the share changed, then the win shift, then the length.
    fn key(&self) -> (f64, f64, f64) {
        (self.changed.value, self.win_shift.value.abs(), self.turns.value.abs())
    }
}

fn more(a: &Effect, b: &Effect) -> std::cmp::Ordering {
    let (a, b) = (a.key(), b.key());
    a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)).then(a.2.total_cmp(&b.2))
}

/// One change of a group as reported.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TrialRow {
    pub change: Change,
    pub status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub effect: Option<Effect>,
}

/// A group in the ranking: its effect is its largest change's.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Ranked {
    pub rank: usize,
    pub group: String,
    /// The first site's place (`buildings.yaml:40:11`).
    pub at: String,
    pub sites: usize,
    /// The smallest and largest number of the group as written.
    pub values: (i64, i64),
    /// The change with the largest effect, and that effect.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by: Option<Change>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub effect: Option<Effect>,
    pub trials: Vec<TrialRow>,
}

/// The groups of a run, ranked by effect (unmeasured groups last, by name).
pub fn rank(s: &Sensitivity) -> Vec<Ranked> {
    let mut rows: Vec<Ranked> = s.groups.iter().map(ranked).collect();
    rows.sort_by(|a, b| match (&a.effect, &b.effect) {
        (Some(x), Some(y)) => more(y, x).then_with(|| a.group.cmp(&b.group)),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => a.group.cmp(&b.group),
    });
    for (i, r) in rows.iter_mut().enumerate() {
        r.rank = i + 1;
    }
    rows
}

fn ranked(g: &GroupResult) -> Ranked {
    let trials: Vec<TrialRow> = g
        .trials
        .iter()
        .map(|(change, t)| {
            let (status, reason, effect) = match t {
                Trial::Measured(p) => ("measured", None, Some(Effect::of(p))),
                Trial::OutOfRange { reason } => ("out-of-range", Some(reason.clone()), None),
                Trial::Unchanged => ("unchanged", None, None),
                Trial::NotMeasured => ("not-measured", Some("the time budget ran out".to_string()), None),
            };
            TrialRow { change: *change, status, reason, effect }
        })
        .collect();
    let best = trials.iter().filter(|t| t.effect.is_some()).max_by(|a, b| {
        let (x, y) = (a.effect.as_ref().expect("filtered"), b.effect.as_ref().expect("filtered"));
        // the first of equal changes in `Change::ALL` order
        more(x, y).then(b.change.cmp(&a.change))
    });
    let values = g.sites.iter().map(|s| s.value());
    Ranked {
        rank: 0,
        group: g.name.clone(),
        at: g.sites.first().map(|s| s.place()).unwrap_or_default(),
        sites: g.sites.len(),
        values: (values.clone().min().unwrap_or(0), values.max().unwrap_or(0)),
        by: best.map(|t| t.change),
        effect: best.and_then(|t| t.effect.clone()),
        trials,
    }
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
