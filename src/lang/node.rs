//! The raw shape of an effect or a condition: a YAML value with its line
//! and column on every node. Catalog files hold effects as nodes; the
//! compiler (`compile`) checks them against the registry of operations.
//!
//! ```
//! use rulecheck::lang::{Node, Value};
//! let n: Node = rulecheck::yaml::from_str("e.yaml", "draw: {to: active, count: 2}").unwrap();
//! let Value::Map(m) = &n.value else { panic!() };
//! assert_eq!((m[0].0.text.as_str(), m[0].1.at), ("draw", (1, 7)));
//! ```

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::{Serialize, Serializer};

use crate::engine::PathKey;
use crate::yaml::{Spanned, position};

/// A word of the source (a mapping key or a string scalar) and where it stands.
#[derive(Debug, Clone)]
pub struct Word {
    pub text: String,
    pub at: (u64, u64),
}

impl PartialEq for Word {
    /// Words are equal when they say the same; where they stand is not compared.
    fn eq(&self, other: &Word) -> bool {
        self.text == other.text
    }
}

/// A YAML value with the line and column where it starts.
#[derive(Debug, Clone)]
pub struct Node {
    pub value: Value,
    pub at: (u64, u64),
}

impl PartialEq for Node {
    /// Nodes are equal when their values are; locations are not compared
    /// (a catalog written back out and read again is the same catalog).
    fn eq(&self, other: &Node) -> bool {
        self.value == other.value
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Seq(Vec<Node>),
    /// Keys in the order written (the parser refuses a duplicate key).
    Map(Vec<(Word, Node)>),
}

impl Value {
    /// What kind of value this is, in a user's words.
    pub fn kind(&self) -> &'static str {
        match self {
            Value::Null => "nothing",
            Value::Bool(_) => "a boolean",
            Value::Int(_) => "a number",
            Value::Float(_) => "a fractional number",
            Value::Str(_) => "a string",
            Value::Seq(_) => "a list",
            Value::Map(_) => "a mapping",
        }
    }
}

impl Node {
    /// The string this node holds, as a word with its place.
    pub fn word(&self) -> Option<Word> {
        match &self.value {
            Value::Str(s) => Some(Word { text: s.clone(), at: self.at }),
            _ => None,
        }
    }

    /// An operation written as its name (`damage`) or as a mapping with one
    /// key (`draw: {...}`): its name and its arguments, if any.
    pub fn operation(&self) -> Option<(Word, Option<&Node>)> {
        match &self.value {
            Value::Str(s) => Some((Word { text: s.clone(), at: self.at }, None)),
            Value::Map(m) if m.len() == 1 => Some((m[0].0.clone(), Some(&m[0].1))),
            _ => None,
        }
    }

    /// Where the entry `path` leads to stands (the word of a mapping's
    /// key, a list's item), or the deepest entry on the way that does:
    /// the place a diagnostic about that entry points at.
    pub fn place_of(&self, path: &[PathKey]) -> (u64, u64) {
        let (mut node, mut at) = (self, self.at);
        for step in path {
            let next = match (&node.value, step) {
                (Value::Map(m), PathKey::Key(k)) => m.iter().find(|(w, _)| &w.text == k).map(|(w, n)| (w.at, n)),
                (Value::Seq(items), PathKey::Item(i)) => items.get(*i).map(|n| (n.at, n)),
                (_, PathKey::Word(w)) => node.word_below(w),
                (_, PathKey::Fact(f)) => node.fact_below(f),
                _ => None,
            };
            let Some((place, n)) = next else { break };
            (at, node) = (place, n);
        }
        at
    }

    /// The value that starts at `at` (a line and column a `Spanned` gave):
    /// this node or the first below it, in the order written.
    pub fn starting_at(&self, at: (u64, u64)) -> Option<&Node> {
        if self.at == at {
            return Some(self);
        }
        match &self.value {
            Value::Seq(items) => items.iter().find_map(|n| n.starting_at(at)),
            Value::Map(m) => m.iter().find_map(|(_, n)| n.starting_at(at)),
            _ => None,
        }
    }

    /// Where this mapping writes the fact `name` (`hand_size.p1`): as
    /// one dotted key, or as a key whose value writes the rest of it.
    fn fact_below(&self, name: &str) -> Option<((u64, u64), &Node)> {
        let Value::Map(m) = &self.value else { return None };
        m.iter().find_map(|(k, n)| match name.strip_prefix(k.text.as_str()) {
            Some("") => Some((k.at, n)),
            Some(rest) => n.fact_below(rest.strip_prefix('.')?),
            None => None,
        })
    }

    /// The first place below this node, in the order written, where `w`
    /// is written as a mapping's key or a string, and the node there.
    fn word_below(&self, w: &str) -> Option<((u64, u64), &Node)> {
        match &self.value {
            Value::Str(s) if s == w => Some((self.at, self)),
            Value::Seq(items) => items.iter().find_map(|n| n.word_below(w)),
            Value::Map(m) => m.iter().find_map(|(k, n)| if k.text == w { Some((k.at, n)) } else { n.word_below(w) }),
            _ => None,
        }
    }
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Node, D::Error> {
        let s = Spanned::<Value>::deserialize(d)?;
        Ok(Node { at: position(&s), value: s.value })
    }
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Value, D::Error> {
        d.deserialize_any(ValueVisitor)
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a YAML value")
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Int(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Value, E> {
        Ok(i64::try_from(v).map_or(Value::Float(v as f64), Value::Int))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        Ok(Value::Float(v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
        Ok(Value::Str(v.to_string()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Value, E> {
        Ok(Value::Str(v))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Value::deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(n) = a.next_element::<Node>()? {
            items.push(n);
        }
        Ok(Value::Seq(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Value, A::Error> {
        let mut entries = Vec::new();
        while let Some(k) = a.next_key::<Spanned<String>>()? {
            let key = Word { at: position(&k), text: k.value };
            entries.push((key, a.next_value::<Node>()?));
        }
        Ok(Value::Map(entries))
    }
}

impl Serialize for Node {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match &self.value {
            Value::Null => s.serialize_unit(),
            Value::Bool(b) => s.serialize_bool(*b),
            Value::Int(i) => s.serialize_i64(*i),
            Value::Float(f) => s.serialize_f64(*f),
            Value::Str(t) => s.serialize_str(t),
            Value::Seq(items) => s.collect_seq(items),
            Value::Map(m) => s.collect_map(m.iter().map(|(k, v)| (&k.text, v))),
        }
    }
}
