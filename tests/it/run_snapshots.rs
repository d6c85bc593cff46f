//! Snapshots of `hookrun run`'s whole answer, `{exit_code, stdout,
//! stderr}`, one per case, under `tests/it/snapshots/run/`.
//!
//! The cases come from three places, all data:
//!
//! - the dialect matrix: every outcome of `tests/snapshots/outcomes.json`
//!   (a config and what it does) run in every dialect of
//!   `tests/snapshots/dialects.json` that has the outcome's event family,
//!   named `DIALECT--OUTCOME`;
//! - the single cases of `tests/snapshots/cases.json`, mostly hookrun's own
//!   errors, named as written there;
//! - every case of `tests/dialects/golden.json`, named `golden--` and its
//!   test name in `golden.rs` (which still asserts each one's `expect`).
//!
//! Each case runs the real binary with real hook processes in its own temp
//! dir; cases run on several threads at once, as most of their time is
//! spent waiting on processes. What varies between runs and machines is
//! replaced before the snapshot: the temp dir by `<tmp>`, hookrun's
//! version by `<version>`, measured durations by `<duration>`. Every
//! mismatch is reported, not only the first, so one review sees them all;
//! with `INSTA_UPDATE=no` (`.ci/run`) or `CI` set, insta writes nothing and a
//! missing snapshot fails.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Map, Value, json};

use crate::support::HookTest;

/// How many cases run at once.
const WORKERS: usize = 8;

/// One run of `hookrun run`.
struct Case {
    /// The snapshot's name.
    name: String,
    /// TOML configs (`{dir}` the temp dir), passed in order.
    tomls: Vec<String>,
    /// Other config files, by name and exact text, passed after the TOML ones.
    files: Vec<(String, String)>,
    stdin: Vec<u8>,
    args: Vec<String>,
    /// What the case is, kept in the snapshot's header for review.
    info: Value,
}

fn data(rel: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()))
}

fn str_at<'a>(v: &'a Value, key: &str, what: &str) -> &'a str {
    v[key]
        .as_str()
        .unwrap_or_else(|| panic!("{what}: `{key}` is not a string"))
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_owned)
        .collect()
}

/// hookrun's name of the event of a family.
fn event_of(family: &str) -> &'static str {
    match family {
        "pre-tool" | "read" => "PreToolUse",
        "post-tool" => "PostToolUse",
        "prompt" => "UserPromptSubmit",
        "stop" => "Stop",
        other => panic!("outcomes.json: no event family {other:?}"),
    }
}

/// Every outcome in every dialect that has its event family.
fn matrix() -> Vec<Case> {
    let dialects = data("tests/snapshots/dialects.json");
    let outcomes = data("tests/snapshots/outcomes.json");
    let dialects = dialects
        .as_object()
        .expect("dialects.json is an object of dialects");
    let mut cases = Vec::new();
    for (dialect, families) in dialects.iter().filter(|(k, _)| !k.starts_with('_')) {
        for outcome in outcomes["outcomes"]
            .as_array()
            .expect("outcomes.json has `outcomes`")
        {
            let name = str_at(outcome, "name", "an outcome");
            let family = str_at(outcome, "family", name);
            let Some(sent) = families.get(family) else {
                continue;
            };
            let event = event_of(family);
            let config = match (outcome["config"].as_str(), outcome["hook"].as_str()) {
                (Some(config), _) => config.replace("{event}", event),
                (None, Some(hook)) => format!("[[hooks]]\nevent = \"{event}\"\n{hook}\n"),
                (None, None) => panic!("outcome {name}: neither `config` nor `hook`"),
            };
            let command = outcome["command"].as_str().unwrap_or("ls");
            let stdin = match outcome["stdin"].as_str() {
                Some(raw) => raw.to_owned(),
                None => sent.to_string().replace("{command}", command),
            };
            let mut args = vec!["--dialect".to_owned(), dialect.clone()];
            args.extend(strings(&outcome["args"]));
            cases.push(Case {
                name: format!("{dialect}--{name}"),
                info: json!({"dialect": dialect, "outcome": name, "config": config, "stdin": stdin, "args": args}),
                tomls: vec![config],
                files: Vec::new(),
                stdin: stdin.into_bytes(),
                args,
            });
        }
    }
    cases
}

/// The cases of `cases.json`.
fn singles() -> Vec<Case> {
    let file = data("tests/snapshots/cases.json");
    let mut cases = Vec::new();
    for case in file["cases"].as_array().expect("cases.json has `cases`") {
        let name = str_at(case, "name", "a case");
        let stdin = match (case["stdin"].as_str(), case.get("event")) {
            (Some(raw), _) => raw.to_owned(),
            (None, Some(event)) => event.to_string(),
            (None, None) => panic!("case {name}: neither `stdin` nor `event`"),
        };
        let files: Vec<(String, String)> = case["files"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|f| {
                (
                    str_at(f, "name", name).to_owned(),
                    str_at(f, "text", name).to_owned(),
                )
            })
            .collect();
        let tomls: Vec<String> = case["config"]
            .as_str()
            .map(str::to_owned)
            .into_iter()
            .collect();
        let args = strings(&case["args"]);
        let mut info = Map::new();
        for key in ["config", "files", "args"] {
            if let Some(v) = case.get(key) {
                info.insert(key.to_owned(), v.clone());
            }
        }
        info.insert("stdin".to_owned(), Value::String(stdin.clone()));
        cases.push(Case {
            name: name.to_owned(),
            tomls,
            files,
            stdin: stdin.into_bytes(),
            args,
            info: Value::Object(info),
        });
    }
    cases
}

/// The golden cases, as `golden.rs` runs them.
fn goldens() -> Vec<Case> {
    crate::golden::cases()
        .iter()
        .map(|case| {
            let name = crate::golden::name_of(case);
            let hooks = case["hooks"]
                .as_array()
                .unwrap_or_else(|| panic!("golden case {name}: `hooks` is not a list"));
            let config = crate::golden::toml_of(hooks);
            let args: Vec<String> = case["dialect"]
                .as_str()
                .map(|d| vec!["--dialect".to_owned(), d.to_owned()])
                .unwrap_or_default();
            let stdin = case["event"].to_string();
            Case {
                name: format!("golden--{}", crate::golden::test_name(name)),
                info: json!({"golden": name, "config": config, "stdin": stdin, "args": args}),
                tomls: vec![config],
                files: Vec::new(),
                stdin: stdin.into_bytes(),
                args,
            }
        })
        .collect()
}

fn all_cases() -> Vec<Case> {
    let mut cases = matrix();
    cases.extend(singles());
    cases.extend(goldens());
    cases
}

/// Runs a case and returns what is snapshotted.
fn run(case: &Case) -> Value {
    let mut t = HookTest::new();
    for toml in &case.tomls {
        t = t.toml(toml);
    }
    for (name, text) in &case.files {
        t = t.raw_config(name, text);
    }
    // Codex runs hooks in `$SHELL -lc`: a shell that reads no profile.
    t = t
        .stdin(&case.stdin)
        .args(&case.args.iter().map(String::as_str).collect::<Vec<_>>())
        .env("SHELL", "/bin/sh");
    let out = t.run();
    let tmp = t.path().display().to_string();
    let stdout = normalise(&out.stdout, &tmp);
    let stdout = match serde_json::from_str::<Value>(&stdout) {
        Ok(v) if !stdout.trim().is_empty() => v,
        _ => Value::String(stdout),
    };
    json!({
        "exit_code": out.code,
        "stdout": stdout,
        "stderr": normalise(&out.stderr, &tmp),
    })
}

/// Replaces what differs between runs and machines.
fn normalise(text: &str, tmp: &str) -> String {
    let text = text
        .replace(tmp, "<tmp>")
        .replace(env!("CARGO_PKG_VERSION"), "<version>");
    duration_re().replace_all(&text, "<duration>").into_owned()
}

/// A measured duration: digits and a unit below the second (timeouts
/// hooks are given are in seconds, and stay).
fn duration_re() -> &'static regex::Regex {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    RE.get_or_init(|| {
        regex::Regex::new(r"\b\d+(\.\d+)?\s?(ms|µs|us|ns)\b").expect("a valid pattern")
    })
}

fn snapshot_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/snapshots/run")
}

#[test]
fn run_answers_match_their_snapshots() {
    let cases = all_cases();
    let names: BTreeSet<&str> = cases.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names.len(), cases.len(), "two cases share a name");

    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Value>>> = Mutex::new(vec![None; cases.len()]);
    std::thread::scope(|s| {
        for _ in 0..WORKERS {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(case) = cases.get(i) else { break };
                    let got = run(case);
                    results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(got);
                }
            });
        }
    });
    let results = results.into_inner().unwrap_or_else(|e| e.into_inner());

    let mut failed = Vec::new();
    for (case, got) in cases.iter().zip(results) {
        let got = got.unwrap_or_else(|| panic!("{}: no result", case.name));
        let mut settings = insta::Settings::clone_current();
        settings.set_snapshot_path(snapshot_dir());
        settings.set_prepend_module_to_snapshot(false);
        settings.set_omit_expression(true);
        settings.set_info(&case.info);
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            settings.bind(|| insta::assert_json_snapshot!(case.name.as_str(), got));
        }));
        if outcome.is_err() {
            failed.push(case.name.as_str());
        }
    }
    assert!(
        failed.is_empty(),
        "{} of {} snapshots differ or are missing: {failed:?}",
        failed.len(),
        cases.len()
    );
}

/// A snapshot whose case is gone would pin nothing and mislead a review.
#[test]
fn every_snapshot_has_a_case() {
    let names: BTreeSet<String> = all_cases().into_iter().map(|c| c.name).collect();
    let dir = snapshot_dir();
    let entries =
        std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
    let stale: Vec<String> = entries
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().into_string().ok())
        .filter_map(|f| f.strip_suffix(".snap").map(str::to_owned))
        .filter(|n| !names.contains(n))
        .collect();
    assert!(stale.is_empty(), "snapshots without a case: {stale:?}");
}
