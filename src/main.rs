//! The `rulecheck` command line: argument parsing only; `commands` does the work.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};

use rulecheck::check::fuzz::FuzzOptions;
use rulecheck::check::sensitivity::SensitivityOptions;
use rulecheck::check::suite::Checks;
use rulecheck::commands::{self, CheckArgs, Exit, FuzzArgs};

mod bench_cli;
mod find_cli;
mod report_cli;
mod schema_cli;

#[derive(Parser)]
#[command(
    name = "rulecheck",
    version,
    about = "Rules verification and property testing for board games",
    after_help = EXIT_CODES
)]
struct Cli {
    /// Say nothing on stderr but errors: no progress, no notes.
    #[arg(long, short, global = true, conflicts_with = "verbose")]
    quiet: bool,
    /// Also report each scenario and each fuzz configuration as it ends (stderr).
    #[arg(long, short, global = true)]
    verbose: bool,
    #[command(subcommand)]
    command: Command,
}

const EXIT_CODES: &str = "\
Exit codes:
  0  everything held
  1  a check failed (a scenario, an invariant, the contract)
  2  bad input or usage (the message gives file:line:column, or the step and the rule)
Results go to stdout; diagnostics, notes and progress to stderr. Progress is
drawn only on a terminal (not with TERM=dumb); rulecheck writes no colour
codes of its own, and help colours follow NO_COLOR.";

const EX_CHECK: &str = "Examples:
  rulecheck check
  rulecheck check --budget 5m --jobs 8
  rulecheck check --rules my-house-rules --format json";
const EX_VALIDATE: &str = "Examples:
  rulecheck validate
  rulecheck validate rules/dry-gulch
  rulecheck validate --rules my-house-rules --format json";
const EX_RUN: &str = "Examples:
  rulecheck run
  rulecheck run scenarios/dry-gulch/bank-draw-instead-or-in-addition.yaml --transcript
  rulecheck run counterexamples/ --fault no-hand-limit   # a saved counterexample fails again";
const EX_FUZZ: &str = "Examples:
  rulecheck fuzz --game dry-gulch --games 10000
  rulecheck fuzz --game dry-gulch --players 3 --variant spreading-fire --seed 7
  rulecheck fuzz --game dry-gulch --fault chip-leak --save counterexamples/";
const EX_EXPLAIN: &str = "Examples:
  rulecheck explain --game dry-gulch
  rulecheck explain --game dry-gulch damaged-influence
  rulecheck explain --game dry-gulch --format markdown > docs/dry-gulch-edge-cases.md";
const EX_DIFF: &str = "Examples:
  rulecheck diff --game dry-gulch
  rulecheck diff --game dry-gulch damaged-influence --games 1000
  rulecheck diff --game dry-gulch permits --option needed-and-spent --option not-needed";
const EX_MATRIX: &str = "Examples:
  rulecheck matrix --game dry-gulch
  rulecheck matrix --game dry-gulch scenarios/dry-gulch --format json";
const EX_EXPLORE: &str = "Examples:
  rulecheck explore --from scenarios/dry-gulch/first-round-without-events.yaml --depth 4
  rulecheck explore --from scenarios/dry-gulch/build-needs-permit.yaml --depth 6 --fault chip-leak --save found/";
const EX_SENSITIVITY: &str = "Examples:
  rulecheck sensitivity --game dry-gulch
  rulecheck sensitivity --game dry-gulch --group buildings.yaml --each --games 500
  rulecheck sensitivity --game dry-gulch --interpretation win-threshold=fixed --format json";
const EX_MERGE: &str = "Examples:
  rulecheck merge shard-1.json shard-2.json shard-3.json";
const EX_COMPLETIONS: &str = "Examples:
  rulecheck completions bash > ~/.local/share/bash-completion/completions/rulecheck
  rulecheck completions zsh > ~/.zfunc/_rulecheck
  rulecheck completions fish > ~/.config/fish/completions/rulecheck.fish";

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
    #[command(after_help = EX_CHECK)]
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
        /// The most actions one game may take before it breaks `termination`.
        #[arg(long, default_value_t = rulecheck::check::fuzz::MAX_ACTIONS, value_parser = at_least_one::<usize>)]
        max_actions: usize,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Load and lint catalogs; print every diagnostic with file:line:column.
    #[command(after_help = EX_VALIDATE)]
    Validate {
        /// A folder of game catalogs (or one game's folder); default: the bundled catalogs.
        dir: Option<PathBuf>,
        #[arg(long, conflicts_with = "dir")]
        rules: Option<PathBuf>,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Run scenario files (default: the bundled scenarios); pass/fail per configuration.
    #[command(after_help = EX_RUN)]
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
    #[command(after_help = EX_FUZZ)]
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
        /// The most actions one game may take before it breaks `termination`
        /// (raise it for a house rule whose games are this long by design).
        #[arg(long, default_value_t = rulecheck::check::fuzz::MAX_ACTIONS, value_parser = at_least_one::<usize>)]
        max_actions: usize,
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
    #[command(after_help = EX_EXPLAIN)]
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
    #[command(after_help = EX_DIFF)]
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
    #[command(after_help = EX_MATRIX)]
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
    #[command(after_help = EX_EXPLORE)]
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
    /// Search for a short action sequence to a state where a condition holds; the witness
    /// shrunk, with the command that reproduces it, and saved as a passing scenario.
    #[command(after_help = find_cli::EX_FIND)]
    Find(find_cli::FindCli),
    /// One check-sized run over every bundled game as a self-contained HTML page and JSON.
    #[command(after_help = report_cli::EX_REPORT)]
    Report(report_cli::ReportCli),
    #[command(about = "JSON Schema of every catalog and scenario file, for editors", after_help = schema_cli::EX_SCHEMA)]
    Schema(schema_cli::SchemaCli),
    /// Which invented numbers matter: every assumed number of the catalog (grouped by file
    /// and field, or one at a time) halved, doubled, plus and minus one, or one moved within
    /// its group; the same seeds played under each, and the groups ranked by how much the
    /// outcome moves, with 95% intervals.
    #[command(after_help = EX_SENSITIVITY)]
    Sensitivity {
        #[arg(long)]
        game: String,
        /// Games per change (and for the base); game i plays with seed SEED + i.
        #[arg(long, default_value_t = 200, value_parser = at_least_one::<u64>)]
        games: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value_t = 4)]
        players: u32,
        #[arg(long = "variant")]
        variants: Vec<String>,
        /// ID=OPTION, repeatable.
        #[arg(long = "interpretation")]
        interpretations: Vec<String>,
        /// Only the groups whose name contains TEXT (repeatable), e.g. buildings.yaml:cost.
        #[arg(long = "group", value_name = "TEXT")]
        groups: Vec<String>,
        /// One assumed number at a time instead of one group per file and field.
        #[arg(long)]
        each: bool,
        /// Threads (default: all cores); results do not depend on it.
        #[arg(long, value_parser = at_least_one::<usize>)]
        jobs: Option<usize>,
        /// No change starts after this long (those left are listed as not measured).
        #[arg(long, default_value = "45s", value_parser = parse_positive_duration)]
        budget: Duration,
        #[arg(long)]
        rules: Option<PathBuf>,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Combine the JSON summaries of sharded `fuzz` runs into one.
    #[command(after_help = EX_MERGE)]
    Merge {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Playouts and actions per second per game and player count, with and without invariants.
    #[command(after_help = bench_cli::EX_BENCH)]
    Bench(bench_cli::BenchCli),
    /// Print a shell completion script for bash, zsh or fish on stdout.
    #[command(after_help = EX_COMPLETIONS)]
    Completions { shell: clap_complete::Shell },
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
    let cli = match Cli::from_arg_matches(&cli_command().get_matches()) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    commands::progress::set_verbosity(match (cli.quiet, cli.verbose) {
        (true, _) => commands::progress::Verbosity::Quiet,
        (_, true) => commands::progress::Verbosity::Verbose,
        _ => commands::progress::Verbosity::Normal,
    });
    let exit = match cli.command {
        Command::Validate { dir, rules, format } => {
            commands::validate(dir.or(rules).as_deref(), format == Format::Json)
        }
        Command::Run { paths, rules, transcript, format, fault } => {
            commands::run(&paths, rules.as_deref(), transcript, format == Format::Json, fault.as_deref())
        }
        Command::Check { rules, scenarios, budget, jobs: j, seed, shard: sh, shards, max_actions, format } => {
            match shard(sh, shards) {
                Ok(shard) => commands::check(&CheckArgs {
                    rules,
                    scenarios,
                    budget,
                    jobs: jobs(j),
                    seed,
                    shard,
                    max_actions,
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
            max_actions,
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
                let opts = FuzzOptions { games, seed, jobs: jobs(j), checks, fault, time_limit, max_actions, shard };
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
        Command::Find(f) => f.run(),
        Command::Report(r) => r.run(),
        Command::Schema(s) => s.run(),
        Command::Sensitivity {
            game,
            games,
            seed,
            players,
            variants,
            interpretations,
            groups,
            each,
            jobs: j,
            budget,
            rules,
            format,
        } => match commands::config_for(&game, players, &variants, &interpretations, None) {
            Ok(config) => commands::sensitivity_command(&commands::SensitivityArgs {
                game,
                opts: SensitivityOptions { config, games, seed, jobs: jobs(j), each, only: groups, deadline: None },
                budget,
                rules,
                json: format == Format::Json,
            }),
            Err(e) => usage(&e),
        },
        Command::Merge { files, format } => commands::merge(&files, format == Format::Json),
        Command::Bench(b) => b.run(),
        Command::Completions { shell } => {
            clap_complete::generate(shell, &mut cli_command(), "rulecheck", &mut std::io::stdout());
            Exit::Ok
        }
    };
    ExitCode::from(exit as u8)
}

/// The command line, with `--version` naming the bundled catalogs' versions.
fn cli_command() -> clap::Command {
    let catalogs: Vec<String> = rulecheck::bundled::catalog_versions()
        .into_iter()
        .map(|(game, version, files)| format!("{game} catalog {version} ({files} files)"))
        .collect();
    let version = format!("{}\n{}", env!("CARGO_PKG_VERSION"), catalogs.join("\n"));
    // built once or twice a run; clap keeps only 'static strings
    let version: &'static str = Box::leak(version.into_boxed_str());
    Cli::command().version(version)
}

fn usage(e: &str) -> Exit {
    eprintln!("error: {e}");
    Exit::BadInput
}
