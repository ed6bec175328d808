//! Conditions over a game's states, as a command line writes them
//! (`rulecheck find --until "…"`): quantifiers over players and entities,
//! counts, comparisons, `and`/`or`/`not`, and `happened(K)` for an event of
//! kind K in the last action's events. The names are a game's
//! (`engine::Query`); everything else is here and the same for every game.
//!
//! ```text
//! cond  := or
//! or    := and ("or" and)*
//! and   := not ("and" not)*
//! not   := "not" not | ("any" | "all") binder ":" or | sum [op sum]
//! op    := "==" | "!=" | "<" | "<=" | ">" | ">="
//! sum   := atom (("+" | "-") atom)*
//! atom  := INT | "(" or ")" | "count" "(" binder ":" or ")" | NAME ["(" arg ("," arg)* ")"]
//! binder:= KIND | NAME "in" KIND        (a bare kind binds a variable named after it)
//! arg   := a bound variable | an entity's id (`p2`, `saloon`, `fire`)
//! ```
//!
//! A compiled condition has a **distance**: 0 exactly when it holds, else
//! a count of how far the state is from it (the numeric slack of a
//! comparison, `10 - x` for `x >= 10`; the sum over `and` and `all`, the
//! least over `or` and `any`; 1 for a predicate, a `not` or a `happened`
//! that fails). `find` searches best-first by it.

use std::fmt;

use crate::engine::{EVENT, PLAYER, Query, Sort};

/// A condition string that does not parse or names what the game lacks,
/// at a 1-based column of the string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueryError {
    pub column: usize,
    pub message: String,
}

impl QueryError {
    /// The error with the condition and a caret under the column.
    pub fn render(&self, what: &str, text: &str) -> String {
        format!(
            "{what}:1:{}: error: {}\n  | {text}\n  | {}^",
            self.column,
            self.message,
            " ".repeat(self.column.saturating_sub(1))
        )
    }
}

impl fmt::Display for QueryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "column {}: {}", self.column, self.message)
    }
}

fn err<T>(column: usize, message: impl Into<String>) -> Result<T, QueryError> {
    Err(QueryError { column, message: message.into() })
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Int(i64),
    Name(String),
    Sym(&'static str),
    End,
}

const SYMS: [&str; 12] = ["==", "!=", "<=", ">=", "<", ">", "(", ")", ",", ":", "+", "-"];

/// The tokens of `text`, each with its 1-based column.
fn lex(text: &str) -> Result<Vec<(Tok, usize)>, QueryError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let col = i + 1;
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() {
            let s: String = chars[i..].iter().take_while(|c| c.is_ascii_digit()).collect();
            i += s.len();
            let Ok(n) = s.parse() else { return err(col, format!("the number `{s}` is too large")) };
            out.push((Tok::Int(n), col));
        } else if c.is_ascii_alphabetic() || c == '_' {
            let mut j = i;
            // a `-` inside a name (`fire-insurance`) belongs to it when a letter or digit follows
            while j < chars.len()
                && (chars[j].is_ascii_alphanumeric()
                    || chars[j] == '_'
                    || (chars[j] == '-' && chars.get(j + 1).is_some_and(|c| c.is_ascii_alphanumeric())))
            {
                j += 1;
            }
            out.push((Tok::Name(chars[i..j].iter().collect()), col));
            i = j;
        } else if let Some(s) = SYMS.iter().find(|s| chars[i..].iter().take(s.len()).copied().eq(s.chars())) {
            out.push((Tok::Sym(s), col));
            i += s.len();
        } else {
            return err(col, format!("unexpected character `{c}`"));
        }
    }
    out.push((Tok::End, chars.len() + 1));
    Ok(out)
}

/// A comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

#[derive(Debug, Clone, PartialEq)]
enum Arg {
    Lit(usize),
    /// A bound variable by its slot.
    Var(usize),
}

/// What a quantifier or count ranges over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Domain {
    Players,
    /// The entities of a kind: their number.
    Kind(usize),
}

#[derive(Debug, Clone, PartialEq)]
enum Num {
    Int(i64),
    Term(usize, Vec<Arg>),
    Count(usize, Domain, Box<Cond>),
    Add(Box<Num>, Box<Num>),
    Sub(Box<Num>, Box<Num>),
}

#[derive(Debug, Clone, PartialEq)]
enum Cond {
    Pred(usize, Vec<Arg>),
    Happened(usize),
    Cmp(Op, Num, Num),
    And(Vec<Cond>),
    Or(Vec<Cond>),
    Not(Box<Cond>),
    /// `all` (true) or `any`, a slot, what it ranges over, the body.
    Quant(bool, usize, Domain, Box<Cond>),
}

/// A compiled condition for one game's states.
#[derive(Debug, Clone, PartialEq)]
pub struct Condition {
    pub text: String,
    cond: Cond,
    slots: usize,
    /// It names `happened`, so the last action's events matter.
    events: bool,
}

/// What a condition may name: a game's terms and kinds, its seats and event kinds.
struct Vocab {
    terms: Vec<(&'static str, &'static [&'static str], Sort)>,
    kinds: Vec<(String, Vec<String>)>,
    players: usize,
}

impl Vocab {
    fn entities(&self, kind: &str) -> Option<Vec<String>> {
        if kind == PLAYER {
            return Some((1..=self.players).map(|i| format!("p{i}")).collect());
        }
        self.kinds.iter().find(|(k, _)| k == kind).map(|(_, e)| e.clone())
    }

    fn domain(&self, kind: &str) -> Option<Domain> {
        if kind == PLAYER {
            return Some(Domain::Players);
        }
        self.kinds.iter().find(|(k, _)| k == kind).map(|(_, e)| Domain::Kind(e.len()))
    }

    fn kind_names(&self) -> String {
        let mut k: Vec<&str> = vec![PLAYER];
        k.extend(self.kinds.iter().map(|(k, _)| k.as_str()).filter(|k| *k != EVENT));
        k.join(", ")
    }
}

struct Parser<'a> {
    toks: Vec<(Tok, usize)>,
    at: usize,
    vocab: &'a Vocab,
    /// Bound variables: name, kind, slot.
    scope: Vec<(String, String, usize)>,
    slots: usize,
    events: bool,
}

/// Compiles `text` against game `G`'s vocabulary for `players` seats.
pub fn compile<G: Query>(rules: &G::Rules, players: usize, text: &str) -> Result<Condition, QueryError> {
    let mut kinds: Vec<(String, Vec<String>)> = G::kinds(rules).into_iter().map(|(k, e)| (k.to_string(), e)).collect();
    kinds.push((EVENT.to_string(), G::event_kinds(rules)));
    let terms = G::terms().iter().map(|t| (t.name, t.args, t.sort)).collect();
    let vocab = Vocab { terms, kinds, players };
    let mut p = Parser { toks: lex(text)?, at: 0, vocab: &vocab, scope: Vec::new(), slots: 0, events: false };
    let cond = p.or()?;
    if let (t, col) = p.peek()
        && *t != Tok::End
    {
        return err(*col, format!("expected `and`, `or` or the end, found {}", shown(t)));
    }
    Ok(Condition { text: text.to_string(), cond, slots: p.slots, events: p.events })
}

fn shown(t: &Tok) -> String {
    match t {
        Tok::Int(n) => format!("`{n}`"),
        Tok::Name(s) => format!("`{s}`"),
        Tok::Sym(s) => format!("`{s}`"),
        Tok::End => "the end".into(),
    }
}

/// A parsed operand before it is known to be a number or a condition.
enum Operand {
    Num(Num),
    Cond(Cond),
}

impl Parser<'_> {
    fn peek(&self) -> &(Tok, usize) {
        &self.toks[self.at]
    }
    fn next(&mut self) -> (Tok, usize) {
        let t = self.toks[self.at].clone();
        if t.0 != Tok::End {
            self.at += 1;
        }
        t
    }
    fn eat(&mut self, sym: &str) -> bool {
        let hit = matches!(&self.peek().0, Tok::Sym(s) if *s == sym);
        if hit {
            self.at += 1;
        }
        hit
    }
    fn word(&self, w: &str) -> bool {
        matches!(&self.peek().0, Tok::Name(s) if s == w)
    }
    fn expect(&mut self, sym: &str) -> Result<(), QueryError> {
        if self.eat(sym) {
            return Ok(());
        }
        let (t, col) = self.peek();
        err(*col, format!("expected `{sym}`, found {}", shown(t)))
    }

    fn or(&mut self) -> Result<Cond, QueryError> {
        let mut parts = vec![self.and()?];
        while self.word("or") {
            self.at += 1;
            parts.push(self.and()?);
        }
        Ok(if parts.len() == 1 { parts.pop().expect("one part") } else { Cond::Or(parts) })
    }

    fn and(&mut self) -> Result<Cond, QueryError> {
        let mut parts = vec![self.not()?];
        while self.word("and") {
            self.at += 1;
            parts.push(self.not()?);
        }
        Ok(if parts.len() == 1 { parts.pop().expect("one part") } else { Cond::And(parts) })
    }

    fn not(&mut self) -> Result<Cond, QueryError> {
        if self.word("not") {
            self.at += 1;
            return Ok(Cond::Not(Box::new(self.not()?)));
        }
        if self.word("any") || self.word("all") {
            let all = self.word("all");
            self.at += 1;
            let (slot, domain) = self.binder()?;
            let body = self.or();
            self.scope.pop();
            return Ok(Cond::Quant(all, slot, domain, Box::new(body?)));
        }
        let col = self.peek().1;
        let left = self.sum()?;
        let op = match &self.peek().0 {
            Tok::Sym("==") => Op::Eq,
            Tok::Sym("!=") => Op::Ne,
            Tok::Sym("<") => Op::Lt,
            Tok::Sym("<=") => Op::Le,
            Tok::Sym(">") => Op::Gt,
            Tok::Sym(">=") => Op::Ge,
            _ => {
                return match left {
                    Operand::Cond(c) => Ok(c),
                    Operand::Num(_) => err(col, "a number is not a condition; compare it (`>= 1`, `== 0`)"),
                };
            }
        };
        let op_col = self.next().1;
        let rcol = self.peek().1;
        let right = self.sum()?;
        match (left, right) {
            (Operand::Num(a), Operand::Num(b)) => Ok(Cond::Cmp(op, a, b)),
            (Operand::Cond(_), _) => err(col, "a condition is not a number; only numbers compare"),
            (_, Operand::Cond(_)) => {
                let _ = op_col;
                err(rcol, "a condition is not a number; only numbers compare")
            }
        }
    }

    /// `KIND` or `NAME in KIND`, then `:`; binds the variable (popped by the caller).
    fn binder(&mut self) -> Result<(usize, Domain), QueryError> {
        let (t, col) = self.next();
        let Tok::Name(first) = t else {
            return err(col, format!("expected a kind to range over, found {}", shown(&t)));
        };
        let (name, kind, kcol) = if self.word("in") {
            self.at += 1;
            let (k, kcol) = self.next();
            let Tok::Name(kind) = k else { return err(kcol, format!("expected a kind, found {}", shown(&k))) };
            (first, kind, kcol)
        } else {
            (first.clone(), first, col)
        };
        let Some(domain) = self.vocab.domain(&kind).filter(|_| kind != EVENT) else {
            return err(kcol, format!("unknown kind `{kind}`; the kinds: {}", self.vocab.kind_names()));
        };
        self.expect(":")?;
        let slot = self.slots;
        self.slots += 1;
        self.scope.push((name, kind, slot));
        Ok((slot, domain))
    }

    fn sum(&mut self) -> Result<Operand, QueryError> {
        let col = self.peek().1;
        let mut left = self.atom()?;
        loop {
            let add = if self.eat("+") {
                true
            } else if self.eat("-") {
                false
            } else {
                return Ok(left);
            };
            let rcol = self.peek().1;
            let right = self.atom()?;
            let (Operand::Num(a), Operand::Num(b)) = (left, right) else {
                return err(if add { col } else { rcol }, "only numbers add and subtract");
            };
            left =
                Operand::Num(if add { Num::Add(Box::new(a), Box::new(b)) } else { Num::Sub(Box::new(a), Box::new(b)) });
        }
    }

    fn atom(&mut self) -> Result<Operand, QueryError> {
        let (t, col) = self.next();
        match t {
            Tok::Int(n) => Ok(Operand::Num(Num::Int(n))),
            Tok::Sym("(") => {
                // a parenthesised number (`(a + b)`) or condition
                let save = self.at;
                if let Ok(Operand::Num(n)) = self.sum()
                    && self.eat(")")
                {
                    return Ok(Operand::Num(n));
                }
                self.at = save;
                let c = self.or()?;
                self.expect(")")?;
                Ok(Operand::Cond(c))
            }
            Tok::Name(n) if n == "count" => {
                self.expect("(")?;
                let (slot, domain) = self.binder()?;
                let body = self.or();
                self.scope.pop();
                let body = body?;
                self.expect(")")?;
                Ok(Operand::Num(Num::Count(slot, domain, Box::new(body))))
            }
            Tok::Name(n) => self.call(&n, col),
            t => err(col, format!("expected a number, a name or `(`, found {}", shown(&t))),
        }
    }

    fn call(&mut self, name: &str, col: usize) -> Result<Operand, QueryError> {
        if name == "happened" {
            self.expect("(")?;
            let a = self.arg(EVENT)?;
            self.expect(")")?;
            let Arg::Lit(k) = a else { unreachable!("events are never bound") };
            self.events = true;
            return Ok(Operand::Cond(Cond::Happened(k)));
        }
        let Some(term) = self.vocab.terms.iter().position(|t| t.0 == name) else {
            if self.scope.iter().any(|(v, _, _)| v == name) {
                return err(col, format!("`{name}` is a variable; pass it to a quantity or predicate"));
            }
            let names: Vec<&str> = self.vocab.terms.iter().map(|t| t.0).collect();
            let hint = crate::lang::did_you_mean(names.iter().copied().chain(["count", "happened"]), name);
            return err(col, format!("unknown name `{name}`{hint}; the names: {}, count, happened", names.join(", ")));
        };
        let (_, kinds, sort) = self.vocab.terms[term];
        let mut args = Vec::new();
        if self.eat("(") {
            loop {
                let (t, acol) = self.peek().clone();
                let Some(kind) = kinds.get(args.len()) else {
                    let _ = t;
                    return err(acol, format!("`{name}` takes {} argument(s)", kinds.len()));
                };
                args.push(self.arg(kind)?);
                if !self.eat(",") {
                    break;
                }
            }
            self.expect(")")?;
        }
        if args.len() != kinds.len() {
            let want: Vec<String> = kinds.iter().map(|k| k.to_string()).collect();
            return err(col, format!("`{name}` takes {} argument(s): {name}({})", kinds.len(), want.join(", ")));
        }
        Ok(match sort {
            Sort::Num => Operand::Num(Num::Term(term, args)),
            Sort::Bool => Operand::Cond(Cond::Pred(term, args)),
        })
    }

    /// An argument of kind `kind`: a variable bound to that kind, or an entity's id.
    fn arg(&mut self, kind: &str) -> Result<Arg, QueryError> {
        let (t, col) = self.next();
        let Tok::Name(n) = t else { return err(col, format!("expected a {kind}, found {}", shown(&t))) };
        if let Some((_, k, slot)) = self.scope.iter().rev().find(|(v, _, _)| *v == n) {
            if k != kind {
                return err(col, format!("`{n}` is a {k}, but a {kind} is wanted here"));
            }
            return Ok(Arg::Var(*slot));
        }
        let entities = self.vocab.entities(kind).unwrap_or_default();
        match entities.iter().position(|e| *e == n) {
            // an event kind named after a variant and a card's id alike
            Some(i) if entities[i + 1..].contains(&n) => {
                err(col, format!("`{n}` names two {kind}s (a catalog id is spelt like another); rename one"))
            }
            Some(i) => Ok(Arg::Lit(i)),
            None => {
                let hint = crate::lang::did_you_mean(entities.iter().map(String::as_str), &n);
                let list = if entities.len() <= 40 {
                    format!("; the {kind}s: {}", entities.join(", "))
                } else {
                    String::new()
                };
                err(col, format!("unknown {kind} `{n}`{hint}{list}"))
            }
        }
    }
}

/// A state to evaluate a condition on: the state and its last action's events.
pub struct At<'a, G: Query> {
    pub rules: &'a G::Rules,
    pub state: &'a G,
    /// The event kinds the last action reported (indexes into `event_kinds`).
    pub happened: &'a [usize],
}

impl Condition {
    /// True when it names `happened` (the last action's events matter).
    pub fn uses_events(&self) -> bool {
        self.events
    }

    /// True when the condition holds at `at`.
    pub fn holds<G: Query>(&self, at: &At<'_, G>) -> bool {
        self.distance(at) == 0
    }

    /// How far `at` is from the condition (0 exactly when it holds; see the module docs).
    pub fn distance<G: Query>(&self, at: &At<'_, G>) -> u64 {
        let mut env = vec![0usize; self.slots];
        dist(&self.cond, at, &mut env)
    }
}

/// The event kinds of `events`, for `At::happened`.
pub fn kinds_of<G: Query>(rules: &G::Rules, events: &[G::Event]) -> Vec<usize> {
    let mut out = Vec::new();
    for e in events {
        G::kinds_of_event(rules, e, &mut out);
    }
    out
}

fn size<G: Query>(d: Domain, at: &At<'_, G>) -> usize {
    match d {
        Domain::Players => at.state.players(),
        Domain::Kind(n) => n,
    }
}

fn args(a: &[Arg], env: &[usize]) -> Vec<usize> {
    a.iter()
        .map(|a| match a {
            Arg::Lit(i) => *i,
            Arg::Var(s) => env[*s],
        })
        .collect()
}

fn dist<G: Query>(c: &Cond, at: &At<'_, G>, env: &mut [usize]) -> u64 {
    match c {
        Cond::Pred(t, a) => u64::from(at.state.value(at.rules, *t, &args(a, env)) == 0),
        Cond::Happened(k) => u64::from(!at.happened.contains(k)),
        Cond::Cmp(op, a, b) => {
            let (a, b) = (num(a, at, env), num(b, at, env));
            let d = match op {
                Op::Eq => (a - b).abs(),
                Op::Ne => i64::from(a == b),
                Op::Lt => (a - b + 1).max(0),
                Op::Le => (a - b).max(0),
                Op::Gt => (b - a + 1).max(0),
                Op::Ge => (b - a).max(0),
            };
            d.unsigned_abs()
        }
        Cond::And(cs) => cs.iter().map(|c| dist(c, at, env)).fold(0, u64::saturating_add),
        Cond::Or(cs) => cs.iter().map(|c| dist(c, at, env)).min().unwrap_or(0),
        Cond::Not(c) => u64::from(dist(c, at, env) == 0),
        Cond::Quant(all, slot, d, body) => {
            let mut total: Option<u64> = None;
            for i in 0..size(*d, at) {
                env[*slot] = i;
                let x = dist(body, at, env);
                total = Some(match total {
                    None => x,
                    Some(t) if *all => t.saturating_add(x),
                    Some(t) => t.min(x),
                });
            }
            // over nothing: `all` holds, `any` does not
            total.unwrap_or(u64::from(!*all))
        }
    }
}

fn num<G: Query>(n: &Num, at: &At<'_, G>, env: &mut [usize]) -> i64 {
    match n {
        Num::Int(i) => *i,
        Num::Term(t, a) => at.state.value(at.rules, *t, &args(a, env)),
        Num::Count(slot, d, body) => {
            let mut k = 0;
            for i in 0..size(*d, at) {
                env[*slot] = i;
                k += i64::from(dist(body, at, env) == 0);
            }
            k
        }
        Num::Add(a, b) => num(a, at, env).saturating_add(num(b, at, env)),
        Num::Sub(a, b) => num(a, at, env).saturating_sub(num(b, at, env)),
    }
}
