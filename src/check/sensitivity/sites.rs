//! The assumed numbers of a catalog, found in its source text. A record
//! with an `assumed: {field: reason}` map says which of its number fields
//! hold invented numbers (see `catalog::common::check_provenance`); each
//! integer written inside such a field is a site, and so is a flow list of
//! words with no integer in it (a cost `[lumber, brick]`), whose length is
//! the number. A site knows its file, line, column and byte span, so a
//! perturbation rewrites the text there and the catalog is loaded again.
//!
//! ```
//! use rulecheck::catalog::{GameSources, SourceFile};
//! use rulecheck::check::sensitivity::{Change, find_sites};
//! let text = "limits:\n  cap: 30\n  assumed: {cap: \"no text gives one\"}\n";
//! let mut src = GameSources::default();
//! src.files.insert("game.yaml".into(), SourceFile { path: "g/game.yaml".into(), text: text.into() });
//! let (sites, _) = find_sites(&src).unwrap();
//! assert_eq!((sites[0].line, sites[0].column, sites[0].value()), (2, 8, 30));
//! assert_eq!(sites[0].rewrite(Change::PlusOne).unwrap(), "31");
//! ```

use std::collections::BTreeMap;

use serde::Serialize;

use crate::catalog::GameSources;
use crate::catalog::diag::Diagnostic;
use crate::lang::{Node, Value, Word};
use crate::yaml;

/// One assumed number in the source.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Site {
    /// The file's name in its folder (`buildings.yaml`).
    pub file: String,
    pub line: u64,
    pub column: u64,
    /// The record's `id`, or the keys that lead to it (`limits`).
    pub record: String,
    /// The field its `assumed` map names.
    pub field: String,
    #[serde(skip)]
    pub number: Number,
    /// Other places that hold the same number and change with it, as
    /// (file, start, end): the `set:` of each default option that sets this
    /// `game.yaml` number to the value written here (`twins`).
    #[serde(skip)]
    pub twins: Vec<(String, usize, usize)>,
}

/// What a site's text holds, at byte offsets `start..end` of its file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Number {
    Int {
        value: i64,
        start: usize,
        end: usize,
    },
    /// A flow list of words; the number is its length.
    Count {
        items: Vec<String>,
        start: usize,
        end: usize,
    },
}

/// How a group's numbers are changed; each keeps a number whole and never
/// below 0. All but `MovedOne` change every number of the group alike;
/// `MovedOne` takes one from the group's largest number and gives it to its
/// smallest, so a group whose sum is a printed total (the copies of a deck)
/// can change within it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Change {
    Halved,
    Doubled,
    PlusOne,
    MinusOne,
    MovedOne,
}

impl Change {
    pub const ALL: [Change; 5] = [Change::Halved, Change::Doubled, Change::PlusOne, Change::MinusOne, Change::MovedOne];

    pub fn name(self) -> &'static str {
        match self {
            Change::Halved => "halved",
            Change::Doubled => "doubled",
            Change::PlusOne => "+1",
            Change::MinusOne => "-1",
            Change::MovedOne => "moved-1",
        }
    }

    /// The changed number; `None` below 0 (and for `MovedOne`, which is
    /// not a change of one number).
    pub fn of(self, n: i64) -> Option<i64> {
        let m = match self {
            Change::Halved => n.div_euclid(2),
            Change::Doubled => n.checked_mul(2)?,
            Change::PlusOne => n.checked_add(1)?,
            Change::MinusOne => n - 1,
            Change::MovedOne => return None,
        };
        (m >= 0).then_some(m)
    }
}

impl Site {
    pub fn value(&self) -> i64 {
        match &self.number {
            Number::Int { value, .. } => *value,
            Number::Count { items, .. } => items.len() as i64,
        }
    }

    /// Where it stands, as diagnostics write it.
    pub fn place(&self) -> String {
        format!("{}:{}:{}", self.file, self.line, self.column)
    }

    fn span(&self) -> (usize, usize) {
        match &self.number {
            Number::Int { start, end, .. } | Number::Count { start, end, .. } => (*start, *end),
        }
    }

    /// The text that replaces the site's under `change`; `None` when the
    /// number would stay as it is or fall below 0 (or a list would have to
    /// grow from nothing).
    pub fn rewrite(&self, change: Change) -> Option<String> {
        let new = change.of(self.value()).filter(|&n| n != self.value())?;
        match &self.number {
            Number::Int { .. } => Some(new.to_string()),
            Number::Count { items, .. } => {
                let last = items.last()?;
                let n = usize::try_from(new).ok()?;
                let list: Vec<&str> = (0..n).map(|i| items.get(i).unwrap_or(last).as_str()).collect();
                Some(format!("[{}]", list.join(", ")))
            }
        }
    }
}

/// The sites of every file of `src`, in file and text order, and the
/// assumed fields whose numbers are written in a form that cannot be
/// rewritten (`file:line:column record.field`). A file that does not parse
/// is the loader's diagnostic.
pub fn find_sites(src: &GameSources) -> Result<(Vec<Site>, Vec<String>), Diagnostic> {
    let (mut sites, mut unplaced) = (Vec::new(), Vec::new());
    let mut defaults = Vec::new();
    for (name, f) in &src.files {
        let node: Node = yaml::from_str(&f.path, &f.text)?;
        let mut walk = Walk { file: name, text: &f.text, sites: &mut sites, unplaced: &mut unplaced };
        walk.node(&node, &mut Vec::new());
        if name == INTERPRETATIONS {
            default_sets(&node, &f.text, &mut defaults);
        }
    }
    twins(&mut sites, &defaults);
    Ok((sites, unplaced))
}

const INTERPRETATIONS: &str = "interpretations.yaml";

/// A number a default option sets: its key (`ship.capacity_per_cowboy`),
/// value and span in `interpretations.yaml`.
type DefaultSet = (String, i64, usize, usize);

/// The numbers the default option of each interpretation tied to no
/// variant sets (`set: {ship.capacity_per_cowboy: 4}`), wherever such a
/// record stands in the file (a bundled list, an overlay's `add:` or
/// `override:`).
fn default_sets(node: &Node, text: &str, out: &mut Vec<DefaultSet>) {
    match &node.value {
        Value::Map(entries) => {
            let get = |key: &str| entries.iter().find(|(k, _)| k.text == key).map(|(_, v)| v);
            let default = get("default").and_then(Node::word);
            if let (Some(Value::Seq(options)), Some(default), None) =
                (get("options").map(|o| &o.value), default, get("variant"))
            {
                for o in options {
                    let Value::Map(o) = &o.value else { continue };
                    let field = |key: &str| o.iter().find(|(k, _)| k.text == key).map(|(_, v)| v);
                    if field("id").and_then(Node::word).is_none_or(|id| id.text != default.text) {
                        continue;
                    }
                    let Some(Value::Map(set)) = field("set").map(|s| &s.value) else { continue };
                    for (key, value) in set {
                        if let Value::Int(n) = value.value
                            && let Some((start, end)) = int_span(text, value.at, n)
                        {
                            out.push((key.text.clone(), n, start, end));
                        }
                    }
                }
            }
            entries.iter().for_each(|(_, v)| default_sets(v, text, out));
        }
        Value::Seq(items) => items.iter().for_each(|i| default_sets(i, text, out)),
        _ => {}
    }
}

/// Gives each `game.yaml` site the places where a default option sets the
/// same number to the same value: the default game plays the option's
/// number, and `validate` holds the two together
/// (`catalog::common::check_defaults_agree`), so a change of one alone
/// would be refused and measure nothing.
fn twins(sites: &mut [Site], defaults: &[DefaultSet]) {
    for s in sites.iter_mut().filter(|s| s.file == "game.yaml") {
        let (key, value) = (format!("{}.{}", s.record, s.field), s.value());
        s.twins = (defaults.iter())
            .filter(|(k, n, _, _)| *k == key && *n == value)
            .map(|&(_, _, start, end)| (INTERPRETATIONS.to_string(), start, end))
            .collect();
    }
}

struct Walk<'a> {
    file: &'a str,
    text: &'a str,
    sites: &'a mut Vec<Site>,
    unplaced: &'a mut Vec<String>,
}

impl Walk<'_> {
    fn node(&mut self, node: &Node, path: &mut Vec<String>) {
        match &node.value {
            Value::Map(entries) => {
                if let Some((_, assumed)) = entries.iter().find(|(k, _)| k.text == "assumed")
                    && let Value::Map(fields) = &assumed.value
                {
                    let record = record_name(entries, path);
                    for (field, _) in fields {
                        if let Some((_, value)) = entries.iter().find(|(k, _)| k.text == field.text) {
                            self.field(value, &record, field);
                        }
                    }
                }
                for (k, v) in entries.iter().filter(|(k, _)| k.text != "assumed") {
                    path.push(k.text.clone());
                    self.node(v, path);
                    path.pop();
                }
            }
            Value::Seq(items) => {
                for (i, item) in items.iter().enumerate() {
                    path.push(format!("[{i}]"));
                    self.node(item, path);
                    path.pop();
                }
            }
            _ => {}
        }
    }

    /// The sites of one assumed field's value.
    fn field(&mut self, value: &Node, record: &str, field: &Word) {
        let before = self.sites.len();
        let mut ints = Vec::new();
        collect_ints(value, &mut ints);
        for (n, at) in ints {
            match int_span(self.text, at, n) {
                Some((start, end)) => self.push(at, record, field, Number::Int { value: n, start, end }),
                None => self.unplaced(at, record, field),
            }
        }
        if let Value::Seq(items) = &value.value
            && self.sites.len() == before
            && items.iter().all(|i| matches!(i.value, Value::Str(_)))
        {
            let words: Vec<String> = items.iter().filter_map(|i| i.word().map(|w| w.text)).collect();
            match list_span(self.text, value.at, &words) {
                Some((start, end)) => self.push(value.at, record, field, Number::Count { items: words, start, end }),
                None => self.unplaced(value.at, record, field),
            }
        }
    }

    fn push(&mut self, (line, column): (u64, u64), record: &str, field: &Word, number: Number) {
        let (file, record, field) = (self.file.to_string(), record.to_string(), field.text.clone());
        self.sites.push(Site { file, line, column, record, field, number, twins: Vec::new() });
    }

    fn unplaced(&mut self, (line, column): (u64, u64), record: &str, field: &Word) {
        self.unplaced.push(format!("{}:{line}:{column} {record}.{}", self.file, field.text));
    }
}

/// A record's name: its `id`, else the keys and indexes that lead to it.
fn record_name(entries: &[(Word, Node)], path: &[String]) -> String {
    match entries.iter().find(|(k, _)| k.text == "id").and_then(|(_, v)| v.word()) {
        Some(id) => id.text,
        None => path.join(".").replace(".[", "["),
    }
}

fn collect_ints(node: &Node, out: &mut Vec<(i64, (u64, u64))>) {
    match &node.value {
        Value::Int(n) => out.push((*n, node.at)),
        Value::Seq(items) => items.iter().for_each(|i| collect_ints(i, out)),
        Value::Map(entries) => entries.iter().for_each(|(_, v)| collect_ints(v, out)),
        _ => {}
    }
}

/// The byte offset of a 1-based line and column (columns count characters).
fn offset(text: &str, (line, column): (u64, u64)) -> Option<usize> {
    let start: usize = text.split_inclusive('\n').take(usize::try_from(line).ok()?.checked_sub(1)?).map(str::len).sum();
    let rest = text.get(start..)?;
    let col = usize::try_from(column).ok()?.checked_sub(1)?;
    rest.char_indices().nth(col).map(|(i, _)| start + i)
}

/// The span of the decimal integer `n` written at `at`, if it is written so.
fn int_span(text: &str, at: (u64, u64), n: i64) -> Option<(usize, usize)> {
    let start = offset(text, at)?;
    let rest = &text[start..];
    let sign = usize::from(rest.starts_with('-') || rest.starts_with('+'));
    let len = sign + rest[sign..].bytes().take_while(u8::is_ascii_digit).count();
    (rest[..len].parse::<i64>().ok() == Some(n)).then_some((start, start + len))
}

/// The span of a flow list `[a, b]` of exactly `words` written at `at`.
fn list_span(text: &str, at: (u64, u64), words: &[String]) -> Option<(usize, usize)> {
    let start = offset(text, at)?;
    let rest = text[start..].strip_prefix('[')?;
    let inner = &rest[..rest.find(']')?];
    let written: Vec<&str> = inner.split(',').map(str::trim).filter(|w| !w.is_empty()).collect();
    let plain = |w: &str| w.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c));
    (written.len() == words.len() && written.iter().zip(words).all(|(a, b)| plain(a) && a == b))
        .then_some((start, start + 1 + inner.len() + 1))
}

/// The groups a run perturbs: by default one per file and field
/// (`buildings.yaml:cost`: every building's cost at once), in name order;
/// with `each`, one per site (`buildings.yaml:40:11 saloon.cost`), in the
/// order of the files and their text.
pub fn group_sites(sites: &[Site], each: bool) -> Vec<(String, Vec<Site>)> {
    if each {
        return sites.iter().map(|s| (format!("{} {}.{}", s.place(), s.record, s.field), vec![s.clone()])).collect();
    }
    let mut groups: BTreeMap<String, Vec<Site>> = BTreeMap::new();
    for s in sites {
        groups.entry(format!("{}:{}", s.file, s.field)).or_default().push(s.clone());
    }
    groups.into_iter().collect()
}

/// `MovedOne` as one change per site: -1 at the first of the largest
/// numbers, +1 at the last of the smallest that can grow (a list of nothing
/// has no item to repeat); `None` when no two sites allow it.
fn moved_one(sites: &[Site]) -> Option<Vec<(&Site, Change)>> {
    let from =
        sites.iter().enumerate().filter(|(_, s)| s.value() > 0).max_by_key(|(i, s)| (s.value(), -(*i as i64)))?;
    let grows = |s: &Site| s.rewrite(Change::PlusOne).is_some();
    let to = sites
        .iter()
        .enumerate()
        .filter(|(i, s)| *i != from.0 && grows(s))
        .min_by_key(|(i, s)| (s.value(), -(*i as i64)))?;
    Some(vec![(from.1, Change::MinusOne), (to.1, Change::PlusOne)])
}

/// `src` with every site of `sites` changed by `change`; `None` when no
/// site's number changes.
pub fn perturb(src: &GameSources, sites: &[Site], change: Change) -> Option<GameSources> {
    let mut edits: BTreeMap<&str, Vec<(usize, usize, String)>> = BTreeMap::new();
    let changes: Vec<(&Site, Change)> = match change {
        Change::MovedOne => moved_one(sites)?,
        _ => sites.iter().map(|s| (s, change)).collect(),
    };
    for (s, change) in changes {
        if let Some(text) = s.rewrite(change) {
            for (file, start, end) in &s.twins {
                edits.entry(file.as_str()).or_default().push((*start, *end, text.clone()));
            }
            let (start, end) = s.span();
            edits.entry(s.file.as_str()).or_default().push((start, end, text));
        }
    }
    if edits.is_empty() {
        return None;
    }
    let mut out = src.clone();
    for (file, mut list) in edits {
        let f = out.files.get_mut(file)?;
        list.sort_by_key(|(start, _, _)| std::cmp::Reverse(*start));
        for (start, end, text) in list {
            f.text.replace_range(start..end, &text);
        }
    }
    Some(out)
}
