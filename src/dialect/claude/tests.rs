//! Unit tests of the claude dialect.

use super::*;
use crate::dialect::Dialect;
use crate::dialect::protocol::Protocol;
use crate::dialect::testing::{self as t, exited, finished};
use crate::events::EVENTS;
use crate::exec::RunStatus;
use serde_json::json;

/// A decision with every field set, as no real event would have.
fn everything(blocked: bool) -> Decision {
    let mut d = Decision {
        permission: Some(if blocked {
            Permission::Deny
        } else {
            Permission::Allow
        }),
        blocked,
        reasons: vec!["r1".into(), "r2".into()],
        contexts: vec!["c1".into()],
        system_messages: vec!["s1".into()],
        prevent_continuation: true,
        stop_reasons: vec!["stop".into()],
        ..Decision::default()
    };
    d.updated_input = serde_json::json!({"command": "ls"}).as_object().cloned();
    for (k, v) in [
        ("updatedToolOutput", serde_json::json!({"x": 1})),
        ("watchPaths", serde_json::json!(["/a"])),
        ("sessionTitle", serde_json::json!("t")),
        ("worktreePath", serde_json::json!("/w")),
        ("retry", serde_json::json!(true)),
    ] {
        d.specific.insert(k.into(), v);
    }
    d
}

#[test]
fn output_is_schema_valid_for_every_event() {
    for info in EVENTS {
        for blocked in [false, true] {
            let mut d = everything(blocked);
            if info.family == Family::PermissionRequest {
                let mut r = Map::new();
                r.insert(
                    "behavior".into(),
                    if blocked { "deny" } else { "allow" }.into(),
                );
                d.request = Some(r);
            }
            let r = render(info.name, info.family, &d, &["notice".into()]);
            if info.name == "PreCompact" && !blocked {
                continue;
            }
            let v: Value = serde_json::from_str(&r.stdout).unwrap();
            let obj = v.as_object().unwrap();
            assert_eq!(
                crate::schema::validate(obj),
                Ok(()),
                "{}: {}",
                info.name,
                r.stdout
            );
            if let Some(h) = obj.get("hookSpecificOutput") {
                assert_eq!(h["hookEventName"], info.name);
            }
            assert_eq!(
                r.exit_code == 2,
                blocked && exits_2_on_block(info.name, info.family),
                "{}",
                info.name
            );
            if r.exit_code == 2 {
                assert!(!r.stderr.is_empty());
            }
        }
    }
}

#[test]
fn empty_decision_prints_an_empty_object() {
    let r = render("Stop", Family::Stop, &Decision::default(), &[]);
    assert_eq!((r.stdout.as_str(), r.exit_code), ("{}", 0));
}

/// The registry's fallback: whatever no other dialect claims is Claude
/// Code's, and its events are taken as they are.
#[test]
fn detect_and_normalize() {
    let rows = [
        (
            "Claude Code's own event",
            json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}}),
            Some("PreToolUse"),
        ),
        (
            "an unknown name is still Claude Code's",
            json!({"hook_event_name": "NoSuchEvent"}),
            Some("NoSuchEvent"),
        ),
        ("no event name at all", json!({"session_id": "s"}), None),
        (
            "a snake_case `event` next to `hook_event_name` is not pydantic-deep's",
            json!({"event": "pre_tool_use", "hook_event_name": "PreToolUse"}),
            Some("PreToolUse"),
        ),
        (
            "Gemini's names Claude Code shares stay Claude Code's",
            json!({"hook_event_name": "PreCompact"}),
            Some("PreCompact"),
        ),
    ];
    for (rule, event, name) in rows {
        let obj = t::object(&event);
        assert_eq!(crate::dialect::detect(&obj), Dialect::Claude, "{rule}");
        let (mapped, fields) = Claude.normalize(obj.clone());
        assert_eq!(
            (mapped.as_deref(), fields),
            (name, obj),
            "{rule}: the name is read and the fields are kept"
        );
    }
}

/// Claude Code's reading of one run: the rules every other
/// dialect's answers are translated into.
#[test]
fn classify_rows() {
    let deny = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}"#;
    let rows = [
        (
            "exit 0 with text: success, the text trimmed",
            "PreToolUse",
            exited(0, " hello\n", ""),
            json!({"outcome": "success", "plain_stdout": "hello", "status": 0}),
        ),
        (
            "exit 0 without output: success with empty text",
            "PreToolUse",
            exited(0, "", ""),
            json!({"outcome": "success", "plain_stdout": "", "status": 0}),
        ),
        (
            "exit 0, JSON deny: blocks with its reason",
            "PreToolUse",
            exited(0, deny, ""),
            json!({"outcome": "blocking", "blocking_error": "no", "json": serde_json::from_str::<Value>(deny).unwrap(), "status": 0}),
        ),
        (
            "exit 0, JSON deny without a reason: `Blocked by hook`",
            "PreToolUse",
            exited(
                0,
                r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}"#,
                "",
            ),
            json!({"outcome": "blocking", "blocking_error": "Blocked by hook", "json": {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}}, "status": 0}),
        ),
        (
            "exit 2: stderr, untrimmed, is the block text quoted with the command",
            "PreToolUse",
            exited(2, "ignored", "why\n"),
            json!({"outcome": "blocking", "blocking_error": "[cmd]: why\n", "status": 2}),
        ),
        (
            "exit 2 without stderr: still blocks",
            "PreToolUse",
            exited(2, "", ""),
            json!({"outcome": "blocking", "blocking_error": "[cmd]: No stderr output", "status": 2}),
        ),
        (
            "exit 2 with JSON: the JSON is kept, stderr is the block",
            "PreToolUse",
            exited(2, r#"{"systemMessage":"s"}"#, "e"),
            json!({"outcome": "blocking", "blocking_error": "[cmd]: e", "json": {"systemMessage": "s"}, "status": 2}),
        ),
        (
            "exit 1: a non-blocking error naming stderr",
            "PreToolUse",
            exited(1, "", " oops\n"),
            json!({"outcome": "non_blocking_error", "notice": "Failed with non-blocking status code: oops", "failure": {"kind": "exit_code", "code": 1}, "status": 1}),
        ),
        (
            "exit 3 without stderr: a non-blocking error",
            "PreToolUse",
            exited(3, "", ""),
            json!({"outcome": "non_blocking_error", "notice": "Failed with non-blocking status code: No stderr output", "failure": {"kind": "exit_code", "code": 3}, "status": 3}),
        ),
        (
            "exit 0, JSON failing the schema: invalid JSON, not a decision",
            "PreToolUse",
            exited(0, r#"{"continue":"no"}"#, ""),
            json!({"outcome": "non_blocking_error", "notice": "Hook JSON output validation failed — continue: expected boolean", "failure": {"kind": "invalid_json", "message": "Hook JSON output validation failed — continue: expected boolean"}, "status": 0}),
        ),
        (
            "exit 0, JSON for another event: rejected",
            "PreToolUse",
            exited(
                0,
                r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse"}}"#,
                "",
            ),
            json!({"outcome": "non_blocking_error", "notice": "Failed to run: Hook returned incorrect event name: expected 'PreToolUse' but got 'PostToolUse'", "failure": {"kind": "wrong_event_name", "message": "Hook returned incorrect event name: expected 'PreToolUse' but got 'PostToolUse'"}, "status": 0}),
        ),
        (
            "exit 0, the async marker: success and nothing else",
            "PreToolUse",
            exited(0, "{\"async\":true}\n", ""),
            json!({"outcome": "success", "status": 0}),
        ),
        (
            "Stop, JSON block: blocks with its reason",
            "Stop",
            exited(0, r#"{"decision":"block","reason":"keep going"}"#, ""),
            json!({"outcome": "blocking", "blocking_error": "keep going", "json": {"decision": "block", "reason": "keep going"}, "status": 0}),
        ),
        (
            "Stop, exit 2 from a missing script: not a block",
            "Stop",
            exited(2, "", "sh: /x.sh: No such file or directory"),
            json!({"outcome": "non_blocking_error", "notice": "Hook script appears to be missing — \"cmd\" exited 2 with: sh: /x.sh: No such file or directory. Treating as non-blocking.", "failure": {"kind": "missing_script"}, "status": 2}),
        ),
        (
            "PreToolUse, exit 2 from a missing script: still a block",
            "PreToolUse",
            exited(2, "", "sh: /x.sh: No such file or directory"),
            json!({"outcome": "blocking", "blocking_error": "[cmd]: sh: /x.sh: No such file or directory", "status": 2}),
        ),
        (
            "timed out: cancelled, its output discarded",
            "PreToolUse",
            finished(RunStatus::TimedOut, deny, ""),
            json!({"outcome": "cancelled", "failure": {"kind": "timed_out", "seconds": 0.005}, "status": null}),
        ),
        (
            "could not start: a non-blocking error, status 1",
            "PreToolUse",
            finished(RunStatus::SpawnFailed("no such file".into()), "", ""),
            json!({"outcome": "non_blocking_error", "notice": "Error occurred while executing hook command: no such file", "failure": {"kind": "spawn_failed", "message": "no such file"}, "status": 1}),
        ),
        (
            "killed by a signal: read as exit 1, the signal named",
            "PreToolUse",
            finished(RunStatus::Signaled(9), "", ""),
            json!({"outcome": "non_blocking_error", "notice": "Failed with non-blocking status code: No stderr output", "failure": {"kind": "signaled", "signal": "SIGKILL"}, "status": 1}),
        ),
    ];
    for (rule, event, run, expected) in rows {
        assert_eq!(t::classify(&Claude, event, &run), expected, "{rule}");
    }
}

/// One row per shape of Claude Code's answer: which field carries the
/// decision on each event, when hookrun exits 2, and what goes to stderr.
#[test]
fn render_rows() {
    use Permission::{Allow, Ask, Defer, Deny};
    let ev = |name: &str| {
        t::event(
            Dialect::Claude,
            &json!({"hook_event_name": name, "session_id": "s"}),
        )
    };
    let rows = [
        (
            "PreToolUse deny: the reason in the JSON and first on stderr, exit 2",
            ev("PreToolUse"),
            t::permission(Deny, "no"),
            json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "no"}}),
            vec!["no"],
            2,
        ),
        (
            "PreToolUse deny without a reason: `blocked by hook` on stderr",
            ev("PreToolUse"),
            t::permission(Deny, ""),
            json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}}),
            vec!["blocked by hook"],
            2,
        ),
        (
            "PreToolUse ask: the reason travels, exit 0",
            ev("PreToolUse"),
            t::permission(Ask, "sure?"),
            json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask", "permissionDecisionReason": "sure?"}}),
            vec![],
            0,
        ),
        (
            "PreToolUse allow with a rewritten input: `updatedInput`",
            ev("PreToolUse"),
            t::rewrite(Some(Allow), &json!({"command": "ls -a"})),
            json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": "ls -a"}}}),
            vec![],
            0,
        ),
        (
            "PreToolUse rewrite without a permission: `updatedInput` alone",
            ev("PreToolUse"),
            t::rewrite(None, &json!({"command": "ls -a"})),
            json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": {"command": "ls -a"}}}),
            vec![],
            0,
        ),
        (
            "UserPromptSubmit block: top-level decision and reason, exit 2",
            ev("UserPromptSubmit"),
            t::block("not now"),
            json!({"decision": "block", "reason": "not now"}),
            vec!["not now"],
            2,
        ),
        (
            "Stop block: keeps the agent working, exit 2",
            ev("Stop"),
            t::block("run the tests"),
            json!({"decision": "block", "reason": "run the tests"}),
            vec!["run the tests"],
            2,
        ),
        (
            "PostToolUse block: feedback, exit 2",
            ev("PostToolUse"),
            t::block("lint failed"),
            json!({"decision": "block", "reason": "lint failed"}),
            vec!["lint failed"],
            2,
        ),
        (
            "PreCompact block: exit 2",
            ev("PreCompact"),
            t::block("[cmd]: busy"),
            json!({"decision": "block", "reason": "[cmd]: busy"}),
            vec!["[cmd]: busy"],
            2,
        ),
        (
            "Elicitation block: in the JSON only, exit 0 (exit 2 means something else there)",
            ev("Elicitation"),
            t::block("declined by hook"),
            json!({"decision": "block", "reason": "declined by hook"}),
            vec![],
            0,
        ),
        (
            "PreCompact without a block: the hooks' text, not JSON",
            ev("PreCompact"),
            Decision {
                compaction_text: vec!["keep a".into(), "keep b".into()],
                ..Decision::default()
            },
            json!("keep a\n\nkeep b"),
            vec![],
            0,
        ),
        (
            "PermissionRequest deny: the request carries the reason as `message`",
            ev("PermissionRequest"),
            Decision {
                request: json!({"behavior": "deny"}).as_object().cloned(),
                ..t::permission(Deny, "no")
            },
            json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "deny", "message": "no"}}}),
            vec!["no"],
            2,
        ),
        (
            "PreModelSwitch: `defer` is not rendered",
            ev("PreModelSwitch"),
            t::permission(Defer, "later"),
            json!({}),
            vec![],
            0,
        ),
        (
            "SessionStart context: `additionalContext`",
            ev("SessionStart"),
            t::context("ctx"),
            json!({"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "ctx"}}),
            vec![],
            0,
        ),
        (
            "SessionEnd context: the event has no variant, so nothing",
            ev("SessionEnd"),
            t::context("ctx"),
            json!({}),
            vec![],
            0,
        ),
        (
            "a field of the wrong type for the event's variant is dropped, the rest kept",
            ev("UserPromptSubmit"),
            Decision {
                specific: json!({"sessionTitle": 5}).as_object().cloned().unwrap(),
                ..t::context("ctx")
            },
            json!({"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "ctx"}}),
            vec![],
            0,
        ),
        (
            "a field the event's variant does not name is kept (the check is by type)",
            ev("PreToolUse"),
            Decision {
                specific: json!({"watchPaths": ["/a"]}).as_object().cloned().unwrap(),
                ..t::context("ctx")
            },
            json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "ctx", "watchPaths": ["/a"]}}),
            vec![],
            0,
        ),
        (
            "continue: false with the stop reason",
            ev("Stop"),
            t::stop("done"),
            json!({"continue": false, "stopReason": "done"}),
            vec![],
            0,
        ),
        (
            "terminal sequences pass through",
            ev("Stop"),
            Decision {
                terminal_sequence: "\u{1b}]0;t\u{7}".into(),
                ..Decision::default()
            },
            json!({"terminalSequence": "\u{1b}]0;t\u{7}"}),
            vec![],
            0,
        ),
    ];
    t::check_renders(&Claude, rows);
}

/// Notices come first in `systemMessage`, then the hooks' messages;
/// stderr has both, then the diagnostics, which stay off stdout.
#[test]
fn notices_system_messages_and_diagnostics() {
    let event = t::event(Dialect::Claude, &json!({"hook_event_name": "Stop"}));
    let d = Decision {
        system_messages: vec!["from a hook".into()],
        diagnostics: vec!["two hooks set x".into()],
        ..Decision::default()
    };
    assert_eq!(
        t::render(&Claude, &event, &d, &["config notice"]),
        (
            json!({"systemMessage": "config notice\nfrom a hook"}),
            vec![
                "hookrun: config notice".to_owned(),
                "hookrun: from a hook".to_owned(),
                "hookrun: two hooks set x".to_owned(),
            ],
            0
        )
    );
}
