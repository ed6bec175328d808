//! What users expect of a Rust command line: examples in every command's
//! help, shell completions, exit codes written down, `--quiet` and
//! `--verbose`, no escape codes when output is not a terminal or under
//! `NO_COLOR`, and `--version` naming the bundled catalogs.

use std::process::Command;

use crate::support::rulecheck;

fn rulecheck_env(args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_rulecheck")).args(args).envs(env.iter().copied()).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The subcommands `rulecheck --help` lists.
fn subcommands() -> Vec<String> {
    let (code, out, _) = rulecheck(&["--help"]);
    assert_eq!(code, 0);
    let listed = out.split("Commands:").nth(1).expect("a Commands section").split("Options:").next().unwrap();
    listed
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(String::from)
        .collect()
}

#[test]
fn every_command_has_examples_in_its_help() {
    let names = subcommands();
    assert!(names.len() >= 10, "{names:?}");
    for name in &names {
        let (code, out, err) = rulecheck(&[name, "--help"]);
        assert_eq!(code, 0, "{name}: {err}");
        let examples = out.split("Examples:").nth(1).unwrap_or_else(|| panic!("`{name} --help` has no examples"));
        assert!(examples.contains(&format!("rulecheck {name}")), "{name}: {examples}");
    }
}

#[test]
fn exit_codes_are_in_the_help_and_the_readme() {
    let (_, help, _) = rulecheck(&["--help"]);
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    for text in [&help, &readme] {
        let codes = text.split("Exit codes").nth(1).expect("an exit-code section");
        let codes = codes.split_whitespace().collect::<Vec<_>>().join(" ");
        for line in ["0 everything held", "1 a check failed", "2 bad input or usage"] {
            assert!(codes.contains(line), "missing `{line}` in:\n{codes}");
        }
    }
}

#[test]
fn completions_generate_for_bash_zsh_and_fish() {
    for shell in ["bash", "zsh", "fish"] {
        let (code, out, err) = rulecheck(&["completions", shell]);
        assert_eq!(code, 0, "{shell}: {err}");
        for name in subcommands() {
            assert!(out.contains(&name), "{shell} completions lack `{name}`");
        }
    }
    let (code, _, err) = rulecheck(&["completions", "tcsh"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn version_names_every_bundled_catalog() {
    let (code, out, _) = rulecheck(&["--version"]);
    assert_eq!(code, 0);
    for g in rulecheck::bundled::rules().unwrap() {
        let line = out.lines().find(|l| l.starts_with(&format!("{} catalog ", g.name))).expect("a catalog line");
        let version = line.split_whitespace().nth(2).unwrap();
        assert!(version.len() == 8 && version.chars().all(|c| c.is_ascii_hexdigit()), "{line}");
        assert!(line.ends_with(&format!("({} files)", g.files.len())), "{line}");
    }
}

#[test]
fn no_escape_codes_off_a_terminal_or_under_no_color() {
    // the budget bounds the scenario stage too, which a loaded two-core
    // machine runs in a few seconds in the test build: 6s leaves it room
    for env in [&[("NO_COLOR", "1")][..], &[][..]] {
        let (code, out, err) = rulecheck_env(&["check", "--budget", "6s"], env);
        assert_eq!(code, 0, "{err}");
        assert!(!out.contains('\u{1b}') && !err.contains('\u{1b}'), "escape codes with {env:?}:\n{out}\n{err}");
        let (_, help, _) = rulecheck_env(&["fuzz", "--help"], env);
        assert!(!help.contains('\u{1b}'));
    }
}

/// The table in the README's "What `check` prints" is one a run prints:
/// each game's columns that do not depend on the machine (entities,
/// interpretations, assumed numbers, scenarios, configurations and the
/// invariants held) are this build's, whatever the budget.
fn the_readme_shows_what_check_prints(out: &str) {
    let readme = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let shown = &readme[readme.find("## What `check` prints").expect("the README shows check's output")..];
    let fixed = |line: &str| {
        let w: Vec<&str> = line.split_whitespace().collect();
        [&w[..6], &w[8..10]].concat().join(" ")
    };
    let rows = |text: &str| -> Vec<String> {
        let rows = text.lines().skip_while(|l| !l.starts_with("game ")).skip(1);
        rows.take_while(|l| !l.starts_with("stages:")).filter(|l| !l.starts_with(' ')).map(fixed).collect()
    };
    let (printed, readme) = (rows(out), rows(shown));
    assert_eq!(printed.len(), 3, "{out}");
    assert_eq!(readme, printed, "the README's check table differs from a run's");
}

#[test]
fn quiet_says_nothing_but_errors_and_verbose_says_more() {
    // 6s: the scenario stage must finish inside the budget (see above)
    let (code, out, err) = rulecheck(&["--quiet", "check", "--budget", "6s"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(err, "", "--quiet printed notes");
    assert!(out.contains("check: everything held"), "{out}");
    the_readme_shows_what_check_prints(&out);
    let (code, _, err) = rulecheck(&["check", "--budget", "6s", "-v"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("check: validating catalogs"), "{err}");
    assert!(err.lines().filter(|l| l.starts_with("check:   scenario ")).count() >= 40, "{err}");
    assert!(err.lines().any(|l| l.starts_with("check:   ") && l.contains(" games, ")), "{err}");
    // errors still reach stderr under --quiet
    let (code, _, err) = rulecheck(&["-q", "fuzz", "--game", "no-such-game"]);
    assert_eq!(code, 2);
    assert!(err.contains("no-such-game"), "{err}");
    let (code, _, _) = rulecheck(&["-q", "-v", "validate"]);
    assert_eq!(code, 2, "--quiet and --verbose together are a usage error");
}
