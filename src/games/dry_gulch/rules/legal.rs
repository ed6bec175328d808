//! What the active player (or the seat a decision waits for) may do now:
//! the legal list in the fixed order `rules.rs` documents, and the yes/no
//! tests of each kind of play that `apply.rs` words as rule errors.

use super::copies::Built;
use super::*;
use crate::engine::each_pick;

/// What the legal list does with the `Build` actions (their payments are
/// many): lists them, leaves them out, or counts them into `Deferred`.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Builds<'a> {
    All,
    None,
    Deferred(&'a mut DeferredBuilds),
}

/// What counting the `Build` actions found (`Game::Deferred`): each
/// building they are of, in list order, with how many payments it has on
/// each plot and on how many plots, so that `nth_build` walks only the
/// one building the action picked is of.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct DeferredBuilds(SmallVec<[(Bld, usize, usize); 24]>);

impl State {
    /// The terms of payment for the active player now (the readings are
    /// recorded as consulted where a payment turns on them).
    pub fn terms(&self, rules: &Rules) -> Terms<'_> {
        Terms {
            only_missing: self.peek::<SubstituteOnlyMissing>() == SubstituteOnlyMissing::OnlyMissing,
            labor_units: self.param(P::LaborCardUnits),
            blank_from_de: self.peek::<LaborSubstitution>() == LaborSubstitution::DeValue,
            store_left: self.store_left(rules),
            store_missing_only: self.peek::<GeneralStoreGoods>() == GeneralStoreGoods::MissingGoodOnly,
            handyman: rules.reactions.get(&ReactionKey::Handyman).copied(),
            unprinted_is: match self.peek::<FoodKind>() {
                FoodKind::Good => ResourceKind::Good,
                FoodKind::Ability => ResourceKind::Ability,
            },
            touched: Some(&self.touched),
        }
    }

    /// General Store uses left to the active player this turn (the
    /// parameter recorded as used where the player owns a store).
    fn store_left(&self, rules: &Rules) -> u32 {
        let stores = self.owns_intact(rules, self.active, Ability::GeneralStore);
        if stores > 0 { (stores * self.p(P::GeneralStoreCards)).saturating_sub(self.store_used) } else { 0 }
    }

    /// The requirements of a building for the active player (Blacksmith waiver applied).
    pub fn needs(&self, rules: &Rules, b: Bld) -> SmallVec<[(Res, u32); 8]> {
        needs_of(rules, b, self.owns_intact(rules, self.active, Ability::Blacksmith) > 0)
    }

    /// Why `b` cannot be built by the active player (ignoring plot and
    /// payment), read off the board's `standing` copies: the `RuleError`,
    /// or for the legal list only `Err(())`, no message formatted.
    pub(super) fn build_blocker<W: Why>(&self, rules: &Rules, b: Bld, standing: &Built) -> Result<(), W> {
        let bd = &rules.buildings[b.index()];
        if matches!(bd.ability, Some(Ability::Residence | Ability::TownHall)) {
            return refuse(rules, R::BuildUnique, || format!("{} is placed at set-up, not built", bd.name));
        }
        self.copy_blocker(rules, b, standing)?;
        if self.r::<Permits>() != Permits::NotNeeded && self.seats[self.active].permits.count(b) == 0 {
            return refuse(rules, R::BuildPermit, || format!("no permit for {}", bd.name));
        }
        let left = self.seats[self.active].chips.count();
        if left < bd.influence && self.r::<ChipShortage>() == ChipShortage::CannotBuild {
            return refuse(rules, R::BuildChips, || format!("{} needs {} chips, {left} left", bd.name, bd.influence));
        }
        Ok(())
    }

    /// Whether `b` may stand on `plot` (free, the Bank's plot for the Bank
    /// alone, corners for corner buildings): the `RuleError` of
    /// `build.plot`, or for the legal list only `Err(())`.
    pub(super) fn plot_fits<W: Why>(&self, rules: &Rules, b: Bld, plot: Plot) -> Result<(), W> {
        let no = |msg: &dyn Fn() -> String| refuse(rules, R::BuildPlot, msg);
        let bd = &rules.buildings[b.index()];
        let Some(p) = rules.plots.get(plot.index()) else {
            return no(&|| "no such plot".into());
        };
        if self.board[plot.index()].is_some() {
            return no(&|| format!("plot {} is taken", p.id));
        }
        let is_bank = bd.ability == Some(Ability::Bank);
        if p.bank && !is_bank {
            return no(&|| format!("only the Bank may stand on {}", p.id));
        }
        if is_bank && !p.bank && self.fault != Some(Fault::BankAnywhere) {
            return no(&|| format!("the Bank stands only on the bank plot, not {}", p.id));
        }
        if is_bank && p.bank {
            return Ok(());
        }
        let street_end_open =
            || p.kind == PlotKind::StreetEnd && self.r::<CornerAtStreetEnd>() == CornerAtStreetEnd::Allowed;
        if bd.corner && p.kind != PlotKind::Corner && !street_end_open() {
            return no(&|| format!("{} is a corner building and {} is not a corner plot", bd.name, p.id));
        }
        if !bd.corner && p.kind == PlotKind::Corner {
            return no(&|| format!("{} is not a corner building and {} is a corner plot", bd.name, p.id));
        }
        Ok(())
    }

    /// Whether the active player may play influence card `card` now (the
    /// phase aside): the `RuleError`, or for the legal list only `Err(())`.
    pub(super) fn influence_playable<W: Why>(&self, rules: &Rules, card: CardKind) -> Result<(), W> {
        let Some(e) = rules.event_of(card) else {
            return refuse(rules, R::InfluencePlay, || "not an event card".into());
        };
        let ev = &rules.events[e];
        if ev.triangle != Triangle::Violet {
            return refuse(rules, R::InfluencePlay, || format!("{} is not an influence card", ev.name));
        }
        if let Some(c) = self.condition_of(rules, e)
            && !self.eval(rules, c)
        {
            return refuse(rules, R::InfluencePlay, || format!("the condition of {} does not hold", ev.name));
        }
        if self.seats[self.active].chips.count() == 0 && self.r::<ChipShortage>() == ChipShortage::CannotBuild {
            return refuse(rules, R::BuildChips, || "no family chip left to place".into());
        }
        if ev.only_to_win && self.r::<GoldStrike>() == GoldStrike::OnlyToWin {
            let after = self.counted_influence(rules, self.active) + ev.influence;
            if after < self.win_threshold(self.active) {
                return refuse(rules, R::InfluencePlay, || {
                    format!("{} may only be played as the play that ends the game", ev.name)
                });
            }
        }
        Ok(())
    }

    /// The plays of a face-up event of no triangle `e` (card `card`): one
    /// per target, or one with no target where it needs none.
    fn resolve_plays(&self, rules: &Rules, e: usize, card: CardKind, out: &mut Vec<Action>) {
        let play = |plot| Action::Resolve { card, plot };
        match rules.events[e].target {
            None => out.push(play(None)),
            Some(Target::Building(b)) => out.extend(self.plots_with(b).map(|p| play(Some(p)))),
            Some(Target::AnyBuilding) => {
                out.extend(plots_of(&self.board).filter(|(_, p)| p.is_some()).map(|(i, _)| play(Some(i))))
            }
        }
    }

    pub(super) fn face_up_open(&self) -> bool {
        match self.phase {
            Phase::Build => true,
            Phase::Draw => self.r::<FaceUpTiming>() == FaceUpTiming::DrawOrBuild,
            _ => false,
        }
    }

    pub(super) fn face_up_plays(&self, rules: &Rules, out: &mut Vec<Action>) {
        if !self.face_up_open() {
            return;
        }
        for c in self.face_up.kinds() {
            let e = rules.event_of(c).expect("face-up cards are events");
            match rules.events[e].triangle {
                // influence cards wait for the building phase (Building 2)
                Triangle::Violet => {
                    if matches!(self.phase, Phase::Build) && self.influence_playable::<()>(rules, c).is_ok() {
                        out.push(Action::PlayInfluence(c));
                    }
                }
                Triangle::Red => self.disaster_plays(rules, c, out),
                Triangle::None => self.resolve_plays(rules, e, c, out),
                Triangle::Yellow => {}
            }
        }
    }

    pub(super) fn any_face_up_playable(&self, rules: &Rules) -> bool {
        let mut v = Vec::new();
        self.face_up_plays(rules, &mut v);
        !v.is_empty()
    }

    /// The legal actions; `Builds::None` leaves out `Build` actions (whose
    /// payments are many) for checking any other action, `Builds::Deferred`
    /// counts them instead (they come first) and returns the count, for
    /// `nth_build` to make the one a random pick takes. Else returns 0.
    pub(super) fn legal(&self, rules: &Rules, out: &mut Vec<Action>, builds: Builds) -> usize {
        out.clear();
        // one allocation for a fresh list instead of growing it step by step
        out.reserve(16);
        if self.outcome.is_some() {
            return 0;
        }
        if let Some(d) = &self.agenda.decision {
            self.decision_actions(rules, d, out);
            return 0;
        }
        let (a, mut deferred) = (self.active, 0);
        match &self.phase {
            Phase::Residence { .. } => out.extend(self.residence_plots(rules).into_iter().map(Action::PlaceResidence)),
            Phase::Draft { pool, .. } => out.extend(pool.kinds().into_iter().map(Action::DraftPermit)),
            Phase::Events { discard } => {
                if *discard > 0 {
                    out.extend(self.revealed.kinds().into_iter().map(Action::DiscardRevealed));
                    return 0;
                }
                for c in self.revealed.kinds() {
                    if self.keepable(rules, c) {
                        out.push(Action::KeepRevealed(c));
                    }
                }
                if self.on(V::TownHallDamage) && self.town_hall_closed.is_some() {
                    let (hand, size) = (self.seats[a].hand.counts(), self.p(P::TownHallReopenCards));
                    each_pick(hand, size, &mut |cards| out.push(Action::ReopenTownHall(cards.to_vec())));
                }
                out.push(Action::EndEvents);
            }
            Phase::Draw => {
                out.push(Action::DrawResources);
                if self.town_hall_open() {
                    out.extend(self.face_up_permits().into_iter().map(Action::TakeFaceUpPermit));
                    if self.on(V::OpenPermits) {
                        out.extend(self.permit_deck.kinds().into_iter().map(Action::ChoosePermit));
                    } else if self.permit_deck_draw_open() {
                        out.push(Action::DrawPermits);
                    }
                }
                // the Bank's draw replaces the normal one (bank-draw: instead); it
                // lapses with an empty permit deck
                let bank = self.owns_intact(rules, a, Ability::Bank) > 0;
                if bank && self.r::<BankDraw>() == BankDraw::Instead && !self.permit_deck.is_empty() {
                    out.push(Action::BankDraw);
                }
                self.face_up_plays(rules, out);
            }
            Phase::DrawKeep { offered } => out.extend(offered.kinds().into_iter().map(Action::KeepPermit)),
            Phase::Build => deferred = self.build_phase(rules, out, builds),
            Phase::Discard => {
                for (k, &n) in rules.cards().zip(self.seats[a].hand.counts()) {
                    if n > 0 {
                        out.push(Action::Discard(k));
                    }
                }
                out.push(Action::EndTurn);
            }
            Phase::NextTurn => out.push(Action::StartTurn),
            Phase::TurnStart | Phase::Reward | Phase::Over => {}
        }
        // after the step's own, where the turn waits for the active player
        crate::lang::declared::offered::<Dg>(self, rules, &mut |a| out.push(Action::Declared(a)));
        deferred
    }

    /// The build phase's legal actions (`legal`'s, and what it returns).
    fn build_phase(&self, rules: &Rules, out: &mut Vec<Action>, builds: Builds) -> usize {
        let a = self.active;
        let deferred = self.build_actions(rules, out, builds);
        let before_face_up = out.len();
        self.face_up_plays(rules, out);
        // what `any_face_up_playable` would list again
        let face_up_playable = out.len() > before_face_up;
        let hand = &self.seats[a].hand;
        for (k, &n) in rules.cards().zip(hand.counts()) {
            if n == 0 || self.face_up.contains(&k) {
                continue;
            }
            match rules.event_of(k).map(|e| rules.events[e].triangle) {
                Some(Triangle::Violet) if self.influence_playable::<()>(rules, k).is_ok() => {
                    out.push(Action::PlayInfluence(k))
                }
                Some(Triangle::Red) => self.disaster_plays(rules, k, out),
                _ => {}
            }
        }
        debug_assert_eq!(face_up_playable, self.any_face_up_playable(rules));
        if !face_up_playable {
            out.push(Action::EndBuild);
        }
        deferred
    }

    /// `Game::legal_actions`: every legal action.
    pub(in crate::games::dry_gulch) fn legal_all(&self, rules: &Rules, out: &mut Vec<Action>) {
        self.legal(rules, out, Builds::All);
    }

    /// `Game::legal_deferred`: the legal actions but the `Build` ones,
    /// which are counted (the count returned) and made one at a time by
    /// `deferred_build`.
    pub(in crate::games::dry_gulch) fn legal_but_builds(
        &self,
        rules: &Rules,
        out: &mut Vec<Action>,
        found: &mut DeferredBuilds,
    ) -> usize {
        self.legal(rules, out, Builds::Deferred(found))
    }

    /// `Game::deferred_action`: the `i`-th `Build` action of the legal list.
    pub(in crate::games::dry_gulch) fn deferred_build(
        &self,
        rules: &Rules,
        found: &DeferredBuilds,
        i: usize,
    ) -> Action {
        self.nth_build(rules, found, i).expect("a deferred build below the count `legal_but_builds` gave")
    }

    /// The `Build` actions in the build phase (none if `builds` is not
    /// `All`; under `None` only what reading the terms of payment records
    /// is read, the General Store's parameter): building,
    /// then plot, then payment in `payment.rs` order. Under `Deferred` they
    /// are counted, not listed, and the count returned (`nth_build` makes
    /// one); else 0.
    pub(super) fn build_actions(&self, rules: &Rules, out: &mut Vec<Action>, builds: Builds) -> usize {
        if builds == Builds::None {
            // what reading the terms records (the store's parameter), and no
            // more: nothing once it is recorded
            let (readings, touched) = self.reads();
            if !touched.get(readings.hooks.len() + usize::from(P::GeneralStoreCards)) {
                self.store_left(rules);
            }
            return 0;
        }
        let terms = self.terms(rules);
        let hand = self.seats[self.active].hand.counts();
        if let Builds::Deferred(found) = builds {
            found.0.clear();
            let mut n = 0;
            self.each_buildable(rules, |b, plots, need| {
                let per_plot = payment::count(rules, &terms, need, hand);
                if per_plot > 0 {
                    found.0.push((b, per_plot, plots.len()));
                }
                n += per_plot * plots.len();
                true
            });
            return n;
        }
        self.each_buildable(rules, |b, plots, need| {
            let (&first, others) = plots.split_first().expect("each_buildable gives a plot at least");
            // the first plot's builds straight from the enumeration, then
            // the same payments on each other plot in plot order
            let start = out.len();
            payment::enumerate_each(rules, &terms, need, hand, &mut |payment| {
                out.push(Action::Build { building: b, plot: first, payment: Box::new(payment) })
            });
            let end = out.len();
            out.reserve(others.len() * (end - start));
            for &plot in others {
                let at = out.len();
                out.extend_from_within(start..end);
                for a in &mut out[at..] {
                    if let Action::Build { plot: p, .. } = a {
                        *p = plot;
                    }
                }
            }
            true
        });
        0
    }

    /// The `i`-th of the `Build` actions `build_actions` lists (`i` below
    /// the count it returns under `Deferred`, in the state it counted
    /// `found` in), made alone: the building is found from the counts,
    /// its plots and requirements read again as `each_buildable` reads
    /// them, and its payments walked to the one.
    pub(super) fn nth_build(&self, rules: &Rules, found: &DeferredBuilds, mut i: usize) -> Option<Action> {
        let mut picked = None;
        for &(b, per_plot, plots) in &found.0 {
            if i < per_plot * plots {
                picked = Some((b, per_plot));
                break;
            }
            i -= per_plot * plots;
        }
        let (building, per_plot) = picked?;
        let plot = self.fitting_plots(rules, building, &self.standing(rules)).nth(i / per_plot)?;
        let (terms, hand) = (self.terms(rules), self.seats[self.active].hand.counts());
        let payment = payment::nth(rules, &terms, &self.needs(rules, building), hand, i % per_plot)?;
        Some(Action::Build { building, plot, payment: Box::new(payment) })
    }

    /// The free plots `b` fits, in plot order (`each_buildable`'s, and
    /// `nth_build`'s again for the building picked).
    fn fitting_plots<'s>(&'s self, rules: &'s Rules, b: Bld, standing: &'s Built) -> impl Iterator<Item = Plot> + 's {
        standing.free.iter().copied().filter(move |&p| self.plot_fits::<()>(rules, b, p).is_ok())
    }

    /// Each building the active player may build now, in catalog order,
    /// with the plots it fits (one at least) and its requirements, handed
    /// to `f` until it returns `false`. What `build_blocker`, `plot_fits`
    /// and `needs` ask alike of every building (the copies standing, the
    /// free plots, the Blacksmith's waiver, the permits and chip-shortage
    /// readings) is read once here. The permits reading is first read, as
    /// `build_blocker` reads it, for the first building with copies left, so
    /// the same readings are recorded; once it is known, a building without
    /// the permit it needs is passed over before `copy_blocker`.
    fn each_buildable(&self, rules: &Rules, mut f: impl FnMut(Bld, &[Plot], &[(Res, u32)]) -> bool) {
        let standing = self.standing(rules);
        let seat = &self.seats[self.active];
        let waive = self.owns_intact(rules, self.active, Ability::Blacksmith) > 0;
        // read (and recorded) where `build_blocker` first reads them
        let mut permits_needed: Option<bool> = None;
        let mut cannot_build_short = None;
        for b in rules.buildings() {
            let bd = &rules.buildings[b.index()];
            if matches!(bd.ability, Some(Ability::Residence | Ability::TownHall)) {
                continue;
            }
            let no_permit = seat.permits.count(b) == 0;
            if no_permit && permits_needed == Some(true) {
                continue;
            }
            if self.copy_blocker::<()>(rules, b, &standing).is_err() {
                continue;
            }
            let needed = *permits_needed.get_or_insert_with(|| self.r::<Permits>() != Permits::NotNeeded);
            if no_permit && needed {
                continue;
            }
            if seat.chips.count() < bd.influence
                && *cannot_build_short.get_or_insert_with(|| self.r::<ChipShortage>() == ChipShortage::CannotBuild)
            {
                continue;
            }
            debug_assert!(self.build_blocker::<()>(rules, b, &standing).is_ok());
            let plots: SmallVec<[Plot; 32]> = self.fitting_plots(rules, b, &standing).collect();
            if plots.is_empty() {
                continue;
            }
            if !f(b, &plots, &needs_of(rules, b, waive)) {
                return;
            }
        }
    }

    /// `disaster_targets` of a red card as plays, with no list of plots
    /// between (`disaster_blocker::<()>` formats no refusal).
    pub(super) fn disaster_plays(&self, rules: &Rules, card: CardKind, out: &mut Vec<Action>) {
        let start = out.len();
        let used = self.markers_used();
        for (i, p) in plots_of(&self.board) {
            if self.disaster_blocker::<()>(rules, card, p, used).is_ok() {
                out.push(Action::PlayDisaster { card, plot: i });
            }
        }
        debug_assert!(
            out[start..]
                .iter()
                .map(|a| match a {
                    Action::PlayDisaster { plot, .. } => Some(*plot),
                    _ => None,
                })
                .eq(self.disaster_targets(rules, card).into_iter().map(Some))
        );
    }
}

/// The requirements of building `b`, the Blacksmith's resource left out
/// where `waive` (its owner builds).
fn needs_of(rules: &Rules, b: Bld, waive: bool) -> SmallVec<[(Res, u32); 8]> {
    rules.buildings[b.index()].cost.iter().filter(|(r, _)| !(waive && *r == rules.blacksmith)).copied().collect()
}
