//! The witness of an interpretation: a `find` condition, named by the
//! entry's `witness:`, that holds in a situation where the reading
//! matters (a hand cut to the limit while its owner holds an I.O.U.).
//! Loading compiles each condition against its game's vocabulary, so an
//! unknown name or a wrong type is bad input at its column in the
//! catalog file (`check`); the edge-case book searches for it with fixed
//! settings, so the book is the same at every generation, and shows the
//! game that reaches it (`game`).

use crate::catalog::GameSources;
use crate::catalog::common::{Interpretation, Witness};
use crate::catalog::diag::Diagnostic;
use crate::check::find::{FindOptions, find};
use crate::check::query::compile;
use crate::engine::{Config, Describe, Game, Query, seat_name};
use crate::games::{AnyRules, with_game};

/// The search the book runs for a witness (as `rulecheck find` with
/// `--seed 1 --games 200 --max-states 20000 --jobs 1`).
pub const SEARCH: FindOptions =
    FindOptions { seed: 1, games: 200, max_actions: 100_000, max_states: 20_000, time_limit: None, jobs: 1 };

/// Every witness condition of a loaded catalog compiled against its
/// game; each that does not compile is a diagnostic at its column in the
/// file it was written in.
pub fn check(rules: &AnyRules, sources: &[GameSources]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for i in rules.interpretations() {
        let Some(w) = &i.witness else { continue };
        let players = players(rules, w) as usize;
        let result = with_game!(rules, |r, G| compile::<G>(r, players, &w.until).map(|_| ()));
        if let Err(e) = result {
            let text = sources.iter().flat_map(|s| s.files.values()).find(|f| f.path == w.file).map(|f| &f.text);
            // a quoted scalar's text starts one column after its quote
            let quoted = text
                .and_then(|t| t.lines().nth(w.line as usize - 1))
                .is_some_and(|l| l.chars().nth(w.column as usize - 1).is_some_and(|c| c == '"' || c == '\''));
            let column = w.column + u64::from(quoted) + e.column as u64 - 1;
            let d = Diagnostic::new(
                &w.file,
                w.line,
                column,
                format!("witness of interpretation `{}`: {}", i.id, e.message),
            );
            out.push(match text {
                Some(t) => d.with_snippet_from(t),
                None => d,
            });
        }
    }
    out
}

/// The seats a witness is searched with: its own, or the game's fewest.
pub fn players(rules: &AnyRules, w: &Witness) -> u32 {
    w.players.unwrap_or(rules.summary().min_players)
}

/// The command that runs the book's search again (under the variant the
/// interpretation is consulted in, if any).
pub fn command(rules: &AnyRules, i: &Interpretation, w: &Witness) -> String {
    let variant = i.variant.as_ref().map(|v| format!(" --variant {v}")).unwrap_or_default();
    format!(
        "rulecheck find --game {} --until '{}' --players {}{variant} --seed {} --games {} --max-states {} --jobs 1",
        rules.id(),
        w.until,
        players(rules, w),
        SEARCH.seed,
        SEARCH.games,
        SEARCH.max_states
    )
}

/// The game that reaches interpretation `i`'s witness: one line per
/// action (`p2: build saloon …`) and the events of the last, or why
/// there is none.
pub fn game(rules: &AnyRules, i: &Interpretation) -> Result<(Vec<String>, Vec<String>), String> {
    let Some(w) = &i.witness else { return Err(format!("interpretation `{}` names no witness", i.id)) };
    let mut config = Config::new(rules.id(), players(rules, w), SEARCH.seed);
    config.variants.extend(i.variant.clone());
    with_game!(rules, |r, G| {
        let start = G::new(r, &config).map_err(|e| e.to_string())?;
        let cond = compile::<G>(r, start.players(), &w.until).map_err(|e| e.message)?;
        let report = find::<G>(r, &start, &cond, &SEARCH);
        let Some(found) = report.witness else {
            return Err(format!(
                "not found in {} random games and {} states searched (closest distance {})",
                report.games, report.distinct, report.closest
            ));
        };
        Ok(trace::<G>(r, start, &found.actions))
    })
}

fn trace<G: Query + Describe>(rules: &G::Rules, mut state: G, actions: &[G::Action]) -> (Vec<String>, Vec<String>) {
    let (mut steps, mut events) = (Vec::new(), Vec::new());
    for a in actions {
        let by = state.actor(a).map_or("chance".to_string(), seat_name);
        steps.push(format!("{by}: {}", G::describe_action(rules, a)));
        let Ok(ev) = state.apply(rules, a) else { break };
        events = ev.iter().map(|e| G::describe_event(rules, e)).collect();
    }
    (steps, events)
}

/// The book's paragraph for a witness: the condition, the game that
/// reaches it (or why none was found), and the command that finds it.
pub fn book_paragraph(rules: &AnyRules, i: &Interpretation, w: &Witness) -> String {
    let mut out = format!(
        "**Where it matters.** A state where `{}` holds ({} players). `{}` finds it:\n\n",
        w.until,
        players(rules, w),
        command(rules, i, w)
    );
    match game(rules, i) {
        Ok((steps, events)) => {
            let last = steps.last().map_or("the set-up", String::as_str);
            out.push_str(&format!("It holds after `{last}`, which reports: {}.\n\n", events.join("; ")));
            out.push_str(&format!("<details><summary>The whole game: {} action(s)</summary>\n\n", steps.len()));
            for (n, s) in steps.iter().enumerate() {
                out.push_str(&format!("{}. {}\n", n + 1, s.replace('|', "\\|")));
            }
            out.push_str("\n</details>\n");
        }
        Err(e) => out.push_str(&format!("No game reaches it: {e}.\n")),
    }
    out
}
