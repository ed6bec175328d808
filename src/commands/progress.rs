//! What goes to stderr besides diagnostics: the progress bar of `fuzz`
//! and `check` (indicatif), drawn only when stderr is a terminal that is
//! not `TERM=dumb`, cut to the terminal's width, cleared when the work is
//! done; and the notes of `--quiet` / `--verbose` (`note!`, `detail!`).
//! Results go to stdout whatever the level; errors always reach stderr.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How much a command says on stderr besides its errors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verbosity {
    /// Errors and diagnostics only: no progress, no notes.
    Quiet = 0,
    /// Notes on what a long command is doing, and progress on a terminal.
    Normal = 1,
    /// Also a line for each scenario and each fuzz configuration as it ends.
    Verbose = 2,
}

static VERBOSITY: AtomicU8 = AtomicU8::new(Verbosity::Normal as u8);

/// Sets the level for the rest of the process (`main` does, from the flags).
pub fn set_verbosity(v: Verbosity) {
    VERBOSITY.store(v as u8, Ordering::Relaxed);
}

pub fn verbosity() -> Verbosity {
    match VERBOSITY.load(Ordering::Relaxed) {
        0 => Verbosity::Quiet,
        1 => Verbosity::Normal,
        _ => Verbosity::Verbose,
    }
}

/// A note on stderr (what a long command is doing), unless `--quiet`.
#[macro_export]
macro_rules! note {
    ($($t:tt)*) => {
        if $crate::commands::progress::verbosity() >= $crate::commands::progress::Verbosity::Normal {
            eprintln!($($t)*);
        }
    };
}

/// A line on stderr only under `--verbose`.
#[macro_export]
macro_rules! detail {
    ($($t:tt)*) => {
        if $crate::commands::progress::verbosity() >= $crate::commands::progress::Verbosity::Verbose {
            eprintln!($($t)*);
        }
    };
}

/// Whether progress is drawn: only when stderr is a terminal, and not
/// under `TERM=dumb`, which moves no cursor (the bar would be escape codes).
pub fn shows_progress(stderr_is_terminal: bool, term: Option<&str>) -> bool {
    stderr_is_terminal && term != Some("dumb")
}

/// A progress bar on `target` that shows its message cut (with `…`) to the
/// terminal's width; `progress_message` is what it shows.
pub fn progress_bar(target: ProgressDrawTarget) -> ProgressBar {
    let style = ProgressStyle::with_template("{wide_msg}").expect("the template is valid");
    ProgressBar::with_draw_target(None, target).with_style(style)
}

/// The progress of `label`: `done/total games  label`, the count first so
/// that a narrow terminal cuts the label, not the count.
pub fn progress_message(label: &str, done: u64, total: u64) -> String {
    format!("{done}/{total} games  {label}")
}

/// Shows a progress bar (indicatif) on stderr while `work` runs, when
/// `shows_progress` says so; it is cleared when the work is done.
pub fn with_progress<T>(label: &str, total: u64, work: impl FnOnce(&AtomicU64) -> T) -> T {
    let term = std::env::var("TERM").ok();
    let shown = verbosity() > Verbosity::Quiet && shows_progress(std::io::stderr().is_terminal(), term.as_deref());
    let target = if shown { ProgressDrawTarget::stderr() } else { ProgressDrawTarget::hidden() };
    let bar = progress_bar(target);
    let done = AtomicU64::new(0);
    let (stop, stopped) = std::sync::mpsc::channel::<()>();
    let out = std::thread::scope(|s| {
        if shown {
            let (bar, done) = (&bar, &done);
            s.spawn(move || {
                while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
                    stopped.recv_timeout(Duration::from_millis(100))
                {
                    bar.set_message(progress_message(label, done.load(Ordering::Relaxed), total));
                }
            });
        }
        let out = work(&done);
        let _ = stop.send(());
        out
    });
    bar.finish_and_clear();
    out
}
