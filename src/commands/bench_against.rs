//! `rulecheck bench --against OTHER`: this build and another build of
//! rulecheck measured in one run, round after round in alternating order
//! (this, other, other, this, …), so that a machine that slows down or
//! speeds up during the run weighs on both alike; each round is one
//! `bench --format json --repetitions 1` of each build, run as a child
//! process of its own. What it reports is the ratio of the medians, per
//! game and player count, checked and bare.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde::Serialize;

use super::Exit;
use super::bench::{BenchArgs, median_spread};

/// One game and player count, both builds' medians over the rounds.
#[derive(Debug, Clone, Serialize)]
pub struct Compared {
    pub game: String,
    pub players: u32,
    /// Checked actions per second: (this build, the other build).
    pub checked: (f64, f64),
    /// `checked.0 / checked.1`: above 1, this build is faster.
    pub checked_ratio: f64,
    pub bare: (f64, f64),
    pub bare_ratio: f64,
}

/// What one build's `bench --format json` said of one row: checked and
/// bare actions per second.
type Rates = BTreeMap<(String, u32), (f64, f64)>;

/// The flags of `bench` a build takes beyond those every build has
/// (`--games`, `--repetitions`, `--rules`, `--format`): builds from before
/// `--game` measure every game (their other rows are left out of the
/// comparison), and builds from before `--quiet` report their progress on
/// stderr, which is not read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Takes {
    game: bool,
    quiet: bool,
}

impl Takes {
    /// What this build's own `bench` takes: every flag.
    const ALL: Takes = Takes { game: true, quiet: true };

    /// What `exe`'s `bench --help` lists.
    fn of(exe: &Path) -> Takes {
        let help = Command::new(exe).args(["bench", "--help"]).output();
        let help = help.map(|o| String::from_utf8_lossy(&o.stdout).into_owned()).unwrap_or_default();
        Takes { game: help.contains("--game <"), quiet: help.contains("--quiet") }
    }
}

/// The bench arguments a child run takes (the same for both builds, but
/// the flags a build does not take).
fn child_args(a: &BenchArgs, takes: Takes) -> Vec<String> {
    let quiet = ["--quiet"].into_iter().filter(|_| takes.quiet);
    let mut args = quiet.chain(["--format", "json", "--repetitions", "1"]).map(String::from).collect::<Vec<_>>();
    args.insert(0, "bench".to_string());
    args.extend(["--games".to_string(), a.games.to_string()]);
    if let Some(g) = a.game.as_ref().filter(|_| takes.game) {
        args.extend(["--game".to_string(), g.clone()]);
    }
    if let Some(r) = &a.rules {
        args.extend(["--rules".to_string(), r.display().to_string()]);
    }
    args
}

/// One round of one build: its rows, or why there are none.
fn run_once(exe: &Path, args: &[String]) -> Result<Rates, String> {
    let out = Command::new(exe).args(args).output().map_err(|e| format!("{} could not be run: {e}", exe.display()))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(format!(
            "`{} {}` failed ({}): {}",
            exe.display(),
            args.join(" "),
            out.status,
            err.lines().next().unwrap_or("no message")
        ));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let not_bench = || format!("{} did not print a bench report (is it a build of rulecheck?)", exe.display());
    let v: serde_json::Value = serde_json::from_str(text.trim()).map_err(|_| not_bench())?;
    let rows = v.get("rows").and_then(|r| r.as_array()).ok_or_else(not_bench)?;
    let mut rates = Rates::new();
    for row in rows {
        let game = row.get("game").and_then(|g| g.as_str());
        let players = row.get("players").and_then(|p| p.as_u64()).and_then(|p| u32::try_from(p).ok());
        let median = |key: &str| row.get(key).and_then(|r| r.get(0)).and_then(|m| m.as_f64());
        match (game, players, median("actions_per_s_checked"), median("actions_per_s_bare")) {
            (Some(g), Some(p), Some(c), Some(b)) => rates.insert((g.to_string(), p), (c, b)),
            _ => return Err(not_bench()),
        };
    }
    Ok(rates)
}

fn ratio(a: f64, b: f64) -> f64 {
    if b > 0.0 { a / b } else { 0.0 }
}

/// The rows both builds reported, each build's median per row.
fn compare(this: &[Rates], other: &[Rates]) -> Vec<Compared> {
    let keys = this.first().map(|r| r.keys().cloned().collect::<Vec<_>>()).unwrap_or_default();
    let pick = |runs: &[Rates], key: &(String, u32), side: fn(&(f64, f64)) -> f64| {
        median_spread(runs.iter().filter_map(|r| r.get(key)).map(side).collect()).0
    };
    keys.into_iter()
        .filter(|k| other.iter().all(|r| r.contains_key(k)) && this.iter().all(|r| r.contains_key(k)))
        .map(|k| {
            let checked = (pick(this, &k, |r| r.0), pick(other, &k, |r| r.0));
            let bare = (pick(this, &k, |r| r.1), pick(other, &k, |r| r.1));
            Compared {
                checked_ratio: ratio(checked.0, checked.1),
                bare_ratio: ratio(bare.0, bare.1),
                game: k.0,
                players: k.1,
                checked,
                bare,
            }
        })
        .collect()
}

/// Runs both builds `a.repetitions` rounds each, alternating, and reports
/// the ratios.
pub fn bench_against(a: &BenchArgs, other: &Path) -> Exit {
    let this_exe: PathBuf = match std::env::current_exe() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: cannot find this build's own program: {e}");
            return Exit::BadInput;
        }
    };
    let args = child_args(a, Takes::ALL);
    let takes = Takes::of(other);
    if let Some(g) = a.game.as_ref().filter(|_| !takes.game) {
        crate::note!("bench: {} takes no --game: it measures every game; {g}'s rows are compared", other.display());
    }
    let other_args = child_args(a, takes);
    let (mut this, mut theirs) = (Vec::new(), Vec::new());
    for round in 0..a.repetitions {
        // this, other, other, this, …: a drift in the machine's speed
        // falls on both builds alike
        let order = if round % 2 == 0 { [true, false] } else { [false, true] };
        for mine in order {
            crate::note!(
                "bench: round {} of {}, {} build",
                round + 1,
                a.repetitions,
                if mine { "this" } else { "the other" }
            );
            let (exe, args) = if mine { (this_exe.as_path(), &args) } else { (other, &other_args) };
            match run_once(exe, args) {
                Ok(r) if mine => this.push(r),
                Ok(r) => theirs.push(r),
                Err(e) => {
                    eprintln!("error: {e}");
                    return Exit::BadInput;
                }
            }
        }
    }
    let rows = compare(&this, &theirs);
    if rows.is_empty() {
        eprintln!("error: the two builds reported no game and player count in common");
        return Exit::BadInput;
    }
    if a.json {
        let report = serde_json::json!({
            "against": other.display().to_string(),
            "games": a.games,
            "rounds": a.repetitions,
            "rows": rows,
        });
        println!("{report}");
        return Exit::Ok;
    }
    println!(
        "bench: this build against {}: {} games per measurement, {} round(s) of each build in alternating order (medians), 1 core",
        other.display(),
        a.games,
        a.repetitions
    );
    println!(
        "{:<17} {:>7} {:>13} {:>13} {:>10} {:>13} {:>13} {:>10}",
        "game", "players", "checked this", "checked other", "this/other", "bare this", "bare other", "this/other"
    );
    for r in &rows {
        println!(
            "{:<17} {:>7} {:>13.0} {:>13.0} {:>9.3}x {:>13.0} {:>13.0} {:>9.3}x",
            r.game, r.players, r.checked.0, r.checked.1, r.checked_ratio, r.bare.0, r.bare.1, r.bare_ratio
        );
    }
    Exit::Ok
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rates(rows: &[(&str, u32, f64, f64)]) -> Rates {
        rows.iter().map(|&(g, p, c, b)| ((g.to_string(), p), (c, b))).collect()
    }

    #[test]
    fn ratios_are_of_the_medians_and_rows_only_one_build_has_are_left_out() {
        let this = [
            rates(&[("a", 3, 100.0, 200.0), ("a", 4, 50.0, 80.0)]),
            rates(&[("a", 3, 300.0, 200.0), ("a", 4, 50.0, 80.0)]),
            rates(&[("a", 3, 120.0, 200.0), ("a", 4, 50.0, 80.0)]),
        ];
        let other = [rates(&[("a", 3, 60.0, 100.0)]), rates(&[("a", 3, 60.0, 400.0)]), rates(&[("a", 3, 1.0, 100.0)])];
        let rows = compare(&this, &other);
        assert_eq!(rows.len(), 1, "a 4 is not in the other build's rows");
        assert_eq!((rows[0].game.as_str(), rows[0].players), ("a", 3));
        assert_eq!(rows[0].checked, (120.0, 60.0));
        assert_eq!(rows[0].checked_ratio, 2.0);
        assert_eq!(rows[0].bare, (200.0, 100.0));
        assert_eq!(rows[0].bare_ratio, 2.0);
    }

    #[test]
    fn a_build_is_given_only_the_flags_its_bench_takes() {
        let a = BenchArgs {
            rules: None,
            games: 5,
            repetitions: 1,
            json: false,
            game: Some("dry-gulch".into()),
            against: None,
        };
        let words = |takes| child_args(&a, takes).join(" ");
        assert_eq!(words(Takes::ALL), "bench --quiet --format json --repetitions 1 --games 5 --game dry-gulch");
        // a build from before the port takes neither
        let old = Takes { game: false, quiet: false };
        assert_eq!(words(old), "bench --format json --repetitions 1 --games 5");
    }
}
