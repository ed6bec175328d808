//! Lowering the Red Dog Junction catalog: raw files → checked `Rules`, or
//! every diagnostic at once (file:line:column, with a snippet).

use std::collections::BTreeMap;

use super::effects::{Compiled, EffectCompiler, RdjHost};
use super::lower_parts::*;
use super::readings::{self, P};
use super::rules_data::*;
use super::schema::*;
use crate::catalog::GameSources;
use crate::catalog::common::{
    self, Change, Entry, NumberTally, Patch, RawCitation, Source, check_documents, check_id, check_names,
    check_provenance, check_unique,
};
use crate::catalog::diag::{Diagnostic, Diagnostics};
pub(super) use crate::catalog::folder::lookup;
use crate::catalog::folder::{Folder, with_snippets};
use crate::engine::{Graph, Id, TurnPlan};
use crate::yaml::{Spanned, position};

/// The files of a Red Dog Junction catalog folder.
pub const FILES: &[&str] = &["game.yaml", "components.yaml", "cards.yaml", "variants.yaml", "interpretations.yaml"];

/// The rule ids the game's errors name (after `red-dog-junction/`).
pub const RULE_IDS: &[&str] = &[
    "turn.actions",
    "move.dock",
    "move.home-base",
    "load.home-base",
    "buy.payment",
    "buy.limit",
    "deal.place",
    "deal.payment",
    "crew.none",
    "crew.mine",
    "crew.displace",
    "crew.swap",
    "crew.salvage",
    "crew.trade",
    "jettison.capacity",
    "chance.roll",
    "game.over",
    "solo.automa",
    "setup.draft",
    "card.effect",
];

struct Raw {
    game: GameFile,
    components: ComponentsFile,
    cards: CardsFile,
    variants: common::RawVariantsFile<RawEffect>,
    interpretations: common::RawInterpretationsFile<RawEffect>,
}

/// Parses and lowers a catalog folder. House-rules overlays are not yet
/// supported for this game (a diagnostic says so: copy the folder).
pub fn load(src: &GameSources, overlay: Option<&GameSources>) -> Result<Rules, Vec<Diagnostic>> {
    let mut diags = Diagnostics::default();
    if let Some(o) = overlay {
        diags.error(&o.dir, (1, 1), "house-rules overlays of red-dog-junction are not supported yet; copy the folder");
        return Err(diags.items);
    }
    let raw = parse_all(src, &mut diags);
    let Some(raw) = raw else { return Err(with_snippets(diags, [src])) };
    let rules = lower(src, &raw, &mut diags);
    if diags.is_empty() { Ok(rules) } else { Err(with_snippets(diags, [src])) }
}

fn parse_all(src: &GameSources, diags: &mut Diagnostics) -> Option<Raw> {
    let folder = Folder { src, game: "Red Dog Junction", files: FILES };
    let game = folder.parse("game.yaml", diags);
    let components = folder.parse("components.yaml", diags);
    let cards = folder.parse("cards.yaml", diags);
    let variants = folder.parse("variants.yaml", diags);
    let interpretations = folder.parse("interpretations.yaml", diags);
    Some(Raw {
        game: game?.1,
        components: components?.1,
        cards: cards?.1,
        variants: variants?.1,
        interpretations: interpretations?.1,
    })
}

/// Paths of the files, for diagnostics.
pub(super) struct Files<'a> {
    pub game: &'a str,
    pub comp: &'a str,
    pub cards: &'a str,
}

pub(super) fn small(file: &str, n: &Spanned<u32>, max: u32, what: &str, diags: &mut Diagnostics) -> u32 {
    if n.value > max {
        diags.error(file, position(n), format!("{what} is {}, more than {max}", n.value));
        return max;
    }
    n.value
}

// About 110 lines: the one place where the five files meet (documents,
// citations, readings, the parts); the parts themselves are in `lower_parts`.
fn lower(src: &GameSources, raw: &Raw, diags: &mut Diagnostics) -> Rules {
    let path = |n: &str| src.files.get(n).map_or("", |f| f.path.as_str());
    let f = Files { game: path("game.yaml"), comp: path("components.yaml"), cards: path("cards.yaml") };
    let g = &raw.game;
    check_id(f.game, &g.game.id, diags);
    let (documents, languages) = common::lower_documents(f.game, &g.game.documents, &g.game.languages, diags);
    check_names(f.game, &g.game.names, &languages, diags);
    let mut tally = NumberTally::default();
    let (min, max) = (g.game.min_players.value, g.game.max_players.value);
    if min < 1 || !(2..=5).contains(&max) || min > max {
        diags.error(
            f.game,
            position(&g.game.min_players),
            format!("players {min}-{max}: this game plays 1 (solo, with the Automa) to 5"),
        );
    }
    let numbers = numbers(&f, g, &mut tally, diags);
    let (cubes, cube_ids, scrap, gold, locations, loc_ids) =
        lower_places(&f, &raw.components, &languages, max, &mut tally, diags);
    let (docks, junction) = lower_docks(&f, &raw.components, &locations, &cube_ids, &mut tally, diags);
    let dice = lower_dice(&f, &raw.components.dice, &cube_ids, diags);
    let cards = lower_cards(&f, &raw.cards, &cube_ids, &languages, max, &mut tally, diags);
    let (piles, tiles, pile_tiles) =
        lower_deals(&f, &raw.components.super_deals, &cube_ids, &languages, &mut tally, diags);
    let mut cites: Vec<(&str, &RawCitation)> = Vec::new();
    cites.extend(g.game.source.iter().map(|c| (f.game, c)));
    cites.extend(g.setup.source.iter().map(|c| (f.game, c)));
    for s in [
        &g.turn.source,
        &g.ship.source,
        &g.crew.source,
        &g.end.source,
        &g.limits.source,
        &g.solo.source,
        &g.drafts.source,
    ] {
        cites.extend(s.iter().map(|c| (f.game, c)));
    }
    let c = &raw.components;
    for s in [&c.commodities.source, &c.locations.source, &c.dice.source, &c.super_deals.source] {
        cites.extend(s.iter().map(|x| (f.comp, x)));
    }
    for card in &raw.cards.cards {
        cites.extend(card.source.iter().map(|x| (f.cards, x)));
    }
    let (vf, inf) = (path("variants.yaml"), path("interpretations.yaml"));
    let text = |n: &str| src.files.get(n).map_or("", |f| f.text.as_str());
    for i in &raw.interpretations.interpretations {
        cites.extend(i.citations.iter().map(|x| (inf, x)));
    }
    for v in &raw.variants.variants {
        cites.extend(v.source.iter().map(|x| (vf, x)));
    }
    check_documents(cites, &documents, diags);
    let decl = readings::declared(cards.len());
    let card_ids: BTreeMap<String, Id<Card>> =
        cards.iter().enumerate().filter_map(|(i, c)| Some((c.id.clone(), Id::new(i).ok()?))).collect();
    let mut fx = EffectCompiler {
        registry: Default::default(),
        host: RdjHost { cards: &card_ids, cubes: &cube_ids },
        interpretations: (raw.interpretations.interpretations.iter())
            .map(|i| (i.id.value.clone(), i.options.iter().map(|o| o.id.value.clone()).collect()))
            .collect(),
        tables: Default::default(),
    };
    let effects = (raw.cards.cards.iter()).map(|c| fx.compile(f.cards, text("cards.yaml"), &c.effect, diags)).collect();
    let fx_tested = fx.tables.readings.clone();
    let mut replacements = Vec::new();
    let mut lower_replace = |p: Patch<'_, RawEffect>, from: &Source<'_>, d: &mut Diagnostics| match p {
        Patch::Replace(r) => {
            let card = lookup(&card_ids, "card", &r.event, from.path, d)?;
            replacements.push(fx.compile(from.path, from.text, &r.effect, d));
            Some(Change::Replace { entity: card.index() as u32, with: (replacements.len() - 1) as u32 })
        }
        Patch::Step { anchor, .. } => {
            d.error(
                from.path,
                position(anchor),
                "red-dog-junction's turn has no data steps: use `set:`, `replace:` (a card's effect) or a reading \
                 the engine implements",
            );
            None
        }
    };
    let vsrc = Source { path: vf, text: text("variants.yaml") };
    let ventries: Vec<Entry<'_, _>> = raw.variants.variants.iter().map(|raw| Entry { from: vsrc, raw }).collect();
    let variants = common::lower_variants(vf, &ventries, &languages, &decl, &mut lower_replace, diags);
    let isrc = Source { path: inf, text: text("interpretations.yaml") };
    let ientries: Vec<Entry<'_, _>> =
        raw.interpretations.interpretations.iter().map(|raw| Entry { from: isrc, raw }).collect();
    check_unique(inf, "interpretation", raw.interpretations.interpretations.iter().map(|i| &i.id), diags);
    let interpretations =
        common::lower_interpretations(inf, &ientries, &fx_tested, &variants, &decl, &mut lower_replace, diags);
    let compiled = Compiled { effects, replacements, choices: fx.tables.choices };
    let mut params = numbers.params;
    params[P::FirstPileTiles as usize] = pile_tiles.0;
    params[P::SecondPileTiles as usize] = pile_tiles.1;
    let deal_gold = params[P::AutomaDealGold as usize];
    if !piles.iter().any(|p| p.gold == deal_gold) {
        diags.error(
            f.game,
            position(&g.solo.automa_deal_gold),
            format!("solo.automa_deal_gold is {deal_gold}, but no Super Deal pile pays that much"),
        );
    }
    let find = |k: LocKind| locations.iter().position(|l| l.kind == k);
    let haberdashery = find(LocKind::Haberdashery).unwrap_or_else(|| {
        diags.error(f.comp, (1, 1), "no location has `kind: haberdashery`");
        0
    });
    let bank = find(LocKind::Bank).unwrap_or_else(|| {
        diags.error(f.comp, (1, 1), "no location has `kind: bank`");
        0
    });
    let mut dock_graph = Graph::new(docks.len(), 1).unwrap_or_else(|e| {
        diags.error(f.comp, (1, 1), e.to_string());
        Graph::new(0, 1).expect("an empty graph")
    });
    for d in Id::first(docks.len()) {
        dock_graph.set_capacity(d, 1);
    }
    let _ = loc_ids;
    Rules {
        id: g.game.id.value.clone(),
        name: g.game.names.display(&languages, &g.game.id.value).to_string(),
        languages,
        documents,
        min_players: min,
        max_players: max,
        cubes,
        scrap,
        gold,
        locations,
        junction,
        haberdashery,
        bank,
        docks,
        dock_graph,
        dice,
        faces: raw.components.dice.faces.value.clamp(2, 20) as u8,
        gold_faces: raw.components.dice.gold_faces.value.clamp(1, 20) as u8,
        cards,
        piles,
        tiles,
        starting_gold: numbers.starting_gold,
        gold_to_box: numbers.gold_to_box,
        display: numbers.display,
        gold_die_start: numbers.gold_die_start,
        params,
        turn: TurnPlan::new(&[0], &[0]).expect("one step"),
        interpretations,
        variants,
        tally,
        rule_ids: RULE_IDS.iter().copied().collect(),
        compiled,
    }
}

struct Numbers {
    params: Vec<u32>,
    starting_gold: Vec<u32>,
    gold_to_box: Vec<u32>,
    display: usize,
    gold_die_start: u8,
}

fn numbers(f: &Files<'_>, g: &GameFile, tally: &mut NumberTally, diags: &mut Diagnostics) -> Numbers {
    let prov = |what: &str, at, src: &[RawCitation], assumed, fields: &[(&str, usize)], diags: &mut Diagnostics| {
        check_provenance(f.game, what, at, src, assumed, fields, diags)
    };
    tally.add(prov(
        "game",
        position(&g.game.id),
        &g.game.source,
        &g.game.assumed,
        &[("min_players", 1), ("max_players", 1)],
        diags,
    ));
    let s = &g.setup;
    let fields = [
        ("starting_gold", s.starting_gold.len()),
        ("gold_to_box", s.gold_to_box.len()),
        ("display", 1),
        ("gold_die_start", 1),
    ];
    tally.add(prov("setup", position(&s.display), &s.source, &s.assumed, &fields, diags));
    tally.add(prov("turn", position(&g.turn.actions), &g.turn.source, &g.turn.assumed, &[("actions", 1)], diags));
    tally.add(prov(
        "ship",
        position(&g.ship.capacity_per_cowboy),
        &g.ship.source,
        &g.ship.assumed,
        &[("capacity_per_cowboy", 1)],
        diags,
    ));
    tally.add(prov(
        "crew",
        position(&g.crew.swap_per_outlaw),
        &g.crew.source,
        &g.crew.assumed,
        &[("swap_per_outlaw", 1)],
        diags,
    ));
    tally.add(prov(
        "end",
        position(&g.end.countdown_turns),
        &g.end.source,
        &g.end.assumed,
        &[("countdown_turns", 1)],
        diags,
    ));
    tally.add(prov(
        "limits",
        position(&g.limits.turn_cap),
        &g.limits.source,
        &g.limits.assumed,
        &[("turn_cap", 1)],
        diags,
    ));
    let solo = &g.solo;
    let solo_fields = [
        ("actions", 1),
        ("automa_capacity", 1),
        ("automa_salvage", 1),
        ("automa_mine", 1),
        ("automa_swap", 1),
        ("automa_deal_gold", 1),
        ("automa_boost_gold", 1),
    ];
    tally.add(prov("solo", position(&solo.actions), &solo.source, &solo.assumed, &solo_fields, diags));
    let dr = &g.drafts;
    let draft_fields = [("trail_boss_officers", 1), ("trail_boss_picks", 1), ("posse_cowboys", 1), ("posse_hand", 1)];
    tally.add(prov("drafts", position(&dr.posse_hand), &dr.source, &dr.assumed, &draft_fields, diags));
    let max = g.game.max_players.value.min(5) as usize;
    let mut starting_gold = vec![0; max];
    for (n, gold) in &s.starting_gold {
        match starting_gold.get_mut((*n as usize).wrapping_sub(1)) {
            Some(slot) => *slot = small(f.game, gold, 50, "starting gold", diags),
            None => diags.error(f.game, position(gold), format!("starting gold for player {n}, who does not exist")),
        }
    }
    for n in 1..=max {
        if !s.starting_gold.contains_key(&(n as u32)) {
            diags.error(f.game, position(&s.display), format!("setup.starting_gold gives nothing for player {n}"));
        }
    }
    let mut gold_to_box = vec![0; max + 1];
    for (n, gold) in &s.gold_to_box {
        match gold_to_box.get_mut(*n as usize) {
            Some(slot) => *slot = small(f.game, gold, 50, "gold to the box", diags),
            None => diags.error(
                f.game,
                position(gold),
                format!("gold to the box for {n} players, a count the game does not play"),
            ),
        }
    }
    let mut params = vec![0; readings::PARAMS.len()];
    params[P::Actions as usize] = small(f.game, &g.turn.actions, 10, "turn.actions", diags).max(1);
    params[P::CapacityPerCowboy as usize] =
        small(f.game, &g.ship.capacity_per_cowboy, 20, "ship.capacity_per_cowboy", diags);
    params[P::SwapPerOutlaw as usize] = small(f.game, &g.crew.swap_per_outlaw, 10, "crew.swap_per_outlaw", diags);
    params[P::CountdownTurns as usize] = small(f.game, &g.end.countdown_turns, 10, "end.countdown_turns", diags);
    for (param, n, what, cap) in [
        (P::SoloActions, &solo.actions, "solo.actions", 10),
        (P::AutomaCapacity, &solo.automa_capacity, "solo.automa_capacity", 60),
        (P::AutomaSalvage, &solo.automa_salvage, "solo.automa_salvage", 30),
        (P::AutomaMine, &solo.automa_mine, "solo.automa_mine", 30),
        (P::AutomaSwap, &solo.automa_swap, "solo.automa_swap", 30),
        (P::AutomaDealGold, &solo.automa_deal_gold, "solo.automa_deal_gold", 50),
        (P::AutomaBoostGold, &solo.automa_boost_gold, "solo.automa_boost_gold", 10),
        (P::TrailBossOfficers, &dr.trail_boss_officers, "drafts.trail_boss_officers", 1),
        (P::TrailBossPicks, &dr.trail_boss_picks, "drafts.trail_boss_picks", 3),
        (P::PosseCowboys, &dr.posse_cowboys, "drafts.posse_cowboys", 3),
        (P::PosseHand, &dr.posse_hand, "drafts.posse_hand", 12),
    ] {
        params[param as usize] = small(f.game, n, cap, what, diags);
    }
    params[P::SoloActions as usize] = params[P::SoloActions as usize].max(1);
    params[P::TurnCap as usize] = small(f.game, &g.limits.turn_cap, 100_000, "limits.turn_cap", diags).max(1);
    Numbers {
        params,
        starting_gold,
        gold_to_box,
        display: small(f.game, &s.display, 12, "setup.display", diags).max(1) as usize,
        gold_die_start: small(f.game, &s.gold_die_start, 20, "setup.gold_die_start", diags) as u8,
    }
}
