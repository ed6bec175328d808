//! Where buildings stand, and how many copies of one may: each building
//! stands once (`build.unique`) unless its `repeat:` condition lets another
//! copy be built, and two buildings `same_as` each other stand as one.

use super::*;

impl State {
    /// The first plot (in plot order) where `b` stands.
    pub fn building_plot(&self, b: Bld) -> Option<Plot> {
        self.plots_with(b).next()
    }

    /// Every plot where a copy of `b` stands, in plot order.
    pub fn plots_with(&self, b: Bld) -> impl Iterator<Item = Plot> + '_ {
        plots_of(&self.board).filter(move |&(_, p)| p.is_some_and(|p| p.building == b)).map(|(i, _)| i)
    }

    /// The owner of every copy of `b`, in plot order, and whether that copy
    /// is damaged (an ownerless copy, the Town Hall, names nobody). A card
    /// that names a building names its owner (Notes on event cards); where
    /// several copies stand, it names each copy's owner.
    pub(in crate::games::dry_gulch) fn owners_of(&self, b: Bld) -> SmallVec<[(usize, bool); 4]> {
        self.plots_with(b)
            .filter_map(|p| self.board[p.index()])
            .filter_map(|p| p.owner.map(|o| (o, p.damage.is_some())))
            .collect()
    }

    /// The owners of the intact copies of `b`, in plot order.
    pub(super) fn intact_owners(&self, b: Bld) -> SmallVec<[usize; 4]> {
        self.owners_of(b).into_iter().filter(|&(_, damaged)| !damaged).map(|(o, _)| o).collect()
    }

    /// The board as the build checks read it, counted in one pass and
    /// kept until the board changes (every legal list of a building
    /// phase reads it).
    pub(super) fn standing(&self, rules: &Rules) -> Answer<'_, Built> {
        self.built.get(&self.board, |board| {
            let n = rules.buildings.len();
            let mut copies: SmallVec<[u8; 32]> = SmallVec::from_elem(0, n);
            for p in board.iter().flatten() {
                if let Some(x) = copies.get_mut(p.building.index()) {
                    *x = x.saturating_add(1);
                }
            }
            let mut named_by: SmallVec<[Option<Bld>; 32]> = SmallVec::from_elem(None, n);
            for y in rules.buildings().filter(|y| copies[y.index()] > 0) {
                if let Some((o, _)) = &rules.buildings[y.index()].same_as
                    && let Some(slot @ None) = named_by.get_mut(o.index())
                {
                    *slot = Some(y);
                }
            }
            let free = plots_of(board).filter(|(_, p)| p.is_none()).map(|(i, _)| i).collect();
            Built { copies, named_by, free }
        })
    }

    /// Why the active player cannot build `b` beside what already stands:
    /// a copy stands and its `repeat:` does not hold (or the player has no
    /// permit for another, or every permit's copy stands), or the building
    /// it is `same_as` stands while that condition holds. A condition is
    /// read only where it decides: a copy or its twin stands and the player
    /// could otherwise build one.
    pub(super) fn copy_blocker<W: Why>(&self, rules: &Rules, b: Bld, on: &Built) -> Result<(), W> {
        let bd = &rules.buildings[b.index()];
        let standing = on.copies(b);
        let twin = twin_standing(rules, b, on);
        if standing == 0 && twin.is_none() {
            return Ok(());
        }
        let permit = self.r::<Permits>() == Permits::NotNeeded || self.seats[self.active].permits.count(b) > 0;
        if standing > 0 {
            let another = permit && standing < bd.permits && bd.repeat.as_ref().is_some_and(|c| self.eval(rules, c));
            if !another {
                return refuse(rules, R::BuildUnique, || format!("{} is already built", bd.name));
            }
        }
        match twin {
            Some((o, c)) if permit && self.eval(rules, c) => refuse(rules, R::BuildUnique, || {
                format!(
                    "{} stands, and {} is the same building in this reading",
                    rules.buildings[o.index()].name,
                    bd.name
                )
            }),
            _ => Ok(()),
        }
    }
}

/// How many copies of each building stand, for each building the first
/// standing one (in catalog order) that is `same_as` it, and the free
/// plots: what the build checks read of the board, counted once for
/// every building they check.
#[derive(Debug, Clone, Default)]
pub struct Built {
    copies: SmallVec<[u8; 32]>,
    named_by: SmallVec<[Option<Bld>; 32]>,
    /// The plots nothing stands on, in plot order.
    pub(super) free: SmallVec<[Plot; 64]>,
}

impl Built {
    fn copies(&self, b: Bld) -> u32 {
        u32::from(self.copies.get(b.index()).copied().unwrap_or(0))
    }
}

/// A building standing that `b` is `same_as` (or that is `same_as` `b`),
/// with the condition under which the two are one.
fn twin_standing<'r>(rules: &'r Rules, b: Bld, on: &Built) -> Option<(Bld, &'r Cond)> {
    if let Some((o, c)) = &rules.buildings[b.index()].same_as
        && on.copies(*o) > 0
    {
        return Some((*o, c));
    }
    let y = on.named_by.get(b.index()).copied().flatten()?;
    rules.buildings[y.index()].same_as.as_ref().map(|(_, c)| (y, c))
}
