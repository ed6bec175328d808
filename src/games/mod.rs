//! The games, each over the engine core, and the registry: one `Entry`
//! per game, listed once in `registry!`, is how every command reaches a
//! game. Nothing outside this module and the game's own names a game.

pub mod dodge_city;
pub mod dry_gulch;
pub mod red_dog_junction;
pub mod schemas;

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Deref;

use serde::Serialize;

use crate::catalog::common::{Change, Interpretation, NumberTally, Variant};
use crate::catalog::diag::Diagnostic;
use crate::catalog::{GameSources, SourceFile, overlay};
use crate::engine::Scripted;
use crate::lang::{Core, Lang};
use crate::yaml;

/// What the registry needs of a game. What every game's catalog holds
/// alike (`lang::Core`, which its `Rules` deref to) it answers by the
/// defaults; a game writes only what differs (`entities`, `replaced`).
pub trait Entry {
    /// The game id: its catalog folder, scenarios' `game:`, `--game`.
    const ID: &'static str;
    /// The YAML files its catalog folder holds (any other is a stray).
    const FILES: &'static [&'static str];
    /// The game in the shared effect language.
    type Lang: Lang<Rules = Self::Rules>;
    type Rules: Deref<Target = Core<Self::Lang>> + std::fmt::Debug + Clone + Sync;
    type State: Scripted<Rules = Self::Rules, Action: Send>;
    /// Parses and lowers a catalog folder, with a house-rules overlay layered on.
    fn load(base: &GameSources, overlay: Option<&GameSources>) -> Result<Self::Rules, Vec<Diagnostic>>;
    /// The id the catalog gives itself (`game.id`; validation holds it to `ID`).
    fn id(rules: &Self::Rules) -> &str {
        &rules.id
    }
    /// The game's name in the catalog's first language.
    fn name(rules: &Self::Rules) -> &str {
        &rules.name
    }
    /// The fewest and the most seats the catalog plays.
    fn players(rules: &Self::Rules) -> (u32, u32) {
        (rules.min_players, rules.max_players)
    }
    /// Entities by kind (buildings, events, …), for `validate`'s summary.
    fn entities(rules: &Self::Rules) -> Vec<(&'static str, usize)>;
    /// How many of its numbers are cited and how many assumed.
    fn numbers(rules: &Self::Rules) -> NumberTally {
        rules.tally
    }
    fn interpretations(rules: &Self::Rules) -> &[Interpretation] {
        &rules.interpretations
    }
    fn variants(rules: &Self::Rules) -> &[Variant] {
        &rules.variants
    }
    /// The id of entity `e`, whose effect a `replace:` names (an event, a card).
    fn replaced(rules: &Self::Rules, e: usize) -> Option<&str>;
    /// A data change of a reading or variant, in catalog words.
    fn describe_change(rules: &Self::Rules, change: &Change) -> String {
        describe_change(change, rules, &|e| Self::replaced(rules, e))
    }
    /// The rules the game's errors name (`dry-gulch/build.payment`), each
    /// with the places it cites, in the code's order, and the rule of the
    /// declared actions where the catalog has any.
    fn rules(rules: &Self::Rules) -> Vec<(String, String)> {
        crate::lang::declared::cited(&rules.rule_book, !rules.actions.is_empty())
    }
    /// The rule ids the game's errors name.
    fn rule_ids(rules: &Self::Rules) -> BTreeSet<String> {
        Self::rules(rules).into_iter().map(|(id, _)| id).collect()
    }
}

/// Writes, inside a game's `impl Entry`, what every game names alike: its
/// id (the module's `ID`), files (`catalog::FILES`), `Lang`, `Rules` and
/// `State` types, and `load` through the loader `$load` names.
macro_rules! entry_fields {
    ($lang:ty, $load:path) => {
        const ID: &'static str = ID;
        const FILES: &'static [&'static str] = catalog::FILES;
        type Lang = $lang;
        type Rules = Rules;
        type State = State;

        fn load(
            base: &$crate::catalog::GameSources,
            overlay: Option<&$crate::catalog::GameSources>,
        ) -> Result<Rules, Vec<$crate::catalog::diag::Diagnostic>> {
            $load(base, overlay)
        }
    };
}
pub(crate) use entry_fields;

/// Writes, inside a game's `impl Game for State`, what every game's state
/// answers alike: its `Rules`, `Action` and `Event` types, `new` (the
/// configuration checked against the catalog's id, then `State::setup`)
/// and `players` (its `players` field); a macro for `entry_fields!`' reason.
macro_rules! game_fields {
    () => {
        type Rules = Rules;
        type Action = Action;
        type Event = Event;

        fn new(rules: &Rules, config: &$crate::engine::Config) -> Result<State, $crate::engine::ConfigError> {
            config.check_game(&rules.id)?;
            State::setup(rules, config)
        }
        fn players(&self) -> usize {
            self.players
        }
    };
}
pub(crate) use game_fields;

/// A data change of a reading or variant, in catalog words (what
/// `Entry::describe_change` gives, the same sentences for every game):
/// parameters, counted numbers, steps and declared actions by the names
/// `core` gives them, and the entity a `replace:` names by `entity`.
pub fn describe_change<'a, L: Lang>(c: &Change, core: &Core<L>, entity: &dyn Fn(usize) -> Option<&'a str>) -> String {
    let name = |names: &[&str], i: usize| names.get(i).copied().unwrap_or("?").to_string();
    let side = |after: bool| if after { "after" } else { "before" };
    let (of, st) = (entity, core.declared.steps);
    match *c {
        Change::Set { param, value } => format!("sets {} to {value}", name(core.declared.params, param)),
        Change::Count { entity, value } => {
            format!("sets {} to {value}", core.count_keys.get(entity as usize).map_or("?", String::as_str))
        }
        Change::Replace { entity, .. } => format!("replaces the effect of {}", of(entity as usize).unwrap_or("?")),
        Change::Condition { entity, .. } => {
            format!("replaces the condition of {}", of(entity as usize).unwrap_or("?"))
        }
        Change::Action { action, during, ends_step } => {
            let id = core.actions.get(action as usize).map_or("?", |a| a.id.as_str());
            let ends = if ends_step { ", which it ends" } else { "" };
            format!("adds the action {id}, taken once a turn in the step {}{ends}", name(st, during as usize))
        }
        Change::Step { at, after, .. } => format!("adds a step {} {}", side(after), name(st, at as usize)),
        Change::Add { step, at, after } => {
            format!("adds the step {} {} {}", name(st, step as usize), side(after), name(st, at as usize))
        }
        Change::Remove { step } => format!("removes the step {}", name(st, step as usize)),
        Change::Move { step, at, after } => {
            format!("moves the step {} {} {}", name(st, step as usize), side(after), name(st, at as usize))
        }
    }
}

/// Declares the registry from one line per game: the `AnyRules` variant
/// and the game's `Entry`. It writes `AnyRules`, `KNOWN`, the dispatch of
/// `AnyRules`' methods, and `with_game!`, which runs code with the typed
/// game. (`$d` is a `$` passed in, so the inner macro can have variables.)
macro_rules! registry {
    ($d:tt $($variant:ident => $entry:ty),+ $(,)?) => {
        /// A loaded, validated catalog of any known game.
        #[derive(Debug, Clone)]
        pub enum AnyRules {
            $($variant(Box<<$entry as Entry>::Rules>)),+
        }

        /// The game ids the registry knows, in display order.
        pub const KNOWN: &[&str] = &[$(<$entry as Entry>::ID),+];

        /// Loads game `id`'s folder (with an overlay); `None` for an unknown id.
        fn load_game(
            id: &str,
            base: &GameSources,
            overlay: Option<&GameSources>,
        ) -> Option<Result<AnyRules, Vec<Diagnostic>>> {
            $(if id == <$entry as Entry>::ID {
                return Some(<$entry as Entry>::load(base, overlay).map(|r| AnyRules::$variant(Box::new(r))));
            })+
            None
        }

        /// The files game `id`'s catalog folder holds.
        pub fn catalog_files(id: &str) -> Option<&'static [&'static str]> {
            $(if id == <$entry as Entry>::ID {
                return Some(<$entry as Entry>::FILES);
            })+
            None
        }

        /// Runs `$body` with `$G` the typed game (its state) of `$rules`,
        /// `$r` its rules and `$E` its registry entry.
        macro_rules! with_game {
            ($d rules:expr, |$d r:ident, $d G:ident, $d E:ident| $d body:expr) => {
                match $d rules {
                    $($crate::games::AnyRules::$variant($d r) => {
                        type $d E = $entry;
                        type $d G = <$entry as $crate::games::Entry>::State;
                        let $d r: &<$entry as $crate::games::Entry>::Rules = $d r;
                        $d body
                    })+
                }
            };
            ($d rules:expr, |$d r:ident, $d G:ident| $d body:expr) => {
                $crate::games::with_game!($d rules, |$d r, $d G, _E| $d body)
            };
        }
        pub(crate) use with_game;
    };
}

registry!(
    $ DryGulch => crate::games::dry_gulch::DryGulch,
    DodgeCity => crate::games::dodge_city::DodgeCity,
    RedDogJunction => crate::games::red_dog_junction::RedDogJunction,
);

/// What `validate` prints per game.
#[derive(Debug, Clone, Serialize)]
pub struct CatalogSummary {
    pub game: String,
    pub name: String,
    pub min_players: u32,
    pub max_players: u32,
    /// Entities by kind (buildings, events, …).
    pub entities: BTreeMap<String, usize>,
    pub variants: usize,
    pub interpretations: usize,
    /// Interpretations the engine branches on (the rest are marked inert).
    pub interpretations_live: usize,
    pub numbers: NumberTally,
}

/// Loads one game's folder with the lowering of the game its name selects.
/// A house-rules overlay (a folder with `overlay.yaml`) is layered onto the
/// bundled catalog it extends.
pub fn load(src: &GameSources) -> Result<AnyRules, Vec<Diagnostic>> {
    if let Some(header) = src.files.get(overlay::HEADER) {
        return load_overlay(src, header);
    }
    load_game(&src.name, src, None).unwrap_or_else(|| {
        Err(vec![Diagnostic::new(
            &src.dir,
            1,
            1,
            format!("unknown game folder `{}`; known games: {}", src.name, KNOWN.join(", ")),
        )])
    })
}

fn load_overlay(src: &GameSources, header: &SourceFile) -> Result<AnyRules, Vec<Diagnostic>> {
    let head: overlay::OverlayHeader = yaml::from_str(&header.path, &header.text).map_err(|d| vec![d])?;
    let extends = &head.overlay.extends;
    let unknown = || {
        let (line, column) = yaml::position(extends);
        vec![
            Diagnostic::new(
                &header.path,
                line,
                column,
                format!("the overlay extends unknown game `{}`; bundled games: {}", extends.value, KNOWN.join(", ")),
            )
            .with_snippet_from(&header.text),
        ]
    };
    let bundled = crate::bundled::rules()?;
    let Some(base) = bundled.iter().find(|g| g.name == extends.value) else {
        return Err(unknown());
    };
    load_game(&base.name, base, Some(src)).unwrap_or_else(|| Err(unknown()))
}

impl AnyRules {
    pub fn id(&self) -> &str {
        with_game!(self, |r, _G, E| E::id(r))
    }
    pub fn summary(&self) -> CatalogSummary {
        with_game!(self, |r, _G, E| {
            let (min_players, max_players) = E::players(r);
            CatalogSummary {
                game: E::id(r).to_string(),
                name: E::name(r).to_string(),
                min_players,
                max_players,
                entities: E::entities(r).into_iter().map(|(k, n)| (k.to_string(), n)).collect(),
                variants: E::variants(r).len(),
                interpretations: E::interpretations(r).len(),
                interpretations_live: E::interpretations(r).iter().filter(|i| i.inert.is_none()).count(),
                numbers: E::numbers(r),
            }
        })
    }
    pub fn interpretations(&self) -> &[Interpretation] {
        with_game!(self, |r, _G, E| E::interpretations(r))
    }
    /// A data change of a reading or variant, in catalog words.
    pub fn describe_change(&self, c: &Change) -> String {
        with_game!(self, |r, _G, E| E::describe_change(r, c))
    }
    pub fn variants(&self) -> &[Variant] {
        with_game!(self, |r, _G, E| E::variants(r))
    }
    /// The rule ids the game's errors name (what a scenario's `error:` may expect).
    pub fn rule_ids(&self) -> BTreeSet<String> {
        with_game!(self, |r, _G, E| E::rule_ids(r))
    }
    /// The rules the game's errors name, each with the places it cites.
    pub fn rules(&self) -> Vec<(String, String)> {
        with_game!(self, |r, _G, E| E::rules(r))
    }
}
