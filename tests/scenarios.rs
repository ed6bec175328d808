//! Every bundled scenario runs, passes, and its transcript is snapshotted:
//! any rules change shows up as a reviewable diff.

use rulecheck::catalog;
use rulecheck::games::{self, AnyRules};

pub fn catalogs() -> Vec<AnyRules> {
    rulecheck::bundled::rules().unwrap().iter().map(|g| games::load(g).unwrap()).collect()
}

#[test]
fn scenarios_pass_and_match_their_transcripts() {
    let catalogs = catalogs();
    insta::glob!("../scenarios", "**/*.yaml", |path| {
        let file = catalog::read_file(path).unwrap();
        let run = rulecheck::scenario::run_file(&catalogs, &file).unwrap_or_else(|d| panic!("{d}"));
        for r in &run.runs {
            assert!(r.passed, "{} [{}] failed:\n  {}\n\n{}", run.file, r.name, r.failures.join("\n  "), r.transcript);
        }
        insta::assert_snapshot!(run.transcript());
    });
}
