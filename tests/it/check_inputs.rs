//! `hookrun check` on directories and stdin, and its SARIF and JUnit
//! reports, on configs written into temp dirs.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::support::BIN;

/// Runs `check` in `dir` with `stdin`; (exit code, stdout, stderr).
fn check(dir: &Path, args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut child = Command::new(BIN)
        .arg("check")
        .args(["--project-dir", "."])
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env_remove("HOOKRUN_CONFIG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run hookrun check");
    if let Some(mut input) = child.stdin.take() {
        input.write_all(stdin.as_bytes()).expect("write stdin");
    }
    let out = child.wait_with_output().expect("wait for hookrun check");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn write(dir: &Path, rel: &str, text: &str) {
    let path = dir.join(rel);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("mkdir");
    }
    std::fs::write(path, text).expect("write config");
}

const MILLIS_TOML: &str = "[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"true\"\ntimeout = 5000\n";
const MILLIS_JSON: &str = r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"true","timeout":5000}]}]}}"#;

/// The files a JSON report has findings about.
fn files_with_findings(stdout: &str) -> Vec<String> {
    let v: Value = serde_json::from_str(stdout).expect("JSON output");
    let mut files: Vec<String> = v["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| f["file"].as_str().unwrap_or_default().to_owned())
        .collect();
    files.sort();
    files.dedup();
    files
}

#[test]
fn a_directory_means_every_config_file_hookrun_recognises_in_it() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path();
    let read = [
        "hookrun.toml",
        "team.hookrun.toml",
        ".claude/settings.json",
        ".claude/settings.local.json",
        ".codex/hooks.json",
        ".gemini/settings.json",
        ".cursor/hooks.json",
        ".github/hooks/a.json",
        ".github/hooks/b.json",
        // Policy test files are checked as test files.
        "hookrun.test.toml",
    ];
    let ignored = [
        "other.toml",
        "sub/hookrun.test.toml",
        "sub/hookrun.toml",
        ".claude/other.json",
        ".github/hooks/sub/c.json",
        ".github/workflows/ci.json",
    ];
    // Every file is broken, so each one read shows up in the findings.
    for rel in read.iter().chain(&ignored) {
        write(dir, rel, if rel.ends_with(".toml") { "[[" } else { "{" });
    }
    let (code, stdout, _) = check(dir, &["--format", "json", "."], "");
    assert_eq!(code, 1, "{stdout}");
    let mut expected: Vec<String> = read.iter().map(|r| format!("./{r}")).collect();
    expected.sort();
    assert_eq!(files_with_findings(&stdout), expected);
    let v: Value = serde_json::from_str(&stdout).expect("JSON output");
    assert_eq!(v["files"], read.len());
}

#[test]
fn a_directory_without_configs_says_so_and_passes() {
    let tmp = tempfile::tempdir().expect("tempdir");
    write(tmp.path(), "notes.toml", "[[");
    let (code, stdout, stderr) = check(tmp.path(), &["."], "");
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("checked 0 files"), "{stdout}");
    assert!(
        stderr.contains(". holds no config file hookrun recognises"),
        "{stderr}"
    );
}

#[test]
fn dash_reads_one_config_from_stdin_json_or_toml_by_content() {
    let tmp = tempfile::tempdir().expect("tempdir");
    for input in [MILLIS_JSON, MILLIS_TOML] {
        let (code, stdout, _) = check(tmp.path(), &["--format", "json", "-"], input);
        assert_eq!(code, 0, "{stdout}");
        let v: Value = serde_json::from_str(&stdout).expect("JSON output");
        assert_eq!(v["files"], 1);
        assert_eq!(v["findings"][0]["code"], "W004", "{stdout}");
        assert_eq!(v["findings"][0]["file"], "<stdin>");
    }
    // A TOML error proves the TOML reader read it (JSON has no such key).
    let (code, stdout, _) = check(
        tmp.path(),
        &["-"],
        "[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"true\"\ntimout = 5\n",
    );
    assert_eq!(code, 1);
    assert!(stdout.contains("error[E002]"), "{stdout}");
    assert!(stdout.contains("--> <stdin>:4:1"), "{stdout}");
}

#[test]
fn stdin_layers_with_files_as_any_other_config() {
    let tmp = tempfile::tempdir().expect("tempdir");
    write(tmp.path(), "a.json", MILLIS_JSON);
    let (_, stdout, _) = check(tmp.path(), &["a.json", "-"], MILLIS_JSON);
    assert!(stdout.contains("W009"), "{stdout}");
    assert!(stdout.contains("checked 2 files"), "{stdout}");
}

/// Two files: one with an error, one with a warning, one clean.
fn mixed_dir() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().expect("tempdir");
    write(
        tmp.path(),
        "bad.toml",
        "[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"true\"\ntimout = 5\n",
    );
    write(tmp.path(), "millis.toml", MILLIS_TOML);
    write(
        tmp.path(),
        "good.toml",
        "[[hooks]]\nevent = \"SessionStart\"\ncommand = \"true\"\n",
    );
    tmp
}

#[test]
fn sarif_is_a_2_1_0_log_with_rules_and_located_results() {
    let tmp = mixed_dir();
    let (code, stdout, _) = check(
        tmp.path(),
        &["--format", "sarif", "bad.toml", "millis.toml", "good.toml"],
        "",
    );
    assert_eq!(code, 1);
    let v: Value = serde_json::from_str(&stdout).expect("SARIF is JSON");
    assert_eq!(v["version"], "2.1.0");
    assert!(
        v["$schema"]
            .as_str()
            .is_some_and(|s| s.contains("sarif-2.1.0"))
    );
    let runs = v["runs"].as_array().expect("runs");
    assert_eq!(runs.len(), 1);
    let driver = &runs[0]["tool"]["driver"];
    assert_eq!(driver["name"], "hookrun");
    let rules = driver["rules"].as_array().expect("rules");
    let ids: Vec<&str> = rules.iter().filter_map(|r| r["id"].as_str()).collect();
    assert_eq!(ids, ["E002", "W004"]);
    assert_eq!(
        rules[1]["shortDescription"]["text"],
        "timeout looks like milliseconds"
    );
    let results = runs[0]["results"].as_array().expect("results");
    assert_eq!(results.len(), 2);
    let e = &results[0];
    assert_eq!(e["ruleId"], "E002");
    assert_eq!(e["level"], "error");
    assert!(
        e["message"]["text"]
            .as_str()
            .is_some_and(|t| t.contains("timout"))
    );
    let loc = &e["locations"][0]["physicalLocation"];
    assert_eq!(loc["artifactLocation"]["uri"], "bad.toml");
    assert_eq!(loc["region"]["startLine"], 4);
    assert_eq!(loc["region"]["startColumn"], 1);
    assert_eq!(results[1]["level"], "warning");
    assert_eq!(results[1]["ruleId"], "W004");
    // Every result's rule is one the driver lists.
    for r in results {
        let i = r["ruleIndex"].as_u64().expect("ruleIndex");
        assert_eq!(rules[usize::try_from(i).expect("index")]["id"], r["ruleId"]);
    }
}

#[test]
fn sarif_of_a_clean_run_has_no_results_and_exit_0() {
    let tmp = mixed_dir();
    let (code, stdout, _) = check(tmp.path(), &["--format", "sarif", "good.toml"], "");
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&stdout).expect("SARIF is JSON");
    assert_eq!(v["runs"][0]["results"], serde_json::json!([]));
    assert_eq!(
        v["runs"][0]["tool"]["driver"]["rules"],
        serde_json::json!([])
    );
}

/// The text of the test case `name`, up to the next case or the end.
fn case<'a>(xml: &'a str, name: &str) -> &'a str {
    let start = xml
        .find(&format!(
            "<testcase classname=\"hookrun check\" name=\"{name}\""
        ))
        .unwrap_or_else(|| panic!("no case {name}: {xml}"));
    let rest = &xml[start + 1..];
    let end = rest
        .find("<testcase ")
        .or_else(|| rest.find("</testsuite>"))
        .unwrap_or(rest.len());
    &rest[..end]
}

#[test]
fn junit_has_a_case_per_file_errors_fail_and_warnings_are_output() {
    let tmp = mixed_dir();
    let args = ["--format", "junit", "bad.toml", "millis.toml", "good.toml"];
    let (code, xml, _) = check(tmp.path(), &args, "");
    assert_eq!(code, 1);
    assert!(xml.starts_with("<?xml"), "{xml}");
    assert!(
        xml.contains("<testsuite name=\"hookrun check\" tests=\"3\" failures=\"1\""),
        "{xml}"
    );
    assert_eq!(xml.matches("<testcase ").count(), 3, "{xml}");
    assert!(
        case(&xml, "bad.toml").contains("<failure message=\"unknown field `timout`"),
        "{xml}"
    );
    let millis = case(&xml, "millis.toml");
    assert!(!millis.contains("<failure"), "{xml}");
    assert!(
        millis.contains("<system-out>warning[W004] millis.toml:4:11"),
        "{xml}"
    );
    assert!(!case(&xml, "good.toml").contains("<failure"), "{xml}");

    // Under --strict a warning fails its case, as it fails the exit code.
    let strict: Vec<&str> = ["--strict"].into_iter().chain(args).collect();
    let (code, xml, _) = check(tmp.path(), &strict, "");
    assert_eq!(code, 1);
    assert!(xml.contains("failures=\"2\""), "{xml}");
    assert!(
        case(&xml, "millis.toml").contains("<failure message=\"`timeout` is 5000 seconds"),
        "{xml}"
    );
}
