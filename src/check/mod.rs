//! Checking games: random playouts with invariants after every action, the
//! generic contract suite every game gets, shrinking, run summaries, and
//! exhaustive bounded exploration.

pub mod explore;
pub mod find;
pub mod fuzz;
pub mod malformed;
pub mod playout;
pub mod pool;
pub mod query;
pub mod sensitivity;
pub mod state_hash;
pub mod suite;
