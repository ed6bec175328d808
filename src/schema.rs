//! `rulecheck schema`: the JSON Schema (draft-07) of every kind of file a
//! bundled game reads, for editors that speak yaml-language-server: each
//! catalog file (`games::schemas`) and the game's scenario file (the
//! scenario shape with the game's set-up, actions and expectations), one
//! file each as `<game>/<file>.json`. `--stamp` puts the
//! `# yaml-language-server: $schema=…` line that points at its schema on
//! top of every bundled YAML file that lacks it.
//!
//! ```
//! use rulecheck::schema::schema_line;
//! assert_eq!(
//!     schema_line("scenarios/dry-gulch/found/x.yaml", "schema").as_deref(),
//!     Some("# yaml-language-server: $schema=../../../schema/dry-gulch/scenario.json")
//! );
//! ```

use std::path::Path;

use schemars::JsonSchema;
use serde_json::{Map, Value};

use crate::catalog::common::Key;
use crate::catalog::folder;
use crate::commands::{self, Exit};
use crate::engine::Scripted;
use crate::games::{self, AnyRules, schemas, with_game};
use crate::lang::Node;
use crate::scenario::RawScenario;

/// How the line that names a file's schema starts.
pub const LINE_PREFIX: &str = "# yaml-language-server: $schema=";

/// The kind of file a scenario schema is written for (`<game>/scenario.json`).
pub const SCENARIO: &str = "scenario";

/// One schema file: its path under the output folder and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaFile {
    pub path: String,
    pub text: String,
}

/// Every schema of the games in `catalogs`: each catalog file, then the
/// scenario file, per game.
pub fn schema_files(catalogs: &[AnyRules]) -> Vec<SchemaFile> {
    let mut out = Vec::new();
    for rules in catalogs {
        let id = rules.id();
        for (file, schema) in schemas::catalog(id).unwrap_or_default() {
            let stem = file.trim_end_matches(".yaml");
            let title = format!("rules/{id}/{file}: a {id} catalog file");
            out.push(SchemaFile { path: format!("{id}/{stem}.json"), text: text(schema.to_value(), &title) });
        }
        let scenario = with_game!(rules, |_r, G| folder::schema::<
            RawScenario<<G as Scripted>::Setup, <G as Scripted>::ActionSpec, <G as Scripted>::Expect>,
        >());
        let title = format!("scenarios/{id}/: a {id} scenario file");
        out.push(SchemaFile { path: format!("{id}/{SCENARIO}.json"), text: text(scenario.to_value(), &title) });
    }
    out
}

/// The schema as written: titled, keys sorted at every level (the same
/// text whatever order `serde_json` keeps its maps in), a final newline.
fn text(mut v: Value, title: &str) -> String {
    if let Value::Object(m) = &mut v {
        m.insert("title".into(), Value::String(title.into()));
        let made = "made by `rulecheck schema --out schema` from the serde types the loader reads the file into; \
                    regenerate it, do not edit it";
        m.insert("$comment".into(), Value::String(made.into()));
    }
    let mut s = serde_json::to_string_pretty(&sorted(v)).expect("a JSON value always serialises");
    s.push('\n');
    s
}

fn sorted(v: Value) -> Value {
    match v {
        Value::Object(m) => {
            let mut entries: Vec<(String, Value)> = m.into_iter().collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            Value::Object(entries.into_iter().map(|(k, v)| (k, sorted(v))).collect::<Map<_, _>>())
        }
        Value::Array(a) => Value::Array(a.into_iter().map(sorted).collect()),
        other => other,
    }
}

/// The first line a bundled YAML file at `rel` (relative to the
/// repository: `rules/<game>/<file>.yaml` or `scenarios/<game>/…/*.yaml`)
/// starts with, pointing at its schema in folder `out` (relative to the
/// repository too); `None` for a file of no known kind.
pub fn schema_line(rel: &str, out: &str) -> Option<String> {
    let parts: Vec<&str> = rel.split('/').collect();
    let (top, game, name) = (*parts.first()?, *parts.get(1)?, *parts.last()?);
    if !games::KNOWN.contains(&game) || parts.len() < 3 || !name.ends_with(".yaml") {
        return None;
    }
    let kind = match top {
        "rules" if parts.len() == 3 && games::catalog_files(game)?.contains(&name) => name.trim_end_matches(".yaml"),
        "scenarios" => SCENARIO,
        _ => return None,
    };
    let up = "../".repeat(parts.len() - 1);
    Some(format!("{LINE_PREFIX}{up}{}/{game}/{kind}.json", out.trim_end_matches('/')))
}

/// `text` with `line` as its first line: put on top, or in place of a
/// `# yaml-language-server` line that names another schema. `None` when
/// it already starts with it.
pub fn stamped(text: &str, line: &str) -> Option<String> {
    let first = text.lines().next().unwrap_or("");
    if first == line {
        return None;
    }
    let rest = if first.starts_with("# yaml-language-server:") { &text[first.len()..] } else { text };
    let rest = rest.strip_prefix("\r\n").or_else(|| rest.strip_prefix('\n')).unwrap_or(rest);
    Some(format!("{line}\n{rest}"))
}

/// The YAML files under `root`'s `rules/` and `scenarios/`, relative to
/// `root` with `/` separators, sorted.
pub fn bundled_yaml(root: &Path) -> Vec<String> {
    fn walk(dir: &Path, rel: &str, out: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for e in entries.filter_map(Result::ok) {
            let name = e.file_name().to_string_lossy().into_owned();
            let path = format!("{rel}/{name}");
            match e.file_type() {
                Ok(t) if t.is_dir() => walk(&e.path(), &path, out),
                Ok(t) if t.is_file() && name.ends_with(".yaml") => out.push(path),
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    for top in ["rules", "scenarios"] {
        walk(&root.join(top), top, &mut out);
    }
    out.sort();
    out
}

/// `rulecheck schema --out DIR [--stamp]`.
pub fn schema_command(out: &Path, stamp: bool) -> Exit {
    let catalogs = match commands::load_all(None) {
        Ok(c) => c,
        Err(d) => return commands::print_diagnostics(&d),
    };
    for f in schema_files(&catalogs) {
        let path = out.join(&f.path);
        let written = path.parent().map_or(Ok(()), std::fs::create_dir_all).and_then(|()| {
            if std::fs::read_to_string(&path).is_ok_and(|t| t == f.text) {
                Ok(())
            } else {
                std::fs::write(&path, &f.text)
            }
        });
        if let Err(e) = written {
            eprintln!("error: cannot write {}: {e}", path.display());
            return Exit::BadInput;
        }
        println!("{}", path.display());
    }
    if stamp { stamp_command(out) } else { Exit::Ok }
}

/// Puts its schema line on top of every YAML file under `rules/` and
/// `scenarios/` of the current folder that lacks it.
fn stamp_command(out: &Path) -> Exit {
    let shown = out.to_string_lossy().replace('\\', "/");
    if out.is_absolute() || out.components().any(|c| matches!(c, std::path::Component::ParentDir)) {
        eprintln!("error: --stamp needs --out inside the current folder (the repository), e.g. --out schema");
        return Exit::BadInput;
    }
    let root = Path::new(".");
    let files = bundled_yaml(root);
    if files.is_empty() {
        eprintln!("error: --stamp runs in the repository: no YAML file under rules/ or scenarios/ here");
        return Exit::BadInput;
    }
    let mut changed = 0;
    for rel in files {
        let Some(line) = schema_line(&rel, shown.trim_start_matches("./")) else {
            eprintln!("note: {rel} is of no known kind (not a bundled game's catalog file or scenario); left alone");
            continue;
        };
        let Ok(text) = std::fs::read_to_string(root.join(&rel)) else {
            eprintln!("error: cannot read {rel}");
            return Exit::BadInput;
        };
        if let Some(new) = stamped(&text, &line) {
            if let Err(e) = std::fs::write(root.join(&rel), new) {
                eprintln!("error: cannot write {rel}: {e}");
                return Exit::BadInput;
            }
            println!("stamped {rel}");
            changed += 1;
        }
    }
    println!("{changed} file(s) stamped");
    Exit::Ok
}

// The schemas of the two shapes whose serde is written by hand.

impl schemars::JsonSchema for Key {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Key".into()
    }
    fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
        <String as JsonSchema>::json_schema(g)
    }
}

impl schemars::JsonSchema for Node {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Node".into()
    }
    /// Any YAML value: an effect or a condition is checked against the
    /// registry of operations when the catalog loads, not by the schema.
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "An effect or a condition of the shared effect language (src/lang): any YAML value here; the schema does not check it. `rulecheck validate` compiles it when the catalog loads and reports an unknown operation, argument or wrong type at its line and column."
        })
    }
}

/// Writes a scenario a command found (`fuzz --save`, `find --save`,
/// `explore --save`) to `dir/name`, creating `dir`. When a folder above it
/// holds this project's schemas (`schema/<game>/scenario.json`), the file
/// starts with the line that names the scenario schema, as every bundled
/// scenario does. Errors read `cannot write <path>: <why>`.
pub fn write_scenario(dir: &Path, name: &str, game: &str, text: &str) -> Result<std::path::PathBuf, String> {
    let path = dir.join(name);
    let text = match scenario_schema_line(dir, game) {
        Some(line) => stamped(text, &line).unwrap_or_else(|| text.to_string()),
        None => text.to_string(),
    };
    std::fs::create_dir_all(dir)
        .and_then(|_| std::fs::write(&path, text))
        .map(|_| path.clone())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The schema line of a scenario saved in `dir`: the nearest folder at or
/// above `dir` with `schema/<game>/scenario.json`, as a relative path.
fn scenario_schema_line(dir: &Path, game: &str) -> Option<String> {
    let abs = std::path::absolute(dir).ok()?;
    let target = Path::new("schema").join(game).join(format!("{SCENARIO}.json"));
    abs.ancestors()
        .enumerate()
        .find(|(_, a)| a.join(&target).is_file())
        .map(|(up, _)| format!("{LINE_PREFIX}{}schema/{game}/{SCENARIO}.json", "../".repeat(up)))
}
