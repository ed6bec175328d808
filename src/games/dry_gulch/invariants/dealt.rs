//! What the invariants compare a game with, worked out once per
//! configuration's dealing readings and numbers and kept with the rules.

use std::sync::{Arc, Mutex, OnceLock};

use crate::engine::{Hook, Id, Readings};
use crate::games::dry_gulch::readings::{EventDeckComposition, VioletCards};
use crate::games::dry_gulch::rules::{card_totals, counted_permits, in_resource_deck};
use crate::games::dry_gulch::rules_data::{Ability, Rules, kind};

/// What the invariants compare the state with, fixed for a whole game:
/// each card kind's deck and its copies, from the catalog and the two
/// readings that deal the decks (`violet-cards`, `event-deck-composition`),
/// never from the state, and the catalog's numbers the checks read after
/// every action (permits, influence, the bank) in tables of their own.
/// Worked out the first time a game under a pair of readings is checked
/// and kept with the rules (`Rules::dealt`), so no check after an action
/// works it out again.
#[derive(Debug, Clone)]
pub(super) struct Dealt {
    /// Whether a kind lies in the resource piles (a kind no card has counts
    /// as a resource, as `in_resource_deck` says); room for every id, so a
    /// card's class is read with no bounds check.
    pub(super) resource: [bool; Id::<kind::Card>::CAPACITY],
    /// Copies of each card kind, in kind order.
    pub(super) totals: Vec<u32>,
    /// Permits of each building, in building order.
    pub(super) permits: Vec<u32>,
    /// The influence an influence card in front of a player adds, by card
    /// kind (none for a resource card).
    pub(super) card_influence: [u32; Id::<kind::Card>::CAPACITY],
    /// What the board pass reads of each building, in building order.
    pub(super) buildings: Vec<Standing>,
    /// Whether each plot is the bank plot, in plot order.
    pub(super) bank_plot: Vec<bool>,
}

/// What the board pass reads of a building, out of its catalog entry.
#[derive(Debug, Clone, Copy)]
pub(super) struct Standing {
    pub(super) influence: u32,
    pub(super) residence: bool,
    pub(super) bank: bool,
}

/// `Dealt` for each pair of the dealing readings, filled on first use; and,
/// for a configuration that sets numbers of cards or permits
/// (`Readings::counts`), one for each distinct set of numbers and pair.
#[derive(Debug, Default)]
pub struct DealtTables {
    printed: [OnceLock<Dealt>; 4],
    counted: Mutex<Vec<(Key, Arc<Dealt>)>>,
}

/// What a `Dealt` of a configuration that sets numbers depends on.
type Key = (EventDeckComposition, VioletCards, Vec<(u32, u32)>);

impl Clone for DealtTables {
    fn clone(&self) -> Self {
        let counted = self.counted.lock().map(|c| c.clone()).unwrap_or_default();
        DealtTables { printed: self.printed.clone(), counted: Mutex::new(counted) }
    }
}

/// A `Dealt` as `DealtTables::get` gives it: kept with the rules for the
/// catalog's numbers, shared for numbers a configuration sets.
pub(super) enum DealtRef<'a> {
    Printed(&'a Dealt),
    Counted(Arc<Dealt>),
}

impl std::ops::Deref for DealtRef<'_> {
    type Target = Dealt;
    fn deref(&self) -> &Dealt {
        match self {
            DealtRef::Printed(d) => d,
            DealtRef::Counted(d) => d,
        }
    }
}

impl DealtTables {
    pub(super) fn get(
        &self,
        rules: &Rules,
        readings: &Readings,
        split: EventDeckComposition,
        violet: VioletCards,
    ) -> DealtRef<'_> {
        if readings.counts.is_empty() {
            let at = (split as usize * VioletCards::OPTIONS.len() + violet as usize) % self.printed.len();
            return DealtRef::Printed(self.printed[at].get_or_init(|| Dealt::new(rules, readings, split, violet)));
        }
        // a poisoned lock only means another thread panicked mid-insert
        let mut counted = self.counted.lock().unwrap_or_else(|e| e.into_inner());
        let key = |(s, v, c): &Key| *s == split && *v == violet && *c == readings.counts;
        if let Some((_, d)) = counted.iter().find(|(k, _)| key(k)) {
            return DealtRef::Counted(d.clone());
        }
        let d = Arc::new(Dealt::new(rules, readings, split, violet));
        counted.push(((split, violet, readings.counts.clone()), d.clone()));
        DealtRef::Counted(d)
    }
}

impl Dealt {
    fn new(rules: &Rules, readings: &Readings, split: EventDeckComposition, violet: VioletCards) -> Dealt {
        let mut resource = [true; Id::<kind::Card>::CAPACITY];
        for c in rules.cards() {
            resource[c.index()] = in_resource_deck(rules, violet, c);
        }
        let mut card_influence = [0; Id::<kind::Card>::CAPACITY];
        for c in rules.cards() {
            card_influence[c.index()] = rules.event_of(c).map_or(0, |e| rules.events[e].influence);
        }
        let buildings = rules
            .buildings
            .iter()
            .map(|b| Standing {
                influence: b.influence,
                residence: b.ability == Some(Ability::Residence),
                bank: b.ability == Some(Ability::Bank),
            })
            .collect();
        Dealt {
            resource,
            totals: card_totals(rules, readings, split, violet),
            permits: rules.buildings().map(|b| counted_permits(rules, readings, b)).collect(),
            card_influence,
            buildings,
            bank_plot: rules.plots.iter().map(|p| p.bank).collect(),
        }
    }
}
