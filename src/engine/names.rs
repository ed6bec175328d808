//! Typed ids written as catalog ids: a game declares its `Action` once,
//! deriving serde and the JSON Schema, and a scenario writes it by id.
//!
//! An `Id<K>` serialises as its bare position (a state's JSON), except
//! inside a names context: `with_names` sets the game's catalog ids (a
//! `Lookup`) for one (de)serialisation, and there an id is written as, and
//! read from, its catalog id, with the lookup's words for an unknown one.
//! `counted` (maps of ids to counts), `option` (a `choose` option, by its
//! id) and `seat` (`p1`) are the shapes a field takes with `#[serde(with)]`.
//!
//! A scenario's step is parsed before the catalog is at hand, so a
//! `Written` action keeps the ids as written (its shape read with
//! placeholders) and is resolved by `Written::read`: an unknown id is then
//! an error of the step, worded by the lookup.

use std::any::TypeId;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::ops::Deref;
use std::rc::Rc;

use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::game::{seat_name, seat_of};
use super::ids::{Id, Kind};
use super::outcome::MAX_SEATS;
use super::unapplied::{PathKey, Unapplied};

/// A game's catalog ids: what its typed ids are written with.
pub trait Lookup {
    /// The position of the entity of kind `kind` with catalog id `id`, or
    /// why there is none.
    fn index(&self, kind: TypeId, id: &str) -> Result<usize, String>;
    /// The catalog id of the entity of kind `kind` at `index`.
    fn name(&self, kind: TypeId, index: usize) -> Option<&str>;
    /// The `choose` effect and option an option id names.
    fn option(&self, id: &str) -> Result<(usize, usize), String>;
    /// The id of option `option` of the `choose` effect `choice`.
    fn option_id(&self, choice: usize, option: usize) -> Option<&str>;
    /// The position of the entity of kind `kind` named `id` within entity
    /// `parent` (a square of a building), or why there is none.
    fn index_within(&self, kind: TypeId, parent: usize, id: &str) -> Result<usize, String>;
    /// The name of the entity of kind `kind` at `index` within `parent`.
    fn name_within(&self, kind: TypeId, parent: usize, index: usize) -> Option<String>;
}

/// How ids are written now: a stack, so a context inside another restores it.
enum Mode {
    /// Ids as the catalog ids of a lookup, with the first id read that
    /// named nothing (the word a refused action is pointed at by).
    Names(Rc<dyn Lookup>, Option<String>),
    /// Reading a scenario's action before the catalog is at hand: each id
    /// as written, its placeholder the position in this list.
    Record(Vec<String>),
    /// Writing such an action back as it was written.
    Replay(Rc<[String]>),
}

thread_local! {
    static MODE: RefCell<Vec<Mode>> = const { RefCell::new(Vec::new()) };
}

/// Pops the mode it pushed, also when the (de)serialisation panics.
struct Scope;
impl Drop for Scope {
    fn drop(&mut self) {
        MODE.with_borrow_mut(|m| m.pop());
    }
}

fn within<R>(mode: Mode, f: impl FnOnce() -> R) -> (R, Option<Mode>) {
    MODE.with_borrow_mut(|m| m.push(mode));
    let scope = Scope;
    let r = f();
    std::mem::forget(scope);
    (r, MODE.with_borrow_mut(|m| m.pop()))
}

/// Runs `f` (one serialisation or deserialisation) with typed ids written
/// as the catalog ids of `names`.
pub fn with_names<R>(names: &Rc<dyn Lookup>, f: impl FnOnce() -> R) -> R {
    within(Mode::Names(Rc::clone(names), None), f).0
}

/// What an id stands for: an entity of a kind, one within another, or a
/// `choose` option.
#[derive(Clone, Copy)]
enum Of {
    Kind(TypeId),
    Within(TypeId, usize),
    Option,
    /// A seat of a game of at most this many.
    Seat(usize),
}

/// How the id at `at` is written in the current context (`None`: outside
/// any, where ids are positions).
fn write(of: Of, at: (usize, usize)) -> Option<String> {
    MODE.with_borrow(|m| {
        let name = match (m.last()?, of) {
            (Mode::Names(l, _), Of::Kind(k)) => l.name(k, at.0).map(str::to_string),
            (Mode::Names(l, _), Of::Within(k, parent)) => l.name_within(k, parent, at.0),
            (Mode::Names(l, _), Of::Option) => l.option_id(at.0, at.1).map(str::to_string),
            (Mode::Names(..), Of::Seat(_)) => Some(seat_name(at.0)),
            (Mode::Replay(ids), _) => ids.get(at.0).cloned(),
            (Mode::Record(_), _) => None,
        };
        Some(name.unwrap_or_else(|| "?".to_string()))
    })
}

/// What the id `id` stands for in the current context; outside any, a
/// position written in decimal.
fn read(of: Of, id: String) -> Result<(usize, usize), String> {
    MODE.with_borrow_mut(|m| match (m.last_mut(), of) {
        (Some(Mode::Names(l, missed)), of) => {
            let found = match of {
                Of::Kind(k) => l.index(k, &id).map(|i| (i, 0)),
                Of::Within(k, parent) => l.index_within(k, parent, &id).map(|i| (i, 0)),
                Of::Option => l.option(&id),
                Of::Seat(max) => seat_of(&id, max).map(|s| (s, 0)),
            };
            if found.is_err() && missed.is_none() {
                *missed = Some(id);
            }
            found
        }
        (None, Of::Seat(max)) => seat_of(&id, max).map(|s| (s, 0)),
        (Some(Mode::Record(ids)), _) => {
            ids.push(id);
            Ok((ids.len() - 1, 0))
        }
        (Some(Mode::Replay(_)), _) | (None, _) => {
            id.parse().map(|i| (i, 0)).map_err(|_| format!("`{id}` is no id here"))
        }
    })
}

fn in_context() -> bool {
    MODE.with_borrow(|m| !m.is_empty())
}

fn recording() -> bool {
    MODE.with_borrow(|m| matches!(m.last(), Some(Mode::Record(_))))
}

/// The id of kind `K` a catalog id names, in the current context.
pub fn id_named<K: Kind>(id: &str) -> Result<Id<K>, String> {
    let (i, _) = read(Of::Kind(TypeId::of::<K>()), id.to_string())?;
    Id::new(i).map_err(|e| e.to_string())
}

/// How `id` is written in the current context (its position outside any).
pub fn name_of<K: Kind>(id: Id<K>) -> String {
    write(Of::Kind(TypeId::of::<K>()), (id.index(), 0)).unwrap_or_else(|| id.index().to_string())
}

/// The id of kind `K` named `id` within `parent` (a square of a building).
pub fn id_within<P: Kind, K: Kind>(parent: Id<P>, id: &str) -> Result<Id<K>, String> {
    let (i, _) = read(Of::Within(TypeId::of::<K>(), parent.index()), id.to_string())?;
    Id::new(i).map_err(|e| e.to_string())
}

/// How `id`, within `parent`, is written in the current context.
pub fn name_within<P: Kind, K: Kind>(parent: Id<P>, id: Id<K>) -> String {
    write(Of::Within(TypeId::of::<K>(), parent.index()), (id.index(), 0)).unwrap_or_else(|| id.index().to_string())
}

/// The seat `name` (`p1`) names in a game of at most `max` seats; read
/// like an id, so a wrong one is an error of its step.
pub fn seat_named(name: &str, max: usize) -> Result<usize, String> {
    read(Of::Seat(max), name.to_string()).map(|(s, _)| s)
}

/// How `seat` is written (`p1`).
pub fn seat_written(seat: usize) -> String {
    write(Of::Seat(0), (seat, 0)).unwrap_or_else(|| seat_name(seat))
}

impl<K: Kind> Serialize for Id<K> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match write(Of::Kind(TypeId::of::<K>()), (self.index(), 0)) {
            Some(name) => s.serialize_str(&name),
            None => s.serialize_u8(self.index() as u8),
        }
    }
}

impl<'de, K: Kind> Deserialize<'de> for Id<K> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Id<K>, D::Error> {
        if in_context() {
            id_named(&String::deserialize(d)?).map_err(D::Error::custom)
        } else {
            Id::new(usize::from(u8::deserialize(d)?)).map_err(D::Error::custom)
        }
    }
}

/// Written as the catalog id: a string.
impl<K: Kind> schemars::JsonSchema for Id<K> {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> std::borrow::Cow<'static, str> {
        String::schema_name()
    }
    fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
        String::json_schema(g)
    }
}

/// Counts of ids (`{lumber: 2}`), written as a map by catalog id (in id
/// order of the written ids); read in id order, zeros left out.
pub mod counted {
    use super::*;

    /// The counts as written: catalog id → count.
    pub fn names_of<K: Kind>(c: &[(Id<K>, u8)]) -> BTreeMap<String, u8> {
        c.iter().map(|&(k, n)| (name_of(k), n)).collect()
    }

    /// The counts a map of catalog ids names.
    pub fn ids_of<K: Kind, C: FromIterator<(Id<K>, u8)>>(m: &BTreeMap<String, u8>) -> Result<C, String> {
        let mut v: Vec<(Id<K>, u8)> = m.iter().map(|(id, &n)| Ok((id_named(id)?, n))).collect::<Result<_, String>>()?;
        if !recording() {
            v.sort();
            v.retain(|(_, n)| *n > 0);
        }
        Ok(v.into_iter().collect())
    }

    pub fn serialize<K: Kind, C: Deref<Target = [(Id<K>, u8)]>, S: Serializer>(c: &C, s: S) -> Result<S::Ok, S::Error> {
        names_of(c).serialize(s)
    }

    pub fn deserialize<'de, K: Kind, C: FromIterator<(Id<K>, u8)>, D: Deserializer<'de>>(d: D) -> Result<C, D::Error> {
        ids_of(&BTreeMap::<String, u8>::deserialize(d)?).map_err(D::Error::custom)
    }
}

/// A `choose` option (`Choose { choice, option }`), written as its id.
pub mod option {
    use super::*;

    pub fn serialize<C, O, S>(choice: &C, option: &O, s: S) -> Result<S::Ok, S::Error>
    where
        C: Copy + TryInto<usize>,
        O: Copy + TryInto<usize>,
        S: Serializer,
    {
        let at = ((*choice).try_into().unwrap_or(usize::MAX), (*option).try_into().unwrap_or(usize::MAX));
        write(Of::Option, at).unwrap_or_else(|| format!("{}.{}", at.0, at.1)).serialize(s)
    }

    pub fn deserialize<'de, C, O, D>(d: D) -> Result<(C, O), D::Error>
    where
        C: TryFrom<usize>,
        O: TryFrom<usize>,
        D: Deserializer<'de>,
    {
        let (c, o) = read(Of::Option, String::deserialize(d)?).map_err(D::Error::custom)?;
        let too_many = || D::Error::custom("too many `choose` options");
        Ok((C::try_from(c).map_err(|_| too_many())?, O::try_from(o).map_err(|_| too_many())?))
    }
}

/// A variant of one field written as that field alone (`{play: lady-3}`
/// for `Play { card }`).
pub mod bare {
    use super::*;

    pub fn serialize<T: Serialize, S: Serializer>(t: &T, s: S) -> Result<S::Ok, S::Error> {
        t.serialize(s)
    }

    pub fn deserialize<'de, T: Deserialize<'de>, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
        T::deserialize(d)
    }
}

/// A seat (`u8`), written `p1` … `pN`.
pub mod seat {
    use super::*;

    pub fn serialize<S: Serializer>(seat: &u8, s: S) -> Result<S::Ok, S::Error> {
        seat_written(usize::from(*seat)).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u8, D::Error> {
        let seat = seat_named(&String::deserialize(d)?, MAX_SEATS).map_err(D::Error::custom)?;
        u8::try_from(seat).map_err(D::Error::custom)
    }
}

/// A value with typed ids as a scenario writes it: parsed with the ids as
/// written, resolved against a catalog by `read`; or made from a value, to
/// be written with a catalog's ids.
#[derive(Clone)]
pub enum Written<A> {
    Parsed { shape: A, ids: Rc<[String]> },
    Made { value: A, names: Rc<dyn Lookup> },
}

impl<A: Clone + Serialize + DeserializeOwned> Written<A> {
    /// `value`, to be written with the ids of `names`.
    pub fn of(value: A, names: Rc<dyn Lookup>) -> Written<A> {
        Written::Made { value, names }
    }

    /// The value the written ids name in `names`, or the first that names
    /// nothing, in the lookup's words, and the word it is written as.
    pub fn read(&self, names: &Rc<dyn Lookup>) -> Result<A, Unapplied> {
        match self {
            Written::Made { value, .. } => Ok(value.clone()),
            Written::Parsed { shape, ids } => {
                let (as_written, _) = within(Mode::Replay(Rc::clone(ids)), || serde_json::to_value(shape));
                let as_written = as_written.map_err(|e| e.to_string())?;
                let (read, mode) = within(Mode::Names(Rc::clone(names), None), || serde_json::from_value(as_written));
                read.map_err(|e| match mode {
                    Some(Mode::Names(_, Some(word))) => Unapplied::from(e.to_string()).under(PathKey::Word(word)),
                    _ => Unapplied::from(e.to_string()),
                })
            }
        }
    }
}

impl<A> std::fmt::Debug for Written<A>
where
    A: std::fmt::Debug,
{
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Written::Parsed { shape, ids } => f.debug_struct("Parsed").field("shape", shape).field("ids", ids).finish(),
            Written::Made { value, .. } => f.debug_struct("Made").field("value", value).finish(),
        }
    }
}

impl<A: Serialize> Serialize for Written<A> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Written::Parsed { shape, ids } => within(Mode::Replay(Rc::clone(ids)), || shape.serialize(s)).0,
            Written::Made { value, names } => with_names(names, || value.serialize(s)),
        }
    }
}

impl<'de, A: Deserialize<'de>> Deserialize<'de> for Written<A> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Written<A>, D::Error> {
        let (shape, mode) = within(Mode::Record(Vec::new()), || A::deserialize(d));
        let Some(Mode::Record(ids)) = mode else { unreachable!("the mode pushed is the mode popped") };
        Ok(Written::Parsed { shape: shape?, ids: ids.into() })
    }
}

/// Written as `A` is.
impl<A: schemars::JsonSchema> schemars::JsonSchema for Written<A> {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> std::borrow::Cow<'static, str> {
        A::schema_name()
    }
    fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
        g.subschema_for::<A>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::kinds! {
        Fruit = "fruit",
        Crate = "crate",
    }

    /// Two fruits and two crates; the options of one `choose`.
    struct Shop;
    const FRUITS: [&str; 2] = ["apple", "pear"];
    const CRATES: [&str; 2] = ["small", "large"];
    const OPTIONS: [&str; 2] = ["keep", "sell"];

    fn table(kind: TypeId) -> &'static [&'static str] {
        if kind == TypeId::of::<Fruit>() { &FRUITS } else { &CRATES }
    }

    impl Lookup for Shop {
        fn index(&self, kind: TypeId, id: &str) -> Result<usize, String> {
            table(kind).iter().position(|n| *n == id).ok_or_else(|| format!("unknown `{id}`"))
        }
        fn name(&self, kind: TypeId, index: usize) -> Option<&str> {
            table(kind).get(index).copied()
        }
        fn option(&self, id: &str) -> Result<(usize, usize), String> {
            OPTIONS.iter().position(|n| *n == id).map(|o| (0, o)).ok_or_else(|| format!("no option `{id}`"))
        }
        fn option_id(&self, choice: usize, option: usize) -> Option<&str> {
            (choice == 0).then(|| OPTIONS.get(option).copied()).flatten()
        }
        fn index_within(&self, _: TypeId, parent: usize, id: &str) -> Result<usize, String> {
            id.strip_prefix(&format!("{parent}-"))
                .and_then(|i| i.parse().ok())
                .ok_or_else(|| format!("no `{id}` in {parent}"))
        }
        fn name_within(&self, _: TypeId, parent: usize, index: usize) -> Option<String> {
            Some(format!("{parent}-{index}"))
        }
    }

    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(rename_all = "kebab-case", deny_unknown_fields)]
    enum Act {
        Pick(Id<Fruit>),
        Pack {
            fruit: Id<Fruit>,
            into: Id<Crate>,
            #[serde(with = "seat")]
            by: u8,
        },
        Bag(#[serde(with = "counted")] Vec<(Id<Fruit>, u8)>),
        #[serde(with = "option")]
        Choose(u8, u8),
    }

    fn shop() -> Rc<dyn Lookup> {
        Rc::new(Shop)
    }

    fn id<K: Kind>(i: usize) -> Id<K> {
        Id::new(i).unwrap()
    }

    fn written(json: &str) -> Written<Act> {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn ids_are_catalog_ids_inside_a_context_and_positions_outside() {
        let pack = Act::Pack { fruit: id(1), into: id(0), by: 2 };
        let named = with_names(&shop(), || serde_json::to_string(&pack)).unwrap();
        assert_eq!(named, r#"{"pack":{"fruit":"pear","into":"small","by":"p3"}}"#);
        assert_eq!(with_names(&shop(), || serde_json::from_str::<Act>(&named)).unwrap(), pack);
        // Outside any context an id is its position, so a state's JSON is unchanged.
        assert_eq!(serde_json::to_string(&Act::Pick(id(1))).unwrap(), r#"{"pick":1}"#);
        assert!(!in_context(), "every context pops what it pushed");
    }

    #[test]
    fn counts_are_maps_read_in_id_order_without_zeros() {
        let read = with_names(&shop(), || serde_json::from_str::<Act>(r#"{"bag":{"pear":2,"apple":0}}"#)).unwrap();
        assert_eq!(read, Act::Bag(vec![(id(1), 2)]));
        let bag = Act::Bag(vec![(id(0), 1), (id(1), 3)]);
        let text = with_names(&shop(), || serde_json::to_string(&bag)).unwrap();
        assert_eq!(text, r#"{"bag":{"apple":1,"pear":3}}"#);
    }

    #[test]
    fn a_written_action_is_resolved_later_and_an_unknown_id_is_worded_by_the_lookup() {
        let w = written(r#"{"pack":{"fruit":"pear","into":"large","by":"p1"}}"#);
        assert_eq!(w.read(&shop()).unwrap(), Act::Pack { fruit: id(1), into: id(1), by: 0 });
        // Written back as it was written, without a catalog.
        assert_eq!(serde_json::to_string(&w).unwrap(), r#"{"pack":{"fruit":"pear","into":"large","by":"p1"}}"#);
        // the error names the word it is written as, for the runner to point at
        let err = written(r#"{"pick":"plum"}"#).read(&shop()).unwrap_err();
        assert!(err.message.contains("unknown `plum`"), "{err}");
        assert_eq!(err.path, [PathKey::Word("plum".into())]);
        let err = written(r#"{"pack":{"fruit":"pear","into":"huge","by":"p1"}}"#).read(&shop()).unwrap_err();
        assert_eq!(err.path, [PathKey::Word("huge".into())], "{err}");
        let err = written(r#"{"choose":"eat"}"#).read(&shop()).unwrap_err();
        assert!(err.message.contains("no option `eat`"), "{err}");
        assert_eq!(written(r#"{"choose":"sell"}"#).read(&shop()).unwrap(), Act::Choose(0, 1));
        assert!(!in_context());
    }

    #[test]
    fn a_made_value_is_written_with_its_catalog_and_ids_within_name_their_parent() {
        let made = Written::of(Act::Pick(id(0)), shop());
        assert_eq!(serde_json::to_string(&made).unwrap(), r#"{"pick":"apple"}"#);
        let square: Id<Crate> = with_names(&shop(), || id_within::<Fruit, Crate>(id(1), "1-0")).unwrap();
        assert_eq!(square.index(), 0);
        assert_eq!(with_names(&shop(), || name_within::<Fruit, Crate>(id(1), square)), "1-0");
        assert!(with_names(&shop(), || id_within::<Fruit, Crate>(id(1), "0-0")).is_err());
    }

    #[test]
    fn a_malformed_action_is_an_error_when_parsed_and_leaves_no_context_behind() {
        assert!(serde_json::from_str::<Written<Act>>(r#"{"pick":["apple"]}"#).is_err());
        assert!(serde_json::from_str::<Written<Act>>(r#"{"peel":"apple"}"#).is_err());
        assert!(!in_context());
    }
}
