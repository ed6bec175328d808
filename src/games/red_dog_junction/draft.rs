//! The Gameplay Variants' set-ups (red-dog-junction-en, Gameplay
//! Variants): Trail Boss (an Officer dealt to each player, then one extra
//! crew card each picks from the deck) and Posse (one Cowboy each, then a
//! pick-and-pass draft of nine-card hands). Each pick is an action of the
//! seat picking (`Action::Pick`; the solo player picks for the Automa);
//! the display is dealt when the picks are done.

use super::readings::*;
use super::rules::{Action, Cards, Event, Phase, State, refuse, rule};
use super::rules_data::*;
use crate::engine::{Id, Pile, RuleError, WhenEmpty, Why, move_n};

impl State {
    /// Whether the code's variant `v` is on in this configuration.
    pub fn on(&self, rules: &Rules, v: V) -> bool {
        rules.variants.iter().zip(&self.readings.variants).any(|(x, on)| *on && x.hook == Some(v as usize))
    }

    /// Starts a variant's set-up picks, if one is on (the display waits for them).
    pub(super) fn start_drafts(&mut self, rules: &Rules) -> bool {
        if self.on(rules, V::TrailBoss) {
            self.deal_officers(rules);
            self.phase = Phase::Extra;
            self.picks_left = self.p(P::TrailBossPicks) * self.players as u32;
        } else if self.on(rules, V::Posse) {
            self.deal_posse(rules);
            self.phase = Phase::Draft;
            self.picks_left = self.hands.iter().map(Cards::total).sum();
        } else {
            return false;
        }
        if self.picks_left == 0 {
            self.finish_drafts(rules, &mut Vec::new());
        }
        true
    }

    /// Trail Boss: the Officers shuffled, one dealt to each seat.
    fn deal_officers(&mut self, rules: &Rules) {
        let mut pile: Pile<Card> = Pile::from_counts(&[]);
        for c in Id::<Card>::first(rules.cards.len()).filter(|&c| rules.card(c).class == Class::Officer) {
            let n = self.deck.iter().filter(|&&x| x == c).count() as u32;
            let _ = move_n(&mut self.deck, &mut pile, c, n);
        }
        pile.shuffle(&mut self.chance);
        for _ in 0..self.p(P::TrailBossOfficers) {
            for seat in 0..self.players {
                let _ = pile.draw_top(&mut self.crew[seat]);
            }
        }
        let to_box = self.r::<TrailBossOfficers>() == TrailBossOfficers::ToTheBox;
        while let Some(c) = pile.top() {
            let _ = if to_box {
                move_n(&mut pile, &mut self.boxed_cards, c, 1)
            } else {
                move_n(&mut pile, &mut self.deck, c, 1)
            };
        }
    }

    /// Posse: starting cards back (or to the box), one Cowboy each, hands dealt.
    fn deal_posse(&mut self, rules: &Rules) {
        let Some(cowboy) = Id::<Card>::first(rules.cards.len()).find(|&c| rules.card(c).ability == Ability::Cargo)
        else {
            return;
        };
        let keep = self.p(P::PosseCowboys);
        for seat in 0..self.players {
            let held: Vec<(Id<Card>, u8)> = self.crew[seat].iter().collect();
            for (c, n) in held {
                let n = u32::from(n) - if c == cowboy { keep.min(u32::from(n)) } else { 0 };
                let _ = move_n(&mut self.crew[seat], &mut self.deck, c, n);
            }
            let short = keep.saturating_sub(self.crew[seat].count(cowboy));
            let _ = move_n(&mut self.deck, &mut self.crew[seat], cowboy, short);
        }
        if self.r::<PosseRemoved>() == PosseRemoved::NoneRemoved {
            let boxed: Vec<(Id<Card>, u8)> = self.boxed_cards.iter().collect();
            for (c, n) in boxed {
                let _ = move_n(&mut self.boxed_cards, &mut self.deck, c, u32::from(n));
            }
        }
        self.deck.shuffle(&mut self.chance);
        for _ in 0..self.p(P::PosseHand) {
            for seat in 0..self.players {
                let _ = self.deck.draw_top(&mut self.hands[seat]);
            }
        }
    }

    /// Whether the pick is legal now, or the rule that forbids it.
    pub(super) fn check_pick<W: Why>(&self, rules: &Rules, a: &Action) -> Result<(), W> {
        let Action::Pick(c) = *a else {
            return Err(refuse(rules, R::SetupDraft, "the set-up picks come first"));
        };
        if c.index() >= rules.cards.len() {
            return Err(refuse(rules, R::SetupDraft, "no such card"));
        }
        match self.phase {
            Phase::Extra => {
                let def = rules.card(c);
                if def.class != Class::Crew || def.ability == Ability::None {
                    return Err(refuse(rules, R::SetupDraft, "the extra card is a crew card, not a Rascal"));
                }
                if !self.deck.contains(&c) {
                    return Err(refuse(rules, R::SetupDraft, "no such card in the deck"));
                }
                Ok(())
            }
            _ if self.hands[self.active].count(c) == 0 => Err(refuse(rules, R::SetupDraft, "no such card in the hand")),
            _ => Ok(()),
        }
    }

    /// A pick: the card joins the seat's crew (or its Boosts); the next
    /// seat picks, hands pass on after each round, and the display is dealt
    /// after the last pick.
    pub(super) fn pick(&mut self, rules: &Rules, a: &Action, ev: &mut Vec<Event>) -> Result<(), RuleError> {
        self.check_pick::<RuleError>(rules, a)?;
        let Action::Pick(c) = *a else { return Ok(()) };
        let seat = self.active;
        let to = if rules.card(c).class == Class::Boost { &mut self.boosts[seat] } else { &mut self.crew[seat] };
        let _ = if self.phase == Phase::Extra {
            move_n(&mut self.deck, to, c, 1)
        } else {
            move_n(&mut self.hands[seat], to, c, 1)
        };
        ev.push(Event::Picked { seat, card: c });
        self.picks_left = self.picks_left.saturating_sub(1);
        self.active = (seat + 1) % self.players;
        if self.active == 0 && self.phase == Phase::Draft {
            match self.r::<PossePass>() {
                PossePass::NextSeat => self.hands.rotate_right(1),
                PossePass::PreviousSeat => self.hands.rotate_left(1),
            }
        }
        if self.picks_left == 0 {
            self.finish_drafts(rules, ev);
        }
        Ok(())
    }

    fn finish_drafts(&mut self, rules: &Rules, ev: &mut Vec<Event>) {
        self.deck.shuffle(&mut self.chance);
        self.display.refill(&mut self.deck, &mut self.discard, WhenEmpty::Stop, &mut self.chance);
        self.begin_play(rules, ev);
    }

    /// The game's first turn, the first player's (an Automa's turn is played).
    fn begin_play(&mut self, rules: &Rules, ev: &mut Vec<Event>) {
        // the die has picked the first player before play begins (`to_move`
        // is a chance node while `first` is `None`)
        let seat = usize::from(self.first.unwrap_or(0));
        self.phase = Phase::Actions;
        self.active = seat;
        self.actions_left = self.actions_for(seat);
        if self.is_automa(seat) {
            self.automa_turn(rules, ev);
        }
    }

    /// `first-player: rolled`: the die may pick the seat that goes first.
    pub(super) fn check_first<W: Why>(&self, rules: &Rules, seat: u8) -> Result<(), W> {
        if self.first.is_some() {
            return Err(refuse(rules, R::ChanceRoll, "no first player is waiting to be rolled"));
        }
        if usize::from(seat) >= self.players {
            return Err(W::why(|| rule(rules, R::ChanceRoll, format!("the first player is p1 to p{}", self.players))));
        }
        Ok(())
    }

    /// The die picked the first player: the game starts with that seat's
    /// turn, or after the set-up picks, which go from p1.
    pub(super) fn roll_first(&mut self, rules: &Rules, seat: u8, ev: &mut Vec<Event>) -> Result<(), RuleError> {
        self.check_first::<RuleError>(rules, seat)?;
        self.first = Some(seat);
        ev.push(Event::FirstPlayer { seat: usize::from(seat) });
        if self.phase == Phase::Actions {
            self.begin_play(rules, ev);
        }
        Ok(())
    }
}
