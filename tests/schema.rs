//! Editor support (issue #16, item 3): the JSON Schemas under `schema/`
//! are what `rulecheck schema` makes now, every bundled YAML file names
//! its schema on its first line, every bundled file is valid against it,
//! and a misspelt key is not.

use std::path::{Path, PathBuf};

use serde_json::Value;

use rulecheck::games;
use rulecheck::schema::{LINE_PREFIX, SchemaFile, bundled_yaml, schema_files, schema_line, stamped, write_scenario};

const REGENERATE: &str = "cargo run -- schema --out schema --stamp";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn generated() -> Vec<SchemaFile> {
    schema_files(&rulecheck::commands::load_all(None).expect("the bundled catalogs load"))
}

/// The schema files under `dir`, as `<game>/<file>.json` with their text.
fn committed(dir: &Path) -> Vec<SchemaFile> {
    let mut out = Vec::new();
    for game in std::fs::read_dir(dir).into_iter().flatten().filter_map(Result::ok) {
        for f in std::fs::read_dir(game.path()).into_iter().flatten().filter_map(Result::ok) {
            let path = format!("{}/{}", game.file_name().to_string_lossy(), f.file_name().to_string_lossy());
            out.push(SchemaFile { path, text: std::fs::read_to_string(f.path()).unwrap_or_default() });
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

/// What differs between the committed schemas and the generated ones.
fn stale(committed: &[SchemaFile], generated: &[SchemaFile]) -> Vec<String> {
    let mut out = Vec::new();
    for g in generated {
        match committed.iter().find(|c| c.path == g.path) {
            None => out.push(format!("schema/{} is missing", g.path)),
            Some(c) if c.text != g.text => out.push(format!("schema/{} differs from what is generated now", g.path)),
            Some(_) => {}
        }
    }
    for c in committed.iter().filter(|c| !generated.iter().any(|g| g.path == c.path)) {
        out.push(format!("schema/{} is no longer generated", c.path));
    }
    out
}

#[test]
fn the_committed_schemas_are_the_generated_ones() {
    let wrong = stale(&committed(&root().join("schema")), &generated());
    assert!(wrong.is_empty(), "{}\nregenerate them with `{REGENERATE}`", wrong.join("\n"));
}

#[test]
fn a_stale_schema_is_caught() {
    let mut files = generated();
    assert!(stale(&files, &generated()).is_empty());
    files[0].text.push(' ');
    files.pop();
    let wrong = stale(&files, &generated());
    assert_eq!(wrong.len(), 2, "{wrong:?}");
    assert!(wrong[0].ends_with("differs from what is generated now"), "{wrong:?}");
    assert!(wrong[1].ends_with("is missing"), "{wrong:?}");
}

#[test]
fn every_catalog_file_of_every_game_has_a_schema() {
    let files = generated();
    for game in games::KNOWN {
        for file in games::catalog_files(game).unwrap() {
            let path = format!("{game}/{}.json", file.trim_end_matches(".yaml"));
            assert!(files.iter().any(|f| f.path == path), "no schema {path} for rules/{game}/{file}");
        }
        assert!(files.iter().any(|f| f.path == format!("{game}/scenario.json")), "no scenario schema for {game}");
    }
}

/// Each file of `files` (path, text) that does not start with its line,
/// with the line to add.
fn missing_lines(files: &[(String, String)]) -> Vec<String> {
    let mut out = Vec::new();
    for (rel, text) in files {
        match schema_line(rel, "schema") {
            None => out.push(format!("{rel}: not a catalog file or scenario of a bundled game")),
            Some(line) if text.lines().next() != Some(&line) => out.push(format!("{rel}: add `{line}`")),
            Some(_) => {}
        }
    }
    out
}

fn bundled() -> Vec<(String, String)> {
    let files: Vec<(String, String)> = bundled_yaml(&root())
        .into_iter()
        .map(|rel| {
            let text = std::fs::read_to_string(root().join(&rel)).unwrap();
            (rel, text)
        })
        .collect();
    // the walk finds what the binary embeds
    assert_eq!(files.len(), rulecheck::bundled::RULES.len() + rulecheck::bundled::SCENARIOS.len());
    files
}

#[test]
fn every_bundled_yaml_file_names_its_schema() {
    let wrong = missing_lines(&bundled());
    assert!(
        wrong.is_empty(),
        "{} file(s) lack their schema line as the first line:\n{}\nadd them all with `{REGENERATE}`",
        wrong.len(),
        wrong.join("\n")
    );
}

#[test]
fn a_missing_or_wrong_schema_line_is_caught_and_stamped() {
    let rel = "scenarios/dodge-city/found/x.yaml".to_string();
    let line = "# yaml-language-server: $schema=../../../schema/dodge-city/scenario.json";
    let wrong = format!("{LINE_PREFIX}../../schema/dodge-city/scenario.json\ntitle: x\n");
    let planted = vec![(rel.clone(), "title: x\n".to_string()), (rel.clone(), wrong.clone())];
    let found = missing_lines(&planted);
    assert_eq!(found, vec![format!("{rel}: add `{line}`"); 2]);
    // stamping adds the line on top, or puts it in place of a wrong one
    let fixed = stamped("title: x\n", line).unwrap();
    assert_eq!(fixed, format!("{line}\ntitle: x\n"));
    assert_eq!(stamped(&wrong, line).unwrap(), fixed);
    assert_eq!(stamped(&fixed, line), None);
    assert!(missing_lines(&[(rel, fixed)]).is_empty());
    assert_eq!(missing_lines(&[("rules/dry-gulch/stray.yaml".into(), String::new())]).len(), 1);
}

/// The schema a bundled file names on its first line, read from where it
/// points (relative to the file).
fn schema_of(rel: &str, text: &str) -> Value {
    let target = text.lines().next().and_then(|l| l.strip_prefix(LINE_PREFIX)).expect("a schema line");
    let path = root().join(rel).parent().unwrap().join(target);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{rel} names {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

/// The errors of `value` against `schema`, each with where it is.
fn errors(schema: &Value, value: &Value) -> Vec<String> {
    let validator = jsonschema::draft7::new(schema).expect("a valid draft-07 schema");
    validator.iter_errors(value).map(|e| format!("at `{}`: {e}", e.instance_path())).collect()
}

fn json_of(rel: &str, text: &str) -> Value {
    serde_saphyr::from_str(text).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

#[test]
fn every_bundled_file_is_valid_against_its_schema() {
    let mut wrong = Vec::new();
    let files = bundled();
    for (rel, text) in &files {
        for e in errors(&schema_of(rel, text), &json_of(rel, text)) {
            wrong.push(format!("{rel}: {e}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(files.len() > 200, "{} files", files.len());
}

/// Renames the first key of the file's top mapping, doubling its last
/// letter: the misspelt key. (Every file's top is a record with fixed keys;
/// a key deep in a record is misspelt as text below.)
fn misspell(v: &mut Value) -> Option<String> {
    let Value::Object(m) = v else { return None };
    let key = m.keys().next()?.clone();
    let wrong = format!("{key}{}", key.chars().last()?);
    let value = m.remove(&key)?;
    m.insert(wrong.clone(), value);
    Some(wrong)
}

#[test]
fn a_misspelt_key_fails_its_schema_and_the_error_names_it() {
    // one file of each kind: every catalog file, and a scenario per game
    let files = bundled();
    let mut kinds = Vec::new();
    for (rel, text) in &files {
        let line = schema_line(rel, "schema").unwrap();
        // the schema it names, whatever the folder depth (`found/`)
        let kind = line.rsplit("schema/").next().unwrap().to_string();
        if kinds.contains(&kind) {
            continue;
        }
        kinds.push(kind);
        let mut value = json_of(rel, text);
        let key = misspell(&mut value).unwrap_or_else(|| panic!("{rel}: no key to misspell"));
        let errs = errors(&schema_of(rel, text), &value);
        assert!(errs.iter().any(|e| e.contains(&format!("'{key}'"))), "{rel} with `{key}`: {errs:?}");
    }
    assert_eq!(kinds.len(), games::KNOWN.iter().map(|g| games::catalog_files(g).unwrap().len() + 1).sum::<usize>());
    // and as text: one key of a bundled file misspelt, deep in a record
    let rel = "rules/dry-gulch/buildings.yaml";
    let text = std::fs::read_to_string(root().join(rel)).unwrap();
    let copy = text.replacen("    influence:", "    influense:", 1);
    assert_ne!(copy, text);
    let errs = errors(&schema_of(rel, &text), &json_of(rel, &copy));
    assert!(errs.iter().any(|e| e.contains("'influense' was unexpected")), "{errs:?}");
    assert!(errs.iter().any(|e| e.contains("\"influence\" is a required property")), "{errs:?}");
}

#[test]
fn an_effect_is_any_value_and_its_schema_says_why() {
    let files = generated();
    let events = files.iter().find(|f| f.path == "dry-gulch/events.json").unwrap();
    let v: Value = serde_json::from_str(&events.text).unwrap();
    let node = &v["definitions"]["Node"];
    assert!(node["description"].as_str().unwrap().contains("src/lang"), "{node}");
    assert_eq!(node.as_object().unwrap().len(), 1, "only a description: any value is valid: {node}");
    assert_eq!(v["$schema"], "http://json-schema.org/draft-07/schema#");
}

/// A scenario a command saves names its schema when a folder above it holds
/// the project's schemas, as a bundled one does, and nothing otherwise.
#[test]
fn a_saved_scenario_names_its_schema_inside_a_project() {
    let root = std::env::temp_dir().join(format!("rulecheck-saved-schema-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("project/schema/dry-gulch")).unwrap();
    std::fs::write(root.join("project/schema/dry-gulch/scenario.json"), "{}").unwrap();
    let text = "game: dry-gulch\ntitle: t\n";
    let inside = write_scenario(&root.join("project/scenarios/dry-gulch/found"), "x.yaml", "dry-gulch", text).unwrap();
    let written = std::fs::read_to_string(&inside).unwrap();
    assert_eq!(written.lines().next(), Some(format!("{LINE_PREFIX}../../../schema/dry-gulch/scenario.json").as_str()));
    assert!(written.ends_with(text));
    let outside = write_scenario(&root.join("elsewhere"), "x.yaml", "dry-gulch", text).unwrap();
    assert_eq!(std::fs::read_to_string(outside).unwrap(), text);
    let _ = std::fs::remove_dir_all(&root);
}

/// A field of the shared raw shapes that a game's loader refuses (a
/// `condition:` to replace where cards have none) is not in that game's
/// schema, so an editor marks it; Dry Gulch's, which takes it, keeps it,
/// and every game's keeps `actions:` (each game's turn takes declared
/// actions).
#[test]
fn a_field_a_games_loader_refuses_is_not_in_its_schema() {
    let props = |game: &str, file: &str, def: &str| -> Vec<String> {
        let files = games::schemas::catalog(game).unwrap();
        let (_, schema) = files.iter().find(|(f, _)| *f == file).unwrap();
        let d = &schema.as_value()["definitions"][def];
        assert_eq!(d["additionalProperties"], Value::Bool(false), "{game} {def}");
        d["properties"].as_object().unwrap().keys().cloned().collect()
    };
    for game in ["red-dog-junction", "dodge-city"] {
        let option = props(game, "interpretations.yaml", "RawOption");
        assert!(option.contains(&"replace".to_string()), "{option:?}");
        assert!(option.contains(&"actions".to_string()), "{game}: {option:?}");
        assert!(!props(game, "interpretations.yaml", "RawReplace").contains(&"condition".to_string()), "{game}");
    }
    for game in ["red-dog-junction", "dry-gulch"] {
        assert!(props(game, "variants.yaml", "RawVariant").contains(&"actions".to_string()), "{game}");
    }
    assert!(props("dry-gulch", "interpretations.yaml", "RawReplace").contains(&"condition".to_string()));
}
