//! Where two games played under different readings part: the first step
//! at which their states differ, said in the game's scenario words
//! (`seats.p1.hand.lumber: 3 | 4`) where it has them, else as state paths.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use serde_json::Value;

use crate::engine::{Config, Facts, Scripted};

/// How many differing keys a first-difference report lists.
const MAX_KEYS: usize = 8;

/// How many characters of a JSON value a first-difference report shows.
const MAX_VALUE_CHARS: usize = 80;

/// The first step at which two lock-step states serialise differently.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StateDiff {
    /// The action (1-based) after which the states first differ.
    pub step: usize,
    /// The action taken at that step under the base option.
    pub action: String,
    /// The action taken under the other option, when it is another one.
    pub other_action: Option<String>,
    /// The differing keys (JSON paths) with both values, truncated.
    pub keys: Vec<KeyDiff>,
    /// How many differing keys there were in all.
    pub total_keys: usize,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct KeyDiff {
    pub path: String,
    pub base: String,
    pub other: String,
}

/// Every leaf where two JSON values differ: (path, a, b). Objects are
/// compared key by key and arrays of equal length element by element;
/// arrays of different lengths differ as a whole.
pub fn json_diff(a: &Value, b: &Value) -> Vec<(String, Value, Value)> {
    let mut out = Vec::new();
    json_diff_at("", a, b, &mut out);
    out
}

fn json_diff_at(path: &str, a: &Value, b: &Value, out: &mut Vec<(String, Value, Value)>) {
    if a == b {
        return;
    }
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            for k in keys {
                let p = if path.is_empty() { k.clone() } else { format!("{path}.{k}") };
                json_diff_at(&p, x.get(k).unwrap_or(&Value::Null), y.get(k).unwrap_or(&Value::Null), out);
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (n, (u, v)) in x.iter().zip(y).enumerate() {
                json_diff_at(&format!("{path}[{n}]"), u, v, out);
            }
        }
        _ => out.push((if path.is_empty() { "(state)".to_string() } else { path.to_string() }, a.clone(), b.clone())),
    }
}

/// The facts (`seats.p1.hand.lumber`) that differ; a fact one side lacks reads
/// 0 when the other side counts, else `none`.
fn fact_diff(fa: &Facts, fb: &Facts) -> Vec<(String, Value, Value)> {
    let keys: BTreeSet<&String> = fa.iter().chain(fb.iter()).map(|(k, _)| k).collect();
    let absent = |other: Option<&Value>| match other {
        Some(Value::Number(_)) => Value::from(0),
        _ => Value::String("none".into()),
    };
    keys.into_iter()
        .filter(|k| fa.get(k) != fb.get(k))
        .map(|k| {
            let (x, y) = (fa.get(k), fb.get(k));
            (k.clone(), x.cloned().unwrap_or_else(|| absent(y)), y.cloned().unwrap_or_else(|| absent(x)))
        })
        .collect()
}

fn truncate(v: &Value) -> String {
    let s = match v {
        Value::String(s) => s.clone(),
        _ => v.to_string(),
    };
    if s.chars().count() <= MAX_VALUE_CHARS {
        s
    } else {
        format!("{}…", s.chars().take(MAX_VALUE_CHARS).collect::<String>())
    }
}

/// Replays two action lists in lock step and finds the first step at which
/// the serialised states differ. Differences already present in the initial
/// states (the configuration itself, e.g. the reading) are ignored while
/// both sides keep their initial values.
pub(super) fn first_difference<G: Scripted>(
    rules: &G::Rules,
    config_a: &Config,
    config_b: &Config,
    actions_a: &[G::Action],
    actions_b: &[G::Action],
) -> Option<StateDiff> {
    let mut a = G::new(rules, config_a).ok()?;
    let mut b = G::new(rules, config_b).ok()?;
    let json = |s: &G| serde_json::to_value(s).expect("states serialise to JSON");
    let initial: BTreeMap<String, (Value, Value)> =
        json_diff(&json(&a), &json(&b)).into_iter().map(|(p, x, y)| (p, (x, y))).collect();
    for step in 0..actions_a.len().max(actions_b.len()) {
        if let Some(x) = actions_a.get(step) {
            a.apply(rules, x).ok()?;
        }
        if let Some(y) = actions_b.get(step) {
            b.apply(rules, y).ok()?;
        }
        let diffs: Vec<(String, Value, Value)> = json_diff(&json(&a), &json(&b))
            .into_iter()
            .filter(|(p, x, y)| initial.get(p).is_none_or(|(x0, y0)| x != x0 || y != y0))
            .collect();
        if diffs.is_empty() {
            continue;
        }
        // in scenario words where the game has them, else the state's paths
        let facts = fact_diff(&a.facts(rules), &b.facts(rules));
        let diffs = if facts.is_empty() { diffs } else { facts };
        let describe = |x: Option<&G::Action>| x.map(|x| G::describe_action(rules, x)).unwrap_or("(game over)".into());
        let action = describe(actions_a.get(step));
        let other = describe(actions_b.get(step));
        return Some(StateDiff {
            step: step + 1,
            other_action: (other != action).then_some(other),
            action,
            total_keys: diffs.len(),
            keys: diffs
                .iter()
                .take(MAX_KEYS)
                .map(|(p, x, y)| KeyDiff { path: p.clone(), base: truncate(x), other: truncate(y) })
                .collect(),
        });
    }
    None
}
