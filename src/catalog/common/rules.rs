//! The rules a game's errors name, as the catalog cites them: `game.yaml`'s
//! `game.rules` gives every rule the code refuses with (a game declares
//! them with `switches!`, one typed enum) the places it cites, so an error
//! reads `dry-gulch/build.payment (dry-gulch-en § Building 1; …)` from the
//! catalog's documents, never from a string in Rust.

use super::{Document, RawCitation, check_documents};
use crate::catalog::diag::Diagnostics;
use crate::catalog::folder::{RawRule, did_you_mean};
use crate::yaml::position;

/// The places each rule of `code` cites, in `code`'s order (as `cited`
/// writes them), from the `rules:` of the `game:` section in `file`, then
/// from an overlay's header (`over`: its file and `rules:`), whose entry
/// replaces the base's of the same rule (a house rule that changes a rule
/// cites the sheet that changes it). A rule of the code the catalog leaves
/// out, a rule the code does not name, one listed twice in a file, one
/// citing nothing or a document the catalog does not declare is a
/// diagnostic; `at` is where one about the whole list points (the
/// section's id).
pub fn lower_rules(
    (file, raw): (&str, &[RawRule]),
    over: Option<(&str, &[RawRule])>,
    code: &[&str],
    docs: &[Document],
    at: (u64, u64),
    diags: &mut Diagnostics,
) -> Vec<String> {
    let mut places: Vec<Option<String>> = vec![None; code.len()];
    for (i, cited) in lower_list(file, raw, code, docs, diags) {
        places[i] = Some(cited);
    }
    let missing: Vec<&str> = code.iter().zip(&places).filter(|(_, p)| p.is_none()).map(|(c, _)| *c).collect();
    if !missing.is_empty() {
        let msg = format!(
            "`rules:` gives no places for {}, which this game's errors name; list each with its `source:`",
            missing.iter().map(|m| format!("`{m}`")).collect::<Vec<_>>().join(", ")
        );
        diags.error(file, at, msg);
    }
    if let Some((file, raw)) = over {
        for (i, cited) in lower_list(file, raw, code, docs, diags) {
            places[i] = Some(cited);
        }
    }
    places.into_iter().map(Option::unwrap_or_default).collect()
}

/// The entries of one file's `rules:` that name a rule of `code`, each
/// with its index there and its places written out; the others are
/// diagnostics.
fn lower_list(
    file: &str,
    raw: &[RawRule],
    code: &[&str],
    docs: &[Document],
    diags: &mut Diagnostics,
) -> Vec<(usize, String)> {
    let mut out: Vec<(usize, String)> = Vec::new();
    for r in raw {
        let id = r.id.value.as_str();
        let Some(i) = code.iter().position(|c| *c == id) else {
            let named = if code.is_empty() { "none".to_string() } else { code.join(", ") };
            let hint = did_you_mean(code.iter().copied(), id);
            diags.error(file, position(&r.id), format!("unknown rule `{id}`; this game's errors name {named}{hint}"));
            continue;
        };
        if out.iter().any(|(j, _)| *j == i) {
            diags.error(file, position(&r.id), format!("rule `{id}` is listed twice"));
            continue;
        }
        if r.source.is_empty() {
            diags.error(file, position(&r.id), format!("rule `{id}` cites no place; give it a `source:`"));
        }
        check_documents(r.source.iter().map(|c| (file, c)), docs, diags);
        out.push((i, cited(&r.source)));
    }
    out
}

/// Citations as an error shows them: `doc § ref`, the places one
/// document gives in a row joined by ", " after it, the documents by "; ".
fn cited(source: &[RawCitation]) -> String {
    let mut out = String::new();
    for (i, c) in source.iter().enumerate() {
        match i.checked_sub(1).map(|p| &source[p].doc.value) {
            Some(before) if *before == c.doc.value => out.push_str(", "),
            Some(_) => out.push_str(&format!("; {} \u{a7} ", c.doc.value)),
            None => out.push_str(&format!("{} \u{a7} ", c.doc.value)),
        }
        out.push_str(&c.reference);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `rules:` as written (`id: [doc, …]` a rule, each citing `§ Turn`),
    /// lowered against a code that names `turn` and `game.over`.
    fn lower(yaml: &str) -> (Vec<String>, Vec<String>) {
        let cite = |d: &str| format!("{{doc: {d}, ref: Turn}}");
        let raw: Vec<RawRule> = if yaml.is_empty() {
            Vec::new()
        } else {
            let entries: Vec<String> = (yaml.split(';'))
                .map(|r| r.split_once(':').unwrap())
                .map(|(id, docs)| {
                    let docs: Vec<String> = docs.split(',').filter(|d| !d.is_empty()).map(cite).collect();
                    format!("- {{id: {id}, source: [{}]}}", docs.join(", "))
                })
                .collect();
            crate::yaml::from_str("game.yaml", &entries.join("\n")).unwrap()
        };
        let docs = [Document { id: "en".into(), title: "Rules".into(), language: None }];
        let mut diags = Diagnostics::default();
        let places = lower_rules(("game.yaml", &raw), None, &["turn", "game.over"], &docs, (1, 1), &mut diags);
        (places, diags.items.iter().map(|d| d.message.clone()).collect())
    }

    #[test]
    fn each_rule_of_the_code_gets_its_places_in_the_codes_order() {
        let (places, errors) = lower("game.over:en;turn:en,en");
        assert_eq!(errors, Vec::<String>::new());
        assert_eq!(places, ["en \u{a7} Turn, Turn", "en \u{a7} Turn"]);
    }

    #[test]
    fn a_rule_twice_uncited_left_out_or_of_an_unknown_document_is_an_error() {
        let (_, errors) = lower("turn:;turn:en");
        assert!(errors[0].contains("rule `turn` cites no place"), "{errors:?}");
        assert!(errors[1].contains("rule `turn` is listed twice"), "{errors:?}");
        assert!(errors[2].contains("no places for `game.over`"), "{errors:?}");
        let (_, errors) = lower("turn:fr;game.over:en");
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].contains("unknown document `fr`"), "{errors:?}");
        let (_, errors) = lower("");
        assert!(errors[0].contains("no places for `turn`, `game.over`"), "{errors:?}");
    }
}
