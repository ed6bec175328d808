//! The game-agnostic core: the `Game` contract (modelled on OpenSpiel's
//! State API), seeded chance, configurations, rule errors (and `Why`, what
//! a legality check gives: the error or a bare no), typed ids,
//! zones, readings, the declared turn (`turn`) and where a scenario's
//! entry (a set-up override, an action) goes wrong (`Unapplied`).
//!
//! `engine` knows nothing of YAML, files, clap or insta, and does no IO:
//! a game is a pure reducer over a state that carries its own RNG.
//!
//! ```
//! use rulecheck::engine::Chance;
//! let mut a = Chance::new(7);
//! let mut b = Chance::new(7);
//! assert_eq!(a.below(10), b.below(10));
//! ```

mod chance;
mod config;
mod counter;
mod facts;
mod game;
mod ids;
pub mod names;
mod outcome;
mod query;
mod readings;
mod topology;
mod turn;
mod unapplied;
mod watched;
mod why;
mod zones;

pub use chance::{Chance, Forced};
pub use config::{Config, ConfigError};
pub use counter::{Bounds, Counter, CounterError};
pub use facts::{Facts, words};
pub use game::{
    Check, Cover, Describe, Game, Harnessed, InvariantDef, RuleBook, RuleError, Scripted, Violation, seat_name, seat_of,
};
pub use ids::{Id, Kind, Overflow, PrefixOf, id_at};
pub use names::{Lookup, Written, with_names};
pub use outcome::{EndReason, MAX_SEATS, Outcome, Seat, Seats, Standing, ToMove};
pub use query::{
    EVENT, NO_ARGS, ONE_PLAYER, PLAYER, Query, Sort, Term, kebab, variant_kind, variant_name, variant_names,
    variants_of,
};
pub use readings::{Base, Hook, Range, Readings, Reads, Touched};
pub use topology::{Blocked, Blocks, Graph, Grid, Occupancy};
pub use turn::{Cursor, Flow, Procedure, Slot, Stage, TurnError, TurnFlow, TurnPlan, TurnStep, drive};
pub use unapplied::{PathKey, Unapplied, under};
pub use watched::{Answer, Kept, Watched};
pub use why::Why;
pub use zones::{
    Admits, Back, Display, Drawn, Holds, Imbalance, Ledger, Lies, MoveError, Multiset, Named, Pick, Pile, Refilled,
    SeatZones, SetUp, Stack, Stamped, Supply, TableZone, Tagged, Tally, WhenEmpty, Whose, Zone, Zones, conserved,
    count_picks, each_pick, move_all, move_n, move_tagged, move_to_bottom, moved, nth_pick, unknown_zone,
};
