//! The board: its blocks of plots along the streets, the bank's plot and
//! the Town Hall's, checked (ids, bounds, room for every Residence).

use crate::catalog::MAX_NUMBER;
use crate::catalog::common::{NumberTally, check_id, check_provenance, check_unique};
use crate::catalog::diag::Diagnostics;
use crate::engine::{Blocks, Id};
use crate::games::dry_gulch::bounds::{check_bound, check_residence_plots};
use crate::games::dry_gulch::layers::Layers;
use crate::games::dry_gulch::rules_data::{Plot, PlotInfo, id_at, kind};
use crate::games::dry_gulch::schema::RawBoard;
use crate::yaml::position;

/// The board as `Rules` holds it.
pub(super) struct Board {
    pub(super) plots: Vec<PlotInfo>,
    pub(super) board: Blocks<kind::Plot>,
    pub(super) bank_plot: Plot,
    pub(super) town_hall_plot: Plot,
}

/// The plots, block by block, then the bank's plot; the streets they
/// line; the Town Hall's plot.
pub(super) fn lower_board(lay: &Layers<'_>, tally: &mut NumberTally, diags: &mut Diagnostics) -> Board {
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
    let town_hall_plot = town_hall_plot(bf, bd, &plots, bank_plot, diags);
    check_residence_plots(bf, bd, &plots, town_hall_plot, lay.game.game.max_players.value, board_at, diags);
    Board { plots, board, bank_plot, town_hall_plot }
}

/// The Town Hall's plot: a known plot, not the bank's.
fn town_hall_plot(bf: &str, bd: &RawBoard, plots: &[PlotInfo], bank_plot: Plot, diags: &mut Diagnostics) -> Plot {
    match plots.iter().position(|pl| pl.id == bd.town_hall_plot.value) {
        Some(i) if i != bank_plot.index() => Plot::new(i).unwrap_or(Id::ZERO),
        Some(_) => {
            diags.error(bf, position(&bd.town_hall_plot), "the Town Hall cannot stand on the bank plot");
            Id::ZERO
        }
        None => {
            diags.error(bf, position(&bd.town_hall_plot), format!("unknown plot `{}`", bd.town_hall_plot.value));
            Id::ZERO
        }
    }
}
