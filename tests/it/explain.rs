//! `hookrun explain` on Claude Code's tricky matcher cases.

use std::path::Path;
use std::process::Command;

use crate::support::BIN;

fn explain(args: &[&str]) -> String {
    let out = Command::new(BIN)
        .arg("explain")
        .args(["--config", "matchers.json"])
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/explain"))
        .output()
        .expect("run hookrun explain");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn exact_names_regex_and_lookahead_on_notebook_edit() {
    insta::assert_snapshot!(explain(&[
        "--event",
        "PreToolUse",
        "--tool",
        "NotebookEdit",
        "--input",
        r#"{"notebook_path":"/p/n.ipynb"}"#
    ]));
}

#[test]
fn mcp_tool_names() {
    insta::assert_snapshot!(explain(&[
        "--event",
        "PreToolUse",
        "--tool",
        "mcp__memory__create_entities"
    ]));
}

#[test]
fn legacy_alias_comma_list_and_if_rule() {
    insta::assert_snapshot!(explain(&["--event", "PreToolUse", "--tool", "Agent"]));
    let bash = explain(&[
        "--event",
        "PreToolUse",
        "--tool",
        "Bash",
        "--input",
        r#"{"command":"git status"}"#,
    ]);
    assert!(
        bash.contains("#9 echo git-only")
            && !bash.contains("if` rule `Bash(git *)` does not admit"),
        "{bash}"
    );
    let npm = explain(&[
        "--event",
        "PreToolUse",
        "--tool",
        "Bash",
        "--input",
        r#"{"command":"npm test"}"#,
    ]);
    assert!(
        npm.contains("skipped: its `if` rule `Bash(git *)` does not admit this call"),
        "{npm}"
    );
}

#[test]
fn event_without_matcher_field() {
    insta::assert_snapshot!(explain(&[
        "--event",
        "UserPromptSubmit",
        "--set",
        "prompt=hello"
    ]));
}

#[test]
fn session_start_sources_and_narrow_name_set() {
    insta::assert_snapshot!(explain(&[
        "--event",
        "SessionStart",
        "--set",
        "source=clear"
    ]));
    insta::assert_snapshot!(explain(&[
        "--event",
        "StopFailure",
        "--set",
        "error=rate_limit"
    ]));
}

#[test]
fn run_shows_answers_merge_steps_and_result() {
    let out = explain(&[
        "--event",
        "UserPromptSubmit",
        "--set",
        "prompt=hi",
        "--run",
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["hooks"][0]["matched"], true);
    assert!(
        v["hooks"][0]["ran"]
            .as_str()
            .unwrap_or("")
            .starts_with("exit 0 after")
    );
    assert_eq!(v["merge_steps"][0]["summary"], "no decision, 1 context(s)");
    assert_eq!(v["result"]["exit_code"], 0);
    // The hook's plain stdout, passed on as plain text: what Claude Code
    // gets from `run`.
    assert_eq!(v["result"]["stdout"], "prompt-ctx");
}
