//! Unit tests of the pydantic dialect.

use super::*;
use crate::decision::Permission;
use crate::dialect::Dialect;
use crate::dialect::protocol::Protocol;
use crate::dialect::testing::{self as t, exited, finished};
use crate::exec::Captured;

#[test]
fn payload_is_python_json_dumps() {
    let p = payload(
        "PreToolUse",
        "execute",
        &json!({"command": "echo 'hi' ü"}),
        None,
        None,
    );
    assert_eq!(
        String::from_utf8(p).unwrap(),
        r#"{"event": "pre_tool_use", "tool_name": "execute", "tool_input": {"command": "echo 'hi' \u00fc"}, "tool_result": null, "tool_error": null}"#
    );
}

#[test]
fn python_str_of_values() {
    assert_eq!(py_str(&json!(true)), "True");
    assert_eq!(py_str(&json!(null)), "None");
    assert_eq!(py_str(&json!(1.5)), "1.5");
    assert_eq!(py_str(&json!([1, 2])), "[1, 2]");
    assert_eq!(
        py_str(&json!({"a": 1, "b": [true, null]})),
        "{'a': 1, 'b': [True, None]}"
    );
    assert_eq!(py_str(&json!("plain")), "plain");
}

/// Rule 1: the five-key payload (or some of its keys) with a string
/// `event`, and nothing else; tried first.
#[test]
fn detect_rows() {
    // (rule, event, pydantic-deep's own test, the registry's pick)
    let rows = [
        (
            "the five keys",
            json!({"event": "pre_tool_use", "tool_name": "execute", "tool_input": {}, "tool_result": null, "tool_error": null}),
            true,
            Dialect::PydanticDeep,
        ),
        (
            "some of the five keys",
            json!({"event": "before_run"}),
            true,
            Dialect::PydanticDeep,
        ),
        (
            "a Claude Code name in `event`",
            json!({"event": "PreToolUse", "tool_name": "Bash"}),
            true,
            Dialect::PydanticDeep,
        ),
        (
            "one more key",
            json!({"event": "pre_tool_use", "session_id": "s"}),
            false,
            Dialect::Claude,
        ),
        (
            "with hook_event_name",
            json!({"event": "pre_tool_use", "hook_event_name": "PreToolUse"}),
            false,
            Dialect::Claude,
        ),
        (
            "a non-string event",
            json!({"event": 1, "tool_name": "execute"}),
            false,
            Dialect::Claude,
        ),
        (
            "no event",
            json!({"tool_name": "execute", "tool_input": {}}),
            false,
            Dialect::Claude,
        ),
    ];
    t::check_detects(&PydanticDeep, &rows);
}

/// Rules 2 and 4: tool events map to hookrun's names, fields to Claude
/// Code's (nulls dropped), tool names kept; only the mapped keys remain.
#[test]
fn normalize_rows() {
    let rows = [
        (
            "pre_tool_use: PreToolUse, its nulls dropped",
            json!({"event": "pre_tool_use", "tool_name": "execute", "tool_input": {"command": "ls"}, "tool_result": null, "tool_error": null}),
            "PreToolUse",
            json!({"hook_event_name": "PreToolUse", "tool_name": "execute", "tool_input": {"command": "ls"}}),
        ),
        (
            "post_tool_use: tool_result is the tool response",
            json!({"event": "post_tool_use", "tool_name": "execute", "tool_input": {}, "tool_result": "out", "tool_error": null}),
            "PostToolUse",
            json!({"hook_event_name": "PostToolUse", "tool_name": "execute", "tool_input": {}, "tool_response": "out"}),
        ),
        (
            "post_tool_use_failure: tool_error is the error",
            json!({"event": "post_tool_use_failure", "tool_name": "execute", "tool_input": {}, "tool_result": null, "tool_error": "boom"}),
            "PostToolUseFailure",
            json!({"hook_event_name": "PostToolUseFailure", "tool_name": "execute", "tool_input": {}, "error": "boom"}),
        ),
        (
            "a lifecycle event keeps its name",
            json!({"event": "before_run", "tool_name": null, "tool_input": null, "tool_result": null, "tool_error": null}),
            "before_run",
            json!({"hook_event_name": "before_run"}),
        ),
    ];
    for (rule, event, name, fields) in rows {
        assert_eq!(
            PydanticDeep.normalize(t::object(&event)),
            (Some(name.to_owned()), t::object(&fields)),
            "{rule}"
        );
    }
}

/// Rule 6: what a hook gets on stdin is `json.dumps` of the event's
/// current state, a non-string result as Python's `str()`.
#[test]
fn payload_rows() {
    let rows = [
        (
            "pre_tool_use: non-ASCII escaped, absent keys null",
            json!({"event": "pre_tool_use", "tool_name": "execute", "tool_input": {"command": "é"}, "tool_result": null, "tool_error": null}),
            r#"{"event": "pre_tool_use", "tool_name": "execute", "tool_input": {"command": "\u00e9"}, "tool_result": null, "tool_error": null}"#,
        ),
        (
            "post_tool_use: a structured result as Python's str()",
            json!({"event": "post_tool_use", "tool_name": "execute", "tool_input": {}, "tool_result": {"ok": true, "n": null}, "tool_error": null}),
            r#"{"event": "post_tool_use", "tool_name": "execute", "tool_input": {}, "tool_result": "{'ok': True, 'n': None}", "tool_error": null}"#,
        ),
        (
            "post_tool_use_failure: the error",
            json!({"event": "post_tool_use_failure", "tool_name": "execute", "tool_input": {}, "tool_result": null, "tool_error": "boom"}),
            r#"{"event": "post_tool_use_failure", "tool_name": "execute", "tool_input": {}, "tool_result": null, "tool_error": "boom"}"#,
        ),
        (
            "a lifecycle event: an empty tool name and input",
            json!({"event": "before_run"}),
            r#"{"event": "before_run", "tool_name": "", "tool_input": {}, "tool_result": null, "tool_error": null}"#,
        ),
    ];
    for (rule, event, bytes) in rows {
        let event = t::event(Dialect::PydanticDeep, &event);
        assert_eq!(
            PydanticDeep.payload(&event).map(String::from_utf8),
            Some(Ok(bytes.to_owned())),
            "{rule}"
        );
    }
}

/// Rule 7: pydantic-deep's own default timeout; the other dialects keep
/// Claude Code's.
#[test]
fn default_timeout_is_pydantic_deeps() {
    for event in ["PreToolUse", "PostToolUse", "before_run"] {
        assert_eq!(
            PydanticDeep.default_timeout(event),
            Some(std::time::Duration::from_secs(30)),
            "{event}"
        );
    }
    for dialect in [
        Dialect::Claude,
        Dialect::Codex,
        Dialect::Gemini,
        Dialect::Cursor,
        Dialect::Copilot,
    ] {
        assert_eq!(
            crate::dialect::protocol(dialect).default_timeout("PreToolUse"),
            None,
            "{}",
            dialect.as_str()
        );
    }
}

/// A run whose output went past the cap.
fn flooded() -> HookRun {
    let mut run = exited(0, "", "");
    run.stdout = Captured {
        bytes: b"x".to_vec(),
        dropped: 1,
    };
    run
}

/// Rules 5, 7, 9 and 10: how a hook is read, with the agent's failure
/// rules (no explicit `fail_mode`) and with an explicit one.
#[test]
fn classify_rows() {
    let deny = |reason: &str, status: Value| json!({"outcome": "blocking", "blocking_error": reason, "json": {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": reason}}, "status": status});
    let allow = |status: i32| json!({"outcome": "success", "status": status});
    let rewrite = |json: Value| json!({"outcome": "success", "json": json, "status": 0});
    let flood = "local workspace output exceeded 10 MiB safety limit; redirect the command's output to a file and read part of it instead";
    let explicit = Reading {
        timeout_secs: 0.5,
        fail_mode_explicit: true,
    };
    let rows = [
        (
            "exit 2: a deny, stdout then stderr, stripped",
            "PreToolUse",
            t::READING,
            exited(2, " no\n", "really \n"),
            deny("no\nreally", json!(2)),
        ),
        (
            "exit 2: Python's whitespace is stripped too",
            "PreToolUse",
            t::READING,
            exited(2, "\u{1c}no\u{1f}", ""),
            deny("no", json!(2)),
        ),
        (
            "exit 2 without output: `Denied by hook`",
            "PreToolUse",
            t::READING,
            exited(2, "", ""),
            deny("Denied by hook", json!(2)),
        ),
        (
            "exit 1: allows",
            "PreToolUse",
            t::READING,
            exited(1, "", "oops"),
            allow(1),
        ),
        (
            "exit 127: allows",
            "PreToolUse",
            t::READING,
            exited(127, "", "not found"),
            allow(127),
        ),
        (
            "killed by a signal: allows, as 128+N",
            "PreToolUse",
            t::READING,
            finished(RunStatus::Signaled(9), "", ""),
            allow(137),
        ),
        (
            "could not start: allows, as 127",
            "PreToolUse",
            t::READING,
            finished(RunStatus::SpawnFailed("gone".into()), "", ""),
            allow(127),
        ),
        (
            "a Claude Code deny with exit 0: allows",
            "PreToolUse",
            t::READING,
            exited(
                0,
                r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}"#,
                "",
            ),
            allow(0),
        ),
        (
            "modified_args: the new args",
            "PreToolUse",
            t::READING,
            exited(0, r#"{"modified_args":{"command":"ls -a"}}"#, ""),
            rewrite(json!({"modified_args": {"command": "ls -a"}})),
        ),
        (
            "modified_args with exit 1: still applied",
            "PreToolUse",
            t::READING,
            exited(1, r#"{"modified_args":{"command":"ls -a"}}"#, ""),
            json!({"outcome": "success", "json": {"modified_args": {"command": "ls -a"}}, "status": 1}),
        ),
        (
            "modified_args: null: nothing",
            "PreToolUse",
            t::READING,
            exited(0, r#"{"modified_args":null}"#, ""),
            allow(0),
        ),
        (
            "modified_args not an object: a deny naming it",
            "PreToolUse",
            t::READING,
            exited(0, r#"{"modified_args":"ls"}"#, ""),
            deny(
                "a hook's `modified_args` is a string, not an object",
                json!(0),
            ),
        ),
        (
            "modified_result on a pre-tool event: nothing",
            "PreToolUse",
            t::READING,
            exited(0, r#"{"modified_result":"x"}"#, ""),
            allow(0),
        ),
        (
            "timed out before the tool: a deny (fail closed)",
            "PreToolUse",
            t::READING,
            finished(RunStatus::TimedOut, "", ""),
            deny(
                "A hook could not decide: command timed out after 10s and was killed",
                Value::Null,
            ),
        ),
        (
            "output flood before the tool: a deny",
            "PreToolUse",
            t::READING,
            flooded(),
            deny(&format!("A hook could not decide: {flood}"), Value::Null),
        ),
        (
            "timed out after the tool: ignored",
            "PostToolUse",
            t::READING,
            finished(RunStatus::TimedOut, "", ""),
            json!({"outcome": "success", "status": null}),
        ),
        (
            "exit 2 after the tool: never a deny",
            "PostToolUse",
            t::READING,
            exited(2, "no", ""),
            allow(2),
        ),
        (
            "modified_result after the tool: the new result",
            "PostToolUse",
            t::READING,
            exited(0, r#"{"modified_result":{"a":1}}"#, ""),
            rewrite(json!({"modified_result": {"a": 1}})),
        ),
        (
            "modified_result: null: nothing",
            "PostToolUse",
            t::READING,
            exited(0, r#"{"modified_result":null}"#, ""),
            allow(0),
        ),
        (
            "modified_args after the tool, even not an object: ignored",
            "PostToolUse",
            t::READING,
            exited(0, r#"{"modified_args":"ls"}"#, ""),
            allow(0),
        ),
        (
            "modified_result on a failure event: ignored",
            "PostToolUseFailure",
            t::READING,
            exited(0, r#"{"modified_result":"x"}"#, ""),
            allow(0),
        ),
        (
            "explicit fail_mode, timed out: cancelled after the hook's timeout",
            "PreToolUse",
            explicit,
            finished(RunStatus::TimedOut, "", ""),
            json!({"outcome": "cancelled", "failure": {"kind": "timed_out", "seconds": 0.5}, "status": null}),
        ),
        (
            "explicit fail_mode, flood: an error naming it",
            "PreToolUse",
            explicit,
            flooded(),
            json!({"outcome": "non_blocking_error", "failure": {"kind": "builtin", "message": flood}, "status": null}),
        ),
        (
            "explicit fail_mode, exit 1: allows, a failure",
            "PreToolUse",
            explicit,
            exited(1, "", ""),
            json!({"outcome": "success", "failure": {"kind": "exit_code", "code": 1}, "status": 1}),
        ),
        (
            "explicit fail_mode, a signal: allows, the signal named",
            "PreToolUse",
            explicit,
            finished(RunStatus::Signaled(15), "", ""),
            json!({"outcome": "success", "failure": {"kind": "signaled", "signal": "SIGTERM"}, "status": 143}),
        ),
        (
            "explicit fail_mode, could not start: allows, a failure",
            "PreToolUse",
            explicit,
            finished(RunStatus::SpawnFailed("gone".into()), "", ""),
            json!({"outcome": "success", "failure": {"kind": "spawn_failed", "message": "gone"}, "status": 127}),
        ),
        (
            "explicit fail_mode, exit 2: still a deny, no failure",
            "PreToolUse",
            explicit,
            exited(2, "no", ""),
            deny("no", json!(2)),
        ),
    ];
    for (rule, event, reading, run, expected) in rows {
        let a = PydanticDeep.classify(event, t::LABEL, &run, &reading);
        assert_eq!(t::view(&a), expected, "{rule}");
    }
}

/// The answer carries the hook's own output, not a translation.
#[test]
fn an_answer_carries_the_hooks_output() {
    let a = PydanticDeep.classify(
        "PreToolUse",
        t::LABEL,
        &exited(2, "out", "err"),
        &t::READING,
    );
    assert_eq!(t::carried(&a), ("out", "err"));
}

/// Rule 9: a deny is exit 2 with the reason alone on stdout; otherwise
/// exit 0 and the replaced args or result.
#[test]
fn render_rows() {
    let ev = |name: &str| {
        t::event(
            Dialect::PydanticDeep,
            &json!({"event": name, "tool_name": "execute", "tool_input": {"command": "ls"}, "tool_result": null, "tool_error": null}),
        )
    };
    let result = |v: Value| Decision {
        specific: json!({"updatedToolOutput": v})
            .as_object()
            .cloned()
            .unwrap_or_default(),
        ..Decision::default()
    };
    let rows = [
        (
            "deny: the reason alone on stdout, nothing on stderr, exit 2",
            ev("pre_tool_use"),
            t::permission(Permission::Deny, "no"),
            json!("no"),
            Vec::<&str>::new(),
            2,
        ),
        (
            "ask: pydantic-deep has none, so the call goes ahead and stderr says what was asked",
            ev("pre_tool_use"),
            t::permission(Permission::Ask, "check first"),
            json!({}),
            vec![
                "hookrun: pydantic-deep cannot ask the user about a pre_tool_use call (its hooks only deny or allow): the call goes ahead; the reason was \"check first\"",
            ],
            0,
        ),
        (
            "deny with several reasons: one per line",
            ev("pre_tool_use"),
            Decision {
                reasons: vec!["a".into(), "b".into()],
                ..t::permission(Permission::Deny, "")
            },
            json!("a\nb"),
            vec![],
            2,
        ),
        (
            "replaced args: modified_args",
            ev("pre_tool_use"),
            t::rewrite(Some(Permission::Allow), &json!({"command": "ls -a"})),
            json!({"modified_args": {"command": "ls -a"}}),
            vec![],
            0,
        ),
        (
            "nothing replaced: neither key",
            ev("pre_tool_use"),
            t::permission(Permission::Allow, "fine"),
            json!({}),
            vec![],
            0,
        ),
        (
            "a replaced result keeps its type: modified_result",
            ev("post_tool_use"),
            result(json!({"a": 1})),
            json!({"modified_result": {"a": 1}}),
            vec![],
            0,
        ),
        (
            "replaced args after the tool: not rendered",
            ev("post_tool_use"),
            t::rewrite(None, &json!({"command": "ls -a"})),
            json!({}),
            vec![],
            0,
        ),
        (
            "a replaced result before the tool: not rendered",
            ev("pre_tool_use"),
            result(json!("x")),
            json!({}),
            vec![],
            0,
        ),
        (
            "a block after the tool: not a deny",
            ev("post_tool_use"),
            t::block("no"),
            json!({}),
            vec![],
            0,
        ),
    ];
    t::check_renders(&PydanticDeep, rows);
}

/// Rule 9: notices and the hooks' messages go to stderr, except on a
/// deny, where stderr stays empty (pydantic-deep appends it to the
/// reason).
#[test]
fn notices_go_to_stderr_except_on_a_deny() {
    let ev = |name: &str| t::event(Dialect::PydanticDeep, &json!({"event": name}));
    let d = Decision {
        system_messages: vec!["from a hook".into()],
        ..Decision::default()
    };
    assert_eq!(
        t::render(&PydanticDeep, &ev("before_run"), &d, &["config notice"]),
        (
            json!({}),
            vec![
                "hookrun: config notice".to_owned(),
                "hookrun: from a hook".to_owned()
            ],
            0
        ),
        "allowed: on stderr"
    );
    let d = Decision {
        system_messages: vec!["from a hook".into()],
        ..t::permission(Permission::Deny, "no")
    };
    assert_eq!(
        t::render(&PydanticDeep, &ev("pre_tool_use"), &d, &["config notice"]),
        (json!("no"), Vec::<String>::new(), 2),
        "denied: nowhere"
    );
}
