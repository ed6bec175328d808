//! Dry Gulch's invariants, checked after every action in tests and fuzzing.
//! Each is recomputed here from the raw state, independently of the rules
//! code that maintains it, and each has a fault that breaks exactly it.
//! They read the configuration with `peek` and `param`, which record
//! nothing: checking must not change what counts as reached.

use super::readings::{AceProtection, ClosedTownHallScope, HandCutReactions, P, RewardCardTiming, VioletCards};
use super::rules::{Action, Event, Fault, Phase, State};
use super::rules_data::kind::{self, Card};
use super::rules_data::{Plot, ReactionKey, Rules};
use super::zones::{CARD_ZONES, CHIP_ZONES, CLASS_NAMES, PERMIT_ZONES};
use smallvec::SmallVec;

use super::rules::End;
use crate::engine::{Check, Id, InvariantDef, Ledger, Reads, Violation, conserved};

mod board;
mod dealt;
use crate::engine::{EndReason, Imbalance};
pub use board::BoardRead;
use dealt::Dealt;
pub use dealt::{DealtCache, DealtTables};

crate::invariant_table! { Fault;
    "card-conservation": "every resource and event card is in exactly one place, and the totals per card never change",
        "dry-gulch-en \u{a7} Components (81 resource cards, 39 event cards)",
        "duplicate-on-take" => DuplicateOnTake;
    "permits-kept": "permits are never lost, stolen or discarded: every copy is in the deck, the face-up discards, a hand of permits or the draft pool, and a player's permits shrink only by building",
        "dry-gulch-en \u{a7} Special Rules 1; dry-gulch-de \u{a7} Spezielle Regeln 1",
        "permit-vanishes" => PermitVanishes;
    "hand-limit": "when a turn ends (wherever the declared turn ends it) no hand holds more cards than the hand limit, except under hand-cut-reactions: like-a-draw a hand over the limit when the cut began whose I.O.U. answered it (one card fewer, and that card an I.O.U.) or that holds only what the Ace kept out",
        "dry-gulch-en \u{a7} Discard 2; dry-gulch-de \u{a7} Abwerfen 2",
        "no-hand-limit" => NoHandLimit;
    "permits-not-cards": "permits never count toward the hand: a random cut leaves exactly the hand limit in hand",
        "dry-gulch-en \u{a7} Special Rules 1, Drawing Resources 2 (note)",
        "permit-in-hand" => PermitInHand;
    "disaster-limit": "no player has more than one Fire and one Vandalism (one card of each disaster) in front of him",
        "dry-gulch-en \u{a7} Special Rules 4.5; dry-gulch-de \u{a7} Spezielle Regeln 3.5",
        "no-disaster-limit" => NoDisasterLimit;
    "damage-markers": "at most the catalog's damage markers are on the board, and each marks a building whose disaster card lies in front of its owner (or a closed Town Hall, or a spreading fire's building)",
        "dry-gulch-en \u{a7} Components, Special Rules 4.1-4.2",
        "fire-without-marker" => FireWithoutMarker;
    "chip-conservation": "a player's chips on buildings, on influence cards and in reserve add up to his allotment, and a building carries as many chips as its influence",
        "dry-gulch-en \u{a7} Setup 3, Building 1b; dry-gulch-de \u{a7} Bauen 1.2",
        "chip-leak" => ChipLeak;
    "influence-count": "counted influence equals the sum over buildings, damaged ones counted as the damaged-influence reading says, plus influence cards",
        "dry-gulch-en \u{a7} Special Rules 4.4 and 6, Winning the Game",
        "damage-ignored" => DamageIgnored;
    "win-in-build": "a win is declared only during a building phase, and only when the winner's counted influence reaches the threshold",
        "dry-gulch-en \u{a7} Winning the Game; dry-gulch-de \u{a7} Das Spiel gewinnen",
        "win-outside-build" => WinOutsideBuild;
    "bank-plot": "the Bank stands only on the bank plot, and nothing else stands there",
        "dry-gulch-en \u{a7} Reference: Buildings (bank plot); dry-gulch-de \u{a7} Spielplan",
        "bank-anywhere" => BankAnywhere;
    "town-hall-closed": "while the Town Hall is closed, no permit is drawn in the draw phase (the Bank's included, as closed-town-hall-scope reads it)",
        "dry-gulch-en \u{a7} Optional Rules 2; dry-gulch-de \u{a7} Optionale Regeln 2",
        "open-closed-town-hall" => OpenClosedTownHall;
    "waiting-piles": "cards and permits wait beside a player only under reward-card-german-rule-7: all-at-reward, and none is still waiting once a turn has ended (the reward phase, or the turn's end in a turn without one, hands them over)",
        "dry-gulch-de \u{a7} Spezielle Regeln 7; dry-gulch-en \u{a7} Building 1c, Building 2",
        "waiting-kept" => WaitingKept;
}

/// What the transition invariants remember from before an action.
#[derive(Debug, Clone)]
pub struct Before {
    /// Whether the draw phase was under way (all `town-hall-closed` asks
    /// of the phase: no clone of it before every action).
    pub drawing: bool,
    /// Each seat's permits counted by building, one seat after another
    /// (inline for six seats of 32 buildings: taken before every action,
    /// so it should not allocate).
    pub permits: SmallVec<[u8; 192]>,
    pub town_hall_closed: bool,
}

/// The conservation checks' parts, each kept zone by zone with the zone's
/// stamp (`engine::conserved`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Conserved {
    cards: Ledger<Card, Option<usize>>,
    permits: Ledger<kind::Building, Option<usize>>,
    chips: Ledger<kind::Chip, ()>,
}

fn fail<T>(invariant: &'static str, detail: String) -> Result<T, Violation> {
    Err(Violation { invariant, detail })
}

/// Card conservation is the engine's check over every zone of the card
/// table, whose piles each admit one deck's cards (`CARD_ZONES`, against
/// each kind's class as the dealing reading gives it). Gives the first
/// seat with cards waiting, for `waiting` (found with the count, and kept
/// with it).
fn cards(s: &State, rules: &Rules, dealt: &Dealt) -> Result<Option<usize>, Violation> {
    let name = "card-conservation";
    let kept = (&s.conserved.cards, dealt as *const Dealt as u64);
    conserved(CARD_ZONES, s, (s.players, rules.card_count(), &dealt.class), kept, |t| {
        match t.check_totals(&dealt.totals) {
            Ok(()) => Ok(s.seats.iter().position(|p| !p.waiting.is_empty())),
            Err(Imbalance::Count { kind, found, expected }) => {
                fail(name, format!("{found} {} cards in play, the deck has {expected}", rules.card_id(kind)))
            }
            Err(Imbalance::Unknown { index }) => fail(name, format!("unknown card kind {index} in play")),
            Err(Imbalance::Misplaced { kind, zone }) => {
                let class = CLASS_NAMES.get(usize::from(dealt.class[kind.index()])).unwrap_or(&"card");
                fail(name, format!("{class} {} in {zone}", rules.card_id(kind)))
            }
        }
    })
}

/// Permits are conserved (the engine's check over every zone of the
/// permit table), and a player's permits shrink only by building. Gives
/// the first seat with permits waiting, likewise.
fn permits(
    s: &State,
    rules: &Rules,
    dealt: &Dealt,
    before: &Before,
    action: &Action,
) -> Result<Option<usize>, Violation> {
    let name = "permits-kept";
    let kept = (&s.conserved.permits, dealt as *const Dealt as u64);
    let waits = conserved(PERMIT_ZONES, s, (s.players, rules.buildings.len(), &[]), kept, |t| {
        match t.check_totals(&dealt.permits) {
            Ok(()) => Ok(s.seats.iter().position(|p| !p.waiting_permits.is_empty())),
            Err(Imbalance::Count { kind, found, expected }) => {
                fail(name, format!("{found} {} permits exist, the deck has {expected}", rules.building(kind).id))
            }
            Err(Imbalance::Unknown { index }) => fail(name, format!("a permit of no building ({index})")),
            Err(Imbalance::Misplaced { kind, zone }) => {
                fail(name, format!("a {} permit in {zone}, which does not take it", rules.building(kind).id))
            }
        }
    })?;
    shrunk_only_by_building(s, rules, before, action)?;
    Ok(waits)
}

/// A player's permits shrink only by building.
fn shrunk_only_by_building(s: &State, rules: &Rules, before: &Before, action: &Action) -> Result<(), Violation> {
    let name = "permits-kept";
    let built = match action {
        Action::Build { building, .. } => Some(*building),
        _ => None,
    };
    // each seat's counts, in seat order, as `before` lists them
    let mut rest = &before.permits[..];
    for (seat, now) in s.seats.iter().enumerate() {
        let (was, after) = rest.split_at(now.permits.counts().len().min(rest.len()));
        rest = after;
        // most actions leave every seat's permits as they were
        if now.permits.counts() == was {
            continue;
        }
        for (b, (&n, &w)) in rules.buildings().zip(now.permits.counts().iter().zip(was.iter())) {
            if n < w && !(built == Some(b) && s.active == seat && n + 1 == w) {
                return fail(name, format!("P{} lost a {} permit without building", seat + 1, rules.building(b).id));
            }
        }
    }
    Ok(())
}

fn hands(s: &State, rules: &Rules, action: &Action, events: &[Event]) -> Result<(), Violation> {
    // a turn ended: whichever action finished its last declared step
    // (`EndTurn`, or `EndBuild` in a turn without a discard step)
    let set_up = matches!(action, Action::PlaceResidence(_) | Action::DraftPermit(_));
    if set_up || (s.phase != Phase::NextTurn && s.outcome != Some(End::Draw(EndReason::TurnCap))) {
        return Ok(());
    }
    let limit = s.param(P::HandLimit);
    for (seat, p) in s.seats.iter().enumerate() {
        if p.hand_size() > limit && !answered_cut(s, rules, seat) {
            return fail(
                "hand-limit",
                format!("P{} holds {} cards after the discard phase, the limit is {limit}", seat + 1, p.hand_size()),
            );
        }
    }
    for e in events {
        if let Event::HandCut { seat, .. } = e {
            let n = s.seats[*seat].hand_size();
            if n != limit {
                return fail(
                    "permits-not-cards",
                    format!("P{} was cut to {n} cards, not to the limit {limit}", seat + 1),
                );
            }
        }
    }
    Ok(())
}

/// Whether `seat` may hold more than the limit after a cut drawn like a
/// random loss (`hand-cut-reactions: like-a-draw`): it was over the limit
/// when the cut began and either handed an I.O.U. over instead (one card
/// fewer, and one I.O.U. fewer than it held then), or every card it still holds is one the Ace up
/// your sleeve kept out of the cut (the Ace and one card at most).
fn answered_cut(s: &State, rules: &Rules, seat: usize) -> bool {
    let Some(&(_, before, ious)) = s.cut.iter().flatten().find(|(x, ..)| *x == seat) else { return false };
    if s.peek::<HandCutReactions>() != HandCutReactions::LikeADraw {
        return false;
    }
    let hand = &s.seats[seat].hand;
    let held = |k: ReactionKey| rules.reactions.get(&k).map_or(0, |&c| hand.count(c));
    let kept = match s.peek::<AceProtection>() {
        AceProtection::AceAndOneCard => 2,
        AceProtection::OneCardOnly => 1,
    };
    // the I.O.U. answered: one card fewer, and that card an I.O.U. (a
    // catalog with several leaves the others in hand)
    let iou = hand.total() + 1 == before && held(ReactionKey::Iou) + 1 == ious;
    iou || (held(ReactionKey::Ace) > 0 && hand.total() <= kept)
}

fn disasters(s: &State, rules: &Rules, board: &BoardRead, unexplained: Option<Plot>) -> Result<(), Violation> {
    for (seat, p) in s.seats.iter().enumerate() {
        let f = p.in_front.as_slice();
        if (1..f.len()).any(|i| f[..i].iter().any(|(c, _)| *c == f[i].0)) {
            return fail("disaster-limit", format!("P{} has two cards of one disaster in front of him", seat + 1));
        }
    }
    let name = "damage-markers";
    let used = board.markers;
    if used > s.param(P::DamageMarkers) {
        return fail(name, format!("{used} damage markers on the board, the game has {}", s.param(P::DamageMarkers)));
    }
    for (seat, p) in s.seats.iter().enumerate() {
        for &(card, plot) in p.in_front.iter() {
            let ok = s.board[plot.index()]
                .is_some_and(|x| x.owner == Some(seat) && x.damage.is_some_and(|d| d.card == card && d.origin == plot));
            if !ok {
                return fail(
                    name,
                    format!(
                        "P{}'s {} lies in front of him but {} carries no matching marker",
                        seat + 1,
                        rules.card_id(card),
                        rules.plots[plot.index()].id
                    ),
                );
            }
        }
    }
    if let Some(plot) = unexplained {
        return fail(name, format!("{} carries a marker with no disaster card behind it", rules.plot(plot).id));
    }
    Ok(())
}

/// A player's chips on buildings, on influence cards and in reserve add up
/// to his allotment (the engine's check over every chip zone, a colour
/// for each seat), and a building carries as many chips as its influence.
fn chips(s: &State, rules: &Rules, board: &BoardRead) -> Result<(), Violation> {
    let name = "chip-conservation";
    if let Some((seat, (b, chips, expected))) = board.wrong.iter().enumerate().find_map(|(i, w)| Some((i, (*w)?))) {
        let id = &rules.building(b).id;
        return fail(name, format!("{id} of P{} carries {chips} chips, its influence is {expected}", seat + 1));
    }
    let allotment = |c: Id<kind::Chip>| s.seats.get(c.index()).map_or(0, |p| p.allotment);
    conserved(CHIP_ZONES, s, (s.players, s.players, &[]), (&s.conserved.chips, 0), |t| t.check(allotment)).or_else(
        |e| {
            let detail = match e {
                Imbalance::Count { kind, found, expected } => {
                    format!(
                        "P{} has {found} chips in reserve and on the board, the allotment is {expected}",
                        kind.index() + 1
                    )
                }
                Imbalance::Unknown { index } => format!("a chip of colour {index}, which no seat has"),
                Imbalance::Misplaced { kind, zone } => {
                    format!("a P{} chip in {zone}, which does not take it", kind.index() + 1)
                }
            };
            fail(name, detail)
        },
    )
}

fn influence(s: &State, rules: &Rules, dealt: &Dealt, board: &BoardRead) -> Result<(), Violation> {
    // the rules' count of every seat (`counted_influence` of each): its
    // buildings' part, kept with the reading of the board while the board
    // is unchanged, and its cards' part; the damaged-influence reading read
    // without recording it
    for (seat, &on_board) in board.influence.iter().enumerate() {
        let mut expected = on_board;
        for &c in &s.seats[seat].influence {
            expected += dealt.card_influence[c.index()];
        }
        let counted = board.counted.get(seat).copied().unwrap_or(0) + s.cards_influence(rules, seat);
        if counted != expected {
            return fail(
                "influence-count",
                format!("P{} counts {counted} influence, the board shows {expected}", seat + 1),
            );
        }
    }
    Ok(())
}

fn win(s: &State, rules: &Rules, events: &[Event]) -> Result<(), Violation> {
    for e in events {
        if let Event::Won { seat, during_build, .. } = e {
            if !during_build {
                return fail("win-in-build", format!("P{} was declared the winner outside a building phase", seat + 1));
            }
            if s.outcome != Some(End::Win(*seat)) {
                return fail(
                    "win-in-build",
                    format!(
                        "a win of P{} was announced but the outcome is {}",
                        seat + 1,
                        s.outcome.map_or("none".to_string(), |o| match o {
                            End::Win(w) => format!("a win of P{}", w + 1),
                            End::Draw(r) => format!("a draw ({r})"),
                        })
                    ),
                );
            }
            let inf = s.counted_influence(rules, *seat);
            if inf < s.win_threshold(*seat) {
                return fail("win-in-build", format!("P{} won with {inf} influence, below the threshold", seat + 1));
            }
        }
    }
    Ok(())
}

fn bank(s: &State, rules: &Rules, board: &BoardRead) -> Result<(), Violation> {
    let Some(i) = board.misplaced else { return Ok(()) };
    let building = s.board[i].map_or("?", |p| rules.buildings[p.building.index()].id.as_str());
    fail("bank-plot", format!("{building} stands on {}", rules.plots[i].id))
}

fn town_hall(s: &State, before: &Before, action: &Action, events: &[Event]) -> Result<(), Violation> {
    // the Bank's permit is barred too unless the closure covers the draw phase's choice only
    let bank_barred = s.peek::<ClosedTownHallScope>() == ClosedTownHallScope::EveryPermitDraw;
    let draw = matches!(action, Action::DrawPermits | Action::TakeFaceUpPermit(_) | Action::ChoosePermit(_))
        || (bank_barred && matches!(action, Action::BankDraw));
    if before.town_hall_closed && draw && before.drawing {
        let drew =
            events.iter().any(|e| matches!(e, Event::PermitDrawn { .. })) || matches!(action, Action::DrawPermits);
        if drew {
            return fail("town-hall-closed", "a permit was drawn while the Town Hall was closed".into());
        }
    }
    Ok(())
}

/// What a player won waits beside him only under `all-at-reward`, and is
/// his by the time the turn is over. `waits` is the first seat with cards
/// or permits waiting (the conservation checks found it as they counted).
fn waiting(s: &State, waits: Option<usize>) -> Result<(), Violation> {
    let name = "waiting-piles";
    let Some(seat) = waits else {
        return Ok(());
    };
    if s.peek::<RewardCardTiming>() != RewardCardTiming::AllAtReward {
        return fail(name, format!("P{} has cards waiting, though what he wins goes to hand at once", seat + 1));
    }
    if s.phase == Phase::NextTurn {
        return fail(name, format!("P{} still has cards waiting after the turn ended", seat + 1));
    }
    Ok(())
}

impl Check for State {
    type Before = Before;
    fn before(&self) -> Before {
        let s = self;
        // sized once, then each seat's counts copied in: no growth check per
        // seat (inline for six seats of 32 buildings)
        let total = s.seats.iter().map(|p| p.permits.counts().len()).sum();
        let mut permits: SmallVec<[u8; 192]> = SmallVec::from_elem(0, total);
        let mut at = 0;
        for p in &s.seats {
            let c = p.permits.counts();
            permits[at..at + c.len()].copy_from_slice(c);
            at += c.len();
        }
        Before { drawing: s.phase == Phase::Draw, permits, town_hall_closed: s.town_hall_closed.is_some() }
    }
    fn invariants() -> &'static [InvariantDef] {
        INVARIANTS
    }
    fn check_invariants(
        &self,
        rules: &Rules,
        before: &Before,
        action: &Action,
        events: &[Event],
    ) -> Result<(), Violation> {
        let s = self;
        // which pile a card belongs to (the violet cards' is the reading
        // violet-cards), how many copies the game has and the catalog's
        // numbers, fixed for the game
        let dealt = rules.dealt.get(rules, &s.readings, s.peek::<VioletCards>(), &s.dealt);
        let cards_wait = cards(s, rules, dealt)?;
        let permits_wait = permits(s, rules, dealt, before, action)?;
        hands(s, rules, action, events)?;
        // the board's reading is kept with the state until the board changes
        let board = s.board_read.get(&s.board, |b| board::read(s, rules, b, dealt));
        disasters(s, rules, &board, board::unexplained(s, rules, &board))?;
        chips(s, rules, &board)?;
        influence(s, rules, dealt, &board)?;
        win(s, rules, events)?;
        bank(s, rules, &board)?;
        town_hall(s, before, action, events)?;
        // the first seat with anything waiting
        waiting(s, cards_wait.into_iter().chain(permits_wait).min())?;
        Ok(())
    }
    fn inject_fault(&mut self, fault: &str) -> bool {
        // what was kept of the board was read under the rules as they were
        self.board_read = Default::default();
        fault_named(fault).map(|f| self.fault = Some(f)).is_some()
    }
    fn faults() -> &'static [&'static str] {
        FAULTS
    }
}
