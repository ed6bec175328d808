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

    /// Why the active player cannot build `b` beside what already stands:
    /// a copy stands and its `repeat:` does not hold (or the player has no
    /// permit for another, or every permit's copy stands), or the building
    /// it is `same_as` stands while that condition holds. A condition is
    /// read only where it decides: a copy or its twin stands and the player
    /// could otherwise build one.
    pub(super) fn copy_blocker(&self, rules: &Rules, b: Bld) -> Option<(&'static str, String)> {
        let bd = &rules.buildings[b.index()];
        let standing = self.plots_with(b).count() as u32;
        let twin = self.twin_standing(rules, b);
        if standing == 0 && twin.is_none() {
            return None;
        }
        let permit = self.r::<Permits>() == Permits::NotNeeded || self.seats[self.active].permits.count(b) > 0;
        if standing > 0 {
            let another = permit && standing < bd.permits && bd.repeat.as_ref().is_some_and(|c| self.eval(rules, c));
            if !another {
                return Some(("build.unique", format!("{} is already built", bd.name)));
            }
        }
        match twin {
            Some((o, c)) if permit && self.eval(rules, c) => Some((
                "build.unique",
                format!(
                    "{} stands, and {} is the same building in this reading",
                    rules.buildings[o.index()].name,
                    bd.name
                ),
            )),
            _ => None,
        }
    }

    /// A building standing that `b` is `same_as` (or that is `same_as` `b`),
    /// with the condition under which the two are one.
    fn twin_standing<'r>(&self, rules: &'r Rules, b: Bld) -> Option<(Bld, &'r Cond)> {
        let standing = |x: Bld| self.plots_with(x).next().is_some();
        if let Some((o, c)) = &rules.buildings[b.index()].same_as
            && standing(*o)
        {
            return Some((*o, c));
        }
        rules.buildings().find_map(|y| match &rules.buildings[y.index()].same_as {
            Some((o, c)) if *o == b && standing(y) => Some((y, c)),
            _ => None,
        })
    }
}
