//! The one integration-test binary.

mod dry_gulch_play;
