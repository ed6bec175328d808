//! Interpretation tooling: what each interpretation and variant of a game
//! says and how it plays out.
//!
//! - `explain` (plain text) and `edge_case_book` (Markdown, committed as
//!   `docs/<game>-edge-cases.md`) lay out every interpretation and variant:
//!   the question, the citations on each side, the options and their
//!   consequences, the default and why, whether the engine branches on it,
//!   the bundled scenarios that pin its options, and (`doubt`) the assumed
//!   numbers to doubt first.
//! - `diff` plays the same random games under two or more options of one
//!   interpretation (the same seeds and the same choice indices) and
//!   reports how often the outcome and the length change, where the states
//!   first part, and whether the engine consults the interpretation at all.
//! - `win_rates` gives per-seat win rates with Wilson intervals and the mean
//!   game length with a normal-approximation interval, for statistical gates.
//!   Everything here is deterministic for a given catalog, configuration and
//!   seed; nothing prints timings or dates.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::catalog::SourceFile;
use crate::catalog::common::{Citation, Interpretation, Variant};
use crate::check::fuzz::outcome_key;
use crate::check::playout::RandomChooser;
pub use crate::check::playout::ScriptThenRandom;
use crate::check::suite::{Checks, GameRun, run_game};
use crate::engine::{Config, ConfigError, Harnessed, Outcome, Scripted};
use crate::games::{AnyRules, with_game};

pub mod doubt;
mod parting;
mod stats;
mod unchanged;
pub mod witness;
use parting::first_difference;
pub use parting::{KeyDiff, StateDiff, json_diff};
pub use stats::{Estimate, mean_interval, wilson};
pub use unchanged::{UNCHANGED_GAMES, changes_no_game};

/// The most actions a game in `diff` and `win_rates` may take before it counts as failed (as in `fuzz`, `check`).
pub const MAX_ACTIONS: usize = 200_000;

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

// ------------------------------------------------------------ scenarios

/// A bundled scenario that runs under an interpretation's options.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ScenarioRef {
    /// As shown in diagnostics: `scenarios/<game>/<file>.yaml`.
    pub path: String,
    pub title: String,
    /// The options the file's configurations select, in the order they
    /// first appear; the default alone when the file only names the
    /// interpretation in its title or `why`.
    pub options: Vec<String>,
    /// The file's `config`/`configs` name the interpretation (otherwise it
    /// runs the default and names the interpretation in its description).
    pub named_in_config: bool,
}

impl ScenarioRef {
    /// A file that runs two or more options tells them apart.
    pub fn distinguishes(&self) -> bool {
        self.options.len() > 1
    }
}

#[derive(Deserialize)]
struct ScenarioHead {
    #[serde(default)]
    title: String,
    #[serde(default)]
    why: String,
    #[serde(default)]
    game: String,
    #[serde(default)]
    config: Option<ConfigHead>,
    #[serde(default)]
    configs: Vec<ConfigHead>,
}

#[derive(Deserialize)]
struct ConfigHead {
    #[serde(default)]
    interpretations: BTreeMap<String, String>,
}

/// Whether a scenario's description names interpretation `id`: as `` `id` ``,
/// `` `id: option` `` or "interpretation id" (a bare word would match
/// ids like `permits` everywhere).
fn describes(text: &str, id: &str) -> bool {
    let after_word = |rest: &str| !rest.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '-');
    text.contains(&format!("`{id}`"))
        || text.contains(&format!("`{id}:"))
        || ["interpretation ", "interpretations "]
            .iter()
            .any(|w| text.match_indices(&format!("{w}{id}")).any(|(at, m)| after_word(&text[at + m.len()..])))
}

/// For each interpretation id, the scenario files of game `game` that run
/// one of its options, sorted by path: those whose `config`/`configs` select
/// an option (a file that does not parse is searched as text for `id:
/// option` lines in an `interpretations:` block), and those that run the
/// default while their title or `why` names the interpretation.
pub fn scenarios_by_interpretation(
    game: &str,
    interpretations: &[Interpretation],
    files: &[SourceFile],
) -> BTreeMap<String, Vec<ScenarioRef>> {
    let mut out: BTreeMap<String, Vec<ScenarioRef>> = BTreeMap::new();
    for f in files {
        let (title, why, readings) = match crate::yaml::from_str::<ScenarioHead>(&f.path, &f.text) {
            Ok(head) if head.game == game => {
                let readings: Vec<(String, String)> = head
                    .config
                    .iter()
                    .chain(&head.configs)
                    .flat_map(|c| c.interpretations.iter().map(|(k, v)| (k.clone(), v.clone())))
                    .collect();
                (head.title, head.why, readings)
            }
            Ok(_) => continue,
            Err(_) => match text_readings(game, &f.text) {
                Some((title, readings)) => (title, String::new(), readings),
                None => continue,
            },
        };
        let mut per_id: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (id, option) in readings {
            let opts = per_id.entry(id).or_default();
            if !opts.contains(&option) {
                opts.push(option);
            }
        }
        let description = format!("{title}\n{why}");
        for i in interpretations {
            let named = per_id.remove(&i.id);
            let named_in_config = named.is_some();
            let options = match named {
                Some(options) => options,
                None if describes(&description, &i.id) => vec![i.default.clone()],
                None => continue,
            };
            out.entry(i.id.clone()).or_default().push(ScenarioRef {
                path: f.path.clone(),
                title: title.clone(),
                options,
                named_in_config,
            });
        }
        // ids the catalog does not declare (a stale scenario) are still listed
        for (id, options) in per_id {
            out.entry(id).or_default().push(ScenarioRef {
                path: f.path.clone(),
                title: title.clone(),
                options,
                named_in_config: true,
            });
        }
    }
    for refs in out.values_mut() {
        refs.sort_by(|a, b| a.path.cmp(&b.path));
    }
    out
}

/// The fallback text search: `title:` and every `id: option` line inside an
/// `interpretations:` block (block or `{…}` flow style).
fn text_readings(game: &str, text: &str) -> Option<(String, Vec<(String, String)>)> {
    let unquote = |s: &str| s.trim().trim_matches(|c| c == '"' || c == '\'').to_string();
    let top = |key: &str| text.lines().find_map(|l| l.strip_prefix(key).map(unquote));
    if top("game:")? != game {
        return None;
    }
    let title = top("title:").unwrap_or_default();
    let mut readings = Vec::new();
    let mut block: Option<usize> = None;
    for line in text.lines() {
        let indent = line.len() - line.trim_start().len();
        let body = line.trim().trim_start_matches("- ").trim();
        if let Some(ind) = block {
            if indent > ind && !body.is_empty() {
                if let Some((k, v)) = body.split_once(':') {
                    readings.push((unquote(k), unquote(v)));
                }
                continue;
            }
            block = None;
        }
        if let Some(rest) = body.strip_prefix("interpretations:") {
            let rest = rest.trim();
            if let Some(inner) = rest.strip_prefix('{').and_then(|r| r.strip_suffix('}')) {
                readings.extend(
                    inner.split(',').filter_map(|kv| kv.split_once(':')).map(|(k, v)| (unquote(k), unquote(v))),
                );
            } else if rest.is_empty() {
                block = Some(indent);
            }
        }
    }
    Some((title, readings))
}

/// The bundled scenario files (none when they do not decode).
fn bundled_scenarios() -> Vec<SourceFile> {
    crate::bundled::scenarios().unwrap_or_default()
}

// -------------------------------------------------------------- explain

/// How a scenario uses an interpretation: `tells apart a, b`, `runs a`, or
/// `runs the default a (named in its description)`.
fn scenario_use(r: &ScenarioRef, markdown: bool) -> String {
    let opts: Vec<String> = r.options.iter().map(|o| if markdown { format!("`{o}`") } else { o.clone() }).collect();
    if !r.named_in_config {
        format!("runs the default {} (named in its description)", opts.join(", "))
    } else if r.distinguishes() {
        format!("tells apart {}", opts.join(", "))
    } else {
        format!("runs {}", opts.join(", "))
    }
}

fn citation_line(c: &Citation) -> String {
    match &c.says {
        Some(s) => format!("{c} — {s}"),
        None => c.to_string(),
    }
}

fn variant_name<'a>(rules: &'a AnyRules, id: &'a str) -> &'a str {
    rules.variants().iter().find(|v| v.id == id).map(|v| v.name.as_str()).unwrap_or(id)
}

/// One line saying whether the engine branches on `i`.
fn status_line(rules: &AnyRules, i: &Interpretation) -> String {
    match (&i.inert, &i.variant) {
        (Some(why), _) => format!("inert — the engine does not branch on it: {why}"),
        (None, Some(v)) => format!(
            "live, but consulted only under the variant `{v}` ({}); run it with --variant {v}",
            variant_name(rules, v)
        ),
        (None, None) => "live — the engine branches on it in every game".to_string(),
    }
}

/// Every interpretation and variant (`id` None), or one of them, as plain
/// text. `diff_stats` (interpretation id → its differential run) adds how
/// each live interpretation played out.
pub fn explain(
    rules: &AnyRules,
    id: Option<&str>,
    diff_stats: Option<&BTreeMap<String, DiffSummary>>,
) -> Result<String, String> {
    let scenarios = scenarios_by_interpretation(rules.id(), rules.interpretations(), &bundled_scenarios());
    let mut out = String::new();
    match id {
        None => {
            let s = rules.summary();
            let live = rules.interpretations().iter().filter(|i| i.inert.is_none()).count();
            let _ = writeln!(
                out,
                "{} ({}): {} interpretations ({} the engine branches on, {} inert), {} variants",
                s.game,
                s.name,
                rules.interpretations().len(),
                live,
                rules.interpretations().len() - live,
                rules.variants().len()
            );
            for i in rules.interpretations() {
                out.push('\n');
                explain_interpretation(&mut out, rules, i, &scenarios, diff_stats.and_then(|d| d.get(&i.id)));
            }
            for v in rules.variants() {
                out.push('\n');
                explain_variant(&mut out, rules, v);
            }
            if let Some(stats) = diff_stats {
                out.push('\n');
                out.push_str(&render_diff_table(stats));
            }
        }
        Some(id) => {
            if let Some(i) = rules.interpretations().iter().find(|i| i.id == id) {
                explain_interpretation(&mut out, rules, i, &scenarios, diff_stats.and_then(|d| d.get(&i.id)));
            } else if let Some(v) = rules.variants().iter().find(|v| v.id == id) {
                explain_variant(&mut out, rules, v);
            } else {
                return Err(unknown_id(rules, id));
            }
        }
    }
    Ok(out)
}

/// What an option or variant changes as data, in catalog words (empty
/// when it changes nothing as data).
fn data_note(rules: &AnyRules, data: &[crate::catalog::common::Change]) -> String {
    if data.is_empty() {
        return String::new();
    }
    let parts: Vec<String> = data.iter().map(|c| rules.describe_change(c)).collect();
    format!(" [{}]", parts.join("; "))
}

fn unknown_id(rules: &AnyRules, id: &str) -> String {
    let interps: Vec<&str> = rules.interpretations().iter().map(|i| i.id.as_str()).collect();
    let variants: Vec<&str> = rules.variants().iter().map(|v| v.id.as_str()).collect();
    format!(
        "`{id}` is neither an interpretation nor a variant of {}; interpretations: {}; variants: {}",
        rules.id(),
        interps.join(", "),
        variants.join(", ")
    )
}

fn explain_interpretation(
    out: &mut String,
    rules: &AnyRules,
    i: &Interpretation,
    scenarios: &BTreeMap<String, Vec<ScenarioRef>>,
    stats: Option<&DiffSummary>,
) {
    let _ = writeln!(out, "{} — {}", i.id, i.question);
    let _ = writeln!(out, "  kind: {} ({})", i.kind, kind_meaning(&i.kind));
    let _ = writeln!(out, "  status: {}", status_line(rules, i));
    let _ = writeln!(out, "  citations:");
    for c in &i.citations {
        let _ = writeln!(out, "    {}", citation_line(c));
    }
    let _ = writeln!(out, "  options:");
    for o in &i.options {
        let mark = if o.id == i.default { "*" } else { " " };
        let _ = writeln!(out, "  {mark} {} — {}{}", o.id, o.consequence, data_note(rules, &o.data));
    }
    let _ = writeln!(out, "  default: {} (marked *) — {}", i.default, i.reason);
    if let Some(w) = &i.witness {
        let _ = writeln!(out, "  witness: {} (the game: {})", w.until, witness::command(rules, i, w));
    }
    match scenarios.get(&i.id) {
        Some(refs) if !refs.is_empty() => {
            let _ = writeln!(out, "  scenarios:");
            for r in refs {
                let _ = writeln!(out, "    {} — {} [{}]", r.path, r.title, scenario_use(r, false));
            }
        }
        _ if i.inert.is_some() => {}
        _ => {
            let _ = writeln!(out, "  scenarios: none name it");
        }
    }
    if let Some(d) = stats {
        let _ = writeln!(out, "  differential run ({} games, {}):", d.games, d.config);
        for line in diff_lines(d) {
            let _ = writeln!(out, "    {line}");
        }
    }
}

fn explain_variant(out: &mut String, rules: &AnyRules, v: &Variant) {
    let _ = writeln!(out, "variant {} — {}", v.id, v.name);
    let _ = writeln!(out, "  summary: {}", v.summary);
    let _ = writeln!(out, "  changes: {}{}", v.changes.join(", "), data_note(rules, &v.data));
    if !v.incompatible.is_empty() {
        let _ = writeln!(out, "  incompatible with: {}", v.incompatible.join(", "));
    }
    let _ = writeln!(out, "  sources:");
    for c in &v.source {
        let _ = writeln!(out, "    {}", citation_line(c));
    }
    let scoped: Vec<&str> = scoped_interpretations(rules, &v.id);
    if !scoped.is_empty() {
        let _ = writeln!(out, "  interpretations consulted only under it: {}", scoped.join(", "));
    }
}

fn scoped_interpretations<'a>(rules: &'a AnyRules, variant: &str) -> Vec<&'a str> {
    rules.interpretations().iter().filter(|i| i.variant.as_deref() == Some(variant)).map(|i| i.id.as_str()).collect()
}

// ------------------------------------------------------------- markdown

/// Escapes text for a Markdown table cell or list item.
fn md(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// The command that writes a game's edge-case book.
pub fn book_command(game: &str) -> String {
    format!("cargo run -- explain --game {game} --format markdown > {}", book_path(game))
}

/// Where a game's edge-case book is committed, relative to the crate root.
pub fn book_path(game: &str) -> String {
    format!("docs/{game}-edge-cases.md")
}

/// Every interpretation and variant of the game as a Markdown document,
/// deterministic (no timings, no dates), committed as `docs/<game>-edge-cases.md`.
pub fn edge_case_book(rules: &AnyRules) -> String {
    let scenarios = scenarios_by_interpretation(rules.id(), rules.interpretations(), &bundled_scenarios());
    let s = rules.summary();
    let game = rules.id();
    let all = rules.interpretations();
    let live: Vec<&Interpretation> = all.iter().filter(|i| i.inert.is_none()).collect();
    let inert: Vec<&Interpretation> = all.iter().filter(|i| i.inert.is_some()).collect();
    let mut out = String::new();
    let _ = writeln!(out, "# {} — edge cases and interpretations\n", s.name);
    let _ = writeln!(
        out,
        "<!-- Generated from rules/{game}/interpretations.yaml, rules/{game}/variants.yaml and the bundled \
         scenarios. Do not edit by hand; regenerate with `{}`. -->\n",
        book_command(game)
    );
    let _ = writeln!(
        out,
        "Where the rulebooks of {} are ambiguous, silent, contradict themselves or each other, the catalog \
         names the question, cites every side, lists the possible readings and picks a default. The engine \
         branches on {} of the {} interpretations (any of them can be changed with \
         `--interpretation ID=OPTION`); the other {} are inert: they document an ambiguity that cannot change \
         play in this engine. The game has {} optional rules (`--variant ID`).\n",
        s.name,
        live.len(),
        all.len(),
        inert.len(),
        rules.variants().len()
    );
    let _ = writeln!(
        out,
        "A scenario listed under an interpretation runs under one or more of its options: one that runs \
         two or more tells them apart (its expectations differ by option); one that names the \
         interpretation only in its description runs the default. `rulecheck diff --game {game} ID` \
         plays the same random games under each option and reports how often the outcome changes.\n"
    );
    let _ = writeln!(out, "## Contents\n");
    let _ = writeln!(out, "Interpretations the engine branches on:\n");
    for i in &live {
        let scope = i.variant.as_ref().map(|v| format!(" (variant `{v}`)")).unwrap_or_default();
        let _ = writeln!(out, "- [`{}`](#{}){scope} — {}", i.id, i.id, md(&i.question));
    }
    if !inert.is_empty() {
        let _ = writeln!(out, "\nInert interpretations:\n");
        for i in &inert {
            let _ = writeln!(out, "- [`{}`](#{}) — {}", i.id, i.id, md(&i.question));
        }
    }
    if !rules.variants().is_empty() {
        let _ = writeln!(out, "\nVariants:\n");
        for v in rules.variants() {
            let _ = writeln!(out, "- [{}](#variant-{}) (`{}`)", md(&v.name), v.id, v.id);
        }
    }
    let _ = writeln!(out, "\n## Interpretations the engine branches on");
    for i in &live {
        book_interpretation(&mut out, rules, i, scenarios.get(&i.id).map(Vec::as_slice).unwrap_or(&[]));
    }
    if !inert.is_empty() {
        let _ = writeln!(out, "\n## Inert interpretations");
        for i in &inert {
            book_interpretation(&mut out, rules, i, scenarios.get(&i.id).map(Vec::as_slice).unwrap_or(&[]));
        }
    }
    if !rules.variants().is_empty() {
        let _ = writeln!(out, "\n## Variants");
        for v in rules.variants() {
            book_variant(&mut out, rules, v);
        }
    }
    out + &doubt::book_section(rules)
}

/// The book's section for one interpretation or variant.
pub fn book_section(rules: &AnyRules, id: &str) -> Result<String, String> {
    let mut out = String::new();
    if let Some(i) = rules.interpretations().iter().find(|i| i.id == id) {
        let scenarios = scenarios_by_interpretation(rules.id(), rules.interpretations(), &bundled_scenarios());
        book_interpretation(&mut out, rules, i, scenarios.get(&i.id).map(Vec::as_slice).unwrap_or(&[]));
    } else if let Some(v) = rules.variants().iter().find(|v| v.id == id) {
        book_variant(&mut out, rules, v);
    } else {
        return Err(unknown_id(rules, id));
    }
    Ok(out.trim_start().to_string())
}

fn book_interpretation(out: &mut String, rules: &AnyRules, i: &Interpretation, refs: &[ScenarioRef]) {
    // an explicit anchor, so the contents links do not depend on a renderer's slug rules
    let _ = writeln!(out, "\n<a id=\"{}\"></a>\n\n### `{}`\n", i.id, i.id);
    let _ = writeln!(out, "**Question.** {}\n", md(&i.question));
    let _ = writeln!(out, "**Kind.** {} — {}.\n", i.kind, kind_meaning(&i.kind));
    let status = match (&i.inert, &i.variant) {
        (Some(why), _) => format!("Inert — the engine does not branch on it: {}.", md(why.trim_end_matches('.'))),
        (None, Some(v)) => format!(
            "Live, but consulted only under the variant [{}](#variant-{v}) (`--variant {v}`).",
            md(variant_name(rules, v))
        ),
        (None, None) => "Live — the engine branches on it.".to_string(),
    };
    let _ = writeln!(out, "**Status.** {status}\n");
    let _ = writeln!(out, "**Citations.**\n");
    let _ = writeln!(out, "| document | place | says |");
    let _ = writeln!(out, "|---|---|---|");
    for c in &i.citations {
        let _ = writeln!(out, "| {} | {} | {} |", c.doc, md(&c.reference), md(c.says.as_deref().unwrap_or("")));
    }
    let _ = writeln!(out, "\n**Options.**\n");
    let _ = writeln!(out, "| option | consequence |");
    let _ = writeln!(out, "|---|---|");
    for o in &i.options {
        let mark = if o.id == i.default { " (default)" } else { "" };
        let _ = writeln!(out, "| `{}`{mark} | {}{} |", o.id, md(&o.consequence), md(&data_note(rules, &o.data)));
    }
    let _ = writeln!(out, "\n**Default: `{}`.** {}\n", i.default, md(&i.reason));
    if let Some(w) = &i.witness {
        let _ = writeln!(out, "{}", witness::book_paragraph(rules, i, w));
    }
    if refs.is_empty() {
        if i.inert.is_none() {
            let _ = writeln!(out, "**Scenarios.** None name it yet.");
        } else {
            let _ = writeln!(out, "**Scenarios.** None (inert).");
        }
    } else {
        let _ = writeln!(out, "**Scenarios.**\n");
        for r in refs {
            let _ = writeln!(
                out,
                "- [`{}`](../{}) — {} — {}",
                r.path.rsplit('/').next().unwrap_or(&r.path),
                r.path,
                md(&r.title),
                scenario_use(r, true)
            );
        }
    }
}

fn book_variant(out: &mut String, rules: &AnyRules, v: &Variant) {
    let _ = writeln!(out, "\n<a id=\"variant-{}\"></a>\n\n### {} (`{}`)\n", v.id, md(&v.name), v.id);
    let _ = writeln!(out, "{}\n", md(&v.summary));
    let changes: Vec<String> = v.changes.iter().map(|c| format!("`{c}`")).collect();
    let _ = writeln!(out, "**Changes.** {}\n", changes.join(", "));
    if !v.incompatible.is_empty() {
        let inc: Vec<String> = v.incompatible.iter().map(|c| format!("`{c}`")).collect();
        let _ = writeln!(out, "**Incompatible with.** {}\n", inc.join(", "));
    }
    let scoped = scoped_interpretations(rules, &v.id);
    if !scoped.is_empty() {
        let links: Vec<String> = scoped.iter().map(|i| format!("[`{i}`](#{i})")).collect();
        let _ = writeln!(out, "**Interpretations consulted only under it.** {}\n", links.join(", "));
    }
    let _ = writeln!(out, "**Sources.**\n");
    let _ = writeln!(out, "| document | place | says |");
    let _ = writeln!(out, "|---|---|---|");
    for c in &v.source {
        let _ = writeln!(out, "| {} | {} | {} |", c.doc, md(&c.reference), md(c.says.as_deref().unwrap_or("")));
    }
}

// ----------------------------------------------------------------- diff

/// A differential run of one interpretation: the same games under each option.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DiffSummary {
    pub game: String,
    pub interpretation: String,
    /// The base configuration (without the interpretation's option or the seed).
    pub config: String,
    /// The options compared; the first is the base every other is compared with.
    pub options: Vec<String>,
    pub games: u64,
    /// Game i plays with seed `seed + i`.
    pub seed: u64,
    /// Games in which the engine consulted the interpretation, per option
    /// (in the order of `options`).
    pub consulted_per_option: Vec<u64>,
    /// Games in which the engine consulted it under at least one option.
    pub consulted: u64,
    /// Never consulted: no game can tell the options apart.
    pub dead: bool,
    /// Games that broke down (no end within `MAX_ACTIONS`, a rejected legal action).
    pub failed: u64,
    /// How the games went under each option (in the order of `options`).
    pub per_option: Vec<OptionStats>,
    /// The first option against each other option.
    pub pairs: Vec<PairDiff>,
}

/// The games under one option: wins per seat, draws, mean length. Once
/// play diverges the games are as good as independent, so these (not the
/// share of changed outcomes) show whether an option shifts the balance.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OptionStats {
    pub option: String,
    /// Wins of seat i (p{i+1}).
    pub wins: Vec<u64>,
    pub draws: u64,
    pub mean_actions: f64,
    pub mean_turns: f64,
}

impl OptionStats {
    fn new(option: &str, players: u32) -> OptionStats {
        OptionStats {
            option: option.to_string(),
            wins: vec![0; players as usize],
            draws: 0,
            mean_actions: 0.0,
            mean_turns: 0.0,
        }
    }

    fn add<A>(&mut self, run: &GameRun<A>) {
        if let Some(o) = &run.outcome {
            o.tally(&mut self.wins, &mut self.draws);
        }
        // sums until `finish` divides them
        self.mean_actions += run.actions.len() as f64;
        self.mean_turns += f64::from(run.turns);
    }

    fn finish(&mut self, games: u64) {
        if games > 0 {
            self.mean_actions /= games as f64;
            self.mean_turns /= games as f64;
        }
    }
}

/// The base option against one other option.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairDiff {
    pub base: String,
    pub other: String,
    /// Games with another winner (or a draw on one side only).
    pub outcome_differs: u64,
    /// Games with another number of actions or turns.
    pub length_differs: u64,
    /// Games whose action lists differ at all.
    pub play_differs: u64,
    /// Where the states of the first few diverging games first part.
    pub examples: Vec<Divergence>,
}

/// One game played under two options.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Divergence {
    pub seed: u64,
    /// (base, other), e.g. `p2 wins`.
    pub outcome: (String, String),
    pub actions: (usize, usize),
    pub turns: (u32, u32),
    /// `None` when the states never differ beyond the reading itself.
    pub first_difference: Option<StateDiff>,
}

/// How an outcome reads: `p1 wins`, `draw (turn cap)`, `unfinished`.
pub fn outcome_text(o: Option<&Outcome>) -> String {
    o.map_or_else(|| "unfinished".to_string(), Outcome::to_string)
}

/// Plays `games` random games (game i with seed `seed + i`) under
/// `options[0]` of interpretation `id`, replays each one's choice indices
/// under every other option (going on at random with the same seed when the
/// script runs out), and compares outcomes, lengths and the states. `base`
/// must already enable the variant a variant-scoped interpretation needs
/// (`diff_any` does that).
pub fn diff<G: Scripted>(
    rules: &G::Rules,
    base: &Config,
    id: &str,
    options: &[String],
    games: u64,
    seed: u64,
) -> Result<DiffSummary, ConfigError> {
    let mut plain = base.clone();
    plain.interpretations.remove(id);
    let mut summary = DiffSummary {
        game: base.game.clone(),
        interpretation: id.to_string(),
        config: plain.flags(),
        options: options.to_vec(),
        games: 0,
        seed,
        consulted_per_option: vec![0; options.len()],
        consulted: 0,
        dead: true,
        failed: 0,
        per_option: options.iter().map(|o| OptionStats::new(o, base.players)).collect(),
        pairs: options
            .iter()
            .skip(1)
            .map(|o| PairDiff {
                base: options.first().cloned().unwrap_or_default(),
                other: o.clone(),
                outcome_differs: 0,
                length_differs: 0,
                play_differs: 0,
                examples: Vec::new(),
            })
            .collect(),
    };
    let Some(first) = options.first() else { return Ok(summary) };
    for g in 0..games {
        let s = seed.wrapping_add(g);
        let config_for = |o: &str| Config { seed: s, ..plain.clone() }.with_reading(id, o);
        let config_a = config_for(first);
        let run_a =
            run_game::<G>(rules, &config_a, &mut RandomChooser::new(s), Checks::NONE, None, MAX_ACTIONS, &mut [])?;
        summary.per_option[0].add(&run_a);
        let mut any_consulted = run_a.consulted.iter().any(|c| c == id);
        summary.consulted_per_option[0] += u64::from(any_consulted);
        let mut failed = run_a.failure.is_some();
        for (k, o) in options.iter().enumerate().skip(1) {
            let config_b = config_for(o);
            let mut chooser = ScriptThenRandom::new(&run_a.choices, s);
            let run_b = run_game::<G>(rules, &config_b, &mut chooser, Checks::NONE, None, MAX_ACTIONS, &mut [])?;
            summary.per_option[k].add(&run_b);
            let consulted = run_b.consulted.iter().any(|c| c == id);
            summary.consulted_per_option[k] += u64::from(consulted);
            any_consulted |= consulted;
            failed |= run_b.failure.is_some();
            let pair = &mut summary.pairs[k - 1];
            // who wins, and why the game ended (scores may differ without it)
            let outcome = outcome_key(run_a.outcome.as_ref()) != outcome_key(run_b.outcome.as_ref());
            let length = run_a.actions.len() != run_b.actions.len() || run_a.turns != run_b.turns;
            let play = run_a.actions != run_b.actions;
            pair.outcome_differs += u64::from(outcome);
            pair.length_differs += u64::from(length);
            pair.play_differs += u64::from(play);
            if (outcome || length || play) && pair.examples.len() < EXAMPLES {
                pair.examples.push(Divergence {
                    seed: s,
                    outcome: (outcome_text(run_a.outcome.as_ref()), outcome_text(run_b.outcome.as_ref())),
                    actions: (run_a.actions.len(), run_b.actions.len()),
                    turns: (run_a.turns, run_b.turns),
                    first_difference: first_difference::<G>(
                        rules,
                        &config_a,
                        &config_b,
                        &run_a.actions,
                        &run_b.actions,
                    ),
                });
            }
        }
        summary.consulted += u64::from(any_consulted);
        summary.failed += u64::from(failed);
        summary.games += 1;
    }
    for o in &mut summary.per_option {
        o.finish(summary.games);
    }
    summary.dead = summary.consulted == 0;
    Ok(summary)
}

/// The options `diff_any` compares when none are given: the default
/// first, then the others in catalog order.
pub fn default_first(i: &Interpretation) -> Vec<String> {
    let mut out = vec![i.default.clone()];
    out.extend(i.option_ids().filter(|o| *o != i.default).map(str::to_string));
    out
}

/// `diff` for any loaded game: checks the interpretation and the options
/// (none given: every option, the default first), enables the variant a
/// variant-scoped interpretation needs, and dispatches to the typed game.
pub fn diff_any(
    rules: &AnyRules,
    base: &Config,
    id: &str,
    options: &[String],
    games: u64,
    seed: u64,
) -> Result<DiffSummary, String> {
    let Some(i) = rules.interpretations().iter().find(|i| i.id == id) else {
        let known: Vec<&str> = rules.interpretations().iter().map(|i| i.id.as_str()).collect();
        return Err(format!("unknown interpretation `{id}` of {}; known: {}", rules.id(), known.join(", ")));
    };
    if let Some(why) = &i.inert {
        return Err(format!("interpretation `{id}` is inert (the engine does not branch on it): {why}"));
    }
    let options = if options.is_empty() { default_first(i) } else { options.to_vec() };
    if options.len() < 2 {
        return Err(format!("a differential run needs two options of `{id}`; its options: {}", option_list(i)));
    }
    for o in &options {
        if !i.option_ids().any(|x| x == o) {
            return Err(format!("interpretation `{id}` has no option `{o}`; its options: {}", option_list(i)));
        }
    }
    let mut config = base.clone();
    config.game = rules.id().to_string();
    if let Some(v) = &i.variant {
        config.variants.insert(v.clone());
    }
    let result = with_game!(rules, |r, G| diff::<G>(r, &config, id, &options, games, seed));
    result.map_err(|e| e.to_string())
}

fn option_list(i: &Interpretation) -> String {
    i.option_ids().collect::<Vec<_>>().join(", ")
}

/// `diff_any` over every live interpretation, by id.
pub fn diff_all(
    rules: &AnyRules,
    base: &Config,
    games: u64,
    seed: u64,
) -> Result<BTreeMap<String, DiffSummary>, String> {
    let mut out = BTreeMap::new();
    for i in rules.interpretations().iter().filter(|i| i.inert.is_none()) {
        out.insert(i.id.clone(), diff_any(rules, base, &i.id, &[], games, seed)?);
    }
    Ok(out)
}

fn percent(n: u64, of: u64) -> String {
    if of == 0 { "–".to_string() } else { format!("{:.1}%", 100.0 * n as f64 / of as f64) }
}

/// The summary lines of a differential run (without its examples).
fn diff_lines(d: &DiffSummary) -> Vec<String> {
    let mut out = Vec::new();
    let per: Vec<String> = d.options.iter().zip(&d.consulted_per_option).map(|(o, n)| format!("{o} {n}")).collect();
    out.push(format!(
        "reachability: consulted in {}/{} games ({}){}",
        d.consulted,
        d.games,
        per.join(", "),
        if d.dead { " — DEAD: never consulted, no game tells the options apart" } else { "" }
    ));
    for p in &d.pairs {
        out.push(format!(
            "{} → {}: outcome differs in {}/{} ({}), length in {}/{} ({}), play in {}/{}",
            p.base,
            p.other,
            p.outcome_differs,
            d.games,
            percent(p.outcome_differs, d.games),
            p.length_differs,
            d.games,
            percent(p.length_differs, d.games),
            p.play_differs,
            d.games
        ));
    }
    if !d.dead && d.pairs.iter().all(|p| p.play_differs == 0) {
        out.push(
            "consulted, yet no game played differently: in these games the options never lead to another \
             legal action or outcome"
                .to_string(),
        );
    }
    if d.failed > 0 {
        out.push(format!("{} game(s) broke down (no end or a rejected legal action)", d.failed));
    }
    out
}

/// A differential run as text, with where the first diverging games part.
pub fn render_diff(d: &DiffSummary) -> String {
    let mut out = String::new();
    let _ =
        writeln!(out, "diff {} {}: {} games from seed {} ({})", d.game, d.interpretation, d.games, d.seed, d.config);
    for line in diff_lines(d) {
        let _ = writeln!(out, "  {line}");
    }
    for o in &d.per_option {
        let wins: Vec<String> = o.wins.iter().enumerate().map(|(s, n)| format!("p{} {n}", s + 1)).collect();
        let _ = writeln!(
            out,
            "  under {}: wins {}, draws {}; mean {:.1} actions, {:.1} turns",
            o.option,
            wins.join(", "),
            o.draws,
            o.mean_actions,
            o.mean_turns
        );
    }
    for p in &d.pairs {
        for e in &p.examples {
            let _ = writeln!(
                out,
                "  seed {} ({} → {}): {} / {}; {} / {} actions; {} / {} turns",
                e.seed, p.base, p.other, e.outcome.0, e.outcome.1, e.actions.0, e.actions.1, e.turns.0, e.turns.1
            );
            match &e.first_difference {
                None => {
                    let _ = writeln!(out, "    the states never differ beyond the reading itself");
                }
                Some(f) => {
                    let _ = writeln!(out, "    first difference after action {}: {}", f.step, f.action);
                    if let Some(o) = &f.other_action {
                        let _ = writeln!(out, "      (under {}: {o})", p.other);
                    }
                    for k in &f.keys {
                        let _ = writeln!(out, "      {}: {} | {}", k.path, k.base, k.other);
                    }
                    if f.total_keys > f.keys.len() {
                        let _ = writeln!(out, "      … and {} more key(s)", f.total_keys - f.keys.len());
                    }
                }
            }
        }
    }
    out
}

/// One row per interpretation: reachability and how often each other
/// option changes the outcome.
pub fn render_diff_table(stats: &BTreeMap<String, DiffSummary>) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{:<26} {:>10}  outcome changes (default → option)", "interpretation", "consulted");
    for d in stats.values() {
        let pairs: Vec<String> =
            d.pairs.iter().map(|p| format!("{} {}", p.other, percent(p.outcome_differs, d.games))).collect();
        let _ = writeln!(
            out,
            "{:<26} {:>10}  {}",
            d.interpretation,
            format!("{}/{}", d.consulted, d.games),
            if d.dead {
                "DEAD (never consulted)".to_string()
            } else if d.pairs.iter().all(|p| p.play_differs == 0) {
                format!("{} — consulted, yet no game played differently", pairs.join(", "))
            } else {
                pairs.join(", ")
            }
        );
    }
    out
}

// ------------------------------------------------------------ win rates

/// Per-seat win rates and game lengths over seeded random games.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WinRates {
    pub config: String,
    pub games: u64,
    pub seed: u64,
    /// Seat i (p{i+1}): its wins over all games, with the Wilson interval.
    pub seats: Vec<Estimate>,
    pub wins: Vec<u64>,
    pub draws: u64,
    /// Games that broke down (counted in `games`, not won by anyone).
    pub failed: u64,
    pub mean_actions: Estimate,
    pub mean_turns: Estimate,
}

/// Plays `games` random games (game i: seed `seed + i`, `RandomChooser::new(seed + i)`,
/// no checks) and measures each seat's win rate and the game length.
pub fn win_rates<G: Harnessed>(
    rules: &G::Rules,
    config: &Config,
    games: u64,
    seed: u64,
) -> Result<WinRates, ConfigError> {
    let mut wins = vec![0u64; config.players as usize];
    let (mut draws, mut failed) = (0, 0);
    let mut actions = Vec::new();
    let mut turns = Vec::new();
    for g in 0..games {
        let s = seed.wrapping_add(g);
        let c = Config { seed: s, ..config.clone() };
        let run = run_game::<G>(rules, &c, &mut RandomChooser::new(s), Checks::NONE, None, MAX_ACTIONS, &mut [])?;
        if let Some(o) = &run.outcome {
            o.tally(&mut wins, &mut draws);
        }
        failed += u64::from(run.failure.is_some());
        actions.push(run.actions.len() as f64);
        turns.push(f64::from(run.turns));
    }
    Ok(WinRates {
        config: config.flags(),
        games,
        seed,
        seats: wins.iter().map(|&w| wilson(w, games)).collect(),
        wins,
        draws,
        failed,
        mean_actions: mean_interval(&actions),
        mean_turns: mean_interval(&turns),
    })
}

/// `win_rates` for any loaded game.
pub fn win_rates_any(rules: &AnyRules, config: &Config, games: u64, seed: u64) -> Result<WinRates, String> {
    let result = with_game!(rules, |r, G| win_rates::<G>(r, config, games, seed));
    result.map_err(|e| e.to_string())
}

pub fn render_win_rates(w: &WinRates) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "win rates {}: {} games from seed {}", w.config, w.games, w.seed);
    for (i, (e, n)) in w.seats.iter().zip(&w.wins).enumerate() {
        let _ = writeln!(out, "  p{}: {n} wins, {:.3} (95% {:.3}–{:.3})", i + 1, e.value, e.low, e.high);
    }
    let _ = writeln!(out, "  draws: {}, broke down: {}", w.draws, w.failed);
    let m = &w.mean_actions;
    let _ = writeln!(out, "  mean length: {:.1} actions (95% {:.1}–{:.1})", m.value, m.low, m.high);
    let t = &w.mean_turns;
    let _ = writeln!(out, "  mean length: {:.1} turns (95% {:.1}–{:.1})", t.value, t.low, t.high);
    out
}
