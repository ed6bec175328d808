//! Embeds `rules/` and `scenarios/` in the binary so every command works
//! from any folder.

use std::fmt::Write;
use std::path::Path;

fn collect(root: &Path, dir: &Path, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            collect(root, &p, out);
        } else if p.extension().is_some_and(|e| e == "yaml") {
            out.push(p.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/"));
        }
    }
}

fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").unwrap();
    let mut code = String::new();
    for name in ["rules", "scenarios"] {
        let root = Path::new(&manifest).join(name);
        println!("cargo:rerun-if-changed={}", root.display());
        let mut files = Vec::new();
        collect(&root, &root, &mut files);
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
