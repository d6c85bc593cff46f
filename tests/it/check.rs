//! `hookrun check` on a corpus of broken and suspicious configs: one
//! snapshot of the whole output (exit code, stdout, stderr) per file.

use std::path::Path;
use std::process::Command;

use crate::support::BIN;

fn corpus() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus")
}

fn check(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(BIN)
        .arg("check")
        .args(["--project-dir", "."])
        .args(args)
        .current_dir(corpus())
        .env("NO_COLOR", "1")
        .output()
        .expect("run hookrun check");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn corpus_snapshots() {
    let mut count = 0;
    insta::glob!("../corpus", "*.{toml,json}", |path| {
        count += 1;
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let (code, stdout, stderr) = check(&[name]);
        // The exit code follows the findings: 1 exactly when there is an error.
        assert_eq!(
            code == 1,
            stdout.contains("error["),
            "{name}: exit {code}\n{stdout}"
        );
        if name.starts_with("valid-") {
            assert_eq!(code, 0, "{name}: {stdout}");
            assert!(!stdout.contains("warning["), "{name}: {stdout}");
        } else {
            assert!(
                stdout.contains("error[") || stdout.contains("warning["),
                "{name} has no finding"
            );
        }
        insta::assert_snapshot!(format!(
            "exit: {code}\n--- stdout\n{stdout}--- stderr\n{stderr}"
        ));
    });
    assert!(count >= 25, "the corpus has {count} configs");
}

#[test]
fn strict_fails_on_warnings() {
    assert_eq!(check(&["toml-millis.toml"]).0, 0);
    assert_eq!(check(&["--strict", "toml-millis.toml"]).0, 1);
}

#[test]
fn json_format_lists_findings_with_codes_and_locations() {
    let (code, stdout, _) = check(&[
        "--format",
        "json",
        "toml-unknown-key.toml",
        "json-guard-invalid.json",
    ]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&stdout).expect("JSON output");
    assert_eq!(v["files"], 2);
    assert_eq!(v["errors"], 3);
    let first = &v["findings"][0];
    assert_eq!(first["code"], "E006");
    assert_eq!(first["line"], 11);
    assert_eq!(first["key"], "hooks.PreToolUse[0].hooks[1]");
    assert!(
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["code"] == "E002" && f["fix"] == "did you mean `timeout`?")
    );
}

#[test]
fn github_format_is_workflow_annotations() {
    let (_, stdout, _) = check(&[
        "--format",
        "github",
        "toml-unknown-key.toml",
        "toml-millis.toml",
    ]);
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines[0].starts_with("::warning file=toml-millis.toml,line=4,col=11,title=W004 timeout looks like milliseconds::"), "{stdout}");
    assert!(
        lines[1].starts_with(
            "::error file=toml-unknown-key.toml,line=4,col=1,title=E002 unknown key::"
        ),
        "{stdout}"
    );
}

#[test]
fn layered_files_find_cross_file_duplicates() {
    let (_, stdout, _) = check(&["valid-settings.json", "valid-settings.json"]);
    assert!(stdout.contains("W009"), "{stdout}");
}
