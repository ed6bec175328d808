//! The report's charts, each an SVG document drawn by plotters' SVG
//! backend: the readings' shares with their intervals, the matrix as a
//! colour grid, and per configuration a histogram of game lengths beside
//! the seats' win rates.

use std::collections::BTreeMap;

use plotters::prelude::*;

use super::{ConfigRun, ReadingRow, SensitivityRow};
use crate::interp::Estimate;
use crate::matrix::{Cell, Matrix};

const BAR: RGBColor = RGBColor(70, 110, 170);
const WHISKER: RGBColor = RGBColor(20, 20, 20);

/// The colour of a matrix cell (the page's legend uses the same).
pub fn cell_colour(c: Cell) -> RGBColor {
    match c {
        Cell::Same => RGBColor(225, 228, 232),
        Cell::Different => RGBColor(90, 150, 220),
        Cell::Fails => RGBColor(235, 160, 40),
        Cell::Illegal => RGBColor(200, 40, 40),
    }
}

pub fn hex(c: RGBColor) -> String {
    format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2)
}

/// Draws into an SVG string of `w`×`h` pixels; a drawing error becomes
/// the text of the error (the page shows it instead of a chart).
fn svg(
    w: u32,
    h: u32,
    draw: impl FnOnce(&DrawingArea<SVGBackend, plotters::coord::Shift>) -> Result<(), String>,
) -> Result<String, String> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (w, h)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        draw(&root)?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(out)
}

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// Horizontal bars: each reading's share of paired games whose outcome
/// changes, with its 95% interval as a whisker.
pub fn readings_chart(rows: &[ReadingRow]) -> Result<String, String> {
    let labels: Vec<String> = rows.iter().map(|r| format!("{}: {}", r.interpretation, r.option)).collect();
    let shares: Vec<Estimate> = rows.iter().map(|r| r.share).collect();
    shares_chart(&labels, &shares, "share of paired games whose outcome changes (95% interval)")
}

/// Horizontal bars: each group of assumed numbers' share of seeds whose
/// outcome its largest change moves, with its 95% interval.
pub fn sensitivity_chart(rows: &[SensitivityRow]) -> Result<String, String> {
    let labels: Vec<String> = rows.iter().map(|r| format!("{} {}", r.group, r.change)).collect();
    let shares: Vec<Estimate> = rows.iter().map(|r| r.changed).collect();
    shares_chart(&labels, &shares, "share of seeds whose outcome the change moves (95% interval)")
}

/// Labelled horizontal bars of shares in [0, 1], each with its interval.
fn shares_chart(labels: &[String], shares: &[Estimate], caption: &str) -> Result<String, String> {
    let n = shares.len().max(1);
    let h = 70 + 20 * n as u32;
    svg(900, h, |root| {
        let mut chart = ChartBuilder::on(root)
            .margin(10)
            .x_label_area_size(30)
            .y_label_area_size(330)
            .caption(caption, ("sans-serif", 14))
            .build_cartesian_2d(0f64..1f64, 0f64..n as f64)
            .map_err(err)?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .y_labels(n * 2 + 1)
            .label_style(("sans-serif", 13))
            .y_label_formatter(&|y| {
                let k = (n as f64 - y - 0.5).round();
                let ok = (y.fract() - 0.5).abs() < 1e-6 && k >= 0.0;
                if ok { labels.get(k as usize).cloned().unwrap_or_default() } else { String::new() }
            })
            .x_label_formatter(&|x| format!("{:.0}%", x * 100.0))
            .draw()
            .map_err(err)?;
        let y = |k: usize| n as f64 - k as f64 - 0.5;
        chart
            .draw_series(
                shares
                    .iter()
                    .enumerate()
                    .map(|(k, e)| Rectangle::new([(0.0, y(k) - 0.32), (e.value, y(k) + 0.32)], BAR.filled())),
            )
            .map_err(err)?;
        chart
            .draw_series(
                shares
                    .iter()
                    .enumerate()
                    .map(|(k, e)| ErrorBar::new_horizontal(y(k), e.low, e.value, e.high, WHISKER.stroke_width(1), 8)),
            )
            .map_err(err)?;
        Ok(())
    })
}

/// The matrix as a grid: a row per scenario, a column per reading's option.
pub fn matrix_chart(m: &Matrix) -> Result<String, String> {
    let (rows, cols) = (m.rows.len().max(1), m.columns.len().max(1));
    let cell = if rows > 60 { 9 } else { 14 };
    let (w, h) = (340 + cell * cols as u32, 220 + cell * rows as u32);
    let names: Vec<String> =
        m.rows.iter().map(|(f, _)| f.rsplit('/').next().unwrap_or(f).trim_end_matches(".yaml").to_string()).collect();
    let columns: Vec<String> = m.columns.iter().map(|(i, o)| format!("{i}: {o}")).collect();
    svg(w.max(500), h, |root| {
        let mut chart = ChartBuilder::on(root)
            .margin(10)
            .x_label_area_size(200)
            .y_label_area_size(320)
            .build_cartesian_2d(0f64..cols as f64, 0f64..rows as f64)
            .map_err(err)?;
        let centre = |v: f64, len: usize| (v.fract() - 0.5).abs() < 1e-6 && v >= 0.0 && (v as usize) < len;
        chart
            .configure_mesh()
            .disable_mesh()
            .x_labels(cols * 2 + 1)
            .y_labels(rows * 2 + 1)
            .x_label_style(("sans-serif", 10).into_font().transform(FontTransform::Rotate90))
            .y_label_style(("sans-serif", 10))
            .x_label_formatter(&|x| {
                if centre(*x, cols) { columns.get(*x as usize).cloned().unwrap_or_default() } else { String::new() }
            })
            .y_label_formatter(&|y| {
                let k = rows as f64 - y - 0.5;
                if centre(*y, rows) {
                    names.get(k.round() as usize).cloned().unwrap_or_default()
                } else {
                    String::new()
                }
            })
            .draw()
            .map_err(err)?;
        chart
            .draw_series(m.rows.iter().enumerate().flat_map(|(r, (_, cells))| {
                let top = (rows - r) as f64;
                cells.iter().enumerate().map(move |(c, x)| {
                    Rectangle::new(
                        [(c as f64 + 0.05, top - 0.95), (c as f64 + 0.95, top - 0.05)],
                        cell_colour(*x).filled(),
                    )
                })
            }))
            .map_err(err)?;
        Ok(())
    })
}

/// Bins of a length histogram: about 20 of equal width over the lengths seen.
fn bins(lengths: &BTreeMap<u32, u64>) -> (Vec<(u32, u32, u64)>, u64) {
    let (Some(lo), Some(hi)) = (lengths.keys().next(), lengths.keys().next_back()) else { return (Vec::new(), 0) };
    let width = ((hi - lo) / 20 + 1).max(1);
    let mut out: Vec<(u32, u32, u64)> = Vec::new();
    for (len, n) in lengths {
        let start = lo + (len - lo) / width * width;
        match out.last_mut() {
            Some(b) if b.0 == start => b.2 += n,
            _ => out.push((start, start + width, *n)),
        }
    }
    let top = out.iter().map(|b| b.2).max().unwrap_or(0);
    (out, top)
}

/// One configuration: the histogram of game lengths (turns) on the left,
/// each seat's win rate with its 95% interval on the right.
pub fn config_chart(c: &ConfigRun) -> Result<String, String> {
    let (bins, top) = bins(&c.lengths);
    let lo = bins.first().map_or(0, |b| b.0);
    let hi = bins.last().map_or(1, |b| b.1);
    svg(760, 220, |root| {
        let (left, right) = root.split_horizontally(440);
        let mut hist = ChartBuilder::on(&left)
            .margin(8)
            .caption(format!("game length, turns ({} games)", c.games), ("sans-serif", 13))
            .x_label_area_size(28)
            .y_label_area_size(40)
            .build_cartesian_2d(lo as f64..hi as f64, 0f64..(top.max(1) as f64 * 1.1))
            .map_err(err)?;
        hist.configure_mesh().disable_x_mesh().x_labels(6).y_labels(5).draw().map_err(err)?;
        hist.draw_series(
            bins.iter().map(|(a, b, n)| Rectangle::new([(*a as f64, 0.0), (*b as f64, *n as f64)], BAR.filled())),
        )
        .map_err(err)?;
        let seats = c.win_rates.len().max(1);
        let mut wins = ChartBuilder::on(&right)
            .margin(8)
            .caption("win rate by seat (95% interval)", ("sans-serif", 13))
            .x_label_area_size(28)
            .y_label_area_size(40)
            .build_cartesian_2d(0f64..seats as f64, 0f64..1f64)
            .map_err(err)?;
        wins.configure_mesh()
            .disable_x_mesh()
            .x_labels(seats * 2 + 1)
            .x_label_formatter(&|x| {
                if (x.fract() - 0.5).abs() < 1e-6 { format!("p{}", *x as usize + 1) } else { String::new() }
            })
            .y_label_formatter(&|y| format!("{:.0}%", y * 100.0))
            .y_labels(5)
            .draw()
            .map_err(err)?;
        let bar =
            |k: usize, e: &Estimate| Rectangle::new([(k as f64 + 0.2, 0.0), (k as f64 + 0.8, e.value)], BAR.filled());
        wins.draw_series(c.win_rates.iter().enumerate().map(|(k, e)| bar(k, e))).map_err(err)?;
        wins.draw_series(
            c.win_rates.iter().enumerate().map(|(k, e)| {
                ErrorBar::new_vertical(k as f64 + 0.5, e.low, e.value, e.high, WHISKER.stroke_width(1), 10)
            }),
        )
        .map_err(err)?;
        Ok(())
    })
}
