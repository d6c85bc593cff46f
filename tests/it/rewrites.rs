//! The input that will run is judged by every built-in guard whose matcher
//! and `if` admit it, whichever event or dialect carries the rewrite: real
//! hook processes print the rewriting answer.

use serde_json::{Value, json};

use crate::support::{HookTest, Out};

/// A hook that prints `answer` (no single quote in it).
fn printer(answer: &Value) -> String {
    format!("[[hooks]]\nevent = \"{{event}}\"\ncommand = '''printf '%s' '{answer}' '''\n")
}

/// A `dangerous-commands` guard on `event`, with this extra line (an `if`).
fn guard(event: &str, extra: &str) -> String {
    format!(
        "[[hooks]]\nevent = \"{event}\"\nname = \"guard\"\nbuiltin = \"dangerous-commands\"\n{extra}\n"
    )
}

/// Asserts that a deny's reason says it judged the rewritten input.
pub(crate) fn assert_judged_rewrite(reason: &Value, out: &Out) {
    assert!(
        reason
            .as_str()
            .unwrap_or("")
            .contains("(on the rewritten input)"),
        "{out:?}"
    );
}

fn permission_allow(command: &str) -> Value {
    json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest",
        "decision": {"behavior": "allow", "updatedInput": {"command": command}}}})
}

fn permission_request(config: &str, command: &str) -> Out {
    HookTest::new()
        .toml(config)
        .event(
            json!({"hook_event_name": "PermissionRequest", "tool_name": "Bash",
            "tool_input": {"command": command}, "permission_suggestions": []}),
        )
        .run()
}

fn pre_tool_allow(command: &str) -> Value {
    json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "permissionDecision": "allow", "updatedInput": {"command": command}}})
}

#[test]
fn a_permission_request_rewrite_is_judged() {
    for extra in ["", "if = \"Bash(rm *)\""] {
        let config = format!(
            "{}{}",
            guard("PermissionRequest", extra),
            printer(&permission_allow("rm -rf /")).replace("{event}", "PermissionRequest")
        );
        let out = permission_request(&config, "ls");
        let decision = &out.hso()["decision"];
        assert_eq!(decision["behavior"], "deny", "{extra}: {out:?}");
        assert!(decision.get("updatedInput").is_none(), "{out:?}");
        assert_judged_rewrite(&decision["message"], &out);
        // A harmless rewrite is allowed, as rewritten.
        let harmless = permission_request(&config.replace("rm -rf /", "ls -la"), "ls");
        assert_eq!(harmless.code, 0, "{harmless:?}");
        assert_eq!(
            harmless.hso()["decision"],
            json!({"behavior": "allow", "updatedInput": {"command": "ls -la"}}),
            "{harmless:?}"
        );
    }
}

#[test]
fn a_guard_whose_if_admits_only_the_rewrite_judges_it() {
    let config = format!(
        "{}{}",
        guard("PreToolUse", "if = \"Bash(rm *)\""),
        printer(&pre_tool_allow("rm -rf /")).replace("{event}", "PreToolUse")
    );
    let out = HookTest::new().toml(&config).pre_tool_use("ls").run();
    assert_eq!(out.code, 2, "{out:?}");
    assert_eq!(out.hso()["permissionDecision"], "deny", "{out:?}");
    assert!(out.hso().get("updatedInput").is_none(), "{out:?}");
    assert_judged_rewrite(&out.hso()["permissionDecisionReason"], &out);
    // A guard whose `if` admits neither call is not asked.
    let other = config.replace("Bash(rm *)", "Bash(git *)");
    let out = HookTest::new().toml(&other).pre_tool_use("ls").run();
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(out.hso()["updatedInput"]["command"], "rm -rf /", "{out:?}");
    // A guard that admits the rewrite and finds it harmless allows it.
    let harmless = config.replace("rm -rf /", "rm -f build.log");
    let out = HookTest::new().toml(&harmless).pre_tool_use("ls").run();
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(
        out.hso()["updatedInput"]["command"],
        "rm -f build.log",
        "{out:?}"
    );
}

#[test]
fn a_gemini_tool_input_rewrite_is_judged() {
    let before_tool = |command: &str| {
        json!({"hook_event_name": "BeforeTool", "session_id": "s", "cwd": "/tmp",
            "tool_name": "run_shell_command", "tool_input": {"command": command}})
    };
    let rewrite = |command: &str| {
        format!(
            "{}{}",
            guard("PreToolUse", ""),
            printer(&json!({"hookSpecificOutput": {"tool_input": {"command": command}}}))
                .replace("{event}", "PreToolUse")
        )
    };
    let out = HookTest::new()
        .toml(&rewrite("rm -rf /"))
        .stdin(before_tool("ls").to_string().as_bytes())
        .run();
    assert_eq!(out.json()["decision"], "deny", "{out:?}");
    assert_judged_rewrite(&out.json()["reason"], &out);
    assert!(out.json().get("hookSpecificOutput").is_none(), "{out:?}");
    let harmless = HookTest::new()
        .toml(&rewrite("ls -la"))
        .stdin(before_tool("ls").to_string().as_bytes())
        .run();
    assert_eq!(harmless.json().get("decision"), None, "{harmless:?}");
    assert_eq!(
        harmless.json()["hookSpecificOutput"]["tool_input"]["command"],
        "ls -la",
        "{harmless:?}"
    );
}

#[test]
fn log_tools_logs_a_rewritten_call_once() {
    let t = HookTest::new();
    let log = t.path().join("tools.log");
    let config = format!(
        "[[hooks]]\nevent = \"PreToolUse\"\nbuiltin = \"log-tools\"\noptions = {{ file = \"{}\" }}\n{}",
        log.display(),
        printer(&pre_tool_allow("ls -la")).replace("{event}", "PreToolUse")
    );
    let t = t.toml(&config).pre_tool_use("ls");
    let out = t.run();
    assert_eq!(out.code, 0, "{out:?}");
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    assert_eq!(text.lines().count(), 1, "{text}");
}
