//! The board read for the invariants that read it (damage markers, chips,
//! influence, the bank plot), in one pass, and kept with the state until
//! the board changes (`State::board_read`, an engine `Kept` of the
//! `Watched` board): most actions leave the board as it was.

use smallvec::SmallVec;

use super::dealt::Dealt;
use crate::engine::{Id, Reads};
use crate::games::dry_gulch::readings::{ChipShortage, DamagedInfluence, MarkerRemoval, P};
use crate::games::dry_gulch::rules::{Damage, Placed, State};
use crate::games::dry_gulch::rules_data::{Bld, Plot, Rules};

/// What the board alone shows; each invariant keeps the first failure in
/// board order, as a pass of its own would find it. What else a check
/// compares it with (the cards in front of the players, the chips on
/// influence cards) is read at each check.
#[derive(Debug, Clone, Default)]
pub struct BoardRead {
    /// Damage markers on the board.
    pub(super) markers: u32,
    /// The plots carrying a marker, in board order, with their owners.
    marked: SmallVec<[(usize, Option<usize>, Damage); 4]>,
    /// Per seat: the first of its buildings (in board order) that carries
    /// a wrong number of chips, with the chips and the number expected.
    pub(super) wrong: SmallVec<[Option<(Bld, u32, u32)>; 8]>,
    /// Per seat: the influence its buildings show, damage applied as the
    /// damaged-influence reading says.
    pub(super) influence: SmallVec<[u32; 8]>,
    /// The first plot where the Bank stands off the bank plot, or where
    /// something else stands on it.
    pub(super) misplaced: Option<usize>,
    /// Per seat: the rules' count of its buildings' influence
    /// (`State::board_influence_of_each`), which `influence` checks.
    pub(super) counted: SmallVec<[u32; 8]>,
}

/// The board read once (a pass per invariant cost a tenth of the check),
/// the catalog's numbers out of `Dealt`'s tables, the readings the game's
/// (fixed for a state, so a kept reading stays true while the board does).
/// A plot's owner indexes the per-seat sums with one entry past the seats
/// that takes what a plot of no seat adds (dropped at the end), so no
/// branch asks whose it is.
pub(super) fn read(s: &State, rules: &Rules, board: &[Option<Placed>], dealt: &Dealt) -> BoardRead {
    let (n, players) = (s.seats.len(), s.players);
    let remaining = s.peek::<ChipShortage>() == ChipShortage::PlaceRemaining;
    let damaged = match s.peek::<DamagedInfluence>() {
        DamagedInfluence::HalfRoundDown => |i: u32| i / 2,
        DamagedInfluence::HalfRoundUp => |i: u32| i.div_ceil(2),
        DamagedInfluence::Void => |_| 0,
    };
    let on_residence = s.param(P::ChipsOnResidence);
    let mut r = BoardRead {
        markers: 0,
        marked: SmallVec::new(),
        wrong: SmallVec::from_elem(None, n),
        influence: SmallVec::from_elem(0, players + 1),
        misplaced: None,
        counted: s.board_influence_of_each(rules),
    };
    let influence_of = &mut r.influence[..];
    for (i, pl) in board.iter().enumerate() {
        let Some(pl) = pl else { continue };
        let b = dealt.buildings[pl.building.index()];
        if let Some(d) = pl.damage {
            r.markers += 1;
            r.marked.push((i, pl.owner, d));
        }
        let owner = pl.owner.unwrap_or(usize::MAX);
        let chips = pl.chips.count();
        let expected = if b.residence { on_residence } else { b.influence };
        if chips != expected && !(remaining && chips < expected) && owner < n && r.wrong[owner].is_none() {
            r.wrong[owner] = Some((pl.building, chips, expected));
        }
        influence_of[owner.min(players)] += if pl.damage.is_some() { damaged(b.influence) } else { b.influence };
        if b.bank != dealt.bank_plot[i] && r.misplaced.is_none() {
            r.misplaced = Some(i);
        }
    }
    r.influence.truncate(players);
    r
}

/// The first plot carrying a marker with no disaster card behind it.
pub(super) fn unexplained(s: &State, rules: &Rules, board: &BoardRead) -> Option<Plot> {
    let never = s.peek::<MarkerRemoval>() == MarkerRemoval::Never;
    board.marked.iter().find_map(|&(i, owner, d)| {
        let plot = Id::new(i).ok().filter(|_| i < rules.plots.len())?;
        (!explained(s, plot, owner, d, never)).then_some(plot)
    })
}

/// Whether the marker `d` on `plot` (owned by `owner`) has its disaster
/// card behind it: in front of the owner, on the plot where a spreading
/// fire started, or a closed Town Hall's.
fn explained(s: &State, plot: Plot, owner: Option<usize>, d: Damage, never: bool) -> bool {
    if d.origin != plot {
        s.board[d.origin.index()].is_some_and(|o| o.damage.is_some_and(|od| od.card == d.card && od.origin == d.origin))
            || never
    } else {
        match owner {
            Some(o) => s.seats[o].in_front.as_slice().contains(&(d.card, plot)) || never,
            None => s.town_hall_closed.is_some(),
        }
    }
}
