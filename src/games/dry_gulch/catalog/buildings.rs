//! The buildings: their records (cost, influence, permits), their roles,
//! and how many copies of one may stand: the two building fields written
//! as conditions (`repeat:`, `same_as:`), compiled once the shared
//! language can read the catalog's ids.

use std::collections::BTreeMap;

use super::{Fx, Ids};
use crate::catalog::MAX_NUMBER;
use crate::catalog::common::roles::{self, Need};
use crate::catalog::common::{Entry, NumberTally, check_record};
use crate::catalog::diag::Diagnostics;
use crate::catalog::folder::lookup;
use crate::games::dry_gulch::bounds::{MAX_COPIES, check_bound};
use crate::games::dry_gulch::layers::Layers;
use crate::games::dry_gulch::rules_data::{Building, Res};
use crate::games::dry_gulch::schema::{Ability, RawBuilding};
use crate::yaml::position;

/// The buildings, in catalog order, without their `repeat:` and `same_as:`
/// (`lower_copies` adds them once effects compile).
pub(super) fn lower_buildings(
    lay: &Layers<'_>,
    ids: &Ids,
    languages: &[String],
    tally: &mut NumberTally,
    diags: &mut Diagnostics,
) -> Vec<Building> {
    let mut buildings = Vec::new();
    for e in &lay.buildings {
        let (b, f) = (e.raw, e.from.path);
        let fields = [("cost", b.cost.len()), ("influence", 1), ("permits", 1)];
        check_record(f, "building", b, &fields, languages, tally, diags);
        check_building_numbers(f, b, diags);
        let mut cost: BTreeMap<Res, u32> = BTreeMap::new();
        for c in &b.cost {
            if let Some(r) = lookup(&ids.resources, "resource", c, f, diags) {
                *cost.entry(r).or_default() += 1;
            }
        }
        let special = matches!(b.ability, Some(Ability::Residence | Ability::TownHall));
        if special && (b.permits.value != 0 || !b.cost.is_empty()) {
            diags.error(
                f,
                position(&b.id),
                format!("building `{}` is placed at set-up, so it has no cost and no permits", b.id.value),
            );
        }
        if !special && b.cost.is_empty() {
            diags.error(f, position(&b.id), format!("building `{}` has no cost", b.id.value));
        }
        buildings.push(Building {
            id: b.id.value.clone(),
            name: b.names.display(languages, &b.id.value).to_string(),
            cost: cost.into_iter().collect(),
            influence: b.influence,
            corner: b.corner,
            permits: b.permits.value,
            ability: b.ability,
            repeat: None,
            same_as: None,
        });
    }
    buildings
}

/// A building's permits, influence and number of cost cards within their bounds.
fn check_building_numbers(f: &str, b: &RawBuilding, diags: &mut Diagnostics) {
    check_bound(
        f,
        position(&b.permits),
        &format!("building `{}`: permits", b.id.value),
        b.permits.value,
        MAX_COPIES,
        diags,
    );
    check_bound(f, position(&b.id), &format!("building `{}`: influence", b.id.value), b.influence, MAX_NUMBER, diags);
    if b.cost.len() > MAX_COPIES as usize {
        let at = position(&b.cost[MAX_COPIES as usize]);
        diags.error(
            f,
            at,
            format!("building `{}` costs more than {MAX_COPIES} cards (a payment counts them in a byte)", b.id.value),
        );
    }
}

/// Exactly one building has each of the abilities the set-up and the
/// Bank's plot need (`roles::one_each`, the field being `ability:`).
pub(super) fn check_roles(lay: &Layers<'_>, diags: &mut Diagnostics) {
    let needs = [
        Need { role: Ability::Residence, id: "residence", why: "every player places one at set-up" },
        Need { role: Ability::TownHall, id: "town-hall", why: "it stands on its plot from the start" },
        Need { role: Ability::Bank, id: "bank", why: "the bank plot holds it alone" },
    ];
    let carriers = lay.buildings.iter().map(|e| (e.from.path, position(&e.raw.id), e.raw.ability));
    roles::one_each("ability", "building", carriers, &needs, (lay.buildings.base.path, (1, 1)), diags);
}

/// Compiles each building's `repeat:` and `same_as:` into `buildings`
/// (in catalog order, one per entry).
pub(super) fn lower_copies(
    bs: &[Entry<'_, RawBuilding>],
    fx: &mut Fx<'_>,
    ids: &Ids,
    buildings: &mut [Building],
    diags: &mut Diagnostics,
) {
    for (e, b) in bs.iter().zip(buildings.iter_mut()) {
        if let Some(c) = &e.raw.repeat {
            b.repeat = fx.compile(&e.from, false, diags, |cx| cx.cond(c));
        }
        if let Some(s) = &e.raw.same_as {
            let other = lookup(&ids.buildings, "building", &s.building, e.from.path, diags);
            if s.building.value == e.raw.id.value {
                let msg = format!("building `{}` is `same_as` itself", e.raw.id.value);
                diags.error(e.from.path, position(&s.building), msg);
            }
            let when = fx.compile(&e.from, false, diags, |cx| cx.cond(&s.when));
            b.same_as = other.zip(when);
        }
    }
}
