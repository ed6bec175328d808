//! Bad input: the malformed-catalog corpus under `tests/bad_input/`.
//!
//! Most cases are a few text replacements in one bundled file
//! (`Setup::Edit`, written in the table below), so they follow the bundled
//! catalog as it changes; a case folder holds whole files only where the
//! file is no edit of a bundled one (empty, comments only, not UTF-8); a
//! few cases are generated here (a file over the size limit, a directory
//! where a file belongs, a missing file, a condition nested too deep).
//! Every case is laid over a fresh copy of the bundled catalog
//! (`rules/dry-gulch/`) in a temporary folder, then
//!
//! * loaded through the library (`catalog::read_root`, `games::load`): it
//!   must give exactly one diagnostic, at the file, line and column the
//!   table names, saying what the table says;
//! * run through `rulecheck validate`: exit code 2, no panic, the same
//!   diagnostic on stderr;
//! * snapshotted (`tests/snapshots/main__bad_input__<case>.snap`), with the
//!   temporary folder written `<tmp>`.
//!
//! Where the reported place is not yet the bad spot itself, the table pins
//! what is reported today and `gap` says where it should point and why it
//! does not.

use std::collections::BTreeSet;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use rulecheck::catalog::diag::Diagnostic;
use rulecheck::games::dry_gulch::catalog::FILES;
use rulecheck::yaml::MAX_FILE_BYTES;

/// How a case's catalog differs from the bundled one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Setup {
    /// The files of `tests/bad_input/<case>/` replace the bundled ones
    /// (for files that are no edit of a bundled one: empty, comments only,
    /// bytes that are not UTF-8).
    Folder,
    /// Text replacements in one bundled file: each `from` must occur in it
    /// exactly once, so the case follows the bundled catalog as it changes
    /// and a replacement that no longer applies fails by name.
    Edit(&'static str, &'static [(&'static str, &'static str)]),
    /// Generated: a condition nested 200 levels deep in `events.yaml`.
    DeepNesting,
    /// Generated: `board.yaml` padded with comments to one byte over `MAX_FILE_BYTES`.
    HugeFile,
    /// Generated: `board.yaml` replaced by a directory of that name.
    DirectoryForFile,
    /// Generated: `variants.yaml` removed.
    MissingFile,
}

struct Case {
    name: &'static str,
    setup: Setup,
    /// The catalog file the diagnostic names, and its line and column.
    file: &'static str,
    at: (u64, u64),
    /// Text the message must contain.
    says: &'static str,
    /// Set when `at` is not yet the bad spot: where it should be, and why it is not.
    gap: Option<&'static str>,
    /// The bundled catalog the case changes (`rules/<game>/`).
    game: &'static str,
}

const fn case(name: &'static str, file: &'static str, at: (u64, u64), says: &'static str) -> Case {
    Case { name, setup: Setup::Folder, file, at, says, gap: None, game: "dry-gulch" }
}

const fn edit(
    name: &'static str,
    edited: &'static str,
    edits: &'static [(&'static str, &'static str)],
    file: &'static str,
    at: (u64, u64),
    says: &'static str,
) -> Case {
    Case { name, setup: Setup::Edit(edited, edits), file, at, says, gap: None, game: "dry-gulch" }
}

const fn generated(name: &'static str, setup: Setup, file: &'static str, says: &'static str) -> Case {
    Case { name, setup, file, at: (1, 1), says, gap: None, game: "dry-gulch" }
}

/// A case in Red Dog Junction's catalog (`rules/red-dog-junction/`).
const fn rdj(c: Case) -> Case {
    Case { game: "red-dog-junction", ..c }
}

const fn gap(c: Case, why: &'static str) -> Case {
    Case { gap: Some(why), ..c }
}

const CASES: &[Case] = &[
    gap(
        edit(
            "yaml-syntax-error",
            "buildings.yaml",
            &[(
                "  - id: hotel\n    names: {en: Hotel, de: Hotel}\n    cost: [brick, lumber, carpenter, mason, food]\n    influence: 3\n",
                "  - id: hotel\n    names: {en: Hotel, de: Hotel}\n    cost: [brick, lumber, carpenter, mason, food\n    influence: 3\n",
            )],
            "buildings.yaml",
            (103, 14),
            "illegal placement of ':' indicator",
        ),
        "the `[` left open is at 102:11; the parser only fails at the next line's `:`",
    ),
    edit(
        "unknown-key",
        "buildings.yaml",
        &[(
            "  - id: hotel\n    names: {en: Hotel, de: Hotel}\n    cost: [brick, lumber, carpenter, mason, food]\n    influence: 3\n",
            "  - id: hotel\n    names: {en: Hotel, de: Hotel}\n    cost: [brick, lumber, carpenter, mason, food]\n    influense: 3\n",
        )],
        "buildings.yaml",
        (103, 5),
        "unknown field `influense`",
    ),
    edit(
        "wrong-type",
        "buildings.yaml",
        &[(
            "  - id: hotel\n    names: {en: Hotel, de: Hotel}\n    cost: [brick, lumber, carpenter, mason, food]\n    influence: 3\n",
            "  - id: hotel\n    names: {en: Hotel, de: Hotel}\n    cost: [brick, lumber, carpenter, mason, food]\n    influence: lots\n",
        )],
        "buildings.yaml",
        (103, 16),
        "invalid u32",
    ),
    edit(
        "duplicate-id",
        "buildings.yaml",
        &[("  - id: hotel\n", "  - id: saddlery\n")],
        "buildings.yaml",
        (100, 9),
        "duplicate building id `saddlery`",
    ),
    edit(
        "duplicate-key",
        "buildings.yaml",
        &[(
            "  - id: hotel\n    names: {en: Hotel, de: Hotel}\n    cost: [brick, lumber, carpenter, mason, food]\n    influence: 3\n",
            "  - id: hotel\n    names: {en: Hotel, de: Hotel}\n    cost: [brick, lumber, carpenter, mason, food]\n    influence: 3\n    influence: 4\n",
        )],
        "buildings.yaml",
        (104, 5),
        "duplicate key `influence` in this mapping",
    ),
    edit(
        "dangling-reference",
        "events.yaml",
        &[("to: \"owner:pharmacy\", count: 2}", "to: \"owner:pharmcy\", count: 2}")],
        "events.yaml",
        (337, 64),
        "unknown building `pharmcy`; did you mean `pharmacy`?",
    ),
    edit(
        "unknown-effect-operation",
        "events.yaml",
        &[(
            "- take_random: {from: \"owner:bank\", to: \"owner:tobacconist\", count: 2}",
            "- steal_all: {from: \"owner:bank\", to: \"owner:tobacconist\"}",
        )],
        "events.yaml",
        (376, 9),
        "unknown operation `steal_all`",
    ),
    edit(
        "count-contradicts-total",
        "resources.yaml",
        &[(
            "  - id: brick\n    names: {en: Brick, de: Ziegelsteine}\n    kind: good\n    copies: 9\n",
            "  - id: brick\n    names: {en: Brick, de: Ziegelsteine}\n    kind: good\n    copies: 8\n",
        )],
        "game.yaml",
        (179, 19),
        "resource copies add up to 80",
    ),
    edit(
        "missing-provenance",
        "buildings.yaml",
        &[(
            "    source:\n      - doc: dry-gulch-en\n        ref: \"Reference: Buildings\"\n        says: \"Hatmaker / Hutmacher\"\n    assumed:\n      cost: \"no building costs are printed; a small workshop, three cards\"\n      influence: \"no influence values are printed; a three-card building is given 2\"\n",
            "    assumed:\n      cost: \"no building costs are printed; a small workshop, three cards\"\n",
        )],
        "buildings.yaml",
        (185, 9),
        "`influence` has no provenance",
    ),
    edit(
        "assumed-names-no-field",
        "buildings.yaml",
        &[(
            "\"Hatmaker / Hutmacher\"\n    assumed:\n      cost:",
            "\"Hatmaker / Hutmacher\"\n    assumed:\n      costs:",
        )],
        "buildings.yaml",
        (197, 14),
        "`assumed` names `costs`, which is not a number field here",
    ),
    edit(
        "assumed-without-reason",
        "buildings.yaml",
        &[(
            "three cards\"\n      influence: \"no influence values are printed; a three-card building is given 2\"\n      permits: \"no per-building permit count is printed; the eleven buildable types of the English reference list get 2 copies each, buildings known only from card texts 1\"\n\n  - id: sheriffs-office",
            "three cards\"\n      influence: \" \"\n      permits: \"no per-building permit count is printed; the eleven buildable types of the English reference list get 2 copies each, buildings known only from card texts 1\"\n\n  - id: sheriffs-office",
        )],
        "buildings.yaml",
        (198, 18),
        "the assumption for `influence` gives no reason",
    ),
    edit(
        "alias-bomb",
        "events.yaml",
        &[(
            "    condition: {built: newspaper}\n",
            "    condition:\n      all:\n        - &l0 {built: newspaper}\n        - &l1 {all: [*l0, *l0, *l0, *l0, *l0, *l0, *l0, *l0, *l0, *l0]}\n        - &l2 {all: [*l1, *l1, *l1, *l1, *l1, *l1, *l1, *l1, *l1, *l1]}\n        - &l3 {all: [*l2, *l2, *l2, *l2, *l2, *l2, *l2, *l2, *l2, *l2]}\n        - &l4 {all: [*l3, *l3, *l3, *l3, *l3, *l3, *l3, *l3, *l3, *l3]}\n        - &l5 {all: [*l4, *l4, *l4, *l4, *l4, *l4, *l4, *l4, *l4, *l4]}\n        - &l6 {all: [*l5, *l5, *l5, *l5, *l5, *l5, *l5, *l5, *l5, *l5]}\n        - &l7 {all: [*l6, *l6, *l6, *l6, *l6, *l6, *l6, *l6, *l6, *l6]}\n        - &l8 {all: [*l7, *l7, *l7, *l7, *l7, *l7, *l7, *l7, *l7, *l7]}\n        - &l9 {all: [*l8, *l8, *l8, *l8, *l8, *l8, *l8, *l8, *l8, *l8]}\n",
        )],
        "events.yaml",
        (176, 52),
        "expands to more than 250000 nodes",
    ),
    Case {
        at: (231, 7),
        ..generated("deep-nesting", Setup::DeepNesting, "events.yaml", "nests deeper than 64 levels")
    },
    case("non-utf8", "buildings.yaml", (183, 35), "not valid UTF-8"),
    case("empty-file", "events.yaml", (1, 1), "the file is empty"),
    generated("huge-file", Setup::HugeFile, "board.yaml", "file is 1048577 bytes, over the 1048576-byte limit"),
    generated("path-is-directory", Setup::DirectoryForFile, "board.yaml", "is a directory"),
    edit(
        "unknown-interpretation-option",
        "interpretations.yaml",
        &[("    default: with-card\n", "    default: with-cards\n")],
        "interpretations.yaml",
        (75, 14),
        "default `with-cards`",
    ),
    edit(
        "unknown-document",
        "variants.yaml",
        &[(
            "        says: \"reverse-order permit draft, one pick at a time, until each player has two\"\n      - doc: dry-gulch-de\n",
            "        says: \"reverse-order permit draft, one pick at a time, until each player has two\"\n      - doc: dry-gulch-fr\n",
        )],
        "variants.yaml",
        (19, 14),
        "unknown document `dry-gulch-fr`",
    ),
    // Beyond the list.
    generated("missing-file", Setup::MissingFile, "variants.yaml", "missing catalog file `variants.yaml`"),
    edit(
        "wrong-top-level-key",
        "buildings.yaml",
        &[("\nbuildings:\n", "\nbuilding:\n")],
        "buildings.yaml",
        (36, 1),
        "unknown field `building`, expected one of buildings",
    ),
    edit(
        "negative-number",
        "resources.yaml",
        &[(
            "  - id: brick\n    names: {en: Brick, de: Ziegelsteine}\n    kind: good\n    copies: 9\n",
            "  - id: brick\n    names: {en: Brick, de: Ziegelsteine}\n    kind: good\n    copies: -9\n",
        )],
        "resources.yaml",
        (56, 13),
        "invalid u32",
    ),
    edit(
        "unknown-key-beside-known",
        "buildings.yaml",
        &[(
            "  - id: hotel\n    names: {en: Hotel, de: Hotel}\n    cost: [brick, lumber, carpenter, mason, food]\n    influence: 3\n",
            "  - id: hotel\n    names: {en: Hotel, de: Hotel}\n    cost: [brick, lumber, carpenter, mason, food]\n    influence: 3\n    colour: red\n",
        )],
        "buildings.yaml",
        (104, 5),
        "unknown field `colour`",
    ),
    edit(
        "unknown-key-in-names",
        "buildings.yaml",
        &[("    names: {en: Hotel, de: Hotel}", "    names: {en: Hotel, fr: Hotel}")],
        "buildings.yaml",
        (101, 24),
        "name in undeclared language `fr`",
    ),
    edit(
        "unknown-document-in-citations",
        "interpretations.yaml",
        &[(
            "        says: \"when the disaster card is discarded, the marker is removed too and the building is whole again\"\n      - doc: dry-gulch-de\n",
            "        says: \"when the disaster card is discarded, the marker is removed too and the building is whole again\"\n      - doc: dry-gulch-fr\n",
        )],
        "interpretations.yaml",
        (64, 14),
        "unknown document `dry-gulch-fr`",
    ),
    edit(
        "rule-left-out",
        "game.yaml",
        &[(
            "    - id: build.end\n      source: [{doc: dry-gulch-en, ref: \"Drawing Event Cards 2, Reward Phase 1\"}]\n",
            "",
        )],
        "game.yaml",
        (9, 7),
        "`rules:` gives no places for `build.end`, which this game's errors name",
    ),
    edit(
        "unknown-rule",
        "game.yaml",
        &[(
            "    - id: build.end\n",
            "    - id: build.ends\n      source: [{doc: dry-gulch-en, ref: \"Building 1\"}]\n    - id: build.end\n",
        )],
        "game.yaml",
        (45, 11),
        "unknown rule `build.ends`; this game's errors name turn.order",
    ),
    edit(
        "rule-cites-unknown-document",
        "game.yaml",
        &[(
            "      source: [{doc: dry-gulch-en, ref: \"Winning the Game\"}]\n",
            "      source: [{doc: dry-gulch-fr, ref: \"Winning the Game\"}]\n",
        )],
        "game.yaml",
        (30, 22),
        "unknown document `dry-gulch-fr` in a citation",
    ),
    gap(
        edit(
            "tab-indentation",
            "game.yaml",
            &[("\n  id: dry-gulch\n", "\n\tid: dry-gulch\n")],
            "game.yaml",
            (9, 2),
            "tabs disallowed",
        ),
        "the tab is at 9:1; serde-saphyr reports the token after it",
    ),
    gap(
        edit(
            "multiple-documents",
            "variants.yaml",
            &[(
                "        says: \"Ausbreitendes Feuer: same, naming the Feuerwehr (Firehouse)\"\n",
                "        says: \"Ausbreitendes Feuer: same, naming the Feuerwehr (Firehouse)\"\n---\nvariants: []\n",
            )],
            "variants.yaml",
            (79, 1),
            "a second YAML document",
        ),
        "the `---` is at 78:1; serde-saphyr reports the second document's first node",
    ),
    edit(
        "unknown-anchor",
        "variants.yaml",
        &[("    changes: [setup.permit-deal]", "    changes: *permit-deal")],
        "variants.yaml",
        (14, 14),
        "alias references unknown anchor",
    ),
    case("comments-only", "variants.yaml", (1, 1), "the file holds only comments"),
    edit(
        "unknown-enum-value",
        "events.yaml",
        &[(
            "  - id: vandalism\n    names: {en: Vandalism, de: Vandalismus}\n    triangle: red\n",
            "  - id: vandalism\n    names: {en: Vandalism, de: Vandalismus}\n    triangle: purple\n",
        )],
        "events.yaml",
        (90, 15),
        "unknown variant `purple`",
    ),
    // Issue 14: numbers and booleans are not coerced from other spellings.
    edit(
        "quoted-number",
        "game.yaml",
        &[("  hand_limit: 15\n", "  hand_limit: '15'\n")],
        "game.yaml",
        (120, 15),
        "`'15'` is a quoted string where a number or boolean belongs",
    ),
    edit(
        "non-decimal-number",
        "game.yaml",
        &[("  draw_resources: 3\n", "  draw_resources: 0x03\n")],
        "game.yaml",
        (115, 19),
        "`0x03` is not a decimal number",
    ),
    edit(
        "yaml-1-1-boolean",
        "board.yaml",
        &[("{id: nw-2, kind: middle, reward: 1, edge: true}", "{id: nw-2, kind: middle, reward: 1, edge: yes}")],
        "board.yaml",
        (29, 53),
        "invalid boolean (strict mode expects true/false)",
    ),
    // Issue 10: the turn is declared in the catalog, and readings change it.
    edit(
        "unknown-turn-step",
        "game.yaml",
        &[(
            "phases: [turn-start, events, draw, build, reward, discard]",
            "phases: [turn-start, events, drow, build, reward, discard]",
        )],
        "game.yaml",
        (110, 32),
        "unknown turn step `drow` (the engine's procedures: turn-start, events, draw, build, reward, discard, town-hall-reopens, spread-fire); did you mean `draw`?",
    ),
    edit(
        "unknown-step-in-after",
        "variants.yaml",
        &[(
            "        says: \"Ausbreitendes Feuer: same, naming the Feuerwehr (Firehouse)\"\n",
            "        says: \"Ausbreitendes Feuer: same, naming the Feuerwehr (Firehouse)\"\n\n  # A table's variant that adds a step to the turn, naming a step the turn\n  # does not have (`drow` for `draw`).\n  - id: supply-wagon\n    names: {en: Supply wagon}\n    summary: After his draw phase the active player draws one more resource card.\n    changes: [a step after draw]\n    steps:\n      - after: drow\n        effect:\n          - draw: {to: active, count: 1}\n    source:\n      - doc: dry-gulch-en\n        ref: \"Turn\"\n        says: \"the phases of a turn, after which a table adds its own step\"\n",
        )],
        "variants.yaml",
        (86, 16),
        "names unknown step `drow`",
    ),
    // A variant adds one of the code's procedures the turn leaves out.
    edit(
        "unknown-procedure-in-add",
        "variants.yaml",
        &[("      - add: spread-fire\n", "      - add: sprad-fire\n")],
        "variants.yaml",
        (69, 14),
        "variant `spreading-fire` adds unknown step `sprad-fire` (the engine's procedures: turn-start, events, draw, build, reward, discard, town-hall-reopens, spread-fire); did you mean `spread-fire`?",
    ),
    edit(
        "add-a-declared-step",
        "variants.yaml",
        &[("      - add: spread-fire\n", "      - add: draw\n")],
        "variants.yaml",
        (69, 14),
        "variant `spreading-fire` adds step `draw`, which this catalog's turn declares already",
    ),
    edit(
        "add-with-an-effect",
        "variants.yaml",
        &[(
            "      - add: spread-fire\n        after: turn-start\n",
            "      - add: spread-fire\n        after: turn-start\n        effect:\n          - draw: {to: active, count: 1}\n",
        )],
        "variants.yaml",
        (69, 14),
        "variant `spreading-fire` has a step that is none of",
    ),
    // Issue 10: the shared effect language checks every operation's arguments.
    edit(
        "effect-argument-wrong-type",
        "events.yaml",
        &[("- draw: {to: \"owner:undertaker\", count: 1}", "- draw: {to: \"owner:undertaker\", count: one}")],
        "events.yaml",
        (326, 47),
        "`count` of `draw` must be a whole number, found a string",
    ),
    edit(
        "effect-argument-missing",
        "events.yaml",
        &[(
            "{from: \"owner:sheriffs-office\", to: \"owner:doctors-office\", count: 2}",
            "{from: \"owner:sheriffs-office\", to: \"owner:doctors-office\"}",
        )],
        "events.yaml",
        (439, 9),
        "`take_random` needs the argument `count`",
    ),
    edit(
        "unknown-selector",
        "events.yaml",
        &[("- draw_permit: {to: active, count: 1}", "- draw_permit: {to: actve, count: 1}")],
        "events.yaml",
        (426, 27),
        "unknown selector `actve`; expected active, each-player",
    ),
    edit(
        "unknown-effect-argument",
        "events.yaml",
        &[("- draw: {to: each-player, count: 3}", "- draw: {to: each-player, cuont: 3}")],
        "events.yaml",
        (408, 33),
        "`draw` has no argument `cuont`; it takes to, count, from; did you mean `count`?",
    ),
    rdj(edit(
        "rdj-unknown-effect-operation",
        "cards.yaml",
        &[("      - gain: {commodity: whiskey, count: 2}\n", "      - gian: {commodity: whiskey, count: 2}\n")],
        "cards.yaml",
        (154, 9),
        "unknown operation `gian`",
    )),
    rdj(edit(
        "rdj-gain-names-a-card",
        "cards.yaml",
        &[("      - gain: {commodity: scrap, count: 2}\n", "      - gain: {commodity: scrap-heap, count: 2}\n")],
        "cards.yaml",
        (188, 27),
        "unknown card or commodity `scrap-heap`",
    )),
    rdj(edit(
        "rdj-replace-unknown-card",
        "interpretations.yaml",
        &[(
            "  - id: points-only\n    consequence: Officers only score",
            "  - id: points-only\n    replace: [{event: majer, effect: []}]\n    consequence: Officers only score",
        )],
        "interpretations.yaml",
        (625, 23),
        "unknown card `majer`",
    )),
];

/// One test per case, named after it (`-` written `_`).
macro_rules! case_tests {
    ($($test:ident),* $(,)?) => {
        /// The cases that have a test, by test name.
        const TESTED: &[&str] = &[$(stringify!($test)),*];
        $(
            #[test]
            fn $test() {
                check(stringify!($test));
            }
        )*
    };
}

case_tests!(
    yaml_syntax_error,
    unknown_key,
    wrong_type,
    duplicate_id,
    duplicate_key,
    dangling_reference,
    unknown_effect_operation,
    count_contradicts_total,
    missing_provenance,
    assumed_names_no_field,
    assumed_without_reason,
    alias_bomb,
    deep_nesting,
    non_utf8,
    empty_file,
    huge_file,
    path_is_directory,
    unknown_interpretation_option,
    unknown_document,
    missing_file,
    wrong_top_level_key,
    negative_number,
    unknown_key_beside_known,
    unknown_key_in_names,
    unknown_document_in_citations,
    rule_left_out,
    unknown_rule,
    rule_cites_unknown_document,
    tab_indentation,
    multiple_documents,
    unknown_anchor,
    comments_only,
    unknown_enum_value,
    quoted_number,
    non_decimal_number,
    yaml_1_1_boolean,
    unknown_turn_step,
    unknown_step_in_after,
    unknown_procedure_in_add,
    add_a_declared_step,
    add_with_an_effect,
    effect_argument_wrong_type,
    effect_argument_missing,
    unknown_selector,
    unknown_effect_argument,
    rdj_unknown_effect_operation,
    rdj_gain_names_a_card,
    rdj_replace_unknown_card,
);

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn cases_dir() -> PathBuf {
    manifest_dir().join("tests/bad_input")
}

/// A copy of a bundled catalog at `<tmp>/<game>/`, removed on drop.
struct Scratch {
    root: PathBuf,
    game: &'static str,
}

impl Scratch {
    fn new(label: &str) -> Scratch {
        Scratch::of("dry-gulch", label)
    }

    fn of(game: &'static str, label: &str) -> Scratch {
        let root = std::env::temp_dir().join(format!("rulecheck-bad-input-{}-{label}", std::process::id()));
        if root.exists() {
            std::fs::remove_dir_all(&root).unwrap();
        }
        let dir = root.join(game);
        std::fs::create_dir_all(&dir).unwrap();
        for entry in std::fs::read_dir(manifest_dir().join("rules").join(game)).unwrap() {
            let path = entry.unwrap().path();
            std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
        }
        Scratch { root, game }
    }

    fn game(&self) -> PathBuf {
        self.root.join(self.game)
    }

    /// Lays the case's change over the copy.
    fn apply(&self, case: &Case) {
        let game = self.game();
        match case.setup {
            Setup::Folder => {
                for entry in std::fs::read_dir(cases_dir().join(case.name)).unwrap() {
                    let path = entry.unwrap().path();
                    std::fs::copy(&path, game.join(path.file_name().unwrap())).unwrap();
                }
            }
            Setup::Edit(file, edits) => {
                let path = game.join(file);
                let mut text = std::fs::read_to_string(&path).unwrap();
                for (from, to) in edits {
                    let n = text.matches(from).count();
                    assert_eq!(n, 1, "{}: `{from}` occurs {n} times in the bundled {file}, not once", case.name);
                    text = text.replacen(from, to, 1);
                }
                std::fs::write(&path, text).unwrap();
            }
            Setup::DeepNesting => {
                let path = game.join("events.yaml");
                let text = std::fs::read_to_string(&path).unwrap();
                let from = "    condition: {built: newspaper}\n";
                assert_eq!(text.matches(from).count(), 1, "`{from}` is not once in the bundled events.yaml");
                let deep = format!(
                    "    condition:\n{}      {{built: newspaper}}\n      {}\n",
                    "      {not:\n".repeat(200),
                    "}".repeat(200)
                );
                std::fs::write(&path, text.replacen(from, &deep, 1)).unwrap();
            }
            Setup::HugeFile => {
                let mut text = std::fs::read(game.join("board.yaml")).unwrap();
                let size = MAX_FILE_BYTES as usize + 1;
                while text.len() < size {
                    let room = size - text.len();
                    let line = if room > 64 { format!("#{}\n", "-".repeat(62)) } else { "#".repeat(room) };
                    text.extend_from_slice(line.as_bytes());
                }
                std::fs::write(game.join("board.yaml"), text).unwrap();
            }
            Setup::DirectoryForFile => {
                std::fs::remove_file(game.join("board.yaml")).unwrap();
                std::fs::create_dir(game.join("board.yaml")).unwrap();
            }
            Setup::MissingFile => std::fs::remove_file(game.join("variants.yaml")).unwrap(),
        }
    }

    /// The diagnostics as text, with the temporary folder written `<tmp>`.
    fn redact(&self, text: &str) -> String {
        text.replace(&self.root.display().to_string(), "<tmp>")
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// Everything the library reports for a catalog root.
fn load(root: &Path) -> Vec<Diagnostic> {
    match rulecheck::catalog::read_root(root) {
        Err(diags) => diags,
        Ok(games) => games.iter().filter_map(|g| rulecheck::games::load(g).err()).flatten().collect(),
    }
}

/// Runs `rulecheck validate <root>`: its exit code and stderr. Fails the
/// test if it runs for more than a minute.
fn validate(root: &Path) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rulecheck"))
        .arg("validate")
        .arg(root)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        stderr.read_to_end(&mut out).unwrap();
        String::from_utf8_lossy(&out).into_owned()
    });
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("`rulecheck validate` ran for over a minute");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    (status.code(), reader.join().unwrap())
}

fn check(test: &str) {
    let name = test.replace('_', "-");
    let case = CASES.iter().find(|c| c.name == name).unwrap_or_else(|| panic!("no case `{name}` in CASES"));
    let scratch = Scratch::of(case.game, case.name);
    scratch.apply(case);

    let diags = load(&scratch.root);
    let text = scratch.redact(&diags.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n\n"));
    assert_eq!(diags.len(), 1, "{name}: expected one diagnostic, got:\n{text}");
    let d = &diags[0];
    let expected_file = scratch.game().join(case.file).display().to_string();
    assert_eq!(d.file, expected_file, "{name}: wrong file:\n{text}");
    assert_eq!((d.line, d.column), case.at, "{name}: wrong line and column:\n{text}");
    assert!(d.message.contains(case.says), "{name}: the message does not say `{}`:\n{text}", case.says);

    let (code, stderr) = validate(&scratch.root);
    let stderr = scratch.redact(&stderr);
    assert!(!stderr.contains("panicked"), "{name}: rulecheck panicked:\n{stderr}");
    assert_eq!(code, Some(2), "{name}: exit code {code:?}, stderr:\n{stderr}");
    let place = format!("{}/{}:{}:{}", case.game, case.file, case.at.0, case.at.1);
    assert!(stderr.contains(&place), "{name}: stderr does not name {place}:\n{stderr}");
    assert!(stderr.contains(&text), "{name}: stderr differs from the library's diagnostic:\n{stderr}");

    let mut settings = insta::Settings::clone_current();
    if let Some(why) = case.gap {
        settings.set_description(format!("not yet at the bad spot: {why}"));
    }
    settings.bind(|| insta::assert_snapshot!(case.name, text));
}

/// Line and column (1-based, in characters) of the first `needle` in `text`.
fn locate(text: &str, needle: &str) -> (u64, u64) {
    let at = text.find(needle).unwrap_or_else(|| panic!("`{needle}` not found"));
    let before = &text[..at];
    let line = before.matches('\n').count() as u64 + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() as u64 + 1)
}

/// The dangling reference is reported at the line and column of the typo
/// itself, with the near miss suggested.
#[test]
fn typo_is_located() {
    let scratch = Scratch::new("typo-is-located");
    scratch.apply(CASES.iter().find(|c| c.name == "dangling-reference").unwrap());
    let text = std::fs::read_to_string(scratch.game().join("events.yaml")).unwrap();
    let typo = locate(&text, "pharmcy");
    let diags = load(&scratch.root);
    let d = diags.iter().find(|d| d.message.contains("pharmcy")).expect("a diagnostic names `pharmcy`");
    assert_eq!(d.file, scratch.game().join("events.yaml").display().to_string());
    assert_eq!((d.line, d.column), typo, "{d}");
    assert!(d.message.contains("did you mean `pharmacy`?"), "{d}");
}

/// Every folder under tests/bad_input/ is a case in the table with a test,
/// holds only catalog files, and every table entry has a test.
#[test]
fn every_case_is_covered() {
    let mut folders = BTreeSet::new();
    for entry in std::fs::read_dir(cases_dir()).unwrap() {
        let path = entry.unwrap().path();
        assert!(path.is_dir(), "{} is not a case folder", path.display());
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        for file in std::fs::read_dir(&path).unwrap() {
            let file = file.unwrap().file_name().to_string_lossy().to_string();
            assert!(FILES.contains(&file.as_str()), "{name}/{file} is not a catalog file ({})", FILES.join(", "));
        }
        folders.insert(name);
    }
    let table: BTreeSet<String> =
        CASES.iter().filter(|c| c.setup == Setup::Folder).map(|c| c.name.to_string()).collect();
    assert_eq!(folders, table, "case folders and the CASES table differ");

    let names: BTreeSet<String> = CASES.iter().map(|c| c.name.to_string()).collect();
    assert_eq!(names.len(), CASES.len(), "a case is listed twice");
    let tested: BTreeSet<String> = TESTED.iter().map(|t| t.replace('_', "-")).collect();
    assert_eq!(names, tested, "the cases in CASES and the tests in case_tests! differ");
}
