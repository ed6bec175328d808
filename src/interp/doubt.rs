//! Which invented numbers to doubt first: the ranking of a sensitivity
//! run (`check::sensitivity`'s tallies with their intervals, here so the
//! edge-case book and `rulecheck sensitivity` rank alike), and the book's
//! section, from a small run of fixed size so the book is the same on
//! every machine and quick to check.
//!
//! The book's run plays `BOOK_GAMES` seeds under the catalog and under
//! each group of assumed numbers halved, doubled and with one moved within
//! the group (common seeds, the
//! invariants on), at the player count `report` pairs readings at; it
//! lists the `BOOK_TOP` groups whose change moves the outcome most.

use std::fmt::Write as _;
use std::sync::atomic::AtomicU64;

use serde::Serialize;

use super::{Estimate, mean_interval, wilson};
use crate::catalog::GameSources;
use crate::check::sensitivity::{
    Change, GroupResult, Paired, Sensitivity, Trial, find_sites, group_sites, pair, perturb, play_records_any,
};
use crate::engine::{Config, seat_name};
use crate::games::{self, AnyRules};

/// Seeds per change in the book's run.
pub const BOOK_GAMES: u64 = 8;
/// The seed of the book's run.
pub const BOOK_SEED: u64 = 1;
/// How many groups the book lists.
pub const BOOK_TOP: usize = 8;
/// The changes the book's run tries (the command tries every `Change`);
/// `MovedOne` keeps a group's sum, so a deck's copies are measured too.
pub const BOOK_CHANGES: [Change; 3] = [Change::Halved, Change::Doubled, Change::MovedOne];

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
            .map(|(s, d)| (seat_name(s), mean_interval(d)))
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

/// The book's run: every group of `src`'s assumed numbers under
/// `BOOK_CHANGES`, `BOOK_GAMES` seeds each. `None` when the game has no
/// assumed numbers or its base configuration does not play.
pub fn book_run(src: &GameSources, rules: &AnyRules) -> Option<(Config, Sensitivity)> {
    let s = rules.summary();
    let players = 4u32.clamp(s.min_players, s.max_players.max(s.min_players));
    let config = Config::new(rules.id(), players, BOOK_SEED);
    let (sites, unplaced) = find_sites(src).ok()?;
    let groups = group_sites(&sites, false);
    if groups.is_empty() {
        return None;
    }
    let progress = AtomicU64::new(0);
    let play = |r: &AnyRules| play_records_any(r, &config, BOOK_SEED, BOOK_GAMES, 1, &progress).ok();
    let (keys, base) = play(rules)?;
    let seats = players as usize;
    let out = groups
        .into_iter()
        .map(|(name, sites)| {
            let trials = BOOK_CHANGES
                .iter()
                .map(|&change| {
                    let trial = match perturb(src, &sites, change).map(|c| games::load(&c)) {
                        None => Trial::Unchanged,
                        Some(Err(d)) => {
                            Trial::OutOfRange { reason: d.first().map_or_else(String::new, |d| d.to_string()) }
                        }
                        Some(Ok(r)) => match play(&r) {
                            None => Trial::OutOfRange { reason: "the changed catalog does not play".into() },
                            Some((k, rec)) => Trial::Measured(pair(&keys, &base, &k, &rec, seats)),
                        },
                    };
                    (change, trial)
                })
                .collect();
            GroupResult { name, sites, trials }
        })
        .collect();
    let turns: f64 = base.iter().map(|r| f64::from(r.turns)).sum();
    let run = Sensitivity {
        games: base.len() as u64,
        seed: BOOK_SEED,
        config: config.flags(),
        base_outcomes: Default::default(),
        base_mean_turns: turns / base.len().max(1) as f64,
        groups: out,
        unplaced,
    };
    Some((config, run))
}

/// The book's section "Invented numbers to doubt first" for a bundled
/// game (empty for one with no assumed numbers).
pub fn book_section(rules: &AnyRules) -> String {
    let src = crate::bundled::rules().ok().and_then(|all| all.into_iter().find(|g| g.name == rules.id()));
    let Some((config, run)) = src.and_then(|src| book_run(&src, rules)) else { return String::new() };
    let ranking = rank(&run);
    let mut out = String::new();
    let _ = writeln!(out, "\n## Invented numbers to doubt first\n");
    let _ = writeln!(
        out,
        "The catalog marks {} groups of numbers as assumed (`assumed:`), none printed in the rulebooks. A small \
         sensitivity run ({} seeds at `{}`, each group halved, doubled and with one moved from its largest \
         number to its smallest, the same seeds under the catalog and the change) ranks them by the share \
         of seeds whose outcome changes, then by the largest shift of a seat's win rate, then by the change \
         in length. The random player picks by position, so any number the engine reads changes most seeds' \
         course; the win shift and the length say how far the result \
         moves. With so few seeds the intervals are wide: doubt the top of the list first, and measure with \
         `rulecheck sensitivity --game {}` (every change, more seeds).\n",
        run.groups.len(),
        BOOK_GAMES,
        config.flags(),
        rules.id()
    );
    let _ =
        writeln!(out, "| rank | group | where | as written | change | outcome changed | win shift | length (turns) |");
    let _ = writeln!(out, "|---|---|---|---|---|---|---|---|");
    let unmeasured: Vec<String> =
        ranking.iter().filter(|r| r.effect.is_none()).map(|r| format!("`{}`", r.group)).collect();
    for r in ranking.iter().take(BOOK_TOP) {
        let (Some(by), Some(e)) = (r.by, &r.effect) else { continue };
        let values =
            if r.values.0 == r.values.1 { r.values.0.to_string() } else { format!("{}–{}", r.values.0, r.values.1) };
        let _ = writeln!(
            out,
            "| {} | `{}` | {} | {} | {} | {:.2} [{:.2}, {:.2}] | {} {:+.2} | {:+.1} |",
            r.rank,
            r.group,
            r.at,
            values,
            by.name(),
            e.changed.value,
            e.changed.low,
            e.changed.high,
            e.seat,
            e.win_shift.value,
            e.turns.value
        );
    }
    if !unmeasured.is_empty() {
        let _ = writeln!(
            out,
            "\nNot measured by this run (every change tried was refused by validation or changed no number): {}.",
            unmeasured.join(", ")
        );
    }
    out
}
