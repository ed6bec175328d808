//! Lowering the Dry Gulch catalog: raw files → checked `Rules`, or every
//! diagnostic at once.

use std::collections::BTreeMap;

mod board;
mod buildings;
mod events;
mod resources;

use super::bounds::{check_deck_totals, check_game_numbers};
use super::effects::{Dg, DgHost};
use super::layers::{Layers, citations, layer, lower_documents, parse_all, parse_overlay};
use super::readings::{self, P};
use super::rules_data::*;
use super::schema::*;
use crate::catalog::GameSources;
use crate::catalog::common::{
    self, Change, Declared, NumberTally, Patch, RawCitation, Source, check_documents, check_id, check_names,
    check_provenance, check_unique,
};
use crate::catalog::diag::{Diagnostic, Diagnostics};
use crate::catalog::folder::{Folder, lookup, with_snippets};
use crate::engine::{Id, TurnPlan};
use crate::lang::{Compiler, Names, Registry, Report, Tables};
use crate::yaml::{self, Spanned, position};

/// The most seats a catalog may declare. The box seats six; 64 leaves room
/// for a user's catalog while bounding what validation loops over per
/// player count (a billion would exhaust memory, one diagnostic each).
pub const MAX_SEATS: u32 = 64;

/// The files of a Dry Gulch catalog folder.
pub const FILES: &[&str] = &[
    "game.yaml",
    "resources.yaml",
    "buildings.yaml",
    "events.yaml",
    "board.yaml",
    "variants.yaml",
    "interpretations.yaml",
];

/// Parses and lowers a Dry Gulch catalog folder.
pub fn load(src: &GameSources) -> Result<Rules, Vec<Diagnostic>> {
    load_layered(src, None)
}

/// Parses and lowers a catalog folder with a house-rules overlay (see
/// `catalog::overlay`) layered onto it.
pub fn load_layered(src: &GameSources, overlay: Option<&GameSources>) -> Result<Rules, Vec<Diagnostic>> {
    let mut diags = Diagnostics::default();
    let raw = parse_all(src, &mut diags);
    let over = overlay.map(|o| parse_overlay(o, &mut diags));
    let (Some(raw), false) = (raw, over.as_ref().is_some_and(Option::is_none)) else {
        return Err(finish(src, overlay, diags));
    };
    let over = over.flatten();
    let base = |name: &str| {
        let f = &src.files[name];
        Source { path: &f.path, text: &f.text }
    };
    let layers = layer(&raw, &base, overlay.zip(over.as_ref()), &mut diags);
    let rules = lower(&layers, &mut diags);
    if diags.is_empty() { Ok(rules) } else { Err(finish(src, overlay, diags)) }
}

/// All files of a catalog, parsed: what `load` lowers, and what the
/// round-trip properties write back out.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct RawCatalog {
    pub game: GameFile,
    pub resources: ResourcesFile,
    pub buildings: BuildingsFile,
    pub events: EventsFile,
    pub board: BoardFile,
    pub variants: common::RawVariantsFile<RawEffect>,
    pub interpretations: common::RawInterpretationsFile<RawEffect>,
}

impl RawCatalog {
    /// The catalog written back as one YAML text per file.
    pub fn to_files(&self) -> Vec<(&'static str, String)> {
        vec![
            ("game.yaml", yaml::to_string(&self.game)),
            ("resources.yaml", yaml::to_string(&self.resources)),
            ("buildings.yaml", yaml::to_string(&self.buildings)),
            ("events.yaml", yaml::to_string(&self.events)),
            ("board.yaml", yaml::to_string(&self.board)),
            ("variants.yaml", yaml::to_string(&self.variants)),
            ("interpretations.yaml", yaml::to_string(&self.interpretations)),
        ]
    }
}

/// Parses every file of a folder without lowering (for round trips).
pub fn parse_raw(src: &GameSources) -> Result<RawCatalog, Vec<Diagnostic>> {
    let mut diags = Diagnostics::default();
    parse_all(src, &mut diags).ok_or_else(|| finish(src, None, diags))
}

fn finish(src: &GameSources, overlay: Option<&GameSources>, diags: Diagnostics) -> Vec<Diagnostic> {
    with_snippets(diags, std::iter::once(src).chain(overlay))
}

/// The base folder as its lowering reads it.
pub(super) fn folder(src: &GameSources) -> Folder<'_> {
    Folder { src, game: "Dry Gulch", files: FILES }
}

struct Ids {
    resources: BTreeMap<String, Res>,
    buildings: BTreeMap<String, Bld>,
    events: BTreeMap<String, usize>,
    flags: BTreeMap<String, Flag>,
    /// Interpretation ids with their option ids, in catalog order.
    interpretations: Vec<(String, Vec<String>)>,
}

/// Where a section of `game.yaml`'s diagnostics point: its first number
/// (in the file, base or overlay, the section came from); the game id for
/// `game`.
fn section_at<'a>(lay: &Layers<'a>, section: &str) -> (&'a str, (u64, u64)) {
    let g = &lay.game;
    let f = lay.game_from[section].path;
    let pos = match section {
        "setup" => position(&g.setup.chips_on_residence),
        "turn" => position(&g.turn.events_revealed),
        "components" => position(&g.components.resource_cards),
        "limits" => position(&g.limits.turn_cap),
        _ => position(&g.game.id),
    };
    (f, pos)
}

/// The steps of lowering, one per file or concern, in the order their
/// diagnostics are reported.
fn lower(lay: &Layers<'_>, diags: &mut Diagnostics) -> Rules {
    let mut tally = NumberTally::default();
    let g = &lay.game;
    let (gf, _) = section_at(lay, "game");
    check_id(gf, &g.game.id, diags);
    let (documents, languages) = lower_documents(lay, diags);
    check_names(gf, &g.game.names, &languages, diags);
    check_sections(lay, &mut tally, diags);
    check_game_numbers(lay, &|s| section_at(lay, s), diags);
    check_deck_totals(lay, diags);
    let flags = lower_flags(gf, &g.flags, diags);
    let resources = resources::lower_resources(lay, &languages, &mut tally, diags);
    let (ids_res, labor, blacksmith) = resources::resource_ids(lay, diags);
    let ids = Ids {
        resources: ids_res,
        buildings: buildings::building_ids(lay, diags),
        events: lay.events.iter().enumerate().map(|(i, e)| (e.raw.id.value.clone(), i)).collect(),
        flags,
        interpretations: lay
            .interpretations
            .iter()
            .map(|e| (e.raw.id.value.clone(), e.raw.options.iter().map(|o| o.id.value.clone()).collect()))
            .collect(),
    };
    let mut buildings = buildings::lower_buildings(lay, &ids, &languages, &mut tally, diags);
    buildings::check_roles(lay, diags);
    let rs = lay.resources.len();
    let cards = (ids.resources.iter().map(|(k, r)| (k.clone(), r.lift())))
        .chain(ids.events.iter().filter_map(|(k, e)| Some((k.clone(), CardKind::new(rs + e).ok()?))))
        .collect();
    let lang = LangCx { registry: Registry::default(), ids: &ids, cards };
    let mut tables = Tables::<Dg>::default();
    let (events, reactions) = events::lower_events(lay, &lang, &languages, &mut tables, &mut tally, diags);
    buildings::lower_copies(&lay.buildings, &lang, &ids, &mut tables, &mut buildings, diags);
    let board = board::lower_board(lay, &mut tally, diags);
    let evs: Vec<&RawEvent> = lay.events.iter().map(|e| e.raw).collect();
    let readings = lower_readings(lay, &lang, &evs, &languages, &mut tables, diags);
    check_documents(citations(lay), &documents, diags);
    let spreading_fire = spreading_fire_card(&evs, rs, lay.base.events, diags);

    Rules {
        id: g.game.id.value.clone(),
        name: g.game.names.display(&languages, &g.game.id.value).to_string(),
        min_players: g.game.min_players.value,
        max_players: g.game.max_players.value,
        setup: setup(g),
        turn: readings.turn,
        components: components(g),
        limits: Limits { turn_cap: g.limits.turn_cap.value, fixed_win_threshold: g.limits.fixed_win_threshold.value },
        flags: g.flags.iter().map(|f| f.value.clone()).collect(),
        resources,
        events,
        buildings,
        plots: board.plots,
        board: board.board,
        bank_plot: board.bank_plot,
        town_hall_plot: board.town_hall_plot,
        variants: readings.variants,
        interpretations: readings.interpretations,
        tally,
        documents,
        languages,
        labor: labor.unwrap_or(Id::ZERO),
        blacksmith: blacksmith.unwrap_or(Id::ZERO),
        spreading_fire,
        params: base_params(g),
        replacements: readings.replacements,
        choices: tables.choices,
        declared: readings.declared,
        reactions,
        sources: super::rules_data::rule_sources(),
        dealt: Default::default(),
    }
}

/// The provenance of `game.yaml`'s sections: each number cited or assumed.
fn check_sections(lay: &Layers<'_>, tally: &mut NumberTally, diags: &mut Diagnostics) {
    let g = &lay.game;
    let mut section =
        |what: &str, source: &[RawCitation], assumed: &BTreeMap<String, String>, fields: &[(&str, usize)]| {
            let (f, pos) = section_at(lay, what);
            tally.add(check_provenance(f, what, pos, source, assumed, fields, diags));
        };
    section("game", &g.game.source, &g.game.assumed, &[("min_players", 1), ("max_players", 1)]);
    let setup = [
        ("chips", g.setup.chips.len()),
        ("chips_on_residence", 1),
        ("deal_resources", 1),
        ("deal_permits", 1),
        ("draft_permits", 1),
    ];
    section("setup", &g.setup.source, &g.setup.assumed, &setup);
    let turn = [
        ("events_revealed", 1),
        ("events_discarded", 1),
        ("rounds_without_events", 1),
        ("draw_resources", 1),
        ("permits_from_deck", 1),
        ("bank_resources", 1),
        ("bank_permits", 1),
        ("hand_limit", 1),
        ("influence_card_reward", 1),
        ("town_hall_reopen_cards", 1),
        ("general_store_cards", 1),
    ];
    section("turn", &g.turn.source, &g.turn.assumed, &turn);
    let components = [
        ("resource_cards", 1),
        ("event_cards", 1),
        ("permits", 1),
        ("chips", 1),
        ("colours", 1),
        ("damage_markers", 1),
    ];
    section("components", &g.components.source, &g.components.assumed, &components);
    let limits = [("turn_cap", 1), ("fixed_win_threshold", 1)];
    section("limits", &g.limits.source, &g.limits.assumed, &limits);
}

/// The flags a catalog declares, by id.
fn lower_flags(gf: &str, flags: &[Spanned<String>], diags: &mut Diagnostics) -> BTreeMap<String, Flag> {
    let mut out = BTreeMap::new();
    check_unique(gf, "flag", flags.iter(), diags);
    for (i, f) in flags.iter().enumerate() {
        check_id(gf, f, diags);
        out.extend(id_at::<kind::Flag>(i, gf, position(f), diags).map(|id| (f.value.clone(), id)));
    }
    out
}

fn setup(g: &GameFile) -> Setup {
    Setup {
        chips: g.setup.chips.iter().map(|(k, v)| (*k, v.value)).collect(),
        chips_on_residence: g.setup.chips_on_residence.value,
        deal_resources: g.setup.deal_resources.value,
        deal_permits: g.setup.deal_permits.value,
        draft_permits: g.setup.draft_permits.value,
    }
}

fn components(g: &GameFile) -> Components {
    Components {
        resource_cards: g.components.resource_cards.value,
        event_cards: g.components.event_cards.value,
        permits: g.components.permits.value,
        chips: g.components.chips.value,
        colours: g.components.colours.value,
        damage_markers: g.components.damage_markers.value,
    }
}

/// What the variants and interpretations lower to, with the turn they change.
struct Readings {
    turn: TurnPlan,
    declared: Declared<'static>,
    variants: Vec<common::Variant>,
    interpretations: Vec<common::Interpretation>,
    /// The data effects their `replace:` and `steps:` compile to.
    replacements: Vec<Vec<Effect>>,
}

/// The declared turn, then the variants and interpretations against what
/// the code declares.
fn lower_readings(
    lay: &Layers<'_>,
    lang: &LangCx<'_>,
    evs: &[&RawEvent],
    languages: &[String],
    tables: &mut Tables<Dg>,
    diags: &mut Diagnostics,
) -> Readings {
    let declared = readings::declared(evs.len());
    let (tf, tpos) = section_at(lay, "turn");
    let steps = common::lower_turn(tf, &lay.game.turn.phases, tpos, &declared, diags);
    let turn = TurnPlan::new(&steps, &declared.required_indexes()).unwrap_or_default();
    let lowering = Declared { turn: &steps, ..declared };
    let mut replacements: Vec<Vec<Effect>> = Vec::new();
    let tested = tables.readings.clone();
    let mut lower_replace = |patch: Patch<'_, RawEffect>, from: &Source<'_>, d: &mut Diagnostics| {
        data_effect(patch, lang, from, evs, (&mut replacements, &mut *tables), d)
    };
    let variants =
        common::lower_variants(lay.base.variants, &lay.variants, languages, &lowering, &mut lower_replace, diags);
    let interpretations = common::lower_interpretations(
        lay.base.interpretations,
        &lay.interpretations,
        &tested,
        &variants,
        &lowering,
        &mut lower_replace,
        diags,
    );
    Readings { turn, declared, variants, interpretations, replacements }
}

/// The catalog's values of the parameters a reading may set, in
/// `readings::PARAMS` order.
fn base_params(g: &GameFile) -> Vec<u32> {
    P::ALL
        .iter()
        .map(|k| match k {
            P::DealResources => g.setup.deal_resources.value,
            P::DealPermits => g.setup.deal_permits.value,
            P::DraftPermitCount => g.setup.draft_permits.value,
            P::ChipsOnResidence => g.setup.chips_on_residence.value,
            P::EventsRevealed => g.turn.events_revealed.value,
            P::EventsDiscarded => g.turn.events_discarded.value,
            P::RoundsWithoutEvents => g.turn.rounds_without_events.value,
            P::DrawResources => g.turn.draw_resources.value,
            P::PermitsFromDeck => g.turn.permits_from_deck.value,
            P::BankResources => g.turn.bank_resources.value,
            P::BankPermits => g.turn.bank_permits.value,
            P::HandLimit => g.turn.hand_limit.value,
            P::InfluenceCardReward => g.turn.influence_card_reward.value,
            P::TownHallReopenCards => g.turn.town_hall_reopen_cards.value,
            P::GeneralStoreCards => g.turn.general_store_cards.value,
            P::DamageMarkers => g.components.damage_markers.value,
            P::TurnCap => g.limits.turn_cap.value,
            P::FixedWinThreshold => g.limits.fixed_win_threshold.value,
        })
        .collect()
}

/// The card in the role `spreading-fire`: exactly one red card must have it.
fn spreading_fire_card(es: &[&RawEvent], resources: usize, file: &str, diags: &mut Diagnostics) -> Option<CardKind> {
    let with: Vec<usize> = (0..es.len()).filter(|&i| es[i].role == Some(EventRole::SpreadingFire)).collect();
    match with.as_slice() {
        [i] if es[*i].triangle == Triangle::Red => CardKind::new(resources + i).ok(),
        [i] => {
            diags.error(file, position(&es[*i].id), "the role `spreading-fire` belongs to a red (disaster) card");
            None
        }
        [] => {
            diags.error(
                file,
                (1, 1),
                "no event card has the role `spreading-fire` (the disaster that spreads under the variant \
                 `spreading-fire`); add `role: spreading-fire` to one",
            );
            None
        }
        [_, second, ..] => {
            diags.error(file, position(&es[*second].id), "a second event card in the role `spreading-fire`");
            None
        }
    }
}

/// Compiles the effect of a `replace:` or `steps:` entry (of a variant or an
/// interpretation option, in `from`) into the table of data effects.
fn data_effect(
    patch: Patch<'_, RawEffect>,
    lang: &LangCx<'_>,
    from: &Source<'_>,
    events: &[&RawEvent],
    (out, tables): (&mut Vec<Vec<Effect>>, &mut Tables<Dg>),
    diags: &mut Diagnostics,
) -> Option<Change> {
    let (entity, has_target, effect) = match patch {
        Patch::Replace(r) => {
            let e = lookup(&lang.ids.events, "event", &r.event, from.path, diags)?;
            (Some(e), events[e].target.is_some(), &r.effect)
        }
        // an added step has no target: `damage` and `target-owner` are errors
        Patch::Step { raw, .. } => (None, false, &raw.effect),
    };
    let effect = lang.compile(from, has_target, tables, diags, |cx| cx.effects(effect));
    out.push(effect);
    let with = (out.len() - 1) as u32;
    Some(match (patch, entity) {
        (Patch::Step { at, after, .. }, _) => Change::Step { at: at as u32, after, with },
        (_, e) => Change::Replace { entity: e.unwrap_or(0) as u32, with },
    })
}

/// What compiling an entry's effects and conditions needs: the shared
/// registry and the catalog's ids.
struct LangCx<'a> {
    registry: Registry<Dg>,
    ids: &'a Ids,
    /// Card ids (resources, then events) with their kinds.
    cards: BTreeMap<String, CardKind>,
}

impl LangCx<'_> {
    fn compile<T>(
        &self,
        from: &Source<'_>,
        has_target: bool,
        tables: &mut Tables<Dg>,
        diags: &mut Diagnostics,
        f: impl FnOnce(&mut Compiler<'_, Dg>) -> T,
    ) -> T {
        let host = DgHost { buildings: &self.ids.buildings, cards: &self.cards, has_target };
        let names = Names { flags: &self.ids.flags, interpretations: &self.ids.interpretations };
        let report = Report { file: from.path, text: from.text, diags };
        f(&mut Compiler::new(report, &self.registry, &host, &names, tables, has_target))
    }
}
