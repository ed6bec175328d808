//! The buildings: each a grid of squares with its special fields, and the
//! boards that put them in play by player count.

use std::collections::{BTreeMap, BTreeSet};

use crate::catalog::common::{NumberTally, check_id, check_provenance, check_record, check_unique, unique_ids};
use crate::catalog::diag::Diagnostics;
use crate::catalog::folder::{RawGameSection, lookup};
use crate::engine::{Grid, id_at};
use crate::games::dodge_city::rules_data::*;
use crate::games::dodge_city::schema::*;
use crate::yaml::position;

/// The buildings' grids and the boards by player count.
pub(super) fn lower_buildings(
    (file, rfile): (&str, &str),
    raw: &BuildingsFile,
    languages: &[String],
    (gs, rules): (&RawGameSection, &RulesSection),
    tally: &mut NumberTally,
    diags: &mut Diagnostics,
) -> (Vec<BuildingDef>, BTreeMap<u32, Vec<Bld>>) {
    let ids = unique_ids(file, "building", raw.buildings.iter().map(|b| &b.id), id_at::<kind::Building>, diags);
    let (mut out, mut short) = (Vec::new(), Vec::new());
    for b in &raw.buildings {
        let what = check_record(file, "building", b, &[("squares", 1)], languages, tally, diags);
        let (grid, special) = lower_grid(file, b, &what, diags);
        if special < rules.control_fields.value {
            short.push(format!("{what} has {special}"));
        }
        out.push(BuildingDef {
            id: b.id.value.clone(),
            name: b.names.display(languages, &b.id.value).to_string(),
            grid,
        });
    }
    // said once, at the number control needs in `game.yaml` (what an overlay changes)
    if !short.is_empty() {
        let need = &rules.control_fields;
        let m = format!("rules.control_fields is {}, but in {file} {}", need.value, short.join(", "));
        diags.error(rfile, position(need), format!("{m} special fields"));
    }
    let in_play = lower_boards(file, &raw.boards, &ids, gs, tally, diags);
    (out, in_play)
}

/// A building's squares as a grid (`.` a square, `*` a special field, a
/// space none), with how many special fields it has.
fn lower_grid(file: &str, b: &RawBuilding, what: &str, diags: &mut Diagnostics) -> (Grid<kind::Square>, u32) {
    let rows = b.squares.len();
    let cols = b.squares.iter().map(|r| r.value.chars().count()).max().unwrap_or(0);
    let mut grid = match Grid::<kind::Square>::new(cols, rows) {
        Ok(g) if rows > 0 && cols > 0 => g,
        _ => {
            diags.error(
                file,
                position(&b.id),
                format!("{what}: a building is 1 to 256 squares, {rows} rows of up to {cols}"),
            );
            Grid::new(1, 1).expect("one square")
        }
    };
    let mut special = 0;
    for (r, row) in b.squares.iter().enumerate() {
        for (c, ch) in row.value.chars().enumerate() {
            let kind = match ch {
                '.' => PLAIN,
                '*' => {
                    special += 1;
                    SPECIAL
                }
                ' ' => NO_SQUARE,
                other => {
                    diags.error(
                        file,
                        position(row),
                        format!(
                            "{what}: `{other}` is no square; write `.` a square, `*` a special field, a space none"
                        ),
                    );
                    NO_SQUARE
                }
            };
            if let Some(s) = grid.at(c, r) {
                grid.set_field(s, kind);
            }
        }
        for c in row.value.chars().count()..cols {
            if let Some(s) = grid.at(c, r) {
                grid.set_field(s, NO_SQUARE);
            }
        }
    }
    (grid, special)
}

/// The boards (named sets of buildings) and the buildings in play for
/// each player count the game declares.
fn lower_boards(
    file: &str,
    boards: &BoardsSection,
    ids: &BTreeMap<String, Bld>,
    gs: &RawGameSection,
    tally: &mut NumberTally,
    diags: &mut Diagnostics,
) -> BTreeMap<u32, Vec<Bld>> {
    tally.add(check_provenance(file, "boards", (1, 1), &boards.source, &boards.assumed, &[("by_players", 1)], diags));
    check_unique(file, "board", boards.boards.iter().map(|b| &b.id), diags);
    let mut board_ids: BTreeMap<String, Vec<Bld>> = BTreeMap::new();
    for bd in &boards.boards {
        check_id(file, &bd.id, diags);
        let bl: Vec<Bld> = bd.buildings.iter().filter_map(|b| lookup(ids, "building", b, file, diags)).collect();
        board_ids.insert(bd.id.value.clone(), bl);
    }
    let mut in_play = BTreeMap::new();
    for (n, list) in &boards.by_players {
        let mut set = BTreeSet::new();
        for b in list {
            if let Some(bl) = board_ids.get(&b.value) {
                set.extend(bl.iter().copied());
            } else {
                lookup(
                    &BTreeMap::<String, ()>::new()
                        .into_iter()
                        .chain(board_ids.keys().map(|k| (k.clone(), ())))
                        .collect(),
                    "board",
                    b,
                    file,
                    diags,
                );
            }
        }
        in_play.insert(*n, set.into_iter().collect::<Vec<_>>());
    }
    for n in gs.min_players.value..=gs.max_players.value.min(crate::catalog::MAX_SEATS) {
        if !in_play.contains_key(&n) {
            diags.error(file, (1, 1), format!("boards: `by_players` names no boards for {n} players"));
        }
    }
    in_play
}
