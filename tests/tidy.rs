//! What ARCHITECTURE.md states as absences, checked over the source text
//! (in the style of rust-analyzer's tidy test): layers import only
//! downward, no catalog id is looked up by a string in a game, no game
//! defines machinery the engine has, no debug formatting reaches a
//! message, and no file grows past its recorded size.

use std::path::{Path, PathBuf};

fn sources() -> Vec<(String, String)> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    walk(&root.join("src"), &mut files);
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let rel = p.strip_prefix(&root).unwrap().display().to_string();
            (rel, std::fs::read_to_string(&p).unwrap())
        })
        .collect()
}

/// The layer of a module, lowest first (ARCHITECTURE.md, "Layers").
fn layer(module: &str) -> Option<u32> {
    Some(match module {
        "yaml" => 0,
        "catalog" | "bundled" => 1,
        "engine" => 2,
        "lang" => 3,
        "games" => 4,
        "check" => 5,
        "scenario" => 6,
        "interp" | "matrix" => 7,
        "report" => 8,
        "commands" => 9,
        _ => return None,
    })
}

/// The top-level module a source file belongs to.
fn module_of(rel: &str) -> &str {
    let rest = rel.strip_prefix("src/").unwrap();
    rest.split(['/', '.']).next().unwrap()
}

/// Imports against the layers that are known and not yet mended, with why
/// (none today: `explain` and `diff` moved into `commands`).
const KNOWN_UPWARD: &[(&str, &str, &str)] = &[];

#[test]
fn layers_import_only_downward() {
    let wrong = upward_imports(&sources());
    assert!(wrong.is_empty(), "a lower layer imports a higher one:\n{}", wrong.join("\n"));
}

fn upward_imports(files: &[(String, String)]) -> Vec<String> {
    let mut wrong = Vec::new();
    for (rel, text) in files {
        let Some(own) = layer(module_of(rel)) else { continue };
        for (n, line) in text.lines().enumerate() {
            for (at, _) in line.match_indices("crate::") {
                let path = &line[at + 7..];
                let name: String = path.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                // diagnostics are the lowest piece of all: yaml reports with them
                let theirs = if path.starts_with("catalog::diag") { Some(0) } else { layer(&name) };
                let known = KNOWN_UPWARD.iter().any(|(f, m, _)| f == rel && *m == name);
                if let Some(theirs) = theirs
                    && theirs > own
                    && !(own == 7 && theirs == 7)
                    && !known
                {
                    wrong.push(format!("{rel}:{}: {} imports {name}", n + 1, module_of(rel)));
                }
            }
        }
    }
    wrong
}

#[test]
fn no_catalog_id_is_looked_up_by_a_string_in_a_game() {
    let wrong = id_lookups(&sources());
    assert!(wrong.is_empty(), "give the entity a role in the catalog instead:\n{}", wrong.join("\n"));
}

fn id_lookups(files: &[(String, String)]) -> Vec<String> {
    let mut wrong = Vec::new();
    for (rel, text) in files.iter().filter(|(r, _)| r.starts_with("src/games/")) {
        for (n, line) in text.lines().enumerate() {
            if line.contains("_by_id(\"") || line.contains("by_name(\"") {
                wrong.push(format!("{rel}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    wrong
}

#[test]
fn no_rule_an_error_names_is_a_string_in_a_game() {
    let wrong = rule_strings(&sources());
    assert!(wrong.is_empty(), "name the rule by the game's typed `readings::R`:\n{}", wrong.join("\n"));
}

/// Lines of `src/games` that make a rule error from a literal rule id (a
/// game's `err` takes its typed `R`, whose place `game.rules` gives).
fn rule_strings(files: &[(String, String)]) -> Vec<String> {
    let mut wrong = Vec::new();
    for (rel, text) in files.iter().filter(|(r, _)| r.starts_with("src/games/")) {
        for (n, line) in text.lines().enumerate() {
            if line.contains("RuleError::new(\"") || line.contains("RuleError::new(&format!(\"") && !line.contains('{')
            {
                wrong.push(format!("{rel}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    wrong
}

#[test]
fn no_code_outside_the_registry_names_a_game() {
    let wrong = game_names(&sources());
    assert!(wrong.is_empty(), "reach the game through `games::with_game!` or `AnyRules`:\n{}", wrong.join("\n"));
}

/// Lines outside `src/games` that name a game module or registry variant.
fn game_names(files: &[(String, String)]) -> Vec<String> {
    let games: Vec<String> = std::fs::read_dir(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/games"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    named(files, &games)
}

fn named(files: &[(String, String)], games: &[String]) -> Vec<String> {
    let camel = |g: &str| -> String { g.split('_').map(|w| w[..1].to_uppercase() + &w[1..]).collect() };
    let mut wrong = Vec::new();
    for (rel, text) in files.iter().filter(|(r, _)| !r.starts_with("src/games/")) {
        for (n, line) in text.lines().enumerate() {
            if games.iter().any(|g| line.contains(&format!("{g}::")) || line.contains(&format!("::{}", camel(g)))) {
                wrong.push(format!("{rel}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    wrong
}

#[test]
fn no_game_defines_machinery_of_its_own() {
    let wrong = machinery(&sources());
    assert!(wrong.is_empty(), "the engine has it (`src/engine`, `src/lang`); a game uses it:\n{}", wrong.join("\n"));
}

/// What a game may not define for itself, by the type's name: the zones,
/// decks, counters, topologies, the decision queue, the readings table,
/// the turn cursor and the effect language's interpreter are the engine's
/// (issue #10, item 1). A game names its own rules' types, and the words
/// its catalog writes (an enum `Deck` of the decks an effect may name).
const MACHINERY: &[&str] = &[
    "Zone",
    "Zones",
    "Pile",
    "Deck",
    "Multiset",
    "Tally",
    "Ledger",
    "Counter",
    "Queue",
    "Cursor",
    "Graph",
    "Grid",
    "Topology",
    "Registry",
    "Interpreter",
    "Evaluator",
    "Readings",
];

/// Lines of `src/games` that define a struct, trait or type alias named
/// for engine machinery (`MACHINERY`, or a name ending in one: `EventDeck`);
/// a `Raw` shape is what a catalog file writes (`RawPile`, a pile of tiles
/// as `components.yaml` lists it), not a zone.
/// An indented `type` is an associated type an impl binds (`type Deck =
/// Deck;` names the language's deck words), not a definition.
fn machinery(files: &[(String, String)]) -> Vec<String> {
    let mut wrong = Vec::new();
    for (rel, text) in files.iter().filter(|(r, _)| r.starts_with("src/games/")) {
        for (n, line) in text.lines().enumerate() {
            let words: Vec<&str> = line.split(|c: char| !c.is_ascii_alphanumeric() && c != '_').collect();
            let kinds: &[&str] =
                if line.starts_with(char::is_whitespace) { &["struct", "trait"] } else { &["struct", "trait", "type"] };
            let Some(at) = words.iter().position(|w| kinds.contains(w)) else { continue };
            let Some(name) = words.get(at + 1).filter(|w| !w.is_empty()) else { continue };
            let raw = name.starts_with("Raw");
            if MACHINERY.iter().any(|m| name.ends_with(m)) && !raw && !line.trim_start().starts_with("//") {
                wrong.push(format!("{rel}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    wrong
}

#[test]
fn no_debug_formatting_reaches_a_message_of_a_game() {
    let wrong = debug_messages(&sources());
    assert!(wrong.is_empty(), "name values in catalog words, not Rust debug text:\n{}", wrong.join("\n"));
}

fn debug_messages(files: &[(String, String)]) -> Vec<String> {
    let mut wrong = Vec::new();
    for (rel, text) in files.iter().filter(|(r, _)| r.starts_with("src/games/")) {
        for (n, line) in text.lines().enumerate() {
            let debug = line.contains(":?}") && (line.contains("format!") || line.contains('"'));
            if debug && !line.trim_start().starts_with("//") && !line.contains("assert") {
                wrong.push(format!("{rel}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    wrong
}

/// Files past about 600 lines, with the most lines each may have and why it
/// has not been split yet. A file may shrink, never grow; one not listed
/// must stay under 600.
const LONG_FILES: &[(&str, usize, &str)] = &[];

#[test]
fn no_file_grows_past_its_recorded_size() {
    let wrong = long_files(&sources());
    assert!(wrong.is_empty(), "split by responsibility:\n{}", wrong.join("\n"));
}

fn long_files(files: &[(String, String)]) -> Vec<String> {
    let mut wrong = Vec::new();
    for (rel, text) in files {
        let lines = text.lines().count();
        let max = LONG_FILES.iter().find(|(p, _, _)| p == rel).map_or(600, |(_, n, _)| *n);
        if lines > max {
            wrong.push(format!("{rel}: {lines} lines, over {max}"));
        }
    }
    wrong
}

/// Functions past about 80 lines (signature to closing brace), with the
/// most lines each may have and why it is that long (or why it is not
/// split yet). A listed function may shrink, never grow; one not listed
/// must stay within 80 lines; an entry whose function is gone or short
/// again must go.
const LONG_FUNCTIONS: &[(&str, &str, usize, &str)] = &[
    (
        "src/check/fuzz.rs",
        "fuzz_retaining",
        99,
        "the worker pool: threads, the shared budget and the ordered merge of results",
    ),
    (
        "src/check/suite.rs",
        "run_game",
        109,
        "the contract suite's per-action checks, in the order the contract lists them",
    ),
    ("src/games/dodge_city/invariants.rs", "check_invariants", 93, "one block per invariant, in the table's order"),
    (
        "src/games/dry_gulch/payment.rs",
        "check",
        98,
        "the payment rules in the order the rulebook gives them, each with its message",
    ),
    ("src/games/dry_gulch/rules/describe.rs", "describe_event", 100, "one arm per event"),
    ("src/games/red_dog_junction/play.rs", "start_action", 109, "one arm per kind of turn action"),
    ("src/interp/diff.rs", "diff", 89, "the paired runs, their intervals and the witness search"),
    ("src/main.rs", "main", 149, "one arm per subcommand, each only parsing and forwarding"),
];

#[test]
fn no_function_grows_past_its_recorded_length() {
    let wrong = long_functions(&sources(), LONG_FUNCTIONS);
    assert!(wrong.is_empty(), "split into named steps, or record why not:\n{}", wrong.join("\n"));
}

/// Each function with a body: its name, first line and length in lines
/// (as rustfmt lays it out: the body ends at a `}` at the indent of `fn`).
fn functions(text: &str) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        let indent = &line[..line.len() - trimmed.len()];
        let mut rest = trimmed;
        for prefix in ["pub(crate) ", "pub(super) ", "pub ", "const ", "async ", "unsafe "] {
            rest = rest.strip_prefix(prefix).unwrap_or(rest);
        }
        if let Some(r) = rest.strip_prefix("pub(in ") {
            rest = r.split_once(") ").map_or(r, |(_, after)| after);
        }
        let Some(sig) = rest.strip_prefix("fn ") else { continue };
        let name: String = sig.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        // the signature ends at `{` (a body), `;` (a declaration) or `}` (a one-line body)
        let Some(open) = (i..lines.len()).find(|&j| {
            let l = lines[j].trim_end();
            l.ends_with('{') || l.ends_with(';') || l.ends_with('}')
        }) else {
            continue;
        };
        if !lines[open].trim_end().ends_with('{') {
            continue;
        }
        let close = format!("{indent}}}");
        if let Some(end) = (open + 1..lines.len()).find(|&j| lines[j] == close) {
            out.push((name, i + 1, end - i + 1));
        }
    }
    out
}

fn long_functions(files: &[(String, String)], listed: &[(&str, &str, usize, &str)]) -> Vec<String> {
    let mut wrong = Vec::new();
    let mut seen = vec![false; listed.len()];
    for (rel, text) in files {
        for (name, line, len) in functions(text) {
            let entry = listed.iter().position(|(p, n, _, _)| p == rel && *n == name);
            let max = entry.map_or(80, |k| listed[k].2);
            if let Some(k) = entry
                && len > 80
            {
                seen[k] = true;
            }
            if len > max {
                wrong.push(format!("{rel}:{line}: `{name}` is {len} lines, over {max}"));
            }
        }
    }
    for ((rel, name, max, _), seen) in listed.iter().zip(seen) {
        if !seen {
            wrong.push(format!("{rel}: `{name}` is listed at {max} lines but is gone or within 80: drop its entry"));
        }
    }
    wrong
}

/// Each check catches a planted violation (and only that one).
#[test]
fn each_tidy_check_catches_a_planted_violation() {
    let file = |rel: &str, text: &str| vec![(rel.to_string(), text.to_string())];
    assert_eq!(upward_imports(&file("src/engine/x.rs", "use crate::games::AnyRules;")).len(), 1);
    assert!(upward_imports(&file("src/games/x.rs", "use crate::engine::Chance;")).is_empty());
    assert_eq!(upward_imports(&file("src/report/x.rs", "use crate::commands::Exit;")).len(), 1);
    assert_eq!(id_lookups(&file("src/games/g/x.rs", "let f = rules.card_by_id(\"fire\");")).len(), 1);
    assert_eq!(rule_strings(&file("src/games/g/x.rs", "RuleError::new(\"g/turn\", \"\", m)")).len(), 1);
    assert!(rule_strings(&file("src/games/g/x.rs", "RuleError::new(&format!(\"g/{}\", r.id()), p, m)")).is_empty());
    assert_eq!(debug_messages(&file("src/games/g/x.rs", "err(format!(\"{action:?} is illegal\"))")).len(), 1);
    assert_eq!(machinery(&file("src/games/g/x.rs", "pub(super) struct EventDeck(Vec<CardKind>);")).len(), 1);
    assert_eq!(machinery(&file("src/games/g/x.rs", "struct DecisionQueue {")).len(), 1);
    assert!(machinery(&file("src/games/g/x.rs", "pub enum Deck {")).is_empty());
    assert!(machinery(&file("src/games/g/x.rs", "    type Deck = Deck;")).is_empty());
    assert!(machinery(&file("src/games/g/x.rs", "pub struct RawPile {")).is_empty());
    assert_eq!(machinery(&file("src/games/g/x.rs", "pub type HandPile = Vec<CardKind>;")).len(), 1);
    assert!(machinery(&file("src/engine/x.rs", "pub struct Pile<K: Kind> {")).is_empty());
    assert_eq!(named(&file("src/scenario/x.rs", "AnyRules::DryGulch(r) => 1,"), &["dry_gulch".into()]).len(), 1);
    assert_eq!(named(&file("src/interp/mod.rs", "crate::games::dry_gulch::State"), &["dry_gulch".into()]).len(), 1);
    assert!(named(&file("src/games/mod.rs", "dry_gulch::DryGulch"), &["dry_gulch".into()]).is_empty());
    assert_eq!(long_files(&file("src/x.rs", &"x\n".repeat(601))).len(), 1);
    assert!(long_files(&file("src/x.rs", &"x\n".repeat(600))).is_empty());
    let body = |n: usize| format!("fn f() {{\n{}}}\n", "    x;\n".repeat(n - 2));
    assert_eq!(long_functions(&file("src/x.rs", &body(81)), &[]).len(), 1);
    assert!(long_functions(&file("src/x.rs", &body(80)), &[]).is_empty());
    assert!(long_functions(&file("src/x.rs", &body(90)), &[("src/x.rs", "f", 90, "")]).is_empty());
    assert_eq!(long_functions(&file("src/x.rs", &body(91)), &[("src/x.rs", "f", 90, "")]).len(), 1);
    // an entry whose function is gone or short again is stale
    assert_eq!(long_functions(&file("src/x.rs", &body(20)), &[("src/x.rs", "f", 90, "")]).len(), 1);
    let signature = "fn g(\n    a: u32,\n) -> u32;\n";
    assert!(long_functions(&file("src/x.rs", &format!("{signature}{}", body(60))), &[]).is_empty());
}
