//! Compiling conditions: the shared ones (`all`, `any`, `not`, `flag`,
//! `reading`, `count`) and, through the host, the game's.

use super::compile::{Compiler, Param, Ty, did_you_mean, req};
use super::effect::{Cmp, Cond, Lang, Quantity, Val};
use super::node::{Node, Value, Word};

const READING: &[Param] = &[req("id", Ty::Word), req("option", Ty::Word)];

impl<L: Lang> Compiler<'_, L> {
    /// A condition: a shared one, else the game's.
    pub fn cond(&mut self, n: &Node) -> Option<Cond<L>> {
        let Some((name, Some(arg))) = n.operation() else {
            let found = n.value.kind();
            self.error(n.at, format!("a condition is a mapping with one key, its name (`built: bank`); found {found}"));
            return None;
        };
        let list = |cx: &mut Self, what: &str| -> Option<Vec<Cond<L>>> {
            match &arg.value {
                Value::Seq(items) => Some(items.iter().filter_map(|c| cx.cond(c)).collect()),
                other => {
                    cx.error(arg.at, format!("`{what}` takes a list of conditions, found {}", other.kind()));
                    None
                }
            }
        };
        match name.text.as_str() {
            "all" => list(self, "all").map(Cond::All),
            "any" => list(self, "any").map(Cond::Any),
            "not" => self.cond(arg).map(|c| Cond::Not(Box::new(c))),
            "flag" => match arg.word() {
                Some(w) => self.flag(&w).map(Cond::Flag),
                None => {
                    self.error(arg.at, format!("`flag` takes a flag id, found {}", arg.value.kind()));
                    None
                }
            },
            "reading" => self.reading(&name, arg),
            "count" => self.count(&name, arg),
            _ => {
                if let Some(c) = self.host.cond(&name, arg, &mut self.report) {
                    return Some(Cond::Game(c));
                }
                let mut known = vec!["all", "any", "not", "flag", "reading", "count"];
                known.extend(self.host.cond_names());
                let hint = did_you_mean(known.iter().copied(), &name.text);
                self.error(name.at, format!("unknown condition `{}`; known: {}{hint}", name.text, known.join(", ")));
                None
            }
        }
    }

    /// `reading: {id, option}`: the configuration chose this option.
    fn reading(&mut self, name: &Word, arg: &Node) -> Option<Cond<L>> {
        self.args("reading", READING, None, name, Some(arg))?;
        let Value::Map(m) = &arg.value else { return None };
        let get = |k: &str| m.iter().find(|(key, _)| key.text == k).and_then(|(_, v)| v.word());
        let (id, option) = (get("id")?, get("option")?);
        let interpretations = self.names.interpretations;
        let Some(i) = interpretations.iter().position(|(i, _)| *i == id.text) else {
            let hint = did_you_mean(interpretations.iter().map(|(i, _)| i.as_str()), &id.text);
            self.error(id.at, format!("unknown interpretation `{}`{hint}", id.text));
            return None;
        };
        self.tables.readings.insert(i);
        let options = &interpretations[i].1;
        match options.iter().position(|o| *o == option.text) {
            Some(o) => Some(Cond::Reading(i, o as u16)),
            None => {
                let msg = format!(
                    "interpretation `{}` has no option `{}`; its options: {}",
                    id.text,
                    option.text,
                    options.join(", ")
                );
                self.error(option.at, msg);
                None
            }
        }
    }

    /// `count: {of: <quantity>, at_least: N}` (or `at_most`, `exactly`,
    /// `more_than`, `fewer_than`).
    fn count(&mut self, name: &Word, arg: &Node) -> Option<Cond<L>> {
        let Value::Map(m) = &arg.value else {
            self.error(
                arg.at,
                format!("`count` takes a mapping `{{of: ..., at_least: N}}`, found {}", arg.value.kind()),
            );
            return None;
        };
        let mut known: Vec<&str> = vec!["of"];
        known.extend(Cmp::ALL.iter().map(|(n, _)| *n));
        for (k, _) in m.iter().filter(|(k, _)| !known.contains(&k.text.as_str())) {
            let hint = did_you_mean(known.iter().copied(), &k.text);
            self.error(k.at, format!("`count` has no argument `{}`; it takes {}{hint}", k.text, known.join(", ")));
        }
        let cmps: Vec<_> =
            (m.iter()).filter_map(|(k, v)| Some((Cmp::ALL.iter().find(|(n, _)| *n == k.text)?, v))).collect();
        let [((what, cmp), v)] = cmps.as_slice() else {
            let list = Cmp::ALL.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ");
            self.error(name.at, format!("`count` needs exactly one comparison: {list}"));
            return None;
        };
        let n = match self.value("count", req(what, Ty::Count), v)? {
            Val::Count(n) => n,
            _ => return None,
        };
        let Some((_, of)) = m.iter().find(|(k, _)| k.text == "of") else {
            self.error(name.at, "`count` needs the argument `of` (what it counts, e.g. `{hand: active}`)");
            return None;
        };
        let of = self.quantity(of)?;
        Some(Cond::Count { of, cmp: *cmp, n })
    }

    /// What a `count` counts: `{players: <selector>}` or `{<measure>: <selector>}`.
    fn quantity(&mut self, n: &Node) -> Option<Quantity<L>> {
        let mut known = vec!["players"];
        known.extend(self.host.measures().iter().map(|(name, _)| *name));
        let Some((name, Some(sel))) = n.operation() else {
            let msg = format!("`of` takes a mapping with one key, one of {}, and a selector", known.join(", "));
            self.error(n.at, msg);
            return None;
        };
        let Some(w) = sel.word() else {
            self.error(sel.at, format!("`{}` takes a selector, found {}", name.text, sel.value.kind()));
            return None;
        };
        if name.text == "players" {
            return self.selector(&w, false).map(Quantity::Players);
        }
        let Some(&(_, m)) = self.host.measures().iter().find(|(k, _)| *k == name.text) else {
            let hint = did_you_mean(known.iter().copied(), &name.text);
            self.error(name.at, format!("unknown measure `{}`; known: {}{hint}", name.text, known.join(", ")));
            return None;
        };
        self.selector(&w, false).map(|s| Quantity::Measure(m, s))
    }
}
