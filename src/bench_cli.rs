//! The command line of `rulecheck bench` (kept beside `main.rs`, which
//! parses every command's arguments, so that file stays short).

use std::path::PathBuf;

use rulecheck::commands::{self, BenchArgs, Exit};

use super::{Format, at_least_one};

pub const EX_BENCH: &str = "Examples:
  rulecheck bench
  rulecheck bench --games 500 --repetitions 5 --format json
  rulecheck bench --game dry-gulch --against ../old/target/release/rulecheck   # this build vs another, in one run";

#[derive(clap::Args)]
pub struct BenchCli {
    #[arg(long, default_value_t = 200, value_parser = at_least_one::<u64>)]
    games: u64,
    /// Measurements per row; with --against, rounds of each build.
    #[arg(long, default_value_t = 3, value_parser = at_least_one::<usize>)]
    repetitions: usize,
    #[arg(long)]
    rules: Option<PathBuf>,
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Only this game's rows.
    #[arg(long)]
    game: Option<String>,
    /// Another build of rulecheck: both are measured in one run, in
    /// alternating rounds, and each row gives this build's rate over the other's.
    #[arg(long)]
    against: Option<PathBuf>,
}

impl BenchCli {
    pub fn run(self) -> Exit {
        commands::bench(&BenchArgs {
            rules: self.rules,
            games: self.games,
            repetitions: self.repetitions.max(1),
            json: self.format == Format::Json,
            game: self.game,
            against: self.against,
        })
    }
}
