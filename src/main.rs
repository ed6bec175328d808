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
    /// Run scenario files (default: the bundled scenarios); print pass/fail per configuration.
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
        Command::Run { paths, rules, transcript, format } => run(paths, rules, transcript, format),
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

fn scenario_files(paths: &[PathBuf]) -> Result<Vec<catalog::SourceFile>, Vec<Diagnostic>> {
    if paths.is_empty() {
        return rulecheck::bundled::scenarios();
    }
    let mut files = Vec::new();
    let mut diags = Vec::new();
    for p in paths {
        let mut found = Vec::new();
        if p.is_dir() {
            collect_yaml(p, &mut found);
            found.sort();
        } else {
            found.push(p.clone());
        }
        for f in found {
            match catalog::read_file(&f) {
                Ok(sf) => files.push(sf),
                Err(d) => diags.push(d),
            }
        }
    }
    if diags.is_empty() { Ok(files) } else { Err(diags) }
}

fn collect_yaml(dir: &std::path::Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect_yaml(&p, out);
        } else if p.extension().is_some_and(|x| x == "yaml") {
            out.push(p);
        }
    }
}

fn run(paths: Vec<PathBuf>, rules: Option<PathBuf>, transcript: bool, format: Format) -> ExitCode {
    let catalogs = match load_all(rules) {
        Ok(c) => c,
        Err(diags) => return bad_input(&diags),
    };
    let files = match scenario_files(&paths) {
        Ok(f) => f,
        Err(diags) => return bad_input(&diags),
    };
    let mut results = Vec::new();
    let mut diags = Vec::new();
    for f in &files {
        match rulecheck::scenario::run_file(&catalogs, f) {
            Ok(r) => results.push(r),
            Err(d) => diags.push(d),
        }
    }
    let (mut passed, mut failed) = (0, 0);
    for r in &results {
        for c in &r.runs {
            if c.passed { passed += 1 } else { failed += 1 }
        }
    }
    match format {
        Format::Json => println!("{}", serde_json::to_string_pretty(&results).expect("results serialise")),
        Format::Text => {
            for r in &results {
                for c in &r.runs {
                    println!("{} {} [{}] {}", if c.passed { "PASS" } else { "FAIL" }, r.file, c.name, r.title);
                    if !c.passed {
                        for f in &c.failures {
                            println!("    {f}");
                        }
                        println!("    rerun: rulecheck run {}", r.file);
                    }
                    if transcript {
                        println!("{}", c.transcript);
                    }
                }
            }
            println!("run: {} scenario file(s), {passed} configuration(s) passed, {failed} failed", results.len());
        }
    }
    if !diags.is_empty() {
        return bad_input(&diags);
    }
    if failed > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS }
}

fn bad_input(diags: &[Diagnostic]) -> ExitCode {
    for d in diags {
        eprintln!("{d}\n");
    }
    eprintln!("{} error(s) in the input", diags.len());
    ExitCode::from(EXIT_BAD_INPUT)
}
