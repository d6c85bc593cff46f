//! Merging several hooks: precedence, determinism, rewrites, dedup.

use serde_json::{Value, json};

use crate::support::{HookTest, cmd, settings};

const ALLOW: &str =
    r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}"#;
const ASK: &str = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"sure?"}}"#;
const DEFER: &str =
    r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer"}}"#;

fn with_answers(hooks: Value) -> HookTest {
    HookTest::new()
        .json(settings("PreToolUse", "Bash", hooks))
        .file("allow.json", ALLOW)
        .file("ask.json", ASK)
        .file("defer.json", DEFER)
        .file("deny1.json", &deny("first"))
        .file("deny2.json", &deny("second"))
        .pre_tool_use("ls")
}

fn deny(reason: &str) -> String {
    json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": reason}}).to_string()
}

#[test]
fn deny_beats_allow_whatever_the_order() {
    for hooks in [
        json!([cmd("cat allow.json"), cmd("sleep 0.2; cat deny1.json")]),
        json!([cmd("cat deny1.json"), cmd("sleep 0.2; cat allow.json")]),
    ] {
        let out = with_answers(hooks).run();
        assert_eq!(out.code, 2, "{out:?}");
        assert_eq!(out.hso()["permissionDecision"], "deny");
    }
}

#[test]
fn precedence_is_deny_defer_ask_allow() {
    let out = with_answers(json!([
        cmd("cat allow.json"),
        cmd("cat ask.json"),
        cmd("cat defer.json")
    ]))
    .run();
    assert_eq!(out.code, 0);
    assert_eq!(out.hso()["permissionDecision"], "defer");
    let out = with_answers(json!([cmd("cat allow.json"), cmd("cat ask.json")])).run();
    assert_eq!(out.hso()["permissionDecision"], "ask");
    assert_eq!(out.hso()["permissionDecisionReason"], "sure?");
}

#[test]
fn reasons_follow_config_order_not_completion_order() {
    // The second hook finishes first; the reasons still read in config order.
    let hooks = json!([cmd("sleep 0.3; cat deny1.json"), cmd("cat deny2.json")]);
    for _ in 0..2 {
        let out = with_answers(hooks.clone()).run();
        assert_eq!(
            out.hso()["permissionDecisionReason"],
            "first\nsecond",
            "{out:?}"
        );
    }
}

#[test]
fn rewrites_merge_by_key_and_later_hooks_win_conflicts() {
    let a = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"ls -a","description":"d"}}}"#;
    let b = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"ls -b","description":"d","timeout":5}}}"#;
    let c = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"ls","description":"new"}}}"#;
    let out = HookTest::new()
        .json(settings(
            "PreToolUse",
            "Bash",
            json!([
                cmd("cat a.json"),
                cmd("sleep 0.2; cat b.json"),
                cmd("cat c.json")
            ]),
        ))
        .file("a.json", a)
        .file("b.json", b)
        .file("c.json", c)
        .pre_tool_use("ls")
        .run();
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(
        out.hso()["updatedInput"],
        json!({"command": "ls -b", "description": "new", "timeout": 5})
    );
    assert!(
        out.system_message()
            .contains("both rewrite `tool_input.command`"),
        "{out:?}"
    );
}

#[test]
fn rewrites_are_dropped_on_deny() {
    let a = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls -a"}}}"#;
    let out = with_answers(json!([cmd("cat a.json"), cmd("cat deny1.json")]))
        .file("a.json", a)
        .run();
    assert_eq!(out.code, 2);
    assert!(out.hso().get("updatedInput").is_none(), "{out:?}");
}

#[test]
fn contexts_and_system_messages_are_all_kept_in_config_order() {
    let c = |text: &str| {
        format!(
            r#"{{"systemMessage":"sm-{text}","hookSpecificOutput":{{"hookEventName":"PreToolUse","additionalContext":"ctx-{text}"}}}}"#
        )
    };
    let out = HookTest::new()
        .json(settings(
            "PreToolUse",
            "Bash",
            json!([cmd("sleep 0.2; cat 1.json"), cmd("cat 2.json")]),
        ))
        .file("1.json", &c("1"))
        .file("2.json", &c("2"))
        .pre_tool_use("ls")
        .run();
    assert_eq!(out.hso()["additionalContext"], "ctx-1\nctx-2");
    assert_eq!(out.system_message(), "sm-1\nsm-2");
}

#[test]
fn several_stop_blocks_keep_every_reason() {
    let out = HookTest::new()
        .json(json!({"hooks": {"Stop": [{"hooks": [cmd("echo tests fail >&2; exit 2"), cmd("cat b.json")]}]}}))
        .file("b.json", r#"{"decision":"block","reason":"lint fails"}"#)
        .event(json!({"hook_event_name": "Stop", "stop_hook_active": false}))
        .run();
    assert_eq!(out.code, 2);
    let reason = out.json()["reason"].as_str().unwrap_or("").to_owned();
    assert!(
        reason.contains("tests fail") && reason.contains("lint fails"),
        "{reason}"
    );
}

#[test]
fn identical_handlers_across_layers_run_once_with_the_last_settings() {
    let command = "printf x >> count; sleep 0.6; printf y >> count";
    let first = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": command, "timeout": 0.2}]}]}});
    let second = json!({"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": command}]}]}});
    let t = HookTest::new().json(first).json(second).pre_tool_use("ls");
    let out = t.run();
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(t.read("count"), "xy");
}

#[test]
fn disable_all_hooks_runs_nothing() {
    let t = HookTest::new()
        .json(json!({"disableAllHooks": true, "hooks": {"PreToolUse": [{"hooks": [cmd("touch a")]}]}}))
        .json(settings("PreToolUse", "Bash", json!([cmd("touch b; exit 2")])))
        .pre_tool_use("ls");
    let out = t.run();
    assert_eq!(out.code, 0);
    assert!(!t.path().join("a").exists() && !t.path().join("b").exists());
}

#[test]
fn toml_and_json_layers_combine() {
    let t = HookTest::new()
        .toml("[[hooks]]\nevent = \"PreToolUse\"\nmatcher = \"Bash\"\ncommand = \"touch from_toml\"\n")
        .json(settings("PreToolUse", "Bash", json!([cmd("touch from_json")])))
        .pre_tool_use("ls");
    assert_eq!(t.run().code, 0);
    assert!(t.path().join("from_toml").exists() && t.path().join("from_json").exists());
}
