//! The edge-case book: `explain` as Markdown, committed as
//! `docs/<game>-edge-cases.md`.

use std::fmt::Write as _;

use super::explain::{data_note, scenario_use, scoped_interpretations, unknown_id, variant_name};
use super::scenarios::{ScenarioRef, bundled_scenarios, scenarios_by_interpretation};
use super::{doubt, kind_meaning, witness};
use crate::catalog::common::{Interpretation, Variant};
use crate::games::AnyRules;

/// Escapes text for a Markdown table cell or list item.
pub(super) fn md(s: &str) -> String {
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
        "<!-- Generated from rules/{game}/interpretations.yaml, rules/{game}/variants.yaml, \
         rules/{game}/game.yaml and the bundled scenarios. Do not edit by hand; regenerate with `{}`. -->\n",
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
    let _ = writeln!(out, "\n[Rules the engine checks](#rules-the-engine-checks)");
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
    book_rules(&mut out, rules);
    out + &doubt::book_section(rules)
}

/// The rules a refused action names (`game.rules`), each with its places.
fn book_rules(out: &mut String, rules: &AnyRules) {
    let _ = writeln!(out, "\n<a id=\"rules-the-engine-checks\"></a>\n\n## Rules the engine checks\n");
    let _ = writeln!(out, "A refused action names one of these rules, and the error cites its places.\n");
    for (rule, places) in rules.rules() {
        let _ = writeln!(out, "- `{rule}` — {}", md(&places));
    }
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

pub(super) fn book_interpretation(out: &mut String, rules: &AnyRules, i: &Interpretation, refs: &[ScenarioRef]) {
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

pub(super) fn book_variant(out: &mut String, rules: &AnyRules, v: &Variant) {
    let _ = writeln!(out, "\n<a id=\"variant-{}\"></a>\n\n### {} (`{}`)\n", v.id, md(&v.name), v.id);
    let _ = writeln!(out, "{}\n", md(&v.summary));
    let changes: Vec<String> = v.changes.iter().map(|c| format!("`{c}`")).collect();
    // what it changes as data, as the options' table says it
    let _ = writeln!(out, "**Changes.** {}{}\n", changes.join(", "), md(&data_note(rules, &v.data)));
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
