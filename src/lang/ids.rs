//! What a scenario names, read alike by every game: an entity by its
//! catalog id (with "did you mean"), a `choose` option by its id, a set-up
//! map keyed by seat, counts by catalog id, and ids listed top first (the
//! cards a deck deals next). A game writes only its own tables: which ids
//! of its catalog a word names, and where a set-up puts what it names.

use std::any::TypeId;
use std::collections::BTreeMap;
use std::rc::Rc;

use super::compile::did_you_mean;
use super::effect::{Choice, Lang};
use crate::engine::{Id, Kind, Lookup, Seat, Unapplied, seat_of, under};

/// The `choose` effect and option a scenario names by the option's id,
/// as positions in the choice table: the id must be unique among them.
pub fn option_named<L: Lang>(choices: &[Choice<L>], id: &str) -> Result<(u32, u32), String> {
    option_among(choices.iter().map(|c| c.iter().map(|(oid, _)| oid.as_str())), id)
}

/// `option_named` over each choice's option ids.
fn option_among<'a, O: Iterator<Item = &'a str>>(
    choices: impl Iterator<Item = O>,
    id: &str,
) -> Result<(u32, u32), String> {
    let found: Vec<(u32, u32)> = choices
        .enumerate()
        .flat_map(|(c, options)| {
            options.enumerate().filter(|(_, oid)| *oid == id).map(move |(o, _)| (c as u32, o as u32))
        })
        .collect();
    match found.as_slice() {
        [one] => Ok(*one),
        [] => Err(format!("no `choose` effect has an option `{id}`")),
        _ => Err(format!("{} `choose` effects have an option `{id}`; give their options distinct ids", found.len())),
    }
}

/// The id of option `option` of the `choose` effect `choice`, if both exist:
/// how an action or event naming an option is written.
pub fn option_id<L: Lang>(choices: &[Choice<L>], choice: usize, option: usize) -> Option<&str> {
    choices.get(choice).and_then(|c| c.get(option)).map(|(id, _)| id.as_str())
}

/// The index of the entity a scenario names by its catalog id among `ids`
/// (one kind's, in index order), or "unknown `what` `id`" with a "did you mean".
pub fn index_named<S: AsRef<str>>(what: &str, ids: impl IntoIterator<Item = S>, id: &str) -> Result<usize, String> {
    let known: Vec<S> = ids.into_iter().collect();
    let hint = || did_you_mean(known.iter().map(AsRef::as_ref), id);
    known.iter().position(|k| k.as_ref() == id).ok_or_else(|| format!("unknown {what} `{id}`{}", hint()))
}

/// `index_named` as the kind's typed id.
pub fn id_named<K: Kind, S: AsRef<str>>(
    what: &str,
    ids: impl IntoIterator<Item = S>,
    id: &str,
) -> Result<Id<K>, String> {
    Id::new(index_named(what, ids, id)?).map_err(|e| e.to_string())
}

/// The entries of a set-up map keyed by seat (`p1: …`), each with its
/// seat, or why a key names none (placed under that key).
pub fn by_seat<V>(map: &BTreeMap<String, V>, players: usize) -> Result<Vec<(Seat, &V)>, Unapplied> {
    map.iter().map(|(s, v)| Ok((seat_of(s, players).map_err(under(s))?, v))).collect()
}

/// Runs `f` on each entry of a set-up map keyed by seat, in key order; an
/// error, `f`'s or a key's that names no seat, is placed under its key.
pub fn each_seat<V>(
    map: &BTreeMap<String, V>,
    players: usize,
    mut f: impl FnMut(Seat, &V) -> Result<(), Unapplied>,
) -> Result<(), Unapplied> {
    for (s, v) in map {
        let seat = seat_of(s, players).map_err(under(s))?;
        f(seat, v).map_err(under(s))?;
    }
    Ok(())
}

/// A map of catalog ids to counts (`lumber: 2`), each id read by `named`
/// (an id it refuses is placed under its key).
pub fn counted<K, N: Copy>(
    map: &BTreeMap<String, N>,
    named: impl Fn(&str) -> Result<K, String>,
) -> Result<Vec<(K, N)>, Unapplied> {
    map.iter().map(|(id, &n)| Ok((named(id).map_err(under(id))?, n))).collect()
}

/// A catalog's ids by kind, with the word a message names one kind by, and
/// its `choose` options: what a game's typed ids are written with in a
/// scenario (`engine::with_names`).
#[derive(Clone, Default)]
pub struct CatalogIds {
    kinds: Vec<(TypeId, &'static str, Vec<String>)>,
    options: Vec<Vec<String>>,
    within: Vec<(TypeId, Within)>,
}

/// How the entities of one kind are named within another entity: (parent,
/// index) → name, and (parent, name) → index or why none.
type Within = (Rc<dyn Fn(usize, usize) -> Option<String>>, Rc<dyn Fn(usize, &str) -> Result<usize, String>>);

impl CatalogIds {
    /// The ids of kind `K`, in index order; `what` names one in a message
    /// ("unknown `what` `id`").
    pub fn kind<K: Kind, S: AsRef<str>>(mut self, what: &'static str, ids: impl IntoIterator<Item = S>) -> CatalogIds {
        self.kinds.push((TypeId::of::<K>(), what, ids.into_iter().map(|s| s.as_ref().to_string()).collect()));
        self
    }
    /// The option ids of each `choose` effect of the catalog.
    pub fn options<L: Lang>(mut self, choices: &[Choice<L>]) -> CatalogIds {
        self.options = choices.iter().map(|c| c.iter().map(|(id, _)| id.clone()).collect()).collect();
        self
    }
    /// How the entities of kind `K` are named within another (a square
    /// within its building).
    pub fn within<K: Kind>(
        mut self,
        name: impl Fn(usize, usize) -> Option<String> + 'static,
        index: impl Fn(usize, &str) -> Result<usize, String> + 'static,
    ) -> CatalogIds {
        self.within.push((TypeId::of::<K>(), (Rc::new(name), Rc::new(index))));
        self
    }
    pub fn shared(self) -> Rc<dyn Lookup> {
        Rc::new(self)
    }
    fn of(&self, kind: TypeId) -> Option<&(TypeId, &'static str, Vec<String>)> {
        self.kinds.iter().find(|(k, _, _)| *k == kind)
    }
}

impl Lookup for CatalogIds {
    fn index(&self, kind: TypeId, id: &str) -> Result<usize, String> {
        let (_, what, ids) = self.of(kind).ok_or_else(|| format!("`{id}` names no kind of entity of the catalog"))?;
        index_named(what, ids, id)
    }
    fn name(&self, kind: TypeId, index: usize) -> Option<&str> {
        self.of(kind).and_then(|(_, _, ids)| ids.get(index)).map(String::as_str)
    }
    fn option(&self, id: &str) -> Result<(usize, usize), String> {
        let (c, o) = option_among(self.options.iter().map(|c| c.iter().map(String::as_str)), id)?;
        Ok((c as usize, o as usize))
    }
    fn option_id(&self, choice: usize, option: usize) -> Option<&str> {
        self.options.get(choice).and_then(|c| c.get(option)).map(String::as_str)
    }
    fn index_within(&self, kind: TypeId, parent: usize, id: &str) -> Result<usize, String> {
        let (_, (_, index)) =
            self.within.iter().find(|(k, _)| *k == kind).ok_or_else(|| format!("`{id}` is no id here"))?;
        index(parent, id)
    }
    fn name_within(&self, kind: TypeId, parent: usize, index: usize) -> Option<String> {
        let (_, (name, _)) = self.within.iter().find(|(k, _)| *k == kind)?;
        name(parent, index)
    }
}
