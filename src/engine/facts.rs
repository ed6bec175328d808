//! The facts of a state in scenario words, flat: `money.p1` → `2000`,
//! `squares.saloon.b2` → `p1`. A game lists every fact a scenario's
//! `expect:` block can name (`Scripted::facts`); the one comparison here
//! checks an expectation against them, and `diff` says where two games
//! part in the same words. A game writes its facts once, not a comparison per field.

use std::collections::BTreeMap;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::unapplied::{PathKey, Unapplied};

/// Every fact of one state, by its dotted path.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Facts(BTreeMap<String, Value>);

impl Facts {
    pub fn new() -> Facts {
        Facts::default()
    }

    /// Sets one fact (`path` dotted: `seats.p1.hand.lumber`).
    pub fn set(&mut self, path: impl Into<String>, value: impl Serialize) -> &mut Facts {
        self.0.insert(path.into(), serde_json::to_value(value).unwrap_or(Value::Null));
        self
    }

    /// Sets `key.p1` … `key.pN` from one value per seat.
    pub fn per_seat<T: Serialize>(&mut self, key: &str, seats: usize, f: impl Fn(usize) -> T) -> &mut Facts {
        for s in 0..seats {
            self.set(format!("{key}.{}", super::game::seat_name(s)), f(s));
        }
        self
    }

    /// The facts of any serialisable record of nested maps, flattened.
    pub fn of(record: &impl Serialize) -> Facts {
        let mut f = Facts::new();
        flatten("", &serde_json::to_value(record).unwrap_or(Value::Null), &mut f.0);
        f
    }

    /// The facts under the top-level names `keys`, nested again as a
    /// scenario's `expect:` block writes them: what a recorded scenario
    /// pins of its final state (`Scripted::record_expect`), read from the
    /// same facts an expectation is checked against.
    pub fn record<E: DeserializeOwned + Default>(&self, keys: &[&str]) -> E {
        let mut root = Value::Object(Map::new());
        for (path, v) in self.0.iter().filter(|(p, _)| keys.contains(&p.split('.').next().unwrap_or(p))) {
            let mut at = &mut root;
            for part in path.split('.') {
                let Value::Object(m) = at else { break };
                at = m.entry(part).or_insert_with(|| Value::Object(Map::new()));
            }
            *at = v.clone();
        }
        serde_json::from_value(root).unwrap_or_default()
    }

    pub fn get(&self, path: &str) -> Option<&Value> {
        self.0.get(path)
    }

    pub fn iter(&self) -> impl Iterator<Item = (&String, &Value)> {
        self.0.iter()
    }

    /// Each expectation of `expect` (nested maps, as a scenario writes
    /// them) that these facts do not meet: (fact, expected, actual). A
    /// number expected of a list (`table: {permit-deck: 5}`) is its length.
    /// An expectation that names no fact is an error naming the facts
    /// beside it, at the fact (`PathKey::Fact`).
    pub fn unmet(&self, expect: &impl Serialize) -> Result<Vec<(String, String, String)>, Unapplied> {
        let wanted = Facts::of(expect);
        let mut out = Vec::new();
        for (path, want) in &wanted.0 {
            let Some(have) = self.0.get(path) else {
                return Err(Unapplied { path: vec![PathKey::Fact(path.clone())], message: self.unknown(path) });
            };
            let have = match (want, have) {
                (Value::Number(_), Value::Array(xs)) => &Value::from(xs.len()),
                _ => have,
            };
            let (want, have) = (words(want), words(have));
            if want != have {
                out.push((path.clone(), want, have));
            }
        }
        Ok(out)
    }

    /// The message for an expectation naming no fact: what the nearest
    /// name above it that is one may name.
    fn unknown(&self, path: &str) -> String {
        let mut parent = path;
        let beside = loop {
            parent = parent.rsplit_once('.').map_or("", |(p, _)| p);
            let prefix = if parent.is_empty() { String::new() } else { format!("{parent}.") };
            let beside: Vec<&str> = self
                .0
                .keys()
                .filter_map(|k| k.strip_prefix(&prefix))
                .map(|rest| rest.split('.').next().unwrap_or(rest))
                .fold(Vec::new(), |mut v, k| {
                    if v.last() != Some(&k) {
                        v.push(k);
                    }
                    v
                });
            if !beside.is_empty() || parent.is_empty() {
                break beside;
            }
        };
        let place = if parent.is_empty() { "an expectation".to_string() } else { format!("`{parent}`") };
        match beside.len() {
            0 => format!("`{path}` is no fact of this game"),
            n if n <= 24 => format!("`{path}` is no fact of this state; {place} may name {}", beside.join(", ")),
            n => format!(
                "`{path}` is no fact of this state; {place} may name {} and {} more",
                beside[..24].join(", "),
                n - 24
            ),
        }
    }
}

/// A fact's value as messages and transcripts write it: text bare, lists
/// as `[a, b]`, nothing as `none`.
pub fn words(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => "none".to_string(),
        Value::Array(xs) => format!("[{}]", xs.iter().map(words).collect::<Vec<_>>().join(", ")),
        _ => v.to_string(),
    }
}

fn flatten(path: &str, v: &Value, out: &mut BTreeMap<String, Value>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                flatten(&if path.is_empty() { k.clone() } else { format!("{path}.{k}") }, x, out);
            }
        }
        _ => {
            out.insert(path.to_string(), v.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts() -> Facts {
        let mut f = Facts::new();
        f.per_seat("money", 2, |s| 2000 - 100 * s as i64).set("phase", "duel").set("front.p1", ["fire"]);
        f
    }

    #[test]
    fn an_expectation_is_met_fact_by_fact() {
        let want = serde_json::json!({"money": {"p1": 2000, "p2": 1800}, "phase": "duel", "front": {"p1": ["fire"]}});
        let unmet = facts().unmet(&want).unwrap();
        assert_eq!(unmet, vec![("money.p2".to_string(), "1800".to_string(), "1900".to_string())]);
    }

    #[test]
    fn a_record_keeps_the_named_facts_nested() {
        let kept: serde_json::Value = facts().record(&["money", "phase"]);
        assert_eq!(kept, serde_json::json!({"money": {"p1": 2000, "p2": 1900}, "phase": "duel"}));
    }

    #[test]
    fn an_expectation_naming_no_fact_is_an_error_naming_its_neighbours() {
        let err = facts().unmet(&serde_json::json!({"money": {"p3": 1}})).unwrap_err();
        assert_eq!(err.message, "`money.p3` is no fact of this state; `money` may name p1, p2");
        // the fact, for the runner to find where the block writes it
        assert_eq!(err.path, [PathKey::Fact("money.p3".into())]);
        let err = facts().unmet(&serde_json::json!({"mony": 1})).unwrap_err().message;
        assert!(err.contains("an expectation may name front, money, phase"), "{err}");
        // a misspelt name under a seat: the nearest name above that is one
        let err = facts().unmet(&serde_json::json!({"front": {"p1": {"hnd": 1}}})).unwrap_err();
        assert_eq!(err.message, "`front.p1.hnd` is no fact of this state; `front` may name p1");
    }

    #[test]
    fn a_number_expected_of_a_list_is_its_length() {
        let unmet = facts().unmet(&serde_json::json!({"front": {"p1": 2}})).unwrap();
        assert_eq!(unmet, vec![("front.p1".to_string(), "2".to_string(), "1".to_string())]);
        assert_eq!(facts().unmet(&serde_json::json!({"front": {"p1": 1}})).unwrap(), vec![]);
    }
}
