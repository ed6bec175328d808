//! What every game's compiled catalog holds alike: its identity (id,
//! name, player counts), what it cites (documents, languages, the rule
//! book), its numbers (the tally and the parameters), its turn as declared,
//! and its readings and variants with the data they compile to
//! (replacements, conditions, declared actions, `choose` options).
//!
//! A game's `Rules` holds one `Core` beside its own entities and derefs to
//! it (`Lang::Rules` requires it), so the shared language, the declared
//! actions and the registry read these fields the same way for every game,
//! and a game lowers them through one constructor rather than a struct of
//! its own with the same fields.

use super::declared::DeclaredAction;
use super::effect::{Choice, Cond, Effect, Lang};
use crate::catalog::common::{Declared, Document, Interpretation, NumberTally, Variant};
use crate::catalog::folder::RawGameSection;
use crate::catalog::layers::GameSection;
use crate::engine::{Base, Config, ConfigError, Readings, Reads, RuleBook, TurnPlan};

/// The part of a compiled catalog every game has (see the module).
#[derive(Debug, Clone)]
pub struct Core<L: Lang> {
    pub id: String,
    /// The game's name in the catalog's first language.
    pub name: String,
    pub min_players: u32,
    pub max_players: u32,
    /// The documents citations may name, and the languages of names.
    pub documents: Vec<Document>,
    pub languages: Vec<String>,
    /// The rules the errors name, with the places `game.rules` gives them.
    pub rule_book: RuleBook,
    /// How many of the catalog's numbers are cited and how many assumed.
    pub tally: NumberTally,
    /// Parameter values as the catalog gives them, in the game's `PARAMS` order.
    pub params: Vec<u32>,
    /// The turn the catalog declares, before readings and variants change it.
    pub turn: TurnPlan,
    /// What the code declares (hooks, variants, parameters, procedures),
    /// for the switch points.
    pub declared: Declared<'static>,
    /// The `set:` key of each counted entity's number (`Change::Count`:
    /// `events.fire.copies`).
    pub count_keys: Vec<String>,
    pub variants: Vec<Variant>,
    pub interpretations: Vec<Interpretation>,
    /// Effects readings and variants put in place of an entity's own, and
    /// the steps they add to the turn (the `with` of `Change::Replace` and
    /// `Change::Step`).
    pub replacements: Vec<Vec<Effect<L>>>,
    /// Conditions readings and variants put in place of an entity's own
    /// (the `with` of `Change::Condition`).
    pub conditions: Vec<Cond<L>>,
    /// The actions variants and options declare (by `Act`, the `action` of
    /// `Change::Action`).
    pub actions: Vec<DeclaredAction<L>>,
    /// The options of every `choose` effect (by `Val::Choice`).
    pub choices: Vec<Choice<L>>,
}

impl<L: Lang> Core<L> {
    /// The core of the catalog whose `game:` section is `raw` (lowered as
    /// `game`), whose code names its errors' rules `rules` and declares
    /// `declared`, with the `set:` key of each number it counts
    /// (`count_keys`); its numbers, turn and readings are the game's to
    /// fill in as it lowers them.
    pub fn new(
        raw: &RawGameSection,
        game: GameSection,
        rules: &'static [&'static str],
        (declared, count_keys): (Declared<'static>, Vec<String>),
    ) -> Core<L> {
        let id = raw.id.value.clone();
        Core {
            name: raw.names.display(&game.languages, &id).to_string(),
            rule_book: RuleBook::new(&id, rules, game.rules),
            id,
            min_players: raw.min_players.value,
            max_players: raw.max_players.value,
            documents: game.documents,
            languages: game.languages,
            tally: NumberTally::default(),
            params: Vec::new(),
            turn: TurnPlan::default(),
            declared,
            count_keys,
            variants: Vec::new(),
            interpretations: Vec::new(),
            replacements: Vec::new(),
            conditions: Vec::new(),
            actions: Vec::new(),
            choices: Vec::new(),
        }
    }

    /// The readings configuration `config` plays, resolved against the
    /// catalog's interpretations, variants, numbers and turn
    /// (`Readings::resolve`), once its player count is one the catalog
    /// seats. `entity` names an entity a `replace:` names (`fire`), for a
    /// clash between changes.
    pub fn resolve(&self, config: &Config, entity: &dyn Fn(u32) -> String) -> Result<Readings, ConfigError> {
        let (players, min, max) = (config.players, self.min_players, self.max_players);
        if players < min || players > max {
            return Err(ConfigError::Players { players, min, max });
        }
        let required = self.declared.required_indexes();
        let count_key = |e: u32| self.count_keys.get(e as usize).cloned().unwrap_or_default();
        let base = Base {
            params: &self.params,
            names: self.declared.params,
            count_key: &count_key,
            entity,
            turn: &self.turn,
            steps: self.declared.steps,
            required: &required,
        };
        Readings::resolve(&self.interpretations, &self.variants, self.declared.hooks.len(), base, config)
    }

    /// The effect entity `e` has in the configuration `w` plays: `own`, or
    /// the one a reading or variant replaces it with (recorded as consulted).
    pub fn effect_of<'r>(&'r self, w: &impl Reads, e: usize, own: &'r [Effect<L>]) -> &'r [Effect<L>] {
        match w.replaced(&self.declared, e) {
            Some(with) => self.replacements.get(with as usize).map_or(&[], Vec::as_slice),
            None => own,
        }
    }

    /// The condition entity `e` has in the configuration `w` plays: `own`,
    /// or the one a reading or variant replaces it with.
    pub fn condition_of<'r>(&'r self, w: &impl Reads, e: usize, own: Option<&'r Cond<L>>) -> Option<&'r Cond<L>> {
        match w.condition_replaced(&self.declared, e) {
            Some(with) => self.conditions.get(with as usize),
            None => own,
        }
    }
}

/// Writes `Deref<Target = Core<$lang>>` (and `DerefMut`, for a test that
/// edits a catalog) for a game's `Rules`, whose `core` field holds it.
#[macro_export]
macro_rules! rules_core {
    ($rules:ty, $lang:ty) => {
        impl std::ops::Deref for $rules {
            type Target = $crate::lang::Core<$lang>;
            fn deref(&self) -> &$crate::lang::Core<$lang> {
                &self.core
            }
        }
        impl std::ops::DerefMut for $rules {
            fn deref_mut(&mut self) -> &mut $crate::lang::Core<$lang> {
                &mut self.core
            }
        }
    };
}
