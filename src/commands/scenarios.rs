//! Finding scenario files (folders walked once per directory and file, so
//! symlink loops end) and running them, within a deadline for `check`.

use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::Instant;

use crate::catalog::diag::Diagnostic;
use crate::catalog::{self, SourceFile};
use crate::games::AnyRules;
use crate::scenario::{self, ScenarioRun};

/// The scenario files a command runs: those under `paths`, or else the
/// bundled ones of the games `catalogs` holds. A `--rules` folder may hold
/// only some of the games (a house-rules overlay holds one), and the
/// bundled scenarios of the others would name a game it lacks; a note
/// says which games' scenarios are left out.
pub fn scenarios_for(paths: &[PathBuf], catalogs: &[AnyRules]) -> Result<Vec<SourceFile>, Vec<Diagnostic>> {
    let files = scenario_files(paths)?;
    if !paths.is_empty() {
        return Ok(files);
    }
    let (kept, left): (Vec<_>, Vec<_>) =
        files.into_iter().partition(|f| catalogs.iter().any(|c| c.id() == bundled_game(&f.path)));
    let mut games: Vec<&str> = left.iter().map(|f| bundled_game(&f.path)).collect();
    games.sort_unstable();
    games.dedup();
    if !games.is_empty() {
        let games = games.join(", ");
        crate::note!("note: the bundled scenarios of {games} are left out: the catalogs loaded have no such game");
    }
    Ok(kept)
}

/// The game a bundled scenario's path (`scenarios/<game>/…`) is of; empty
/// for any other path.
pub fn bundled_game(path: &str) -> &str {
    path.strip_prefix("scenarios/").and_then(|p| p.split('/').next()).unwrap_or("")
}

/// Whether the scenarios run are the bundled ones under a user's catalogs
/// (`--rules` without scenario paths). They pin the bundled rules, so one
/// that plays otherwise under the user's rules shows what those rules
/// change: `run` and `check` report it as parting from the bundled rules,
/// not as a failure or as bad input (an overlay that adds a card to a deck
/// sends every seeded scenario of the game down another path).
pub fn bundled_under_user_rules(rules: Option<&Path>, paths: &[PathBuf]) -> bool {
    rules.is_some() && paths.is_empty()
}

pub fn scenario_files(paths: &[PathBuf]) -> Result<Vec<SourceFile>, Vec<Diagnostic>> {
    if paths.is_empty() {
        return crate::bundled::scenarios();
    }
    let mut files = Vec::new();
    let mut diags = Vec::new();
    // every directory and file once, however symlinks lead back to them
    let mut seen = std::collections::BTreeSet::new();
    for p in paths {
        let mut found = Vec::new();
        if p.is_dir() {
            collect_yaml(p, &mut found, &mut seen);
            found.sort();
            if found.is_empty() {
                diags.push(Diagnostic::new(
                    &p.display().to_string(),
                    1,
                    1,
                    "holds no scenario file (*.yaml), so nothing would be checked",
                ));
            }
        } else {
            found.push(p.clone());
        }
        for f in found {
            match catalog::read_file(&f) {
                Ok(sf) => files.push(sf),
                Err(d) => diags.push(d),
            }
        }
    }
    if diags.is_empty() { Ok(files) } else { Err(diags) }
}

/// The `*.yaml` files under `dir`, following symlinks but entering each
/// directory and taking each file once (by canonical path), so symlink
/// loops end.
fn collect_yaml(dir: &Path, out: &mut Vec<PathBuf>, seen: &mut std::collections::BTreeSet<PathBuf>) {
    let Ok(canonical) = std::fs::canonicalize(dir) else { return };
    if !seen.insert(canonical) {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            collect_yaml(&p, out, seen);
        } else if p.extension().is_some_and(|x| x == "yaml") {
            // a dangling link has no canonical path: keep it, so reading it reports it
            if std::fs::canonicalize(&p).map_or(true, |c| seen.insert(c)) {
                out.push(p);
            }
        }
    }
}

/// Runs scenario files; `Err` holds the malformed ones.
pub fn run_scenarios(
    catalogs: &[AnyRules],
    files: &[SourceFile],
    fault: Option<&str>,
) -> (Vec<ScenarioRun>, Vec<Diagnostic>) {
    let mut results = Vec::new();
    let mut diags = Vec::new();
    for f in files {
        match scenario::run_file_with(catalogs, f, fault) {
            Ok(r) => results.push(r),
            Err(d) => diags.push(d),
        }
    }
    (results, diags)
}

/// Runs scenario files on a thread of their own until `deadline`: the runs
/// and diagnostics of the files finished by then, and how many were not. A
/// file still running at the deadline is left to its thread, which stops
/// before the next file and ends with the process, so no scenario holds
/// `check` past its budget.
pub fn run_scenarios_until(
    catalogs: std::sync::Arc<Vec<AnyRules>>,
    files: Vec<SourceFile>,
    deadline: Option<Instant>,
) -> (Vec<ScenarioRun>, Vec<Diagnostic>, usize) {
    use std::sync::mpsc::RecvTimeoutError;
    let total = files.len();
    let (tx, rx) = std::sync::mpsc::channel();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let stopped = stop.clone();
    std::thread::spawn(move || {
        for f in &files {
            if stopped.load(Ordering::Relaxed) || tx.send(scenario::run_file_with(&catalogs, f, None)).is_err() {
                break;
            }
        }
    });
    let (mut runs, mut diags, mut done) = (Vec::new(), Vec::new(), 0);
    while done < total {
        let next = match deadline {
            Some(d) => rx.recv_timeout(d.saturating_duration_since(Instant::now())),
            None => rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
        };
        match next {
            Ok(Ok(r)) => runs.push(r),
            Ok(Err(d)) => diags.push(d),
            Err(_) => break,
        }
        done += 1;
    }
    stop.store(true, Ordering::Relaxed);
    (runs, diags, total - done)
}
