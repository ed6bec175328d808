//! The reliability promise of the README: nothing a user types or writes
//! crashes the harness, hangs it, or is silently wrong. Each test is named
//! after the input it pins; the inputs are small so nothing here can hang.

use std::process::{Command, Stdio};

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
