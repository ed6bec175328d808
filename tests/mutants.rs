//! Catalog mutants: each bundled catalog with one number, id or line
//! changed, as a user editing it might. A mutant is either bad input (every
//! diagnostic at a line of a file of the game's folder) or a catalog the
//! engine plays without a panic, every invariant and the contract checked.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::AtomicU64;

use rulecheck::catalog::GameSources;
use rulecheck::catalog::diag::Diagnostic;
use rulecheck::check::fuzz::{FuzzOptions, FuzzSummary, fuzz};
use rulecheck::check::suite::Checks;
use rulecheck::engine::{Chance, Config};
use rulecheck::games::{self, AnyRules};

/// The numbers a mutant writes in place of a number: the edges of what a
/// catalog may hold, and the neighbours of the number it replaces.
fn number_for(c: &mut Chance, n: u64) -> String {
    let picks = [0, 1, 2, n + 1, n.saturating_sub(1), n * 10, 255, 256, 65_535, 4_294_967_295, 4_294_967_296];
    let i = c.below(picks.len() as u32 + 1) as usize;
    picks.get(i).map_or("-1".to_string(), u64::to_string)
}

/// Where the numbers of `text` stand: a run of digits after `: `, `- `,
/// `[` or `, ` (a value, not a word's digits), with the number.
fn numbers(text: &str) -> Vec<(usize, usize, u64)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let after_value = i >= 2 && matches!(&b[i - 2..i], b": " | b"- " | b", ") || i >= 1 && b[i - 1] == b'[';
        if b[i].is_ascii_digit() && after_value {
            let end = (i..b.len()).find(|&j| !b[j].is_ascii_digit()).unwrap_or(b.len());
            let word_goes_on = end < b.len() && (b[end].is_ascii_alphabetic() || b[end] == b'-' || b[end] == b'.');
            if !word_goes_on && let Ok(n) = text[i..end].parse() {
                out.push((i, end, n));
            }
            i = end;
        } else {
            i += 1;
        }
    }
    out
}

/// The ids a file gives its entries (`id: saloon`), each with its place.
fn ids(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(k) = text[from..].find("id: ") {
        let start = from + k + 4;
        let end = text[start..].find(['\n', ',', '}']).map_or(text.len(), |e| start + e);
        if end > start {
            out.push((start, end));
        }
        from = end.max(start);
    }
    out
}

/// One mutant of `text`: a number replaced, an id replaced by another
/// of the file's (or by a new one), a line left out, or a line written twice.
fn mutate(c: &mut Chance, text: &str) -> (String, String) {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let pick = |c: &mut Chance, n: usize| c.below(n.max(1) as u32) as usize;
    match c.below(5) {
        0 | 1 => {
            let nums = numbers(text);
            if let Some(&(s, e, n)) = nums.get(pick(c, nums.len())) {
                let to = number_for(c, n);
                return (format!("{}{}{}", &text[..s], to, &text[e..]), format!("number {n} at byte {s} -> {to}"));
            }
        }
        2 => {
            let places = ids(text);
            if places.len() > 1 {
                let (s, e) = places[pick(c, places.len())];
                let (os, oe) = places[pick(c, places.len())];
                let to = if c.below(4) == 0 { "renamed-by-a-mutant" } else { &text[os..oe] };
                let what = format!("id {} -> {to}", &text[s..e]);
                return (format!("{}{}{}", &text[..s], to, &text[e..]), what);
            }
        }
        3 => {
            let at = pick(c, lines.len());
            let mut out = lines.clone();
            let gone = out.remove(at.min(out.len().saturating_sub(1)));
            return (out.concat(), format!("line {} left out: {}", at + 1, gone.trim_end()));
        }
        _ => {}
    }
    let at = pick(c, lines.len());
    let mut out = lines.clone();
    if let Some(l) = lines.get(at) {
        out.insert(at, l);
    }
    (out.concat(), format!("line {} written twice: {}", at + 1, lines.get(at).map_or("", |l| l.trim_end())))
}

/// Plays a few short games of `rules` at its fewest and most players,
/// every invariant and the contract checked.
fn play(rules: &AnyRules, seed: u64) -> Vec<FuzzSummary> {
    let (min, max) = {
        let s = rules.summary();
        (s.min_players, s.max_players)
    };
    let opts = FuzzOptions {
        games: 1,
        seed,
        jobs: 1,
        // the contract's YAML round trip once in a hundred actions (it is
        // the slowest check, and the JSON one runs after every action)
        checks: Checks { yaml_every: 100, ..Checks::ALL },
        fault: None,
        time_limit: None,
        max_actions: rulecheck::check::fuzz::MAX_ACTIONS,
        shard: None,
    };
    let progress = AtomicU64::new(0);
    let mut out = Vec::new();
    for players in [min, max] {
        let config = Config::new(rules.id(), players, seed);
        let r = match rules {
            AnyRules::DryGulch(r) => fuzz::<games::dry_gulch::State>(r, &config, &opts, &progress),
            AnyRules::DodgeCity(r) => fuzz::<games::dodge_city::State>(r, &config, &opts, &progress),
            AnyRules::RedDogJunction(r) => fuzz::<games::red_dog_junction::State>(r, &config, &opts, &progress),
        };
        // a configuration the mutant's numbers refuse is reported, not played
        if let Ok(summary) = r {
            out.push(summary);
        }
    }
    out
}

fn bundled(game: &str) -> GameSources {
    rulecheck::bundled::rules().unwrap().into_iter().find(|g| g.name == game).unwrap()
}

/// Whether diagnostic `d` points into the folder `folder` (`dry-gulch/`)
/// at a line and column, and within the `lines` of `file` (the mutant)
/// where it is about that file.
fn at_a_place(d: &Diagnostic, folder: &str, (file, lines): (&str, u64)) -> bool {
    let within = if d.file.ends_with(&format!("{folder}{file}")) { lines } else { u64::MAX };
    d.file.contains(folder) && (1..=within).contains(&d.line) && d.column >= 1
}

/// What one mutant came to: loaded and played (with any failures), or refused.
fn try_mutant(game: &str, case: u64) -> Result<String, String> {
    let mut c = Chance::new(case);
    let mut src = bundled(game);
    let files: Vec<String> = src.files.keys().cloned().collect();
    let file = files[c.below(files.len() as u32) as usize].clone();
    let (text, what) = mutate(&mut c, &src.files[&file].text);
    let lines = text.lines().count() as u64 + 1;
    src.files.get_mut(&file).unwrap().text = text;
    let shown = format!("{game} case {case}: {file}: {what}");
    let loaded = catch_unwind(AssertUnwindSafe(|| games::load(&src))).map_err(|_| format!("{shown}: load panicked"))?;
    match loaded {
        Err(diags) => match diags.iter().find(|d| !at_a_place(d, &format!("{game}/"), (&file, lines))) {
            Some(d) => Err(format!("{shown}: diagnostic not at a place of the folder: {d}")),
            None => Ok(format!("{shown}: refused ({})", diags[0].message)),
        },
        Ok(rules) => {
            let played = catch_unwind(AssertUnwindSafe(|| play(&rules, case)))
                .map_err(|_| format!("{shown}: play panicked (rulecheck fuzz --game {game} --seed {case})"))?;
            if let Some(f) = played.iter().flat_map(|s| &s.failures).next() {
                return Err(format!("{shown}: loaded, then game seed {} broke {}: {}", f.seed, f.broken, f.detail));
            }
            Ok(format!("{shown}: loaded and played"))
        }
    }
}

#[test]
fn catalog_mutants_are_bad_input_or_play_cleanly() {
    let var = |name: &str, or: u64| std::env::var(name).ok().and_then(|s| s.parse().ok()).unwrap_or(or);
    let (from, cases) = (var("MUTANTS_FROM", 0), var("MUTANTS", 30));
    let mut bad = Vec::new();
    for game in games::KNOWN {
        for case in from..from + cases {
            match try_mutant(game, case) {
                Ok(line) => eprintln!("{line}"),
                Err(e) => bad.push(e),
            }
        }
    }
    assert!(bad.is_empty(), "{} mutants went wrong:\n{}", bad.len(), bad.join("\n"));
}

/// What one scenario mutant came to: run (passing or failing), or refused
/// with a diagnostic at a line of the file.
fn try_scenario_mutant(catalogs: &[AnyRules], case: u64) -> Result<String, String> {
    let mut c = Chance::new(case);
    let scenarios = rulecheck::bundled::SCENARIOS;
    let (name, bytes) = scenarios[c.below(scenarios.len() as u32) as usize];
    let (text, what) = mutate(&mut c, &String::from_utf8_lossy(bytes));
    let lines = text.lines().count() as u64 + 1;
    let shown = format!("scenario case {case}: {name}: {what}");
    let file = rulecheck::catalog::SourceFile { path: name.to_string(), text };
    let ran = catch_unwind(AssertUnwindSafe(|| rulecheck::scenario::run_file(catalogs, &file)))
        .map_err(|_| format!("{shown}: panicked"))?;
    match ran {
        Ok(_) => Ok(format!("{shown}: ran")),
        Err(d) if d.file == name && at_a_place(&d, "", (name, lines)) => {
            Ok(format!("{shown}: refused at {}:{} ({})", d.line, d.column, d.message))
        }
        Err(d) => Err(format!("{shown}: diagnostic not at a place of the file: {d}")),
    }
}

#[test]
fn scenario_mutants_run_or_are_bad_input_at_a_line_of_the_file() {
    let var = |name: &str, or: u64| std::env::var(name).ok().and_then(|s| s.parse().ok()).unwrap_or(or);
    let (from, cases) = (var("MUTANTS_FROM", 0), var("MUTANTS", 30) * 4);
    let catalogs: Vec<AnyRules> =
        rulecheck::bundled::rules().unwrap().iter().map(|g| games::load(g).unwrap()).collect();
    let mut bad = Vec::new();
    for case in from..from + cases {
        match try_scenario_mutant(&catalogs, case) {
            Ok(line) => eprintln!("{line}"),
            Err(e) => bad.push(e),
        }
    }
    assert!(bad.is_empty(), "{} scenario mutants went wrong:\n{}", bad.len(), bad.join("\n"));
}

/// The judge of a refusal refuses what is not at a place: a line 0, a
/// column 0, a line past the mutant's end, a file of another folder.
#[test]
fn a_refusal_must_point_at_a_line_of_the_folder() {
    let d = |file: &str, line, column| Diagnostic::new(file, line, column, "m");
    let of = ("cards.yaml", 40);
    assert!(at_a_place(&d("rules/dodge-city/cards.yaml", 40, 3), "dodge-city/", of));
    assert!(at_a_place(&d("rules/dodge-city/game.yaml", 90, 3), "dodge-city/", of));
    assert!(!at_a_place(&d("rules/dodge-city/cards.yaml", 0, 3), "dodge-city/", of));
    assert!(!at_a_place(&d("rules/dodge-city/cards.yaml", 41, 3), "dodge-city/", of));
    assert!(!at_a_place(&d("rules/dodge-city/cards.yaml", 4, 0), "dodge-city/", of));
    assert!(!at_a_place(&d("rules/dry-gulch/cards.yaml", 4, 3), "dodge-city/", of));
}

#[test]
fn the_mutations_find_numbers_and_ids() {
    let text = "id: saloon\ncopies: 3\ncite: \"en § 4.5\"\nlist: [1, 22]\nname: p2-seat\n";
    let n: Vec<u64> = numbers(text).into_iter().map(|(_, _, n)| n).collect();
    assert_eq!(n, [3, 1, 22]);
    assert_eq!(ids(text).into_iter().map(|(s, e)| &text[s..e]).collect::<Vec<_>>(), ["saloon"]);
}
