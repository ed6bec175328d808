//! The resource cards: each checked (id, names, provenance, bounds, a
//! substitution value in one table at least), then their ids and the one
//! resource in each role the rules need.

use std::collections::BTreeMap;

use crate::catalog::common::roles::{self, Need};
use crate::catalog::common::{NumberTally, check_record};
use crate::catalog::diag::Diagnostics;
use crate::games::dry_gulch::bounds::{MAX_COPIES, check_bound};
use crate::games::dry_gulch::layers::Layers;
use crate::games::dry_gulch::rules_data::{Res, Resource, id_at, kind};
use crate::games::dry_gulch::schema::ResourceRole;
use crate::yaml::position;

/// The resources, in catalog order.
pub(super) fn lower_resources(
    lay: &Layers<'_>,
    languages: &[String],
    tally: &mut NumberTally,
    diags: &mut Diagnostics,
) -> Vec<Resource> {
    let mut resources = Vec::new();
    for e in &lay.resources {
        let (r, f) = (e.raw, e.from.path);
        let n_subst = usize::from(r.substitution.en.is_some()) + usize::from(r.substitution.de.is_some());
        check_record(f, "resource", r, &[("copies", 1), ("substitution", n_subst)], languages, tally, diags);
        check_bound(
            f,
            position(&r.copies),
            &format!("resource `{}`: copies", r.id.value),
            r.copies.value,
            MAX_COPIES,
            diags,
        );
        for n in [r.substitution.en, r.substitution.de].into_iter().flatten() {
            let what = format!("resource `{}`: substitution", r.id.value);
            check_bound(f, position(&r.id), &what, n, MAX_COPIES, diags);
        }
        if r.substitution.en.is_none() && r.substitution.de.is_none() {
            diags.error(
                f,
                position(&r.id),
                format!("resource `{}` has no substitution value in either table", r.id.value),
            );
        }
        resources.push(Resource {
            id: r.id.value.clone(),
            name: r.names.display(languages, &r.id.value).to_string(),
            kind: r.kind,
            copies: r.copies.value,
            subst_en: r.substitution.en,
            subst_de: r.substitution.de,
        });
    }
    resources
}

/// The resources' ids, and the resources in the roles `labor` and
/// `blacksmith` (each role named by exactly one resource).
pub(super) fn resource_ids(
    lay: &Layers<'_>,
    diags: &mut Diagnostics,
) -> (BTreeMap<String, Res>, Option<Res>, Option<Res>) {
    let mut ids: BTreeMap<String, Res> = BTreeMap::new();
    for (i, e) in lay.resources.iter().enumerate() {
        id_at::<kind::Card>(i, e.from.path, position(&e.raw.id), diags); // the first card kinds
        let Some(id) = id_at(i, e.from.path, position(&e.raw.id), diags) else { continue };
        ids.insert(e.raw.id.value.clone(), id);
    }
    let needs = [
        Need {
            role: ResourceRole::Labor,
            id: "labor",
            why: "the labor-card-value and labor-substitution readings are about it",
        },
        Need { role: ResourceRole::Blacksmith, id: "blacksmith", why: "the Blacksmith building waives it" },
    ];
    let carriers = lay.resources.iter().map(|e| (e.from.path, position(&e.raw.id), e.raw.role));
    let found = roles::one_each("role", "resource", carriers, &needs, (lay.resources.base.path, (1, 1)), diags);
    let [labor, blacksmith] = [0, 1].map(|n| found[n].and_then(|i| Res::new(i).ok()));
    (ids, labor, blacksmith)
}
