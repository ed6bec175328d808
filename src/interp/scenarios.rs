//! The bundled scenarios that pin an interpretation's options: which
//! scenario files name a reading, and under which options.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::catalog::SourceFile;
use crate::catalog::common::Interpretation;

/// A bundled scenario that runs under an interpretation's options.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ScenarioRef {
    /// As shown in diagnostics: `scenarios/<game>/<file>.yaml`.
    pub path: String,
    pub title: String,
    /// The options the file's configurations select, in the order they
    /// first appear; the default alone when the file only names the
    /// interpretation in its title or `why`.
    pub options: Vec<String>,
    /// The file's `config`/`configs` name the interpretation (otherwise it
    /// runs the default and names the interpretation in its description).
    pub named_in_config: bool,
}

impl ScenarioRef {
    /// A file that runs two or more options tells them apart.
    pub fn distinguishes(&self) -> bool {
        self.options.len() > 1
    }
}

#[derive(Deserialize)]
pub(super) struct ScenarioHead {
    #[serde(default)]
    title: String,
    #[serde(default)]
    why: String,
    #[serde(default)]
    game: String,
    #[serde(default)]
    config: Option<ConfigHead>,
    #[serde(default)]
    configs: Vec<ConfigHead>,
}

#[derive(Deserialize)]
pub(super) struct ConfigHead {
    #[serde(default)]
    interpretations: BTreeMap<String, String>,
}

/// Whether a scenario's description names interpretation `id`: as `` `id` ``,
/// `` `id: option` `` or "interpretation id" (a bare word would match
/// ids like `permits` everywhere).
pub(super) fn describes(text: &str, id: &str) -> bool {
    let after_word = |rest: &str| !rest.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '-');
    text.contains(&format!("`{id}`"))
        || text.contains(&format!("`{id}:"))
        || ["interpretation ", "interpretations "]
            .iter()
            .any(|w| text.match_indices(&format!("{w}{id}")).any(|(at, m)| after_word(&text[at + m.len()..])))
}

/// For each interpretation id, the scenario files of game `game` that run
/// one of its options, sorted by path: those whose `config`/`configs` select
/// an option (a file that does not parse is searched as text for `id:
/// option` lines in an `interpretations:` block), and those that run the
/// default while their title or `why` names the interpretation.
pub fn scenarios_by_interpretation(
    game: &str,
    interpretations: &[Interpretation],
    files: &[SourceFile],
) -> BTreeMap<String, Vec<ScenarioRef>> {
    let mut out: BTreeMap<String, Vec<ScenarioRef>> = BTreeMap::new();
    for f in files {
        let (title, why, readings) = match crate::yaml::from_str::<ScenarioHead>(&f.path, &f.text) {
            Ok(head) if head.game == game => {
                let readings: Vec<(String, String)> = head
                    .config
                    .iter()
                    .chain(&head.configs)
                    .flat_map(|c| c.interpretations.iter().map(|(k, v)| (k.clone(), v.clone())))
                    .collect();
                (head.title, head.why, readings)
            }
            Ok(_) => continue,
            Err(_) => match text_readings(game, &f.text) {
                Some((title, readings)) => (title, String::new(), readings),
                None => continue,
            },
        };
        let mut per_id: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (id, option) in readings {
            let opts = per_id.entry(id).or_default();
            if !opts.contains(&option) {
                opts.push(option);
            }
        }
        let description = format!("{title}\n{why}");
        for i in interpretations {
            let named = per_id.remove(&i.id);
            let named_in_config = named.is_some();
            let options = match named {
                Some(options) => options,
                None if describes(&description, &i.id) => vec![i.default.clone()],
                None => continue,
            };
            out.entry(i.id.clone()).or_default().push(ScenarioRef {
                path: f.path.clone(),
                title: title.clone(),
                options,
                named_in_config,
            });
        }
        // ids the catalog does not declare (a stale scenario) are still listed
        for (id, options) in per_id {
            out.entry(id).or_default().push(ScenarioRef {
                path: f.path.clone(),
                title: title.clone(),
                options,
                named_in_config: true,
            });
        }
    }
    for refs in out.values_mut() {
        refs.sort_by(|a, b| a.path.cmp(&b.path));
    }
    out
}

/// The fallback text search: `title:` and every `id: option` line inside an
/// `interpretations:` block (block or `{…}` flow style).
pub(super) fn text_readings(game: &str, text: &str) -> Option<(String, Vec<(String, String)>)> {
    let unquote = |s: &str| s.trim().trim_matches(|c| c == '"' || c == '\'').to_string();
    let top = |key: &str| text.lines().find_map(|l| l.strip_prefix(key).map(unquote));
    if top("game:")? != game {
        return None;
    }
    let title = top("title:").unwrap_or_default();
    let mut readings = Vec::new();
    let mut block: Option<usize> = None;
    for line in text.lines() {
        let indent = line.len() - line.trim_start().len();
        let body = line.trim().trim_start_matches("- ").trim();
        if let Some(ind) = block {
            if indent > ind && !body.is_empty() {
                if let Some((k, v)) = body.split_once(':') {
                    readings.push((unquote(k), unquote(v)));
                }
                continue;
            }
            block = None;
        }
        if let Some(rest) = body.strip_prefix("interpretations:") {
            let rest = rest.trim();
            if let Some(inner) = rest.strip_prefix('{').and_then(|r| r.strip_suffix('}')) {
                readings.extend(
                    inner.split(',').filter_map(|kv| kv.split_once(':')).map(|(k, v)| (unquote(k), unquote(v))),
                );
            } else if rest.is_empty() {
                block = Some(indent);
            }
        }
    }
    Some((title, readings))
}

/// The bundled scenario files (none when they do not decode).
pub(super) fn bundled_scenarios() -> Vec<SourceFile> {
    crate::bundled::scenarios().unwrap_or_default()
}
