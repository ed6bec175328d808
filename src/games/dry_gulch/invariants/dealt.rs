//! What the invariants compare a game with, worked out once per dealing
//! reading and set of numbers a configuration sets, and kept with the rules.

use std::cell::OnceCell;
use std::sync::{Arc, Mutex, OnceLock};

use crate::engine::{Id, Readings};
use crate::games::dry_gulch::readings::VioletCards;
use crate::games::dry_gulch::rules::{card_totals, counted_permits};
use crate::games::dry_gulch::rules_data::{Ability, Rules, kind};
use crate::games::dry_gulch::zones::card_classes;

/// What the invariants compare the state with, fixed for a whole game:
/// each card kind's deck and its copies and each building's permits, from
/// the catalog, the numbers the configuration sets (`Readings::counts`:
/// `event-deck-composition` sets two) and the reading that deals the
/// violet cards (`violet-cards`), never from the state, and the catalog's
/// numbers the checks read after every action (influence, the bank) in
/// tables of their own. Worked out the first time a game so configured is
/// checked and kept with the rules (`Rules::dealt`), so no check after an
/// action works it out again.
#[derive(Debug, Clone)]
pub(super) struct Dealt {
    /// Each kind's class: `RESOURCE` where it lies in the resource piles
    /// (a kind no card has counts as a resource, as `in_resource_deck`
    /// says), else `EVENT`; what the card table's piles admit
    /// (`CARD_ZONES`), with room for every id.
    pub(super) class: [u8; Id::<kind::Card>::CAPACITY],
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

/// `Dealt` for each reading of `violet-cards`, filled on first use; and,
/// for a configuration that sets numbers of cards or permits
/// (`Readings::counts`), one for each distinct set of numbers and reading,
/// found under a lock once per game (`DealtCache`).
#[derive(Debug, Default)]
pub struct DealtTables {
    printed: [OnceLock<Dealt>; 2],
    counted: Mutex<Vec<(Key, Arc<Dealt>)>>,
}

/// What a `Dealt` of a configuration that sets numbers depends on.
type Key = (VioletCards, Vec<(u32, u32)>);

impl Clone for DealtTables {
    fn clone(&self) -> Self {
        let counted = self.counted.lock().map(|c| c.clone()).unwrap_or_default();
        DealtTables { printed: self.printed.clone(), counted: Mutex::new(counted) }
    }
}

/// The `Dealt` of a configuration that sets numbers, kept with a game's
/// state once found, so a check after an action takes no lock: a cache of
/// the configuration, equal to any other and not serialised.
#[derive(Debug, Clone, Default)]
pub struct DealtCache(OnceCell<Arc<Dealt>>);

impl PartialEq for DealtCache {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for DealtCache {}

impl DealtTables {
    /// The `Dealt` of a game configured as `readings` says, with
    /// `violet-cards` read as `violet`; `cache` is the game's.
    pub(super) fn get<'a>(
        &'a self,
        rules: &Rules,
        readings: &Readings,
        violet: VioletCards,
        cache: &'a DealtCache,
    ) -> &'a Dealt {
        if readings.counts.is_empty() {
            let at = violet as usize % self.printed.len();
            return self.printed[at].get_or_init(|| Dealt::new(rules, readings, violet));
        }
        cache.0.get_or_init(|| {
            // a poisoned lock only means another thread panicked mid-insert
            let mut counted = self.counted.lock().unwrap_or_else(|e| e.into_inner());
            let key = |(v, c): &Key| *v == violet && *c == readings.counts;
            if let Some((_, d)) = counted.iter().find(|(k, _)| key(k)) {
                return d.clone();
            }
            let d = Arc::new(Dealt::new(rules, readings, violet));
            counted.push(((violet, readings.counts.clone()), d.clone()));
            d
        })
    }
}

impl Dealt {
    fn new(rules: &Rules, readings: &Readings, violet: VioletCards) -> Dealt {
        let class = card_classes(rules, violet);
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
            class,
            totals: card_totals(rules, readings, violet),
            permits: rules.buildings().map(|b| counted_permits(rules, readings, b)).collect(),
            card_influence,
            buildings,
            bank_plot: rules.plots.iter().map(|p| p.bank).collect(),
        }
    }
}
