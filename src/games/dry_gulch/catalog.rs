//! Lowering the Dry Gulch catalog: raw files → checked `Rules`, or every
//! diagnostic at once.

use std::collections::BTreeMap;

mod board;
mod buildings;
mod events;
mod resources;

use super::bounds::{check_deck_totals, check_game_numbers};
use super::effects::{Dg, DgHost};
use super::layers::{Layers, citations, layer, parse_overlay};
use super::readings::{self, PARAMS, PROCEDURES, Proc};
use super::rules_data::*;
use super::schema::*;
use crate::catalog::GameSources;
use crate::catalog::common::roles::{self, Need};
use crate::catalog::common::{
    self, Change, Declared, Numbers, Patch, Source, check_documents, check_id, id_table, ones, unique_ids,
};
use crate::catalog::diag::{Diagnostic, Diagnostics};
use crate::catalog::folder::{lookup, with_snippets};
use crate::catalog::layers;
use crate::engine::{Id, TurnPlan};
use crate::lang::declared;
use crate::lang::{Core, Lowering};
use crate::yaml::{Spanned, position};

/// Parses and lowers a Dry Gulch catalog folder.
pub fn load(src: &GameSources) -> Result<Rules, Vec<Diagnostic>> {
    load_layered(src, None)
}

/// Parses and lowers a catalog folder with a house-rules overlay (see
/// `catalog::overlay`) layered onto it.
pub fn load_layered(src: &GameSources, overlay: Option<&GameSources>) -> Result<Rules, Vec<Diagnostic>> {
    layers::load(src, overlay, RawCatalog::parse, parse_overlay, |raw, over, diags| {
        lower(&layer(src, raw, over, diags), diags)
    })
}

crate::catalog_files! {
    /// All files of a catalog, parsed: what `load` lowers, and what the
    /// round-trip properties write back out.
    RawCatalog("Dry Gulch") {
        game: GameFile = "game.yaml",
        resources: ResourcesFile = "resources.yaml",
        buildings: BuildingsFile = "buildings.yaml",
        events: EventsFile = "events.yaml",
        board: BoardFile = "board.yaml",
        variants: common::RawVariantsFile<RawEffect> = "variants.yaml",
        interpretations: common::RawInterpretationsFile<RawEffect> = "interpretations.yaml",
    }
}

/// Parses every file of a folder without lowering (for round trips).
pub fn parse_raw(src: &GameSources) -> Result<RawCatalog, Vec<Diagnostic>> {
    let mut diags = Diagnostics::default();
    RawCatalog::parse(src, &mut diags).ok_or_else(|| with_snippets(diags, [src]))
}

struct Ids {
    resources: BTreeMap<String, Res>,
    buildings: BTreeMap<String, Bld>,
    events: BTreeMap<String, usize>,
}

/// `game.yaml`'s sections: where each one's diagnostics point (its first
/// number; the game id for `game`), its provenance and its number fields.
fn sections(g: &GameFile) -> [Numbers<'_>; 5] {
    let (s, t, c, l) = (&g.setup, &g.turn, &g.components, &g.limits);
    let mut setup = vec![("chips", s.chips.len())];
    setup.extend(ones(SetupSection::FIELDS));
    [
        g.game.numbers(),
        Numbers { what: "setup", at: position(&s.chips_on_residence), of: s, fields: setup },
        Numbers { what: "turn", at: position(&t.events_revealed), of: t, fields: ones(TurnSection::FIELDS) },
        Numbers { what: "components", at: position(&c.resource_cards), of: c, fields: ones(ComponentsSection::FIELDS) },
        Numbers { what: "limits", at: position(&l.turn_cap), of: l, fields: ones(LimitsSection::FIELDS) },
    ]
}

/// Where a section of `game.yaml`'s diagnostics point, in the file (base
/// or overlay) the section came from.
fn section_at<'a>(lay: &Layers<'a>, section: &str) -> (&'a str, (u64, u64)) {
    let at = sections(&lay.game).into_iter().find(|r| r.what == section).map_or((1, 1), |r| r.at);
    (lay.from.at(section), at)
}

/// The steps of lowering, one per file or concern, in the order their
/// diagnostics are reported.
fn lower(lay: &Layers<'_>, diags: &mut Diagnostics) -> Rules {
    let g = &lay.game;
    let (gf, _) = section_at(lay, "game");
    let game = lay.from.lower_game(&g.game, readings::RULES, diags);
    let keys = count_keys(
        lay.resources.iter().map(|e| e.raw.id.value.as_str()),
        lay.events.iter().map(|e| e.raw.id.value.as_str()),
        lay.buildings.iter().map(|e| e.raw.id.value.as_str()),
    );
    let declared = readings::declared(lay.events.len(), keys.len());
    let mut core = Core::new(&g.game, game, readings::RULES, (declared, keys));
    let (languages, tally) = (core.languages.clone(), &mut core.tally);
    let sections = sections(g);
    lay.from.check(&sections, tally, diags);
    check_game_numbers(lay, &|s| section_at(lay, s), diags);
    check_deck_totals(lay, diags);
    let flags = unique_ids(gf, "flag", &g.flags, id_at, diags);
    g.flags.iter().for_each(|f| check_id(gf, f, diags));
    let resources = resources::lower_resources(lay, &languages, tally, diags);
    let (ids_res, labor, blacksmith) = resources::resource_ids(lay, diags);
    let ids = Ids {
        resources: ids_res,
        buildings: id_table(lay.buildings.iter().map(|e| (e.from.path, &e.raw.id)), id_at, diags),
        events: lay.events.ids(),
    };
    let mut buildings = buildings::lower_buildings(lay, &ids, &languages, tally, diags);
    buildings::check_roles(lay, diags);
    let rs = lay.resources.len();
    let cards = (ids.resources.iter().map(|(k, r)| (k.clone(), r.lift())))
        .chain(ids.events.iter().filter_map(|(k, e)| Some((k.clone(), CardKind::new(rs + e).ok()?))))
        .collect();
    let host = DgHost { buildings: &ids.buildings, cards: &cards };
    let mut fx = Lowering::new(host, flags, lay.interpretations.reading_names());
    let (events, reactions) = events::lower_events(lay, (&ids, &mut fx), &languages, tally, diags);
    buildings::lower_copies(&lay.buildings, &mut fx, &ids, &mut buildings, diags);
    let board = board::lower_board(lay, tally, diags);
    let evs: Vec<&RawEvent> = lay.events.iter().map(|e| e.raw).collect();
    lower_readings(lay, (&ids, &mut fx), &evs, &mut core, diags);
    check_documents(citations(lay, &sections), &core.documents, diags);
    let spreading_fire = spreading_fire_card(lay, rs, diags);
    let building_influence = buildings.iter().map(|b| b.influence).collect();
    core.params = common::param_values(PARAMS, section_numbers(g));
    let places = common::param_places(PARAMS, section_numbers(g), |s| lay.from.at(s));
    common::check_defaults_agree(&lay.interpretations, &core.declared, &core.params, &places, diags);
    core.choices = fx.tables.choices;
    Rules {
        core,
        chips: g.setup.chips.iter().map(|(k, v)| (*k, v.value)).collect(),
        flags: g.flags.iter().map(|f| f.value.clone()).collect(),
        resources,
        events,
        buildings,
        plots: board.plots,
        board: board.board,
        bank_plot: board.bank_plot,
        town_hall_plot: board.town_hall_plot,
        labor: labor.unwrap_or(Id::ZERO),
        blacksmith: blacksmith.unwrap_or(Id::ZERO),
        spreading_fire,
        reactions,
        dealt: Default::default(),
        building_influence,
    }
}

/// The declared turn, then the variants and interpretations against what
/// the code declares, into `core` (its turn, readings and the data they
/// compile to; `choose` options into `tables`).
fn lower_readings(
    lay: &Layers<'_>,
    (ids, fx): (&Ids, &mut Fx<'_>),
    evs: &[&RawEvent],
    core: &mut Core<Dg>,
    diags: &mut Diagnostics,
) {
    let (declared, count_keys) = (core.declared, core.count_keys.clone());
    let (tf, tpos) = section_at(lay, "turn");
    let steps = common::lower_turn(tf, &lay.game.turn.phases, tpos, &declared, diags);
    core.turn = TurnPlan::new(&steps, &declared.required_indexes()).unwrap_or_default();
    let lowering = Declared { turn: &steps, count_keys: &count_keys, ..declared };
    let languages = core.languages.clone();
    let tested = fx.tables.readings.clone();
    let mut data = Data { core, fx };
    let mut lower_replace = |patch: Patch<'_, RawEffect>, from: &Source<'_>, d: &mut Diagnostics| {
        data_effect(patch, ids, from, evs, &mut data, d)
    };
    let variants =
        common::lower_variants(lay.variants.base.path, &lay.variants, &languages, &lowering, &mut lower_replace, diags);
    let interpretations = common::lower_interpretations(
        lay.interpretations.base.path,
        &lay.interpretations,
        &tested,
        &variants,
        &lowering,
        &mut lower_replace,
        diags,
    );
    (core.variants, core.interpretations) = (variants, interpretations);
}

/// Where the data of readings and variants compiles to: effects (of
/// `replace:` and `steps:`), conditions (of `replace:`) and declared
/// actions into the core, `choose` options into the tables.
struct Data<'t, 'f> {
    core: &'t mut Core<Dg>,
    fx: &'t mut Fx<'f>,
}

/// The numbers of `game.yaml`'s number sections, as (section, field, value).
pub(super) fn section_numbers(
    g: &GameFile,
) -> impl Iterator<Item = (&'static str, &'static str, &Spanned<u32>)> + Clone {
    let of = |section: &'static str| move |(f, n)| (section, f, n);
    (g.setup.numbers().map(of("setup")))
        .chain(g.turn.numbers().map(of("turn")))
        .chain(g.components.numbers().map(of("components")))
        .chain(g.limits.numbers().map(of("limits")))
}

/// The card in the role `spreading-fire`: exactly one red card must have it.
fn spreading_fire_card(lay: &Layers<'_>, resources: usize, diags: &mut Diagnostics) -> Option<CardKind> {
    let need = Need {
        role: EventRole::SpreadingFire,
        id: "spreading-fire",
        why: "the disaster that spreads under the variant `spreading-fire`",
    };
    let carriers = lay.events.iter().map(|e| (e.from.path, position(&e.raw.id), e.raw.role));
    let i = roles::one_each("role", "event card", carriers, &[need], (lay.events.base.path, (1, 1)), diags)[0]?;
    let e = lay.events.get(i)?;
    if e.raw.triangle != Triangle::Red {
        diags.error(e.from.path, position(&e.raw.id), "the role `spreading-fire` belongs to a red (disaster) card");
        return None;
    }
    CardKind::new(resources + i).ok()
}

/// Compiles the effect of a `replace:` or `steps:` entry (of a variant or an
/// interpretation option, in `from`) into the table of data effects, the
/// condition of a `replace:` entry into the table of data conditions (only a
/// violet card has a condition: the one that lets it be played), or an
/// `actions:` entry into the table of declared actions.
fn data_effect(
    patch: Patch<'_, RawEffect>,
    ids: &Ids,
    from: &Source<'_>,
    events: &[&RawEvent],
    data: &mut Data<'_, '_>,
    diags: &mut Diagnostics,
) -> Option<Change> {
    let (entity, has_target, effect) = match patch {
        Patch::Replace(r, effect) => {
            let e = lookup(&ids.events, "event", &r.event, from.path, diags)?;
            (e, events[e].target.is_some(), effect)
        }
        Patch::Condition(r, c) => {
            let e = lookup(&ids.events, "event", &r.event, from.path, diags)?;
            if events[e].triangle != Triangle::Violet {
                let msg =
                    format!("`replace:` gives `{}` a `condition:`, but only a violet card has one", r.event.value);
                r.refuse(from, diags, msg);
                return None;
            }
            data.core.conditions.push(data.fx.compile(from, false, diags, |cx| cx.cond(c))?);
            return Some(patch.change(e, data.core.conditions.len() - 1));
        }
        // compiled as a data step's: no target, no card of its own
        Patch::Action { .. } => {
            return declared::lower(patch, &mut data.core.actions, (&ACTING[..], PROCEDURES), data.fx, from, diags);
        }
        // an added step has no target: `damage` and `target-owner` are errors
        Patch::Step { raw, .. } => (0, false, &raw.effect[..]),
    };
    data.core.replacements.push(data.fx.compile(from, has_target, diags, |cx| cx.effects(effect)));
    Some(patch.change(entity, data.core.replacements.len() - 1))
}

/// The procedures where the turn waits for the active player: where a
/// declared action may be taken.
const ACTING: [usize; 4] = [Proc::Events as usize, Proc::Draw as usize, Proc::Build as usize, Proc::Discard as usize];

/// How the catalog's effects and conditions are compiled: against the
/// catalog's buildings and cards, with one `choose` table.
type Fx<'a> = Lowering<Dg, DgHost<'a>>;
