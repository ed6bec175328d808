//! User catalogs kept outside `rules/`: a house-rules overlay that adds an
//! interpretation, a variant, an event card with a choice, an option that
//! replaces an effect, a cited house-rules sheet and names in a third
//! language — all in YAML — and the diagnostics of bad overlays, roles and
//! hooks.

use std::path::{Path, PathBuf};

use rulecheck::engine::{Chance, Config, Game};
use rulecheck::games::{self, AnyRules};

use crate::support::{Scratch, rulecheck};

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn house_rules() -> PathBuf {
    manifest_dir().join("tests/catalogs/house-rules")
}

fn load(dir: &Path) -> Result<AnyRules, String> {
    let srcs = rulecheck::catalog::read_root(dir).map_err(|d| format!("{d:?}"))?;
    let src = srcs.first().ok_or("no catalog")?;
    games::load(src).map_err(|d| d.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("\n"))
}

fn dry_gulch(rules: &AnyRules) -> &games::dry_gulch::Rules {
    match rules {
        AnyRules::DryGulch(r) => r,
        _ => panic!("not the Dry Gulch catalog"),
    }
}

#[test]
fn a_house_rules_overlay_layers_onto_the_bundled_catalog() {
    let rules = load(&house_rules()).unwrap();
    let r = dry_gulch(&rules);
    let bundled = rulecheck::bundled::rules().unwrap();
    let base = games::load(bundled.iter().find(|g| g.name == "dry-gulch").unwrap()).unwrap();
    let b = dry_gulch(&base);
    assert_eq!(r.interpretations.len(), b.interpretations.len() + 3);
    assert_eq!(r.variants.len(), b.variants.len() + 9);
    assert_eq!(r.events.len(), b.events.len() + 1);
    // (e) a house-rules sheet declared as a document, names in a third language
    assert!(r.documents.iter().any(|d| d.id == "tuesday-sheet"), "{:?}", r.documents);
    assert_eq!(r.languages, ["en", "de", "fr"]);
    let fire_option = r.interpretation("fire-with-firehouse").unwrap();
    assert!(fire_option.option_ids().any(|o| o == "firehouse-takes-three"));
    let (code, out, err) = rulecheck(&["validate", house_rules().to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
}

#[test]
fn house_rule_scenarios_pass_under_the_overlay() {
    let scenarios = manifest_dir().join("tests/catalogs/house-rules-scenarios");
    let (code, out, err) = rulecheck(&["run", scenarios.to_str().unwrap(), "--rules", house_rules().to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("22 configuration(s) passed, 0 failed"), "{out}");
    // without the overlay, the scenarios name things the bundled catalog lacks
    let (code, _, err) = rulecheck(&["run", scenarios.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
}

/// (a) A new interpretation, data only: `diff` runs it like a bundled one
/// and reports how often it changes the outcome.
#[test]
fn diff_reports_how_often_a_yaml_only_reading_changes_the_outcome() {
    let rules = house_rules();
    let (code, out, err) = rulecheck(&[
        "diff",
        "--game",
        "dry-gulch",
        "house-hand-limit",
        "--rules",
        rules.to_str().unwrap(),
        "--games",
        "20",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("reachability: consulted in 20/20 games"), "{out}");
    let line = out.lines().find(|l| l.contains("printed → twelve: outcome differs in")).expect(&out);
    let changed: u32 = line.split("outcome differs in ").nth(1).unwrap().split('/').next().unwrap().parse().unwrap();
    assert!(changed > 0, "{line}");
    let (code, out, _) =
        rulecheck(&["explain", "--game", "dry-gulch", "house-hand-limit", "--rules", rules.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(out.contains("tuesday-sheet"), "{out}");
    assert!(out.contains("twelve — hands are cut above 12 cards [sets turn.hand_limit to 12]"), "{out}");
}

/// A reading that reorders the turn is one `diff` runs like any other: it
/// is consulted wherever the step it moves is played, and it changes games.
#[test]
fn diff_runs_a_reading_that_moves_a_step_of_the_turn() {
    let rules = house_rules();
    let args = ["diff", "--game", "dry-gulch", "house-reward-timing", "--games", "10", "--rules"];
    let (code, out, err) = rulecheck(&[&args[..], &[rules.to_str().unwrap()]].concat());
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("reachability: consulted in 10/10 games (printed 10, turn-end 10)"), "{out}");
    let line = out.lines().find(|l| l.contains("printed → turn-end: outcome differs in")).expect(&out);
    assert!(!line.contains("play in 0/"), "{line}");
    let (code, out, _) =
        rulecheck(&["explain", "--game", "dry-gulch", "house-reward-timing", "--rules", rules.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(out.contains("[moves the step reward after discard]"), "{out}");
}

/// Changes to the turn apply in order; one that names a step an earlier
/// change removed makes the configuration bad input (exit 2), naming both.
#[test]
fn a_configuration_whose_turn_changes_clash_is_bad_input() {
    let rules = house_rules();
    let args = ["fuzz", "--game", "dry-gulch", "--variant", "no-rewards", "--games", "2", "--rules"];
    let clash = ["--interpretation", "house-reward-timing=turn-end"];
    let (code, out, err) = rulecheck(&[&args[..], &[rules.to_str().unwrap()], &clash[..]].concat());
    assert_eq!(code, 2, "{out}{err}");
    let expected = "option `turn-end` of interpretation `house-reward-timing` cannot change the turn of this \
                    configuration: the turn has no step `reward`";
    assert!(err.contains(expected), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// Two changes of one configuration that set one number to different
/// values (a variant's hand limit of 10, the default option's 15) clash:
/// the configuration is bad input naming both, where the later used to
/// win without a word; setting the same value, they agree and play.
#[test]
fn a_configuration_that_sets_one_number_twice_is_bad_input() {
    let s = Scratch::copy_of(&house_rules(), "clashing-numbers");
    let variant = "  - id: small-hands\n    names: {en: Small hands}\n    summary: Hands of ten.\n    \
                   changes: [turn.hand_limit]\n    set: {turn.hand_limit: 10}\n    source:\n      \
                   - {doc: tuesday-sheet, ref: \"4\", says: \"hands of ten\"}\n";
    s.edit("variants.yaml", "add:\n", &format!("add:\n{variant}"));
    let fuzz = ["fuzz", "--game", "dry-gulch", "--variant", "small-hands", "--games", "2", "--rules", s.path()];
    let (code, out, err) = rulecheck(&fuzz);
    assert_eq!(code, 2, "{out}{err}");
    let says = "variant `small-hands` sets `turn.hand_limit` to 10, but option `printed` of interpretation \
                `house-hand-limit` sets it to 15; one configuration cannot play both (leave the variant off, or \
                choose another option)";
    assert!(err.contains(says) && !err.contains("panicked"), "{err}");
    s.edit("variants.yaml", "set: {turn.hand_limit: 10}", "set: {turn.hand_limit: 15}");
    let (code, out, err) = rulecheck(&fuzz);
    assert_eq!(code, 0, "{out}{err}");
}

/// A reading that replaces a card's condition is data (`replace: [{event:
/// two-ton-safe, condition: {built: bank}}]`): `explain` says what it
/// replaces, and `diff` finds it consulted and changing play (the Safe is
/// played with the Bank alone; `two-ton-safe-bank-only.yaml` pins it down).
#[test]
fn a_house_rule_replaces_a_cards_condition() {
    let rules = house_rules();
    let args = ["diff", "--game", "dry-gulch", "house-two-ton-safe", "--games", "20", "--rules"];
    let (code, out, err) = rulecheck(&[&args[..], &[rules.to_str().unwrap()]].concat());
    assert_eq!(code, 0, "{out}{err}");
    let line = out.lines().find(|l| l.contains("reachability: consulted in")).expect(&out);
    assert!(!line.contains("consulted in 0/"), "{line}");
    let line = out.lines().find(|l| l.contains("printed → bank-only: outcome differs in")).expect(&out);
    assert!(!line.contains("play in 0/"), "{line}");
    let (code, out, _) =
        rulecheck(&["explain", "--game", "dry-gulch", "house-two-ton-safe", "--rules", rules.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(
        out.contains("bank-only — the Safe needs the Bank alone [replaces the condition of two-ton-safe]"),
        "{out}"
    );
}

/// A house rule that adds an action, in YAML (a variant's `actions:`):
/// `explain` words it, random play takes it with every invariant holding
/// (its effect asks the player to choose the cards he gives up; another
/// takes the place of the draw, ending the step), and where
/// the variant is off it is never offered and a scenario that takes it is
/// refused, citing the variant.
/// An overlay's header may re-cite a rule its house rules change: the
/// errors under it show the sheet, and `explain` lists the new places.
#[test]
fn a_house_rule_cites_its_sheet_for_a_rule_it_changes() {
    let rules = house_rules();
    let r = rules.to_str().unwrap();
    let scenario = manifest_dir().join("tests/catalogs/house-rules-scenarios/two-ton-safe-bank-only.yaml");
    let (code, out, err) = rulecheck(&["run", "--rules", r, "--transcript", scenario.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    let places = "dry-gulch-en \u{a7} Building 2, Reference: Event Cards (Violet); tuesday-sheet \u{a7} 11";
    assert!(out.contains(&format!("dry-gulch/influence.play ({places}): the condition of Two Ton Safe")), "{out}");
    let (code, out, _) = rulecheck(&["explain", "--game", "dry-gulch", "--rules", r]);
    assert_eq!(code, 0);
    assert!(out.contains(&format!("  dry-gulch/influence.play \u{2014} {places}\n")), "{out}");
    // the base's other rules keep theirs
    assert!(out.contains("  dry-gulch/build.payment \u{2014} dry-gulch-en \u{a7} Building 1; dry-gulch-de"), "{out}");
}

#[test]
fn a_house_rule_adds_an_action_players_take() {
    let rules = house_rules();
    let r = rules.to_str().unwrap();
    let (code, out, _) = rulecheck(&["explain", "--game", "dry-gulch", "trade-in", "--rules", r]);
    assert_eq!(code, 0);
    assert!(out.contains("[adds the action trade-in, taken once a turn in the step build]"), "{out}");
    let (code, out, _) = rulecheck(&["explain", "--game", "dry-gulch", "hold-up", "--rules", r]);
    assert_eq!(code, 0);
    assert!(out.contains("[adds the action hold-up, taken once a turn in the step draw, which it ends]"), "{out}");
    let fuzz = ["fuzz", "--game", "dry-gulch", "--games", "10", "--rules", r];
    // with `hold-up` beside it, an action that ends the draw step
    let (code, out, err) = rulecheck(&[&fuzz[..], &["--variant", "trade-in", "--variant", "hold-up"]].concat());
    assert_eq!(code, 0, "{out}{err}");
    let took = out.lines().find(|l| l.contains("took effect:")).expect(&out);
    for id in ["action:trade-in ", "action:hold-up "] {
        assert!(took.contains(id) && !took.contains(&format!("{id}0")), "{id}: {took}");
    }
    let (code, out, err) = rulecheck(&fuzz);
    assert_eq!(code, 0, "{out}{err}");
    let never = out.lines().find(|l| l.contains("never took effect:")).expect(&out);
    assert!(never.contains("action:trade-in"), "off, it is never offered: {never}");
    // an option may declare one too, and `diff` measures it like any reading
    let s = Scratch::copy_of(&house_rules(), "trade-in-reading");
    let reading = "  - id: house-trade-in\n    question: May a player trade two cards for one in his building phase?\n    \
                   kind: house-rule\n    citations:\n      - {doc: tuesday-sheet, ref: \"9\", says: \"the trade-in\"}\n    \
                   options:\n      - id: printed\n        consequence: \"no trade-in\"\n      - id: trade-in\n        \
                   consequence: \"two cards for one, once a turn\"\n        actions:\n          - id: swap\n            \
                   during: build\n            effect:\n              - give: {from: active, to: discard, count: 2}\n              \
                   - draw: {to: active, count: 1}\n    default: printed\n    reason: The printed rule stays the default.\n";
    s.edit("interpretations.yaml", "add:\n", &format!("add:\n{reading}"));
    let (code, out, err) =
        rulecheck(&["diff", "--game", "dry-gulch", "house-trade-in", "--games", "20", "--rules", s.path()]);
    assert_eq!(code, 0, "{out}{err}");
    let line = out.lines().find(|l| l.contains("reachability: consulted in")).expect(&out);
    assert!(!line.contains("consulted in 0/"), "{line}");
    let line = out.lines().find(|l| l.contains("printed → trade-in: outcome differs in")).expect(&out);
    assert!(!line.contains("play in 0/"), "{line}");
    // the trade-in scenario with only its refused second trade-in left
    // (its first and the cards given taken out), changed by `edit`
    let refused = |label: &str, (from, to): (&str, &str)| {
        let s = Scratch::copy_of(&manifest_dir().join("tests/catalogs/house-rules-scenarios"), label);
        let file = "trade-in-action.yaml";
        s.edit(file, from, to);
        s.edit(file, "  - {by: p1, do: {action: trade-in}}\n", "");
        s.edit(file, "  - {by: p1, do: {give: lumber}}\n  - {by: p1, do: {give: lumber}}\n", "");
        s.edit(file, "hand_size: {p1: 2}", "hand_size: {p1: 3}");
        s.edit(file, "seats: {p1: {hand: {whiskey: 1}}}", "seats: {p1: {hand: {lumber: 2}}}");
        let (code, out, err) = rulecheck(&["run", s.path(), "--rules", r, "--transcript"]);
        assert_eq!(code, 0, "{label}: {out}{err}");
        out
    };
    let out = refused("trade-in-off", ("    variants: [trade-in]\n", ""));
    let says = "dry-gulch/action.declared (variant `trade-in`): action trade-in is not on in this configuration \
                (variant `trade-in` declares it)";
    assert!(out.contains(says), "{out}");
    // on, but taken outside its step
    let out = refused("trade-in-step", ("phase: build", "phase: draw"));
    assert!(out.contains("action trade-in is taken in the build step, not in the draw phase"), "{out}");
}

/// Two changes of one configuration that replace one card's condition (a
/// variant's, the chosen option's) clash: bad input naming both, where the
/// later used to win without a word; and `validate` refuses two default
/// options that would do so in every default game.
#[test]
fn two_replacements_of_one_cards_condition_are_bad_input() {
    let s = Scratch::copy_of(&house_rules(), "clashing-conditions");
    let variant = "  - id: safe-anywhere\n    names: {en: Safe anywhere}\n    summary: The Safe needs nothing.\n    \
                   changes: [two-ton-safe]\n    replace:\n      - event: two-ton-safe\n        condition: {all: []}\n    \
                   source:\n      - {doc: tuesday-sheet, ref: \"12\", says: \"the Safe needs nothing\"}\n";
    s.edit("variants.yaml", "add:\n", &format!("add:\n{variant}"));
    let (code, out, err) = rulecheck(&["validate", s.path()]);
    assert_eq!(code, 0, "{out}{err}");
    let fuzz = ["fuzz", "--game", "dry-gulch", "--variant", "safe-anywhere", "--games", "2", "--rules", s.path()];
    let (code, out, err) = rulecheck(&fuzz);
    assert_eq!(code, 0, "the variant alone plays: {out}{err}");
    let (code, out, err) = rulecheck(&[&fuzz[..], &["--interpretation", "house-two-ton-safe=bank-only"]].concat());
    assert_eq!(code, 2, "{out}{err}");
    let says = "variant `safe-anywhere` replaces the condition of `two-ton-safe`, and so does option `bank-only` of \
                interpretation `house-two-ton-safe`; one configuration cannot play both (leave the variant off, or \
                choose another option)";
    assert!(err.contains(says) && !err.contains("panicked"), "{err}");
    // as defaults, the two options would clash in every default game
    s.edit("interpretations.yaml", "    default: printed\n    reason: The printed rule stays the default; the sheet's is one switch away.\n\noverride", "    default: bank-only\n    reason: The printed rule stays the default; the sheet's is one switch away.\n\noverride");
    s.edit(
        "interpretations.yaml",
        "      - id: firehouse-instead\n",
        "      - id: firehouse-instead\n        replace:\n          - event: two-ton-safe\n            condition: {all: []}\n",
    );
    let (code, out, err) = rulecheck(&["validate", s.path()]);
    assert_eq!(code, 2, "{out}{err}");
    let says = "interpretations.yaml:50:20: error: the default option `bank-only` of interpretation \
                `house-two-ton-safe` replaces the condition of `two-ton-safe`, and so does the default option \
                `firehouse-instead` of interpretation `fire-with-firehouse`: every default game would have both";
    assert!(err.contains(says), "{err}");
}

/// Data-only variants — one sets a parameter, (d) others add a step to the
/// turn or remove one — are configurations `fuzz` accepts and plays with the contract
/// checked after every action.
#[test]
fn yaml_only_variants_are_played_by_fuzz() {
    let rules = house_rules();
    for variant in ["quiet-start", "payday", "supply-wagon", "no-rewards", "fire-at-dusk"] {
        let args = ["fuzz", "--game", "dry-gulch", "--variant", variant, "--games", "5", "--contract", "--rules"];
        let (code, out, err) = rulecheck(&[&args[..], &[rules.to_str().unwrap()]].concat());
        assert_eq!(code, 0, "{variant}: {out}{err}");
    }
}

/// How many fires spread in `games` random games with the variant on.
fn fires_spread(rules: &AnyRules, games: u64) -> usize {
    use games::dry_gulch::{Event, State};
    let r = dry_gulch(rules);
    let mut spread = 0;
    for seed in 0..games {
        let config = Config::new("dry-gulch", 4, seed).with_variant("spreading-fire");
        let mut s = State::new(r, &config).unwrap();
        let mut pick = Chance::new(seed);
        let mut legal = Vec::new();
        for _ in 0..3000 {
            s.legal_actions(r, &mut legal);
            if legal.is_empty() {
                break;
            }
            let a = legal.swap_remove(pick.below(legal.len() as u32) as usize);
            let events = s.apply(r, &a).unwrap();
            spread += events.iter().filter(|e| matches!(e, Event::FireSpread { .. })).count();
        }
    }
    spread
}

/// Renaming the Fire card keeps spreading fire working: the engine finds it
/// by its role, so the same games spread the same fires.
#[test]
fn renaming_the_fire_card_keeps_spreading_fire_through_its_role() {
    let scratch = Scratch::copy_of(&manifest_dir().join("rules/dry-gulch"), "rename-fire");
    scratch.edit("events.yaml", "  - id: fire\n", "  - id: blaze\n");
    // the one place the catalog names the card by id: a reading's numbers
    scratch.edit("interpretations.yaml", "events.fire.copies", "events.blaze.copies");
    let renamed = load(&scratch.0).unwrap();
    let bundled = load(&manifest_dir().join("rules/dry-gulch")).unwrap();
    assert_eq!(dry_gulch(&renamed).events[0].id, "blaze");
    let (a, b) = (fires_spread(&bundled, 12), fires_spread(&renamed, 12));
    assert!(a > 0, "no fire spread in 12 games");
    assert_eq!(a, b);
}

#[test]
fn a_catalog_without_the_spreading_fire_role_fails_validate_naming_it() {
    let scratch = Scratch::copy_of(&manifest_dir().join("rules/dry-gulch"), "no-fire-role");
    scratch.edit("events.yaml", "    role: spreading-fire\n", "");
    let (code, out, err) = rulecheck(&["validate", scratch.path()]);
    assert_eq!(code, 2, "{out}");
    assert!(err.contains("role `spreading-fire`"), "{err}");
    assert!(err.contains("events.yaml:1:1"), "{err}");
}

/// A Dry Gulch number the default reading sets to another value (the
/// default of `labor-card-value` made `two`, which sets
/// `turn.labor_card_units` to 2 while `game.yaml` says 1) is refused at
/// the number: the catalog's default game would never play it.
#[test]
fn a_number_the_default_reading_overrides_fails_validate_at_the_number() {
    let scratch = Scratch::copy_of(&manifest_dir().join("rules/dry-gulch"), "overridden-number");
    scratch.edit(
        "interpretations.yaml",
        "        set: {turn.labor_card_units: 2}\n    default: one\n",
        "        set: {turn.labor_card_units: 2}\n    default: two\n",
    );
    let (code, out, err) = rulecheck(&["validate", scratch.path()]);
    assert_eq!(code, 2, "{out}");
    let says = "game.yaml:125:21: error: `turn.labor_card_units` is 1, but the default option `two` of interpretation \
                `labor-card-value` sets it to 2 (";
    assert!(err.contains(says) && err.contains("interpretations.yaml:142:"), "{err}");
}

/// A resource role the code needs (`labor`), taken off, fails `validate`
/// naming it and what the code does with it; given to a second resource,
/// it fails at the second.
#[test]
fn a_resource_role_missing_or_given_twice_fails_validate_naming_it() {
    let scratch = Scratch::copy_of(&manifest_dir().join("rules/dry-gulch"), "labor-role");
    scratch.edit("resources.yaml", "    role: labor\n", "");
    let (code, out, err) = rulecheck(&["validate", scratch.path()]);
    assert_eq!(code, 2, "{out}");
    assert!(err.contains("resources.yaml:1:1: error: no resource has the role `labor` (the labor-card-value"), "{err}");
    let labor = "    kind: ability\n    copies: 9\n    substitution: {en: ~, de: 1}";
    scratch.edit("resources.yaml", labor, &labor.replace("copies", "role: labor\n    copies"));
    let carpenter = "    names: {en: Carpenter, de: Zimmermann}\n";
    scratch.edit("resources.yaml", carpenter, &format!("{carpenter}    role: labor\n"));
    let (code, _, err) = rulecheck(&["validate", scratch.path()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("error: a second resource in the role `labor`; a role names one resource"), "{err}");
    assert!(!err.contains("no resource has the role"), "{err}");
}

/// The buildings the set-up and the bank plot need are found by their
/// `ability:` as roles are (`roles::one_each`): a catalog without a Bank
/// fails `validate` naming the ability, and a second Bank at its entry.
#[test]
fn a_building_ability_missing_or_given_twice_fails_validate_naming_it() {
    let scratch = Scratch::copy_of(&manifest_dir().join("rules/dry-gulch"), "bank-ability");
    scratch.edit("buildings.yaml", "    permits: 1\n    ability: bank\n", "    permits: 1\n");
    let (code, out, err) = rulecheck(&["validate", scratch.path()]);
    assert_eq!(code, 2, "{out}");
    let says = "buildings.yaml:1:1: error: no building has the ability `bank` (the bank plot holds it alone); add \
                `ability: bank` to one";
    assert!(err.contains(says), "{err}");
    let scratch = Scratch::copy_of(&manifest_dir().join("rules/dry-gulch"), "two-banks");
    scratch.edit("buildings.yaml", "    ability: blacksmith\n", "    ability: bank\n");
    let (code, _, err) = rulecheck(&["validate", scratch.path()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("error: a second building in the ability `bank`; an ability names one building"), "{err}");
    assert!(!err.contains("no building has the ability"), "{err}");
}

/// Bad input in the new parts: each is exit 2 with the overlay file, line
/// and column of the offending text.
#[test]
fn bad_overlays_are_exit_2_at_the_offending_line_and_column() {
    let cases: &[(&str, &str, &str, &str, &str)] = &[
        (
            "override-missing",
            "interpretations.yaml",
            "  - id: fire-with-firehouse\n",
            "  - id: fire-with-firehose\n",
            "interpretations.yaml:58:9: error: `override:` names interpretation `fire-with-firehose`, which the base catalog does not have; did you mean `fire-with-firehouse`?",
        ),
        (
            "add-existing",
            "variants.yaml",
            "  - id: quiet-start\n",
            "  - id: spreading-fire\n",
            "variants.yaml:3:9: error: `add:` names variant `spreading-fire`, which already exists",
        ),
        (
            "unknown-operation",
            "events.yaml",
            "              - draw: {to: active, count: 2}\n",
            "              - pilfer: {to: active, count: 2}\n",
            "events.yaml:11:17: error: unknown operation `pilfer`",
        ),
        (
            "unknown-hook",
            "interpretations.yaml",
            "      - id: firehouse-takes-three\n",
            "      - id: firehouse-takes-three\n        hook: firehouse-everything\n",
            "interpretations.yaml:72:15: error: option `firehouse-takes-three` of interpretation `fire-with-firehouse` names a reading `firehouse-everything`, but the engine has no hook `fire-with-firehouse`",
        ),
        (
            "unknown-parameter",
            "interpretations.yaml",
            "        set: {turn.hand_limit: 12}\n",
            "        set: {turn.hand_limt: 12}\n",
            "interpretations.yaml:15:15: error: option `twelve` of interpretation `house-hand-limit` sets unknown parameter `turn.hand_limt`",
        ),
        (
            "unknown-entity-number",
            "interpretations.yaml",
            "        set: {turn.hand_limit: 12}\n",
            "        set: {events.fir.copies: 12}\n",
            "interpretations.yaml:15:15: error: option `twelve` of interpretation `house-hand-limit` sets `events.fir.copies`, which is no entity's number; did you mean `events.fire.copies`?",
        ),
        (
            "entity-number-too-large",
            "interpretations.yaml",
            "        set: {turn.hand_limit: 12}\n",
            "        set: {events.fire.copies: 256}\n",
            "interpretations.yaml:15:35: error: option `twelve` of interpretation `house-hand-limit` sets `events.fire.copies` to 256, more than 255 (the most the game counts of one entity)",
        ),
        (
            "undeclared-language",
            "overlay.yaml",
            "  languages: [fr]\n",
            "  languages: [it]\n",
            "events.yaml:4:37: error: name in undeclared language `fr`",
        ),
        (
            "undeclared-document",
            "overlay.yaml",
            "    - {id: tuesday-sheet,",
            "    - {id: wednesday-sheet,",
            "interpretations.yaml:8:15: error: unknown document `tuesday-sheet` in a citation",
        ),
        (
            "overlay-unknown-rule",
            "overlay.yaml",
            "    - id: influence.play\n",
            "    - id: influence.plya\n",
            "overlay.yaml:15:11: error: unknown rule `influence.plya`; this game's errors name turn.order",
        ),
        (
            "overlay-rule-undeclared-document",
            "overlay.yaml",
            "        - {doc: tuesday-sheet, ref: \"11\"}\n",
            "        - {doc: friday-sheet, ref: \"11\"}\n",
            "overlay.yaml:18:17: error: unknown document `friday-sheet` in a citation",
        ),
        (
            "unknown-step-point",
            "variants.yaml",
            "      - after: turn-start\n",
            "      - after: lunch\n",
            "variants.yaml:16:16: error: variant `payday` names unknown step `lunch` (the turn's steps: turn-start, events, draw, build, reward, discard)",
        ),
        (
            "step-with-damage",
            "variants.yaml",
            "          - draw: {to: active, count: 1}\n",
            "          - damage\n",
            "variants.yaml:18:13: error: `damage` needs the event to have a `target`",
        ),
        (
            "step-with-target-owner",
            "variants.yaml",
            "          - draw: {to: active, count: 1}\n",
            "          - draw: {to: target-owner, count: 1}\n",
            "variants.yaml:18:24: error: `target-owner` needs the event to have a `target`",
        ),
        (
            "step-name-typo",
            "variants.yaml",
            "      - after: draw\n",
            "      - after: drow\n",
            "variants.yaml:27:16: error: variant `supply-wagon` names unknown step `drow` (the turn's steps: turn-start, events, draw, build, reward, discard); did you mean `draw`?",
        ),
        (
            "remove-required-step",
            "variants.yaml",
            "      - remove: reward\n",
            "      - remove: build\n",
            "variants.yaml:38:17: error: variant `no-rewards` removes step `build`, which the engine requires in every turn",
        ),
        (
            "step-without-effect",
            "variants.yaml",
            "      - remove: reward\n",
            "      - before: reward\n",
            "variants.yaml:38:17: error: variant `no-rewards` has a step that is none of",
        ),
        (
            "each-outside-a-loop",
            "variants.yaml",
            "          - draw: {to: active, count: 1}\n",
            "          - draw: {to: each, count: 1}\n",
            "variants.yaml:18:24: error: `each` names the player a `for_each` stands at",
        ),
        (
            "count-with-two-comparisons",
            "variants.yaml",
            "{count: {of: {hand: each}, at_most: 2}}",
            "{count: {of: {hand: each}, at_most: 2, exactly: 1}}",
            "variants.yaml:54:28: error: `count` needs exactly one comparison",
        ),
        (
            "witness-unknown-event",
            "interpretations.yaml",
            "the sheet's limit is one switch away.\n",
            "the sheet's limit is one switch away.\n    witness: {until: \"happened(hand-cutt)\"}\n",
            "interpretations.yaml:18:32: error: witness of interpretation `house-hand-limit`: unknown event `hand-cutt`; did you mean `hand-cut`?",
        ),
        (
            "witness-number-for-a-condition",
            "interpretations.yaml",
            "the sheet's limit is one switch away.\n",
            "the sheet's limit is one switch away.\n    witness:\n      until: turn + 1\n",
            "interpretations.yaml:19:14: error: witness of interpretation `house-hand-limit`:",
        ),
        (
            "condition-on-a-card-that-is-not-violet",
            "events.yaml",
            "    copies: 1\n    effect:\n",
            "    copies: 1\n    condition: {built: bank}\n    effect:\n",
            "events.yaml:3:9: error: event `traveling-salesman`: influence, rewards, only_to_win and condition belong to \
             violet cards",
        ),
        (
            "condition-of-a-red-card",
            "interpretations.yaml",
            "          - event: two-ton-safe\n",
            "          - event: fire\n",
            "interpretations.yaml:50:20: error: `replace:` gives `fire` a `condition:`, but only a violet card has one",
        ),
        (
            "replace-with-nothing",
            "interpretations.yaml",
            "            condition: {built: bank}\n",
            "",
            "interpretations.yaml:50:20: error: option `bank-only` of interpretation `house-two-ton-safe`: `replace:` of \
             `two-ton-safe` gives no `effect:` and no `condition:`; give what replaces it",
        ),
        (
            "condition-unknown-building",
            "interpretations.yaml",
            "            condition: {built: bank}\n",
            "            condition: {built: bnak}\n",
            "interpretations.yaml:51:32: error: unknown building `bnak`",
        ),
        (
            "action-unknown-step",
            "variants.yaml",
            "        during: build\n",
            "        during: biuld\n",
            "variants.yaml:91:17: error: variant `trade-in`: action `trade-in` is taken during unknown step `biuld` (the \
             engine's procedures: turn-start, events, draw, build, reward, discard, town-hall-reopens, spread-fire); did \
             you mean `build`?",
        ),
        (
            "action-where-nobody-acts",
            "variants.yaml",
            "        during: build\n",
            "        during: reward\n",
            "variants.yaml:91:17: error: action `trade-in` is taken during `reward`, where the turn does not wait for a \
             player; take it during events, draw, build, discard",
        ),
        (
            "action-declared-twice",
            "variants.yaml",
            "    actions:\n      - id: trade-in\n",
            "    actions:\n      - {id: trade-in, during: draw, effect: [draw: {to: active, count: 1}]}\n      - id: trade-in\n",
            "variants.yaml:91:13: error: action `trade-in` is declared twice (first by variant `trade-in`)",
        ),
        (
            "action-condition-unknown-measure",
            "variants.yaml",
            "{count: {of: {hand: active}, at_least: 2}}",
            "{count: {of: {hands: active}, at_least: 2}}",
            "variants.yaml:92:34: error: unknown measure `hands`; known: players, hand, permits, influence; did you mean \
             `hand`?",
        ),
        (
            "unknown-base",
            "overlay.yaml",
            "  extends: dry-gulch\n",
            "  extends: dry-gully\n",
            "overlay.yaml:5:12: error: the overlay extends unknown game `dry-gully`",
        ),
    ];
    for (label, file, from, to, expected) in cases {
        let scratch = Scratch::copy_of(&house_rules(), label);
        scratch.edit(file, from, to);
        let (code, out, err) = rulecheck(&["validate", scratch.path()]);
        assert_eq!(code, 2, "{label}: {out}{err}");
        assert!(err.contains(expected), "{label}: expected `{expected}` in:\n{err}");
        assert!(!err.contains("panicked"), "{label}: {err}");
    }
}

/// A reading's witness (`witness: {until: …}`) is searched for with
/// fixed settings, and the book shows the game that reaches it: here the
/// house hand limit's, a hand cut at the limit.
#[test]
fn a_witness_shows_the_game_where_the_reading_matters() {
    let scratch = Scratch::copy_of(&house_rules(), "witness");
    let reason = "the sheet's limit is one switch away.\n";
    scratch.edit("interpretations.yaml", reason, &format!("{reason}    witness: {{until: \"happened(hand-cut)\"}}\n"));
    let args =
        ["explain", "--game", "dry-gulch", "house-hand-limit", "--format", "markdown", "--rules", scratch.path()];
    let (code, out, err) = rulecheck(&args);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("**Where it matters.** A state where `happened(hand-cut)` holds (3 players)"), "{out}");
    assert!(out.contains("is over the hand limit and loses"), "the last action's events: {out}");
    assert!(out.contains("<summary>The whole game: "), "{out}");
    // the same settings give the same game
    assert_eq!(rulecheck(&args).1, out);
}

/// An option whose step names a step the turn lacks gets that one error,
/// not also "its options change nothing" (the option does declare data).
#[test]
fn a_broken_step_of_an_option_is_reported_once() {
    let scratch = Scratch::copy_of(&house_rules(), "option-step-typo");
    scratch.edit("interpretations.yaml", "          - move: reward\n", "          - move: rewrd\n");
    let (code, out, err) = rulecheck(&["validate", scratch.path()]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("interpretations.yaml:31:") && err.contains("`rewrd`"), "{err}");
    assert!(!err.contains("change nothing"), "a second, wrong error:\n{err}");
    assert!(err.contains("1 error(s) in the input"), "{err}");
}

/// A reading moves a step as data: with `reward` moved after `discard`,
/// the plots pay as the turn ends, not before the discard phase.
#[test]
fn a_variant_can_move_a_step_of_the_turn() {
    let scratch = Scratch::copy_of(&house_rules(), "move-step");
    scratch.edit("variants.yaml", "      - remove: reward\n", "      - move: reward\n        after: discard\n");
    let scenario = scratch.0.parent().unwrap().join("moved-reward.yaml");
    std::fs::write(
        &scenario,
        "title: Rewards moved to the end of the turn\n\
         why: the variant moves the reward step after the discard phase\n\
         source:\n  - {doc: tuesday-sheet, ref: \"6\"}\n\
         game: dry-gulch\n\
         config: {players: 3, seed: 1, variants: [no-rewards]}\n\
         setup:\n  turn: {seat: p1, phase: build, number: 7}\n  seats: {p1: {hand: {}}, p2: {hand: {}}, p3: {hand: {}}}\n\
         \x20 buildings:\n    - {building: saloon, plot: nw-5, owner: p2}\n\
         steps:\n  - {by: p1, do: end-build}\n  - check: {phase: discard, hand_size: {p1: 0, p2: 0, p3: 0}}\n\
         \x20 - {by: p1, do: end-turn}\n\
         expect:\n  phase: start\n  hand_size: {p1: 1, p2: 3, p3: 1}\n",
    )
    .unwrap();
    let (code, out, err) = rulecheck(&["run", scenario.to_str().unwrap(), "--rules", scratch.path()]);
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, _) = rulecheck(&["explain", "--game", "dry-gulch", "no-rewards", "--rules", scratch.path()]);
    assert_eq!(code, 0);
    assert!(out.contains("[moves the step reward after discard]"), "{out}");
}

/// `labor-card-value` is a number of `game.yaml` that its option `two`
/// sets, not a switch in the code, so a house rule gives it an option in
/// YAML alone: Labor cards worth nothing. `diff` plays it beside the
/// bundled options: `two` cannot change play with this catalog (no
/// building needs two Labor, as its reason says), `worthless` does.
#[test]
fn a_house_rule_adds_an_option_to_a_reading_that_was_code() {
    let scratch = Scratch::copy_of(&house_rules(), "labor-worthless");
    scratch.edit(
        "interpretations.yaml",
        "override:\n",
        "override:\n\
         \x20 - id: labor-card-value\n\
         \x20   question: How many Labor requirements does one Labor card pay?\n\
         \x20   kind: house-rule\n\
         \x20   citations:\n\
         \x20     - {doc: dry-gulch-en, ref: \"Building 1\", says: \"no card values are given\"}\n\
         \x20     - {doc: tuesday-sheet, ref: \"9\", says: \"Labor cards pay only by substitution\"}\n\
         \x20   options:\n\
         \x20     - {id: one, consequence: \"one each\"}\n\
         \x20     - {id: two, consequence: \"up to two each\", set: {turn.labor_card_units: 2}}\n\
         \x20     - {id: worthless, consequence: \"none\", set: {turn.labor_card_units: 0}}\n\
         \x20   default: one\n\
         \x20   reason: The printed reading stays the default.\n",
    );
    let args = ["diff", "--game", "dry-gulch", "labor-card-value", "--games", "20", "--rules", scratch.path()];
    let (code, out, err) = rulecheck(&args);
    assert_eq!(code, 0, "{out}{err}");
    let differs = |to: &str| -> u32 {
        let line = out.lines().find(|l| l.contains(&format!("one → {to}: outcome differs in"))).expect(&out);
        line.split("outcome differs in ").nth(1).unwrap().split('/').next().unwrap().parse().unwrap()
    };
    assert_eq!(differs("two"), 0, "{out}");
    assert!(differs("worthless") > 0, "{out}");
}

/// Adds to the overlay's variants one that sets the counted entities'
/// numbers (`set: {events.fire.copies: 12}`), cited from the house sheet.
fn add_counting_variant(scratch: &Scratch, id: &str, summary: &str, set: &[(&str, u32)]) {
    let keys: Vec<&str> = set.iter().map(|(k, _)| *k).collect();
    let values: Vec<String> = set.iter().map(|(k, n)| format!("{k}: {n}")).collect();
    scratch.edit(
        "variants.yaml",
        "add:\n",
        &format!(
            "add:\n  - id: {id}\n    names: {{en: {id}}}\n    summary: {summary}\n    changes: [{}]\n    set: {{{}}}\n    \
             source:\n      - {{doc: tuesday-sheet, ref: \"10\", says: \"the table shuffles in its spare cards\"}}\n",
            keys.join(", "),
            values.join(", ")
        ),
    );
}

/// A variant sets how many copies a card has and how many permits a
/// building has (`set: {events.fire.copies: 12}`): the decks are dealt
/// with them, the conservation invariants count with them (fuzz holds),
/// and `explain` says what it sets.
#[test]
fn a_house_rule_sets_how_many_copies_a_card_has() {
    let scratch = Scratch::copy_of(&house_rules(), "more-fires");
    add_counting_variant(
        &scratch,
        "more-fires",
        "Twelve Fire cards and five Saloon permits.",
        &[("events.fire.copies", 12), ("buildings.saloon.permits", 5)],
    );
    let scenario = scratch.0.parent().unwrap().join("more-fires.yaml");
    let write = |variants: &str, fires: u32, permits: u32| {
        std::fs::write(
            &scenario,
            format!(
                "title: The decks as the variant deals them\n\
                 why: the variant sets the Fire card's copies and the Saloon's permits\n\
                 source:\n  - {{doc: tuesday-sheet, ref: \"10\"}}\n\
                 game: dry-gulch\n\
                 config: {{players: 3, seed: 1, variants: [{variants}]}}\n\
                 steps: []\n\
                 expect:\n  table: {{event-deck: {{fire: {fires}}}, permit-deck: {permits}}}\n"
            ),
        )
        .unwrap();
        rulecheck(&["run", scenario.to_str().unwrap(), "--rules", scratch.path()])
    };
    // 33 permits, 9 dealt at three players; two more Saloon permits
    let (code, out, err) = write("", 7, 24);
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, err) = write("more-fires", 12, 26);
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, _) = write("more-fires", 7, 24);
    assert_eq!(code, 1, "{out}");
    let args = ["fuzz", "--game", "dry-gulch", "--variant", "more-fires", "--games", "40", "--rules", scratch.path()];
    let (code, out, err) = rulecheck(&args);
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, _) = rulecheck(&["explain", "--game", "dry-gulch", "more-fires", "--rules", scratch.path()]);
    assert_eq!(code, 0);
    assert!(out.contains("[sets buildings.saloon.permits to 5; sets events.fire.copies to 12]"), "{out}");
}

/// A house rule with two I.O.U. cards: under `hand-cut-reactions:
/// like-a-draw` a player over the hand limit answers the cut with one of
/// them and keeps the other, and the hand-limit invariant holds (it once
/// took an I.O.U. left in hand for one never handed over).
#[test]
fn a_second_iou_in_hand_after_answering_the_cut_breaks_no_invariant() {
    let scratch = Scratch::copy_of(&house_rules(), "two-ious");
    add_counting_variant(&scratch, "two-ious", "A second I.O.U. card.", &[("events.iou.copies", 2)]);
    for players in ["3", "5"] {
        let args = [
            "fuzz",
            "--game",
            "dry-gulch",
            "--players",
            players,
            "--variant",
            "two-ious",
            "--interpretation",
            "hand-cut-reactions=like-a-draw",
            "--games",
            "200",
            "--rules",
            scratch.path(),
        ];
        let (code, out, err) = rulecheck(&args);
        assert_eq!(code, 0, "{players} players: {out}{err}");
    }
}

/// Optional rule 4 is a step its variant adds (`add: spread-fire`), so a
/// house rule adds the same procedure elsewhere; `explain` says where, as
/// text and in the edge-case book.
#[test]
fn a_variant_adds_a_procedure_the_declared_turn_leaves_out() {
    let rules = house_rules();
    for (variant, says) in [
        ("spreading-fire", "[adds the step spread-fire after turn-start]"),
        ("town-hall-damage", "[adds the step town-hall-reopens after turn-start]"),
        ("fire-at-dusk", "[adds the step spread-fire after discard]"),
    ] {
        for format in ["text", "markdown"] {
            let args = ["explain", "--game", "dry-gulch", variant, "--format", format, "--rules"];
            let (code, out, err) = rulecheck(&[&args[..], &[rules.to_str().unwrap()]].concat());
            assert_eq!(code, 0, "{err}");
            assert!(out.contains(says), "{variant} ({format}): {out}");
        }
    }
}

/// With the discard step removed, `EndBuild` ends the turn, and the hand
/// limit is checked there: the planted fault that skips the cut is caught.
#[test]
fn the_hand_limit_holds_when_a_turn_without_a_discard_step_ends() {
    let scratch = Scratch::copy_of(&house_rules(), "no-discard");
    scratch.edit("variants.yaml", "      - remove: reward\n", "      - remove: discard\n");
    let save = scratch.0.parent().unwrap().join("saved");
    let args = ["fuzz", "--game", "dry-gulch", "--variant", "no-rewards", "--games", "10", "--rules", scratch.path()];
    let (code, out, err) = rulecheck(&args);
    assert_eq!(code, 0, "{out}{err}");
    let fault = ["--fault", "no-hand-limit", "--save", save.to_str().unwrap()];
    let (code, out, err) = rulecheck(&[&args[..], &fault[..]].concat());
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("invariant `hand-limit` broken"), "{out}");
}

/// The turn `game.yaml` declares: a step the engine requires cannot be
/// missing, and no step is declared twice.
#[test]
fn the_declared_turn_keeps_its_required_steps_once_each() {
    let scratch = Scratch::copy_of(&manifest_dir().join("rules/dry-gulch"), "turn-steps");
    let (from, to) = ("[turn-start, events, draw, build, reward, discard]", "[turn-start, events, draw, reward, draw]");
    scratch.edit("game.yaml", from, to);
    let (code, out, err) = rulecheck(&["validate", scratch.path()]);
    assert_eq!(code, 2, "{out}{err}");
    for expected in [
        "game.yaml:110:46: error: the turn declares step `draw` twice",
        "game.yaml:110:12: error: the turn lacks step `build`, which the engine requires in every turn",
    ] {
        assert!(err.contains(expected), "expected `{expected}` in:\n{err}");
    }
}

#[test]
fn an_overlay_cannot_hold_a_board_or_unknown_files() {
    let scratch = Scratch::copy_of(&house_rules(), "board");
    scratch.write("board.yaml", "board: {}\n");
    scratch.write("notes.yaml", "x: 1\n");
    let (code, _, err) = rulecheck(&["validate", scratch.path()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("board.yaml:1:1: error: `board.yaml` is not a file a Dry Gulch overlay can hold; the board is changed only by a copy"), "{err}");
    assert!(err.contains("notes.yaml:1:1: error: `notes.yaml` is not a file a Dry Gulch overlay can hold"), "{err}");
}

/// The loader holds a catalog to the hooks the code declares: each must be
/// declared, with an option for each of its readings, and an option of a
/// hooked interpretation must name one of them.
#[test]
fn hooks_the_code_declares_must_be_in_the_catalog() {
    let scratch = Scratch::copy_of(&manifest_dir().join("rules/dry-gulch"), "hooks");
    scratch.edit(
        "interpretations.yaml",
        "      - id: never\n        consequence:",
        "      - id: never\n        hook: sometimes\n        consequence:",
    );
    scratch.edit("interpretations.yaml", "  - id: gold-strike\n", "  - id: gold-strike-when\n");
    let (code, _, err) = rulecheck(&["validate", scratch.path()]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("option `never` of interpretation `marker-removal` names unknown reading `sometimes`; give it `hook:` one of with-card, never"),
        "{err}"
    );
    assert!(err.contains("interpretation `marker-removal` has no option for the engine's reading `never`"), "{err}");
    assert!(
        err.contains("the engine branches on interpretation `gold-strike`, which this catalog does not declare"),
        "{err}"
    );
}

/// The README's walkthrough, from an empty folder: the files it writes
/// validate, `diff` measures the reading they add, and `check` takes the
/// folder.
#[test]
fn the_readme_walkthrough_works_from_an_empty_folder() {
    let readme = std::fs::read_to_string(manifest_dir().join("README.md")).unwrap();
    let root = std::env::temp_dir().join(format!("rulecheck-readme-{}", std::process::id()));
    let dir = root.join("my-table");
    std::fs::create_dir_all(&dir).unwrap();
    let mut written = 0;
    for file in ["overlay.yaml", "interpretations.yaml"] {
        let start = format!("cat > my-table/{file} <<'YAML'\n");
        let at = readme.find(&start).unwrap_or_else(|| panic!("the README writes my-table/{file}")) + start.len();
        let body = &readme[at..at + readme[at..].find("\nYAML\n").expect("the heredoc ends")];
        std::fs::write(dir.join(file), format!("{body}\n")).unwrap();
        written += 1;
    }
    assert_eq!(written, 2);
    let d = dir.to_str().unwrap();
    assert!(readme.contains("cargo run --release -- validate my-table"));
    let (code, out, err) = rulecheck(&["validate", d]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(readme.contains("cargo run --release -- diff --game dry-gulch hand-limit-12 --rules my-table"));
    let (code, out, err) = rulecheck(&["diff", "--game", "dry-gulch", "hand-limit-12", "--rules", d, "--games", "10"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("printed → twelve: outcome differs in"), "{out}");
    // `check` takes the same folder: Dry Gulch's bundled scenarios and
    // fuzz under the new reading, the other games' scenarios left out
    assert!(readme.contains("`run` and `check` play the bundled scenarios of the game the folder\nextends"));
    // 6s: the budget bounds the scenario stage too, slow on a loaded machine
    let (code, out, err) = rulecheck(&["check", "--rules", d, "--budget", "6s"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("check: everything held") && !out.contains("dodge-city"), "{out}");
    assert!(err.contains("the bundled scenarios of dodge-city, red-dog-junction are left out"), "{err}");
    let _ = std::fs::remove_dir_all(&root);
}

/// `check`'s readings stage names a reading the engine consults that
/// changes no game: a house hand limit whose two options both set 15 is
/// read at every turn's end and never plays differently, while
/// damaged-influence does change games.
#[test]
fn a_reading_whose_options_agree_changes_no_game() {
    let scratch = Scratch::copy_of(&house_rules(), "same-hand-limit");
    scratch.edit("interpretations.yaml", "set: {turn.hand_limit: 12}", "set: {turn.hand_limit: 15}");
    let same = load(&scratch.0).unwrap();
    assert!(rulecheck::interp::changes_no_game(&same, "house-hand-limit", 10));
    let bundled = load(&house_rules()).unwrap();
    assert!(!rulecheck::interp::changes_no_game(&bundled, "damaged-influence", 10));
}

/// The rules between `game.yaml`'s numbers hold for the numbers a reading
/// sets too: a configuration that breaks one is refused when the game is
/// set up (exit 2, the rule worded as the catalog's load check words it),
/// not played until an invariant fails; a number outside its own range is
/// refused sooner, at the `set:` that writes it.
#[test]
fn a_reading_is_held_to_the_rules_between_the_catalog_numbers() {
    let scratch = Scratch::copy_of(&house_rules(), "unplayable-numbers");
    let d = scratch.path();
    let fuzz = |d: &str| {
        rulecheck(&[
            "fuzz",
            "--game",
            "dry-gulch",
            "--rules",
            d,
            "--games",
            "5",
            "--interpretation",
            "house-hand-limit=twelve",
        ])
    };
    let (code, out, err) = fuzz(d);
    assert_eq!(code, 0, "{out}{err}");
    for (set, says) in [
        (
            "{turn.hand_limit: 0}",
            "interpretations.yaml:15:32: error: option `twelve` of interpretation `house-hand-limit` sets \
             `turn.hand_limit` to 0, but it must be at least 1 (as in the catalog)",
        ),
        ("{turn.events_discarded: 4}", "turn.events_discarded exceeds turn.events_revealed"),
        (
            "{setup.chips_on_residence: 40}",
            "setup.chips_on_residence is 40, more than the 15 chips a player has at 4 players",
        ),
    ] {
        scratch.edit("interpretations.yaml", "set: {turn.hand_limit: 12}", &format!("set: {set}"));
        let (code, out, err) = fuzz(d);
        assert_eq!(code, 2, "{out}{err}");
        let load = says.starts_with("interpretations.yaml");
        assert!(err.contains(&if load { says.to_string() } else { format!("cannot be played: {says}") }), "{err}");
        scratch.edit("interpretations.yaml", &format!("set: {set}"), "set: {turn.hand_limit: 12}");
    }
}

/// A fixed winning total above what a player can count is refused where it
/// is played: with no building short of its chips a player counts at most
/// his chips (the Residence's one for one), so 18 at three players could
/// never be reached and every game went to the turn cap; a building short
/// of chips (`chip-shortage: place-remaining`) reaches it, and under the
/// default winning total the number is never read.
#[test]
fn a_fixed_win_no_player_can_reach_is_refused_where_it_is_played() {
    let scratch = Scratch::copy_of(&house_rules(), "unreachable-win");
    let d = scratch.path();
    scratch.edit("interpretations.yaml", "set: {turn.hand_limit: 12}", "set: {limits.fixed_win_threshold: 18}");
    let fuzz = |readings: &[&str]| {
        let mut args = vec!["fuzz", "--game", "dry-gulch", "--rules", d, "--games", "5", "--players", "3"];
        args.extend(["--interpretation", "house-hand-limit=twelve"]);
        for r in readings {
            args.extend(["--interpretation", r]);
        }
        rulecheck(&args)
    };
    let (code, out, err) = fuzz(&["win-threshold=fixed"]);
    assert_eq!(code, 2, "{out}{err}");
    let says = "limits.fixed_win_threshold is 18, more than the 17 influence a player can count at 3 players \
                (win-threshold: fixed, chip-shortage: cannot-build)";
    assert!(err.contains(&format!("this configuration's numbers cannot be played: {says}")), "{err}");
    for playable in [&["win-threshold=fixed", "chip-shortage=place-remaining"][..], &[]] {
        let (code, out, err) = fuzz(playable);
        assert_eq!(code, 0, "{playable:?}: {out}{err}");
    }
}
