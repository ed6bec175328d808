//! Red Dog Junction's house rules as an overlay
//! (`tests/catalogs/red-dog-junction-house`): a `game.yaml` section, an
//! overridden card and a card of the table's own, a reading that replaces
//! a card's effect, one that declares actions of the turn, a house-rules
//! sheet and names in a second language — and the diagnostics of bad
//! overlays.

use std::path::{Path, PathBuf};

use rulecheck::check::playout::{Chooser, RandomChooser};
use rulecheck::check::suite::{Checks, run_game};
use rulecheck::engine::{Config, Game};
use rulecheck::games::red_dog_junction::readings::P;
use rulecheck::games::red_dog_junction::{Action, Rules, State};
use rulecheck::games::{self, AnyRules};
use rulecheck::lang::declared::Act;

use crate::support::{Scratch, rulecheck};

fn house() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/catalogs/red-dog-junction-house")
}

fn load(dir: &Path) -> Rules {
    let srcs = rulecheck::catalog::read_root(dir).unwrap();
    match games::load(&srcs[0]).unwrap() {
        AnyRules::RedDogJunction(r) => *r,
        _ => panic!("not Red Dog Junction"),
    }
}

fn validate(s: &Scratch) -> (i32, String) {
    let (code, out, err) = rulecheck(&["validate", s.path()]);
    (code, format!("{out}{err}"))
}

#[test]
fn an_overlay_changes_the_turn_and_the_cards_and_adds_a_reading() {
    let base = super::rules();
    let rules = load(&house());
    assert_eq!((base.params[P::Actions as usize], rules.params[P::Actions as usize]), (2, 3));
    let gold = rules.gold;
    let boost = |r: &Rules| r.cards.iter().find(|c| c.id == "boost").unwrap().cost.clone();
    assert_eq!((boost(&base), boost(&rules)), (vec![vec![(gold, 1)]], vec![vec![(gold, 2)]]));
    assert_eq!(rules.cards.len(), base.cards.len() + 1);
    assert!(rules.cards.iter().any(|c| c.id == "lucky-horseshoe" && c.name == "Lucky Horseshoe"));
    assert!(rules.interpretations.iter().any(|i| i.id == "house-boost"));
    assert!(rules.documents.iter().any(|d| d.id == "wednesday-sheet"));
    assert!(rules.languages.contains(&"de".to_string()));
    let (code, out, err) = rulecheck(&["validate", house().to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    // the layered catalog plays under the whole contract, with the house reading either way
    for (k, option) in ["as-catalog", "actions-only"].into_iter().enumerate() {
        for seed in 1..=4u64 {
            let config = Config::new("red-dog-junction", 3, seed * 10 + k as u64).with_reading("house-boost", option);
            let config = Config { turn_cap: Some(80), ..config };
            let mut chooser = RandomChooser::new(config.seed);
            let run = run_game::<State>(&rules, &config, &mut chooser, Checks::ALL, None, 20_000, &mut []).unwrap();
            assert!(run.failure.is_none(), "{:?} ({})", run.failure, config.flags());
        }
    }
}

#[test]
fn diff_treats_the_house_reading_like_a_bundled_one() {
    let dir = house();
    let args = "diff --game red-dog-junction house-boost --games 20 --players 3 --rules".split(' ');
    let (code, out, err) = rulecheck(&args.chain([dir.to_str().unwrap()]).collect::<Vec<_>>());
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("actions-only"), "{out}");
}

#[test]
fn an_overlay_cannot_redraw_the_board_or_override_what_is_missing() {
    let s = Scratch::copy_of(&house(), "rdj-board");
    s.write("components.yaml", "commodities: {}\n");
    let (code, msg) = validate(&s);
    assert_eq!(code, 2, "{msg}");
    assert!(msg.contains("components.yaml:1:1") && msg.contains("copy the whole catalog"), "{msg}");
    let s = Scratch::copy_of(&house(), "rdj-missing");
    s.write(
        "cards.yaml",
        "override:\n  - id: boots\n    class: boost\n    ability: none\n    copies: 1\n    starting: 0\n    \
         cost: [{gold: 1}]\n    points: 0\n    source: [{doc: wednesday-sheet, ref: \"2\"}]\n",
    );
    let (code, msg) = validate(&s);
    assert_eq!(code, 2, "{msg}");
    assert!(msg.contains("cards.yaml:2:9") && msg.contains("did you mean `boost`?"), "{msg}");
    // an overridden section is checked at the overlay's line, not the base's
    let s = Scratch::copy_of(&house(), "rdj-section");
    s.write("game.yaml", "# the table's turn\nturn:\n  actions: 30\n  source: [{doc: wednesday-sheet, ref: \"1\"}]\n");
    let (code, msg) = validate(&s);
    assert_eq!(code, 2, "{msg}");
    assert!(msg.contains("red-dog-junction-house/game.yaml:3:12") && msg.contains("more than 10"), "{msg}");
    s.write("game.yaml", "turn:\n  actoins: 3\n");
    let (code, msg) = validate(&s);
    assert_eq!(code, 2, "{msg}");
    assert!(msg.contains("game.yaml:2:3") && msg.contains("actoins"), "{msg}");
    // a card of the overlay that cites a document nobody declared
    s.write("game.yaml", "turn:\n  actions: 3\n  source: [{doc: thursday-sheet, ref: \"1\"}]\n");
    let (code, msg) = validate(&s);
    assert_eq!(code, 2, "{msg}");
    assert!(msg.contains("game.yaml:3") && msg.contains("thursday-sheet"), "{msg}");
    // a card has no condition for a reading to replace
    let s = Scratch::copy_of(&house(), "rdj-condition");
    s.edit("interpretations.yaml", "            effect: [actions: 2]\n", "            condition: {all: []}\n");
    let (code, msg) = validate(&s);
    assert_eq!(code, 2, "{msg}");
    let says = "interpretations.yaml:15:20: error: `replace:` gives `boost` a `condition:`, but this game's cards have \
                none; replace its `effect:`";
    assert!(msg.contains(says), "{msg}");
    // an action's effect is compiled like a card's: an unknown operation is refused at its line
    let s = Scratch::copy_of(&house(), "rdj-action");
    s.edit("interpretations.yaml", "gain: {commodity: scrap, count: 2}", "haul: {commodity: scrap}");
    let (code, msg) = validate(&s);
    assert_eq!(code, 2, "{msg}");
    assert!(msg.contains("interpretations.yaml:35:17: error: unknown operation `haul`"), "{msg}");
}

/// A house rule declares two actions of the turn, in YAML: each is one of
/// the turn's actions, taken once a turn, and `rest` ends the turn's
/// actions. Random players take them with the contract holding at every
/// player count (solo too: the Automa is never offered one), the scenario
/// pins them, and `explain` words them.
#[test]
fn a_house_rule_declares_actions_of_the_turn() {
    let rules = load(&house());
    let checks = Checks { invariants: true, contract: true, yaml_every: 0 };
    let mut taken = 0;
    for players in 1..=5u32 {
        let config =
            Config::new("red-dog-junction", players, u64::from(players)).with_reading("house-odd-jobs", "odd-jobs");
        let config = Config { turn_cap: Some(60), ..config };
        let mut chooser = RandomChooser::new(config.seed);
        let run = run_game::<State>(&rules, &config, &mut chooser, checks, None, 20_000, &mut []).unwrap();
        assert!(run.failure.is_none(), "{:?} ({})", run.failure.map(|f| f.to_string()), config.flags());
        taken += run.actions.iter().filter(|a| matches!(a, Action::Declared(_))).count();
    }
    assert!(taken > 0, "random play took no declared action");
    // solo: offered to the player, never on the Automa's turn
    let solo = Config::new("red-dog-junction", 1, 3).with_reading("house-odd-jobs", "odd-jobs");
    let mut s = State::new(&rules, &Config { turn_cap: Some(40), ..solo }).unwrap();
    let (mut legal, mut chooser, mut offered) = (Vec::new(), RandomChooser::new(3), 0);
    while s.outcome(&rules).is_none() {
        s.legal_actions(&rules, &mut legal);
        if legal.iter().any(|a| matches!(a, Action::Declared(_))) {
            assert!(!s.is_automa(s.active), "offered on the Automa's turn");
            offered += 1;
        }
        let a = legal[chooser.choose(legal.len())];
        s.apply(&rules, &a).unwrap();
    }
    assert!(offered > 0);
    // each is one of the turn's actions, and `rest` leaves none
    let mut s =
        State::new(&rules, &Config::new("red-dog-junction", 2, 1).with_reading("house-odd-jobs", "odd-jobs")).unwrap();
    while !s.rolls.is_empty() {
        s.apply(&rules, &Action::Roll(1)).unwrap();
    }
    let (seat, left) = (s.active, s.actions_left);
    s.apply(&rules, &Action::Declared(Act::new(0).unwrap())).unwrap();
    assert_eq!((s.active, s.actions_left), (seat, left - 1));
    s.apply(&rules, &Action::Declared(Act::new(1).unwrap())).unwrap();
    assert_ne!(s.active, seat, "rest ends the turn");
    let scenarios = house().with_file_name("red-dog-junction-house-scenarios");
    let (code, out, err) = rulecheck(&["run", scenarios.to_str().unwrap(), "--rules", house().to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("1 configuration(s) passed, 0 failed"), "{out}");
    let (code, out, err) = rulecheck(&["explain", "--game", "red-dog-junction", "--rules", house().to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("red-dog-junction/action.declared"), "{out}");
    assert!(out.contains("adds the action rest, taken once a turn in the step actions, which it ends"), "{out}");
    // a `replace:` names the card whose effect it replaces
    assert!(
        out.contains("actions-only \u{2014} a Boost gives two more actions [replaces the effect of boost]"),
        "{out}"
    );
}

/// A reading of the table's own sets how many copies a card type has
/// (`set: {cards.agent.copies: 15}`), as Dry Gulch's do: the deck is dealt
/// with them and card conservation counts with them; one below what the
/// set-up deals of the card, or of no card, is refused at its line.
#[test]
fn a_house_reading_sets_how_many_copies_a_card_has() {
    let s = Scratch::copy_of(&house(), "rdj-copies");
    let option = "      - id: actions-only\n";
    let more =
        "      - id: more-agents\n        consequence: \"fifteen Agents\"\n        set: {cards.agent.copies: 15}\n";
    s.edit("interpretations.yaml", option, &format!("{more}{option}"));
    let rules = load(&s.0);
    let agent = rules.cards.iter().position(|c| c.id == "agent").unwrap();
    for seed in 1..=6u64 {
        let config = Config::new("red-dog-junction", 4, seed).with_reading("house-boost", "more-agents");
        let config = Config { turn_cap: Some(80), ..config };
        let state = State::setup(&rules, &config).unwrap();
        let totals = state.card_totals(&rules);
        assert_eq!(totals[agent], 15);
        // six Agents more than the catalog's nine, every other card as it was
        let printed = State::setup(&rules, &Config { interpretations: Default::default(), ..config.clone() }).unwrap();
        let mut expected = printed.card_totals(&rules);
        expected[agent] += 6;
        assert_eq!(totals, expected);
        let mut chooser = RandomChooser::new(seed);
        let run = run_game::<State>(&rules, &config, &mut chooser, Checks::ALL, None, 20_000, &mut []).unwrap();
        assert!(run.failure.is_none(), "{:?} ({})", run.failure, config.flags());
    }
    let (code, out, _) = rulecheck(&["explain", "--game", "red-dog-junction", "house-boost", "--rules", s.path()]);
    assert_eq!(code, 0);
    assert!(out.contains("[sets cards.agent.copies to 15]"), "{out}");
    for (set, says) in [
        ("{cards.agent.copies: 4}", "sets `cards.agent.copies` to 4, fewer than 5 (what the game deals of it)"),
        ("{cards.agnet.copies: 9}", "which is no entity's number; did you mean `cards.agent.copies`?"),
    ] {
        s.edit("interpretations.yaml", "{cards.agent.copies: 15}", set);
        let (code, msg) = validate(&s);
        assert_eq!(code, 2, "{msg}");
        assert!(msg.contains("interpretations.yaml:14:") && msg.contains(says), "{msg}");
        s.edit("interpretations.yaml", set, "{cards.agent.copies: 15}");
    }
}

/// A turn of no action never ends: `turn.actions: 0` in a catalog is
/// refused at its line (it was made 1 without a word), and so is a reading
/// that sets it, at its `set:` (it was accepted, then refused when the
/// game was set up); a reading's number past the most the catalog may
/// write is refused alike (more Trail Boss picks than the cards dealt for
/// them left a draft with no legal pick).
#[test]
fn a_number_outside_its_range_is_refused_in_the_catalog_and_in_a_reading() {
    let s = Scratch::copy_of(&house(), "rdj-no-actions");
    s.edit("game.yaml", "  actions: 3", "  actions: 0");
    let (code, msg) = validate(&s);
    assert_eq!(code, 2, "{msg}");
    assert!(msg.contains("game.yaml:3:") && msg.contains("turn.actions is 0, but must be from 1 to 10"), "{msg}");
    s.edit("game.yaml", "  actions: 0", "  actions: 3");
    let option = "      - id: actions-only\n";
    for (set, says) in [
        ("{turn.actions: 0}", "sets `turn.actions` to 0, but it must be from 1 to 10 (as in the catalog)"),
        ("{drafts.trail_boss_picks: 5}", "sets `drafts.trail_boss_picks` to 5, but it must be from 0 to 3"),
    ] {
        let bad = format!("      - id: out-of-range\n        consequence: \"out of range\"\n        set: {set}\n");
        s.edit("interpretations.yaml", option, &format!("{bad}{option}"));
        let (code, msg) = validate(&s);
        assert_eq!(code, 2, "{msg}");
        assert!(msg.contains("interpretations.yaml:14:") && msg.contains(says), "{msg}");
        s.edit("interpretations.yaml", &format!("{bad}{option}"), option);
    }
}

/// The gold die starts on one of its faces: 0, or one past the four, is
/// refused at its line (it broke `dice-within-faces` at the first roll).
#[test]
fn the_gold_die_starts_on_one_of_its_faces() {
    let bundled = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("rules/red-dog-junction");
    let s = Scratch::copy_of(&bundled, "rdj-gold-die");
    for start in ["0", "5"] {
        s.edit("game.yaml", "  gold_die_start: 1\n", &format!("  gold_die_start: {start}\n"));
        let (code, msg) = validate(&s);
        assert_eq!(code, 2, "{msg}");
        let says = format!("game.yaml:72:19: error: setup.gold_die_start is {start}, but the gold die shows 1 to 4");
        assert!(msg.contains(&says), "{msg}");
        s.edit("game.yaml", &format!("  gold_die_start: {start}\n"), "  gold_die_start: 1\n");
    }
    assert_eq!(validate(&s).0, 0);
}

/// A `game.yaml` number the default option of an interpretation sets to
/// another value never plays in the default game: an edit of it would
/// change nothing, so it is refused at the number, naming the option. Two
/// default options setting one number to different values (a house
/// reading's 5 extra Boosts against `deck-total`'s 0) would clash in every
/// default game: refused at the second's `set:`. A number `game.yaml` does
/// not write (the extra Boosts) is the default options' to set. Agreeing
/// again, the catalog loads.
#[test]
fn a_catalog_number_the_default_reading_overrides_is_refused() {
    let bundled = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("rules/red-dog-junction");
    let s = Scratch::copy_of(&bundled, "rdj-overridden-number");
    s.edit("game.yaml", "  capacity_per_cowboy: 4\n", "  capacity_per_cowboy: 5\n");
    let (code, msg) = validate(&s);
    assert_eq!(code, 2, "{msg}");
    let says = "game.yaml:86:24: error: `ship.capacity_per_cowboy` is 5, but the default option `four-per-cowboy` of \
                interpretation `capacity-per-cowboy` sets it to 4 (";
    assert!(msg.contains(says) && msg.contains("interpretations.yaml:54:"), "{msg}");
    s.edit("game.yaml", "  capacity_per_cowboy: 5\n", "  capacity_per_cowboy: 4\n");
    let text = std::fs::read_to_string(s.0.join("interpretations.yaml")).unwrap();
    let house = "- id: house-boosts\n  question: How many extra Boosts?\n  kind: house-rule\n  citations:\n  \
                 - {doc: red-dog-junction-en, ref: Components, says: the deck}\n  options:\n  \
                 - {id: none, consequence: none, set: {deck.extra_boosts: 0}}\n  \
                 - {id: five, consequence: five, set: {deck.extra_boosts: 5}}\n  default: five\n  reason: ours\n";
    s.write("interpretations.yaml", &format!("{text}{house}"));
    let all = format!("{text}{house}");
    let (line, at) = all.lines().enumerate().find(|(_, l)| l.contains("extra_boosts: 5}}")).unwrap();
    let col = at.find("5}}").unwrap() + 1;
    let (code, msg) = validate(&s);
    assert_eq!(code, 2, "{msg}");
    let says = format!(
        "interpretations.yaml:{}:{col}: error: the default option `five` of interpretation `house-boosts` sets \
         `deck.extra_boosts` to 5, but the default option `types-as-printed` of interpretation `deck-total` sets it \
         to 0: every default game would have both",
        line + 1
    );
    assert!(msg.contains(&says), "{msg}");
    s.edit("interpretations.yaml", "  default: five\n", "  default: none\n");
    assert_eq!(validate(&s).0, 0);
}

/// The commodities the code finds by role: with no `role: gold`, or a
/// second `role: scrap`, the catalog fails `validate` naming the role, in
/// the words every game's roles use.
#[test]
fn a_commodity_role_missing_or_given_twice_fails_validate_naming_it() {
    let bundled = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("rules/red-dog-junction");
    let s = Scratch::copy_of(&bundled, "rdj-roles");
    let gold = "copies: 50, starts: bank-distillery, role: gold}";
    s.edit("components.yaml", gold, "copies: 50, starts: bank-distillery}");
    let (code, msg) = validate(&s);
    assert_eq!(code, 2, "{msg}");
    assert!(msg.contains("error: no commodity has the role `gold` (what the Super Deals pay"), "{msg}");
    s.edit("components.yaml", "copies: 50, starts: bank-distillery}", &gold.replace("gold}", "scrap}"));
    let (code, msg) = validate(&s);
    assert_eq!(code, 2, "{msg}");
    assert!(msg.contains("components.yaml:17:12: error: a second commodity in the role `scrap`"), "{msg}");
}
