//! Names of an entity by language, with the check that every language is
//! declared.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::catalog::diag::Diagnostics;
use crate::yaml::{Spanned, position};

/// A map key that keeps its position (a language of `names`).
#[derive(Debug, Clone)]
pub struct Key(pub Spanned<String>);

impl PartialEq for Key {
    fn eq(&self, o: &Key) -> bool {
        self.0.value == o.0.value
    }
}
impl Eq for Key {}
impl PartialOrd for Key {
    fn partial_cmp(&self, o: &Key) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Key {
    fn cmp(&self, o: &Key) -> std::cmp::Ordering {
        self.0.value.cmp(&o.0.value)
    }
}
impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Key, D::Error> {
        Spanned::<String>::deserialize(d).map(Key)
    }
}
impl Serialize for Key {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.value.serialize(s)
    }
}

/// Names of an entity, by language: `{en: Fire, de: Feuer}`. The languages
/// a catalog may use are the ones it declares (`languages:`).
#[derive(Debug, Clone, PartialEq, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(transparent)]
pub struct Names(pub BTreeMap<Key, String>);

impl Names {
    /// The name in the first of `languages` that has one, else any, else `fallback`.
    pub fn display<'a>(&'a self, languages: &[String], fallback: &'a str) -> &'a str {
        languages
            .iter()
            .find_map(|l| self.0.iter().find(|(k, _)| k.0.value == *l).map(|(_, v)| v.as_str()))
            .or_else(|| self.0.values().next().map(String::as_str))
            .unwrap_or(fallback)
    }

    /// The name in one language.
    pub fn get(&self, language: &str) -> Option<&str> {
        self.0.iter().find(|(k, _)| k.0.value == language).map(|(_, v)| v.as_str())
    }
}

/// Checks that every language of `names` is declared.
pub fn check_names(file: &str, names: &Names, languages: &[String], diags: &mut Diagnostics) {
    for k in names.0.keys() {
        if !languages.contains(&k.0.value) {
            diags.error(
                file,
                position(&k.0),
                format!(
                    "name in undeclared language `{}`; the catalog declares {} (add it to `languages:`)",
                    k.0.value,
                    languages.join(", ")
                ),
            );
        }
    }
}
