//! Lowering the parts of `components.yaml` and `cards.yaml`: commodities,
//! locations and their docks, the dice, the cards and the Super Deals.

use std::collections::{BTreeMap, BTreeSet};

use super::catalog::{Files, lookup, small};
use super::rules_data::*;
use super::schema::*;
use crate::catalog::common::roles::{self, Need};
use crate::catalog::common::{
    Entry, Key, NumberTally, check_id, check_names, check_provenance, check_record, check_unique, id_table,
};
use crate::catalog::diag::Diagnostics;
use crate::engine::{Id, id_at};
use crate::yaml::{Spanned, position};

/// The most copies of one card type, in `cards.yaml` or set by a reading.
pub(super) const MAX_CARD_COPIES: u32 = 60;

pub(super) type Places =
    (Vec<CubeDef>, BTreeMap<String, Id<Cube>>, Id<Cube>, Id<Cube>, Vec<LocDef>, BTreeMap<String, usize>);

/// The commodities and the locations, checked against each other (a
/// commodity starts on a location, a planet mines a commodity).
pub(super) fn lower_places(
    f: &Files<'_>,
    c: &ComponentsFile,
    langs: &[String],
    max: u32,
    tally: &mut NumberTally,
    diags: &mut Diagnostics,
) -> Places {
    let cm = &c.commodities;
    check_unique(f.comp, "commodity", cm.entries.iter().map(|e| &e.id), diags);
    check_unique(f.comp, "location", c.locations.entries.iter().map(|e| &e.id), diags);
    let at = cm.entries.first().map_or((1, 1), |e| position(&e.id));
    tally.add(check_provenance(
        f.comp,
        "commodities",
        at,
        &cm.source,
        &cm.assumed,
        &[("copies", cm.entries.len())],
        diags,
    ));
    let lat = c.locations.entries.first().map_or((1, 1), |e| position(&e.id));
    let l = &c.locations;
    tally.add(check_provenance(f.comp, "locations", lat, &l.source, &l.assumed, &[("docks", l.entries.len())], diags));
    let (cube_ids, scrap, gold) = commodity_ids(f, cm, langs, at, diags);
    let loc_ids: BTreeMap<String, usize> = l.entries.iter().enumerate().map(|(i, e)| (e.id.value.clone(), i)).collect();
    let cubes = cm
        .entries
        .iter()
        .map(|e| CubeDef {
            id: e.id.value.clone(),
            name: e.names.display(langs, &e.id.value).to_string(),
            copies: small(f.comp, &e.copies, 200, "copies", diags),
            home: if e.starts.value == "space" {
                Home::Space
            } else {
                lookup(&loc_ids, "location", &e.starts, f.comp, diags).map_or(Home::Space, Home::Loc)
            },
        })
        .collect();
    let locations = lower_locations(f, l, &cube_ids, langs, diags);
    for seat in 0..max as usize {
        if !locations.iter().any(|l| l.kind == LocKind::Home(seat)) {
            diags.error(f.comp, lat, format!("no home base for player {}", seat + 1));
        }
    }
    (cubes, cube_ids, scrap, gold, locations, loc_ids)
}

/// The commodities' ids, and the commodities in the roles `scrap` and
/// `gold` (exactly one each; no other role).
fn commodity_ids(
    f: &Files<'_>,
    cm: &Listed<RawCommodity>,
    langs: &[String],
    at: (u64, u64),
    diags: &mut Diagnostics,
) -> (BTreeMap<String, Id<Cube>>, Id<Cube>, Id<Cube>) {
    for e in &cm.entries {
        check_id(f.comp, &e.id, diags);
        check_names(f.comp, &e.names, langs, diags);
    }
    let cube_ids = id_table(cm.entries.iter().map(|e| (f.comp, &e.id)), id_at, diags);
    let needs = [
        Need { role: "scrap", id: "scrap", why: "what always goes back to space" },
        Need { role: "gold", id: "gold", why: "what the Super Deals pay and the score counts" },
    ];
    let carriers = cm.entries.iter().map(|e| (f.comp, position(&e.id), e.role.as_ref().map(|r| r.value.as_str())));
    let found = roles::one_each("role", "commodity", carriers, &needs, (f.comp, at), diags);
    let [scrap, gold] = [0, 1].map(|n| found[n].and_then(|i| Id::new(i).ok()).unwrap_or(Id::ZERO));
    for e in &cm.entries {
        if let Some(r) = &e.role
            && r.value != "scrap"
            && r.value != "gold"
        {
            diags.error(f.comp, position(r), format!("unknown commodity role `{}`; roles: scrap, gold", r.value));
        }
    }
    (cube_ids, scrap, gold)
}

/// The locations, each with its kind and its docks (numbered in order).
fn lower_locations(
    f: &Files<'_>,
    l: &Listed<RawLocation>,
    cube_ids: &BTreeMap<String, Id<Cube>>,
    langs: &[String],
    diags: &mut Diagnostics,
) -> Vec<LocDef> {
    let mut locations = Vec::new();
    let mut first_dock = 0;
    for e in &l.entries {
        check_id(f.comp, &e.id, diags);
        check_names(f.comp, &e.names, langs, diags);
        let kind = location_kind(f, e, cube_ids, diags);
        let docks = small(f.comp, &e.docks, 12, "docks", diags).max(1) as usize;
        locations.push(LocDef {
            id: e.id.value.clone(),
            name: e.names.display(langs, &e.id.value).to_string(),
            kind,
            first_dock,
            docks,
        });
        first_dock += docks;
    }
    locations
}

/// A location's kind: a planet names the commodity it mines, a home base
/// its seat.
fn location_kind(
    f: &Files<'_>,
    e: &RawLocation,
    cube_ids: &BTreeMap<String, Id<Cube>>,
    diags: &mut Diagnostics,
) -> LocKind {
    match e.kind.value.as_str() {
        "junction" => LocKind::Junction,
        "haberdashery" => LocKind::Haberdashery,
        "bank" => LocKind::Bank,
        "planet" => match &e.mines {
            Some(m) => LocKind::Planet(lookup(cube_ids, "commodity", m, f.comp, diags).unwrap_or(Id::ZERO)),
            None => {
                diags.error(
                    f.comp,
                    position(&e.kind),
                    format!("planet `{}` names no commodity it `mines`", e.id.value),
                );
                LocKind::Planet(Id::ZERO)
            }
        },
        "home" => match &e.seat {
            Some(s) if (1..=5).contains(&s.value) => LocKind::Home(s.value as usize - 1),
            _ => {
                diags.error(f.comp, position(&e.kind), format!("home base `{}` needs `seat:` 1 to 5", e.id.value));
                LocKind::Home(0)
            }
        },
        other => {
            diags.error(
                f.comp,
                position(&e.kind),
                format!("unknown location kind `{other}`; kinds: junction, planet, haberdashery, bank, home"),
            );
            LocKind::Bank
        }
    }
}

pub(super) fn lower_docks(
    f: &Files<'_>,
    c: &ComponentsFile,
    locations: &[LocDef],
    _cubes: &BTreeMap<String, Id<Cube>>,
    tally: &mut NumberTally,
    diags: &mut Diagnostics,
) -> (Vec<DockDef>, usize) {
    let d = &c.dice;
    let fields = [("faces", 1), ("gold_faces", 1), ("place", d.entries.len()), ("docks", d.docks.len())];
    tally.add(check_provenance(f.comp, "dice", position(&d.faces), &d.source, &d.assumed, &fields, diags));
    let junctions: Vec<usize> = (0..locations.len()).filter(|&i| locations[i].kind == LocKind::Junction).collect();
    if junctions.len() != 1 {
        diags.error(
            f.comp,
            (1, 1),
            format!("exactly one location needs `kind: junction`, {} have it", junctions.len()),
        );
    }
    let junction = junctions.first().copied().unwrap_or(0);
    let mut docks = Vec::new();
    for (i, l) in locations.iter().enumerate() {
        for _ in 0..l.docks {
            docks.push(DockDef { loc: i, places: Vec::new() });
        }
    }
    let places = d.entries.len() as u32;
    for e in &d.docks {
        let n = e.dock.value as usize;
        let Some(l) = locations.get(junction).filter(|l| (1..=l.docks).contains(&n)) else {
            diags.error(f.comp, position(&e.dock), format!("the Junction has no dock {n}"));
            continue;
        };
        for p in &e.places {
            if !(1..=places).contains(&p.value) {
                diags.error(f.comp, position(p), format!("no dice place {}; places are 1 to {places}", p.value));
            }
        }
        if e.places.is_empty() {
            diags.error(f.comp, position(&e.dock), format!("Junction dock {n} touches no dice place"));
        }
        docks[l.first_dock + n - 1].places = e.places.iter().map(|p| (p.value.max(1) - 1) as u8).collect();
    }
    if let Some(l) = locations.get(junction) {
        for n in 1..=l.docks {
            if docks[l.first_dock + n - 1].places.is_empty() && !d.docks.iter().any(|e| e.dock.value as usize == n) {
                diags.error(f.comp, position(&d.faces), format!("`dice.docks` says nothing of Junction dock {n}"));
            }
        }
    }
    (docks, junction)
}

pub(super) fn lower_dice(
    f: &Files<'_>,
    d: &RawDice,
    cubes: &BTreeMap<String, Id<Cube>>,
    diags: &mut Diagnostics,
) -> Vec<(Id<Cube>, u8)> {
    let n = d.entries.len() as u32;
    let mut seen = BTreeSet::new();
    d.entries
        .iter()
        .map(|e| {
            let c = lookup(cubes, "commodity", &e.commodity, f.comp, diags).unwrap_or(Id::ZERO);
            if !(1..=n).contains(&e.place.value) || !seen.insert(e.place.value) {
                diags.error(
                    f.comp,
                    position(&e.place),
                    format!("dice place {} is outside 1 to {n} or taken twice", e.place.value),
                );
            }
            (c, (e.place.value.clamp(1, n.max(1)) - 1) as u8)
        })
        .collect()
}

fn price(
    f: &str,
    m: &BTreeMap<Key, Spanned<u32>>,
    cubes: &BTreeMap<String, Id<Cube>>,
    diags: &mut Diagnostics,
) -> Price {
    m.iter()
        .filter_map(|(k, n)| lookup(cubes, "commodity", &k.0, f, diags).map(|c| (c, small(f, n, 50, "a price", diags))))
        .collect()
}

pub(super) fn lower_cards(
    entries: &[Entry<'_, RawCard>],
    cubes: &BTreeMap<String, Id<Cube>>,
    langs: &[String],
    max: u32,
    tally: &mut NumberTally,
    diags: &mut Diagnostics,
) -> Vec<CardDef> {
    entries
        .iter()
        .map(|e| {
            let (c, file) = (e.raw, e.from.path);
            let n_effect = crate::lang::Registry::<super::effects::Rdj>::default().count_numbers(&c.effect);
            let fields = [("copies", 1), ("starting", 1), ("cost", c.cost.len()), ("points", 1), ("effect", n_effect)];
            let what = check_record(file, "card", c, &fields, langs, tally, diags);
            let class = match c.class.value.as_str() {
                "crew" => Class::Crew,
                "officer" => Class::Officer,
                "boost" => Class::Boost,
                other => {
                    diags.error(
                        file,
                        position(&c.class),
                        format!("unknown card class `{other}`; classes: crew, officer, boost"),
                    );
                    Class::Crew
                }
            };
            let ability = match c.ability.value.as_str() {
                "none" => Ability::None,
                "cargo" => Ability::Cargo,
                "mine" => Ability::Mine,
                "displace" => Ability::Displace,
                "swap" => Ability::Swap,
                "salvage" => Ability::Salvage,
                "trade" => Ability::Trade,
                other => {
                    diags.error(
                        file,
                        position(&c.ability),
                        format!(
                            "unknown ability `{other}`; abilities: none, cargo, mine, displace, swap, salvage, trade"
                        ),
                    );
                    Ability::None
                }
            };
            if c.cost.is_empty() {
                diags.error(file, position(&c.id), format!("{what} has no cost"));
            }
            let copies = small(file, &c.copies, MAX_CARD_COPIES, "copies", diags);
            let starting = small(file, &c.starting, 10, "starting", diags);
            if starting * max > copies {
                diags.error(
                    file,
                    position(&c.starting),
                    format!("{what}: {starting} each for {max} players is more than its {copies} copies"),
                );
            }
            CardDef {
                id: c.id.value.clone(),
                name: c.names.display(langs, &c.id.value).to_string(),
                class,
                ability,
                copies,
                starting,
                cost: c.cost.iter().map(|m| price(file, m, cubes, diags)).collect(),
                points: small(file, &c.points, 50, "points", diags),
            }
        })
        .collect()
}

pub(super) fn lower_deals(
    f: &Files<'_>,
    d: &RawDeals,
    cubes: &BTreeMap<String, Id<Cube>>,
    langs: &[String],
    tally: &mut NumberTally,
    diags: &mut Diagnostics,
) -> (Vec<PileDef>, Vec<TileDef>, (u32, u32)) {
    let at = d.piles.first().map_or((1, 1), |p| position(&p.id));
    let prices: usize = d.piles.iter().map(|p| p.prices.len()).sum();
    let fields = [("gold", d.piles.len()), ("tiles", d.piles.len()), ("prices", prices)];
    tally.add(check_provenance(f.comp, "super_deals", at, &d.source, &d.assumed, &fields, diags));
    if d.piles.len() != 2 {
        diags.error(f.comp, at, format!("the Super Deals come in two piles, not {}", d.piles.len()));
    }
    check_unique(f.comp, "super deal pile", d.piles.iter().map(|p| &p.id), diags);
    let (mut piles, mut tiles) = (Vec::new(), Vec::new());
    for (i, p) in d.piles.iter().enumerate() {
        check_id(f.comp, &p.id, diags);
        check_names(f.comp, &p.names, langs, diags);
        if p.prices.is_empty() {
            diags.error(f.comp, position(&p.id), format!("pile `{}` has no prices", p.id.value));
        }
        let mut ids = Vec::new();
        for m in &p.prices {
            match Id::new(tiles.len()) {
                Ok(id) => ids.push(id),
                Err(o) => diags.error(f.comp, position(&p.id), o.to_string()),
            }
            tiles.push(TileDef { pile: i, price: price(f.comp, m, cubes, diags) });
        }
        piles.push(PileDef {
            id: p.id.value.clone(),
            name: p.names.display(langs, &p.id.value).to_string(),
            gold: small(f.comp, &p.gold, 50, "gold", diags),
            tiles: ids,
        });
    }
    let mut n = |i: usize| d.piles.get(i).map_or(0, |p| small(f.comp, &p.tiles, 30, "tiles", diags));
    let counts = (n(0), n(1));
    (piles, tiles, counts)
}
