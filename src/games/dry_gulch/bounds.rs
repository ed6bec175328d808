//! Checks of a Dry Gulch catalog's numbers: each within what the engine
//! represents (`MAX_COPIES`, `crate::catalog::MAX_NUMBER`),
//! the ranges and sums of `game.yaml`, and a set-up that every player count
//! can play (chips for the Residence, a free edge plot for each Residence).
//! Each diagnostic points at the number it is about.

use super::layers::Layers;
use super::readings::{ChipShortage, P, PARAMS, RANGES, WinThreshold};
use super::rules_data::{Plot, PlotInfo};
use super::schema::{Ability, PlotKind, RawBoard};
use crate::catalog::diag::Diagnostics;
use crate::catalog::{MAX_NUMBER, MAX_SEATS, at_most};
use crate::engine::Hook;
use crate::yaml::{Spanned, position};

/// The most copies of one card, or permits of one building, a catalog may
/// declare (and the most cards a substitution may ask for): the engine
/// counts a hand's cards of one kind, and a payment's, in a byte.
pub const MAX_COPIES: u32 = u8::MAX as u32;

/// A diagnostic when `value` (of the field `what`) is above `max`.
pub(super) fn check_bound(file: &str, at: (u64, u64), what: &str, value: u32, max: u32, diags: &mut Diagnostics) {
    let why = if max == MAX_COPIES {
        " (the engine counts the cards of one kind in a byte)"
    } else {
        " (the bound on every catalog number, far above any game's)"
    };
    at_most(file, at, what, value, max, why, diags);
}

/// The copies of each deck's cards add up to the count of it in
/// `components` (in 64 bits, so no catalog's counts wrap the sum).
pub(super) fn check_deck_totals(lay: &Layers<'_>, diags: &mut Diagnostics) {
    let g = &lay.game;
    // sums in 64 bits: a catalog's u32 counts cannot wrap them
    let mut agree = |total: u64, n: &Spanned<u32>, what: &str, field: &str| {
        if total != u64::from(n.value) {
            let m = format!("{what} add up to {total}, but components.{field} is {}", n.value);
            diags.error(lay.from.at("components"), position(n), m);
        }
    };
    let c = &g.components;
    let sum = |n: &mut dyn Iterator<Item = u32>| n.map(u64::from).sum::<u64>();
    agree(
        sum(&mut lay.resources.iter().map(|e| e.raw.copies.value)),
        &c.resource_cards,
        "resource copies",
        "resource_cards",
    );
    agree(sum(&mut lay.buildings.iter().map(|e| e.raw.permits.value)), &c.permits, "building permits", "permits");
    agree(sum(&mut lay.events.iter().map(|e| e.raw.copies.value)), &c.event_cards, "event copies", "event_cards");
}

/// A section's file and the place its diagnostics point at.
type Place<'a> = (&'a str, (u64, u64));

/// The numbers of `game.yaml`: bounds, ranges, the chip sums and the
/// Residence's chips. `at` gives a section's file and place.
pub(super) fn check_game_numbers<'a>(lay: &Layers<'a>, at: &dyn Fn(&str) -> Place<'a>, diags: &mut Diagnostics) {
    let g = &lay.game;
    let file_of = |section: &str| lay.from.at(section);
    // the player counts are the `game:` section's, checked alike for every game
    let chips = g.setup.chips.values().map(|n| ("setup", "chips", n));
    for (section, field, n) in chips.chain(super::catalog::section_numbers(g)) {
        check_bound(file_of(section), position(n), &format!("{section}.{field}"), n.value, MAX_NUMBER, diags);
    }
    let err_at = |section: &str, n: &Spanned<u32>, m: String, diags: &mut Diagnostics| {
        diags.error(file_of(section), position(n), m);
    };
    let (min_players, max_players) = (g.game.min_players.value, g.game.max_players.value);
    let missing: Vec<String> = (min_players..=max_players.min(MAX_SEATS))
        .filter(|n| !g.setup.chips.contains_key(n))
        .map(|n| n.to_string())
        .collect();
    if !missing.is_empty() {
        let (f, pos) = at("setup");
        let pos = g.setup.chips.values().next().map(position).unwrap_or(pos);
        diags.error(f, pos, format!("setup.chips gives no chip count for {} players", missing.join(", ")));
    }
    // a Residence takes its chips from the player's allotment at set-up:
    // the least allotment of the game's player counts
    let least =
        g.setup.chips.iter().filter(|(n, _)| (min_players..=max_players).contains(*n)).min_by_key(|(_, c)| c.value);
    let t = &g.turn;
    // the rules between the numbers a reading may set too, worded once
    // (`unplayable`); each at the number it is about
    let printed = |k: P| match k {
        P::EventsDiscarded => t.events_discarded.value,
        P::EventsRevealed => t.events_revealed.value,
        P::HandLimit => t.hand_limit.value,
        P::PermitsFromDeck => t.permits_from_deck.value,
        P::TurnCap => g.limits.turn_cap.value,
        P::ChipsOnResidence => g.setup.chips_on_residence.value,
        P::FixedWinThreshold => g.limits.fixed_win_threshold.value,
        _ => 1,
    };
    let ranged =
        RANGES.iter().filter_map(|r| Some((P::ALL[r.param], r.refuses(PARAMS[r.param], printed(P::ALL[r.param]))?)));
    let seat = least.map(|(players, c)| Seat { players: *players, chips: c.value, fixed_win: fixed_win(lay) });
    let related = unplayable(&printed, seat);
    for (k, why) in related.into_iter().chain(ranged) {
        let (section, n) = match k {
            P::ChipsOnResidence => ("setup", &g.setup.chips_on_residence),
            P::EventsDiscarded => ("turn", &t.events_discarded),
            P::HandLimit => ("turn", &t.hand_limit),
            P::PermitsFromDeck => ("turn", &t.permits_from_deck),
            P::FixedWinThreshold => ("limits", &g.limits.fixed_win_threshold),
            _ => ("limits", &g.limits.turn_cap),
        };
        err_at(section, n, why, diags);
    }
    let max_chips = g.setup.chips.values().map(|c| c.value).max().unwrap_or(0);
    let c = &g.components;
    if c.colours.value.checked_mul(max_chips) != Some(c.chips.value) {
        err_at(
            "components",
            &c.chips,
            format!(
                "components.chips is {} but {} colours × {} chips (the most any player count takes) is {}",
                c.chips.value,
                c.colours.value,
                max_chips,
                u64::from(c.colours.value) * u64::from(max_chips)
            ),
            diags,
        );
    }
    if c.colours.value < max_players {
        err_at(
            "components",
            &c.colours,
            format!("{} colours cannot seat {max_players} players", c.colours.value),
            diags,
        );
    }
}

/// A player's chips at a player count, for the rules between numbers that
/// turn on them, and what a fixed win is held to where it is played.
#[derive(Debug, Clone, Copy)]
pub(super) struct Seat {
    pub players: u32,
    pub chips: u32,
    /// `Some` where a game is won at `limits.fixed_win_threshold` with no
    /// building built short of its chips (`win-threshold: fixed`,
    /// `chip-shortage: cannot-build`): what a player's influence counts
    /// beside its chips.
    pub fixed_win: Option<Counted>,
}

/// What counts towards a player's influence beside his chips, where every
/// building takes a chip per point: the Residence's influence (its chips
/// are `setup.chips_on_residence`, whatever it counts) and the most an
/// influence card counts (it takes one chip).
#[derive(Debug, Clone, Copy)]
pub(super) struct Counted {
    pub residence: u32,
    pub card_most: u32,
}

impl Counted {
    /// The Residence's influence, and the influence of every event card
    /// (only an influence card's may be above 0).
    pub fn of(residence: u32, cards: impl Iterator<Item = u32>) -> Counted {
        Counted { residence, card_most: cards.max().unwrap_or(0) }
    }

    /// The most influence a player with `chips` can count: each chip off
    /// the Residence counts at most one point on a building or an
    /// influence card's, and the Residence its own.
    fn most(self, chips: u32, on_residence: u32) -> u64 {
        let per_chip = u64::from(self.card_most.max(1));
        u64::from(chips.saturating_sub(on_residence)) * per_chip + u64::from(self.residence)
    }
}

/// What a fixed win is held to where the catalog's default readings play
/// it (`win-threshold: fixed` with `chip-shortage: cannot-build`); `None`
/// where they do not: a configuration that plays it is held when it is set
/// up, and the default reads no fixed total.
fn fixed_win(lay: &Layers<'_>) -> Option<Counted> {
    let default = |id: &str, option: &str| {
        lay.interpretations.iter().any(|e| e.raw.id.value == id && e.raw.default.value == option)
    };
    let played = default(WinThreshold::ID, WinThreshold::OPTIONS[WinThreshold::Fixed as usize])
        && default(ChipShortage::ID, ChipShortage::OPTIONS[ChipShortage::CannotBuild as usize]);
    let residence = lay.buildings.iter().find(|e| e.raw.ability == Some(Ability::Residence));
    let cards = lay.events.iter().map(|e| e.raw.influence);
    played.then(|| Counted::of(residence.map_or(0, |e| e.raw.influence), cards))
}

/// The rules between a configuration's numbers, each problem with the
/// number it is about (the ranges of single numbers are `RANGES`): the
/// catalog's are checked at load (`check_game_numbers`, at the number's
/// place), and a configuration's, which readings may set, when a game is
/// set up (a `ConfigError::Numbers`). `seat` is a player's chips at the
/// player count set up, for the Residence's and a fixed win (the load
/// check takes the least of every player count, and holds a fixed win to
/// it where the catalog's defaults play one).
pub(super) fn unplayable(p: &dyn Fn(P) -> u32, seat: Option<Seat>) -> Vec<(P, String)> {
    let mut out = Vec::new();
    if p(P::EventsDiscarded) > p(P::EventsRevealed) {
        let why = format!("{} exceeds {}", P::EventsDiscarded.id(), P::EventsRevealed.id());
        out.push((P::EventsDiscarded, why));
    }
    let Some(Seat { players, chips, fixed_win }) = seat else { return out };
    let on_residence = p(P::ChipsOnResidence);
    if on_residence > chips {
        let id = P::ChipsOnResidence.id();
        out.push((
            P::ChipsOnResidence,
            format!("{id} is {on_residence}, more than the {chips} chips a player has at {players} players"),
        ));
    }
    if let Some(most) = fixed_win.map(|counted| counted.most(chips, on_residence))
        && u64::from(p(P::FixedWinThreshold)) > most
    {
        let (id, n) = (P::FixedWinThreshold.id(), p(P::FixedWinThreshold));
        let under = format!(
            "{}: {}, {}: {}",
            WinThreshold::ID,
            WinThreshold::OPTIONS[WinThreshold::Fixed as usize],
            ChipShortage::ID,
            ChipShortage::OPTIONS[ChipShortage::CannotBuild as usize]
        );
        out.push((
            P::FixedWinThreshold,
            format!("{id} is {n}, more than the {most} influence a player can count at {players} players ({under})"),
        ));
    }
    out
}

/// A Residence goes on a free edge plot that is not a corner, one per
/// player: the Town Hall's plot is taken from the start.
pub(super) fn check_residence_plots(
    bf: &str,
    bd: &RawBoard,
    plots: &[PlotInfo],
    town_hall_plot: Plot,
    max_players: u32,
    board_at: (u64, u64),
    diags: &mut Diagnostics,
) {
    let edge = |i: usize| plots[i].edge && !plots[i].bank && plots[i].kind != PlotKind::Corner;
    let free = (0..plots.len()).filter(|&i| edge(i) && i != town_hall_plot.index()).count() as u32;
    if free < max_players {
        let (at, why) = if edge(town_hall_plot.index()) {
            (position(&bd.town_hall_plot), ", one of them the Town Hall's (it stands there from the start)")
        } else {
            (board_at, "")
        };
        let all = free + u32::from(edge(town_hall_plot.index()));
        diags.error(
            bf,
            at,
            format!(
                "only {free} free edge plots for Residences ({all} edge plots{why}); {max_players} players need as many"
            ),
        );
    }
}
