//! The command line of `rulecheck report` (kept beside `main.rs`, which
//! parses every command's arguments, so that file stays short).

use std::path::PathBuf;
use std::time::Duration;

use rulecheck::commands::Exit;
use rulecheck::commands::report::{ReportArgs, report_command};

use super::{at_least_one, jobs, parse_positive_duration};

pub const EX_REPORT: &str = "Examples:
  rulecheck report --out target/report
  rulecheck report --out target/report --budget 5m --seed 7
Writes DIR/index.html (one self-contained page: no network, every chart inline SVG) and
DIR/report.json (the same data); prints both paths. Exit codes: 0 written and every
invariant held, 1 written but a fuzzed game failed, 2 bad input or the folder cannot be written.";

#[derive(clap::Args)]
pub struct ReportCli {
    /// The folder to write index.html and report.json into (made if missing).
    #[arg(long)]
    out: PathBuf,
    /// Wall-time budget for the whole run, e.g. 30s or 5m.
    #[arg(long, default_value = "30s", value_parser = parse_positive_duration)]
    budget: Duration,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads for fuzzing (default: all cores).
    #[arg(long, value_parser = at_least_one::<usize>)]
    jobs: Option<usize>,
}

impl ReportCli {
    pub fn run(self) -> Exit {
        report_command(&ReportArgs { out: self.out, budget: self.budget, seed: self.seed, jobs: jobs(self.jobs) })
    }
}
