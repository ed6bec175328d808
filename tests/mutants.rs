//! Catalog and scenario mutants: each bundled catalog, each house-rules
//! overlay of the tests, each bundled scenario and each of the overlays'
//! scenarios with one number, id, key or line changed, as a user editing
//! it might. A mutant is either bad input
//! (every diagnostic at a line and column of a file of the folder, or of
//! the scenario) or a catalog the engine plays without a panic, every
//! invariant and the contract checked.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::AtomicU64;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

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

/// Where the keys of `text` stand (`copies` of `copies: 3`, block or flow),
/// outside comments, quotes and block scalars.
fn keys(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let (mut at, mut scalar_below) = (0, None::<usize>);
    for line in text.split_inclusive('\n') {
        let indent = line.len() - line.trim_start().len();
        let in_scalar = scalar_below.is_some_and(|i| indent > i || line.trim().is_empty());
        if !in_scalar {
            scalar_below = None;
            let body = keys_of_line(line, indent, &mut |s, e| out.push((at + s, at + e)));
            let tail = body.trim_end();
            if ["|", ">", "|-", ">-"].iter().any(|t| tail.ends_with(&format!(" {t}"))) {
                scalar_below = Some(indent);
            }
        }
        at += line.len();
    }
    out
}

/// Hands `key` the start and end of each key of `line` (from `indent`),
/// outside quotes; gives the line up to its comment.
fn keys_of_line<'l>(line: &'l str, indent: usize, key: &mut dyn FnMut(usize, usize)) -> &'l str {
    let b = line.as_bytes();
    let (mut quote, mut starts_key, mut i) = (None, true, indent);
    while i < b.len() {
        let ch = b[i];
        match quote {
            Some(q) if ch == q => quote = None,
            Some(_) => {}
            None if ch == b'"' || ch == b'\'' => quote = Some(ch),
            None if ch == b'#' => return &line[..i],
            None if starts_key && (ch.is_ascii_lowercase() || ch == b'_') => {
                let word = |j: usize| b[j].is_ascii_alphanumeric() || b"_-.".contains(&b[j]);
                let end = (i..b.len()).find(|&j| !word(j)).unwrap_or(b.len());
                if b.get(end) == Some(&b':') && matches!(b.get(end + 1), None | Some(b' ' | b'\n')) {
                    key(i, end);
                }
                (i, starts_key) = (end, false);
                continue;
            }
            None => {}
        }
        starts_key = quote.is_none() && (ch == b'{' || ch == b' ' && i >= 1 && matches!(b[i - 1], b',' | b'-' | b'{'));
        i += 1;
    }
    line
}

/// One mutant of `text`: a number replaced, an id replaced by another
/// of the file's (or by a new one), a key misspelt, a line left out, two
/// lines swapped, a line moved two columns in or out, or a line written
/// twice.
fn mutate(c: &mut Chance, text: &str) -> (String, String, Option<u64>) {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let pick = |c: &mut Chance, n: usize| c.below(n.max(1) as u32) as usize;
    match c.below(8) {
        5 => {
            let places = keys(text);
            if let Some(&(s, e)) = places.get(pick(c, places.len())) {
                let what = format!("key {} -> {}x", &text[s..e], &text[s..e]);
                let line = text[..s].matches('\n').count() as u64 + 1;
                return (format!("{}x{}", &text[..e], &text[e..]), what, Some(line));
            }
        }
        0 | 1 => {
            let nums = numbers(text);
            if let Some(&(s, e, n)) = nums.get(pick(c, nums.len())) {
                let to = number_for(c, n);
                return (
                    format!("{}{}{}", &text[..s], to, &text[e..]),
                    format!("number {n} at byte {s} -> {to}"),
                    None,
                );
            }
        }
        2 => {
            let places = ids(text);
            if places.len() > 1 {
                let (s, e) = places[pick(c, places.len())];
                let (os, oe) = places[pick(c, places.len())];
                let to = if c.below(4) == 0 { "renamed-by-a-mutant" } else { &text[os..oe] };
                let what = format!("id {} -> {to}", &text[s..e]);
                return (format!("{}{}{}", &text[..s], to, &text[e..]), what, None);
            }
        }
        3 => {
            let at = pick(c, lines.len());
            let mut out = lines.clone();
            let gone = out.remove(at.min(out.len().saturating_sub(1)));
            return (out.concat(), format!("line {} left out: {}", at + 1, gone.trim_end()), None);
        }
        6 if lines.len() > 1 => {
            // two lines in each other's place: list entries, keys or steps reordered
            let at = pick(c, lines.len() - 1);
            let mut out = lines.clone();
            let (a, b) = (out[at].trim_end_matches('\n'), out[at + 1].trim_end_matches('\n'));
            let (a, b) = (format!("{a}\n"), format!("{b}\n"));
            let what = format!("lines {} and {} swapped: {} / {}", at + 1, at + 2, a.trim_end(), b.trim_end());
            out[at] = &b;
            out[at + 1] = &a;
            let mut swapped = out.concat();
            // the file's last line keeps its missing line end
            if !text.ends_with('\n') && swapped.ends_with('\n') {
                swapped.pop();
            }
            return (swapped, what, None);
        }
        7 => {
            // a line moved two columns in or out: a key or entry under another parent
            let at = pick(c, lines.len());
            let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
            if let Some(l) = out.get_mut(at) {
                let deeper = !l.starts_with("  ") || c.below(2) == 0;
                *l = if deeper { format!("  {l}") } else { l[2..].to_string() };
                let what = format!("line {} moved {}: {}", at + 1, if deeper { "in" } else { "out" }, l.trim_end());
                return (out.concat(), what, None);
            }
        }
        _ => {}
    }
    let at = pick(c, lines.len());
    let mut out = lines.clone();
    if let Some(l) = lines.get(at) {
        out.insert(at, l);
    }
    (out.concat(), format!("line {} written twice: {}", at + 1, lines.get(at).map_or("", |l| l.trim_end())), None)
}

/// Plays a few short games of `rules` at its fewest and most players,
/// every invariant and the contract checked; a player count whose default
/// game cannot be set up is an error (a catalog `validate` accepted that
/// plays no game there).
fn play(rules: &AnyRules, seed: u64) -> Result<Vec<FuzzSummary>, String> {
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
        out.push(r.map_err(|e| format!("its default game at {players} players cannot be set up: {e:?}"))?);
    }
    Ok(out)
}

/// The house-rules overlays of the tests, each with the game it layers
/// onto; each has its scenarios in `<overlay>-scenarios` beside it.
const OVERLAYS: [(&str, &str); 3] =
    [("house-rules", "dry-gulch"), ("dodge-city-house", "dodge-city"), ("red-dog-junction-house", "red-dog-junction")];

/// Where the overlays are: `tests/catalogs`.
fn overlays() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/catalogs")
}

/// The catalogs mutated: each game's bundled folder, and each house-rules
/// overlay of the tests (`tests/catalogs`), layered on its game's. Each
/// with the folders its diagnostics may point into.
fn catalogs() -> Vec<(GameSources, [String; 2])> {
    let mut out: Vec<(GameSources, [String; 2])> = rulecheck::bundled::rules()
        .unwrap()
        .into_iter()
        .map(|g| {
            let folder = format!("{}/", g.name);
            (g, [folder.clone(), folder])
        })
        .collect();
    for (dir, game) in OVERLAYS {
        let src = rulecheck::catalog::read_game(&overlays().join(dir)).unwrap();
        out.push((src, [format!("{dir}/"), format!("{game}/")]));
    }
    out
}

/// Whether diagnostic `d` points into one of `folders` (`dry-gulch/`) at
/// a line and column, and within the `lines` of `file` (the mutant) where
/// it is about that file.
fn at_a_place(d: &Diagnostic, folders: &[String], (file, lines): (&str, u64)) -> bool {
    let within = if d.file.ends_with(&format!("{}{file}", folders[0])) { lines } else { u64::MAX };
    folders.iter().any(|f| d.file.contains(f.as_str())) && (1..=within).contains(&d.line) && d.column >= 1
}

/// The command that tries mutant `case` again.
fn again(case: u64, test: &str) -> String {
    format!("MUTANTS_FROM={case} MUTANTS=1 cargo test --test main mutants::{test}")
}

/// What one mutant came to: loaded and played (with any failures), or refused.
fn try_mutant((src, folders): &(GameSources, [String; 2]), case: u64) -> Result<String, String> {
    let mut c = Chance::new(case);
    let mut src = src.clone();
    let files: Vec<String> = src.files.keys().cloned().collect();
    let file = files[c.below(files.len() as u32) as usize].clone();
    let (text, what, misspelt) = mutate(&mut c, &src.files[&file].text);
    let lines = text.lines().count() as u64 + 1;
    src.files.get_mut(&file).unwrap().text = text;
    let shown = format!("{}{file}, case {case}: {what}", folders[0]);
    let again = again(case, "catalog_mutants");
    let loaded = catch_unwind(AssertUnwindSafe(|| games::load(&src)))
        .map_err(|_| format!("{shown}: load panicked ({again})"))?;
    match loaded {
        Err(diags) => match diags.iter().find(|d| !at_a_place(d, folders, (&file, lines))) {
            Some(d) => Err(format!("{shown}: diagnostic not at a place of the folder: {d} ({again})")),
            None if misspelt.is_some_and(|l| !diags.iter().any(|d| d.line == l && d.file.ends_with(&file))) => {
                Err(format!("{shown}: refused, but not at the misspelt key: {} ({again})", diags[0]))
            }
            None => Ok(format!("{shown}: refused ({})", diags[0].message)),
        },
        // a misspelt key is never taken silently
        Ok(_) if misspelt.is_some() => Err(format!("{shown}: loaded ({again})")),
        Ok(rules) => {
            let played = catch_unwind(AssertUnwindSafe(|| play(&rules, case)))
                .map_err(|_| format!("{shown}: play panicked ({again})"))?
                .map_err(|e| format!("{shown}: loaded, but {e} ({again})"))?;
            if let Some(f) = played.iter().flat_map(|s| &s.failures).next() {
                return Err(format!("{shown}: game seed {} broke {}: {} ({again})", f.seed, f.broken, f.detail));
            }
            Ok(format!("{shown}: loaded and played"))
        }
    }
}

/// How long one mutant may take (a few seconds is usual).
const SECONDS: u64 = 60;

/// The mutants asked for: `MUTANTS` (30) from `MUTANTS_FROM` (0), times `times`.
fn cases(times: u64) -> std::ops::Range<u64> {
    let var = |name: &str, or: u64| std::env::var(name).ok().and_then(|s| s.parse().ok()).unwrap_or(or);
    let from = var("MUTANTS_FROM", 0);
    from..from + var("MUTANTS", 30) * times
}

/// Runs `one` on each case on a thread of its own, each within `SECONDS`:
/// what went wrong, a mutant that did not end in time among it (its
/// thread is left to the end of the process, and no further case is tried).
fn each_case(
    (cases, of): (std::ops::Range<u64>, &str),
    test: &str,
    one: impl Fn(u64) -> Result<String, String> + Send + Sync + 'static,
) -> Vec<String> {
    let one = Arc::new(one);
    let mut bad = Vec::new();
    for case in cases {
        let (tx, rx) = mpsc::channel();
        let f = Arc::clone(&one);
        std::thread::spawn(move || tx.send(f(case)));
        match rx.recv_timeout(Duration::from_secs(SECONDS)) {
            Ok(Ok(line)) => eprintln!("{line}"),
            Ok(Err(e)) => bad.push(e),
            Err(RecvTimeoutError::Disconnected) => {
                bad.push(format!("{of}, case {case}: panicked ({})", again(case, test)))
            }
            Err(RecvTimeoutError::Timeout) => {
                bad.push(format!("{of}, case {case}: did not end within {SECONDS} s ({})", again(case, test)));
                break;
            }
        }
    }
    bad
}

#[test]
fn catalog_mutants_are_bad_input_or_play_cleanly() {
    let all = Arc::new(catalogs());
    let mut bad = Vec::new();
    for i in 0..all.len() {
        let all = Arc::clone(&all);
        let of = all[i].1[0].clone();
        bad.extend(each_case((cases(1), &of), "catalog_mutants", move |case| try_mutant(&all[i], case)));
    }
    assert!(bad.is_empty(), "{} mutants went wrong:\n{}", bad.len(), bad.join("\n"));
}

/// The scenarios mutated, each with the catalogs it runs against: every
/// bundled scenario with the bundled catalogs, and every scenario of a
/// house-rules overlay of the tests (`tests/catalogs/<overlay>-scenarios`)
/// with that overlay layered on its game.
fn scenarios() -> Vec<(rulecheck::catalog::SourceFile, Arc<Vec<AnyRules>>)> {
    let bundled: Vec<AnyRules> = rulecheck::bundled::rules().unwrap().iter().map(|g| games::load(g).unwrap()).collect();
    let bundled = Arc::new(bundled);
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    let mut out: Vec<_> = rulecheck::bundled::SCENARIOS
        .iter()
        .map(|(name, bytes)| {
            (rulecheck::catalog::SourceFile { path: name.to_string(), text: text(bytes) }, Arc::clone(&bundled))
        })
        .collect();
    for (dir, _) in OVERLAYS {
        let house =
            Arc::new(vec![games::load(&rulecheck::catalog::read_game(&overlays().join(dir)).unwrap()).unwrap()]);
        let mut files: Vec<_> = std::fs::read_dir(overlays().join(format!("{dir}-scenarios")))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        for path in files {
            let name = format!("{dir}-scenarios/{}", path.file_name().unwrap().to_string_lossy());
            let file = rulecheck::catalog::SourceFile { path: name, text: std::fs::read_to_string(&path).unwrap() };
            out.push((file, Arc::clone(&house)));
        }
    }
    out
}

/// What one scenario mutant came to: run (passing or failing), or refused
/// with a diagnostic at a line of the file.
fn try_scenario_mutant(
    scenarios: &[(rulecheck::catalog::SourceFile, Arc<Vec<AnyRules>>)],
    case: u64,
) -> Result<String, String> {
    let mut c = Chance::new(case);
    let (file, catalogs) = &scenarios[c.below(scenarios.len() as u32) as usize];
    let name = file.path.as_str();
    let (text, what, misspelt) = mutate(&mut c, &file.text);
    let lines = text.lines().count() as u64 + 1;
    let shown = format!("{name}, case {case}: {what}");
    let file = rulecheck::catalog::SourceFile { path: name.to_string(), text };
    let ran = catch_unwind(AssertUnwindSafe(|| rulecheck::scenario::run_file(catalogs, &file)))
        .map_err(|_| format!("{shown}: panicked ({})", again(case, "scenario_mutants")))?;
    let again = again(case, "scenario_mutants");
    match ran {
        // a misspelt key is never taken silently, and is pointed at
        Ok(_) if misspelt.is_some() => Err(format!("{shown}: ran ({again})")),
        Err(d) if misspelt.is_some_and(|l| d.line != l) => {
            Err(format!("{shown}: refused, but not at the misspelt key: {d} ({again})"))
        }
        Ok(_) => Ok(format!("{shown}: ran")),
        Err(d) if d.file == name && at_a_place(&d, &[String::new()], (name, lines)) => {
            Ok(format!("{shown}: refused at {}:{} ({})", d.line, d.column, d.message))
        }
        Err(d) => Err(format!("{shown}: diagnostic not at a place of the file: {d} ({again})")),
    }
}

#[test]
fn scenario_mutants_run_or_are_bad_input_at_a_line_of_the_file() {
    let scenarios = Arc::new(scenarios());
    let bad =
        each_case((cases(4), "a scenario"), "scenario_mutants", move |case| try_scenario_mutant(&scenarios, case));
    assert!(bad.is_empty(), "{} scenario mutants went wrong:\n{}", bad.len(), bad.join("\n"));
}

/// The judge of a refusal refuses what is not at a place: a line 0, a
/// column 0, a line past the mutant's end, a file of another folder.
#[test]
fn a_refusal_must_point_at_a_line_of_the_folder() {
    let d = |file: &str, line, column| Diagnostic::new(file, line, column, "m");
    let (of, dc) = (("cards.yaml", 40), ["dodge-city-house/".to_string(), "dodge-city/".to_string()]);
    assert!(at_a_place(&d("tests/catalogs/dodge-city-house/cards.yaml", 40, 3), &dc, of));
    assert!(at_a_place(&d("rules/dodge-city/cards.yaml", 90, 3), &dc, of));
    assert!(!at_a_place(&d("tests/catalogs/dodge-city-house/cards.yaml", 0, 3), &dc, of));
    assert!(!at_a_place(&d("tests/catalogs/dodge-city-house/cards.yaml", 41, 3), &dc, of));
    assert!(!at_a_place(&d("rules/dodge-city/game.yaml", 4, 0), &dc, of));
    assert!(!at_a_place(&d("rules/dry-gulch/cards.yaml", 4, 3), &dc, of));
}

#[test]
fn the_mutations_find_numbers_and_ids() {
    let text = "id: saloon\ncopies: 3\ncite: \"en § 4.5\"\nlist: [1, 22]\nname: p2-seat\n";
    let k = |t: &str| keys(t).into_iter().map(|(s, e)| t[s..e].to_string()).collect::<Vec<_>>();
    assert_eq!(k(text), ["id", "copies", "cite", "list", "name"]);
    let flow = "- {id: a, says: \"b, c: d\"} # e: f\nwhy: >\n  g: h\nnext:\n  - kind: x\n";
    assert_eq!(k(flow), ["id", "says", "why", "next", "kind"]);
    let n: Vec<u64> = numbers(text).into_iter().map(|(_, _, n)| n).collect();
    assert_eq!(n, [3, 1, 22]);
    assert_eq!(ids(text).into_iter().map(|(s, e)| &text[s..e]).collect::<Vec<_>>(), ["saloon"]);
}
