//! `cargo bench`: the hot paths of Dry Gulch random play timed apart, over
//! the states of seeded random games: listing the legal actions, applying an
//! action, taking the `before` snapshot, and checking every invariant.
//!
//! No harness dependency (`harness = false`): each path runs over every
//! recorded state, `REPS` times, and the median pass is printed as
//! nanoseconds per call. `rulecheck bench` measures whole playouts; this
//! says which part of an action costs what. `cargo bench -- --quick` plays
//! fewer games.

use std::hint::black_box;
use std::time::Instant;

use rulecheck::check::playout::{Chooser, RandomChooser};
use rulecheck::commands::load_all;
use rulecheck::engine::{Check, Config, Game};
use rulecheck::games::AnyRules;
use rulecheck::games::dry_gulch::invariants::Before;
use rulecheck::games::dry_gulch::{Action, Event, Rules, State};

const REPS: usize = 5;

/// One step of a recorded game: the state before and its snapshot, the
/// action chosen, and the state and events after it.
struct Step {
    before: State,
    snapshot: Before,
    action: Action,
    after: State,
    events: Vec<Event>,
}

fn record(rules: &Rules, players: u32, games: u64) -> Vec<Step> {
    let mut steps = Vec::new();
    let mut legal = Vec::new();
    for seed in 0..games {
        let mut state = State::new(rules, &Config::new("dry-gulch", players, seed)).expect("a default configuration");
        let mut chooser = RandomChooser::new(seed);
        while steps.len() < 200_000 {
            state.legal_actions(rules, &mut legal);
            if legal.is_empty() {
                break;
            }
            let action = legal.swap_remove(chooser.choose(legal.len()));
            let before = state.clone();
            let events = state.apply(rules, &action).expect("a legal action applies");
            steps.push(Step { snapshot: before.before(), before, action, after: state.clone(), events });
        }
    }
    steps
}

/// The median over `REPS` passes of `f` over every step, in ns per step.
fn time(steps: &[Step], mut f: impl FnMut(&Step)) -> f64 {
    let mut passes: Vec<f64> = (0..REPS)
        .map(|_| {
            let t = Instant::now();
            steps.iter().for_each(&mut f);
            t.elapsed().as_nanos() as f64 / steps.len().max(1) as f64
        })
        .collect();
    passes.sort_by(f64::total_cmp);
    passes[REPS / 2]
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let catalogs = load_all(None).expect("the bundled catalogs load");
    let rules: &Rules = catalogs
        .iter()
        .find_map(|c| match c {
            AnyRules::DryGulch(r) => Some(&**r),
            #[allow(unreachable_patterns)]
            _ => None,
        })
        .expect("Dry Gulch is bundled");
    let games = if quick { 5 } else { 30 };
    println!("dry-gulch hot paths: ns per call, median of {REPS} passes over the states of {games} random games");
    println!("{:>7} {:>8} {:>10} {:>10} {:>10} {:>12}", "players", "states", "legal", "apply", "before", "invariants");
    for players in 3..=6 {
        let steps = record(rules, players, games);
        let mut out = Vec::new();
        let legal = time(&steps, |s| {
            s.before.legal_actions(rules, &mut out);
            black_box(out.len());
        });
        // apply includes one clone of the state; the clone alone is subtracted
        let clone = time(&steps, |s| {
            black_box(s.before.clone());
        });
        let apply = time(&steps, |s| {
            let mut state = s.before.clone();
            black_box(state.apply(rules, &s.action).ok());
        }) - clone;
        let before = time(&steps, |s| {
            black_box(s.before.before());
        });
        let invariants = time(&steps, |s| {
            black_box(s.after.check_invariants(rules, &s.snapshot, &s.action, &s.events).ok());
        });
        println!("{players:>7} {:>8} {legal:>10.0} {apply:>10.0} {before:>10.0} {invariants:>12.0}", steps.len());
    }
}
