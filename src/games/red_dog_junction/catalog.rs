//! Lowering the Red Dog Junction catalog: raw files → checked `Rules`, or
//! every diagnostic at once (file:line:column, with a snippet).

use std::collections::BTreeMap;

use super::effects::{Effects, Rdj, RdjHost};
use super::layers::{self, Layers};
use super::lower_parts::*;
use super::readings::{self, P, PROCEDURES};
use super::rules_data::*;
use super::schema::*;
use crate::catalog::MAX_NUMBER;
use crate::catalog::common::{
    self, Declared, NumberTally, Numbers, Patch, RawCitation, Source, check_documents, cites as cites_of, ones,
};
use crate::catalog::diag::{Diagnostic, Diagnostics};
pub(super) use crate::catalog::folder::lookup;
use crate::catalog::{GameSources, at_most, layers as layering};
use crate::engine::{Graph, Id, TurnPlan};
use crate::lang::Core;
use crate::lang::Lowering;
use crate::lang::declared;
use crate::yaml::{Spanned, position};

crate::catalog_files! {
    /// The parsed files of a base catalog folder.
    RawCatalog("Red Dog Junction") {
        game: GameFile = "game.yaml",
        components: ComponentsFile = "components.yaml",
        cards: CardsFile = "cards.yaml",
        variants: common::RawVariantsFile<RawEffect> = "variants.yaml",
        interpretations: common::RawInterpretationsFile<RawEffect> = "interpretations.yaml",
    }
}

/// Parses and lowers a catalog folder, with a house-rules overlay layered
/// onto it (`layers`).
pub fn load(src: &GameSources, overlay: Option<&GameSources>) -> Result<Rules, Vec<Diagnostic>> {
    layering::load(src, overlay, RawCatalog::parse, layers::parse_overlay, |raw, over, diags| {
        lower(&layers::layer(src, raw, over, diags), diags)
    })
}

/// Paths of the files, for diagnostics.
pub(super) struct Files<'a> {
    pub comp: &'a str,
    pub lay: &'a Layers<'a>,
}

impl<'a> Files<'a> {
    /// The file section `name` of `game.yaml` came from.
    pub fn at(&self, name: &str) -> &'a str {
        self.lay.from.at(name)
    }
}

/// `n`, or `max` when it is larger (a diagnostic at it).
pub(super) fn small(file: &str, n: &Spanned<u32>, max: u32, what: &str, diags: &mut Diagnostics) -> u32 {
    at_most(file, position(n), what, n.value, max, "", diags)
}

/// What a catalog's `max_players` may be: the engine seats at most 5, and
/// its solo game seats the Automa as p2, so a catalog seats at least 2.
const MOST_PLAYERS: std::ops::RangeInclusive<u32> = 2..=5;

/// The steps of lowering, one per file or concern, in the order their
/// diagnostics are reported; the parts of `components.yaml` and
/// `cards.yaml` are in `lower_parts`.
fn lower(lay: &Layers<'_>, diags: &mut Diagnostics) -> Rules {
    let f = Files { comp: lay.components.from.path, lay };
    let g = &lay.game;
    let gfile = f.at("game");
    let game = lay.from.lower_game(&g.game, super::readings::RULES, diags);
    let keys = readings::count_keys(lay.cards.iter().map(|e| e.raw.id.value.as_str()));
    let declared = readings::declared(lay.cards.len());
    let mut core = Core::new(&g.game, game, super::readings::RULES, (declared, keys));
    let (languages, tally) = (core.languages.clone(), &mut core.tally);
    let (min, max) = (g.game.min_players.value, g.game.max_players.value);
    // the range itself is the `game:` section's, checked alike for every game
    if !MOST_PLAYERS.contains(&max) {
        diags.error(
            gfile,
            position(&g.game.min_players),
            format!("players {min}-{max}: this game plays 1 (solo, with the Automa) to 5"),
        );
    }
    // what is lowered against the player count takes the count refused above
    // within the game's own (a count of four billion seats is a diagnostic,
    // not a loop over every seat)
    let max = max.clamp(*MOST_PLAYERS.start(), *MOST_PLAYERS.end());
    let sections = sections(g);
    let numbers = numbers(&f, (g, max), &sections, tally, diags);
    let (comp, components) = (lay.components.from, lay.components.raw);
    let (cubes, cube_ids, scrap, gold, locations, _loc_ids) =
        lower_places(&f, components, &languages, max, tally, diags);
    let (docks, junction) = lower_docks(&f, components, &locations, &cube_ids, tally, diags);
    let dice = lower_dice(&f, &components.dice, &cube_ids, diags);
    check_gold_die_start(&f, g, components.dice.gold_faces.value.clamp(1, 20), diags);
    let cards = lower_cards(&lay.cards, &cube_ids, &languages, max, tally, diags);
    let (piles, tiles, pile_tiles) = lower_deals(&f, &components.super_deals, &cube_ids, &languages, tally, diags);
    check_documents(citations(&f, &sections), &core.documents, diags);
    let effects = lower_readings(lay, (&cards, max), &cube_ids, &mut core, diags);
    let mut params = numbers.params;
    params[P::FirstPileTiles as usize] = pile_tiles.0;
    params[P::SecondPileTiles as usize] = pile_tiles.1;
    common::check_defaults_agree(&lay.interpretations, &core.declared, &params, &param_places(&f, g), diags);
    let deal_gold = params[P::AutomaDealGold as usize];
    (core.params, core.turn) = (params, TurnPlan::new(&[0], &[0]).expect("one step"));
    if !piles.iter().any(|p| p.gold == deal_gold) {
        diags.error(
            f.at("solo"),
            position(&g.solo.automa_deal_gold),
            format!("solo.automa_deal_gold is {deal_gold}, but no Super Deal pile pays that much"),
        );
    }
    let (haberdashery, bank, dock_graph) = special_places(comp.path, &locations, docks.len(), diags);
    Rules {
        core,
        effects,
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
        faces: components.dice.faces.value.clamp(2, 20) as u8,
        gold_faces: components.dice.gold_faces.value.clamp(1, 20) as u8,
        cards,
        piles,
        tiles,
        starting_gold: numbers.starting_gold,
        gold_to_box: numbers.gold_to_box,
        display: numbers.display,
        gold_die_start: numbers.gold_die_start,
    }
}

/// Every citation of the catalog, with its file.
fn citations<'a>(f: &'a Files<'a>, sections: &[Numbers<'a>]) -> Vec<(&'a str, &'a RawCitation)> {
    let lay = f.lay;
    let mut cites = lay.from.citations(sections);
    let c = lay.components.raw;
    for s in [&c.commodities.source, &c.locations.source, &c.dice.source, &c.super_deals.source] {
        cites.extend(s.iter().map(|x| (lay.components.from.path, x)));
    }
    cites.extend(cites_of(&lay.cards).chain(cites_of(&lay.interpretations)).chain(cites_of(&lay.variants)));
    cites
}

/// The cards' effects compiled, then the variants and interpretations
/// against what the code declares (a `replace:` names a card type, an
/// `actions:` entry declares an action of the turn's one step).
fn lower_readings(
    lay: &Layers<'_>,
    (cards, max): (&[CardDef], u32),
    cube_ids: &BTreeMap<String, Id<Cube>>,
    core: &mut Core<Rdj>,
    diags: &mut Diagnostics,
) -> Vec<Effects> {
    let (keys, least) = (core.count_keys.clone(), starting_deals(cards, max));
    let decl = Declared { count_keys: &keys, count_min: &least, ..core.declared };
    let card_ids: BTreeMap<String, Id<Card>> =
        cards.iter().enumerate().filter_map(|(i, c)| Some((c.id.clone(), Id::new(i).ok()?))).collect();
    let host = RdjHost { cards: &card_ids, cubes: cube_ids };
    let mut fx = Lowering::new(host, BTreeMap::new(), lay.interpretations.reading_names());
    let effects = (lay.cards.iter()).map(|e| fx.effects(&e.from, &e.raw.effect, diags)).collect();
    let fx_tested = fx.tables.readings.clone();
    let (replacements, actions) = (&mut core.replacements, &mut core.actions);
    let mut lower_replace = |p: Patch<'_, RawEffect>, from: &Source<'_>, d: &mut Diagnostics| match p {
        Patch::Replace(r, effect) => {
            let card = lookup(&card_ids, "card", &r.event, from.path, d)?;
            replacements.push(fx.effects(from, effect, d));
            Some(p.change(card.index(), replacements.len() - 1))
        }
        Patch::Condition(r, _) => common::no_condition(r, "cards", from, d),
        Patch::Action { .. } => declared::lower(p, actions, (&[0], PROCEDURES), &mut fx, from, d),
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
    let vf = lay.variants.base.path;
    let variants = common::lower_variants(vf, &lay.variants, &core.languages, &decl, &mut lower_replace, diags);
    let inf = lay.interpretations.base.path;
    let interpretations = common::lower_interpretations(
        inf,
        &lay.interpretations,
        &fx_tested,
        &variants,
        &decl,
        &mut lower_replace,
        diags,
    );
    (core.variants, core.interpretations) = (variants, interpretations);
    core.choices = fx.tables.choices;
    effects
}

/// What the set-up deals of each card type at the most players (its
/// `starting` cards each): the least a reading may set its copies to.
fn starting_deals(cards: &[CardDef], max: u32) -> Vec<u32> {
    cards.iter().map(|c| c.starting.saturating_mul(max)).collect()
}

/// The Haberdashery's and the bank's locations, and the docks as a graph
/// of one ship each.
fn special_places(
    comp: &str,
    locations: &[LocDef],
    docks: usize,
    diags: &mut Diagnostics,
) -> (usize, usize, Graph<Dock>) {
    let find = |k: LocKind| locations.iter().position(|l| l.kind == k);
    let haberdashery = find(LocKind::Haberdashery).unwrap_or_else(|| {
        diags.error(comp, (1, 1), "no location has `kind: haberdashery`");
        0
    });
    let bank = find(LocKind::Bank).unwrap_or_else(|| {
        diags.error(comp, (1, 1), "no location has `kind: bank`");
        0
    });
    let mut dock_graph = Graph::new(docks, 1).unwrap_or_else(|e| {
        diags.error(comp, (1, 1), e.to_string());
        Graph::new(0, 1).expect("an empty graph")
    });
    for d in Id::first(docks) {
        dock_graph.set_capacity(d, 1);
    }
    (haberdashery, bank, dock_graph)
}

/// The gold die starts on one of its faces (0, or one past them, broke
/// `dice-within-faces` at the first roll).
fn check_gold_die_start(f: &Files<'_>, g: &GameFile, gold_faces: u32, diags: &mut Diagnostics) {
    let start = &g.setup.gold_die_start;
    if !(1..=gold_faces).contains(&start.value) {
        let m = format!(
            "setup.gold_die_start is {}, but the gold die shows 1 to {gold_faces} (dice.gold_faces)",
            start.value
        );
        diags.error(f.at("setup"), position(start), m);
    }
}

struct GameNumbers {
    params: Vec<u32>,
    starting_gold: Vec<u32>,
    gold_to_box: Vec<u32>,
    display: usize,
    gold_die_start: u8,
}

/// The numbers of `game.yaml`: each section's provenance, the gold by
/// player count, the parameters a reading may set, each within its bound.
fn numbers(
    f: &Files<'_>,
    (g, max): (&GameFile, u32),
    sections: &[Numbers<'_>],
    tally: &mut NumberTally,
    diags: &mut Diagnostics,
) -> GameNumbers {
    f.lay.from.check(sections, tally, diags);
    let s = &g.setup;
    let (starting_gold, gold_to_box) = gold_by_players(f, s, max as usize, diags);
    let params = params(f, g, diags);
    GameNumbers {
        params,
        starting_gold,
        gold_to_box,
        display: small(f.at("setup"), &s.display, 12, "setup.display", diags).max(1) as usize,
        gold_die_start: small(f.at("setup"), &s.gold_die_start, 20, "setup.gold_die_start", diags) as u8,
    }
}

/// `game.yaml`'s sections: where each one's diagnostics point, its
/// provenance and its number fields.
fn sections(g: &GameFile) -> [Numbers<'_>; 9] {
    let s = &g.setup;
    let mut setup = vec![("starting_gold", s.starting_gold.len()), ("gold_to_box", s.gold_to_box.len())];
    setup.extend(ones(SetupSection::FIELDS));
    let (solo, dr) = (&g.solo, &g.drafts);
    [
        g.game.numbers(),
        Numbers { what: "setup", at: position(&s.display), of: s, fields: setup },
        Numbers { what: "turn", at: position(&g.turn.actions), of: &g.turn, fields: ones(TurnNumbers::FIELDS) },
        Numbers {
            what: "ship",
            at: position(&g.ship.capacity_per_cowboy),
            of: &g.ship,
            fields: ones(ShipNumbers::FIELDS),
        },
        Numbers { what: "crew", at: position(&g.crew.swap_per_outlaw), of: &g.crew, fields: ones(CrewNumbers::FIELDS) },
        Numbers { what: "end", at: position(&g.end.countdown_turns), of: &g.end, fields: ones(EndNumbers::FIELDS) },
        Numbers { what: "limits", at: position(&g.limits.turn_cap), of: &g.limits, fields: ones(LimitNumbers::FIELDS) },
        Numbers { what: "solo", at: position(&solo.actions), of: solo, fields: ones(SoloNumbers::FIELDS) },
        Numbers { what: "drafts", at: position(&dr.posse_hand), of: dr, fields: ones(DraftNumbers::FIELDS) },
    ]
}

/// The starting gold of each player and the gold put back in the box for
/// each player count.
fn gold_by_players(f: &Files<'_>, s: &SetupSection, max: usize, diags: &mut Diagnostics) -> (Vec<u32>, Vec<u32>) {
    let mut starting_gold = vec![0; max];
    for (n, gold) in &s.starting_gold {
        match starting_gold.get_mut((*n as usize).wrapping_sub(1)) {
            Some(slot) => *slot = small(f.at("setup"), gold, 50, "starting gold", diags),
            None => {
                diags.error(f.at("setup"), position(gold), format!("starting gold for player {n}, who does not exist"))
            }
        }
    }
    for n in 1..=max {
        if !s.starting_gold.contains_key(&(n as u32)) {
            diags.error(
                f.at("setup"),
                position(&s.display),
                format!("setup.starting_gold gives nothing for player {n}"),
            );
        }
    }
    let mut gold_to_box = vec![0; max + 1];
    for (n, gold) in &s.gold_to_box {
        match gold_to_box.get_mut(*n as usize) {
            Some(slot) => *slot = small(f.at("setup"), gold, 50, "gold to the box", diags),
            None => diags.error(
                f.at("setup"),
                position(gold),
                format!("gold to the box for {n} players, a count the game does not play"),
            ),
        }
    }
    (starting_gold, gold_to_box)
}

/// The parameters a reading may set, in `readings::PARAMS` order (the
/// Super Deal piles' and the extra Boosts' are set once the deals are
/// lowered), each held to its range (`readings::RANGES`, which a `set:`
/// is held to as well) at its place.
fn params(f: &Files<'_>, g: &GameFile, diags: &mut Diagnostics) -> Vec<u32> {
    let mut params = vec![0; readings::PARAMS.len()];
    for (param, n) in written_params(g) {
        let what = readings::PARAMS[param as usize];
        let file = f.at(what.split('.').next().unwrap_or(what));
        let range = readings::RANGES.iter().find(|r| r.param == param as usize);
        params[param as usize] = small(file, n, range.and_then(|r| r.most).unwrap_or(MAX_NUMBER), what, diags);
        // the least a reading's numbers are held to at set-up, at the catalog's
        if let Some(why) = range.filter(|r| n.value < r.least).and_then(|r| r.refuses(what, n.value)) {
            diags.error(file, position(n), why);
        }
    }
    params
}

/// The place of each parameter `game.yaml` writes (`None` for those the
/// catalog works out: the Super Deal piles' tiles and the extra Boosts).
fn param_places<'a>(f: &Files<'a>, g: &'a GameFile) -> Vec<Option<common::Place<'a>>> {
    let mut places = vec![None; readings::PARAMS.len()];
    for (param, n) in written_params(g) {
        let what = readings::PARAMS[param as usize];
        places[param as usize] = Some((f.at(what.split('.').next().unwrap_or(what)), position(n)));
    }
    places
}

/// The parameters `game.yaml` writes, with their numbers.
fn written_params(g: &GameFile) -> [(P, &Spanned<u32>); 16] {
    let (solo, dr) = (&g.solo, &g.drafts);
    [
        (P::Actions, &g.turn.actions),
        (P::CapacityPerCowboy, &g.ship.capacity_per_cowboy),
        (P::SwapPerOutlaw, &g.crew.swap_per_outlaw),
        (P::CountdownTurns, &g.end.countdown_turns),
        (P::SoloActions, &solo.actions),
        (P::AutomaCapacity, &solo.automa_capacity),
        (P::AutomaSalvage, &solo.automa_salvage),
        (P::AutomaMine, &solo.automa_mine),
        (P::AutomaSwap, &solo.automa_swap),
        (P::AutomaDealGold, &solo.automa_deal_gold),
        (P::AutomaBoostGold, &solo.automa_boost_gold),
        (P::TrailBossOfficers, &dr.trail_boss_officers),
        (P::TrailBossPicks, &dr.trail_boss_picks),
        (P::PosseCowboys, &dr.posse_cowboys),
        (P::PosseHand, &dr.posse_hand),
        (P::TurnCap, &g.limits.turn_cap),
    ]
}
