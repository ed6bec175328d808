//! Actions and events in catalog words, for transcripts and errors.

use super::rules_data::*;
use super::state::{Action, Event};

fn b(r: &Rules, b: Bld) -> &str {
    r.buildings.get(b.index()).map_or("?", |d| d.name.as_str())
}
fn sq(r: &Rules, bl: Bld, s: Sq) -> String {
    r.buildings.get(bl.index()).map_or_else(|| "?".to_string(), |d| d.square_name(s))
}
fn c(r: &Rules, c: CardId) -> &str {
    r.cards.get(c.index()).map_or("?", |d| d.name.as_str())
}

fn act(r: &Rules, a: crate::lang::declared::Act) -> &str {
    r.actions.get(a.index()).map_or("?", |d| d.id.as_str())
}

/// The catalog id of option `option` of the `choose` effect `choice`.
pub fn option_id(r: &Rules, choice: u32, option: u32) -> &str {
    crate::lang::option_id(&r.choices, choice as usize, option as usize).unwrap_or("?")
}

pub fn action(r: &Rules, a: &Action) -> String {
    match *a {
        // the step says who: `P1 lays LADY 3 face down`
        Action::Pick { card, .. } => format!("lays {} face down", c(r, card)),
        Action::Play { card } => format!("plays {}", c(r, card)),
        Action::Open { building } => format!("chooses the {} for the picture card", b(r, building)),
        Action::Place { building, square } => {
            format!("places a token on {} of the {}", sq(r, building, square), b(r, building))
        }
        Action::Remove { building, square } => {
            format!("removes the token on {} of the {}", sq(r, building, square), b(r, building))
        }
        Action::Buy { building, square } => {
            format!("buys a token for {} of the {}", sq(r, building, square), b(r, building))
        }
        Action::EndTurn => "ends the turn".to_string(),
        Action::Challenge { opponent, building } => format!("challenges p{} in the {}", opponent + 1, b(r, building)),
        Action::Pass => "passes the right to challenge".to_string(),
        Action::Decline => "leaves the loser's tokens".to_string(),
        Action::Take { building, square } => {
            format!("takes the loser's token on {} of the {}", sq(r, building, square), b(r, building))
        }
        Action::Sell { building, square } => {
            format!("sells the token on {} of the {}", sq(r, building, square), b(r, building))
        }
        Action::Choose { choice, option } => format!("chooses {}", option_id(r, choice, option)),
        Action::Declared(a) => format!("takes the action {}", act(r, a)),
    }
}

pub fn event(r: &Rules, e: &Event) -> String {
    match e {
        Event::Picked { seat } => format!("p{} has chosen a card", seat + 1),
        Event::Revealed { cards, start } => {
            let shown: Vec<String> = cards.iter().map(|(s, k)| format!("p{} {}", s + 1, c(r, *k))).collect();
            format!("the cards are shown: {}; p{} is start player", shown.join(", "), start + 1)
        }
        Event::Played { seat, card } => format!("p{} played {}", seat + 1, c(r, *card)),
        Event::Income { seat, dollars, to_debt } if *to_debt > 0 => {
            format!("p{} receives ${dollars}, ${to_debt} of it pays what he owes", seat + 1)
        }
        Event::Income { seat, dollars, .. } => format!("p{} receives ${dollars}", seat + 1),
        Event::Charged { seat, dollars, paid } => format!("p{} must pay ${dollars} and pays ${paid}", seat + 1),
        Event::SymbolLaid { symbol, building } => {
            format!("the {} symbol and its disc go on the {}", r.symbol(*symbol).name, b(r, *building))
        }
        Event::Placed { seat, building, square, price: Some(p) } => {
            format!("p{} pays ${p} for a token on {} of the {}", seat + 1, sq(r, *building, *square), b(r, *building))
        }
        Event::Placed { seat, building, square, price: None } => {
            format!("p{} places a token on {} of the {}", seat + 1, sq(r, *building, *square), b(r, *building))
        }
        Event::Lapsed { seat, what } => format!("lapsed for p{}: {what}", seat + 1),
        Event::Removed { owner, building, square, out_of_game } => format!(
            "p{}'s token on {} of the {} is removed{}",
            owner + 1,
            sq(r, *building, *square),
            b(r, *building),
            if *out_of_game { " from the game" } else { " back to his supply" }
        ),
        Event::Returned { seat, building, tokens } => {
            format!("{tokens} of p{}'s tokens in the {} go back to him", seat + 1, b(r, *building))
        }
        Event::EventDrawn { seat, event } => {
            format!("p{} draws the event {}", seat + 1, r.events.get(event.index()).map_or("?", |e| e.name.as_str()))
        }
        Event::Sold { seat, building, square, dollars } => format!(
            "p{} sells his token on {} of the {} for ${dollars}",
            seat + 1,
            sq(r, *building, *square),
            b(r, *building)
        ),
        Event::Chose { seat, choice, option } => format!("p{} chose {}", seat + 1, option_id(r, *choice, *option)),
        Event::DebtLeft { seat, dollars, carried: true } => format!("p{} still owes ${dollars}", seat + 1),
        Event::DebtLeft { seat, dollars, carried: false } => format!("${dollars} of p{}'s debt is dropped", seat + 1),
        Event::Challenged { seat, opponent, building, cards } => format!(
            "p{} ({}) duels p{} ({}) in the {}",
            seat + 1,
            c(r, cards.0),
            opponent + 1,
            c(r, cards.1),
            b(r, *building)
        ),
        Event::DuelWon { winner, loser } => format!("p{} wins the duel against p{}", winner + 1, loser + 1),
        Event::DuelDrawn => "nobody loses the duel".to_string(),
        Event::Passed { seat } => format!("p{} passes", seat + 1),
        Event::Declined { seat } => format!("p{} takes none of the loser's tokens", seat + 1),
        Event::ActionTaken { seat, action } => format!("p{} takes the action {}", seat + 1, act(r, *action)),
        Event::Scored { seat, building, symbol, points } => format!(
            "p{} controls the {} and wins its {} disc ({points} points); the building closes",
            seat + 1,
            b(r, *building),
            r.symbol(*symbol).name
        ),
        Event::NewRound { round, reshuffled } => {
            format!("round {round}: new hands are dealt{}", if *reshuffled { " (the deck was reshuffled)" } else { "" })
        }
        Event::GameOver { reason } => format!("the game is over ({reason})"),
    }
}
