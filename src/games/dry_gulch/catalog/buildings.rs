//! The buildings' roles and how many copies of one may stand: the two
//! building fields written as conditions (`repeat:`, `same_as:`), compiled
//! once the shared language can read the catalog's ids.

use super::{Ids, LangCx};
use crate::catalog::common::Entry;
use crate::catalog::diag::Diagnostics;
use crate::catalog::folder::lookup;
use crate::games::dry_gulch::effects::Dg;
use crate::games::dry_gulch::layers::Layers;
use crate::games::dry_gulch::rules_data::Building;
use crate::games::dry_gulch::schema::{Ability, RawBuilding};
use crate::lang::Tables;
use crate::yaml::position;

/// Exactly one building has each of the roles the set-up and the Bank's
/// plot need.
pub(super) fn check_roles(lay: &Layers<'_>, diags: &mut Diagnostics) {
    let bs = &lay.buildings;
    for (ability, what) in
        [(Ability::Residence, "residence"), (Ability::TownHall, "town-hall"), (Ability::Bank, "bank")]
    {
        let with: Vec<_> = bs.iter().filter(|e| e.raw.ability == Some(ability)).collect();
        if with.len() != 1 {
            // at the second building with it, or at the first building when none has it
            let (f, at) = match with.get(1).copied().or(bs.first()) {
                Some(e) => (e.from.path, position(&e.raw.id)),
                None => (lay.base.buildings, (1, 1)),
            };
            diags.error(f, at, format!("exactly one building must have ability `{what}`, found {}", with.len()));
        }
    }
}

/// Compiles each building's `repeat:` and `same_as:` into `buildings`
/// (in catalog order, one per entry).
pub(super) fn lower_copies(
    bs: &[Entry<'_, RawBuilding>],
    lang: &LangCx<'_>,
    ids: &Ids,
    tables: &mut Tables<Dg>,
    buildings: &mut [Building],
    diags: &mut Diagnostics,
) {
    for (e, b) in bs.iter().zip(buildings.iter_mut()) {
        if let Some(c) = &e.raw.repeat {
            b.repeat = lang.compile(&e.from, false, tables, diags, |cx| cx.cond(c));
        }
        if let Some(s) = &e.raw.same_as {
            let other = lookup(&ids.buildings, "building", &s.building, e.from.path, diags);
            if s.building.value == e.raw.id.value {
                let msg = format!("building `{}` is `same_as` itself", e.raw.id.value);
                diags.error(e.from.path, position(&s.building), msg);
            }
            let when = lang.compile(&e.from, false, tables, diags, |cx| cx.cond(&s.when));
            b.same_as = other.zip(when);
        }
    }
}
