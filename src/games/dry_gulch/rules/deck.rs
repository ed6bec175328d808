//! Which cards a game is dealt, and which deck each belongs to: the
//! catalog's copies, or the number a reading or variant sets
//! (`event-deck-composition: vandalism-seven` sets
//! `events.fire.copies: 6`), as the reading `violet-cards` deals them; and
//! drawing from the resource and permit decks, into a hand or beside it
//! (`reward-card-german-rule-7`).

use super::*;

impl State {
    /// The copies of card `c` in this game (the readings read without
    /// recording them, for the invariants).
    pub fn card_copies(&self, rules: &Rules, c: CardKind) -> u32 {
        deck_copies(rules, &self.readings, self.peek::<VioletCards>(), c)
    }

    /// Whether card `c` is shuffled, drawn and discarded with the resource
    /// cards: `in_resource_deck` under the game's `violet-cards` reading,
    /// recorded only for a violet card, where it decides.
    pub(crate) fn resource_pile(&self, rules: &Rules, c: CardKind) -> bool {
        let violet = rules.event_of(c).is_some_and(|e| rules.events[e].triangle == Triangle::Violet);
        let reading = if violet { self.r::<VioletCards>() } else { self.peek::<VioletCards>() };
        in_resource_deck(rules, reading, c)
    }
}

/// `deck_copies` of every card kind, in kind order, what the decks move
/// worked out once (for the conservation invariant's fixed totals).
pub(crate) fn card_totals(rules: &Rules, readings: &Readings, violet: VioletCards) -> Vec<u32> {
    let moved = Moved::new(rules, readings, violet);
    rules.cards().map(|c| moved.copies(rules, readings, c)).collect()
}

/// The copies of card `c` in this configuration before the readings move
/// any between the decks: the catalog's, or the number a reading or a
/// variant sets.
pub(crate) fn counted_copies(rules: &Rules, readings: &Readings, c: CardKind) -> u32 {
    readings.count(c.index() as u32).unwrap_or_else(|| rules.copies(c))
}

/// The permits of building `b` in this configuration: the catalog's, or
/// the number a reading or a variant sets.
pub(crate) fn counted_permits(rules: &Rules, readings: &Readings, b: Bld) -> u32 {
    readings.count(rules.permits_counted(b)).unwrap_or(rules.buildings[b.index()].permits)
}

/// Whether card `c` belongs to the resource deck (drawn, shuffled and
/// discarded with it) under `violet`.
pub(crate) fn in_resource_deck(rules: &Rules, violet: VioletCards, c: CardKind) -> bool {
    match rules.event_of(c) {
        None => true,
        Some(e) => violet == VioletCards::ResourceCards && rules.events[e].triangle == Triangle::Violet,
    }
}

/// The copies of card `c` in a game configured as `readings` says, dealt
/// as `violet` reads the violet cards.
///
/// Under `violet-cards: resource-cards` the violet cards are among the
/// printed resource cards, so the resource kinds give up as many copies
/// (one each in catalog order, round and round) and the event deck's
/// freed places go to the red cards (one each in catalog order, round and
/// round): the printed totals stay.
pub(crate) fn deck_copies(rules: &Rules, readings: &Readings, violet: VioletCards, c: CardKind) -> u32 {
    Moved::new(rules, readings, violet).copies(rules, readings, c)
}

/// What `violet-cards: resource-cards` moves between the decks, worked out
/// once for every card kind (`card_totals` asks for every kind): the
/// copies the violet cards take from the resource kinds, and the red cards
/// that get the event deck's freed places. `None` under `event-cards`.
struct Moved(Option<(u32, SmallVec<[CardKind; 8]>)>);

impl Moved {
    fn new(rules: &Rules, readings: &Readings, violet: VioletCards) -> Moved {
        if violet == VioletCards::EventCards {
            return Moved(None);
        }
        let is = |k: CardKind, t: Triangle| rules.event_of(k).is_some_and(|e| rules.events[e].triangle == t);
        let moved: u32 =
            rules.cards().filter(|&k| is(k, Triangle::Violet)).map(|k| counted_copies(rules, readings, k)).sum();
        let reds = rules.cards().filter(|&k| is(k, Triangle::Red)).collect();
        Moved(Some((moved, reds)))
    }

    /// `deck_copies` of card `c`.
    fn copies(&self, rules: &Rules, readings: &Readings, c: CardKind) -> u32 {
        let base = counted_copies(rules, readings, c);
        let Some((moved, reds)) = &self.0 else {
            return base;
        };
        // the `at`-th of `n` kinds gets its share of `moved`, round and round
        let share = |at: usize, n: usize| {
            let n = n.max(1) as u32;
            moved / n + u32::from((at as u32) < moved % n)
        };
        if let Some(r) = rules.resource_of(c) {
            return base.saturating_sub(share(r.index(), rules.resources.len()));
        }
        match reds.iter().position(|&k| k == c) {
            Some(at) => base + share(at, reds.len()),
            None => base,
        }
    }
}

impl State {
    /// Draws one resource card into `seat`'s hand (or, `waiting`, beside
    /// it), reshuffling the discards when the deck is empty.
    pub(super) fn draw_resource(&mut self, seat: usize, waiting: bool, ev: &mut Vec<Event>) -> Option<CardKind> {
        let p = &mut self.seats[seat];
        let hand = if waiting { &mut p.waiting } else { &mut p.hand };
        let drawn = self.resource_deck.draw(&mut self.resource_discard, WhenEmpty::Reshuffle, &mut self.chance, hand);
        if drawn.reshuffled {
            ev.push(Event::ResourcesReshuffled);
        }
        drawn.card
    }

    pub(in crate::games::dry_gulch) fn draw_resources(&mut self, seat: usize, n: u32, ev: &mut Vec<Event>) {
        self.draw_cards(seat, n, false, ev);
    }

    /// Draws `n` resource cards for `seat`, into his hand or, `waiting`,
    /// beside it until the reward phase.
    pub(in crate::games::dry_gulch) fn draw_cards(&mut self, seat: usize, n: u32, waiting: bool, ev: &mut Vec<Event>) {
        let mut cards = Vec::new();
        for _ in 0..n {
            match self.draw_resource(seat, waiting, ev) {
                Some(c) => cards.push(c),
                None => {
                    ev.push(Event::DeckEmpty);
                    break;
                }
            }
        }
        match waiting {
            _ if cards.is_empty() => {}
            false => ev.push(Event::Drew { seat, cards }),
            true => ev.push(Event::DrewWaiting { seat, cards }),
        }
    }

    pub(in crate::games::dry_gulch) fn draw_permit(&mut self, seat: usize, ev: &mut Vec<Event>) -> bool {
        self.draw_permit_to(seat, false, ev)
    }

    /// Draws the top permit for `seat`, or, `waiting`, beside his permits.
    pub(in crate::games::dry_gulch) fn draw_permit_to(
        &mut self,
        seat: usize,
        waiting: bool,
        ev: &mut Vec<Event>,
    ) -> bool {
        let p = &mut self.seats[seat];
        match self.permit_deck.draw_top(if waiting { &mut p.waiting_permits } else { &mut p.permits }) {
            Some(b) => {
                ev.push(Event::PermitDrawn { seat, building: b });
                true
            }
            None => false,
        }
    }

    /// Whether the draw of `turn.permits_from_deck` permits from the deck
    /// may be made: with the deck empty never; with fewer left than it
    /// takes, as the reading `permit-draw-one-left` has it (consulted only
    /// there).
    pub(in crate::games::dry_gulch) fn permit_deck_draw_open(&self) -> bool {
        let left = self.permit_deck.len() as u32;
        left > 0
            && (left >= self.param(P::PermitsFromDeck) || self.r::<PermitDrawShort>() == PermitDrawShort::TakeTheOne)
    }

    /// Why a deck draw of permits is refused in the draw phase though the
    /// deck is not empty: it holds fewer than the draw takes, under
    /// `permit-draw-one-left: needs-two`.
    pub(in crate::games::dry_gulch) fn short_permit_deck(&self) -> Option<String> {
        let short = self.phase == Phase::Draw
            && !self.on(V::OpenPermits)
            && !self.permit_deck.is_empty()
            && !self.permit_deck_draw_open();
        short.then(|| {
            let (left, takes) = (self.permit_deck.len(), self.param(P::PermitsFromDeck));
            format!("the permit deck holds {left}, fewer than the {takes} a draw takes")
        })
    }

    /// `a` draws permits from the deck: with two or more offered he keeps
    /// one (`Phase::DrawKeep`); one offered he takes.
    pub(in crate::games::dry_gulch) fn draw_permits(&mut self, rules: &Rules, a: usize, ev: &mut Vec<Event>) {
        let mut offered = Pile::new();
        for _ in 0..self.p(P::PermitsFromDeck) {
            self.permit_deck.draw_top(&mut offered);
        }
        if offered.len() <= 1 {
            if let Some(b) = offered.draw_top(&mut self.seats[a].permits) {
                ev.push(Event::PermitDrawn { seat: a, building: b });
            }
            self.after_draw(rules, ev);
        } else {
            self.phase = Phase::DrawKeep { offered };
        }
    }

    /// `a` spends his permit for `b` on building it (`permits:
    /// needed-and-spent`); where it goes is the reading `spent-permit`.
    pub(in crate::games::dry_gulch) fn spend_permit(&mut self, a: usize, b: Bld, ev: &mut Vec<Event>) {
        if self.r::<Permits>() != Permits::NeededAndSpent {
            return;
        }
        let spent = self.r::<SpentPermit>();
        let permits = &mut self.seats[a].permits;
        let to = match spent {
            SpentPermit::FaceUpDiscard => &mut self.permit_discard,
            SpentPermit::OutOfPlay => &mut self.permits_spent,
        };
        moved(if self.fault == Some(Fault::PermitVanishes) {
            // into a supply no conservation check declares
            move_n(permits, &mut Supply::new(), b, 1)
        } else {
            move_n(permits, to, b, 1)
        });
        ev.push(Event::PermitSpent { seat: a, building: b });
    }

    /// The discarded permits the active player may take: any of them, or,
    /// under `permit-discard-take: top-only`, the last one discarded (the
    /// reading is consulted only where the two differ).
    pub(in crate::games::dry_gulch) fn face_up_permits(&self) -> SmallVec<[Bld; 16]> {
        let kinds = self.permit_discard.kinds();
        if kinds.len() < 2 || self.r::<PermitDiscardTake>() == PermitDiscardTake::Any {
            return kinds;
        }
        self.permit_discard.top().into_iter().collect()
    }

    /// `seat` takes a discarded permit of `b`: the top one under
    /// `top-only` (the pile keeps its order), any copy otherwise.
    pub(in crate::games::dry_gulch) fn take_face_up_permit(&mut self, seat: usize, b: Bld) {
        let top_only = self.peek::<PermitDiscardTake>() == PermitDiscardTake::TopOnly;
        let permits = &mut self.seats[seat].permits;
        if top_only && self.permit_discard.top() == Some(b) {
            self.permit_discard.draw_top(permits);
        } else {
            moved(move_n(&mut self.permit_discard, permits, b, 1));
        }
    }
}
