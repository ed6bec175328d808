//! The `rulecheck` command line: argument parsing only; `commands` does the work.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand, ValueEnum};

use rulecheck::check::fuzz::FuzzOptions;
use rulecheck::check::suite::Checks;
use rulecheck::commands::{self, CheckArgs, Exit, FuzzArgs};

#[derive(Parser)]
#[command(name = "rulecheck", version, about = "Rules verification and property testing for board games")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum Format {
    Text,
    Json,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum ExplainFormat {
    Text,
    Markdown,
}

#[derive(Subcommand)]
enum Command {
    /// The main job: validate every catalog, run every scenario, fuzz every game
    /// under its default configuration, each variant and a pairwise covering set
    /// of interpretation options, within a time budget; print one summary table.
    Check {
        /// A folder of game catalogs instead of the bundled ones.
        #[arg(long)]
        rules: Option<PathBuf>,
        /// A folder of scenarios instead of the bundled ones.
        #[arg(long)]
        scenarios: Option<PathBuf>,
        /// Wall-time budget for the whole run, e.g. 60s or 5m.
        #[arg(long, default_value = "60s", value_parser = parse_positive_duration)]
        budget: Duration,
        /// Threads (default: all cores).
        #[arg(long, value_parser = at_least_one::<usize>)]
        jobs: Option<usize>,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Play only shard K of N (1-based), also read from RULECHECK_SHARD.
        #[arg(long)]
        shard: Option<String>,
        /// The number of shards when the index comes from a Kubernetes Indexed
        /// Job (JOB_COMPLETION_INDEX, 0-based); also read from RULECHECK_SHARDS.
        #[arg(long, value_parser = at_least_one::<u64>)]
        shards: Option<u64>,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Load and lint catalogs; print every diagnostic with file:line:column.
    Validate {
        /// A folder of game catalogs (or one game's folder); default: the bundled catalogs.
        dir: Option<PathBuf>,
        #[arg(long, conflicts_with = "dir")]
        rules: Option<PathBuf>,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Run scenario files (default: the bundled scenarios); pass/fail per configuration.
    Run {
        /// Scenario files or folders.
        paths: Vec<PathBuf>,
        #[arg(long)]
        rules: Option<PathBuf>,
        /// Print each scenario's transcript.
        #[arg(long)]
        transcript: bool,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        /// Break a rule on purpose (for showing a saved counterexample fails).
        #[arg(long)]
        fault: Option<String>,
    },
    /// Random playouts with invariant checks; a failure is shrunk and can be saved as a scenario.
    Fuzz {
        #[arg(long)]
        game: String,
        #[arg(long, default_value_t = 1000, value_parser = at_least_one::<u64>)]
        games: u64,
        /// Game i plays with seed SEED + i.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value_t = 4)]
        players: u32,
        #[arg(long = "variant")]
        variants: Vec<String>,
        /// ID=OPTION, repeatable.
        #[arg(long = "interpretation")]
        interpretations: Vec<String>,
        #[arg(long, value_parser = at_least_one::<u32>)]
        turn_cap: Option<u32>,
        /// Threads (default: all cores); results do not depend on it.
        #[arg(long, value_parser = at_least_one::<usize>)]
        jobs: Option<usize>,
        /// Stop starting games after this long, e.g. 30s.
        #[arg(long, value_parser = parse_positive_duration)]
        time_limit: Option<Duration>,
        /// Write the shrunk counterexample as a scenario file into DIR.
        #[arg(long)]
        save: Option<PathBuf>,
        /// Skip the invariant checks (to measure bare play).
        #[arg(long)]
        no_invariants: bool,
        /// Also check the engine contract after every action (clone, replay, round trips).
        #[arg(long)]
        contract: bool,
        /// Break a rule on purpose, to see the harness catch it.
        #[arg(long)]
        fault: Option<String>,
        /// Play only shard K of N (1-based), also read from RULECHECK_SHARD.
        #[arg(long)]
        shard: Option<String>,
        /// The number of shards when the index comes from a Kubernetes Indexed
        /// Job (JOB_COMPLETION_INDEX, 0-based); also read from RULECHECK_SHARDS.
        #[arg(long, value_parser = at_least_one::<u64>)]
        shards: Option<u64>,
        #[arg(long)]
        rules: Option<PathBuf>,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Explain a game's interpretations and variants: the question, the citations on
    /// each side, the options, the default and why, and the scenarios that pin them
    /// (`--format markdown`: the docs/<game>-edge-cases.md book).
    Explain {
        #[arg(long)]
        game: String,
        /// One interpretation or variant (default: all of them).
        id: Option<String>,
        #[arg(long, value_enum, default_value = "text")]
        format: ExplainFormat,
        /// Also play every live interpretation's options against each other over
        /// N games (4 players, seed 1) and show the results (text only).
        #[arg(long, value_parser = at_least_one::<u64>)]
        diff_games: Option<u64>,
        #[arg(long)]
        rules: Option<PathBuf>,
    },
    /// Play the same random games under each option of an interpretation: how often the
    /// outcome and the length change, where the states first part, and whether the engine
    /// consults it at all (without an interpretation: a table of every live one).
    Diff {
        #[arg(long)]
        game: String,
        /// The interpretation to vary (default: every live one).
        interpretation: Option<String>,
        /// An option to compare, repeatable, the first the base (default: all, the default first).
        #[arg(long = "option")]
        options: Vec<String>,
        #[arg(long, default_value_t = 200, value_parser = at_least_one::<u64>)]
        games: u64,
        /// Game i plays with seed SEED + i.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value_t = 4)]
        players: u32,
        #[arg(long = "variant")]
        variants: Vec<String>,
        /// Other readings held fixed, ID=OPTION, repeatable.
        #[arg(long = "interpretation")]
        interpretations: Vec<String>,
        #[arg(long, value_parser = at_least_one::<u32>)]
        turn_cap: Option<u32>,
        #[arg(long)]
        rules: Option<PathBuf>,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Every scenario under each option of each interpretation: which outcomes change.
    Matrix {
        #[arg(long)]
        game: String,
        #[arg(long)]
        rules: Option<PathBuf>,
        /// Scenario files or folders (default: the bundled scenarios).
        paths: Vec<PathBuf>,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Every action and chance outcome to a depth from a scenario's state, breadth-first,
    /// every invariant and the per-step contract checked; a violation with its shortest path.
    Explore {
        /// The scenario file whose state after its steps is the start.
        #[arg(long)]
        from: PathBuf,
        /// Actions from the scenario's state.
        #[arg(long, value_parser = at_least_one::<usize>)]
        depth: usize,
        /// Stop (exit 1) when this many distinct states are kept.
        #[arg(long, default_value_t = rulecheck::check::explore::DEFAULT_MAX_STATES, value_parser = at_least_one::<usize>)]
        max_states: usize,
        /// The scenario's configuration by name, when it has several (default: the first).
        #[arg(long)]
        config: Option<String>,
        #[arg(long = "variant")]
        variants: Vec<String>,
        /// ID=OPTION laid over the scenario's readings, repeatable.
        #[arg(long = "interpretation")]
        interpretations: Vec<String>,
        /// Break a rule on purpose in the scenario's state, to see the exploration catch it.
        #[arg(long)]
        fault: Option<String>,
        /// Write a violation's path as a scenario file into DIR.
        #[arg(long)]
        save: Option<PathBuf>,
        #[arg(long)]
        rules: Option<PathBuf>,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Combine the JSON summaries of sharded `fuzz` runs into one.
    Merge {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Playouts and actions per second per game and player count, with and without invariants.
    Bench {
        #[arg(long, default_value_t = 200, value_parser = at_least_one::<u64>)]
        games: u64,
        #[arg(long, default_value_t = 3, value_parser = at_least_one::<usize>)]
        repetitions: usize,
        #[arg(long)]
        rules: Option<PathBuf>,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
}

fn parse_duration(s: &str) -> Result<Duration, String> {
    let (num, unit) =
        s.trim().split_at(s.trim().find(|c: char| !c.is_ascii_digit() && c != '.').unwrap_or(s.trim().len()));
    let n: f64 = num.parse().map_err(|_| format!("`{s}` is not a duration like 60s, 5m or 1h"))?;
    let secs = match unit {
        "" | "s" => n,
        "ms" => n / 1000.0,
        "m" => n * 60.0,
        "h" => n * 3600.0,
        _ => return Err(format!("`{s}` is not a duration like 60s, 5m or 1h")),
    };
    Duration::try_from_secs_f64(secs)
        .map_err(|_| format!("`{s}` is too long a duration (at most {} seconds)", u64::MAX))
}

/// A duration that is not zero: a zero budget or time limit checks nothing.
fn parse_positive_duration(s: &str) -> Result<Duration, String> {
    let d = parse_duration(s)?;
    if d.is_zero() {
        return Err(format!("`{s}` checks nothing; give a duration of more than 0s"));
    }
    Ok(d)
}

/// A count of at least one (threads, games, turns): zero would check nothing
/// or never start.
fn at_least_one<T: std::str::FromStr + PartialEq + From<u8>>(s: &str) -> Result<T, String> {
    let n: T = s.trim().parse().map_err(|_| format!("`{s}` is not a whole number"))?;
    if n == T::from(0) {
        return Err(format!("`{s}` is not allowed here; give at least 1"));
    }
    Ok(n)
}

fn jobs(j: Option<usize>) -> usize {
    j.unwrap_or_else(|| std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1))
}

fn shard(flag: Option<String>, shards: Option<u64>) -> Result<Option<(u64, u64)>, String> {
    commands::resolve_shard(flag.as_deref(), shards, &commands::env_var)
}

/// Restores the default action of SIGPIPE, which the Rust runtime ignores:
/// a write to a closed pipe (`rulecheck run | head -1`) then ends the process
/// quietly, as it ends every Unix filter, instead of `println!` panicking on
/// EPIPE. The exit status is the conventional "killed by SIGPIPE" (141 in a
/// shell), so a truncated `check` never reads as "everything held".
#[cfg(unix)]
fn default_sigpipe() {
    const SIGPIPE: i32 = 13;
    const SIG_DFL: usize = 0;
    unsafe extern "C" {
        fn signal(signum: i32, handler: usize) -> usize;
    }
    // SAFETY: `signal` from the C library, called before any thread starts,
    // with the default disposition (no handler function runs).
    unsafe {
        signal(SIGPIPE, SIG_DFL);
    }
}

#[cfg(not(unix))]
fn default_sigpipe() {}

fn main() -> ExitCode {
    default_sigpipe();
    let cli = Cli::parse();
    let exit = match cli.command {
        Command::Validate { dir, rules, format } => {
            commands::validate(dir.or(rules).as_deref(), format == Format::Json)
        }
        Command::Run { paths, rules, transcript, format, fault } => {
            commands::run(&paths, rules.as_deref(), transcript, format == Format::Json, fault.as_deref())
        }
        Command::Check { rules, scenarios, budget, jobs: j, seed, shard: sh, shards, format } => {
            match shard(sh, shards) {
                Ok(shard) => commands::check(&CheckArgs {
                    rules,
                    scenarios,
                    budget,
                    jobs: jobs(j),
                    seed,
                    shard,
                    json: format == Format::Json,
                }),
                Err(e) => usage(&e),
            }
        }
        Command::Fuzz {
            game,
            games,
            seed,
            players,
            variants,
            interpretations,
            turn_cap,
            jobs: j,
            time_limit,
            save,
            no_invariants,
            contract,
            fault,
            shard: sh,
            shards,
            rules,
            format,
        } => match (commands::config_for(&game, players, &variants, &interpretations, turn_cap), shard(sh, shards)) {
            (Ok(config), Ok(shard)) => {
                let checks = match (no_invariants, contract) {
                    (_, true) => Checks { invariants: !no_invariants, contract: true, yaml_every: 50 },
                    (true, false) => Checks::NONE,
                    (false, false) => Checks::INVARIANTS,
                };
                let opts =
                    FuzzOptions { games, seed, jobs: jobs(j), checks, fault, time_limit, max_actions: 200_000, shard };
                commands::fuzz_command(&FuzzArgs { game, config, opts, save, json: format == Format::Json, rules })
            }
            (Err(e), _) | (_, Err(e)) => usage(&e),
        },
        Command::Explain { game, id, format, diff_games, rules } => rulecheck::commands::explain_command(
            &game,
            id.as_deref(),
            format == ExplainFormat::Markdown,
            diff_games,
            rules.as_deref(),
        ),
        Command::Diff {
            game,
            interpretation,
            options,
            games,
            seed,
            players,
            variants,
            interpretations,
            turn_cap,
            rules,
            format,
        } => match commands::config_for(&game, players, &variants, &interpretations, turn_cap) {
            Ok(config) => rulecheck::commands::diff_command(&rulecheck::commands::DiffArgs {
                game,
                interpretation,
                options,
                config,
                games,
                seed,
                json: format == Format::Json,
                rules,
            }),
            Err(e) => usage(&e),
        },
        Command::Matrix { game, rules, paths, format } => {
            commands::matrix(&game, rules.as_deref(), &paths, format == Format::Json)
        }
        Command::Explore { from, depth, max_states, config, variants, interpretations, fault, save, rules, format } => {
            commands::explore_command(&commands::ExploreArgs {
                from,
                depth,
                max_states,
                config,
                variants,
                interpretations,
                fault,
                save,
                rules,
                json: format == Format::Json,
            })
        }
        Command::Merge { files, format } => commands::merge(&files, format == Format::Json),
        Command::Bench { games, repetitions, rules, format } => {
            commands::bench(rules.as_deref(), games, repetitions.max(1), format == Format::Json)
        }
    };
    ExitCode::from(exit as u8)
}

fn usage(e: &str) -> Exit {
    eprintln!("error: {e}");
    Exit::BadInput
}
