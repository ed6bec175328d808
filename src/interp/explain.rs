//! `explain`: every interpretation and variant of a game in plain text.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::diff::{DiffSummary, diff_lines, render_diff_table};
use super::scenarios::{ScenarioRef, bundled_scenarios, scenarios_by_interpretation};
use super::{kind_meaning, witness};
use crate::catalog::common::{Citation, Interpretation, Variant};
use crate::games::AnyRules;

/// How a scenario uses an interpretation: `tells apart a, b`, `runs a`, or
/// `runs the default a (named in its description)`.
pub(super) fn scenario_use(r: &ScenarioRef, markdown: bool) -> String {
    let opts: Vec<String> = r.options.iter().map(|o| if markdown { format!("`{o}`") } else { o.clone() }).collect();
    if !r.named_in_config {
        format!("runs the default {} (named in its description)", opts.join(", "))
    } else if r.distinguishes() {
        format!("tells apart {}", opts.join(", "))
    } else {
        format!("runs {}", opts.join(", "))
    }
}

pub(super) fn citation_line(c: &Citation) -> String {
    match &c.says {
        Some(s) => format!("{c} — {s}"),
        None => c.to_string(),
    }
}

pub(super) fn variant_name<'a>(rules: &'a AnyRules, id: &'a str) -> &'a str {
    rules.variants().iter().find(|v| v.id == id).map(|v| v.name.as_str()).unwrap_or(id)
}

/// One line saying whether the engine branches on `i`.
pub(super) fn status_line(rules: &AnyRules, i: &Interpretation) -> String {
    match (&i.inert, &i.variant) {
        (Some(why), _) => format!("inert — the engine does not branch on it: {why}"),
        (None, Some(v)) => format!(
            "live, but consulted only under the variant `{v}` ({}); run it with --variant {v}",
            variant_name(rules, v)
        ),
        // a reading is consulted where its rule comes up, not in every game
        (None, None) => {
            "live — tied to no variant, so any game may consult it (`diff` counts the games that do)".to_string()
        }
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
            let _ = writeln!(out, "\nRules the engine checks (a refused action names one), with their places:");
            for (rule, places) in rules.rules() {
                let _ = writeln!(out, "  {rule} — {places}");
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
pub(super) fn data_note(rules: &AnyRules, data: &[crate::catalog::common::Change]) -> String {
    if data.is_empty() {
        return String::new();
    }
    let parts: Vec<String> = data.iter().map(|c| rules.describe_change(c)).collect();
    format!(" [{}]", parts.join("; "))
}

pub(super) fn unknown_id(rules: &AnyRules, id: &str) -> String {
    let interps: Vec<&str> = rules.interpretations().iter().map(|i| i.id.as_str()).collect();
    let variants: Vec<&str> = rules.variants().iter().map(|v| v.id.as_str()).collect();
    format!(
        "`{id}` is neither an interpretation nor a variant of {}; interpretations: {}; variants: {}",
        rules.id(),
        interps.join(", "),
        variants.join(", ")
    )
}

pub(super) fn explain_interpretation(
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

pub(super) fn explain_variant(out: &mut String, rules: &AnyRules, v: &Variant) {
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

pub(super) fn scoped_interpretations<'a>(rules: &'a AnyRules, variant: &str) -> Vec<&'a str> {
    rules.interpretations().iter().filter(|i| i.variant.as_deref() == Some(variant)).map(|i| i.id.as_str()).collect()
}
