//! Dry Gulch's scenario vocabulary: set-up overrides (in `setup`), actions
//! by catalog id, expectations, and the readable state description of
//! transcripts.

use std::collections::BTreeMap;
use std::rc::Rc;

use serde::{Deserialize, Serialize};

use super::payment::Payment;
use super::rules::End;
use super::rules::{Action, Phase, State};
use super::rules_data::{Bld, CardKind, Plot, Rules, kind};
use crate::engine::{Chance, Facts, Lookup, Scripted, Unapplied, Written};
use crate::lang::{CatalogIds, id_named};

mod setup;

pub use setup::{BuildingSpec, SetupSpec, TurnSpec};

fn card(rules: &Rules, id: &str) -> Result<CardKind, String> {
    id_named("card", rules.cards().map(|c| rules.card_id(c)), id)
}
fn building(rules: &Rules, id: &str) -> Result<Bld, String> {
    id_named("building", rules.buildings.iter().map(|b| &b.id), id)
}
fn plot(rules: &Rules, id: &str) -> Result<Plot, String> {
    id_named("plot", rules.plots.iter().map(|p| &p.id), id)
}

/// The catalog ids Dry Gulch's actions are written with.
pub fn names(rules: &Rules) -> Rc<dyn Lookup> {
    CatalogIds::default()
        .kind::<kind::Card, _>("card", rules.cards().map(|c| rules.card_id(c)))
        .kind::<kind::Building, _>("building", rules.buildings.iter().map(|b| &b.id))
        .kind::<kind::Plot, _>("plot", rules.plots.iter().map(|p| &p.id))
        .kind::<kind::Resource, _>("resource", rules.resources.iter().map(|r| &r.id))
        .kind::<crate::lang::declared::ActKind, _>("declared action", rules.actions.iter().map(|a| &a.id))
        .options(&rules.choices)
        .shared()
}

// The shape of a `build` action, for its schema (a doc comment here would
// enter it).
#[derive(schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
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

/// A `Payment` written as a `PaymentSpec` (`#[serde(with)]`).
pub mod payment {
    use serde::de::Error as _;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::{Payment, PaymentSpec};
    use crate::engine::names::counted::{ids_of, names_of};

    pub fn serialize<S: Serializer>(p: &impl std::ops::Deref<Target = Payment>, s: S) -> Result<S::Ok, S::Error> {
        let spec = PaymentSpec {
            direct: names_of(&p.direct),
            handyman: names_of(&p.handyman),
            store: names_of(&p.store),
            substituted: names_of(&p.substituted),
            cards: names_of(&p.cards),
        };
        spec.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Box<Payment>, D::Error> {
        let p = PaymentSpec::deserialize(d)?;
        let read = || -> Result<Payment, String> {
            Ok(Payment {
                direct: ids_of(&p.direct)?,
                handyman: ids_of(&p.handyman)?,
                store: ids_of(&p.store)?,
                substituted: ids_of(&p.substituted)?,
                cards: ids_of(&p.cards)?,
            })
        };
        read().map(Box::new).map_err(D::Error::custom)
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

impl Scripted for State {
    type Setup = SetupSpec;
    type ActionSpec = Written<Action>;
    type Expect = Expect;

    fn apply_setup(&mut self, rules: &Rules, setup: &SetupSpec) -> Result<(), Unapplied> {
        State::apply_setup(self, rules, setup)
    }
    fn action_from_spec(rules: &Rules, spec: &Written<Action>) -> Result<Action, Unapplied> {
        spec.read(&names(rules))
    }
    fn action_to_spec(rules: &Rules, action: &Action) -> Written<Action> {
        Written::of(action.clone(), names(rules))
    }
    fn record_expect(&self, rules: &Rules) -> Expect {
        self.facts(rules).record(&["winner", "outcome", "phase", "hand_size", "influence", "chips_left"])
    }
    fn facts(&self, rules: &Rules) -> Facts {
        super::facts::facts(self, rules)
    }
    fn describe_state(&self, rules: &Rules) -> String {
        describe_state(self, rules)
    }
    fn pending_decision(&self) -> Option<(usize, &'static str)> {
        self.agenda.decision.as_ref().map(|d| (d.seat(), d.name()))
    }
    fn chance(&mut self) -> Option<&mut Chance> {
        Some(&mut self.chance)
    }
}
