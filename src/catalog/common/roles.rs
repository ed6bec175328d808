//! Roles: what a game's code must find in a catalog (the card that
//! spreads fire, the resource a Blacksmith waives, the commodity that is
//! gold) is found by the role an entry carries, never by its id. Each role
//! the code needs is carried by exactly one entry of its list; a missing
//! role and a second carrier are diagnostics worded alike in every game.

use crate::catalog::diag::Diagnostics;

/// A role the code needs: its catalog id, and what the code does with it
/// (said when no entry carries it).
#[derive(Debug, Clone, Copy)]
pub struct Need<R> {
    pub role: R,
    pub id: &'static str,
    pub why: &'static str,
}

/// The entry carrying each role in `needs`, by index into the list, in
/// the order of `needs`. `field` is where an entry writes its role
/// (`role`; Dry Gulch's buildings write the Residence, the Town Hall and
/// the Bank as values of `ability`, which other buildings share freely);
/// `kind` names an entry (`resource`); `carriers` gives each entry's file,
/// place and role; a missing role is reported at `missing` (the list's
/// file). `None` where no entry carries the role.
pub fn one_each<'a, R: Copy + PartialEq>(
    field: &str,
    kind: &str,
    carriers: impl Iterator<Item = (&'a str, (u64, u64), Option<R>)>,
    needs: &[Need<R>],
    missing: (&str, (u64, u64)),
    diags: &mut Diagnostics,
) -> Vec<Option<usize>> {
    let a = if field.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
    let mut found: Vec<Option<usize>> = vec![None; needs.len()];
    for (i, (file, at, role)) in carriers.enumerate() {
        let Some(n) = role.and_then(|r| needs.iter().position(|need| need.role == r)) else { continue };
        match found[n] {
            Some(_) => diags.error(
                file,
                at,
                format!("a second {kind} in the {field} `{}`; {a} {field} names one {kind}", needs[n].id),
            ),
            None => found[n] = Some(i),
        }
    }
    for (need, _) in needs.iter().zip(&found).filter(|(_, f)| f.is_none()) {
        diags.error(
            missing.0,
            missing.1,
            format!("no {kind} has the {field} `{}` ({}); add `{field}: {}` to one", need.id, need.why, need.id),
        );
    }
    found
}
