//! Embeds `rules/` and `scenarios/` in the binary so every command works
//! from any folder.
//!
//! The walk follows symlinks but enters each directory once (by canonical
//! path), so a symlink loop ends, and embeds only regular `*.yaml` files (a
//! FIFO would block the compiler). `tests/reliability.rs` includes this file
//! to test `collect` on a folder with loops.

use std::collections::BTreeSet;
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// The regular `*.yaml` files under `dir`, as paths relative to `root`
/// with `/` separators, sorted within each directory. `seen` holds the
/// canonical paths of the directories entered so far.
pub fn collect(root: &Path, dir: &Path, out: &mut Vec<String>, seen: &mut BTreeSet<PathBuf>) {
    let Ok(canonical) = std::fs::canonicalize(dir) else {
        return;
    };
    if !seen.insert(canonical) {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    paths.sort();
    for p in paths {
        let Ok(meta) = std::fs::metadata(&p) else { continue };
        if meta.is_dir() {
            collect(root, &p, out, seen);
        } else if meta.is_file()
            && p.extension().is_some_and(|e| e == "yaml")
            && let Ok(rel) = p.strip_prefix(root)
        {
            out.push(rel.to_string_lossy().replace('\\', "/"));
        }
    }
}

#[allow(dead_code)] // unused where `tests/reliability.rs` includes this file
fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").unwrap();
    let mut code = String::new();
    for name in ["rules", "scenarios"] {
        let root = Path::new(&manifest).join(name);
        println!("cargo:rerun-if-changed={}", root.display());
        let mut files = Vec::new();
        collect(&root, &root, &mut files, &mut BTreeSet::new());
        let upper = name.to_uppercase();
        writeln!(code, "pub static {upper}: &[(&str, &[u8])] = &[").unwrap();
        for f in &files {
            let full = root.join(f);
            println!("cargo:rerun-if-changed={}", full.display());
            writeln!(code, "    ({f:?}, include_bytes!({:?})),", full.display().to_string()).unwrap();
        }
        writeln!(code, "];").unwrap();
    }
    let out = Path::new(&std::env::var("OUT_DIR").unwrap()).join("bundled.rs");
    std::fs::write(out, code).unwrap();
}
