//! Counted influence: what each player's buildings show (damage applied,
//! read from the board once and kept until it changes) and his influence
//! cards; chips on the board, the winning total and the leader's measure.

use super::*;

/// `State::board_influence`'s answer.
#[derive(Debug, Clone, Default)]
pub struct BoardInfluence {
    /// The damaged-influence reading and whether `DamageIgnored` was
    /// planted, when it was worked out (none: never worked out).
    under: Option<(DamagedInfluence, bool)>,
    each: SmallVec<[u32; 8]>,
    decided: u64,
}

impl State {
    /// Counted influence: buildings (damage applied) plus influence cards.
    pub fn counted_influence(&self, rules: &Rules, seat: usize) -> u32 {
        let mut each: SmallVec<[u32; 8]> = SmallVec::from_elem(0, self.seats.len());
        if self.add_influence(rules, Some(seat), &mut each) != 0 {
            self.r::<DamagedInfluence>();
        }
        each[seat]
    }

    /// Adds the counted influence of `seat` (of every seat: `None`) into
    /// `each`, indexed by seat: the one sum both ask for. The damaged-influence
    /// reading is not recorded here; the seats whose count it decided (a
    /// damaged building of theirs) come back as a set, for the caller to
    /// record it where it asked about one of them.
    fn add_influence(&self, rules: &Rules, seat: Option<usize>, each: &mut [u32]) -> u64 {
        let decided = self.add_board_influence(rules, seat, each);
        for (o, _) in self.seats.iter().enumerate().filter(|&(o, _)| seat.is_none_or(|s| s == o)) {
            each[o] += self.cards_influence(rules, o);
        }
        decided
    }

    /// The buildings' part of `add_influence`: what the board alone
    /// decides, read from `board_influence`.
    fn add_board_influence(&self, rules: &Rules, seat: Option<usize>, each: &mut [u32]) -> u64 {
        let board = self.board_influence(rules);
        match seat {
            Some(s) => {
                if let (Some(e), Some(&n)) = (each.get_mut(s), board.each.get(s)) {
                    *e += n;
                }
                board.decided & (1 << (s % 64))
            }
            None => {
                each.iter_mut().zip(&board.each).for_each(|(e, &n)| *e += n);
                board.decided
            }
        }
    }

    /// Every seat's buildings' influence, damage applied, and the seats
    /// whose count a damaged building decided: kept until the board
    /// changes (the win check asks after every action of a building
    /// phase), under the damaged-influence reading and the fault it was
    /// worked out under (fixed for a game; a kept answer under others is
    /// not used).
    fn board_influence(&self, rules: &Rules) -> Answer<'_, BoardInfluence> {
        // what a damaged building counts, under the reading (not recorded)
        let under = (self.peek::<DamagedInfluence>(), self.fault == Some(Fault::DamageIgnored));
        let work = |board: &Vec<Option<Placed>>| {
            let damaged_counts = match under.0 {
                DamagedInfluence::HalfRoundDown => |i: u32| i / 2,
                DamagedInfluence::HalfRoundUp => |i: u32| i.div_ceil(2),
                DamagedInfluence::Void => |_| 0,
            };
            let mut read =
                BoardInfluence { under: Some(under), each: SmallVec::from_elem(0, self.seats.len()), decided: 0 };
            for p in board.iter().flatten() {
                let Some(o) = p.owner.filter(|&o| o < read.each.len()) else { continue };
                let inf = rules.building_influence[p.building.index()];
                let damaged = p.damage.is_some() && !under.1;
                read.each[o] += if damaged { damaged_counts(inf) } else { inf };
                read.decided |= u64::from(damaged) << (o % 64);
            }
            read
        };
        match self.board_influence.get(&self.board, work) {
            kept if kept.under == Some(under) => kept,
            _ => Answer::Fresh(work(&self.board)),
        }
    }

    /// The influence cards' part of `seat`'s counted influence.
    pub(in crate::games::dry_gulch) fn cards_influence(&self, rules: &Rules, seat: usize) -> u32 {
        self.seats[seat].influence.iter().map(|&k| rules.events[rules.event_of(k).unwrap_or(0)].influence).sum()
    }

    /// The buildings' part of `counted_influence` of every seat, from the
    /// board alone: the rules' kept count, which the influence invariant
    /// keeps with its own reading of the board until the board changes.
    pub(in crate::games::dry_gulch) fn board_influence_of_each(&self, rules: &Rules) -> SmallVec<[u32; 8]> {
        self.board_influence(rules).each.clone()
    }

    /// `counted_influence` of every seat in one pass, and the seats whose
    /// count the damaged-influence reading decided, not yet recorded: the
    /// win check asks seat by seat and stops at a winner, and records the
    /// reading as `counted_influence` would for the seats it asked about;
    /// the influence invariant records nothing (checking must not change
    /// what a game consulted).
    pub(in crate::games::dry_gulch) fn influences_of_each(&self, rules: &Rules) -> (SmallVec<[u32; 8]>, u64) {
        let mut each = SmallVec::from_elem(0, self.seats.len());
        let decided = self.add_influence(rules, None, &mut each);
        (each, decided)
    }

    pub fn chips_on_board(&self, seat: usize) -> u32 {
        let on_plots: u32 =
            self.board.iter().flatten().filter(|p| p.owner == Some(seat)).map(|p| p.chips.count()).sum();
        on_plots + self.seats[seat].card_chips.count()
    }

    pub fn win_threshold(&self, seat: usize) -> u32 {
        match self.r::<WinThreshold>() {
            WinThreshold::Fixed => self.p(P::FixedWinThreshold),
            WinThreshold::AllChips => self.seats[seat].allotment,
        }
    }

    pub(in crate::games::dry_gulch) fn leader_measure(&self, rules: &Rules, seat: usize) -> u32 {
        match self.r::<LeaderMeasure>() {
            LeaderMeasure::ChipsOnBoard => self.chips_on_board(seat),
            LeaderMeasure::CountedInfluence => self.counted_influence(rules, seat),
        }
    }
}
