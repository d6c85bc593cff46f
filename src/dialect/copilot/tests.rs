//! Unit tests of the copilot dialect.

use super::*;
use crate::dialect::Dialect;
use crate::dialect::protocol::Protocol;
use crate::dialect::testing::{self as t, exited};

/// Copilot is recognised by its tool fields or its own event names; the
/// names it shares with Cursor are Cursor's without them.
#[test]
fn detect_rows() {
    let rows = [
        (
            "toolName",
            json!({"hook_event_name": "preToolUse", "toolName": "bash"}),
            Dialect::Copilot,
        ),
        (
            "toolArgs alone",
            json!({"hook_event_name": "postToolUse", "toolArgs": "{}"}),
            Dialect::Copilot,
        ),
        (
            "userPromptSubmitted",
            json!({"hook_event_name": "userPromptSubmitted", "prompt": "p"}),
            Dialect::Copilot,
        ),
        (
            "agentStop",
            json!({"hook_event_name": "agentStop"}),
            Dialect::Copilot,
        ),
        (
            "errorOccurred",
            json!({"hook_event_name": "errorOccurred"}),
            Dialect::Copilot,
        ),
        (
            "a tool field with a Claude Code name",
            json!({"hook_event_name": "PreToolUse", "toolName": "bash"}),
            Dialect::Copilot,
        ),
        (
            "preToolUse without Copilot's fields is Cursor's",
            json!({"hook_event_name": "preToolUse", "tool_name": "Shell"}),
            Dialect::Cursor,
        ),
        (
            "sessionStart without Copilot's fields is Cursor's",
            json!({"hook_event_name": "sessionStart"}),
            Dialect::Cursor,
        ),
        (
            "notification without Copilot's fields falls to Claude Code",
            json!({"hook_event_name": "notification"}),
            Dialect::Claude,
        ),
    ];
    let rows: Vec<_> = rows
        .into_iter()
        .map(|(rule, event, dialect)| (rule, event, dialect == Dialect::Copilot, dialect))
        .collect();
    t::check_detects(&Copilot, &rows);
}

/// Copilot's names and camelCase fields are mapped into the model; the
/// caller's own keys stay.
#[test]
fn normalize_rows() {
    let rows = [
        (
            "preToolUse: toolName and JSON-text toolArgs",
            json!({"hook_event_name": "preToolUse", "toolName": "bash", "toolArgs": "{\"command\":\"ls\"}"}),
            Some("PreToolUse"),
            json!({"hook_event_name": "PreToolUse", "toolName": "bash", "toolArgs": "{\"command\":\"ls\"}", "tool_name": "bash", "tool_input": {"command": "ls"}}),
        ),
        (
            "toolArgs that is not JSON: kept as `args`",
            json!({"hook_event_name": "preToolUse", "toolName": "bash", "toolArgs": "ls -la"}),
            Some("PreToolUse"),
            json!({"hook_event_name": "PreToolUse", "toolName": "bash", "toolArgs": "ls -la", "tool_name": "bash", "tool_input": {"args": "ls -la"}}),
        ),
        (
            "toolArgs already an object: taken as is",
            json!({"hook_event_name": "preToolUse", "toolName": "edit", "toolArgs": {"path": "a"}}),
            Some("PreToolUse"),
            json!({"hook_event_name": "PreToolUse", "toolName": "edit", "toolArgs": {"path": "a"}, "tool_name": "edit", "tool_input": {"path": "a"}}),
        ),
        (
            "postToolUse: toolResult is the tool response",
            json!({"hook_event_name": "postToolUse", "toolName": "bash", "toolResult": {"resultType": "success"}}),
            Some("PostToolUse"),
            json!({"hook_event_name": "PostToolUse", "toolName": "bash", "toolResult": {"resultType": "success"}, "tool_name": "bash", "tool_response": {"resultType": "success"}}),
        ),
        (
            "userPromptSubmitted is UserPromptSubmit",
            json!({"hook_event_name": "userPromptSubmitted", "prompt": "p"}),
            Some("UserPromptSubmit"),
            json!({"hook_event_name": "UserPromptSubmit", "prompt": "p"}),
        ),
        (
            "agentStop is Stop",
            json!({"hook_event_name": "agentStop"}),
            Some("Stop"),
            json!({"hook_event_name": "Stop"}),
        ),
        (
            "errorOccurred is StopFailure",
            json!({"hook_event_name": "errorOccurred"}),
            Some("StopFailure"),
            json!({"hook_event_name": "StopFailure"}),
        ),
        (
            "an unknown name is kept",
            json!({"hook_event_name": "somethingNew"}),
            Some("somethingNew"),
            json!({"hook_event_name": "somethingNew"}),
        ),
        (
            "no name: none, and none is added",
            json!({"toolName": "bash"}),
            None,
            json!({"toolName": "bash", "tool_name": "bash"}),
        ),
    ];
    for (rule, event, name, fields) in rows {
        assert_eq!(
            Copilot.normalize(t::object(&event)),
            (name.map(str::to_owned), t::object(&fields)),
            "{rule}"
        );
    }
}

/// Hooks are read as Claude Code reads them: Copilot's own answer keys
/// mean nothing there.
#[test]
fn classify_rows() {
    let rows = [
        (
            "exit 2: a block with the hook's stderr, without Claude Code's `[cmd]: ` label",
            exited(2, "", "no\n"),
            json!({"outcome": "blocking", "blocking_error": "no", "status": 2}),
        ),
        (
            "Claude Code's deny: a block",
            exited(
                0,
                r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}"#,
                "",
            ),
            json!({"outcome": "blocking", "blocking_error": "no", "json": {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "no"}}, "status": 0}),
        ),
        (
            "Copilot's own top-level permissionDecision: a deny, as Copilot reads it",
            exited(
                0,
                r#"{"permissionDecision":"deny","permissionDecisionReason":"no"}"#,
                "",
            ),
            json!({"outcome": "blocking", "blocking_error": "no", "json": {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "no"}}, "status": 0}),
        ),
        (
            "Copilot's modifiedArgs and additionalContext: a rewrite and a context",
            exited(
                0,
                r#"{"modifiedArgs":{"command":"ls"},"additionalContext":"ctx"}"#,
                "",
            ),
            json!({"outcome": "success", "json": {"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": {"command": "ls"}, "additionalContext": "ctx"}}, "status": 0}),
        ),
        (
            "exit 1: a non-blocking error",
            exited(1, "", ""),
            json!({"outcome": "non_blocking_error", "notice": "Failed with non-blocking status code: No stderr output", "failure": {"kind": "exit_code", "code": 1}, "status": 1}),
        ),
    ];
    for (rule, run, expected) in rows {
        assert_eq!(
            t::classify(&Copilot, "PreToolUse", &run),
            expected,
            "{rule}"
        );
    }
}

/// `permissionDecision` on tool and permission events, a block
/// elsewhere; exit 2 whenever the decision blocks.
#[test]
fn render_rows() {
    use Permission::{Allow, Ask, Defer, Deny};
    let ev = |name: &str| {
        t::event(
            Dialect::Copilot,
            &json!({"hook_event_name": name, "toolName": "bash", "toolArgs": "{\"command\":\"ls\"}"}),
        )
    };
    let rows = [
        (
            "preToolUse deny: decision and reason, the reason on stderr, exit 2",
            ev("preToolUse"),
            t::permission(Deny, "no"),
            json!({"permissionDecision": "deny", "permissionDecisionReason": "no"}),
            vec!["no"],
            2,
        ),
        (
            "preToolUse deny without a reason: an empty line on stderr",
            ev("preToolUse"),
            t::permission(Deny, ""),
            json!({"permissionDecision": "deny"}),
            vec![""],
            2,
        ),
        (
            "preToolUse ask: with its reason, exit 0",
            ev("preToolUse"),
            t::permission(Ask, "sure?"),
            json!({"permissionDecision": "ask", "permissionDecisionReason": "sure?"}),
            vec![],
            0,
        ),
        (
            "preToolUse defer: Copilot has none, so ask",
            ev("preToolUse"),
            t::permission(Defer, ""),
            json!({"permissionDecision": "ask"}),
            vec![],
            0,
        ),
        (
            "preToolUse allow with a rewrite: modifiedArgs",
            ev("preToolUse"),
            t::rewrite(Some(Allow), &json!({"command": "ls -a"})),
            json!({"permissionDecision": "allow", "modifiedArgs": {"command": "ls -a"}}),
            vec![],
            0,
        ),
        (
            "permissionRequest deny: permissionDecision too",
            ev("permissionRequest"),
            Decision {
                request: json!({"behavior": "deny"}).as_object().cloned(),
                ..t::permission(Deny, "no")
            },
            json!({"permissionDecision": "deny", "permissionDecisionReason": "no"}),
            vec!["no"],
            2,
        ),
        (
            "agentStop block: decision and reason, exit 2",
            ev("agentStop"),
            t::block("run the tests"),
            json!({"decision": "block", "reason": "run the tests"}),
            vec!["run the tests"],
            2,
        ),
        (
            "context on any event: additionalContext",
            ev("sessionStart"),
            t::context("ctx"),
            json!({"additionalContext": "ctx"}),
            vec![],
            0,
        ),
        (
            "continue: false is not rendered",
            ev("agentStop"),
            t::stop("halt"),
            json!({}),
            vec![],
            0,
        ),
        (
            "system messages go to stderr only",
            ev("agentStop"),
            Decision {
                system_messages: vec!["from a hook".into()],
                ..Decision::default()
            },
            json!({}),
            vec!["hookrun: from a hook"],
            0,
        ),
    ];
    t::check_renders(&Copilot, rows);
}

/// The caller's notices come before the hooks' system messages.
#[test]
fn notices_then_system_messages_on_stderr() {
    let event = t::event(Dialect::Copilot, &json!({"hook_event_name": "agentStop"}));
    let d = Decision {
        system_messages: vec!["from a hook".into()],
        ..t::block("r")
    };
    assert_eq!(
        t::render(&Copilot, &event, &d, &["config notice"]),
        (
            json!({"decision": "block", "reason": "r"}),
            vec![
                "r".to_owned(),
                "hookrun: config notice".to_owned(),
                "hookrun: from a hook".to_owned()
            ],
            2
        )
    );
}
