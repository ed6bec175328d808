//! `Why`: what a failed legality check gives, so that one check serves
//! both the legal list and `apply`.
//!
//! A game's legal list asks of every candidate action only whether it is
//! legal; `apply` and scenarios want the `RuleError` that says which rule
//! forbids it. A check written once, generic over `W: Why`, gives either:
//! `check::<RuleError>` words the error, `check::<()>` answers yes or no
//! and builds no message (no `format!`, no allocation) for the candidates
//! it drops. The error is made by a closure that only `RuleError`'s
//! implementation calls.
//!
//! ```
//! use rulecheck::engine::{RuleError, Why};
//!
//! fn at_most<W: Why>(n: u32, max: u32) -> Result<(), W> {
//!     if n > max {
//!         return Err(W::why(|| RuleError::new("toy/limit", "toy § Limit", format!("at most {max}, not {n}"))));
//!     }
//!     Ok(())
//! }
//!
//! assert!(at_most::<()>(3, 2).is_err());
//! assert_eq!(at_most::<RuleError>(3, 2).unwrap_err().message, "at most 2, not 3");
//! assert!(at_most::<RuleError>(2, 2).is_ok());
//! ```

use super::game::RuleError;

/// What a legality check that fails gives: the `RuleError` (for `apply`
/// and scenarios), or `()` (for the legal list, which needs only yes or
/// no). `make` is called only by the implementation that keeps the error.
pub trait Why: Sized {
    fn why(make: impl FnOnce() -> RuleError) -> Self;
}

impl Why for RuleError {
    fn why(make: impl FnOnce() -> RuleError) -> RuleError {
        make()
    }
}

impl Why for () {
    fn why(_: impl FnOnce() -> RuleError) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_rule_error_words_the_refusal() {
        let mut made = 0;
        let () = <()>::why(|| {
            made += 1;
            RuleError::new("r", "s", "m")
        });
        assert_eq!(made, 0);
        let e = RuleError::why(|| {
            made += 1;
            RuleError::new("r", "s", "m")
        });
        assert_eq!((made, e.message.as_str()), (1, "m"));
    }
}
