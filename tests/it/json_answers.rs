//! The JSON edge cases of Claude Code's reading of a hook's stdout, end to end.

use serde_json::json;

use crate::support::{HookTest, cmd, settings};

fn pre(hooks: serde_json::Value) -> HookTest {
    HookTest::new()
        .json(settings("PreToolUse", "Bash", hooks))
        .pre_tool_use("ls")
}

#[test]
fn json_deny_is_honoured_on_exit_1() {
    let out = pre(json!([cmd("cat d.json; exit 1")]))
        .file("d.json", r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"R1"}}"#)
        .run();
    assert_eq!(out.code, 2, "{out:?}");
    assert_eq!(out.hso()["permissionDecisionReason"], "R1");
}

#[test]
fn invalid_and_non_object_outputs_never_decide() {
    let out = pre(json!([
        cmd("printf '{\"decision\":\"allow\"}'"),
        cmd("printf '[1,2]'"),
        cmd("printf 'banner\\n{\"decision\":\"block\"}'"),
        cmd("printf '{\"decision\":\"block\"}\\n{\"b\":2}\\n'"),
        cmd("printf '{not json}'"),
        cmd("printf '\"deny\"'"),
    ]))
    .run();
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.json().get("hookSpecificOutput").is_none());
    let msg = out.system_message();
    assert!(msg.contains("validation failed"), "{msg}");
    assert!(msg.contains("not valid JSON"), "{msg}");
}

#[test]
fn byte_order_mark_and_padding_are_trimmed() {
    let out = pre(json!([cmd(
        "printf '\\357\\273\\277  {\"decision\":\"block\",\"reason\":\"bom\"}  \\n'"
    )]))
    .run();
    assert_eq!(out.code, 2, "{out:?}");
    assert_eq!(out.hso()["permissionDecisionReason"], "bom");
}

#[test]
fn wrong_hook_event_name_is_an_error_not_a_decision() {
    let out = pre(json!([cmd("cat w.json")]))
        .file(
            "w.json",
            r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"ctx"}}"#,
        )
        .run();
    assert_eq!(out.code, 0);
    assert!(
        out.system_message().contains("incorrect event name"),
        "{out:?}"
    );
    assert!(out.json().get("hookSpecificOutput").is_none());
}

#[test]
fn continue_false_and_context_pass_through() {
    let out = pre(json!([cmd("cat c.json")]))
        .file(
            "c.json",
            r#"{"continue":false,"stopReason":"frozen","hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"ctx-1"}}"#,
        )
        .run();
    let v = out.json();
    assert_eq!(v["continue"], false);
    assert_eq!(v["stopReason"], "frozen");
    assert_eq!(v["hookSpecificOutput"]["additionalContext"], "ctx-1");
}

#[test]
fn pydantic_deep_answers_are_understood() {
    let out = pre(json!([cmd(
        "printf '{\"modified_args\":{\"command\":\"ls -la\"}}'"
    )]))
    .run();
    assert_eq!(out.hso()["updatedInput"], json!({"command": "ls -la"}));
    let post = HookTest::new()
        .json(settings("PostToolUse", "Bash", json!([cmd("printf '{\"modified_result\":\"redacted\"}'")])))
        .event(json!({"hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_input": {"command": "env"}, "tool_response": {"stdout": "SECRET=1"}}))
        .run();
    assert_eq!(post.hso()["updatedToolOutput"], "redacted", "{post:?}");
}

#[test]
fn plain_stdout_is_context_only_where_claude_code_reads_it() {
    // Plain text in, plain text out: Claude Code labels plain stdout
    // otherwise than `additionalContext`.
    let ups = HookTest::new()
        .json(json!({"hooks": {"UserPromptSubmit": [{"hooks": [cmd("echo branch main")]}]}}))
        .event(json!({"hook_event_name": "UserPromptSubmit", "prompt": "hi"}))
        .run();
    assert_eq!((ups.code, ups.stdout.as_str()), (0, "branch main"));
    let start = HookTest::new()
        .json(settings(
            "SessionStart",
            "",
            json!([cmd("echo one"), cmd("echo two")]),
        ))
        .event(json!({"hook_event_name": "SessionStart", "source": "startup"}))
        .run();
    assert_eq!((start.code, start.stdout.as_str()), (0, "one\ntwo"));
    // Once an answer needs JSON, the plain text travels as
    // `additionalContext` beside it.
    let mixed = HookTest::new()
        .json(json!({"hooks": {"UserPromptSubmit": [{"hooks": [
            cmd("echo branch main"),
            cmd("echo '{\"systemMessage\": \"noted\"}'"),
        ]}]}}))
        .event(json!({"hook_event_name": "UserPromptSubmit", "prompt": "hi"}))
        .run();
    assert_eq!(mixed.hso()["additionalContext"], "branch main");
    assert_eq!(mixed.json()["systemMessage"], "noted");
    // Codex gets the JSON object either way.
    let codex = HookTest::new()
        .json(json!({"hooks": {"UserPromptSubmit": [{"hooks": [cmd("echo branch main")]}]}}))
        .args(&["--dialect", "codex"])
        .event(json!({"hook_event_name": "UserPromptSubmit", "prompt": "hi"}))
        .run();
    assert_eq!(codex.hso()["additionalContext"], "branch main");
    let post = HookTest::new()
        .json(settings("PostToolUse", "*", json!([cmd("echo not context")])))
        .event(json!({"hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_input": {}, "tool_response": {}}))
        .run();
    assert_eq!(post.json(), json!({}));
}

#[test]
fn precompact_prints_the_hooks_text() {
    let out = HookTest::new()
        .json(settings("PreCompact", "manual", json!([cmd("echo keep the API notes"), cmd("echo and the todo list")])))
        .event(json!({"hook_event_name": "PreCompact", "trigger": "manual", "custom_instructions": null}))
        .run();
    assert_eq!(out.code, 0);
    assert_eq!(out.stdout, "keep the API notes\n\nand the todo list");
}

#[test]
fn notification_ignores_answers_but_passes_terminal_sequences() {
    let t = HookTest::new()
        .json(settings(
            "Notification",
            "permission_prompt",
            json!([cmd("touch n1; echo x >&2; exit 2"), cmd("printf '{\"decision\":\"block\",\"terminalSequence\":\"\\\\u0007\"}'")]),
        ))
        .event(json!({"hook_event_name": "Notification", "message": "m", "notification_type": "permission_prompt"}));
    let out = t.run();
    assert_eq!(out.code, 0, "{out:?}");
    assert!(t.path().join("n1").exists());
    assert_eq!(out.json(), json!({"terminalSequence": "\u{7}"}));
}
