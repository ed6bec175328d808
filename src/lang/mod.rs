//! The effect, condition and selector language every game shares, and the
//! decision agenda its effects run on.
//!
//! Layer: above `engine`, below `games`; it may import `yaml`, `catalog`
//! and `engine`.

mod agenda;

pub use agenda::{Agenda, Steps, run};
mod compile;
mod cond;
mod core;
pub mod declared;
mod effect;
mod ids;
mod lowering;
mod node;

pub use compile::{
    Check, Compiler, Host, Names, OpDef, Param, Registry, Report, Tables, Ty, did_you_mean, named, no_check, opt, req,
};
pub use core::Core;
pub use effect::{
    Args, Choice, Choosing, Cmp, Cond, Effect, Expand, Lang, Never, Quantity, Sel, Step, Val, World, chosen, eval,
    expand, from_active, queue_each, seats, step,
};
pub use ids::{CatalogIds, by_seat, counted, each_seat, id_named, index_named, option_id, option_named};
pub use lowering::Lowering;
pub use node::{Node, Value, Word};
