//! Lowering the Dodge City catalog: raw files → checked `Rules`, or every
//! diagnostic at once (file, line, column). The shared pieces — documents,
//! names, provenance, citations, interpretations and the effect language —
//! are `catalog::common`'s and `lang`'s.

use std::collections::BTreeMap;

mod buildings;

use super::effects::{Dc, DcHost};
use super::layers::{self, Layers};
use super::readings::{self, PARAMS, PROCEDURES, Proc};
use super::rules_data::*;
use super::schema::*;
use crate::catalog::MAX_NUMBER;
use crate::catalog::common::{
    self, Change, Declared, NumberTally, Numbers, Patch, Range, Source, check_documents, check_record, ones, unique_ids,
};
use crate::catalog::diag::{Diagnostic, Diagnostics};
use crate::catalog::folder::{RawGameSection, lookup};
use crate::catalog::{GameSources, layers as layering};
use crate::engine::{Id, TurnPlan, id_at};
use crate::lang::declared;
use crate::lang::{Core, Lowering};
use crate::yaml::{Spanned, position};

/// The most copies of one card kind, in the catalog or set by a reading:
/// far above any printed count, and within the 255 a hand counts of a kind.
pub(super) const MAX_COPIES: u32 = 64;

/// The line and column of the first line of `text` that starts with `key`
/// (where a section without a better place is reported).
fn line_of(text: &str, key: &str) -> (u64, u64) {
    text.lines().position(|l| l.starts_with(key)).map_or((1, 1), |i| (i as u64 + 1, 1))
}

/// Parses and lowers a Dodge City catalog folder, with a house-rules
/// overlay layered onto it (`layers`).
pub fn load_layered(src: &GameSources, overlay: Option<&GameSources>) -> Result<Rules, Vec<Diagnostic>> {
    layering::load(src, overlay, parse, layers::parse_overlay, |raw, over, diags| {
        lower(&layers::layer(src, raw, over, diags), diags)
    })
}

crate::catalog_files! {
    /// The parsed files of a base catalog folder.
    RawCatalog("Dodge City") {
        game: GameFile = "game.yaml",
        cards: CardsFile = "cards.yaml",
        buildings: BuildingsFile = "buildings.yaml",
        events: EventsFile = "events.yaml",
        interpretations: InterpretationsFile = "interpretations.yaml",
    }
}

/// Parses every file of a base catalog folder (which holds no other);
/// `None` when one failed.
fn parse(src: &GameSources, diags: &mut Diagnostics) -> Option<RawCatalog> {
    for (name, f) in &src.files {
        if !FILES.contains(&name.as_str()) {
            diags.error(
                &f.path,
                (1, 1),
                format!("`{name}` is not a Dodge City catalog file; the files are {}", FILES.join(", ")),
            );
        }
    }
    RawCatalog::parse(src, diags)
}

/// An error at `at` when its number lies outside `range` (worded by
/// `Range::refuses`, as a reading's number outside it is).
fn bound(file: &str, at: &Spanned<u32>, what: &str, range: Range, diags: &mut Diagnostics) {
    if let Some(why) = range.refuses(what, at.value) {
        diags.error(file, position(at), why);
    }
}

/// A number's range that is no parameter's (`param` is unused).
const fn within(least: u32, most: u32) -> Range {
    Range::within(0, least, most)
}

/// The steps of lowering, one per file or concern, in the order their
/// diagnostics are reported.
fn lower(lay: &Layers<'_>, diags: &mut Diagnostics) -> Rules {
    let g = &lay.game;
    let game = lay.from.lower_game(&g.game, readings::RULES, diags);
    let (cards, events) = (&lay.cards.raw.cards, &lay.events);
    let keys =
        readings::count_keys(cards.iter().map(|c| c.id.value.as_str()), events.iter().map(|e| e.raw.id.value.as_str()));
    let declared = readings::declared(events.len(), cards.len() + events.len());
    let mut core = Core::new(&g.game, game, readings::RULES, (declared, keys));
    let (languages, tally) = (core.languages.clone(), &mut core.tally);
    let sections = sections(g);
    check_sections(lay, &sections, tally, diags);
    let (cfile, c) = (lay.cards.from.path, lay.cards.raw);
    let (symbols, sym_ids) = lower_symbols(cfile, c, &languages, tally, diags);
    let (cards, card_ids) = lower_cards(cfile, c, &sym_ids, &languages, tally, diags);
    check_deck((cfile, lay.from.at("setup")), &cards, (&g.game, &g.setup), diags);
    let (buildings, in_play) = buildings::lower_buildings(
        (lay.buildings.from.path, lay.from.at("rules")),
        lay.buildings.raw,
        &languages,
        (&g.game, &g.rules),
        tally,
        diags,
    );
    let mut fx = Lowering::new(DcHost { cards: &card_ids }, BTreeMap::new(), lay.interpretations.reading_names());
    let events = lower_events(lay, &mut fx, &languages, tally, diags);
    lower_readings(lay, &mut fx, &mut core, diags);
    core.choices = fx.tables.choices;
    check_documents(citations(lay, &sections), &core.documents, diags);
    let setup = g.setup.numbers().map(|(f, n)| ("setup", f, n));
    let numbers = setup.chain(g.rules.numbers().map(|(f, n)| ("rules", f, n)));
    core.params = common::param_values(PARAMS, numbers.clone());
    let places = common::param_places(PARAMS, numbers, |s| lay.from.at(s));
    common::check_defaults_agree(&lay.interpretations, &core.declared, &core.params, &places, diags);
    debug_assert_eq!(core.params.len(), PARAMS.len());
    let copies = (cards.iter().map(|c| c.copies).collect(), events.iter().map(|e| e.copies).collect());
    Rules { core, copies, symbols, cards, buildings, in_play, events }
}

/// `game.yaml`'s sections: where each one's diagnostics point, its
/// provenance and its number fields (the round has none).
fn sections(g: &GameFile) -> [Numbers<'_>; 4] {
    let (s, r) = (&g.setup, &g.rules);
    [
        g.game.numbers(),
        Numbers { what: "setup", at: position(&s.money), of: s, fields: ones(SetupSection::FIELDS) },
        Numbers { what: "rules", at: position(&r.goal_points), of: r, fields: ones(RulesSection::FIELDS) },
        Numbers { what: "round", at: (1, 1), of: &g.round, fields: Vec::new() },
    ]
}

/// The provenance and bounds of `game.yaml`'s sections `game` (its player
/// counts are checked alike for every game), `setup` and `rules`.
fn check_sections(lay: &Layers<'_>, sections: &[Numbers<'_>], tally: &mut NumberTally, diags: &mut Diagnostics) {
    let (from, g) = (&lay.from, &lay.game);
    let (sfile, rfile) = (from.at("setup"), from.at("rules"));
    lay.from.check(&sections[..1], tally, diags);
    let s = &g.setup;
    lay.from.check(&sections[1..2], tally, diags);
    bound(sfile, &s.money, "setup: money", within(0, MAX_NUMBER * 100), diags);
    // the ranges a reading's numbers are held to at set-up, at the catalog's
    bound(sfile, &s.hand, "setup: hand", readings::range_of("setup.hand"), diags);
    bound(sfile, &s.tokens, "setup: tokens", readings::range_of("setup.tokens"), diags);
    lay.from.check(&sections[2..3], tally, diags);
    for (name, v) in g.rules.numbers() {
        bound(rfile, v, &format!("rules: {name}"), readings::range_of(&format!("rules.{name}")), diags);
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
    let sym_ids = unique_ids(cfile, "symbol", c.symbols.iter().map(|s| &s.id), id_at, diags);
    let mut symbols = Vec::new();
    for s in &c.symbols {
        let what = check_record(cfile, "symbol", s, &ones(&["price", "points", "discs"]), languages, tally, diags);
        bound(cfile, &s.price, &format!("{what}: price"), within(0, MAX_NUMBER), diags);
        bound(cfile, &s.points, &format!("{what}: points"), within(0, MAX_NUMBER), diags);
        bound(cfile, &s.discs, &format!("{what}: discs"), within(0, 255), diags);
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
    let card_ids = unique_ids(cfile, "card", c.cards.iter().map(|x| &x.id), id_at, diags);
    let mut cards = Vec::new();
    for x in &c.cards {
        let what = check_record(cfile, "card", x, &ones(&["value", "copies"]), languages, tally, diags);
        bound(cfile, &x.copies, &format!("{what}: copies"), within(0, MAX_COPIES), diags);
        bound(cfile, &x.value, &format!("{what}: value"), within(0, MAX_NUMBER), diags);
        let kind = card_kind(cfile, x, &what, sym_ids, diags);
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

/// The deck deals every hand (said at the hand's size in `game.yaml`, the
/// number an overlay changes), and a hand can count its kinds.
fn check_deck(
    (cfile, sfile): (&str, &str),
    cards: &[CardDef],
    (gs, s): (&RawGameSection, &SetupSection),
    diags: &mut Diagnostics,
) {
    // in 64 bits: a copies count past its bound (a diagnostic already) cannot wrap it
    let deck: u64 = cards.iter().map(|c| u64::from(c.copies)).sum();
    let (max_players, hand) = (gs.max_players.value, s.hand.value);
    if deck < u64::from(max_players) * u64::from(hand) {
        let m = format!(
            "setup.hand is {hand}, but the deck ({cfile}) holds {deck} cards, fewer than {max_players} hands of {hand}"
        );
        diags.error(sfile, position(&s.hand), m);
    }
    if cards.len() > 48 {
        diags.error(cfile, (1, 1), format!("{} card kinds; a hand holds at most 48 kinds", cards.len()));
    }
}

/// The round (the declared steps, each one of the code's procedures), then
/// the interpretations against what the code declares, into `core` (its
/// turn, readings and the data they compile to, with `fx`, which compiled
/// the events: a replacement's `choose` options follow theirs).
fn lower_readings(lay: &Layers<'_>, fx: &mut Lowering<Dc, DcHost<'_>>, core: &mut Core<Dc>, diags: &mut Diagnostics) {
    let (declared, keys) = (core.declared, core.count_keys.clone());
    let round = lay.from.source("round");
    let steps = common::lower_turn(round.path, &lay.game.round.phases, line_of(round.text, "round:"), &declared, diags);
    core.turn = TurnPlan::new(&steps, &declared.required_indexes()).unwrap_or_default();
    let decl = Declared { turn: &steps, count_keys: &keys, ..declared };
    let event_ids = lay.events.ids();
    let tested = fx.tables.readings.clone();
    let (replacements, actions) = (&mut core.replacements, &mut core.actions);
    let mut lower_replace =
        |patch: Patch<'_, RawEffect>, from: &Source<'_>, diags: &mut Diagnostics| -> Option<Change> {
            // an added step runs its effect for the start player
            let (raw, entity) = match patch {
                Patch::Replace(rp, effect) => (effect, lookup(&event_ids, "event", &rp.event, from.path, diags)?),
                Patch::Condition(rp, _) => return common::no_condition(rp, "events", from, diags),
                Patch::Action { .. } => {
                    return declared::lower(patch, actions, (&ACTING, PROCEDURES), fx, from, diags);
                }
                Patch::Step { raw, .. } => (&raw.effect[..], 0),
            };
            replacements.push(fx.effects(from, raw, diags));
            Some(patch.change(entity, replacements.len() - 1))
        };
    let (ifile, entries) = (lay.interpretations.base.path, &lay.interpretations);
    core.interpretations =
        common::lower_interpretations(ifile, entries, &tested, &[], &decl, &mut lower_replace, diags);
}

/// The steps where the round waits for the seat on turn, where a house
/// rule's action may be taken: the placing phases (once the turn's card is
/// played) and the duels.
const ACTING: [usize; 3] = [Proc::Place1 as usize, Proc::Place2 as usize, Proc::Duel as usize];

/// Every citation of the catalog, with its file.
fn citations<'a>(lay: &'a Layers<'a>, sections: &[Numbers<'a>]) -> Vec<(&'a str, &'a common::RawCitation)> {
    let mut cites = lay.from.citations(sections);
    let (cfile, c) = (lay.cards.from.path, lay.cards.raw);
    let symbols = c.symbols.iter().flat_map(|x| x.source.iter());
    cites.extend(symbols.chain(c.cards.iter().flat_map(|x| x.source.iter())).map(|x| (cfile, x)));
    let (bfile, b) = (lay.buildings.from.path, lay.buildings.raw);
    cites.extend(b.buildings.iter().flat_map(|x| x.source.iter()).chain(&b.boards.source).map(|x| (bfile, x)));
    cites.extend(common::cites(&lay.events).chain(common::cites(&lay.interpretations)));
    cites
}

/// The event cards, their effects compiled in the shared language.
#[allow(clippy::type_complexity)]
fn lower_events(
    lay: &Layers<'_>,
    fx: &mut Lowering<Dc, DcHost<'_>>,
    languages: &[String],
    tally: &mut NumberTally,
    diags: &mut Diagnostics,
) -> Vec<EventDef> {
    let mut out = Vec::new();
    for (i, entry) in lay.events.iter().enumerate() {
        let (e, file) = (entry.raw, entry.from);
        let fields = [("copies", 1), ("effect", fx.registry.count_numbers(&e.effect))];
        let what = check_record(file.path, "event", e, &fields, languages, tally, diags);
        bound(file.path, &e.copies, &format!("{what}: copies"), within(0, MAX_COPIES), diags);
        let _ = id_at::<kind::EventCard>(i, file.path, position(&e.id), diags);
        let effect = fx.effects(&file, &e.effect, diags);
        out.push(EventDef {
            id: e.id.value.clone(),
            name: e.names.display(languages, &e.id.value).to_string(),
            copies: e.copies.value,
            effect,
        });
    }
    if out.iter().all(|e| e.copies == 0) {
        diags.error(lay.events.base.path, (1, 1), "the event deck is empty");
    }
    out
}
