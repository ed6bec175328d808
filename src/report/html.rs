//! The report as one HTML page: inline style, inline SVG charts, and one
//! small inline script that records script errors and measures every chart
//! into the page (`#rc-measure`), which the browser test reads. Nothing is
//! loaded from anywhere.

use std::fmt::Write;

use super::charts::{self, cell_colour, hex};
use super::{GameReport, Report, coverage_kinds};
use crate::matrix::Cell;

const STYLE: &str = "body{font-family:sans-serif;margin:1.5em;color:#222;max-width:1400px}
h1{font-size:1.6em}h2{border-bottom:2px solid #468;padding-bottom:.2em;margin-top:2em}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:2px 8px;text-align:left}
td.n{text-align:right}tr.never td{background:#fde2e2;color:#900;font-weight:bold}
figure.chart{margin:.5em 0;display:block;width:fit-content;max-width:100%}figure.chart svg{display:block;max-width:100%;height:auto}
.scroll{overflow-x:auto;max-width:100%}.scroll figure.chart svg{max-width:none}
figcaption{font-size:.9em;color:#555}.note{color:#555;font-style:italic}
.swatch{display:inline-block;width:1em;height:1em;vertical-align:middle;margin:0 .3em 0 1em;border:1px solid #999}
.cols{columns:3}";

/// Records script errors (and `console.error`) and, once the page has
/// loaded, every chart's size, as JSON in `#rc-measure`.
const SCRIPT: &str = "var rcErrors=[];
window.onerror=function(m){rcErrors.push(String(m));};
(function(){var e=console.error;console.error=function(){rcErrors.push(Array.prototype.join.call(arguments,' '));e.apply(console,arguments);};})();
window.addEventListener('load',function(){
 var charts=[];
 document.querySelectorAll('figure.chart').forEach(function(f){
  var s=f.querySelector('svg');var r=s?s.getBoundingClientRect():{width:0,height:0};
  charts.push({id:f.id,width:r.width,height:r.height});});
 document.getElementById('rc-measure').textContent=JSON.stringify({charts:charts,errors:rcErrors});
});";

pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// A page around `body`, with the style, the measuring script and the
/// element it writes into.
pub fn page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title>\n<style>{STYLE}</style>\n<script>{SCRIPT}</script></head>\n<body>\n{body}\n<pre id=\"rc-measure\" hidden></pre>\n</body></html>\n",
        escape(title)
    )
}

/// A chart in its figure (the measuring script finds it by class), or
/// the error plotters gave instead.
fn figure(out: &mut String, id: &str, svg: Result<String, String>, caption: &str) {
    figure_titled(out, id, svg, caption, "");
}

/// `figure` with a tooltip (`title`) on the whole figure, when not empty.
fn figure_titled(out: &mut String, id: &str, svg: Result<String, String>, caption: &str, title: &str) {
    match svg {
        Ok(svg) => {
            let title = if title.is_empty() { String::new() } else { format!(" title=\"{}\"", escape(title)) };
            let _ = writeln!(
                out,
                "<figure class=\"chart\" id=\"{}\"{title}>{svg}<figcaption>{}</figcaption></figure>",
                escape(id),
                escape(caption)
            );
        }
        Err(e) => {
            let _ = writeln!(out, "<p class=\"note\">chart {} could not be drawn: {}</p>", escape(id), escape(&e));
        }
    }
}

/// The whole report as a page.
pub fn render(r: &Report) -> String {
    let mut b = String::new();
    let _ = writeln!(
        b,
        "<h1>rulecheck report</h1>\n<p>Seed {}, budget {:.1}s, run in {:.1}s. Games: {}.</p>",
        r.seed,
        r.budget_seconds,
        r.seconds,
        r.games.iter().map(|g| format!("<a href=\"#{0}\">{0}</a>", escape(&g.game))).collect::<Vec<_>>().join(", ")
    );
    for g in &r.games {
        game(&mut b, g);
    }
    page("rulecheck report", &b)
}

fn game(b: &mut String, g: &GameReport) {
    let id = escape(&g.game);
    let _ = writeln!(b, "<section id=\"{id}\"><h2>{} ({id})</h2>", escape(&g.name));
    let _ = writeln!(b, "<h3>Catalog</h3><table>");
    let _ = writeln!(b, "<tr><th>players</th><td class=\"n\">{}–{}</td></tr>", g.min_players, g.max_players);
    for (kind, n) in &g.entities {
        let _ = writeln!(b, "<tr><th>{}</th><td class=\"n\">{n}</td></tr>", escape(kind));
    }
    let _ = writeln!(b, "<tr><th>variants</th><td class=\"n\">{}</td></tr>", g.variants);
    let _ = writeln!(
        b,
        "<tr><th>interpretations (live)</th><td class=\"n\">{} ({})</td></tr>",
        g.interpretations, g.interpretations_live
    );
    let _ = writeln!(b, "<tr><th>numbers cited</th><td class=\"n\">{}</td></tr>", g.numbers_cited);
    let _ = writeln!(
        b,
        "<tr><th>numbers assumed (assumption debt)</th><td class=\"n\">{}</td></tr></table>",
        g.numbers_assumed
    );
    if !g.failures.is_empty() {
        let _ = writeln!(b, "<p><strong>Failures:</strong></p><ul>");
        for f in &g.failures {
            let _ = writeln!(b, "<li>{}</li>", escape(f));
        }
        let _ = writeln!(b, "</ul>");
    }
    readings(b, g);
    sensitivity(b, g);
    matrix(b, g);
    configurations(b, g);
    invariants(b, g);
    coverage(b, g);
    let _ = writeln!(b, "</section>");
}

fn readings(b: &mut String, g: &GameReport) {
    let r = &g.readings;
    let _ = writeln!(
        b,
        "<h3>Interpretations</h3><p>Each live reading's default against each other option, {} paired random games each ({}): the same choices replayed under both.</p>",
        r.games,
        escape(&r.config)
    );
    if !r.rows.is_empty() {
        figure(
            b,
            &format!("{}-readings", g.game),
            charts::readings_chart(&r.rows),
            "outcome changed, share of paired games",
        );
        let _ = writeln!(
            b,
            "<table><tr><th>reading</th><th>default</th><th>option</th><th>consulted</th><th>outcome changed</th><th>95% interval</th></tr>"
        );
        for row in &r.rows {
            let _ = writeln!(
                b,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td class=\"n\">{}/{}</td><td class=\"n\">{}/{}</td><td class=\"n\">{:.0}–{:.0}%</td></tr>",
                escape(&row.interpretation),
                escape(&row.base),
                escape(&row.option),
                row.consulted,
                row.games,
                row.outcome_differs,
                row.games,
                row.share.low * 100.0,
                row.share.high * 100.0
            );
        }
        let _ = writeln!(b, "</table>");
    }
    if !r.not_measured.is_empty() {
        let _ =
            writeln!(b, "<p class=\"note\">Not paired within the budget: {}.</p>", escape(&r.not_measured.join(", ")));
    }
    for e in &r.errors {
        let _ = writeln!(b, "<p class=\"note\">Not paired: {}</p>", escape(e));
    }
}

/// The groups of assumed numbers whose change moves the outcome most.
fn sensitivity(b: &mut String, g: &GameReport) {
    let s = &g.sensitivity;
    let _ = writeln!(
        b,
        "<h3>Which assumed numbers matter</h3><p>Each group of numbers the catalog marks <code>assumed</code> is changed in the catalog (halved, doubled, ±1, one moved from the largest to the smallest) and the same {} seeds are played under the base and the change ({}); a group's bar is its largest change. A short run: <code>rulecheck sensitivity --game {}</code> measures more seeds.</p>",
        s.games,
        escape(&s.config),
        escape(&g.game)
    );
    if let Some(e) = &s.error {
        let _ = writeln!(b, "<p class=\"note\">Not measured: {}</p>", escape(e));
    }
    if !s.rows.is_empty() {
        figure(
            b,
            &format!("{}-sensitivity", g.game),
            charts::sensitivity_chart(&s.rows),
            "outcome moved, share of seeds",
        );
        let _ = writeln!(
            b,
            "<table><tr><th>rank</th><th>group</th><th>numbers</th><th>change</th><th>outcome changed</th><th>seat most moved</th><th>length (turns)</th></tr>"
        );
        for (k, r) in s.rows.iter().enumerate() {
            let _ = writeln!(
                b,
                "<tr><td class=\"n\">{}</td><td>{} <span class=\"note\">{}</span></td><td class=\"n\">{}</td><td>{}</td><td class=\"n\">{:.0}% ({:.0}–{:.0}%)</td><td>{} {:+.2}</td><td class=\"n\">{:+.1}</td></tr>",
                k + 1,
                escape(&r.group),
                escape(&r.at),
                r.sites,
                escape(&r.change),
                r.changed.value * 100.0,
                r.changed.low * 100.0,
                r.changed.high * 100.0,
                escape(&r.seat),
                r.win_shift.value,
                r.turns.value
            );
        }
        let _ = writeln!(b, "</table>");
    }
    if !s.not_measured.is_empty() {
        let _ = writeln!(
            b,
            "<p class=\"note\">Not measured within the budget: {}.</p>",
            escape(&s.not_measured.join(", "))
        );
    }
}

fn matrix(b: &mut String, g: &GameReport) {
    let m = &g.matrix;
    let _ = writeln!(
        b,
        "<h3>Scenarios × interpretations</h3><p>{} scenarios, each run under every option of every live reading.",
        m.rows.len()
    );
    for c in [Cell::Same, Cell::Different, Cell::Fails, Cell::Illegal] {
        let word = match c {
            Cell::Same => "same final state",
            Cell::Different => "different final state",
            Cell::Fails => "an expectation fails",
            Cell::Illegal => "a step becomes illegal",
        };
        let _ = write!(b, "<span class=\"swatch\" style=\"background:{}\"></span>{word}", hex(cell_colour(c)));
    }
    let _ = writeln!(b, "</p>");
    if g.matrix_rows_left > 0 {
        let _ = writeln!(
            b,
            "<p class=\"note\">{} scenario file(s) were left out: the budget ran out.</p>",
            g.matrix_rows_left
        );
    }
    if !m.rows.is_empty() && !m.columns.is_empty() {
        // a wide grid scrolls inside its box, not the page
        let _ = writeln!(b, "<div class=\"scroll\">");
        figure(b, &format!("{}-matrix", g.game), charts::matrix_chart(m), "scenario × reading option");
        let _ = writeln!(b, "</div>");
    }
    if !m.undistinguished.is_empty() {
        let _ = writeln!(
            b,
            "<p>No distinguishing scenario among these rows: {}.</p>",
            escape(&m.undistinguished.join(", "))
        );
    }
}

fn configurations(b: &mut String, g: &GameReport) {
    let _ = writeln!(b, "<h3>Random play per configuration</h3>");
    if !g.configurations_not_fuzzed.is_empty() {
        let _ = writeln!(
            b,
            "<p class=\"note\">{} of {} configuration(s) were not fuzzed: the budget ran out. Coverage and invariant counts are of the others.</p>",
            g.configurations_not_fuzzed.len(),
            g.configurations_not_fuzzed.len() + g.configurations.len()
        );
    }
    for (k, c) in g.configurations.iter().enumerate() {
        let caption = format!("{} — {} games, {} without a winner", c.short_name(), c.games, c.no_winner);
        if c.games == 0 {
            let _ = writeln!(b, "<p class=\"note\">{}: no game played.</p>", escape(&c.config));
            continue;
        }
        figure_titled(b, &format!("{}-config-{k}", g.game), charts::config_chart(c), &caption, &c.config);
    }
}

fn invariants(b: &mut String, g: &GameReport) {
    let _ = writeln!(
        b,
        "<h3>Invariants</h3><p>Times each was evaluated (after every action of every fuzzed game).</p><table><tr><th>invariant</th><th>evaluated</th></tr>"
    );
    for (name, n) in &g.invariants {
        let class = if *n == 0 { " class=\"never\"" } else { "" };
        let _ = writeln!(b, "<tr{class}><td>{}</td><td class=\"n\">{n}</td></tr>", escape(name));
    }
    let _ = writeln!(b, "</table>");
}

fn coverage(b: &mut String, g: &GameReport) {
    let kinds = coverage_kinds(&g.coverage);
    let never =
        g.coverage.values().filter(|n| **n == 0).count() + g.variant_games.values().filter(|n| **n == 0).count();
    let _ = writeln!(
        b,
        "<h3>Rule coverage</h3><p>How often each entity took effect in random play, as the game's coverage hook counts it ({}); never reached: {never}, highlighted. Entity kinds the hook does not count are not collected and not shown.</p>",
        escape(&kinds.join(", "))
    );
    let _ = writeln!(b, "<div class=\"cols\"><table><tr><th>entity</th><th>took effect</th></tr>");
    for (key, n) in &g.coverage {
        let class = if *n == 0 { " class=\"never\"" } else { "" };
        let _ = writeln!(b, "<tr{class}><td>{}</td><td class=\"n\">{n}</td></tr>", escape(key));
    }
    for (v, n) in &g.variant_games {
        let class = if *n == 0 { " class=\"never\"" } else { "" };
        let _ = writeln!(
            b,
            "<tr{class}><td>variant:{} (games played with it)</td><td class=\"n\">{n}</td></tr>",
            escape(v)
        );
    }
    let _ = writeln!(b, "</table></div>");
}
