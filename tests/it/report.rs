//! `--report`: every configured hook, matched or skipped and why.

use serde_json::{Value, json};

use crate::support::{HookTest, cmd};

#[test]
fn report_lists_matches_skips_dedup_and_runs() {
    let t = HookTest::new()
        .json(json!({"hooks": {"PreToolUse": [
            {"matcher": "Bash", "hooks": [cmd("exit 0"), {"type": "command", "command": "touch x", "if": "Bash(npm *)"}]},
            {"matcher": "Write", "hooks": [cmd("touch w")]},
            {"matcher": "*", "hooks": [cmd("exit 0")]},
        ]}}))
        .pre_tool_use("git status")
        .arg("--report")
        .arg("report.json");
    let out = t.run();
    assert_eq!(out.code, 0, "{out:?}");
    let report: Value = serde_json::from_str(&t.read("report.json")).expect("report is JSON");
    let hooks = report["hooks"].as_array().expect("hooks");
    assert_eq!(hooks.len(), 4);
    assert_eq!(hooks[0]["ran"], true);
    assert_eq!(hooks[0]["run"]["exit_code"], 0);
    assert_eq!(hooks[1]["skipped"]["reason"], "if_rule");
    assert_eq!(hooks[2]["matched"], false);
    assert_eq!(hooks[3]["skipped"]["reason"], "duplicate");
    assert_eq!(report["query"], "Bash");
    assert_eq!(report["exit_code"], 0);
}

#[test]
fn a_built_in_is_reported_as_run_in_process_without_an_exit_status() {
    let t = HookTest::new()
        .toml("[[hooks]]\nname = \"guard\"\nevent = \"PreToolUse\"\nbuiltin = \"dangerous-commands\"\n\n[[hooks]]\nname = \"script\"\nevent = \"PreToolUse\"\ncommand = \"exit 0\"\n")
        .pre_tool_use("rm -rf /")
        .arg("--report")
        .arg("report.json");
    let out = t.run();
    assert_eq!(out.code, 2, "{out:?}");
    let report: Value = serde_json::from_str(&t.read("report.json")).expect("report is JSON");
    let hooks = report["hooks"].as_array().expect("hooks");
    assert_eq!(hooks[0]["run"]["in_process"], true);
    assert_eq!(hooks[0]["run"]["exit_code"], Value::Null);
    assert_eq!(hooks[0]["answer"]["outcome"], "blocking");
    assert_eq!(hooks[1]["run"]["in_process"], false);
    assert_eq!(hooks[1]["run"]["exit_code"], 0);
}
