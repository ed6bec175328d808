//! The command line of `rulecheck find` (kept beside `main.rs`, which
//! parses every command's arguments, so that file stays short).

use std::path::PathBuf;
use std::time::Duration;

use rulecheck::commands::{self, Exit, FindArgs};

use super::{Format, at_least_one, jobs, parse_positive_duration};

pub const EX_FIND: &str = "Examples:
  rulecheck find --game dry-gulch --until 'count(building: damaged(building)) >= 2'
  rulecheck find --game dry-gulch --until 'any player: winner(player) and happened(fire)' --save found/
  rulecheck find --from scenarios/dry-gulch/build-needs-permit.yaml --until 'deck(resource) == 0'
Exit codes: 0 found, 1 not found within the budget (or proven unreachable), 2 bad input.
The condition language and every game's names: docs/find.md.";

#[derive(clap::Args)]
pub struct FindCli {
    /// The game, searched from its set-up (or --from).
    #[arg(long, required_unless_present = "from")]
    game: Option<String>,
    /// The condition, e.g. "any player: hand(player) >= 10".
    #[arg(long)]
    until: String,
    /// A scenario file whose state after its steps is the start.
    #[arg(long, conflicts_with = "game")]
    from: Option<PathBuf>,
    /// The --from scenario's configuration by name (default: the first).
    #[arg(long, requires = "from")]
    config: Option<String>,
    #[arg(long, default_value_t = 4)]
    players: u32,
    #[arg(long = "variant")]
    variants: Vec<String>,
    /// ID=OPTION, repeatable.
    #[arg(long = "interpretation")]
    interpretations: Vec<String>,
    #[arg(long, value_parser = at_least_one::<u32>)]
    turn_cap: Option<u32>,
    /// The game's seed (from the set-up) and the random games' first chooser seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Random games before the best-first search.
    #[arg(long, default_value_t = 200)]
    games: u64,
    /// Distinct states the best-first search keeps at most.
    #[arg(long, default_value_t = 50_000, value_parser = at_least_one::<usize>)]
    max_states: usize,
    /// Stop searching after this long, e.g. 30s.
    #[arg(long, default_value = "60s", value_parser = parse_positive_duration)]
    time_limit: Duration,
    /// Threads for the random games (default: all cores); the witness does not depend on it.
    #[arg(long, value_parser = at_least_one::<usize>)]
    jobs: Option<usize>,
    /// Write the witness as a scenario file into DIR.
    #[arg(long)]
    save: Option<PathBuf>,
    #[arg(long)]
    rules: Option<PathBuf>,
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
}

impl FindCli {
    pub fn run(self) -> Exit {
        commands::find_command(&FindArgs {
            game: self.game,
            until: self.until,
            from: self.from,
            config_name: self.config,
            players: self.players,
            variants: self.variants,
            interpretations: self.interpretations,
            turn_cap: self.turn_cap,
            seed: self.seed,
            games: self.games,
            max_states: self.max_states,
            time_limit: Some(self.time_limit),
            jobs: jobs(self.jobs),
            save: self.save,
            rules: self.rules,
            json: self.format == Format::Json,
        })
    }
}
