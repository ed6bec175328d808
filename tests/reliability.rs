//! The reliability promise of the README: nothing a user types or writes
//! crashes the harness, hangs it, or is silently wrong. Each test is named
//! after the input it pins; the inputs are small so nothing here can hang.

use std::process::{Command, Stdio};

fn rulecheck(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_rulecheck")).args(args).output().expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// No panic, and nothing on stderr that looks like one.
fn assert_no_panic(code: i32, err: &str) {
    assert!(!err.contains("panicked"), "a panic: {err}");
    assert_ne!(code, 101, "exit code of a panic: {err}");
}

#[test]
fn a_closed_stdout_ends_every_command_quietly() {
    for args in [
        &["validate"][..],
        &["run"],
        &["run", "--format", "json"],
        &["explain", "--game", "dry-gulch"],
        &["fuzz", "--game", "dry-gulch", "--games", "2"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_rulecheck"))
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        #[cfg(unix)]
        {
            use std::os::unix::process::ExitStatusExt;
            // killed by SIGPIPE (the convention of every Unix filter), or done before the pipe closed
            assert!(out.status.signal() == Some(13) || out.status.success(), "{args:?}: {:?} {err}", out.status);
        }
    }
}

#[test]
fn fuzz_with_an_unknown_fault_is_bad_input_before_any_game() {
    let (code, out, err) = rulecheck(&["fuzz", "--game", "dry-gulch", "--games", "2", "--fault", "nope"]);
    assert_no_panic(code, &err);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("unknown fault `nope`") && err.contains("no-hand-limit"), "{err}");
}

#[test]
fn run_with_an_unknown_fault_says_so_once() {
    let (code, out, err) = rulecheck(&["run", "--fault", "nope"]);
    assert_no_panic(code, &err);
    assert_eq!(code, 2, "{out}{err}");
    assert_eq!(err.matches("unknown fault `nope`").count(), 1, "{err}");
    assert!(err.contains("no-hand-limit"), "{err}");
}

#[test]
fn a_duration_beyond_what_a_duration_holds_is_bad_input() {
    for args in [
        &["fuzz", "--game", "dry-gulch", "--games", "1", "--time-limit", "100000000000000000000s"][..],
        &["check", "--budget", "100000000000000000000s"],
        &["check", "--budget", "99999999999999999999999h"],
    ] {
        let (code, out, err) = rulecheck(args);
        assert_no_panic(code, &err);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.contains("too long"), "{args:?}: {err}");
    }
}

#[test]
fn a_time_limit_past_the_end_of_the_clock_means_no_limit() {
    let (code, out, err) =
        rulecheck(&["fuzz", "--game", "dry-gulch", "--games", "1", "--time-limit", "10000000000000000000s"]);
    assert_no_panic(code, &err);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("games 1,"), "{out}");
}
