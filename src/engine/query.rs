//! What a game lets a condition over its states name (`rulecheck find`):
//! its quantities and predicates (`Term`s, each with the kinds of its
//! arguments), the entities of each kind, and the kinds of event its
//! actions report. The condition language itself (quantifiers, counts,
//! comparisons) is the game-agnostic `check::query`; a game only answers
//! "what is `hand(p2)` in this state" and "what kinds is this event".
//!
//! Two kinds every game has without declaring them: `player` (the seats,
//! `p1`…, as scenarios write them) and `event` (the names `event_kinds`
//! lists, the argument of `happened`).

use serde::de::Visitor;

use super::game::Game;

/// What a term gives: a number, or true/false.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sort {
    Num,
    Bool,
}

/// A quantity or predicate of a game's states: `hand(player)`,
/// `damaged(building)`, `turn`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Term {
    pub name: &'static str,
    /// The kind of each argument (`player`, or one of `Query::kinds`).
    pub args: &'static [&'static str],
    pub sort: Sort,
    /// What it measures, in one line (for the list an unknown name prints).
    pub about: &'static str,
}

impl Term {
    /// A quantity: `hand(player)`.
    pub const fn num(name: &'static str, args: &'static [&'static str], about: &'static str) -> Term {
        Term { name, args, sort: Sort::Num, about }
    }
    /// A predicate: `damaged(building)`.
    pub const fn pred(name: &'static str, args: &'static [&'static str], about: &'static str) -> Term {
        Term { name, args, sort: Sort::Bool, about }
    }
}

/// The kind every game has: its seats.
pub const PLAYER: &str = "player";
/// The arguments of a term of one player.
pub const ONE_PLAYER: &[&str] = &[PLAYER];
/// The arguments of a term of the whole table.
pub const NO_ARGS: &[&str] = &[];
/// The kind of `happened`'s argument: the game's event kinds.
pub const EVENT: &str = "event";

/// A game's vocabulary for conditions over its states.
pub trait Query: Game {
    /// Every term, in a fixed order (`value` takes an index into it).
    fn terms() -> &'static [Term];
    /// The entity kinds its terms take besides `player` and `event`, each
    /// with its entities' names (catalog ids), in index order.
    fn kinds(rules: &Self::Rules) -> Vec<(&'static str, Vec<String>)>;
    /// The value of term `term` at `args` (entity indexes; a seat for
    /// `player`): a number, or 0/1 for a predicate.
    fn value(&self, rules: &Self::Rules, term: usize, args: &[usize]) -> i64;
    /// The kinds of event named after the game's event variants, as
    /// `variant_name` spells them (`variant_names` of its event type, read
    /// once: no list is kept by hand): the first of `event_kinds`, and all
    /// of them for a game that keeps the defaults below.
    fn event_variants() -> &'static [String] {
        &[]
    }
    /// The event kinds `happened` can name, in index order.
    fn event_kinds(rules: &Self::Rules) -> Vec<String> {
        let _ = rules;
        Self::event_variants().to_vec()
    }
    /// Adds to `out` the indexes (into `event_kinds`) of the kinds `event` is.
    fn kinds_of_event(rules: &Self::Rules, event: &Self::Event, out: &mut Vec<usize>) {
        let _ = rules;
        out.extend(variant_kind(Self::event_variants(), event));
    }
}

/// Writes, inside a game's `impl Query`, `event_variants` read once from
/// its event type (`variant_names`), kept in a static of the impl's own.
#[macro_export]
macro_rules! event_variants {
    ($event:ty) => {
        fn event_variants() -> &'static [String] {
            static NAMES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
            NAMES.get_or_init($crate::engine::variant_names::<$event>)
        }
    };
}

/// The index in `events` of the kind named after `event`'s variant.
pub fn variant_kind<T: serde::Serialize>(events: &[String], event: &T) -> Option<usize> {
    let name = variant_name(event);
    events.iter().position(|e| *e == name)
}

/// The serde name of an enum value's variant in kebab-case
/// (`FireSpread { .. }` → `fire-spread`): what an event kind is called
/// when a game names its kinds after its event variants.
pub fn variant_name<T: serde::Serialize>(value: &T) -> String {
    let name = match serde_json::to_value(value) {
        Ok(serde_json::Value::String(s)) => s,
        Ok(serde_json::Value::Object(m)) => m.keys().next().cloned().unwrap_or_default(),
        _ => String::new(),
    };
    kebab(&name)
}

/// The names of an enum's variants as `variant_name` spells them, in
/// declaration order: read from the type itself (serde hands a
/// deserializer the list of variants), so a game that names its event
/// kinds after its event variants keeps no list of them by hand.
pub fn variant_names<T: serde::Deserialize<'static>>() -> Vec<String> {
    variants_of::<T>().iter().map(|v| kebab(v)).collect()
}

/// The serde names of an enum's variants (none for a type that is not an
/// enum), asked of its `Deserialize` by a deserializer that only listens.
pub fn variants_of<T: serde::Deserialize<'static>>() -> &'static [&'static str] {
    let mut read = Variants(&[]);
    let _ = T::deserialize(&mut read);
    read.0
}

/// A deserializer that only takes the variant list serde gives an enum.
struct Variants(&'static [&'static str]);

impl serde::Deserializer<'static> for &mut Variants {
    type Error = serde::de::value::Error;
    fn deserialize_any<V: Visitor<'static>>(self, _: V) -> Result<V::Value, Self::Error> {
        Err(serde::de::Error::custom("not an enum"))
    }
    fn deserialize_enum<V: Visitor<'static>>(
        self,
        _: &'static str,
        variants: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Self::Error> {
        self.0 = variants;
        Err(serde::de::Error::custom("the variants are read"))
    }
    serde::forward_to_deserialize_any! {
        <W: Visitor<'static>>
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option unit
        unit_struct newtype_struct seq tuple tuple_struct map struct identifier ignored_any
    }
}

/// `FireSpread` → `fire-spread`; `fire-spread` stays.
pub fn kebab(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('-');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(if c == '_' { '-' } else { c });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize, serde::Serialize)]
    enum Sample {
        FireSpread { from: u8 },
        DeckEmpty,
        Took(u8),
    }

    #[test]
    fn variant_names_are_read_from_the_type_as_variant_name_spells_them() {
        assert_eq!(variant_names::<Sample>(), ["fire-spread", "deck-empty", "took"]);
        let names = variant_names::<Sample>();
        for (i, s) in [Sample::FireSpread { from: 1 }, Sample::DeckEmpty, Sample::Took(2)].iter().enumerate() {
            assert_eq!(names[i], variant_name(s));
        }
        assert!(variant_names::<u32>().is_empty());
    }

    #[test]
    fn kebab_names() {
        assert_eq!(kebab("FireSpread"), "fire-spread");
        assert_eq!(kebab("GameOver"), "game-over");
        assert_eq!(kebab("deck_empty"), "deck-empty");
    }
}
