//! Red Dog Junction (Waterworks, 2026): the rules over the engine core.
//!
//! | rule | source | where |
//! |---|---|---|
//! | set-up: cubes, gold to the box, starting crew and gold, deck, display, Super Deal piles, dice | red-dog-junction-en Setup | `rules.rs` `State::setup` |
//! | two actions a turn, the same one twice allowed | On Your Turn | `play.rs` `start_action` |
//! | move, taxi, docks, never another's home base | Actions: Move; Game Concepts: Docks | `play.rs` `do_move` |
//! | load and unload at the home base | Actions: Load/Unload | `Phase::Loading` |
//! | buy from the display with storage, refill | Actions: Purchase a Card; FAQ | `do_buy`, `refill` |
//! | Super Deal from cargo at the Haberdashery | Actions: Complete Super Deal | `do_deal` |
//! | mine, displace, swap, salvage, trade and nudge, scaled by crew | Crew Actions | `do_mine`, `do_displace`, `Phase::{Swap, Salvage, Agents}` |
//! | jettison to capacity at the end of a turn | End of Turn; Game Concepts | `after`, `Phase::Jettison` |
//! | the end: countdown after the bank's last gold, the deck's last card | End of Game; FAQ | `after`, `end_turn`, `refill` |
//! | scoring and both tie-breaks as a ranked outcome | End of Game; FAQ | `State::outcome` |
//! | solo: three actions for p1; the Automa (seat p2) takes the last display card and reacts to its type | Solo Play | `automa.rs` |
//! | Trail Boss and Posse set-ups: an Officer each and an extra crew pick; a pick-and-pass draft | Gameplay Variants | `draft.rs` |
//! | (not a rule) the random player's weights over the legal actions | — | `policy.rs` |
//! | Officer actions and Boosts: their (assumed) effects in the shared effect language | On Your Turn; Actions: Use a Boost Card | `card_actions.rs`, `effects.rs` |
//!
//! Every ambiguity is an interpretation in
//! `rules/red-dog-junction/interpretations.yaml`; the code branches only on
//! the typed hooks of `readings` and on parameters.

mod actions;
mod automa;
mod card_actions;
pub mod catalog;
mod contract;
mod declared;
mod draft;
pub mod effects;
pub mod invariants;
mod layers;
mod lower_parts;
mod play;
mod policy;
mod query;
pub mod readings;
mod repeats;
pub mod rules;
pub mod rules_data;
pub mod scenario_io;
pub mod schema;
mod scoring;
mod zones;

pub use rules::{Action, Event, State};
pub use rules_data::Rules;

use crate::engine::Imbalance;
use rules_data::{Cube, Rules as R};

pub const ID: &str = "red-dog-junction";

/// Red Dog Junction's entry in the game registry.
pub struct RedDogJunction;

impl super::Entry for RedDogJunction {
    super::entry_fields!(effects::Rdj, catalog::load);
    fn entities(r: &Rules) -> Vec<(&'static str, usize)> {
        vec![
            ("commodities", r.cubes.len()),
            ("locations", r.locations.len()),
            ("cards", r.cards.len()),
            ("super deals", r.tiles.len()),
        ]
    }
    fn replaced(r: &Rules, e: usize) -> Option<&str> {
        r.cards.get(e).map(|c| c.id.as_str())
    }
}

pub(crate) fn describe_imbalance(rules: &R, e: Imbalance<Cube>) -> String {
    match e {
        Imbalance::Count { kind, found, expected } => {
            format!("{} {} cubes counted, {expected} exist", found, rules.cube(kind).name)
        }
        Imbalance::Unknown { index } => format!("a cube of unknown commodity {index}"),
        Imbalance::Misplaced { kind, zone } => {
            format!("a {} cube in {zone}, which does not take it", rules.cube(kind).name)
        }
    }
}

pub fn describe_action(rules: &Rules, a: &Action) -> String {
    let c = |x: crate::engine::Id<Cube>| rules.cubes.get(x.index()).map_or("?", |d| d.name.as_str()).to_string();
    match *a {
        Action::Roll(v) => format!("a die rolls {v}"),
        Action::First(s) => format!("the die picks p{} to go first", s + 1),
        Action::Move(None) => "move to space".into(),
        Action::Move(Some(d)) if d.index() < rules.docks.len() => format!("move to {}", rules.dock_name(d)),
        Action::Move(Some(_)) => "move to an unknown dock".into(),
        Action::Load => "load/unload at the home base".into(),
        Action::LoadCube(x) => format!("load one {}", c(x)),
        Action::UnloadCube(x) => format!("unload one {}", c(x)),
        Action::Mine(n) => format!("mine {n}"),
        Action::Displace(m) => {
            let who: Vec<String> = (0..8).filter(|s| m & (1 << s) != 0).map(|s| format!("p{}", s + 1)).collect();
            format!("displace {}", who.join(", "))
        }
        Action::Swap(w) => format!("swap with p{}", u32::from(w) + 1),
        Action::SwapGive(x) => format!("give one {}", c(x)),
        Action::SwapTake(x) => format!("take one {}", c(x)),
        Action::Salvage => "salvage".into(),
        Action::SalvageCube(x) => format!("salvage one {}", c(x)),
        Action::Agents => "use the Agents".into(),
        Action::Trade { give, take } => format!("trade {} for {}", c(give), c(take)),
        Action::Nudge { place, up } => {
            let which = place.map_or("the gold die".to_string(), |p| format!("the die on place {}", u32::from(p) + 1));
            format!("nudge {which} {}", if up { "up" } else { "down" })
        }
        Action::Buy { slot, way } => format!("buy display card {} (cost {})", u32::from(slot) + 1, u32::from(way) + 1),
        Action::Deal(p) => {
            format!("Super Deal from {}", rules.piles.get(usize::from(p)).map_or("?", |x| x.name.as_str()))
        }
        Action::RascalDeal(p) => {
            format!("Rascal's Super Deal from {}", rules.piles.get(usize::from(p)).map_or("?", |x| x.name.as_str()))
        }
        Action::Pass => "pass".into(),
        Action::Done => "done".into(),
        Action::Jettison(x) => format!("jettison one {}", c(x)),
        Action::Send(d) if d.index() < rules.docks.len() => format!("send the Automa to {}", rules.dock_name(d)),
        Action::Send(_) => "send the Automa to an unknown dock".into(),
        Action::Pick(k) => {
            format!("pick {}", rules.cards.get(k.index()).map_or("an unknown card", |d| d.name.as_str()))
        }
        Action::Officer(k) => {
            format!("the action of {}", rules.cards.get(k.index()).map_or("an unknown card", |d| d.name.as_str()))
        }
        Action::Boost(k) => {
            format!("play {}", rules.cards.get(k.index()).map_or("an unknown card", |d| d.name.as_str()))
        }
        Action::Choose { choice, option } => {
            let id = crate::lang::option_id(&rules.choices, choice.into(), option.into());
            format!("choose {}", id.unwrap_or("an unknown option"))
        }
        Action::Declared(a) => format!("take the action {}", act_id(rules, a)),
    }
}

/// The id of declared action `a`.
fn act_id(rules: &Rules, a: crate::lang::declared::Act) -> &str {
    rules.actions.get(a.index()).map_or("?", |d| d.id.as_str())
}

pub fn describe_event(rules: &Rules, e: &Event) -> String {
    let c = |x: crate::engine::Id<Cube>| rules.cube(x).name.clone();
    match e {
        Event::Rolled { place, value } => format!("the die on place {} shows {value}", u32::from(*place) + 1),
        Event::FirstPlayer { seat } => format!("p{} goes first", seat + 1),
        Event::Moved { seat, to } => {
            format!("p{} moves to {}", seat + 1, to.map_or("space".to_string(), |d| rules.dock_name(d)))
        }
        Event::Displaced { seat } => format!("p{}'s ship is displaced to space", seat + 1),
        Event::Cubes { seat, what, cube, n } => format!("p{} {what} {n} {}", seat + 1, c(*cube)),
        Event::Traded { seat, give, take } => {
            format!("p{} trades {} {} for {} {}", seat + 1, give.1, c(give.0), take.1, c(take.0))
        }
        Event::Nudged { place, value } => format!(
            "{} now shows {value}",
            place.map_or("the gold die".to_string(), |p| format!("the die on place {}", u32::from(p) + 1))
        ),
        Event::Bought { seat, card } => format!("p{} buys {}", seat + 1, rules.card(*card).name),
        Event::Drew { seat, card } => format!("p{} draws {} from the deck", seat + 1, rules.card(*card).name),
        Event::Deal { seat, gold, .. } => format!("p{} completes a Super Deal for {gold} gold", seat + 1),
        Event::CountdownStarted { turns } => format!("the bank's last gold is gone: {turns} more turns"),
        Event::CountdownStopped => "gold is back in the bank: the countdown stops".into(),
        Event::TurnEnded { seat } => format!("p{}'s turn ends", seat + 1),
        Event::Picked { seat, card } => format!("p{} picks {}", seat + 1, rules.card(*card).name),
        Event::Played { seat, card } => match rules.card(*card).class {
            rules_data::Class::Boost => format!("p{} plays {}", seat + 1, rules.card(*card).name),
            _ => format!("p{} takes {}'s action", seat + 1, rules.card(*card).name),
        },
        Event::ActionTaken { seat, action } => format!("p{} takes the action {}", seat + 1, act_id(rules, *action)),
        Event::AutomaTakes { card } => format!("the Automa takes {} from the display", rules.card(*card).name),
        Event::GameOver(end) => format!(
            "the game is over ({})",
            match end {
                rules::End::Countdown => "the countdown ran out",
                rules::End::DeckOut => "the deck ran out",
                rules::End::TurnCap => "turn cap",
            }
        ),
    }
}
