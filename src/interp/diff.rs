//! `diff`: the same random games under two or more options of one
//! interpretation, and how often the outcome and the length change.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

use super::parting::{StateDiff, first_difference};
use super::{EXAMPLES, MAX_ACTIONS};
use crate::catalog::common::Interpretation;
use crate::check::fuzz::outcome_key;
use crate::check::playout::{RandomChooser, Recording, ScriptThenRandom};
use crate::check::suite::{Checks, GameRun, run_game};
use crate::engine::{Config, ConfigError, Outcome, Scripted, seat_name};
use crate::games::{AnyRules, with_game};

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
/// `options[0]` of interpretation `id`, follows each one's choices under
/// every other option while the nodes list the same actions (going on at
/// random with the same seed from the first node that lists others, or
/// when the record runs out: `ScriptThenRandom::following`),
/// and compares outcomes, lengths and the states. `base`
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
        let mut recorded = Recording { inner: RandomChooser::new(s), keys: Vec::new() };
        let run_a = run_game::<G>(rules, &config_a, &mut recorded, Checks::NONE, None, MAX_ACTIONS, &mut [])?;
        summary.per_option[0].add(&run_a);
        let mut any_consulted = run_a.consulted.iter().any(|c| c == id);
        summary.consulted_per_option[0] += u64::from(any_consulted);
        let mut failed = run_a.failure.is_some();
        for (k, o) in options.iter().enumerate().skip(1) {
            let config_b = config_for(o);
            let mut chooser = ScriptThenRandom::following(&run_a.choices, &recorded.keys, s);
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

pub(super) fn option_list(i: &Interpretation) -> String {
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

pub(super) fn percent(n: u64, of: u64) -> String {
    if of == 0 { "–".to_string() } else { format!("{:.1}%", 100.0 * n as f64 / of as f64) }
}

/// The summary lines of a differential run (without its examples).
pub(super) fn diff_lines(d: &DiffSummary) -> Vec<String> {
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
        let wins: Vec<String> = o.wins.iter().enumerate().map(|(s, n)| format!("{} {n}", seat_name(s))).collect();
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
