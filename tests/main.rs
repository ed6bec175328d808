//! The one integration-test binary: every test module links once.

mod bad_input;
mod board_blocks;
mod cli;
mod cli_conventions;
mod dc_interp;
mod dc_play;
mod dry_gulch_play;
mod engine_blocks;
mod explore;
mod find;
mod interp;
mod mutants;
mod properties;
mod rdj_play;
mod reliability;
mod report;
mod scenario_runner;
mod scenarios;
mod sensitivity;
mod support;
mod tidy;
mod toy;
mod toy_game;
mod user_catalogs;
