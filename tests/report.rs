//! `rulecheck report`: one small-budget run, its JSON checked as data and
//! its page opened in headless Chromium, which must draw every chart with
//! a size and raise no script error. Without Chromium the browser part is
//! skipped, except under CI, where it must be there.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::rulecheck;

/// Chromium on PATH; `None` (with a note) when it is missing outside CI,
/// a failure when it is missing under CI.
fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let found = std::env::split_paths(&path)
        .flat_map(|d| ["chromium", "chromium-browser"].map(|n| d.join(n)))
        .find(|p| p.is_file());
    if found.is_none() {
        let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0");
        assert!(!ci, "CI is set and chromium is missing: .ci/run installs it (apt-get install -y chromium)");
        eprintln!("skipped the browser check: chromium is not installed (apt-get install -y chromium)");
    }
    found
}

/// A fresh folder under the test target's temporary folder.
fn fresh(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn headless(browser: &Path, profile: &Path) -> Command {
    let mut c = Command::new(browser);
    c.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--enable-logging=stderr",
        "--hide-scrollbars",
    ])
    .arg(format!("--user-data-dir={}", profile.display()));
    c
}

fn url(page: &Path) -> String {
    format!("file://{}", page.canonicalize().unwrap().display())
}

/// What is wrong with `page` in the browser: a chart drawn with no size,
/// a script error, the measurement missing, or fewer charts measured than
/// the page holds.
fn browser_problems(browser: &Path, page: &Path, scratch: &Path) -> Vec<String> {
    let out = headless(browser, &scratch.join("profile-dom"))
        .args(["--virtual-time-budget=5000", "--dump-dom"])
        .arg(url(page))
        .output()
        .expect("chromium runs");
    let dom = String::from_utf8_lossy(&out.stdout);
    let log = String::from_utf8_lossy(&out.stderr);
    let mut problems: Vec<String> = log
        .lines()
        .filter(|l| l.contains("CONSOLE") && (l.contains(":ERROR:") || l.contains("Uncaught")))
        .map(|l| format!("console: {l}"))
        .collect();
    let Some(text) = dom.split("id=\"rc-measure\"").nth(1).and_then(|r| r.split_once('>')).map(|(_, r)| r) else {
        problems.push(format!("no measurement element in the page (exit {:?}): {log}", out.status.code()));
        return problems;
    };
    let json = text.split("</pre>").next().unwrap_or("");
    let json = json.replace("&quot;", "\"").replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
    let Ok(m) = serde_json::from_str::<serde_json::Value>(&json) else {
        problems.push(format!("the page measured nothing (its script did not run): `{json}`"));
        return problems;
    };
    for e in m["errors"].as_array().into_iter().flatten() {
        problems.push(format!("script error: {e}"));
    }
    let charts = m["charts"].as_array().cloned().unwrap_or_default();
    for c in &charts {
        let (w, h) = (c["width"].as_f64().unwrap_or(0.0), c["height"].as_f64().unwrap_or(0.0));
        if w <= 0.0 || h <= 0.0 {
            problems.push(format!("chart {} has size {w}×{h}", c["id"]));
        }
    }
    let html = std::fs::read_to_string(page).unwrap();
    let held = html.matches("<figure class=\"chart\"").count();
    if charts.len() != held {
        problems.push(format!("{} chart(s) measured of {held} in the page", charts.len()));
    }
    problems
}

fn screenshot(browser: &Path, page: &Path, scratch: &Path, png: &Path) {
    let out = headless(browser, &scratch.join("profile-shot"))
        .arg(format!("--screenshot={}", png.display()))
        .args(["--window-size=1400,2600", "--virtual-time-budget=5000"])
        .arg(url(page))
        .output()
        .expect("chromium runs");
    let size = std::fs::metadata(png).map(|m| m.len()).unwrap_or(0);
    assert!(size > 10_000, "no screenshot ({size} bytes): {}", String::from_utf8_lossy(&out.stderr));
    eprintln!("screenshot: {}", png.display());
}

#[test]
fn report_writes_json_and_a_page_every_chart_of_which_draws_in_a_browser() {
    let dir = fresh("report-run");
    let out = dir.join("out");
    let (code, stdout, stderr) =
        rulecheck(&["report", "--out", out.to_str().unwrap(), "--budget", "8s", "--jobs", "2", "--seed", "3"]);
    assert_eq!(code, 0, "{stderr}");
    // results on stdout: the two paths written; progress on stderr
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines, [out.join("index.html").to_str().unwrap(), out.join("report.json").to_str().unwrap()]);
    assert!(stderr.contains("report: done"), "{stderr}");

    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    let games = json["games"].as_array().unwrap();
    let known: Vec<&str> = rulecheck::games::KNOWN.to_vec();
    let ids: Vec<&str> = games.iter().map(|g| g["game"].as_str().unwrap()).collect();
    assert_eq!(ids.len(), known.len(), "every bundled game once: {ids:?}");
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    for g in games {
        let id = g["game"].as_str().unwrap();
        assert!(!g["readings"]["rows"].as_array().unwrap().is_empty(), "{id}: no reading paired");
        assert!(!g["matrix"]["rows"].as_array().unwrap().is_empty(), "{id}: no matrix row");
        let sensitivity = &g["sensitivity"];
        assert!(sensitivity["error"].is_null(), "{id}: {}", sensitivity["error"]);
        let ranked = sensitivity["rows"].as_array().unwrap();
        assert!(!ranked.is_empty(), "{id}: no group of assumed numbers measured");
        let shares: Vec<f64> = ranked.iter().map(|r| r["changed"]["value"].as_f64().unwrap()).collect();
        assert!(shares.windows(2).all(|w| w[0] >= w[1]), "{id}: the ranking is largest first: {shares:?}");
        let configs = g["configurations"].as_array().unwrap();
        assert!(configs.iter().any(|c| c["games"].as_u64() > Some(0)), "{id}: nothing fuzzed");
        assert!(g["invariants"].as_object().unwrap().values().all(|n| n.as_u64() > Some(0)), "{id}");
        assert!(!g["coverage"].as_object().unwrap().is_empty(), "{id}: no coverage");
        for c in configs {
            let lengths: u64 = c["lengths"].as_object().unwrap().values().map(|n| n.as_u64().unwrap()).sum();
            assert_eq!(lengths, c["games"].as_u64().unwrap(), "{id}: every game in the length histogram");
        }
        for chart in ["readings", "sensitivity", "matrix", "config-0"] {
            assert!(html.contains(&format!("id=\"{id}-{chart}\"")), "{id}: no {chart} chart");
        }
    }
    // self-contained: nothing is fetched (the SVG namespace is a name, not a fetch)
    let fetching = html.replace("xmlns=\"http://www.w3.org/2000/svg\"", "");
    for outside in ["<link", " src=", "http://", "https://", "@import", "url("] {
        assert!(!fetching.contains(outside), "the page refers outside itself: `{outside}`");
    }

    let Some(browser) = chromium() else { return };
    let problems = browser_problems(&browser, &out.join("index.html"), &dir);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    screenshot(&browser, &out.join("index.html"), &dir, &PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("report.png"));
}

/// The check itself: a page with one chart of no size, and one with a
/// script error, are caught.
#[test]
fn a_folder_that_cannot_be_made_is_refused_before_any_run() {
    let dir = fresh("report-blocked");
    std::fs::write(dir.join("a-file"), "not a folder\n").unwrap();
    let out = dir.join("a-file").join("report");
    let (code, _, err) = rulecheck(&["report", "--out", out.to_str().unwrap(), "--budget", "2s", "--seed", "3"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("cannot write the report into"), "{err}");
    assert!(err.contains("a-file"), "the message names the folder: {err}");
    assert!(!err.contains("report: fuzzing"), "the runs started before the folder was made: {err}");
}

#[test]
fn the_browser_check_catches_a_zero_size_chart_and_a_script_error() {
    let Some(browser) = chromium() else { return };
    let dir = fresh("report-planted");
    let good = "<figure class=\"chart\" id=\"fine\"><svg width=\"40\" height=\"30\"><rect width=\"40\" height=\"30\"/></svg></figure>";
    let empty = "<figure class=\"chart\" id=\"planted-empty\"><svg width=\"0\" height=\"0\"></svg></figure>";
    let page = dir.join("empty.html");
    std::fs::write(&page, rulecheck::report::html::page("planted", &format!("{good}{empty}"))).unwrap();
    let problems = browser_problems(&browser, &page, &dir);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].contains("planted-empty") && problems[0].contains("size 0"), "{problems:?}");

    let page = dir.join("error.html");
    std::fs::write(&page, rulecheck::report::html::page("planted", &format!("{good}<script>notDefined();</script>")))
        .unwrap();
    let problems = browser_problems(&browser, &page, &dir);
    assert!(problems.iter().any(|p| p.contains("notDefined")), "{problems:?}");
}

/// What the README says of the command holds: it is in the Commands
/// table, and its example's flags parse.
#[test]
fn the_readme_describes_the_report() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    assert!(readme.contains("| `report --out DIR"), "the Commands table lists `report`");
    assert!(readme.contains("rulecheck report --out target/report"));
    let (code, help, _) = rulecheck(&["report", "--help"]);
    assert_eq!(code, 0);
    for flag in ["--out", "--budget", "--seed", "--jobs"] {
        assert!(help.contains(flag) && readme.contains(flag), "{flag}");
    }
}
