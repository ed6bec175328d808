//! The command line of `rulecheck schema` (kept beside `main.rs`, which
//! parses every command's arguments, so that file stays short).

use std::path::PathBuf;

use rulecheck::commands::Exit;
use rulecheck::schema::schema_command;

pub const EX_SCHEMA: &str = "Examples:
  rulecheck schema --out schema
  rulecheck schema --out schema --stamp   # in the repository: also add each YAML file's schema line
Writes DIR/<game>/<file>.json for every catalog file of every bundled game and
DIR/<game>/scenario.json for its scenarios (JSON Schema draft-07, for editors that use
yaml-language-server); prints each path. --stamp puts
`# yaml-language-server: $schema=<path>` on top of every file under rules/ and scenarios/
of the current folder that lacks it. Exit codes: 0 written, 2 a file cannot be written.";

#[derive(clap::Args)]
pub struct SchemaCli {
    /// The folder to write the schemas into (made if missing).
    #[arg(long)]
    out: PathBuf,
    /// Also put the line naming its schema on top of each YAML file under rules/ and
    /// scenarios/ here that lacks it (OUT must then be a folder inside this one).
    #[arg(long)]
    stamp: bool,
}

impl SchemaCli {
    pub fn run(self) -> Exit {
        schema_command(&self.out, self.stamp)
    }
}
