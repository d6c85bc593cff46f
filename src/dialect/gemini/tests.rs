//! Unit tests of the gemini dialect.

use super::*;
use crate::dialect::Dialect;
use crate::dialect::protocol::Protocol;
use crate::dialect::testing::{self as t, exited, finished};
use crate::exec::RunStatus;

/// Gemini is recognised by the names Claude Code does not share, and its
/// names map to hookrun's.
#[test]
fn detect_and_normalize_rows() {
    // (rule, event name, the registry's pick, hookrun's name)
    let rows = [
        ("BeforeTool", "BeforeTool", Dialect::Gemini, "PreToolUse"),
        ("AfterTool", "AfterTool", Dialect::Gemini, "PostToolUse"),
        (
            "BeforeAgent",
            "BeforeAgent",
            Dialect::Gemini,
            "UserPromptSubmit",
        ),
        ("AfterAgent", "AfterAgent", Dialect::Gemini, "Stop"),
        ("PreCompress", "PreCompress", Dialect::Gemini, "PreCompact"),
        (
            "BeforeModel keeps its name",
            "BeforeModel",
            Dialect::Gemini,
            "BeforeModel",
        ),
        (
            "AfterModel keeps its name",
            "AfterModel",
            Dialect::Gemini,
            "AfterModel",
        ),
        (
            "BeforeToolSelection keeps its name",
            "BeforeToolSelection",
            Dialect::Gemini,
            "BeforeToolSelection",
        ),
        (
            "SessionStart, shared with Claude Code: Claude Code's",
            "SessionStart",
            Dialect::Claude,
            "SessionStart",
        ),
        (
            "Notification, shared with Claude Code: Claude Code's",
            "Notification",
            Dialect::Claude,
            "Notification",
        ),
    ];
    for (rule, given, dialect, name) in rows {
        let event =
            json!({"hook_event_name": given, "session_id": "s", "tool_name": "run_shell_command"});
        let obj = t::object(&event);
        assert_eq!(
            Gemini.detects(&obj),
            dialect == Dialect::Gemini,
            "{rule}: Gemini's own test"
        );
        assert_eq!(
            crate::dialect::detect(&obj),
            dialect,
            "{rule}: the registry"
        );
        let mut fields = obj.clone();
        fields.insert("hook_event_name".into(), name.into());
        assert_eq!(
            Gemini.normalize(obj),
            (Some(name.to_owned()), fields),
            "{rule}: only the name changes"
        );
    }
    let (name, fields) = Gemini.normalize(t::object(&json!({"session_id": "s"})));
    assert_eq!(
        (name, fields),
        (
            Some(String::new()),
            t::object(&json!({"session_id": "s", "hook_event_name": ""}))
        ),
        "no name: an empty one"
    );
}

/// Gemini's hooks know the project directory by its own name.
#[test]
fn hooks_get_gemini_project_dir() {
    assert_eq!(
        Gemini.hook_env("/p"),
        vec![
            ("CLAUDE_PROJECT_DIR".to_owned(), "/p".to_owned()),
            ("GEMINI_PROJECT_DIR".to_owned(), "/p".to_owned())
        ]
    );
}

/// Gemini's observed reading of a hook, as the Claude
/// Code answer it becomes.
#[test]
fn classify_rows() {
    let deny = |reason: &str| json!({"outcome": "blocking", "blocking_error": reason, "json": {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": reason}}, "status": 0});
    let success = |json: Value| json!({"outcome": "success", "json": json, "status": 0});
    let rows = [
        (
            "JSON deny: a deny with its reason",
            "PreToolUse",
            exited(0, r#"{"decision":"deny","reason":"no shell"}"#, ""),
            deny("no shell"),
        ),
        (
            "JSON block without a reason: `Blocked by hook`",
            "PreToolUse",
            exited(0, r#"{"decision":"block"}"#, ""),
            deny("Blocked by hook"),
        ),
        (
            "JSON deny on AfterAgent: a block",
            "Stop",
            exited(0, r#"{"decision":"deny","reason":"again"}"#, ""),
            json!({"outcome": "blocking", "blocking_error": "again", "json": {"decision": "block", "reason": "again"}, "status": 0}),
        ),
        (
            "stdout JSON wins over exit 2: `{}` allows",
            "PreToolUse",
            exited(2, "{}", "blocked"),
            success(json!({})),
        ),
        (
            "JSON wins over any exit: allow with exit 7",
            "PreToolUse",
            exited(7, r#"{"decision":"allow"}"#, ""),
            success(
                json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}),
            ),
        ),
        (
            "JSON on stderr when stdout has none",
            "PreToolUse",
            exited(0, "", r#"{"decision":"deny","reason":"x"}"#),
            deny("x"),
        ),
        (
            "a JSON string holding JSON",
            "PreToolUse",
            exited(0, r#""{\"decision\":\"deny\",\"reason\":\"x\"}""#, ""),
            deny("x"),
        ),
        (
            "exit 2 without output: allows",
            "PreToolUse",
            exited(2, "", ""),
            success(json!({})),
        ),
        (
            "exit 2 with stderr text: a deny with it",
            "PreToolUse",
            exited(2, "", " blocked\n"),
            deny("blocked"),
        ),
        (
            "exit 2 with stdout text only: a deny without a reason",
            "PreToolUse",
            exited(2, "why", ""),
            deny("Blocked by hook"),
        ),
        (
            "exit 1: a warning, stdout first",
            "PreToolUse",
            exited(1, "out", "err"),
            success(json!({"systemMessage": "Warning: out"})),
        ),
        (
            "exit 1 with stderr only: a warning with it",
            "PreToolUse",
            exited(1, "", "careful\n"),
            success(json!({"systemMessage": "Warning: careful"})),
        ),
        (
            "exit 1 without output: an empty warning",
            "PreToolUse",
            exited(1, "", ""),
            success(json!({"systemMessage": "Warning: "})),
        ),
        (
            "another exit with text: a deny with it",
            "PreToolUse",
            exited(3, "warn text\n", ""),
            deny("warn text"),
        ),
        (
            "another exit without output: allows",
            "PreToolUse",
            exited(3, "", ""),
            success(json!({})),
        ),
        (
            "exit 0 with text: a system message",
            "PreToolUse",
            exited(0, "hi\n", ""),
            success(json!({"systemMessage": "hi"})),
        ),
        (
            "exit 0 with a JSON array: text",
            "PreToolUse",
            exited(0, "[1]", ""),
            success(json!({"systemMessage": "[1]"})),
        ),
        (
            "exit 0 without output: nothing",
            "PreToolUse",
            exited(0, "", ""),
            success(json!({})),
        ),
        (
            "ask on BeforeTool: ask with the reason",
            "PreToolUse",
            exited(0, r#"{"decision":"ask","reason":"sure?"}"#, ""),
            success(
                json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask", "permissionDecisionReason": "sure?"}}),
            ),
        ),
        (
            "approve on BeforeTool: allow",
            "PreToolUse",
            exited(0, r#"{"decision":"approve"}"#, ""),
            success(
                json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}),
            ),
        ),
        (
            "ask off BeforeTool: nothing",
            "PostToolUse",
            exited(0, r#"{"decision":"ask"}"#, ""),
            success(json!({})),
        ),
        (
            "systemMessage, continue and stopReason are kept",
            "Stop",
            exited(
                0,
                r#"{"systemMessage":"m","continue":false,"stopReason":"halt","suppressOutput":true}"#,
                "",
            ),
            success(json!({"systemMessage": "m", "continue": false, "stopReason": "halt"})),
        ),
        (
            "tool_input: merged over the input",
            "PreToolUse",
            exited(
                0,
                r#"{"hookSpecificOutput":{"tool_input":{"command":"ls -la"}}}"#,
                "",
            ),
            success(json!({"merge_input": {"command": "ls -la"}})),
        ),
        (
            "tool_input that is not an object: ignored",
            "PreToolUse",
            exited(0, r#"{"hookSpecificOutput":{"tool_input":"ls"}}"#, ""),
            success(json!({})),
        ),
        (
            "additionalContext where the event has one",
            "PostToolUse",
            exited(
                0,
                r#"{"hookSpecificOutput":{"additionalContext":"ctx"}}"#,
                "",
            ),
            success(
                json!({"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "ctx"}}),
            ),
        ),
        (
            "additionalContext joins a deny",
            "PreToolUse",
            exited(
                0,
                r#"{"decision":"deny","reason":"no","hookSpecificOutput":{"additionalContext":"ctx"}}"#,
                "",
            ),
            json!({"outcome": "blocking", "blocking_error": "no", "json": {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "no", "additionalContext": "ctx"}}, "status": 0}),
        ),
        (
            "additionalContext where the event has none: ignored",
            "BeforeModel",
            exited(
                0,
                r#"{"hookSpecificOutput":{"additionalContext":"ctx"}}"#,
                "",
            ),
            success(json!({})),
        ),
        (
            "killed by a signal with text: a warning, as exit 1",
            "PreToolUse",
            finished(RunStatus::Signaled(9), "x", ""),
            success(json!({"systemMessage": "Warning: x"})),
        ),
        (
            "timed out: Claude Code's reading, cancelled",
            "PreToolUse",
            finished(RunStatus::TimedOut, r#"{"decision":"deny"}"#, ""),
            json!({"outcome": "cancelled", "failure": {"kind": "timed_out", "seconds": 0.005}, "status": null}),
        ),
        (
            "could not start: Claude Code's reading",
            "PreToolUse",
            finished(RunStatus::SpawnFailed("gone".into()), "", ""),
            json!({"outcome": "non_blocking_error", "notice": "Error occurred while executing hook command: gone", "failure": {"kind": "spawn_failed", "message": "gone"}, "status": 1}),
        ),
    ];
    for (rule, event, run, expected) in rows {
        assert_eq!(t::classify(&Gemini, event, &run), expected, "{rule}");
    }
}

/// A translated answer carries the translation as its stdout (what
/// PreCompress's compaction text is read from), and the hook's stderr.
#[test]
fn a_translated_answer_carries_its_json() {
    let a = Gemini.classify(
        "PreCompact",
        t::LABEL,
        &exited(0, "keep a", "e"),
        &t::READING,
    );
    assert_eq!(t::carried(&a), (r#"{"systemMessage":"keep a"}"#, "e"));
}

/// The decision in Gemini's shape: `decision` + `reason`, exit 2 with
/// the reason on stderr when it blocks.
#[test]
fn render_rows() {
    use Permission::{Allow, Ask, Defer, Deny};
    let ev = |name: &str| {
        t::event(
            Dialect::Gemini,
            &json!({"hook_event_name": name, "session_id": "s", "tool_name": "run_shell_command", "tool_input": {"command": "ls"}}),
        )
    };
    let rows = [
        (
            "BeforeTool deny from hooks that exited 0: the JSON decides, exit 0 (no hook failed)",
            ev("BeforeTool"),
            t::permission(Deny, "no"),
            json!({"decision": "deny", "reason": "no"}),
            vec![],
            0,
        ),
        (
            "deny from a hook that exited 2: exit 2, the reason on stderr, as Gemini counts it failed",
            ev("BeforeTool"),
            {
                let mut d = t::permission(Deny, "no");
                d.hook_exit_codes = vec![0, 2];
                d
            },
            json!({"decision": "deny", "reason": "no"}),
            vec!["no"],
            2,
        ),
        (
            "a hook that exited 1: allowed with its warning, exit 1 so that Gemini warns",
            ev("BeforeTool"),
            {
                let mut d = Decision::default();
                d.system_messages.push("Warning: broke".into());
                d.hook_exit_codes = vec![1];
                d
            },
            json!({"systemMessage": "Warning: broke"}),
            vec![],
            1,
        ),
        (
            "a silent exit 2: nothing decided, exit 2 (Gemini allows and warns)",
            ev("BeforeTool"),
            Decision {
                hook_exit_codes: vec![2],
                ..Decision::default()
            },
            json!({}),
            vec![],
            2,
        ),
        (
            "deny without a reason",
            ev("BeforeTool"),
            t::permission(Deny, ""),
            json!({"decision": "deny"}),
            vec![],
            0,
        ),
        (
            "ask: with its reason, exit 0",
            ev("BeforeTool"),
            t::permission(Ask, "sure?"),
            json!({"decision": "ask", "reason": "sure?"}),
            vec![],
            0,
        ),
        (
            "defer: Gemini has none, so ask",
            ev("BeforeTool"),
            t::permission(Defer, ""),
            json!({"decision": "ask"}),
            vec![],
            0,
        ),
        (
            "allow with a reason: both",
            ev("BeforeTool"),
            t::permission(Allow, "fine"),
            json!({"decision": "allow", "reason": "fine"}),
            vec![],
            0,
        ),
        (
            "a rewrite: the whole input as tool_input",
            ev("BeforeTool"),
            t::rewrite(Some(Allow), &json!({"command": "ls -a"})),
            json!({"decision": "allow", "hookSpecificOutput": {"tool_input": {"command": "ls -a"}}}),
            vec![],
            0,
        ),
        (
            "AfterAgent block: a deny, exit 0 (the JSON carries it)",
            ev("AfterAgent"),
            t::block("again"),
            json!({"decision": "deny", "reason": "again"}),
            vec![],
            0,
        ),
        (
            "AfterTool context: additionalContext",
            ev("AfterTool"),
            t::context("ctx"),
            json!({"hookSpecificOutput": {"additionalContext": "ctx"}}),
            vec![],
            0,
        ),
        (
            "continue: false with the stop reason",
            ev("AfterAgent"),
            t::stop("halt"),
            json!({"continue": false, "stopReason": "halt"}),
            vec![],
            0,
        ),
        (
            "BeforeModel: a permission is not rendered, its reason is",
            ev("BeforeModel"),
            t::permission(Ask, "sure?"),
            json!({"reason": "sure?"}),
            vec![],
            0,
        ),
    ];
    t::check_renders(&Gemini, rows);
}

/// Notices and the hooks' system messages share `systemMessage`; only
/// the notices go to stderr.
#[test]
fn notices_and_system_messages() {
    let event = t::event(Dialect::Gemini, &json!({"hook_event_name": "AfterAgent"}));
    let d = Decision {
        system_messages: vec!["from a hook".into()],
        ..Decision::default()
    };
    assert_eq!(
        t::render(&Gemini, &event, &d, &["config notice"]),
        (
            json!({"systemMessage": "config notice\nfrom a hook"}),
            vec!["hookrun: config notice".to_owned()],
            0
        )
    );
}
