//! Helpers the test modules share.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs the built binary: (exit code, stdout, stderr).
pub fn rulecheck(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_rulecheck")).args(args).output().expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A scratch folder with a copy of one folder's files, removed when dropped.
pub struct Scratch(pub PathBuf);

impl Scratch {
    /// Copies `from` into a fresh temporary folder of the same name;
    /// `label` keeps the scratch folders of concurrent tests apart.
    pub fn copy_of(from: &Path, label: &str) -> Scratch {
        let root = std::env::temp_dir().join(format!("rulecheck-scratch-{}-{label}", std::process::id()));
        if root.exists() {
            std::fs::remove_dir_all(&root).unwrap();
        }
        let dir = root.join(from.file_name().unwrap());
        std::fs::create_dir_all(&dir).unwrap();
        for entry in std::fs::read_dir(from).unwrap() {
            let path = entry.unwrap().path();
            std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
        }
        Scratch(dir)
    }

    pub fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }

    /// Replaces `from` by `to` in one file, which must contain it.
    pub fn edit(&self, file: &str, from: &str, to: &str) {
        let p = self.0.join(file);
        let text = std::fs::read_to_string(&p).unwrap();
        assert!(text.contains(from), "`{from}` not in {file}");
        std::fs::write(&p, text.replace(from, to)).unwrap();
    }

    pub fn write(&self, file: &str, text: &str) {
        std::fs::write(self.0.join(file), text).unwrap();
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(self.0.parent().unwrap());
    }
}
