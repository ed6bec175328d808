//! Checking games: random playouts with invariants after every action, the
//! generic contract suite every game gets, shrinking, and run summaries.

pub mod fuzz;
pub mod playout;
pub mod suite;
