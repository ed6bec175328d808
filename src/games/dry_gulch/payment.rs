//! Paying for a building: the canonical `Payment`, its check, and the
//! enumeration of every distinct payment up to interchangeable cards.
//!
//! A requirement unit of resource `r` is covered by one of: a card of `r`
//! (direct; a Labor card covers `turn.labor_card_units` Labor units, which
//! the `labor-card-value` reading `two` sets to 2; at 0 it pays none), a
//! Handyman Brother (an ability), a General Store use (a good, one card of
//! any kind), or substitution (`subst(r)` cards of any kind). Which store or substitute card covers which unit changes nothing,
//! so a payment records counts per resource plus one pool of "any" cards.
//!
//! Canonical order of the enumeration: resources in catalog order; for each,
//! more direct cards first, then fewer Handyman, fewer store uses; finally
//! the pool multisets in lexicographic order of card kinds, most of the
//! lowest kind first.

use serde::{Deserialize, Serialize};
use smallvec::SmallVec;

use super::readings::{FoodKind, GeneralStoreGoods, HOOKS, LaborSubstitution, P, SubstituteOnlyMissing};
use super::rules_data::{CardKind, Res, Resource, ResourceKind, Rules, kind};
use crate::engine::{Hook, Id, Kind, Touched, count_picks, each_pick, nth_pick};

/// (key, count) pairs, sorted by key, no zero counts; inline up to eight
/// entries, so listing thousands of payments does not allocate.
pub type Counts<K> = SmallVec<[(K, u8); 8]>;

#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Default)]
pub struct Payment {
    /// Cards used as the resource they show: (resource, cards).
    #[serde(default, skip_serializing_if = "SmallVec::is_empty")]
    pub direct: Counts<Res>,
    /// Handyman Brother cards used as abilities: (ability, cards).
    #[serde(default, skip_serializing_if = "SmallVec::is_empty")]
    pub handyman: Counts<Res>,
    /// Good requirements covered through the General Store: (good, uses).
    #[serde(default, skip_serializing_if = "SmallVec::is_empty")]
    pub store: Counts<Res>,
    /// Requirements replaced by substitution: (resource, units).
    #[serde(default, skip_serializing_if = "SmallVec::is_empty")]
    pub substituted: Counts<Res>,
    /// The cards given for store uses and substitutions: (card, count).
    #[serde(default, skip_serializing_if = "SmallVec::is_empty")]
    pub cards: Counts<CardKind>,
}

/// A copy of the five short lists as plain memory copies: the derived
/// `SmallVec` clone goes element by element through `Extend`, and the legal
/// list clones one payment per plot it can be built on.
impl Clone for Payment {
    #[inline]
    fn clone(&self) -> Payment {
        Payment {
            direct: copy(&self.direct),
            handyman: copy(&self.handyman),
            store: copy(&self.store),
            substituted: copy(&self.substituted),
            cards: copy(&self.cards),
        }
    }
}

/// A copy of a short list: a fixed-size inline buffer filled entry by entry
/// (these lists hold one to four entries; a `memcpy` call costs more).
#[inline]
fn copy<K: Kind>(c: &[(Id<K>, u8)]) -> Counts<Id<K>> {
    let mut buf = [(Id::ZERO, 0u8); 8];
    if c.len() > buf.len() {
        return Counts::from_slice(c);
    }
    for (to, from) in buf.iter_mut().zip(c) {
        *to = *from;
    }
    Counts::from_buf_and_len(buf, c.len())
}

/// What the payment rules need to know besides the catalog. The four
/// readings are read through their methods, which record the reading as
/// consulted (in `touched`) only where a payment turns on it, not on every
/// listing of the build phase.
#[derive(Debug, Clone)]
pub struct Terms<'a> {
    /// Substitute only for resources the player holds no card of (the
    /// General Store and Handyman Brother are powers of their own).
    pub only_missing: bool,
    /// The Labor units one Labor card covers (`turn.labor_card_units`).
    pub labor_units: u32,
    /// Use the German table's value where the English leaves a blank.
    pub blank_from_de: bool,
    /// General Store uses left this turn.
    pub store_left: u32,
    /// The store may cover only goods the player holds no card of.
    pub store_missing_only: bool,
    /// The card kind of Handyman Brother, if the deck has one.
    pub handyman: Option<CardKind>,
    /// The kind of a resource whose kind is not printed (`food-kind`).
    pub unprinted_is: ResourceKind,
    /// Where the consultations are recorded (`None`: nowhere).
    pub touched: Option<&'a Touched>,
}

impl Terms<'_> {
    fn read<H: Hook>(&self, value: bool) -> bool {
        self.mark::<H>();
        value
    }
    fn mark<H: Hook>(&self) {
        self.mark_at(H::INDEX);
    }
    /// Records switch point `point` (a hook's, or a parameter's after them).
    fn mark_at(&self, point: usize) {
        if let Some(t) = self.touched {
            t.mark(point);
        }
    }
    /// Whether a walk that skips reading the terms records nothing less:
    /// nothing is recorded, or every reading the walk could record is.
    fn all_recorded(&self) -> bool {
        self.touched.is_none_or(|t| {
            [
                SubstituteOnlyMissing::INDEX,
                LABOR_UNITS,
                LaborSubstitution::INDEX,
                GeneralStoreGoods::INDEX,
                FoodKind::INDEX,
            ]
            .into_iter()
            .all(|i| t.get(i))
        })
    }
    fn only_missing(&self) -> bool {
        self.read::<SubstituteOnlyMissing>(self.only_missing)
    }
    fn labor_units(&self) -> u32 {
        self.mark_at(LABOR_UNITS);
        self.labor_units
    }
    fn blank_from_de(&self) -> bool {
        self.read::<LaborSubstitution>(self.blank_from_de)
    }
    fn store_missing_only(&self) -> bool {
        self.read::<GeneralStoreGoods>(self.store_missing_only)
    }
    /// A resource's kind; an unprinted one as `food-kind` reads it.
    fn kind(&self, res: &Resource) -> ResourceKind {
        match res.kind {
            ResourceKind::Unprinted => {
                self.mark::<FoodKind>();
                self.unprinted_is
            }
            k => k,
        }
    }
}

fn get<K: Copy + Eq>(c: &Counts<K>, k: K) -> u32 {
    c.iter().find(|(x, _)| *x == k).map(|(_, n)| u32::from(*n)).unwrap_or(0)
}

pub fn subst_value(rules: &Rules, r: Res, t: &Terms) -> Option<u32> {
    let res = &rules.resources[r.index()];
    res.subst_en.or_else(|| res.subst_de.filter(|_| t.blank_from_de())).filter(|v| *v > 0)
}

/// The hand's index of the cards that show resource `r`.
fn card(r: Res) -> usize {
    r.lift::<kind::Card>().index()
}

/// The switch point of `turn.labor_card_units` (parameters follow the hooks).
const LABOR_UNITS: usize = HOOKS.len() + P::LaborCardUnits as usize;

/// The most of `held` cards worth `v` units each that `units` can use: none
/// when a card is worth none.
fn worth_paying(units: u32, v: u32, held: u32) -> u32 {
    if v == 0 { 0 } else { held.min(units.div_ceil(v)) }
}

/// The units of `r` one card of it covers: 1, or for Labor the parameter
/// (0: a Labor card covers none).
fn per_card(rules: &Rules, r: Res, t: &Terms) -> u32 {
    if r == rules.labor { t.labor_units() } else { 1 }
}

fn canonical<K: Copy + Ord>(c: &Counts<K>) -> bool {
    c.windows(2).all(|w| w[0].0 < w[1].0) && c.iter().all(|(_, n)| *n > 0)
}

/// Checks a payment for requirements `need` (resource, units) against a hand
/// (counts by card kind). `Err` says what is wrong.
pub fn check(rules: &Rules, t: &Terms, need: &[(Res, u32)], hand: &[u8], p: &Payment) -> Result<(), String> {
    if !(canonical(&p.direct)
        && canonical(&p.handyman)
        && canonical(&p.store)
        && canonical(&p.substituted)
        && canonical(&p.cards))
    {
        return Err("the payment is not in canonical form (sorted, no zero or repeated entries)".into());
    }
    let mut used: SmallVec<[u32; 48]> = SmallVec::from_elem(0, hand.len());
    let needed = |r: Res| need.iter().find(|(x, _)| *x == r).map(|(_, n)| *n).unwrap_or(0);
    for list in [&p.direct, &p.handyman, &p.store, &p.substituted] {
        for (r, _) in list.iter() {
            if r.index() >= rules.resources.len() || needed(*r) == 0 {
                return Err(format!(
                    "the building does not require {}",
                    rules.resources.get(r.index()).map(|x| x.id.as_str()).unwrap_or("that")
                ));
            }
        }
    }
    let mut pool = 0u32;
    let mut store_uses = 0u32;
    for &(r, n) in need {
        let res = &rules.resources[r.index()];
        let d = get(&p.direct, r);
        let h = get(&p.handyman, r);
        let s = get(&p.store, r);
        let sub = get(&p.substituted, r);
        let v = per_card(rules, r, t);
        let other = h + s + sub;
        if other > n {
            return Err(format!("{} is covered more often than the building needs", res.id));
        }
        let rest = n - other;
        if d * v < rest {
            return Err(format!("{} needs {n}, the payment covers {}", res.id, other + d * v));
        }
        if d > 0 && (d - 1) * v >= rest {
            return Err(format!("more {} cards than {} requires", res.id, res.id));
        }
        used[card(r)] += d;
        let held = u32::from(hand.get(card(r)).copied().unwrap_or(0));
        if h > 0 {
            if t.kind(res) != ResourceKind::Ability {
                return Err(format!("Handyman Brother pays abilities only, and {} is a good", res.id));
            }
            match t.handyman {
                Some(c) => used[c.index()] += h,
                None => return Err("no Handyman Brother in this deck".into()),
            }
        }
        if s > 0 {
            if t.kind(res) != ResourceKind::Good {
                return Err(format!("the General Store pays goods only, and {} is an ability", res.id));
            }
            if d < held && t.store_missing_only() {
                return Err(format!("the General Store may stand in only for a missing good, and {} is held", res.id));
            }
            store_uses += s;
        }
        let direct_first = worth_paying(n - h - s, v, held);
        if sub > 0 && d != direct_first && t.only_missing() {
            return Err(format!(
                "only missing resources may be substituted, and {direct_first} of the {held} {} held must be paid directly first",
                res.id
            ));
        }
        if sub > 0 {
            match subst_value(rules, r, t) {
                Some(k) => pool += sub * k,
                None => {
                    return Err(format!("{} cannot be substituted (its table value is blank)", res.id));
                }
            }
        }
    }
    if store_uses > t.store_left {
        return Err(format!("{store_uses} General Store uses, {} left this turn", t.store_left));
    }
    pool += store_uses;
    let given: u32 = p.cards.iter().map(|(_, n)| u32::from(*n)).sum();
    if given != pool {
        return Err(format!("store and substitution need {pool} cards, the payment gives {given}"));
    }
    for &(c, n) in &p.cards {
        if (c.index()) >= used.len() {
            return Err("unknown card in the payment".into());
        }
        used[c.index()] += u32::from(n);
    }
    for (c, u) in rules.cards().zip(&used) {
        if *u > u32::from(hand[c.index()]) {
            return Err(format!("the payment uses {u} {} but the hand holds {}", rules.card_id(c), hand[c.index()]));
        }
    }
    Ok(())
}

/// Every distinct payment, in canonical order.
pub fn enumerate(rules: &Rules, t: &Terms, need: &[(Res, u32)], hand: &[u8], out: &mut Vec<Payment>) {
    enumerate_each(rules, t, need, hand, &mut |p| out.push(p));
}

/// Every distinct payment, in canonical order, each handed to `f` (the
/// legal list makes its actions of them with no list between).
pub fn enumerate_each(rules: &Rules, t: &Terms, need: &[(Res, u32)], hand: &[u8], f: &mut dyn FnMut(Payment)) {
    each_partial(rules, t, need, hand, &mut |cur, left| {
        each_pick(left, cur.pool, &mut |cards| f(cur.payment(cards)));
    });
}

/// How many payments `enumerate_each` hands over, found with the same
/// walk (the terms are read, and recorded as consulted, exactly as it
/// reads them) but no payment made: the pools are counted, not listed.
pub fn count(rules: &Rules, t: &Terms, need: &[(Res, u32)], hand: &[u8]) -> usize {
    let mut n = 0;
    each_partial(rules, t, need, hand, &mut |cur, left| n += count_picks(left, cur.pool));
    n
}

/// The `k`-th payment `enumerate_each` hands over (from 0), if it hands
/// over more than `k`; only that one is made.
pub fn nth(rules: &Rules, t: &Terms, need: &[(Res, u32)], hand: &[u8], mut k: usize) -> Option<Payment> {
    let mut found = None;
    each_partial(rules, t, need, hand, &mut |cur, left| {
        if found.is_some() {
            return;
        }
        let here = count_picks(left, cur.pool);
        if k >= here {
            k -= here;
            return;
        }
        found = nth_pick(left, cur.pool, k).map(|cards| cur.payment(&cards));
    });
    found
}

/// Walks the payments' parts but the pool, in canonical order: `leaf`
/// gets each with the cards it leaves in hand, from which its pool of
/// `cur.pool` cards is chosen.
fn each_partial(rules: &Rules, t: &Terms, need: &[(Res, u32)], hand: &[u8], leaf: &mut dyn FnMut(&Partial, &[u8])) {
    let mut left: SmallVec<[u8; 48]> = SmallVec::from_slice(hand);
    let mut cur =
        Partial { cards_left: hand.iter().map(|&n| u32::from(n)).sum(), prune: t.all_recorded(), ..Partial::default() };
    per_resource(rules, t, need, 0, &mut left, &mut cur, t.store_left, leaf);
}

#[derive(Default)]
struct Partial {
    direct: Counts<Res>,
    handyman: Counts<Res>,
    store: Counts<Res>,
    substituted: Counts<Res>,
    pool: u32,
    /// The cards `left` holds.
    cards_left: u32,
    /// Whether a branch whose pool outgrows the cards left may be cut
    /// short (it leads to no payment; cut only where the readings its
    /// walk would record are recorded already, so nothing changes).
    prune: bool,
}

/// Where a `Partial` stood: the lengths of its lists and its pool.
type Mark = ([usize; 4], u32);

impl Partial {
    /// The payment of these parts and the pool `cards`.
    fn payment(&self, cards: &Counts<CardKind>) -> Payment {
        Payment {
            direct: copy(&self.direct),
            handyman: copy(&self.handyman),
            store: copy(&self.store),
            substituted: copy(&self.substituted),
            cards: copy(cards),
        }
    }

    fn mark(&self) -> Mark {
        ([self.direct.len(), self.handyman.len(), self.store.len(), self.substituted.len()], self.pool)
    }

    /// Undoes everything pushed since `m` (entries are only ever appended).
    fn reset(&mut self, m: Mark) {
        let ([d, h, s, sub], pool) = m;
        self.direct.truncate(d);
        self.handyman.truncate(h);
        self.store.truncate(s);
        self.substituted.truncate(sub);
        self.pool = pool;
    }
}

#[allow(clippy::too_many_arguments)]
fn per_resource(
    rules: &Rules,
    t: &Terms,
    need: &[(Res, u32)],
    i: usize,
    left: &mut [u8],
    cur: &mut Partial,
    store_left: u32,
    out: &mut dyn FnMut(&Partial, &[u8]),
) {
    if cur.prune && cur.pool > cur.cards_left {
        return;
    }
    let Some(&(r, n)) = need.get(i) else {
        out(cur, left);
        return;
    };
    let res = &rules.resources[r.index()];
    let v = per_card(rules, r, t);
    let held = u32::from(left[card(r)]);
    let max_d = worth_paying(n, v, held);
    for d in (0..=max_d).rev() {
        let rest = n.saturating_sub(d * v);
        let missing = d == held;
        // the kind is read only where a Handyman Brother or a store could pay
        let kind = if t.handyman.is_some() || store_left > 0 { t.kind(res) } else { res.kind };
        let hmax = match (kind, t.handyman) {
            (ResourceKind::Ability, Some(c)) => u32::from(left[c.index()]).min(rest),
            _ => 0,
        };
        for h in 0..=hmax {
            let smax = if kind == ResourceKind::Good && (missing || !t.store_missing_only()) {
                store_left.min(rest - h)
            } else {
                0
            };
            for s in 0..=smax {
                let sub = rest - h - s;
                if sub > 0 && d != worth_paying(n - h - s, v, held) && t.only_missing() {
                    continue;
                }
                let k = if sub > 0 {
                    match subst_value(rules, r, t) {
                        Some(k) => k,
                        None => continue,
                    }
                } else {
                    0
                };
                left[card(r)] -= d as u8;
                if let Some(c) = t.handyman {
                    left[c.index()] -= h as u8;
                }
                cur.cards_left -= d + h;
                let saved = cur.mark();
                push(&mut cur.direct, r, d);
                push(&mut cur.handyman, r, h);
                push(&mut cur.store, r, s);
                push(&mut cur.substituted, r, sub);
                cur.pool += s + sub * k;
                per_resource(rules, t, need, i + 1, left, cur, store_left - s, out);
                cur.reset(saved);
                cur.cards_left += d + h;
                left[card(r)] += d as u8;
                if let Some(c) = t.handyman {
                    left[c.index()] += h as u8;
                }
            }
        }
    }
}

fn push(c: &mut Counts<Res>, r: Res, n: u32) {
    if n > 0 {
        c.push((r, n as u8));
    }
}
