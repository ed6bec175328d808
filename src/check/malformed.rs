//! Malformed actions, made once for every game from the serde shape of its
//! `Action`: the action is written to a JSON value (outside a names
//! context a typed id is its position, `engine::names`), one part of the
//! value is perturbed, and the value is read back. What reads back, is
//! another action and is not in the legal list is what the contract suite
//! gives `apply` to reject (`suite::check_malformed_among`), so a new
//! action variant, or a new game, needs no perturbation written by hand.

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// One perturbation of an action's JSON value; a place in it is a JSON
/// pointer.
enum Edit {
    /// A number, or the last run of digits in a string (`p2`, `0.3`, an id
    /// written as its position), moved on or back by this much.
    Add(String, i64),
    /// A boolean turned over.
    Flip(String),
    /// A map key with digits (counts by id) moved on by this much.
    Rekey(String, String, i64),
    /// The values of two fields of one object, of one JSON type, swapped.
    Swap(String, String, String),
    /// The variant's name changed, its payload kept (`discard` → `give`).
    Variant(&'static str),
    /// Another unit variant of the enum in the action's place.
    Unit(&'static str),
}

/// A perturbed copy of `action` that reads back, differs from it and is
/// not in `legal`, or `None` when no perturbation makes one. `salt` picks
/// the perturbation to try first and how far a number moves (1 to 7
/// places, or past a catalog's end by 100 more); the others follow in
/// order, so the same salt gives the same action.
pub fn malformed<A: Serialize + DeserializeOwned + PartialEq>(action: &A, salt: u32, legal: &[A]) -> Option<A> {
    let value = serde_json::to_value(action).ok()?;
    let step = 1 + i64::from(salt % 7);
    let mut edits = Vec::new();
    places(&value, "", step, &mut edits);
    let tag = match &value {
        Value::Object(m) if m.len() == 1 => m.keys().next().map(String::as_str),
        Value::String(s) => Some(s.as_str()),
        _ => None,
    };
    for &name in variants::<A>().iter().filter(|&&n| Some(n) != tag) {
        if value.is_object() {
            edits.push(Edit::Variant(name));
        }
        edits.push(Edit::Unit(name));
    }
    let n = edits.len();
    (0..n)
        .filter_map(|i| edit(value.clone(), &edits[(salt as usize + i) % n]))
        .filter_map(|v| serde_json::from_value::<A>(v).ok())
        .find(|bad| bad != action && !legal.contains(bad))
}

/// The edits of every number, digit string, boolean, map key and pair of
/// fields in `v`, found at `at`.
fn places(v: &Value, at: &str, step: i64, out: &mut Vec<Edit>) {
    let moves = [step, 100 + step, -step];
    match v {
        Value::Number(_) => out.extend(moves.map(|d| Edit::Add(at.to_string(), d))),
        Value::String(s) if s.bytes().any(|b| b.is_ascii_digit()) => {
            out.extend(moves.map(|d| Edit::Add(at.to_string(), d)));
        }
        Value::Bool(_) => out.push(Edit::Flip(at.to_string())),
        Value::Array(items) => {
            for (i, x) in items.iter().enumerate() {
                places(x, &format!("{at}/{i}"), step, out);
            }
        }
        Value::Object(m) => {
            for (key, x) in m {
                if key.bytes().any(|b| b.is_ascii_digit()) {
                    out.extend(moves[..2].iter().map(|&d| Edit::Rekey(at.to_string(), key.clone(), d)));
                }
                places(x, &format!("{at}/{}", key.replace('~', "~0").replace('/', "~1")), step, out);
            }
            for (i, (a, x)) in m.iter().enumerate() {
                for (b, y) in m.iter().skip(i + 1) {
                    if x != y && std::mem::discriminant(x) == std::mem::discriminant(y) {
                        out.push(Edit::Swap(at.to_string(), a.clone(), b.clone()));
                    }
                }
            }
        }
        _ => {}
    }
}

/// `v` with `e` made, or `None` where it cannot be (digits below zero, a
/// key already taken).
fn edit(mut v: Value, e: &Edit) -> Option<Value> {
    match e {
        Edit::Add(at, d) => {
            let x = v.pointer_mut(at)?;
            *x = match x {
                Value::Number(n) => Value::from(n.as_i64()?.checked_add(*d)?),
                Value::String(s) => Value::String(moved(s, *d)?),
                _ => return None,
            };
        }
        Edit::Flip(at) => {
            let x = v.pointer_mut(at)?;
            *x = Value::Bool(!x.as_bool()?);
        }
        Edit::Rekey(at, key, d) => {
            let m = v.pointer_mut(at)?.as_object_mut()?;
            let new = moved(key, *d)?;
            if m.contains_key(&new) {
                return None;
            }
            let x = m.remove(key)?;
            m.insert(new, x);
        }
        Edit::Swap(at, a, b) => {
            let m = v.pointer_mut(at)?.as_object_mut()?;
            let x = m.get(a)?.clone();
            let y = m.insert(b.clone(), x)?;
            m.insert(a.clone(), y);
        }
        Edit::Variant(name) => {
            let payload = v.as_object_mut()?.values_mut().next()?.take();
            v = Value::Object([(name.to_string(), payload)].into_iter().collect());
        }
        Edit::Unit(name) => v = Value::String(name.to_string()),
    }
    Some(v)
}

/// `s` with its last run of digits moved by `d`, or `None` below zero.
fn moved(s: &str, d: i64) -> Option<String> {
    let end = s.rfind(|c: char| c.is_ascii_digit())? + 1;
    let start = s[..end].rfind(|c: char| !c.is_ascii_digit()).map_or(0, |i| i + 1);
    let n = s[start..end].parse::<i64>().ok()?.checked_add(d).filter(|n| *n >= 0)?;
    Some(format!("{}{n}{}", &s[..start], &s[end..]))
}

/// The variant names of `A` as serde writes them (none unless `A` is an
/// enum), asked of its `Deserialize` by a deserializer that only listens.
fn variants<A: DeserializeOwned>() -> &'static [&'static str] {
    crate::engine::variants_of::<A>()
}
