//! The `rulecheck` command line: argument parsing and exit codes only.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use rulecheck::catalog::diag::Diagnostic;
use rulecheck::catalog::{self, GameSources};
use rulecheck::games::{self, AnyRules};

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

#[derive(Subcommand)]
enum Command {
    /// The main job: validate every catalog (more stages follow as they land).
    Check {
        /// A folder of game catalogs instead of the bundled ones.
        #[arg(long)]
        rules: Option<PathBuf>,
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
}

/// Exit codes: 0 everything held, 1 a check failed, 2 bad input or usage.
const EXIT_BAD_INPUT: u8 = 2;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Validate { dir, rules, format } => validate(dir.or(rules), format),
        Command::Check { rules, format } => {
            eprintln!(
                "check: this build runs the validation stage only (scenarios and fuzzing are not implemented yet)"
            );
            validate(rules, format)
        }
    }
}

fn read_sources(dir: Option<PathBuf>) -> Result<Vec<GameSources>, Vec<Diagnostic>> {
    match dir {
        Some(d) => catalog::read_root(&d),
        None => rulecheck::bundled::rules(),
    }
}

fn load_all(dir: Option<PathBuf>) -> Result<Vec<AnyRules>, Vec<Diagnostic>> {
    let sources = read_sources(dir)?;
    let mut out = Vec::new();
    let mut diags = Vec::new();
    for g in &sources {
        match games::load(g) {
            Ok(r) => out.push(r),
            Err(mut d) => diags.append(&mut d),
        }
    }
    if diags.is_empty() { Ok(out) } else { Err(diags) }
}

fn validate(dir: Option<PathBuf>, format: Format) -> ExitCode {
    match load_all(dir) {
        Err(diags) => {
            for d in &diags {
                eprintln!("{d}\n");
            }
            eprintln!("validate: {} error(s)", diags.len());
            ExitCode::from(EXIT_BAD_INPUT)
        }
        Ok(all) => {
            let summaries: Vec<_> = all.iter().map(AnyRules::summary).collect();
            match format {
                Format::Json => println!("{}", serde_json::to_string_pretty(&summaries).expect("summaries serialise")),
                Format::Text => {
                    for s in &summaries {
                        let entities: Vec<String> = s.entities.iter().map(|(k, v)| format!("{v} {k}")).collect();
                        println!("{} ({}): {}", s.game, s.name, entities.join(", "));
                        println!(
                            "  {} variants, {} interpretations ({} the engine branches on, {} inert)",
                            s.variants,
                            s.interpretations,
                            s.interpretations_live,
                            s.interpretations - s.interpretations_live
                        );
                        println!("  numbers: {} cited, {} assumed", s.numbers.cited, s.numbers.assumed);
                    }
                    println!("validate: {} catalog(s), no errors", summaries.len());
                }
            }
            ExitCode::SUCCESS
        }
    }
}
