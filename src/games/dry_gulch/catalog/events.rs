//! The event cards: each checked (id, names, provenance, bounds, what its
//! triangle asks of it), its target, condition and effect compiled in the
//! shared language, and the one card of each yellow reaction.

use std::collections::BTreeMap;

use super::{Fx, Ids};
use crate::catalog::MAX_NUMBER;
use crate::catalog::common::{Citation, NumberTally, Source, check_id, check_names, check_provenance};
use crate::catalog::diag::Diagnostics;
use crate::catalog::folder::lookup;
use crate::games::dry_gulch::bounds::{MAX_COPIES, check_bound};
use crate::games::dry_gulch::effects::DAMAGE;
use crate::games::dry_gulch::layers::Layers;
use crate::games::dry_gulch::rules_data::{Bld, CardKind, Event, ReactionKey, Target, id_at, kind};
use crate::games::dry_gulch::schema::{RawEvent, RawTarget, Reaction, Triangle};
use crate::yaml::position;

/// The events, in catalog order, and the card of each yellow reaction.
pub(super) fn lower_events(
    lay: &Layers<'_>,
    (ids, fx): (&Ids, &mut Fx<'_>),
    languages: &[String],
    tally: &mut NumberTally,
    diags: &mut Diagnostics,
) -> (Vec<Event>, BTreeMap<ReactionKey, CardKind>) {
    let rs = lay.resources.len();
    let mut events = Vec::new();
    let mut reactions = BTreeMap::new();
    for (i, entry) in lay.events.iter().enumerate() {
        let (e, f) = (entry.raw, entry.from.path);
        let card = id_at::<kind::Card>(rs + i, f, position(&e.id), diags);
        check_names(f, &e.names, languages, diags);
        check_id(f, &e.id, diags);
        if ids.resources.contains_key(&e.id.value) {
            diags.error(
                f,
                position(&e.id),
                format!("event id `{}` is also a resource id; card ids must be unique", e.id.value),
            );
        }
        let effect_numbers = fx.registry.count_numbers(&e.effect);
        tally.add(check_provenance(
            f,
            &format!("event `{}`", e.id.value),
            position(&e.id),
            &e.source,
            &e.assumed,
            &[("copies", 1), ("influence", usize::from(e.influence > 0)), ("effect", effect_numbers)],
            diags,
        ));
        if e.source.is_empty() {
            diags.error(f, position(&e.id), format!("event `{}` cites no source for its text", e.id.value));
        }
        check_bound(
            f,
            position(&e.copies),
            &format!("event `{}`: copies", e.id.value),
            e.copies.value,
            MAX_COPIES,
            diags,
        );
        check_bound(f, position(&e.id), &format!("event `{}`: influence", e.id.value), e.influence, MAX_NUMBER, diags);
        let target = e.target.as_ref().and_then(|t| match t {
            RawTarget::AnyBuilding => Some(Target::AnyBuilding),
            RawTarget::Building(b) => lookup(&ids.buildings, "building", b, f, diags).map(Target::Building),
        });
        let from = Source { path: f, text: entry.from.text };
        let (condition, effect) = fx.compile(&from, e.target.is_some(), diags, |cx| {
            (e.condition.as_ref().and_then(|c| cx.cond(c)), cx.effects(&e.effect))
        });
        let rewards: Vec<Bld> =
            e.rewards.iter().filter_map(|b| lookup(&ids.buildings, "building", b, f, diags)).collect();
        check_triangle(f, e, diags);
        if let Some(r) = e.reaction {
            add_reaction(f, e, r, card, &mut reactions, diags);
        }
        events.push(Event {
            id: e.id.value.clone(),
            name: e.names.display(languages, &e.id.value).to_string(),
            triangle: e.triangle,
            copies: e.copies.value,
            target,
            condition,
            effect,
            influence: e.influence,
            rewards,
            reaction: e.reaction,
            only_to_win: e.only_to_win,
            source: e.source.iter().map(Citation::lower).collect(),
        });
    }
    (events, reactions)
}

/// What an event's triangle asks of it, and the fields that belong to
/// one triangle only.
fn check_triangle(f: &str, e: &RawEvent, diags: &mut Diagnostics) {
    match e.triangle {
        Triangle::Violet => {
            if e.influence == 0 {
                diags.error(f, position(&e.id), format!("violet event `{}` counts no influence", e.id.value));
            }
        }
        Triangle::Yellow => {
            if e.reaction.is_none() {
                diags.error(f, position(&e.id), format!("yellow event `{}` names no reaction", e.id.value));
            }
        }
        Triangle::Red => {
            if e.target.is_none() || !e.effect.iter().any(|n| n.operation().is_some_and(|(w, _)| w.text == DAMAGE)) {
                diags.error(
                    f,
                    position(&e.id),
                    format!("red event `{}` must have a target and a `damage` effect", e.id.value),
                );
            }
        }
        Triangle::None => {}
    }
    // the condition is what lets an influence card be played: no other card reads one
    let violet_only = e.influence > 0 || !e.rewards.is_empty() || e.only_to_win || e.condition.is_some();
    if e.triangle != Triangle::Violet && violet_only {
        diags.error(
            f,
            position(&e.id),
            format!("event `{}`: influence, rewards, only_to_win and condition belong to violet cards", e.id.value),
        );
    }
    if e.triangle != Triangle::Yellow && e.reaction.is_some() {
        diags.error(f, position(&e.id), format!("event `{}`: a reaction belongs to a yellow card", e.id.value));
    }
}

/// Records the card of reaction `r`; a second card with it is a diagnostic.
fn add_reaction(
    f: &str,
    e: &RawEvent,
    r: Reaction,
    card: Option<CardKind>,
    reactions: &mut BTreeMap<ReactionKey, CardKind>,
    diags: &mut Diagnostics,
) {
    let key = match r {
        Reaction::AceUpYourSleeve => ReactionKey::Ace,
        Reaction::Iou => ReactionKey::Iou,
        Reaction::FireInsurance => ReactionKey::Insurance,
        Reaction::HandymanBrother => ReactionKey::Handyman,
    };
    if card.is_some_and(|c| reactions.insert(key, c).is_some()) {
        let name = match r {
            Reaction::AceUpYourSleeve => "ace-up-your-sleeve",
            Reaction::Iou => "iou",
            Reaction::FireInsurance => "fire-insurance",
            Reaction::HandymanBrother => "handyman-brother",
        };
        diags.error(f, position(&e.id), format!("a second event with the reaction `{name}`"));
    }
}
