//! How Dry Gulch's actions, payments and events read in transcripts,
//! errors and counterexamples, with catalog ids.

use super::*;

fn card_list(rules: &Rules, cards: &[CardKind]) -> String {
    cards.iter().map(|&c| rules.card_id(c)).collect::<Vec<_>>().join(", ")
}

fn counts_list(rules: &Rules, cards: &[(CardKind, u8)]) -> String {
    cards
        .iter()
        .map(|&(c, n)| if n == 1 { rules.card_id(c).to_string() } else { format!("{n}x {}", rules.card_id(c)) })
        .collect::<Vec<_>>()
        .join(", ")
}

fn res_counts(rules: &Rules, cards: &[(Res, u8)]) -> String {
    cards.iter().map(|&(r, n)| format!("{n} {}", rules.resources[r.index()].id)).collect::<Vec<_>>().join(", ")
}

pub fn describe_payment(rules: &Rules, p: &Payment) -> String {
    let mut parts = Vec::new();
    if !p.direct.is_empty() {
        parts.push(format!("direct [{}]", res_counts(rules, &p.direct)));
    }
    if !p.handyman.is_empty() {
        parts.push(format!("handyman as [{}]", res_counts(rules, &p.handyman)));
    }
    if !p.store.is_empty() {
        parts.push(format!("store for [{}]", res_counts(rules, &p.store)));
    }
    if !p.substituted.is_empty() {
        parts.push(format!("substituted [{}]", res_counts(rules, &p.substituted)));
    }
    if !p.cards.is_empty() {
        parts.push(format!("with [{}]", counts_list(rules, &p.cards)));
    }
    parts.join("; ")
}

pub fn describe_action(rules: &Rules, a: &Action) -> String {
    let plot = |p: Plot| rules.plots.get(p.index()).map(|x| x.id.as_str()).unwrap_or("?");
    let bld = |b: Bld| rules.buildings.get(b.index()).map(|x| x.id.as_str()).unwrap_or("?");
    let card = |c: CardKind| {
        if (c.index()) < rules.card_count() { rules.card_id(c) } else { "?" }
    };
    match a {
        Action::PlaceResidence(p) => format!("place-residence {}", plot(*p)),
        Action::DraftPermit(b) => format!("draft-permit {}", bld(*b)),
        Action::DiscardRevealed(c) => format!("discard-revealed {}", card(*c)),
        Action::KeepRevealed(c) => format!("keep-revealed {}", card(*c)),
        Action::ReopenTownHall(cs) => format!("reopen-town-hall [{}]", counts_list(rules, cs)),
        Action::EndEvents => "end-events".into(),
        Action::DrawResources => "draw-resources".into(),
        Action::TakeFaceUpPermit(b) => format!("take-face-up-permit {}", bld(*b)),
        Action::DrawPermits => "draw-permits".into(),
        Action::KeepPermit(b) => format!("keep-permit {}", bld(*b)),
        Action::ChoosePermit(b) => format!("choose-permit {}", bld(*b)),
        Action::BankDraw => "bank-draw".into(),
        Action::Build { building, plot: p, payment } => {
            format!("build {} on {} paying {}", bld(*building), plot(*p), describe_payment(rules, payment))
        }
        Action::PlayInfluence(c) => format!("play-influence {}", card(*c)),
        Action::PlayDisaster { card: c, plot: p } => {
            format!("play-disaster {} on {}", card(*c), plot(*p))
        }
        Action::Resolve { card: c, plot: p } => match p {
            Some(p) => format!("resolve {} on {}", card(*c), plot(*p)),
            None => format!("resolve {}", card(*c)),
        },
        Action::EndBuild => "end-build".into(),
        Action::Discard(c) => format!("discard {}", card(*c)),
        Action::EndTurn => "end-turn".into(),
        Action::StartTurn => "start-turn".into(),
        Action::UseInsurance(b) => format!("use-insurance {b}"),
        Action::UseIou(b) => format!("use-iou {b}"),
        Action::Protect(c) => format!("protect {}", c.map(card).unwrap_or("nothing")),
        Action::Give(c) => format!("give {}", card(*c)),
        Action::RewardDraw(true) => "draw the influence card's reward".into(),
        Action::RewardDraw(false) => "decline the influence card's reward".into(),
        Action::SpreadTo(p) => format!("spread-to {}", plot(*p)),
        Action::Choose { choice, option } => format!("choose {}", choice_id(rules, *choice, *option)),
        Action::Declared(a) => format!("action {}", rules.actions.get(a.index()).map_or("?", |x| x.id.as_str())),
    }
}

/// The catalog id of option `option` of `choose` effect `choice`.
pub fn choice_id(rules: &Rules, choice: u32, option: u32) -> &str {
    crate::lang::option_id(&rules.choices, choice as usize, option as usize).unwrap_or("?")
}

pub fn describe_event(rules: &Rules, e: &Event) -> String {
    let plot = |p: Plot| rules.plots[p.index()].id.as_str();
    let bld = |b: Bld| rules.buildings[b.index()].id.as_str();
    let (seat, act) = (|s: usize| format!("P{}", s + 1), |a: Act| rules.actions[a.index()].id.as_str());
    let dest = |d: Dest| match d {
        Dest::Seat(s) => format!("P{}", s + 1),
        Dest::Discard => "the discard pile".to_string(),
    };
    match e {
        Event::TurnStarted { seat: s, turn, round } => format!("turn {turn} (round {round}): {} to play", seat(*s)),
        Event::ResidencePlaced { seat: s, plot: p } => {
            format!("{} places the Residence on {}", seat(*s), plot(*p))
        }
        Event::Drafted { seat: s, building } => {
            format!("{} drafts the {} permit", seat(*s), bld(*building))
        }
        Event::Revealed { cards } => format!("revealed [{}]", card_list(rules, cards)),
        Event::EventsReshuffled => "event discards reshuffled into the deck".into(),
        Event::RevealedDiscarded { card } => format!("discards revealed {}", rules.card_id(*card)),
        Event::Kept { seat: s, card } => {
            format!("{} takes {} into hand", seat(*s), rules.card_id(*card))
        }
        Event::LeftFaceUp { cards } => format!("left face up: [{}]", card_list(rules, cards)),
        Event::TownHallReopened { seat: s } => format!("the Town Hall reopens ({})", seat(*s)),
        Event::TownHallClosed => "the Town Hall is closed".into(),
        Event::Drew { seat: s, cards } => {
            format!("{} draws [{}]", seat(*s), card_list(rules, cards))
        }
        Event::ResourcesReshuffled => "resource discards reshuffled into the deck".into(),
        Event::DeckEmpty => "the resource deck and its discards are empty".into(),
        Event::PermitDrawn { seat: s, building } => {
            format!("{} takes the {} permit", seat(*s), bld(*building))
        }
        Event::PermitDiscarded { building } => {
            format!("the {} permit goes face up to the permit discards", bld(*building))
        }
        Event::Built { seat: s, building, plot: p } => {
            format!("{} builds {} on {}", seat(*s), bld(*building), plot(*p))
        }
        Event::ChipsPlaced { seat: s, chips } => format!("{} places {chips} chip(s)", seat(*s)),
        Event::PermitSpent { seat: s, building } => {
            format!("{} spends the {} permit", seat(*s), bld(*building))
        }
        Event::CardsPaid { seat: s, cards } => {
            format!("{} pays [{}]", seat(*s), counts_list(rules, cards))
        }
        Event::InfluencePlayed { seat: s, card } => {
            format!("{} plays influence card {}", seat(*s), rules.card_id(*card))
        }
        Event::DisasterPlayed { seat: s, card, plot: p } => {
            format!("{} plays {} against {}", seat(*s), rules.card_id(*card), plot(*p))
        }
        Event::EventResolved { seat: s, card } => {
            format!("{} resolves {}", seat(*s), rules.card_id(*card))
        }
        Event::Damaged { plot: p, card } => {
            format!("{} is damaged by {}", plot(*p), rules.card_id(*card))
        }
        Event::FireSpread { from, to } => {
            format!("fire from {} spreads to {}", plot(*from), plot(*to))
        }
        Event::Repaired { plot: p } => format!("{} is repaired (marker removed)", plot(*p)),
        Event::Took { from, to, card } => format!("{} loses {} to {}", seat(*from), rules.card_id(*card), dest(*to)),
        Event::DrewWaiting { seat: s, cards } => {
            format!("{} draws [{}], which wait for the reward phase", seat(*s), card_list(rules, cards))
        }
        Event::WaitingReleased { seat: s, cards } => {
            format!("{} takes up the {cards} card(s) waiting for him", seat(*s))
        }
        Event::RewardDeclined { seat: s } => format!("{} declines the influence card's reward", seat(*s)),
        Event::Gave { from, to, card } => format!("{} gives {} to {}", seat(*from), rules.card_id(*card), dest(*to)),
        Event::InsuranceUsed { seat: s } => format!("{} discards Fire Insurance: no cards lost to the fire", seat(*s)),
        Event::IouHandedOver { from, to } => {
            format!("{} hands the I.O.U. to {} instead of cards", seat(*from), dest(*to))
        }
        Event::AceShown { seat: s, protected } => format!(
            "{} shows Ace up your sleeve, protecting {}",
            seat(*s),
            protected.map(|c| rules.card_id(c)).unwrap_or("nothing more")
        ),
        Event::Lapsed { why } => format!("lapses: {why}"),
        Event::FlagSet { flag } => format!("flag {} set", rules.flags[flag.index()]),
        Event::FaceUpCleared { cards, into_hand } => format!(
            "unplayed face-up cards [{}] {}",
            card_list(rules, cards),
            if *into_hand { "go into hand" } else { "are discarded" }
        ),
        Event::Discarded { seat: s, card } => {
            format!("{} discards {}", seat(*s), rules.card_id(*card))
        }
        Event::HandCut { seat: s, cards } => {
            format!("{} is over the hand limit and loses [{}] at random", seat(*s), card_list(rules, cards))
        }
        Event::Won { seat: s, influence, .. } => {
            format!("{} wins with {influence} influence", seat(*s))
        }
        Event::GameDrawn { reason } => format!("the game ends without a winner: {reason}"),
        Event::ActionTaken { seat: s, action: a } => format!("{} takes the action {}", seat(*s), act(*a)),
    }
}
