//! Dry Gulch's scenario vocabulary: set-up overrides (in `setup`), actions
//! by catalog id, expectations, and the readable state description of
//! transcripts.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::payment::{Counts, Payment};
use super::rules::End;
use super::rules::{Action, Phase, State, choice_id};
use super::rules_data::{Bld, CardKind, Plot, Res, Rules};
use crate::lang::{counted, id_named, option_named};

mod setup;

pub use setup::{BuildingSpec, DeckTop, SetupSpec, TurnSpec};

fn card(rules: &Rules, id: &str) -> Result<CardKind, String> {
    id_named("card", rules.cards().map(|c| rules.card_id(c)), id)
}
fn building(rules: &Rules, id: &str) -> Result<Bld, String> {
    id_named("building", rules.buildings.iter().map(|b| &b.id), id)
}
fn plot(rules: &Rules, id: &str) -> Result<Plot, String> {
    id_named("plot", rules.plots.iter().map(|p| &p.id), id)
}
fn resource(rules: &Rules, id: &str) -> Result<Res, String> {
    id_named("resource", rules.resources.iter().map(|r| &r.id), id)
}

// ---------------------------------------------------------------- actions

/// An action as a scenario writes it, with catalog ids.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub enum ActionSpec {
    PlaceResidence(String),
    DraftPermit(String),
    DiscardRevealed(String),
    KeepRevealed(String),
    ReopenTownHall(BTreeMap<String, u8>),
    EndEvents,
    DrawResources,
    TakeFaceUpPermit(String),
    DrawPermits,
    KeepPermit(String),
    ChoosePermit(String),
    BankDraw,
    Build(BuildSpec),
    PlayInfluence(String),
    PlayDisaster {
        card: String,
        plot: String,
    },
    Resolve {
        card: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        plot: Option<String>,
    },
    EndBuild,
    Discard(String),
    EndTurn,
    StartTurn,
    UseInsurance(bool),
    UseIou(bool),
    Protect(Option<String>),
    /// The card a `give` hands over (its giver picks).
    Give(String),
    /// Draw (true) or decline an influence card's reward.
    RewardDraw(bool),
    SpreadTo(String),
    /// An option of a `choose` effect, by its id.
    Choose(String),
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BuildSpec {
    pub building: String,
    pub plot: String,
    pub payment: PaymentSpec,
}

/// A payment by ids: `direct`, `handyman`, `store` and `substituted` map a
/// resource to how many units are covered that way; `cards` lists the cards
/// given for store uses and substitutions.
#[derive(Debug, Clone, PartialEq, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PaymentSpec {
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub direct: BTreeMap<String, u8>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub handyman: BTreeMap<String, u8>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub store: BTreeMap<String, u8>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub substituted: BTreeMap<String, u8>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub cards: BTreeMap<String, u8>,
}

/// Counts by catalog id, in id order, zeros left out.
fn counts<K: Ord>(m: &BTreeMap<String, u8>, named: impl Fn(&str) -> Result<K, String>) -> Result<Counts<K>, String> {
    let mut v = counted(m, named)?;
    v.sort();
    v.retain(|(_, n)| *n > 0);
    Ok(v.into_iter().collect())
}

fn ids_of<K: Copy>(c: &Counts<K>, name: impl Fn(K) -> String) -> BTreeMap<String, u8> {
    c.iter().map(|&(k, n)| (name(k), n)).collect()
}

pub fn action_from_spec(rules: &Rules, a: &ActionSpec) -> Result<Action, String> {
    let res = |r: &str| resource(rules, r);
    Ok(match a {
        ActionSpec::PlaceResidence(p) => Action::PlaceResidence(plot(rules, p)?),
        ActionSpec::DraftPermit(b) => Action::DraftPermit(building(rules, b)?),
        ActionSpec::DiscardRevealed(c) => Action::DiscardRevealed(card(rules, c)?),
        ActionSpec::KeepRevealed(c) => Action::KeepRevealed(card(rules, c)?),
        ActionSpec::ReopenTownHall(m) => Action::ReopenTownHall(counts(m, |c| card(rules, c))?.into_iter().collect()),
        ActionSpec::EndEvents => Action::EndEvents,
        ActionSpec::DrawResources => Action::DrawResources,
        ActionSpec::TakeFaceUpPermit(b) => Action::TakeFaceUpPermit(building(rules, b)?),
        ActionSpec::DrawPermits => Action::DrawPermits,
        ActionSpec::KeepPermit(b) => Action::KeepPermit(building(rules, b)?),
        ActionSpec::ChoosePermit(b) => Action::ChoosePermit(building(rules, b)?),
        ActionSpec::BankDraw => Action::BankDraw,
        ActionSpec::Build(b) => Action::Build {
            building: building(rules, &b.building)?,
            plot: plot(rules, &b.plot)?,
            payment: Payment {
                direct: counts(&b.payment.direct, res)?,
                handyman: counts(&b.payment.handyman, res)?,
                store: counts(&b.payment.store, res)?,
                substituted: counts(&b.payment.substituted, res)?,
                cards: counts(&b.payment.cards, |c| card(rules, c))?,
            },
        },
        ActionSpec::PlayInfluence(c) => Action::PlayInfluence(card(rules, c)?),
        ActionSpec::PlayDisaster { card: c, plot: p } => {
            Action::PlayDisaster { card: card(rules, c)?, plot: plot(rules, p)? }
        }
        ActionSpec::Resolve { card: c, plot: p } => {
            Action::Resolve { card: card(rules, c)?, plot: p.as_deref().map(|p| plot(rules, p)).transpose()? }
        }
        ActionSpec::EndBuild => Action::EndBuild,
        ActionSpec::Discard(c) => Action::Discard(card(rules, c)?),
        ActionSpec::EndTurn => Action::EndTurn,
        ActionSpec::StartTurn => Action::StartTurn,
        ActionSpec::UseInsurance(b) => Action::UseInsurance(*b),
        ActionSpec::UseIou(b) => Action::UseIou(*b),
        ActionSpec::Protect(c) => Action::Protect(c.as_deref().map(|c| card(rules, c)).transpose()?),
        ActionSpec::Give(c) => Action::Give(card(rules, c)?),
        ActionSpec::RewardDraw(yes) => Action::RewardDraw(*yes),
        ActionSpec::SpreadTo(p) => Action::SpreadTo(plot(rules, p)?),
        ActionSpec::Choose(id) => {
            let (choice, option) = option_named(&rules.choices, id)?;
            Action::Choose { choice, option }
        }
    })
}

pub fn action_to_spec(rules: &Rules, a: &Action) -> ActionSpec {
    let p = |x: Plot| rules.plots[x.index()].id.clone();
    let b = |x: Bld| rules.buildings[x.index()].id.clone();
    let c = |x: CardKind| rules.card_id(x).to_string();
    let r = |x: Res| rules.resources[x.index()].id.clone();
    match a {
        Action::PlaceResidence(x) => ActionSpec::PlaceResidence(p(*x)),
        Action::DraftPermit(x) => ActionSpec::DraftPermit(b(*x)),
        Action::DiscardRevealed(x) => ActionSpec::DiscardRevealed(c(*x)),
        Action::KeepRevealed(x) => ActionSpec::KeepRevealed(c(*x)),
        Action::ReopenTownHall(m) => ActionSpec::ReopenTownHall(m.iter().map(|&(k, n)| (c(k), n)).collect()),
        Action::EndEvents => ActionSpec::EndEvents,
        Action::DrawResources => ActionSpec::DrawResources,
        Action::TakeFaceUpPermit(x) => ActionSpec::TakeFaceUpPermit(b(*x)),
        Action::DrawPermits => ActionSpec::DrawPermits,
        Action::KeepPermit(x) => ActionSpec::KeepPermit(b(*x)),
        Action::ChoosePermit(x) => ActionSpec::ChoosePermit(b(*x)),
        Action::BankDraw => ActionSpec::BankDraw,
        Action::Build { building: x, plot: y, payment: pay } => ActionSpec::Build(BuildSpec {
            building: b(*x),
            plot: p(*y),
            payment: PaymentSpec {
                direct: ids_of(&pay.direct, r),
                handyman: ids_of(&pay.handyman, r),
                store: ids_of(&pay.store, r),
                substituted: ids_of(&pay.substituted, r),
                cards: ids_of(&pay.cards, c),
            },
        }),
        Action::PlayInfluence(x) => ActionSpec::PlayInfluence(c(*x)),
        Action::PlayDisaster { card: x, plot: y } => ActionSpec::PlayDisaster { card: c(*x), plot: p(*y) },
        Action::Resolve { card: x, plot: y } => ActionSpec::Resolve { card: c(*x), plot: y.map(p) },
        Action::EndBuild => ActionSpec::EndBuild,
        Action::Discard(x) => ActionSpec::Discard(c(*x)),
        Action::EndTurn => ActionSpec::EndTurn,
        Action::StartTurn => ActionSpec::StartTurn,
        Action::UseInsurance(x) => ActionSpec::UseInsurance(*x),
        Action::UseIou(x) => ActionSpec::UseIou(*x),
        Action::Protect(x) => ActionSpec::Protect(x.map(c)),
        Action::Give(x) => ActionSpec::Give(c(*x)),
        Action::RewardDraw(x) => ActionSpec::RewardDraw(*x),
        Action::SpreadTo(x) => ActionSpec::SpreadTo(p(*x)),
        Action::Choose { choice, option } => ActionSpec::Choose(choice_id(rules, *choice, *option).to_string()),
    }
}

// ----------------------------------------------------------- expectations

pub use super::facts::Expect;

pub fn phase_name(p: &Phase) -> &'static str {
    match p {
        Phase::NextTurn | Phase::TurnStart => "start",
        Phase::Residence { .. } | Phase::Draft { .. } => "setup",
        Phase::Events { .. } => "events",
        Phase::Draw | Phase::DrawKeep { .. } => "draw",
        Phase::Build => "build",
        Phase::Reward => "reward",
        Phase::Discard => "discard",
        Phase::Over => "over",
    }
}

pub fn outcome_name(o: Option<End>) -> String {
    match o {
        None => "ongoing".into(),
        Some(End::Win(_)) => "win".into(),
        Some(End::Draw(r)) => format!(
            "draw:{}",
            serde_json::to_value(r).ok().and_then(|v| v.as_str().map(String::from)).unwrap_or_default()
        ),
    }
}

/// The state in a few readable lines, for transcripts.
pub fn describe_state(s: &State, rules: &Rules) -> String {
    describe_view(s, rules, None)
}

/// What `viewer` may see (`None`: everything). A seat sees its own hand and
/// permits; of the others it sees how many cards and permits they hold,
/// since both lie face down (dry-gulch-en § Setup 5, § Drawing 2).
pub fn describe_view(s: &State, rules: &Rules, viewer: Option<usize>) -> String {
    let mut out = String::new();
    let phase = phase_name(&s.phase);
    out.push_str(&format!(
        "turn {} (round {}), P{} active, phase {phase}, outcome {}\n",
        s.turns + 1,
        s.round(),
        s.active + 1,
        outcome_name(s.outcome)
    ));
    if let Some(d) = &s.agenda.decision {
        out.push_str(&format!("waiting for P{} to decide `{}`\n", d.seat() + 1, d.name()));
    }
    for i in 0..s.seats.len() {
        describe_seat(&mut out, s, rules, i, viewer.is_none_or(|v| v == i));
    }
    if !s.face_up.is_empty() {
        let f: Vec<&str> = s.face_up.iter().map(|&c| rules.card_id(c)).collect();
        out.push_str(&format!("face up: [{}]\n", f.join(", ")));
    }
    out.push_str(&format!(
        "decks: {} resources ({} discarded), {} events ({} discarded), {} permits ({} face up{}); markers {}{}\n",
        s.resource_deck.len(),
        s.resource_discard.len(),
        s.event_deck.len(),
        s.event_discard.len(),
        s.permit_deck.len(),
        s.permit_discard.len(),
        match s.permits_spent.len() {
            0 => String::new(),
            n => format!(", {n} spent out of play"),
        },
        s.markers_used(),
        if s.town_hall_closed.is_some() { "; the Town Hall is closed" } else { "" }
    ));
    out
}

/// One line for seat `i`: its hand and permits when `seen`, else how many
/// lie face down.
fn describe_seat(out: &mut String, s: &State, rules: &Rules, i: usize, seen: bool) {
    let p = &s.seats[i];
    let hand: Vec<String> = (p.hand.iter())
        .map(|(k, n)| if n == 1 { rules.card_id(k).to_string() } else { format!("{n}x {}", rules.card_id(k)) })
        .collect();
    let permits: Vec<String> = (p.permits.iter())
        .map(|(b, n)| {
            let id = &rules.building(b).id;
            if n == 1 { id.clone() } else { format!("{n}x {id}") }
        })
        .collect();
    let buildings: Vec<String> = s
        .board
        .iter()
        .enumerate()
        .filter_map(|(pl, x)| x.filter(|x| x.owner == Some(i)).map(|x| (pl, x)))
        .map(|(pl, x)| {
            format!(
                "{}@{}{}",
                rules.buildings[x.building.index()].id,
                rules.plots[pl].id,
                if x.damage.is_some() { " (damaged)" } else { "" }
            )
        })
        .collect();
    let (hand, permits) = if seen {
        (format!("[{}]", hand.join(", ")), format!("[{}]", permits.join(", ")))
    } else {
        ("face down".to_string(), format!("{} face down", p.permits.total()))
    };
    out.push_str(&format!(
        "P{}: influence {}, chips left {}, hand {} {hand}, permits {permits}, buildings [{}]",
        i + 1,
        s.counted_influence(rules, i),
        p.chips.count(),
        p.hand_size(),
        buildings.join(", ")
    ));
    if !p.in_front.is_empty() {
        let f: Vec<&str> = p.in_front.iter().map(|(c, _)| rules.card_id(*c)).collect();
        out.push_str(&format!(", in front [{}]", f.join(", ")));
    }
    if !p.influence.is_empty() {
        let f: Vec<&str> = p.influence.iter().map(|c| rules.card_id(*c)).collect();
        out.push_str(&format!(", influence cards [{}]", f.join(", ")));
    }
    out.push_str(&s.waiting_note(i));
    out.push('\n');
}
