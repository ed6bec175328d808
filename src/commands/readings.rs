//! `explain` and `diff`: load the catalogs, find the game, print what
//! `interp` works out.

use std::path::Path;

use crate::engine::Config;
use crate::interp::{book_section, diff_all, diff_any, edge_case_book, explain, render_diff, render_diff_table};

use super::{Exit, find_game, load_all, print_diagnostics};

/// `rulecheck explain`: the whole game or one interpretation or variant, as
/// text or Markdown; `diff_games` adds a differential run (4 players, seed 1)
/// of every live interpretation to the text.
pub fn explain_command(
    game: &str,
    id: Option<&str>,
    markdown: bool,
    diff_games: Option<u64>,
    rules_dir: Option<&Path>,
) -> Exit {
    let catalogs = match load_all(rules_dir) {
        Ok(c) => c,
        Err(d) => return print_diagnostics(&d),
    };
    let rules = match find_game(&catalogs, game) {
        Ok(r) => r,
        Err(e) => return e,
    };
    if markdown {
        let book = edge_case_book(rules);
        match id {
            None => print!("{book}"),
            Some(id) => match book_section(rules, id) {
                Ok(section) => print!("{section}"),
                Err(e) => {
                    eprintln!("error: {e}");
                    return Exit::BadInput;
                }
            },
        }
        return Exit::Ok;
    }
    let stats = match diff_games {
        Some(n) => match diff_all(rules, &Config::new(game, 4, 0), n, 1) {
            Ok(s) => Some(s),
            Err(e) => {
                eprintln!("error: {e}");
                return Exit::BadInput;
            }
        },
        None => None,
    };
    match explain(rules, id, stats.as_ref()) {
        Ok(text) => {
            print!("{text}");
            Exit::Ok
        }
        Err(e) => {
            eprintln!("error: {e}");
            Exit::BadInput
        }
    }
}

/// What `rulecheck diff` was asked.
pub struct DiffArgs {
    pub game: String,
    /// An interpretation id; `None`: every live interpretation (a table).
    pub interpretation: Option<String>,
    /// Options to compare, the first the base; empty: all, default first.
    pub options: Vec<String>,
    /// The rest of the configuration (variants, other readings, players, turn cap).
    pub config: Config,
    pub games: u64,
    pub seed: u64,
    pub json: bool,
    pub rules: Option<std::path::PathBuf>,
}

/// `rulecheck diff`: a differential run of one interpretation, or the
/// reachability and outcome-change table of every live one.
pub fn diff_command(a: &DiffArgs) -> Exit {
    let catalogs = match load_all(a.rules.as_deref()) {
        Ok(c) => c,
        Err(d) => return print_diagnostics(&d),
    };
    let rules = match find_game(&catalogs, &a.game) {
        Ok(r) => r,
        Err(e) => return e,
    };
    let result = match &a.interpretation {
        Some(id) => diff_any(rules, &a.config, id, &a.options, a.games, a.seed).map(|d| {
            if a.json { serde_json::to_string_pretty(&d).expect("summaries serialise") } else { render_diff(&d) }
        }),
        None if !a.options.is_empty() => Err("--option needs an interpretation to compare".to_string()),
        None => diff_all(rules, &a.config, a.games, a.seed).map(|all| {
            if a.json {
                serde_json::to_string_pretty(&all).expect("summaries serialise")
            } else {
                format!(
                    "diff {}: {} games from seed {} per interpretation ({})\n{}",
                    a.game,
                    a.games,
                    a.seed,
                    a.config.flags(),
                    render_diff_table(&all)
                )
            }
        }),
    };
    match result {
        Ok(text) => {
            println!("{}", text.trim_end());
            Exit::Ok
        }
        Err(e) => {
            eprintln!("error: {e}");
            Exit::BadInput
        }
    }
}
