//! Disasters on the board: which buildings a disaster may be played
//! against, damage markers, spreading fire and the closed Town Hall.

use super::*;

impl State {
    /// Damage markers on the board (one per damaged building).
    pub fn markers_used(&self) -> u32 {
        self.board.iter().flatten().filter(|p| p.damage.is_some()).count() as u32
    }

    pub(super) fn firehouse_absent(&self, rules: &Rules) -> bool {
        let counts = |p: &Placed| p.damage.is_none() || self.r::<DamagedFirehouse>() == DamagedFirehouse::Counts;
        !self
            .board
            .iter()
            .flatten()
            .any(|p| rules.buildings[p.building.index()].ability == Some(Ability::Firehouse) && counts(p))
    }

    pub(in crate::games::dry_gulch) fn fire_card(&self, rules: &Rules) -> Option<CardKind> {
        rules.spreading_fire
    }

    pub(super) fn spread_fires(&mut self, rules: &Rules, ev: &mut Vec<Event>) {
        let Some(fire) = self.fire_card(rules) else {
            return;
        };
        let mut origins: Vec<Plot> =
            self.board.iter().flatten().filter_map(|p| p.damage).filter(|d| d.card == fire).map(|d| d.origin).collect();
        origins.sort();
        origins.dedup();
        for origin in origins {
            if self.r::<FireSpreadExtent>() == FireSpreadExtent::OneNeighbour {
                self.agenda.queue.push_back(Queued::Game(Step::Spread { origin }));
            } else {
                for to in self.spread_candidates(rules, origin, fire) {
                    if self.board[to.index()].is_some_and(|p| p.damage.is_none()) {
                        self.spread_to(rules, origin, to, fire, ev);
                    }
                }
            }
        }
    }

    pub(in crate::games::dry_gulch) fn spread_candidates(
        &self,
        rules: &Rules,
        origin: Plot,
        fire: CardKind,
    ) -> Vec<Plot> {
        let mut out = Vec::new();
        for (i, p) in plots_of(&self.board) {
            if p.and_then(|p| p.damage).is_some_and(|d| d.card == fire && d.origin == origin) {
                for &n in rules.board.neighbours(i) {
                    // the fire reaches players' buildings, and the ownerless
                    // Town Hall as spread-to-town-hall reads it
                    if self.board[n.index()]
                        .is_some_and(|x| x.damage.is_none() && (x.owner.is_some() || self.town_hall_catches_fire()))
                        && !out.contains(&n)
                    {
                        out.push(n);
                    }
                }
            }
        }
        out.sort();
        out
    }

    pub(super) fn spread_to(&mut self, rules: &Rules, origin: Plot, to: Plot, fire: CardKind, ev: &mut Vec<Event>) {
        if self.markers_used() >= self.p(P::DamageMarkers) {
            ev.push(Event::Lapsed { why: "no damage marker left for the spreading fire".into() });
            return;
        }
        let Some(p) = self.board.edit()[to.index()].as_mut() else {
            return;
        };
        let owner = p.owner;
        // the Town Hall burns as if the Fire were played against it: its own
        // origin, so it stays closed (and burning) until it is reopened
        p.damage = Some(Damage { card: fire, origin: if owner.is_some() { origin } else { to } });
        ev.push(Event::FireSpread { from: origin, to });
        if owner.is_none() {
            self.close_town_hall(ev);
        }
        if self.r::<FireSpreadLoss>() == FireSpreadLoss::FullFire
            && let (Some(e), Some(_)) = (rules.event_of(fire), owner)
        {
            let saved = self.target.replace(to);
            let effects: Vec<Effect> = self.effect_of(rules, e).iter().filter(|x| x.op != DAMAGE).cloned().collect();
            self.expand(rules, &effects, fire);
            self.target = saved;
        }
    }

    pub(super) fn reopen_town_hall(&mut self, _ev: &mut Vec<Event>) {
        self.town_hall_closed = None;
        // the Town Hall's marker goes, and so does a fire that spread from it
        let origins: Vec<Plot> = plots_of(&self.board)
            .filter(|(_, p)| p.is_some_and(|p| p.owner.is_none() && p.damage.is_some()))
            .map(|(i, _)| i)
            .collect();
        for p in self.board.edit().iter_mut().flatten() {
            if p.damage.is_some_and(|d| origins.contains(&d.origin)) {
                p.damage = None;
            }
        }
    }

    /// Whether spreading fire reaches the Town Hall: only where it may be
    /// damaged at all (optional rule 2), and as spread-to-town-hall reads it.
    fn town_hall_catches_fire(&self) -> bool {
        self.on(V::TownHallDamage) && self.r::<SpreadToTownHall>() == SpreadToTownHall::ClosesIt
    }

    /// A disaster reached the Town Hall: it closes (optional rule 2).
    pub(in crate::games::dry_gulch) fn close_town_hall(&mut self, ev: &mut Vec<Event>) {
        self.town_hall_closed = Some(Closure {
            reopens_for: Some(self.active).filter(|_| self.r::<TownHallClosed>() == TownHallClosed::UntilAttackerTurn),
        });
        ev.push(Event::TownHallClosed);
    }

    pub(in crate::games::dry_gulch) fn town_hall_open(&self) -> bool {
        self.town_hall_closed.is_none() || self.fault == Some(Fault::OpenClosedTownHall)
    }

    /// Whether a closed Town Hall also stops the Bank's and the events' permits.
    pub(in crate::games::dry_gulch) fn special_permits_barred(&self) -> bool {
        !self.town_hall_open() && self.r::<ClosedTownHallScope>() == ClosedTownHallScope::EveryPermitDraw
    }

    /// Red cards the active player may play now, from hand (build phase) or face up.
    pub(super) fn disaster_targets(&self, rules: &Rules, card: CardKind) -> Vec<Plot> {
        let Some(e) = rules.event_of(card) else {
            return vec![];
        };
        let ev = &rules.events[e];
        if ev.triangle != Triangle::Red {
            return vec![];
        }
        let used = self.markers_used();
        let mut out = Vec::new();
        for (i, p) in plots_of(&self.board) {
            if self.disaster_blocker::<()>(rules, card, p, used).is_ok() {
                out.push(i);
            }
        }
        out
    }

    /// Whether `card` may be played against the building on `p`, with
    /// `used` damage markers on the board (`markers_used`, counted once by
    /// the caller): the `RuleError`, or for the legal list only `Err(())`.
    pub(super) fn disaster_blocker<W: Why>(
        &self,
        rules: &Rules,
        card: CardKind,
        p: &Option<Placed>,
        used: u32,
    ) -> Result<(), W> {
        let Some(p) = p else {
            return refuse(rules, R::DisasterPlay, || "no building stands on that plot".into());
        };
        let bd = &rules.buildings[p.building.index()];
        if bd.ability == Some(Ability::TownHall) && !self.on(V::TownHallDamage) {
            return refuse(rules, R::DisasterTownHall, || {
                "the Town Hall can be damaged only under the optional rule town-hall-damage".into()
            });
        }
        if let Some(Target::Building(b)) = rules.event_of(card).and_then(|e| rules.events[e].target)
            && b != p.building
        {
            return refuse(rules, R::DisasterPlay, || {
                format!("this card is played only against {}", rules.buildings[b.index()].name)
            });
        }
        if p.damage.is_some() && self.r::<SecondDisaster>() == SecondDisaster::Refused {
            return refuse(rules, R::DisasterPlay, || {
                format!("{} is already damaged (second-disaster: refused)", bd.name)
            });
        }
        if p.owner == Some(self.active) && self.r::<SelfDisaster>() == SelfDisaster::Forbidden {
            return refuse(rules, R::DisasterPlay, || {
                "a player may not play a disaster against his own building (self-disaster: forbidden)".into()
            });
        }
        if let Some(o) = p.owner
            && self.seats[o].in_front.iter().any(|(c, _)| *c == card)
            && self.fault != Some(Fault::NoDisasterLimit)
        {
            return refuse(rules, R::DisasterLimit, || {
                format!("seat {} already has a {} in front of him", o + 1, rules.card_id(card))
            });
        }
        if used >= self.p(P::DamageMarkers) && self.r::<MarkerShortage>() == MarkerShortage::CannotPlay {
            return refuse(rules, R::DisasterPlay, || "all damage markers are on the board".into());
        }
        Ok(())
    }
}
