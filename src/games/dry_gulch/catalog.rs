//! Lowering the Dry Gulch catalog: raw files → checked `Rules`, or every
//! diagnostic at once.

use std::collections::BTreeMap;

mod buildings;

use super::bounds::{MAX_COPIES, check_bound, check_deck_totals, check_game_numbers, check_residence_plots};
use super::effects::{DAMAGE, Dg, DgHost};
use super::layers::{Layers, citations, layer, lower_documents, parse_all, parse_overlay};
use super::readings::{self, P};
use super::rules_data::*;
use super::schema::*;
use crate::catalog::GameSources;
use crate::catalog::MAX_NUMBER;
use crate::catalog::common::{
    self, Change, Citation, Declared, NumberTally, Patch, RawCitation, Source, check_documents, check_id, check_names,
    check_provenance, check_unique,
};
use crate::catalog::diag::{Diagnostic, Diagnostics};
use crate::catalog::folder::{Folder, lookup, with_snippets};
use crate::engine::{Blocks, Id, TurnPlan};
use crate::lang::{Compiler, Names, Registry, Report, Tables};
use crate::yaml::{self, position};

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

fn lower(lay: &Layers<'_>, diags: &mut Diagnostics) -> Rules {
    let mut tally = NumberTally::default();
    let g = &lay.game;
    // where a section's diagnostics point: its first number (in the file,
    // base or overlay, the section came from); the game id for `game`
    let at = |section: &str| {
        let f = lay.game_from[section].path;
        let pos = match section {
            "setup" => position(&g.setup.chips_on_residence),
            "turn" => position(&g.turn.events_revealed),
            "components" => position(&g.components.resource_cards),
            "limits" => position(&g.limits.turn_cap),
            _ => position(&g.game.id),
        };
        (f, pos)
    };
    let (gf, _) = at("game");
    check_id(gf, &g.game.id, diags);
    let (documents, languages) = lower_documents(lay, diags);
    check_names(gf, &g.game.names, &languages, diags);
    let section = |what: &str,
                   source: &[RawCitation],
                   assumed: &BTreeMap<String, String>,
                   fields: &[(&str, usize)],
                   diags: &mut Diagnostics| {
        let (f, pos) = at(what);
        check_provenance(f, what, pos, source, assumed, fields, diags)
    };
    tally.add(section("game", &g.game.source, &g.game.assumed, &[("min_players", 1), ("max_players", 1)], diags));
    tally.add(section(
        "setup",
        &g.setup.source,
        &g.setup.assumed,
        &[
            ("chips", g.setup.chips.len()),
            ("chips_on_residence", 1),
            ("deal_resources", 1),
            ("deal_permits", 1),
            ("draft_permits", 1),
        ],
        diags,
    ));
    tally.add(section(
        "turn",
        &g.turn.source,
        &g.turn.assumed,
        &[
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
        ],
        diags,
    ));
    tally.add(section(
        "components",
        &g.components.source,
        &g.components.assumed,
        &[
            ("resource_cards", 1),
            ("event_cards", 1),
            ("permits", 1),
            ("chips", 1),
            ("colours", 1),
            ("damage_markers", 1),
        ],
        diags,
    ));
    tally.add(section(
        "limits",
        &g.limits.source,
        &g.limits.assumed,
        &[("turn_cap", 1), ("fixed_win_threshold", 1)],
        diags,
    ));

    check_game_numbers(lay, &at, diags);
    check_deck_totals(lay, diags);
    let (min_players, max_players) = (g.game.min_players.value, g.game.max_players.value);
    let mut flags = BTreeMap::new();
    check_unique(gf, "flag", g.flags.iter(), diags);
    for (i, f) in g.flags.iter().enumerate() {
        check_id(gf, f, diags);
        flags.extend(id_at::<kind::Flag>(i, gf, position(f), diags).map(|id| (f.value.clone(), id)));
    }

    // resources
    let rs = &lay.resources;
    let mut resources = Vec::new();
    for e in rs {
        let (r, f) = (e.raw, e.from.path);
        check_id(f, &r.id, diags);
        check_names(f, &r.names, &languages, diags);
        let n_subst = usize::from(r.substitution.en.is_some()) + usize::from(r.substitution.de.is_some());
        tally.add(check_provenance(
            f,
            &format!("resource `{}`", r.id.value),
            position(&r.id),
            &r.source,
            &r.assumed,
            &[("copies", 1), ("substitution", n_subst)],
            diags,
        ));
        check_bound(
            f,
            position(&r.copies),
            &format!("resource `{}`: copies", r.id.value),
            r.copies.value,
            MAX_COPIES,
            diags,
        );
        for n in [r.substitution.en, r.substitution.de].into_iter().flatten() {
            let what = format!("resource `{}`: substitution", r.id.value);
            check_bound(f, position(&r.id), &what, n, MAX_COPIES, diags);
        }
        if r.substitution.en.is_none() && r.substitution.de.is_none() {
            diags.error(
                f,
                position(&r.id),
                format!("resource `{}` has no substitution value in either table", r.id.value),
            );
        }
        resources.push(Resource {
            id: r.id.value.clone(),
            name: r.names.display(&languages, &r.id.value).to_string(),
            kind: r.kind,
            copies: r.copies.value,
            subst_en: r.substitution.en,
            subst_de: r.substitution.de,
        });
    }
    let mut ids_res: BTreeMap<String, Res> = BTreeMap::new();
    let mut roles: BTreeMap<ResourceRole, Res> = BTreeMap::new();
    for (i, e) in rs.iter().enumerate() {
        id_at::<kind::Card>(i, e.from.path, position(&e.raw.id), diags); // the first card kinds
        let Some(id) = id_at(i, e.from.path, position(&e.raw.id), diags) else { continue };
        ids_res.insert(e.raw.id.value.clone(), id);
        if let Some(role) = e.raw.role
            && roles.insert(role, id).is_some()
        {
            diags.error(
                e.from.path,
                position(&e.raw.id),
                format!("a second resource in the role `{}`; a role names one resource", role.id()),
            );
        }
    }
    for role in ResourceRole::ALL {
        if !roles.contains_key(role) {
            let why = match role {
                ResourceRole::Labor => "the labor-card-value and labor-substitution readings are about it",
                ResourceRole::Blacksmith => "the Blacksmith building waives it",
            };
            diags.error(
                lay.base.resources,
                (1, 1),
                format!("no resource has the role `{}` ({why}); add `role: {}` to one", role.id(), role.id()),
            );
        }
    }
    let labor = roles.get(&ResourceRole::Labor).copied();
    let blacksmith_res = roles.get(&ResourceRole::Blacksmith).copied();

    // buildings
    let bs = &lay.buildings;
    let ids_bld: BTreeMap<String, Bld> = (bs.iter().enumerate())
        .filter_map(|(i, e)| Some((e.raw.id.value.clone(), id_at(i, e.from.path, position(&e.raw.id), diags)?)))
        .collect();
    let ids = Ids {
        resources: ids_res,
        buildings: ids_bld,
        events: lay.events.iter().enumerate().map(|(i, e)| (e.raw.id.value.clone(), i)).collect(),
        flags,
        interpretations: lay
            .interpretations
            .iter()
            .map(|e| (e.raw.id.value.clone(), e.raw.options.iter().map(|o| o.id.value.clone()).collect()))
            .collect(),
    };
    let mut buildings = Vec::new();
    for e in bs {
        let (b, f) = (e.raw, e.from.path);
        check_id(f, &b.id, diags);
        check_names(f, &b.names, &languages, diags);
        tally.add(check_provenance(
            f,
            &format!("building `{}`", b.id.value),
            position(&b.id),
            &b.source,
            &b.assumed,
            &[("cost", b.cost.len()), ("influence", 1), ("permits", 1)],
            diags,
        ));
        check_bound(
            f,
            position(&b.permits),
            &format!("building `{}`: permits", b.id.value),
            b.permits.value,
            MAX_COPIES,
            diags,
        );
        check_bound(
            f,
            position(&b.id),
            &format!("building `{}`: influence", b.id.value),
            b.influence,
            MAX_NUMBER,
            diags,
        );
        if b.cost.len() > MAX_COPIES as usize {
            let at = position(&b.cost[MAX_COPIES as usize]);
            diags.error(
                f,
                at,
                format!(
                    "building `{}` costs more than {MAX_COPIES} cards (a payment counts them in a byte)",
                    b.id.value
                ),
            );
        }
        let mut cost: BTreeMap<Res, u32> = BTreeMap::new();
        for c in &b.cost {
            if let Some(r) = lookup(&ids.resources, "resource", c, f, diags) {
                *cost.entry(r).or_default() += 1;
            }
        }
        let special = matches!(b.ability, Some(Ability::Residence | Ability::TownHall));
        if special && (b.permits.value != 0 || !b.cost.is_empty()) {
            diags.error(
                f,
                position(&b.id),
                format!("building `{}` is placed at set-up, so it has no cost and no permits", b.id.value),
            );
        }
        if !special && b.cost.is_empty() {
            diags.error(f, position(&b.id), format!("building `{}` has no cost", b.id.value));
        }
        buildings.push(Building {
            id: b.id.value.clone(),
            name: b.names.display(&languages, &b.id.value).to_string(),
            cost: cost.into_iter().collect(),
            influence: b.influence,
            corner: b.corner,
            permits: b.permits.value,
            ability: b.ability,
            repeat: None,
            same_as: None,
        });
    }
    buildings::check_roles(lay, diags);

    // events
    let es = &lay.events;
    let cards = (ids.resources.iter().map(|(k, r)| (k.clone(), r.lift())))
        .chain(ids.events.iter().filter_map(|(k, e)| Some((k.clone(), CardKind::new(rs.len() + e).ok()?))))
        .collect();
    let lang = LangCx { registry: Registry::default(), ids: &ids, cards };
    let mut tables = Tables::<Dg>::default();
    let mut events = Vec::new();
    let mut reactions = BTreeMap::new();
    for (i, entry) in es.iter().enumerate() {
        let (e, f) = (entry.raw, entry.from.path);
        let card = id_at::<kind::Card>(rs.len() + i, f, position(&e.id), diags);
        check_names(f, &e.names, &languages, diags);
        check_id(f, &e.id, diags);
        if ids.resources.contains_key(&e.id.value) {
            diags.error(
                f,
                position(&e.id),
                format!("event id `{}` is also a resource id; card ids must be unique", e.id.value),
            );
        }
        let effect_numbers = lang.registry.count_numbers(&e.effect);
        tally.add(check_provenance(
            f,
            &format!("event `{}`", e.id.value),
            position(&e.id),
            &e.source,
            &e.assumed,
            &[("copies", 1), ("influence", usize::from(e.influence > 0)), ("effect", effect_numbers)],
            diags,
        ));
        if e.source.is_empty() {
            diags.error(f, position(&e.id), format!("event `{}` cites no source for its text", e.id.value));
        }
        check_bound(
            f,
            position(&e.copies),
            &format!("event `{}`: copies", e.id.value),
            e.copies.value,
            MAX_COPIES,
            diags,
        );
        check_bound(f, position(&e.id), &format!("event `{}`: influence", e.id.value), e.influence, MAX_NUMBER, diags);
        let target = e.target.as_ref().and_then(|t| match t {
            RawTarget::AnyBuilding => Some(Target::AnyBuilding),
            RawTarget::Building(b) => lookup(&ids.buildings, "building", b, f, diags).map(Target::Building),
        });
        let from = Source { path: f, text: entry.from.text };
        let (condition, effect) = lang.compile(&from, e.target.is_some(), &mut tables, diags, |cx| {
            (e.condition.as_ref().and_then(|c| cx.cond(c)), cx.effects(&e.effect))
        });
        let rewards: Vec<Bld> =
            e.rewards.iter().filter_map(|b| lookup(&ids.buildings, "building", b, f, diags)).collect();
        match e.triangle {
            Triangle::Violet => {
                if e.influence == 0 {
                    diags.error(f, position(&e.id), format!("violet event `{}` counts no influence", e.id.value));
                }
            }
            Triangle::Yellow => {
                if e.reaction.is_none() {
                    diags.error(f, position(&e.id), format!("yellow event `{}` names no reaction", e.id.value));
                }
            }
            Triangle::Red => {
                if e.target.is_none() || !e.effect.iter().any(|n| n.operation().is_some_and(|(w, _)| w.text == DAMAGE))
                {
                    diags.error(
                        f,
                        position(&e.id),
                        format!("red event `{}` must have a target and a `damage` effect", e.id.value),
                    );
                }
            }
            Triangle::None => {}
        }
        if e.triangle != Triangle::Violet && (e.influence > 0 || !e.rewards.is_empty() || e.only_to_win) {
            diags.error(
                f,
                position(&e.id),
                format!("event `{}`: influence, rewards and only_to_win belong to violet cards", e.id.value),
            );
        }
        if e.triangle != Triangle::Yellow && e.reaction.is_some() {
            diags.error(f, position(&e.id), format!("event `{}`: a reaction belongs to a yellow card", e.id.value));
        }
        if let Some(r) = e.reaction {
            let key = match r {
                Reaction::AceUpYourSleeve => ReactionKey::Ace,
                Reaction::Iou => ReactionKey::Iou,
                Reaction::FireInsurance => ReactionKey::Insurance,
                Reaction::HandymanBrother => ReactionKey::Handyman,
            };
            if card.is_some_and(|c| reactions.insert(key, c).is_some()) {
                let name = match r {
                    Reaction::AceUpYourSleeve => "ace-up-your-sleeve",
                    Reaction::Iou => "iou",
                    Reaction::FireInsurance => "fire-insurance",
                    Reaction::HandymanBrother => "handyman-brother",
                };
                diags.error(f, position(&e.id), format!("a second event with the reaction `{name}`"));
            }
        }
        events.push(Event {
            id: e.id.value.clone(),
            name: e.names.display(&languages, &e.id.value).to_string(),
            triangle: e.triangle,
            copies: e.copies.value,
            target,
            condition,
            effect,
            influence: e.influence,
            rewards,
            reaction: e.reaction,
            only_to_win: e.only_to_win,
            source: e.source.iter().map(Citation::lower).collect(),
        });
    }

    buildings::lower_copies(bs, &lang, &ids, &mut tables, &mut buildings, diags);

    // board
    let bd = &lay.board.raw.board;
    let bf = lay.board.from.path;
    let board_at = bd.blocks.first().map_or(position(&bd.town_hall_plot), |b| position(&b.id));
    tally.add(check_provenance(
        bf,
        "board",
        board_at,
        &bd.source,
        &bd.assumed,
        &[("blocks", bd.blocks.iter().map(|b| b.plots.len()).sum()), ("bank_plot", 1)],
        diags,
    ));
    let mut plots = Vec::new();
    let mut streets: Vec<Vec<Plot>> = Vec::new();
    let all_plot_ids =
        bd.blocks.iter().flat_map(|b| b.plots.iter().map(|p| &p.id)).chain(std::iter::once(&bd.bank_plot.id));
    check_unique(bf, "plot", all_plot_ids, diags);
    check_unique(bf, "block", bd.blocks.iter().map(|b| &b.id), diags);
    for block in &bd.blocks {
        check_id(bf, &block.id, diags);
        let mut street = Vec::new();
        for pl in &block.plots {
            check_id(bf, &pl.id, diags);
            check_bound(bf, position(&pl.id), &format!("plot `{}`: reward", pl.id.value), pl.reward, MAX_NUMBER, diags);
            street.extend(id_at::<kind::Plot>(plots.len(), bf, position(&pl.id), diags));
            plots.push(PlotInfo {
                id: pl.id.value.clone(),
                block: block.id.value.clone(),
                kind: pl.kind,
                reward: pl.reward,
                edge: pl.edge,
                bank: false,
            });
        }
        streets.push(street);
    }
    let bank_plot = id_at(plots.len(), bf, position(&bd.bank_plot.id), diags).unwrap_or(Id::ZERO);
    plots.push(PlotInfo {
        id: bd.bank_plot.id.value.clone(),
        block: "bank".to_string(),
        kind: bd.bank_plot.kind,
        reward: bd.bank_plot.reward,
        edge: bd.bank_plot.edge,
        bank: true,
    });
    // more plots than an id holds was reported at the first plot without one
    let board = Blocks::new(plots.len(), streets).unwrap_or_default();
    let town_hall_plot = match plots.iter().position(|pl| pl.id == bd.town_hall_plot.value) {
        Some(i) if i != bank_plot.index() => Plot::new(i).unwrap_or(Id::ZERO),
        Some(_) => {
            diags.error(bf, position(&bd.town_hall_plot), "the Town Hall cannot stand on the bank plot");
            Id::ZERO
        }
        None => {
            diags.error(bf, position(&bd.town_hall_plot), format!("unknown plot `{}`", bd.town_hall_plot.value));
            Id::ZERO
        }
    };
    check_residence_plots(bf, bd, &plots, town_hall_plot, g.game.max_players.value, board_at, diags);

    // variants and interpretations
    let declared = readings::declared(events.len());
    let (tf, tpos) = at("turn");
    let steps = common::lower_turn(tf, &g.turn.phases, tpos, &declared, diags);
    let turn = TurnPlan::new(&steps, &declared.required_indexes()).unwrap_or_default();
    let lowering = Declared { turn: &steps, ..declared };
    let mut replacements: Vec<Vec<Effect>> = Vec::new();
    let evs: Vec<&RawEvent> = es.iter().map(|e| e.raw).collect();
    let tested = tables.readings.clone();
    let mut lower_replace = |patch: Patch<'_, RawEffect>, from: &Source<'_>, d: &mut Diagnostics| {
        data_effect(patch, &lang, from, &evs, (&mut replacements, &mut tables), d)
    };
    let variants =
        common::lower_variants(lay.base.variants, &lay.variants, &languages, &lowering, &mut lower_replace, diags);
    let interpretations = common::lower_interpretations(
        lay.base.interpretations,
        &lay.interpretations,
        &tested,
        &variants,
        &lowering,
        &mut lower_replace,
        diags,
    );
    check_documents(citations(lay), &documents, diags);
    let spreading_fire = spreading_fire_card(&evs, rs.len(), lay.base.events, diags);

    Rules {
        id: g.game.id.value.clone(),
        name: g.game.names.display(&languages, &g.game.id.value).to_string(),
        min_players,
        max_players,
        setup: Setup {
            chips: g.setup.chips.iter().map(|(k, v)| (*k, v.value)).collect(),
            chips_on_residence: g.setup.chips_on_residence.value,
            deal_resources: g.setup.deal_resources.value,
            deal_permits: g.setup.deal_permits.value,
            draft_permits: g.setup.draft_permits.value,
        },
        turn,
        components: Components {
            resource_cards: g.components.resource_cards.value,
            event_cards: g.components.event_cards.value,
            permits: g.components.permits.value,
            chips: g.components.chips.value,
            colours: g.components.colours.value,
            damage_markers: g.components.damage_markers.value,
        },
        limits: Limits { turn_cap: g.limits.turn_cap.value, fixed_win_threshold: g.limits.fixed_win_threshold.value },
        flags: g.flags.iter().map(|f| f.value.clone()).collect(),
        resources,
        events,
        buildings,
        plots,
        board,
        bank_plot,
        town_hall_plot,
        variants,
        interpretations,
        tally,
        documents,
        languages,
        labor: labor.unwrap_or(Id::ZERO),
        blacksmith: blacksmith_res.unwrap_or(Id::ZERO),
        spreading_fire,
        params: base_params(g),
        replacements,
        choices: tables.choices,
        declared,
        reactions,
        sources: super::rules_data::rule_sources(),
    }
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
