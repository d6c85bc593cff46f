//! Unit tests of the codex dialect.

use super::*;
use crate::dialect::Dialect;
use crate::dialect::protocol::Protocol;
use crate::dialect::testing::{self as t, exited};
use serde_json::json;

/// Codex's events are Claude Code's: it is never recognised, only forced.
#[test]
fn detect_and_normalize() {
    let obj = t::object(&json!({"hook_event_name": "PreToolUse", "tool_name": "Bash"}));
    assert!(!Codex.detects(&obj), "Codex never claims an event");
    assert_eq!(crate::dialect::detect(&obj), Dialect::Claude);
    assert_eq!(
        Codex.normalize(obj.clone()),
        (Some("PreToolUse".to_owned()), obj),
        "Claude Code's name and fields are kept"
    );
}

/// Codex reads a hook as Claude Code does, except an exit 2 with nothing
/// on stderr: a failed hook (read as an exit 1), not a block.
#[test]
fn classify_rows() {
    let no_reason = "exited with code 2 but did not write a blocking reason";
    let rows = [
        (
            "exit 2 with stderr: a block whose reason is the stderr as written (Codex shows it to the model verbatim)",
            exited(2, "", "why"),
            json!({"outcome": "blocking", "blocking_error": "why", "status": 2}),
        ),
        (
            "exit 2 without stderr: a failure, with Codex's message",
            exited(2, "", ""),
            json!({"outcome": "non_blocking_error", "notice": no_reason, "failure": {"kind": "exit_code", "code": 1}, "status": 1}),
        ),
        (
            "exit 2 with a blank stderr: a failure too",
            exited(2, "text", " \n\t"),
            json!({"outcome": "non_blocking_error", "notice": no_reason, "failure": {"kind": "exit_code", "code": 1}, "status": 1}),
        ),
        (
            "exit 2 without stderr, JSON block on stdout: the JSON still blocks",
            exited(2, r#"{"decision":"block","reason":"r"}"#, ""),
            json!({"outcome": "blocking", "blocking_error": "r", "json": {"decision": "block", "reason": "r"}, "notice": no_reason, "failure": {"kind": "exit_code", "code": 1}, "status": 1}),
        ),
        (
            "exit 0, JSON deny: as Claude Code",
            exited(
                0,
                r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}"#,
                "",
            ),
            json!({"outcome": "blocking", "blocking_error": "no", "json": {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "no"}}, "status": 0}),
        ),
        (
            "exit 1 with a JSON deny: read as Claude Code reads it, a block",
            exited(
                1,
                r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}"#,
                "",
            ),
            json!({"outcome": "blocking", "blocking_error": "no", "json": {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "no"}}, "failure": {"kind": "exit_code", "code": 1}, "status": 1}),
        ),
        (
            "exit 1: a non-blocking error, as Claude Code",
            exited(1, "", "oops"),
            json!({"outcome": "non_blocking_error", "notice": "Failed with non-blocking status code: oops", "failure": {"kind": "exit_code", "code": 1}, "status": 1}),
        ),
    ];
    for (rule, run, expected) in rows {
        assert_eq!(t::classify(&Codex, "PreToolUse", &run), expected, "{rule}");
    }
}

/// Claude Code's rendering within Codex's PreToolUse schema: what it
/// rejects is left out and said in a notice.
#[test]
fn render_rows() {
    use Permission::{Allow, Ask, Defer, Deny};
    let ev = |name: &str| {
        t::event(
            Dialect::Codex,
            &json!({"hook_event_name": name, "tool_name": "Bash", "tool_input": {"command": "ls"}}),
        )
    };
    let ask_note =
        "Codex does not accept `ask` from a PreToolUse hook; left to Codex's own permission flow";
    let rewrite_note =
        "Codex applies a rewritten tool input only with `allow`; the rewrite was left out";
    let continue_note = "Codex does not accept `continue: false` from a PreToolUse hook; left out";
    let ls_a = json!({"command": "ls -a"});
    let rows = [
        (
            "deny: as Claude Code, exit 2 with the reason on stderr",
            ev("PreToolUse"),
            t::permission(Deny, "no"),
            json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "no"}}),
            vec!["no".to_owned()],
            2,
        ),
        (
            "deny with a context: exit 0 with the JSON deny, which Codex honours, so the context arrives too",
            ev("PreToolUse"),
            {
                let mut d = t::permission(Deny, "no");
                d.contexts.push("read the docs".into());
                d
            },
            json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "no", "additionalContext": "read the docs"}}),
            vec!["no".to_owned()],
            0,
        ),
        (
            "a block with a system message: exit 0, the JSON carries both",
            ev("Stop"),
            {
                let mut d = t::block("go on");
                d.system_messages.push("note".into());
                d
            },
            json!({"decision": "block", "reason": "go on", "systemMessage": "note"}),
            vec!["go on".to_owned(), "hookrun: note".to_owned()],
            0,
        ),
        (
            "deny with a blank reason: `blocked by hook` first on stderr (Codex needs one)",
            ev("PreToolUse"),
            t::permission(Deny, " "),
            json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": " "}}),
            vec!["blocked by hook".to_owned(), " ".to_owned()],
            2,
        ),
        (
            "ask: left out with its reason, and said",
            ev("PreToolUse"),
            t::permission(Ask, "sure?"),
            json!({"systemMessage": ask_note}),
            vec![format!("hookrun: {ask_note}")],
            0,
        ),
        (
            "defer: left out like ask",
            ev("PreToolUse"),
            t::permission(Defer, ""),
            json!({"systemMessage": ask_note.replace("`ask`", "`defer`")}),
            vec![format!("hookrun: {}", ask_note.replace("`ask`", "`defer`"))],
            0,
        ),
        (
            "allow with a rewrite: kept",
            ev("PreToolUse"),
            t::rewrite(Some(Allow), &ls_a),
            json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": ls_a}}),
            vec![],
            0,
        ),
        (
            "a rewrite without allow: left out, and said",
            ev("PreToolUse"),
            t::rewrite(None, &ls_a),
            json!({"systemMessage": rewrite_note}),
            vec![format!("hookrun: {rewrite_note}")],
            0,
        ),
        (
            "ask with a rewrite: both left out, both said, in that order",
            ev("PreToolUse"),
            t::rewrite(Some(Ask), &ls_a),
            json!({"systemMessage": format!("{ask_note}\n{rewrite_note}")}),
            vec![
                format!("hookrun: {ask_note}"),
                format!("hookrun: {rewrite_note}"),
            ],
            0,
        ),
        (
            "continue: false on PreToolUse: left out with its reason, and said",
            ev("PreToolUse"),
            t::stop("halt"),
            json!({"systemMessage": continue_note}),
            vec![format!("hookrun: {continue_note}")],
            0,
        ),
        (
            "continue: false elsewhere: kept",
            ev("Stop"),
            t::stop("halt"),
            json!({"continue": false, "stopReason": "halt"}),
            vec![],
            0,
        ),
        (
            "ask elsewhere (PreModelSwitch): as Claude Code",
            ev("PreModelSwitch"),
            t::permission(Ask, "sure?"),
            json!({"hookSpecificOutput": {"hookEventName": "PreModelSwitch", "permissionDecision": "ask", "permissionDecisionReason": "sure?"}}),
            vec![],
            0,
        ),
        (
            "Stop block: as Claude Code",
            ev("Stop"),
            t::block("run the tests"),
            json!({"decision": "block", "reason": "run the tests"}),
            vec!["run the tests".to_owned()],
            2,
        ),
    ];
    t::check_renders(&Codex, rows);
}

/// The caller's notices come before Codex's own.
#[test]
fn notices_come_before_codex_notes() {
    let event = t::event(Dialect::Codex, &json!({"hook_event_name": "PreToolUse"}));
    let (stdout, stderr, _) = t::render(
        &Codex,
        &event,
        &t::permission(Permission::Ask, ""),
        &["config notice"],
    );
    let note =
        "Codex does not accept `ask` from a PreToolUse hook; left to Codex's own permission flow";
    assert_eq!(
        (stdout, stderr),
        (
            json!({"systemMessage": format!("config notice\n{note}")}),
            vec![
                "hookrun: config notice".to_owned(),
                format!("hookrun: {note}")
            ]
        )
    );
}

/// Codex re-reads the rendered stdout as JSON: PreCompact's text, when it
/// is a JSON object, comes out re-serialised (compact), not as the hooks
/// printed it; other text is untouched.
#[test]
fn precompact_text_that_is_json_is_reserialised() {
    let event = t::event(Dialect::Codex, &json!({"hook_event_name": "PreCompact"}));
    for (rule, text, printed) in [
        ("plain text is untouched", "keep  a", "keep  a"),
        ("a JSON object is re-serialised", "{\"a\":  1}", "{\"a\":1}"),
    ] {
        let d = Decision {
            compaction_text: vec![text.to_owned()],
            ..Decision::default()
        };
        let r = Codex.render(&event, Family::Outside, &d, &[]);
        assert_eq!((r.stdout.as_str(), r.exit_code), (printed, 0), "{rule}");
    }
}

/// What Codex's hooks get from Codex: the event without a trailing newline,
/// no project-directory variable, the user's login shell.
#[test]
fn hooks_run_as_codex_runs_them() {
    let ev = t::event(
        Dialect::Codex,
        &json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}}),
    );
    let payload = Codex.payload(&ev).unwrap();
    assert_eq!(payload.last(), Some(&b'}'));
    assert_eq!(payload, ev.bytes.strip_suffix(b"\n").unwrap());
    assert!(Codex.hook_env("/p").is_empty());
    let (_, flags) = Codex.shell().unwrap();
    assert_eq!(flags, vec!["-lc".to_owned()]);
    assert_eq!(
        Codex.default_timeout("SessionEnd"),
        Some(std::time::Duration::from_secs(1))
    );
}
