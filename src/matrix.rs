//! The scenario × interpretation matrix: every scenario of a game run under
//! each option of each live interpretation (one reading changed at a time,
//! with the variant it needs), compared with its run under the readings the
//! scenario itself names. A cell is `=` (passes, same final state), `~`
//! (passes, different final state), `F` (an expectation fails) or `!` (a
//! step becomes illegal). An interpretation whose options never change any
//! scenario has no distinguishing scenario.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::catalog::SourceFile;
use crate::games::AnyRules;
use crate::scenario::{self, ScenarioRun, Vary};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Cell {
    Same,
    Different,
    Fails,
    Illegal,
}

impl Cell {
    pub fn symbol(self) -> char {
        match self {
            Cell::Same => '=',
            Cell::Different => '~',
            Cell::Fails => 'F',
            Cell::Illegal => '!',
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Matrix {
    pub game: String,
    /// (interpretation, option) per column.
    pub columns: Vec<(String, String)>,
    /// Scenario file per row, with one cell per column.
    pub rows: Vec<(String, Vec<Cell>)>,
    /// Interpretation → the scenarios whose outcome changes with its option.
    pub distinguishing: BTreeMap<String, Vec<String>>,
    /// Live interpretations no scenario distinguishes.
    pub undistinguished: Vec<String>,
}

fn final_states(run: &ScenarioRun) -> Vec<String> {
    run.runs
        .iter()
        .map(|r| {
            r.transcript
                .rsplit("final state:")
                .next()
                .unwrap_or("")
                .split("\nexpectation blocks")
                .next()
                .unwrap_or("")
                .to_string()
        })
        .collect()
}

/// The game a scenario file names, read without running it.
fn game_of(file: &SourceFile) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Head {
        game: String,
    }
    crate::yaml::from_str_as::<Head>(&file.path, &file.text, "scenario file").ok().map(|h| h.game)
}

/// Builds the matrix for one game over scenario files (of any game; others
/// are skipped unrun), a row per file on as many threads as the machine has.
pub fn matrix(catalogs: &[AnyRules], rules: &AnyRules, files: &[SourceFile]) -> Matrix {
    matrix_until(catalogs, rules, files, None).0
}

/// `matrix`, starting no further scenario row once `deadline` has passed
/// (the first row of the game is always run); also returns how many of
/// the game's files were left without a row. Rows are independent, so they
/// run on `check::pool`'s threads and come back in file order: the matrix
/// does not depend on the thread count.
pub fn matrix_until(
    catalogs: &[AnyRules],
    rules: &AnyRules,
    files: &[SourceFile],
    deadline: Option<std::time::Instant>,
) -> (Matrix, usize) {
    let mut columns = Vec::new();
    for i in rules.interpretations().iter().filter(|i| i.inert.is_none()) {
        for o in &i.options {
            columns.push((i.id.clone(), o.id.clone(), i.variant.clone()));
        }
    }
    // a file of another game (or one that does not parse) is never run
    let own: Vec<&SourceFile> = files.iter().filter(|f| game_of(f).is_some_and(|g| g == rules.id())).collect();
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let rows_of = crate::check::pool::map_until(&own, jobs, deadline, |f| row(catalogs, f, &columns));
    let left = rows_of.iter().filter(|r| r.is_none()).count();
    let mut rows = Vec::new();
    let mut distinguishing: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (f, r) in own.iter().zip(rows_of) {
        let Some(Some((cells, told_apart))) = r else { continue };
        for id in told_apart {
            distinguishing.entry(id).or_default().push(f.path.clone());
        }
        rows.push((f.path.clone(), cells));
    }
    let undistinguished = rules
        .interpretations()
        .iter()
        .filter(|i| i.inert.is_none() && !distinguishing.contains_key(&i.id))
        .map(|i| i.id.clone())
        .collect();
    let m = Matrix {
        game: rules.id().to_string(),
        columns: columns.into_iter().map(|(a, b, _)| (a, b)).collect(),
        rows,
        distinguishing,
        undistinguished,
    };
    (m, left)
}

/// One scenario file's row: a cell per column, and the interpretations
/// whose options end it in different states; `None` when the file does
/// not run as written.
fn row(
    catalogs: &[AnyRules],
    f: &SourceFile,
    columns: &[(String, String, Option<String>)],
) -> Option<(Vec<Cell>, Vec<String>)> {
    let base = scenario::run_file(catalogs, f).ok()?;
    let base_states = final_states(&base);
    let mut cells = Vec::new();
    // interpretation → the final states (or the failure) under each of its options
    let mut per_interp: BTreeMap<&str, Vec<Vec<String>>> = BTreeMap::new();
    for (id, opt, variant) in columns {
        let vary = Vary {
            fault: None,
            readings: [(id.clone(), opt.clone())].into_iter().collect(),
            variants: variant.iter().cloned().collect(),
        };
        let (cell, states) = match scenario::run_file_varied(catalogs, f, &vary) {
            Err(d) => (Cell::Illegal, vec![format!("illegal: {}", d.message)]),
            Ok(r) => {
                let states = final_states(&r);
                let cell = if !r.passed() {
                    Cell::Fails
                } else if states != base_states {
                    Cell::Different
                } else {
                    Cell::Same
                };
                (cell, states)
            }
        };
        per_interp.entry(id.as_str()).or_default().push(states);
        cells.push(cell);
    }
    let told_apart = per_interp
        .into_iter()
        .filter(|(_, outcomes)| outcomes.windows(2).any(|w| w[0] != w[1]))
        .map(|(id, _)| id.to_string())
        .collect();
    Some((cells, told_apart))
}

/// The matrix as text: one line per scenario, one character per option,
/// grouped by interpretation, then the interpretations no scenario tells apart.
pub fn render(m: &Matrix) -> String {
    let mut out = String::new();
    out.push_str(&format!("matrix {}: {} scenarios × {} interpretation options (= same, ~ different final state, F expectation fails, ! illegal step)\n", m.game, m.rows.len(), m.columns.len()));
    let mut groups: Vec<(String, usize)> = Vec::new();
    for (id, _) in &m.columns {
        match groups.last_mut() {
            Some((g, n)) if g == id => *n += 1,
            _ => groups.push((id.clone(), 1)),
        }
    }
    out.push_str("columns:\n");
    let mut k = 0;
    for (g, n) in &groups {
        let opts: Vec<&str> = m.columns[k..k + n].iter().map(|(_, o)| o.as_str()).collect();
        out.push_str(&format!("  {g}: {}\n", opts.join(" | ")));
        k += n;
    }
    for (file, cells) in &m.rows {
        let mut line = String::new();
        let mut k = 0;
        for (_, n) in &groups {
            line.extend(cells[k..k + n].iter().map(|c| c.symbol()));
            line.push(' ');
            k += n;
        }
        out.push_str(&format!("{line} {file}\n"));
    }
    out.push_str(&format!("interpretations with a distinguishing scenario: {}\n", m.distinguishing.len()));
    if m.undistinguished.is_empty() {
        out.push_str("every live interpretation has a distinguishing scenario\n");
    } else {
        out.push_str(&format!("no distinguishing scenario: {}\n", m.undistinguished.join(", ")));
    }
    out
}
