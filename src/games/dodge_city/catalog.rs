//! Lowering the Dodge City catalog: raw files → checked `Rules`, or every
//! diagnostic at once (file, line, column). The shared pieces — documents,
//! names, provenance, citations, interpretations and the effect language —
//! are `catalog::common`'s and `lang`'s.

use std::collections::{BTreeMap, BTreeSet};

mod buildings;

use super::effects::{Dc, DcHost};
use super::layers::{self, Layers};
use super::readings::{self, PARAMS};
use super::rules_data::*;
use super::schema::*;
use crate::catalog::MAX_NUMBER;
use crate::catalog::common::{
    self, Change, Declared, NumberTally, Patch, Source, check_documents, check_id, check_names, check_provenance,
    check_unique,
};
use crate::catalog::diag::{Diagnostic, Diagnostics};
use crate::catalog::folder::{Folder, RawGameSection, lookup, with_snippets};
use crate::catalog::{GameSources, SourceFile, overlay};
use crate::engine::{Id, Kind, TurnPlan};
use crate::lang::{Compiler, Names, Registry, Report, Tables};
use crate::yaml::{Spanned, position};

/// The files of a Dodge City catalog folder.
pub const FILES: &[&str] = &["game.yaml", "cards.yaml", "buildings.yaml", "events.yaml", "interpretations.yaml"];

/// The most copies of one card kind (a hand counts up to 255 of a kind).
const MAX_COPIES: u32 = 64;

/// The line and column of the first line of `text` that starts with `key`
/// (where a section without a better place is reported).
fn line_of(text: &str, key: &str) -> (u64, u64) {
    text.lines().position(|l| l.starts_with(key)).map_or((1, 1), |i| (i as u64 + 1, 1))
}

/// Parses and lowers a Dodge City catalog folder, with a house-rules
/// overlay layered onto it (`layers`).
pub fn load_layered(src: &GameSources, overlay: Option<&GameSources>) -> Result<Rules, Vec<Diagnostic>> {
    let mut diags = Diagnostics::default();
    for (name, f) in &src.files {
        if !FILES.contains(&name.as_str()) {
            diags.error(
                &f.path,
                (1, 1),
                format!("`{name}` is not a Dodge City catalog file; the files are {}", FILES.join(", ")),
            );
        }
    }
    let folder = Folder { src, game: "Dodge City", files: FILES };
    let game = folder.parse::<GameFile>("game.yaml", &mut diags);
    let cards = folder.parse::<CardsFile>("cards.yaml", &mut diags);
    let buildings = folder.parse::<BuildingsFile>("buildings.yaml", &mut diags);
    let events = folder.parse::<EventsFile>("events.yaml", &mut diags);
    let interps = folder.parse::<InterpretationsFile>("interpretations.yaml", &mut diags);
    let over = overlay.map(|o| layers::parse_overlay(o, &mut diags));
    let all = |diags| with_snippets(diags, [Some(src), overlay].into_iter().flatten());
    let (Some(game), Some(cards), Some(buildings), Some(events), Some(interps), None | Some(Some(_))) =
        (game, cards, buildings, events, interps, &over)
    else {
        return Err(all(diags));
    };
    let over = over.flatten();
    let lay =
        layers::layer((game.0, &game.1), (events.0, &events.1), (interps.0, &interps.1), over.as_ref(), &mut diags);
    let rules = lower(Files { lay: &lay, cards, buildings }, &mut diags);
    if diags.is_empty() { Ok(rules) } else { Err(all(diags)) }
}

struct Files<'a> {
    lay: &'a Layers<'a>,
    cards: (&'a SourceFile, CardsFile),
    buildings: (&'a SourceFile, BuildingsFile),
}

fn id_at<K: Kind>(i: usize, file: &str, at: (u64, u64), diags: &mut Diagnostics) -> Id<K> {
    Id::new(i).unwrap_or_else(|e| {
        diags.error(file, at, e.to_string());
        Id::ZERO
    })
}

fn bound(file: &str, at: &Spanned<u32>, what: &str, min: u32, max: u32, diags: &mut Diagnostics) {
    if at.value < min || at.value > max {
        diags.error(file, position(at), format!("{what} is {}, but must be from {min} to {max}", at.value));
    }
}

/// The steps of lowering, one per file or concern, in the order their
/// diagnostics are reported.
fn lower(f: Files<'_>, diags: &mut Diagnostics) -> Rules {
    let lay = f.lay;
    let (gfile, g) = (lay.from.game.path, &lay.game);
    let mut tally = NumberTally::default();
    check_id(gfile, &g.game.id, diags);
    let (documents, languages) = overlay::documents(gfile, (&g.game.documents, &g.game.languages), lay.added(), diags);
    check_names(gfile, &g.game.names, &languages, diags);
    check_sections(lay, &mut tally, diags);
    let (cfile, c) = (&f.cards.0.path, &f.cards.1);
    let (symbols, sym_ids) = lower_symbols(cfile, c, &languages, &mut tally, diags);
    let (cards, card_ids) = lower_cards(cfile, c, &sym_ids, &languages, &mut tally, diags);
    check_deck(cfile, &cards, (&g.game, &g.setup), diags);
    let (buildings, in_play) = buildings::lower_buildings(
        &f.buildings.0.path,
        &f.buildings.1,
        &languages,
        (&g.game, &g.rules),
        &mut tally,
        diags,
    );
    let (events, choices, tested) = lower_events(lay, &card_ids, &languages, &mut tally, diags);
    let readings = lower_readings(lay, &card_ids, events.len(), choices, &tested, diags);
    check_documents(citations(&f), &documents, diags);
    let params = params(&g.setup, &g.rules);
    debug_assert_eq!(params.len(), PARAMS.len());
    let gs = &g.game;
    Rules {
        id: gs.id.value.clone(),
        name: gs.names.display(&languages, &gs.id.value).to_string(),
        min_players: gs.min_players.value,
        max_players: gs.max_players.value,
        documents,
        languages,
        symbols,
        cards,
        buildings,
        in_play,
        events,
        replacements: readings.replacements,
        choices: readings.choices,
        params,
        interpretations: readings.interpretations,
        variants: Vec::new(),
        turn: readings.turn,
        declared: readings.declared,
        tally,
        sources: RULE_SOURCES.iter().copied().collect(),
    }
}

/// The provenance and bounds of `game.yaml`'s sections `game`, `setup`
/// and `rules`.
fn check_sections(lay: &Layers<'_>, tally: &mut NumberTally, diags: &mut Diagnostics) {
    let (gfile, g) = (lay.from.game.path, &lay.game);
    let (sfile, rfile) = (lay.from.setup.path, lay.from.rules.path);
    let gs = &g.game;
    tally.add(check_provenance(
        gfile,
        "game",
        position(&gs.id),
        &gs.source,
        &gs.assumed,
        &[("min_players", 1), ("max_players", 1)],
        diags,
    ));
    bound(gfile, &gs.min_players, "min_players", 1, 64, diags);
    bound(gfile, &gs.max_players, "max_players", gs.min_players.value.max(1), 64, diags);
    let s = &g.setup;
    tally.add(check_provenance(
        sfile,
        "setup",
        position(&s.money),
        &s.source,
        &s.assumed,
        &[("money", 1), ("hand", 1), ("tokens", 1)],
        diags,
    ));
    bound(sfile, &s.money, "setup: money", 0, MAX_NUMBER * 100, diags);
    bound(sfile, &s.hand, "setup: hand", 1, 16, diags);
    bound(sfile, &s.tokens, "setup: tokens", 1, 255, diags);
    let r = &g.rules;
    let numbers = [
        ("goal_points", &r.goal_points, 1),
        ("number_card_pay", &r.number_card_pay, 0),
        ("buy_per_building", &r.buy_per_building, 1),
        ("indio_removes", &r.indio_removes, 0),
        ("control_fields", &r.control_fields, 1),
        ("sale_percent", &r.sale_percent, 0),
        ("picture_tokens", &r.picture_tokens, 0),
        ("money_per_point", &r.money_per_point, 0),
        ("round_cap", &r.round_cap, 1),
    ];
    let fields: Vec<(&str, usize)> = numbers.iter().map(|(n, _, _)| (*n, 1)).collect();
    tally.add(check_provenance(rfile, "rules", position(&r.goal_points), &r.source, &r.assumed, &fields, diags));
    for (name, v, min) in &numbers {
        bound(rfile, v, &format!("rules: {name}"), *min, MAX_NUMBER, diags);
    }
}

/// The symbols, from the highest rank down, with their ids.
fn lower_symbols(
    cfile: &str,
    c: &CardsFile,
    languages: &[String],
    tally: &mut NumberTally,
    diags: &mut Diagnostics,
) -> (Vec<SymbolDef>, BTreeMap<String, Id<kind::Symbol>>) {
    check_unique(cfile, "symbol", c.symbols.iter().map(|s| &s.id), diags);
    let mut symbols = Vec::new();
    let mut sym_ids = BTreeMap::new();
    for (i, s) in c.symbols.iter().enumerate() {
        check_id(cfile, &s.id, diags);
        check_names(cfile, &s.names, languages, diags);
        let what = format!("symbol `{}`", s.id.value);
        tally.add(check_provenance(
            cfile,
            &what,
            position(&s.id),
            &s.source,
            &s.assumed,
            &[("price", 1), ("points", 1), ("discs", 1)],
            diags,
        ));
        bound(cfile, &s.price, &format!("{what}: price"), 0, MAX_NUMBER, diags);
        bound(cfile, &s.points, &format!("{what}: points"), 0, MAX_NUMBER, diags);
        bound(cfile, &s.discs, &format!("{what}: discs"), 0, 255, diags);
        sym_ids.insert(s.id.value.clone(), id_at::<kind::Symbol>(i, cfile, position(&s.id), diags));
        symbols.push(SymbolDef {
            id: s.id.value.clone(),
            name: s.names.display(languages, &s.id.value).to_string(),
            price: s.price.value,
            points: s.points.value,
            discs: s.discs.value,
        });
    }
    if symbols.is_empty() {
        diags.error(cfile, (1, 1), "the catalog declares no `symbols:`");
    }
    (symbols, sym_ids)
}

/// The card kinds, with their ids.
fn lower_cards(
    cfile: &str,
    c: &CardsFile,
    sym_ids: &BTreeMap<String, Id<kind::Symbol>>,
    languages: &[String],
    tally: &mut NumberTally,
    diags: &mut Diagnostics,
) -> (Vec<CardDef>, BTreeMap<String, CardId>) {
    check_unique(cfile, "card", c.cards.iter().map(|x| &x.id), diags);
    let mut cards = Vec::new();
    let mut card_ids = BTreeMap::new();
    for (i, x) in c.cards.iter().enumerate() {
        check_id(cfile, &x.id, diags);
        check_names(cfile, &x.names, languages, diags);
        let what = format!("card `{}`", x.id.value);
        tally.add(check_provenance(
            cfile,
            &what,
            position(&x.id),
            &x.source,
            &x.assumed,
            &[("value", 1), ("copies", 1)],
            diags,
        ));
        bound(cfile, &x.copies, &format!("{what}: copies"), 0, MAX_COPIES, diags);
        bound(cfile, &x.value, &format!("{what}: value"), 0, MAX_NUMBER, diags);
        let kind = card_kind(cfile, x, &what, sym_ids, diags);
        card_ids.insert(x.id.value.clone(), id_at::<kind::Card>(i, cfile, position(&x.id), diags));
        cards.push(CardDef {
            id: x.id.value.clone(),
            name: x.names.display(languages, &x.id.value).to_string(),
            kind,
            value: x.value.value,
            copies: x.copies.value,
        });
    }
    (cards, card_ids)
}

/// A card's kind: a number or picture card has a symbol, a question-mark
/// or Indio card none.
fn card_kind(
    cfile: &str,
    x: &RawCard,
    what: &str,
    sym_ids: &BTreeMap<String, Id<kind::Symbol>>,
    diags: &mut Diagnostics,
) -> CardKind {
    let sym = match &x.symbol {
        Some(s) => lookup(sym_ids, "symbol", s, cfile, diags),
        None => None,
    };
    match (x.kind.value, sym, &x.symbol) {
        (RawCardKind::Number, Some(s), _) => CardKind::Number(s),
        (RawCardKind::Picture, Some(s), _) => CardKind::Picture(s),
        (RawCardKind::Question, None, None) => CardKind::Question,
        (RawCardKind::Indio, None, None) => CardKind::Indio,
        (RawCardKind::Number | RawCardKind::Picture, None, None) => {
            diags.error(cfile, position(&x.kind), format!("{what} is a number or picture card and needs a `symbol`"));
            CardKind::Question
        }
        (RawCardKind::Question | RawCardKind::Indio, _, Some(s)) => {
            diags.error(cfile, position(s), format!("{what}: question-mark and Indio cards have no symbol"));
            CardKind::Question
        }
        _ => CardKind::Question,
    }
}

/// The deck deals every hand, and a hand can count its kinds.
fn check_deck(cfile: &str, cards: &[CardDef], (gs, s): (&RawGameSection, &SetupSection), diags: &mut Diagnostics) {
    let deck: u32 = cards.iter().map(|c| c.copies).sum();
    let (max_players, hand) = (gs.max_players.value, s.hand.value);
    if u64::from(deck) < u64::from(max_players) * u64::from(hand) {
        diags.error(cfile, (1, 1), format!("the deck holds {deck} cards, fewer than {max_players} hands of {hand}"));
    }
    if cards.len() > 48 {
        diags.error(cfile, (1, 1), format!("{} card kinds; a hand holds at most 48 kinds", cards.len()));
    }
}

/// What the round and the interpretations lower to.
struct Readings {
    turn: TurnPlan,
    declared: Declared<'static>,
    interpretations: Vec<common::Interpretation>,
    /// The data effects their `replace:` and `steps:` compile to.
    replacements: Vec<Vec<crate::lang::Effect<Dc>>>,
    /// The events' `choose` options, then the replacements'.
    choices: Vec<crate::lang::Choice<Dc>>,
}

/// The round (the declared steps, each one of the code's procedures), then
/// the interpretations against what the code declares.
fn lower_readings(
    lay: &Layers<'_>,
    card_ids: &BTreeMap<String, CardId>,
    events: usize,
    choices: Vec<crate::lang::Choice<Dc>>,
    tested: &BTreeSet<usize>,
    diags: &mut Diagnostics,
) -> Readings {
    let declared = readings::declared(events);
    let round_at = line_of(lay.from.round.text, "round:");
    let steps = common::lower_turn(lay.from.round.path, &lay.game.round.phases, round_at, &declared, diags);
    let turn = TurnPlan::new(&steps, &declared.required_indexes()).unwrap_or_default();
    let decl = Declared { turn: &steps, ..declared };
    let registry = Registry::<Dc>::default();
    let mut replacements = Vec::new();
    // one choice table: a replacement's `choose` options follow the events'
    let mut tables = Tables { choices, ..Tables::default() };
    let event_ids: BTreeMap<String, usize> =
        lay.events.iter().enumerate().map(|(i, e)| (e.raw.id.value.clone(), i)).collect();
    let interp_names: Vec<(String, Vec<String>)> = Vec::new();
    let mut lower_replace =
        |patch: Patch<'_, RawEffect>, from: &Source<'_>, diags: &mut Diagnostics| -> Option<Change> {
            // an added step runs its effect for the start player
            let (raw, entity) = match patch {
                Patch::Replace(rp) => (&rp.effect, Some(lookup(&event_ids, "event", &rp.event, from.path, diags)?)),
                Patch::Step { raw, .. } => (&raw.effect, None),
            };
            let flags = BTreeMap::new();
            let names = Names { flags: &flags, interpretations: &interp_names };
            let host = DcHost { cards: card_ids };
            let report = Report { file: from.path, text: from.text, diags };
            let effect = Compiler::new(report, &registry, &host, &names, &mut tables, false).effects(raw);
            replacements.push(effect);
            let with = (replacements.len() - 1) as u32;
            Some(match (patch, entity) {
                (Patch::Step { at, after, .. }, _) => Change::Step { at: at as u32, after, with },
                (_, e) => Change::Replace { entity: e.unwrap_or(0) as u32, with },
            })
        };
    let (ifile, entries) = (lay.interpretations_file.path, &lay.interpretations);
    let interpretations = common::lower_interpretations(ifile, entries, tested, &[], &decl, &mut lower_replace, diags);
    Readings { turn, declared, interpretations, replacements, choices: tables.choices }
}

/// Every citation of the catalog, with its file.
fn citations<'a>(f: &'a Files<'a>) -> Vec<(&'a str, &'a common::RawCitation)> {
    let lay = f.lay;
    let g = &lay.game;
    let mut cites: Vec<(&str, &common::RawCitation)> = Vec::new();
    cites.extend(g.game.source.iter().map(|x| (lay.from.game.path, x)));
    cites.extend(g.setup.source.iter().map(|x| (lay.from.setup.path, x)));
    cites.extend(g.rules.source.iter().map(|x| (lay.from.rules.path, x)));
    cites.extend(g.round.source.iter().map(|x| (lay.from.round.path, x)));
    let (cfile, c) = (&f.cards.0.path, &f.cards.1);
    cites.extend(
        c.symbols
            .iter()
            .flat_map(|x| x.source.iter())
            .chain(c.cards.iter().flat_map(|x| x.source.iter()))
            .map(|x| (cfile.as_str(), x)),
    );
    let bf = &f.buildings;
    cites.extend(
        bf.1.buildings.iter().flat_map(|x| x.source.iter()).chain(&bf.1.boards.source).map(|x| (bf.0.path.as_str(), x)),
    );
    cites.extend(lay.events.iter().flat_map(|e| e.raw.source.iter().map(|x| (e.from.path, x))));
    cites.extend(lay.interpretations.iter().flat_map(|e| e.raw.citations.iter().map(|x| (e.from.path, x))));
    cites
}

/// The catalog's values of the parameters a reading may set, in `PARAMS`
/// order.
fn params(s: &SetupSection, r: &RulesSection) -> Vec<u32> {
    vec![
        s.money.value,
        s.hand.value,
        s.tokens.value,
        r.goal_points.value,
        r.number_card_pay.value,
        r.buy_per_building.value,
        r.indio_removes.value,
        r.control_fields.value,
        r.sale_percent.value,
        r.picture_tokens.value,
        r.money_per_point.value,
        r.round_cap.value,
    ]
}

/// The event cards, their effects compiled in the shared language.
#[allow(clippy::type_complexity)]
fn lower_events(
    lay: &Layers<'_>,
    cards: &BTreeMap<String, CardId>,
    languages: &[String],
    tally: &mut NumberTally,
    diags: &mut Diagnostics,
) -> (Vec<EventDef>, Vec<crate::lang::Choice<Dc>>, BTreeSet<usize>) {
    let registry = Registry::<Dc>::default();
    let mut tables = Tables::default();
    let flags = BTreeMap::new();
    let interp_names: Vec<(String, Vec<String>)> = lay
        .interpretations
        .iter()
        .map(|e| (e.raw.id.value.clone(), e.raw.options.iter().map(|o| o.id.value.clone()).collect()))
        .collect();
    let names = Names { flags: &flags, interpretations: &interp_names };
    let host = DcHost { cards };
    let mut out = Vec::new();
    for (i, entry) in lay.events.iter().enumerate() {
        let (e, file) = (entry.raw, entry.from);
        check_id(file.path, &e.id, diags);
        check_names(file.path, &e.names, languages, diags);
        let what = format!("event `{}`", e.id.value);
        let n_effect = registry.count_numbers(&e.effect);
        tally.add(check_provenance(
            file.path,
            &what,
            position(&e.id),
            &e.source,
            &e.assumed,
            &[("copies", 1), ("effect", n_effect)],
            diags,
        ));
        bound(file.path, &e.copies, &format!("{what}: copies"), 0, MAX_COPIES, diags);
        let _ = id_at::<kind::EventCard>(i, file.path, position(&e.id), diags);
        let report = Report { file: file.path, text: file.text, diags };
        let effect = Compiler::new(report, &registry, &host, &names, &mut tables, false).effects(&e.effect);
        out.push(EventDef {
            id: e.id.value.clone(),
            name: e.names.display(languages, &e.id.value).to_string(),
            copies: e.copies.value,
            effect,
        });
    }
    if out.iter().map(|e| e.copies).sum::<u32>() == 0 {
        diags.error(lay.events_file.path, (1, 1), "the event deck is empty");
    }
    (out, tables.choices, tables.readings)
}
