//! The effect, condition and selector language every game shares, and the
//! decision agenda its effects run on.
//!
//! Layer: above `engine`, below `games`; it may import `yaml`, `catalog`
//! and `engine`.

mod agenda;

pub use agenda::{Agenda, Steps, run};
