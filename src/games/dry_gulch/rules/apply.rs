//! `Game::apply`: an action is checked against the legal list (a build
//! directly: its payments are many) and, when it is not there, explained
//! by naming the rule it breaks.

use super::*;

thread_local! {
    /// The legal list `checked_apply` looks an action up in, kept between
    /// calls: a fresh list per action cost an allocation past the small
    /// sizes the allocator keeps at hand (it is cleared before each use,
    /// and nothing it lists outlives the call).
    static LISTED: std::cell::RefCell<Vec<Action>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl State {
    /// `Game::apply`: the action if it is legal here, else the rule it breaks.
    pub(in crate::games::dry_gulch) fn checked_apply(
        &mut self,
        rules: &Rules,
        action: &Action,
    ) -> Result<Vec<Event>, RuleError> {
        let ok = match action {
            // a build is checked directly: its payments are many
            Action::Build { building, plot, payment: pay } => {
                self.agenda.decision.is_none()
                    && self.outcome.is_none()
                    && self.phase == Phase::Build
                    && building.index() < rules.buildings.len()
                    && plot.index() < rules.plots.len()
                    && self.build_blocker::<()>(rules, *building, &self.standing(rules)).is_ok()
                    && self.plot_fits::<()>(rules, *building, *plot).is_ok()
                    && payment::check(
                        rules,
                        &self.terms(rules),
                        &self.needs(rules, *building),
                        self.seats[self.active].hand.counts(),
                        pay,
                    )
                    .is_ok()
            }
            _ => LISTED.with_borrow_mut(|legal| {
                self.legal(rules, legal, super::legal::Builds::None);
                legal.contains(action)
            }),
        };
        if !ok {
            return Err(self.diagnose(rules, action));
        }
        let mut ev = Vec::new();
        self.execute(rules, action, &mut ev);
        Ok(ev)
    }

    /// Explains why an action is illegal now, naming the rule.
    pub(super) fn diagnose(&self, rules: &Rules, action: &Action) -> RuleError {
        let phase_name = self.phase_name();
        if self.outcome.is_some() {
            return err(rules, R::GameOver, "the game is over");
        }
        if let Some(d) = &self.agenda.decision {
            return err(rules, R::Decision, format!("seat {} must first decide `{}`", d.seat() + 1, d.name()));
        }
        match action {
            Action::Build { building, plot, payment: pay } => self.diagnose_build(rules, *building, *plot, pay),
            Action::Declared(act) => crate::lang::declared::diagnose::<Dg>(self, rules, *act),
            Action::DrawPermits | Action::TakeFaceUpPermit(_) | Action::ChoosePermit(_)
                if self.phase == Phase::Draw && !self.town_hall_open() =>
            {
                err(rules, R::TownHallClosed, "the Town Hall is closed: no permits may be drawn")
            }
            Action::DrawPermits if self.short_permit_deck().is_some() => {
                err(rules, R::DrawPermit, self.short_permit_deck().unwrap_or_default())
            }
            Action::DrawPermits
            | Action::TakeFaceUpPermit(_)
            | Action::ChoosePermit(_)
            | Action::DrawResources
            | Action::BankDraw
                if self.phase == Phase::Draw =>
            {
                err(
                    rules,
                    if matches!(action, Action::BankDraw) { R::DrawBank } else { R::DrawPermit },
                    "that draw is not available now",
                )
            }
            Action::PlayDisaster { card, plot } => {
                if !self.face_up_open() || (self.phase != Phase::Build && !self.face_up.contains(card)) {
                    return err(
                        rules,
                        R::DisasterPlay,
                        format!("disasters are played in the build phase, not in {phase_name}"),
                    );
                }
                if !self.face_up.contains(card) && self.seats[self.active].hand.count(*card) == 0 {
                    return err(rules, R::DisasterPlay, "the player holds no such card");
                }
                match self.board.get(plot.index()) {
                    None => err(rules, R::DisasterPlay, "no such plot"),
                    Some(p) => match self.disaster_blocker::<RuleError>(rules, *card, p, self.markers_used()) {
                        Err(e) => e,
                        Ok(()) => err(rules, R::DisasterPlay, "that card is not a disaster"),
                    },
                }
            }
            Action::PlayInfluence(card) => match self.influence_playable::<RuleError>(rules, *card) {
                Err(e) => e,
                Ok(()) => err(
                    rules,
                    R::InfluencePlay,
                    format!("influence cards are played in the build phase, not in {phase_name}"),
                ),
            },
            Action::EndBuild if self.phase == Phase::Build => err(
                rules,
                R::BuildEnd,
                "a face-up event can still be played and must be resolved before the reward phase",
            ),
            _ => err(
                rules,
                R::TurnOrder,
                format!("`{}` is not a legal action in {phase_name}", describe_action(rules, action)),
            ),
        }
    }

    /// The name of the phase under way, for messages.
    pub(super) fn phase_name(&self) -> &'static str {
        match &self.phase {
            Phase::TurnStart | Phase::NextTurn => "the start of the turn",
            Phase::Residence { .. } => "set-up (Residences)",
            Phase::Draft { .. } => "set-up (permit draft)",
            Phase::Events { .. } => "the event phase",
            Phase::Draw | Phase::DrawKeep { .. } => "the draw phase",
            Phase::Build => "the build phase",
            Phase::Reward => "the reward phase",
            Phase::Discard => "the discard phase",
            Phase::Over => "the end of the game",
        }
    }

    /// Why a build the legal list lacks is illegal: the phase, the
    /// building, the plot or the payment.
    fn diagnose_build(&self, rules: &Rules, building: Bld, plot: Plot, pay: &Payment) -> RuleError {
        let phase_name = self.phase_name();
        if self.phase != Phase::Build {
            return err(rules, R::TurnOrder, format!("buildings are built in the build phase, not in {phase_name}"));
        }
        let Some(bd) = rules.buildings.get(building.index()) else {
            return err(rules, R::BuildUnique, "no such building");
        };
        if let Err(e) = self.build_blocker::<RuleError>(rules, building, &self.standing(rules)) {
            return e;
        }
        if let Err(e) = self.plot_fits::<RuleError>(rules, building, plot) {
            return e;
        }
        match payment::check(
            rules,
            &self.terms(rules),
            &self.needs(rules, building),
            self.seats[self.active].hand.counts(),
            pay,
        ) {
            Err(m) => err(rules, R::BuildPayment, format!("{}: {m}", bd.name)),
            Ok(()) => err(rules, R::BuildPayment, "the payment is not one the player can make now"),
        }
    }
}
