//! Unit tests of the cursor dialect.

use super::*;
use crate::dialect::Dialect;
use crate::dialect::protocol::Protocol;
use crate::dialect::testing::{self as t, exited, finished};

/// Every name of Cursor's table is Cursor's, unless Copilot's tool
/// fields come with it; other names are not.
#[test]
fn detect_rows() {
    for (name, _) in EVENTS {
        let obj = t::object(&json!({"hook_event_name": name, "conversation_id": "c"}));
        assert!(Cursor.detects(&obj), "{name}: Cursor's own test");
        assert_eq!(
            crate::dialect::detect(&obj),
            Dialect::Cursor,
            "{name}: the registry"
        );
    }
    // (rule, event, Cursor's own test, the registry's pick)
    let rows = [
        (
            "a Cursor name with Copilot's toolName: Copilot comes first",
            json!({"hook_event_name": "preToolUse", "toolName": "bash"}),
            true,
            Dialect::Copilot,
        ),
        (
            "Claude Code's PreToolUse",
            json!({"hook_event_name": "PreToolUse"}),
            false,
            Dialect::Claude,
        ),
        (
            "a Cursor event outside the table (afterPlanUpdate)",
            json!({"hook_event_name": "afterPlanUpdate"}),
            false,
            Dialect::Claude,
        ),
        (
            "no name",
            json!({"conversation_id": "c"}),
            false,
            Dialect::Claude,
        ),
    ];
    t::check_detects(&Cursor, &rows);
}

/// Cursor's dedicated events become tool events with Claude Code's
/// fields; the caller's own keys stay.
#[test]
fn normalize_rows() {
    let rows = [
        (
            "preToolUse: the name only",
            json!({"hook_event_name": "preToolUse", "tool_name": "Write", "tool_input": {"file_path": "a"}, "cwd": "/c"}),
            "PreToolUse",
            json!({"hook_event_name": "PreToolUse", "tool_name": "Write", "tool_input": {"file_path": "a"}, "cwd": "/c"}),
        ),
        (
            "beforeShellExecution: the Shell tool, command and cwd as input",
            json!({"hook_event_name": "beforeShellExecution", "command": "ls", "cwd": "/c"}),
            "PreToolUse",
            json!({"hook_event_name": "PreToolUse", "command": "ls", "cwd": "/c", "tool_name": "Shell", "tool_input": {"command": "ls", "cwd": "/c"}}),
        ),
        (
            "afterShellExecution: its output is the tool response",
            json!({"hook_event_name": "afterShellExecution", "command": "ls", "cwd": "/c", "output": "a b"}),
            "PostToolUse",
            json!({"hook_event_name": "PostToolUse", "command": "ls", "cwd": "/c", "output": "a b", "tool_name": "Shell", "tool_input": {"command": "ls", "cwd": "/c"}, "tool_response": "a b"}),
        ),
        (
            "postToolUse: its `tool_output` is the tool response",
            json!({"hook_event_name": "postToolUse", "tool_name": "Shell", "tool_input": {"command": "cat creds"}, "tool_output": "k", "cwd": "/c"}),
            "PostToolUse",
            json!({"hook_event_name": "PostToolUse", "tool_name": "Shell", "tool_input": {"command": "cat creds"}, "tool_output": "k", "cwd": "/c", "tool_response": "k"}),
        ),
        (
            "postToolUse: a `tool_response` given stays",
            json!({"hook_event_name": "postToolUse", "tool_output": "k", "tool_response": "r", "cwd": "/c"}),
            "PostToolUse",
            json!({"hook_event_name": "PostToolUse", "tool_output": "k", "tool_response": "r", "cwd": "/c"}),
        ),
        (
            "beforeReadFile: the Read tool on file_path",
            json!({"hook_event_name": "beforeReadFile", "file_path": "/a", "content": "x", "cwd": "/c"}),
            "PreToolUse",
            json!({"hook_event_name": "PreToolUse", "file_path": "/a", "content": "x", "cwd": "/c", "tool_name": "Read", "tool_input": {"file_path": "/a"}}),
        ),
        (
            "afterFileEdit: the Edit tool with its edits, an empty response",
            json!({"hook_event_name": "afterFileEdit", "file_path": "/a", "edits": [{"old_string": "x"}], "cwd": "/c"}),
            "PostToolUse",
            json!({"hook_event_name": "PostToolUse", "file_path": "/a", "edits": [{"old_string": "x"}], "cwd": "/c", "tool_name": "Edit", "tool_input": {"file_path": "/a", "edits": [{"old_string": "x"}]}, "tool_response": {}}),
        ),
        (
            "beforeMCPExecution: JSON-text tool_input is parsed",
            json!({"hook_event_name": "beforeMCPExecution", "tool_name": "search", "tool_input": "{\"q\":1}", "cwd": "/c"}),
            "PreToolUse",
            json!({"hook_event_name": "PreToolUse", "tool_name": "search", "tool_input": {"q": 1}, "cwd": "/c"}),
        ),
        (
            "beforeMCPExecution: tool_input that is not JSON stays text",
            json!({"hook_event_name": "beforeMCPExecution", "tool_name": "search", "tool_input": "q=1", "cwd": "/c"}),
            "PreToolUse",
            json!({"hook_event_name": "PreToolUse", "tool_name": "search", "tool_input": "q=1", "cwd": "/c"}),
        ),
        (
            "afterMCPExecution: result_json is the tool response",
            json!({"hook_event_name": "afterMCPExecution", "tool_name": "search", "tool_input": "{}", "result_json": "{\"n\":2}", "cwd": "/c"}),
            "PostToolUse",
            json!({"hook_event_name": "PostToolUse", "tool_name": "search", "tool_input": {}, "result_json": "{\"n\":2}", "cwd": "/c", "tool_response": "{\"n\":2}"}),
        ),
        (
            "stop after one follow-up: stop_hook_active",
            json!({"hook_event_name": "stop", "loop_count": 1, "cwd": "/c"}),
            "Stop",
            json!({"hook_event_name": "Stop", "loop_count": 1, "cwd": "/c", "stop_hook_active": true}),
        ),
        (
            "stop, first time: not active",
            json!({"hook_event_name": "stop", "loop_count": 0, "cwd": "/c"}),
            "Stop",
            json!({"hook_event_name": "Stop", "loop_count": 0, "cwd": "/c", "stop_hook_active": false}),
        ),
        (
            "no cwd: the first workspace root",
            json!({"hook_event_name": "sessionStart", "workspace_roots": ["/w1", "/w2"]}),
            "SessionStart",
            json!({"hook_event_name": "SessionStart", "workspace_roots": ["/w1", "/w2"], "cwd": "/w1"}),
        ),
        (
            "a cwd wins over the workspace roots",
            json!({"hook_event_name": "sessionEnd", "workspace_roots": ["/w1"], "cwd": "/c"}),
            "SessionEnd",
            json!({"hook_event_name": "SessionEnd", "workspace_roots": ["/w1"], "cwd": "/c"}),
        ),
        (
            "beforeSubmitPrompt is UserPromptSubmit",
            json!({"hook_event_name": "beforeSubmitPrompt", "prompt": "p"}),
            "UserPromptSubmit",
            json!({"hook_event_name": "UserPromptSubmit", "prompt": "p"}),
        ),
        (
            "a name outside the table is kept",
            json!({"hook_event_name": "afterPlanUpdate"}),
            "afterPlanUpdate",
            json!({"hook_event_name": "afterPlanUpdate"}),
        ),
        (
            "no name: an empty one",
            json!({"prompt": "p"}),
            "",
            json!({"prompt": "p", "hook_event_name": ""}),
        ),
    ];
    for (rule, event, name, fields) in rows {
        assert_eq!(
            Cursor.normalize(t::object(&event)),
            (Some(name.to_owned()), t::object(&fields)),
            "{rule}"
        );
    }
}

/// Cursor's reading of a hook (exit 2 denies, exit 0 reads Cursor's
/// keys, other exits are errors) as the Claude Code answer it becomes.
#[test]
fn classify_rows() {
    let deny = |reason: &str| json!({"outcome": "blocking", "blocking_error": reason, "json": {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": reason}}, "status": 0});
    let block = |reason: &str| json!({"outcome": "blocking", "blocking_error": reason, "json": {"decision": "block", "reason": reason}, "status": 0});
    let nothing = json!({"outcome": "success", "json": {}, "status": 0});
    let rows = [
        (
            "exit 2: a deny with stderr, trimmed",
            "PreToolUse",
            exited(2, "out", " no \n"),
            deny("no"),
        ),
        (
            "exit 2 without stderr: a deny with stdout",
            "PreToolUse",
            exited(2, " why\n", ""),
            deny("why"),
        ),
        (
            "exit 2 without output: `Blocked by hook`",
            "PreToolUse",
            exited(2, "", ""),
            deny("Blocked by hook"),
        ),
        (
            "exit 2 on stop: a block",
            "Stop",
            exited(2, "", "keep going"),
            block("keep going"),
        ),
        (
            "exit 0 without output: nothing",
            "PreToolUse",
            exited(0, " \n", ""),
            nothing.clone(),
        ),
        (
            "exit 0, text that is not JSON: an error, read as exit 1",
            "PreToolUse",
            exited(0, "hello", ""),
            json!({"outcome": "non_blocking_error", "notice": "Failed with non-blocking status code: No stderr output", "failure": {"kind": "exit_code", "code": 1}, "status": 1}),
        ),
        (
            "permission deny: agent_message first",
            "PreToolUse",
            exited(
                0,
                r#"{"permission":"deny","user_message":"u","agent_message":"a"}"#,
                "",
            ),
            deny("a"),
        ),
        (
            "permission deny: else user_message",
            "PreToolUse",
            exited(0, r#"{"permission":"deny","user_message":"u"}"#, ""),
            deny("u"),
        ),
        (
            "permission deny without a message: `Blocked by hook`",
            "PreToolUse",
            exited(0, r#"{"permission":"deny"}"#, ""),
            deny("Blocked by hook"),
        ),
        (
            "permission deny on stop: a block",
            "Stop",
            exited(0, r#"{"permission":"deny","user_message":"u"}"#, ""),
            block("u"),
        ),
        (
            "permission allow on a tool event: allow, with an empty reason",
            "PreToolUse",
            exited(0, r#"{"permission":"allow"}"#, ""),
            json!({"outcome": "success", "json": {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "permissionDecisionReason": ""}}, "status": 0}),
        ),
        (
            "permission ask with a message: ask",
            "PreToolUse",
            exited(0, r#"{"permission":"ask","user_message":"sure?"}"#, ""),
            json!({"outcome": "success", "json": {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask", "permissionDecisionReason": "sure?"}}, "status": 0}),
        ),
        (
            "permission allow elsewhere: nothing",
            "PostToolUse",
            exited(0, r#"{"permission":"allow"}"#, ""),
            nothing.clone(),
        ),
        (
            "updated_input with allow: a replacement of the input",
            "PreToolUse",
            exited(
                0,
                r#"{"permission":"allow","updated_input":{"file_path":"b"}}"#,
                "",
            ),
            json!({"outcome": "success", "json": {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "permissionDecisionReason": ""}, "modified_args": {"file_path": "b"}}, "status": 0}),
        ),
        (
            "updated_input that is not an object: ignored",
            "PreToolUse",
            exited(0, r#"{"updated_input":"b"}"#, ""),
            nothing.clone(),
        ),
        (
            "updated_input off a pre-tool event: ignored",
            "PostToolUse",
            exited(0, r#"{"updated_input":{"file_path":"b"}}"#, ""),
            nothing.clone(),
        ),
        (
            "continue: false on a prompt: a block with the message",
            "UserPromptSubmit",
            exited(0, r#"{"continue":false,"user_message":"frozen"}"#, ""),
            block("frozen"),
        ),
        (
            "continue: false wins over an allow",
            "PreToolUse",
            exited(0, r#"{"permission":"allow","continue":false}"#, ""),
            deny("Blocked by hook"),
        ),
        (
            "followup_message on stop: a block that keeps the agent working",
            "Stop",
            exited(0, r#"{"followup_message":"run the tests"}"#, ""),
            block("run the tests"),
        ),
        (
            "an empty followup_message: nothing",
            "Stop",
            exited(0, r#"{"followup_message":""}"#, ""),
            nothing.clone(),
        ),
        (
            "followup_message off stop: ignored",
            "PreToolUse",
            exited(0, r#"{"followup_message":"run the tests"}"#, ""),
            nothing.clone(),
        ),
        (
            "additional_context: a context where the event has one",
            "SessionStart",
            exited(0, r#"{"additional_context":"ctx"}"#, ""),
            json!({"outcome": "success", "json": {"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "ctx"}}, "status": 0}),
        ),
        (
            "additional_context joins a permission",
            "PreToolUse",
            exited(
                0,
                r#"{"permission":"deny","agent_message":"no","additional_context":"ctx"}"#,
                "",
            ),
            json!({"outcome": "blocking", "blocking_error": "no", "json": {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "no", "additionalContext": "ctx"}}, "status": 0}),
        ),
        (
            "additional_context where the event has none: ignored",
            "SessionEnd",
            exited(0, r#"{"additional_context":"ctx"}"#, ""),
            nothing.clone(),
        ),
        (
            "Claude Code's deny means nothing to Cursor",
            "PreToolUse",
            exited(
                0,
                r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}"#,
                "",
            ),
            nothing.clone(),
        ),
        (
            "exit 1: Claude Code's reading, an error",
            "PreToolUse",
            exited(1, "", "oops"),
            json!({"outcome": "non_blocking_error", "notice": "Failed with non-blocking status code: oops", "failure": {"kind": "exit_code", "code": 1}, "status": 1}),
        ),
        (
            "timed out: cancelled",
            "PreToolUse",
            finished(RunStatus::TimedOut, r#"{"permission":"deny"}"#, ""),
            json!({"outcome": "cancelled", "failure": {"kind": "timed_out", "seconds": 0.005}, "status": null}),
        ),
    ];
    for (rule, event, run, expected) in rows {
        assert_eq!(t::classify(&Cursor, event, &run), expected, "{rule}");
    }
}

/// A translated answer carries the translation as its stdout, and the
/// hook's own stderr.
#[test]
fn a_translated_answer_carries_its_json() {
    let a = Cursor.classify("Stop", t::LABEL, &exited(2, "", "why"), &t::READING);
    assert_eq!(
        t::carried(&a),
        (r#"{"decision":"block","reason":"why"}"#, "why")
    );
}

/// The decision in the shape of the Cursor event that came in.
#[test]
fn render_rows() {
    use Permission::{Allow, Ask, Defer, Deny};
    let ev = |name: &str| {
        t::event(
            Dialect::Cursor,
            &json!({"hook_event_name": name, "conversation_id": "c", "command": "ls", "tool_name": "Write", "tool_input": {"file_path": "a"}}),
        )
    };
    let ls_a = json!({"command": "ls -a"});
    let rows = [
        (
            "preToolUse deny: permission and both messages, exit 2",
            ev("preToolUse"),
            t::permission(Deny, "no"),
            json!({"permission": "deny", "user_message": "no", "agent_message": "no"}),
            vec!["no"],
            2,
        ),
        (
            "beforeShellExecution deny: the same",
            ev("beforeShellExecution"),
            t::permission(Deny, "no"),
            json!({"permission": "deny", "user_message": "no", "agent_message": "no"}),
            vec!["no"],
            2,
        ),
        (
            "deny without a reason: no messages, an empty line on stderr",
            ev("beforeReadFile"),
            t::permission(Deny, ""),
            json!({"permission": "deny"}),
            vec![""],
            2,
        ),
        (
            "preToolUse ask: ask",
            ev("preToolUse"),
            t::permission(Ask, "sure?"),
            json!({"permission": "ask", "user_message": "sure?", "agent_message": "sure?"}),
            vec![],
            0,
        ),
        (
            "preToolUse defer: Cursor has none, so ask",
            ev("preToolUse"),
            t::permission(Defer, ""),
            json!({"permission": "ask"}),
            vec![],
            0,
        ),
        (
            "preToolUse allow with a rewrite: updated_input",
            ev("preToolUse"),
            t::rewrite(Some(Allow), &ls_a),
            json!({"permission": "allow", "updated_input": ls_a}),
            vec![],
            0,
        ),
        (
            "preToolUse rewrite without a permission: updated_input alone",
            ev("preToolUse"),
            t::rewrite(None, &ls_a),
            json!({"updated_input": ls_a}),
            vec![],
            0,
        ),
        (
            "beforeShellExecution rewrite: Cursor takes none there",
            ev("beforeShellExecution"),
            t::rewrite(Some(Allow), &ls_a),
            json!({"permission": "allow"}),
            vec![],
            0,
        ),
        (
            "beforeSubmitPrompt block: continue false with the message, exit 2",
            ev("beforeSubmitPrompt"),
            t::block("frozen"),
            json!({"continue": false, "user_message": "frozen"}),
            vec!["frozen"],
            2,
        ),
        (
            "beforeSubmitPrompt with nothing to say: continue true",
            ev("beforeSubmitPrompt"),
            Decision::default(),
            json!({"continue": true}),
            vec![],
            0,
        ),
        (
            "beforeSubmitPrompt with continue: false: continue false, exit 0",
            ev("beforeSubmitPrompt"),
            t::stop("halt"),
            json!({"continue": false}),
            vec![],
            0,
        ),
        (
            "stop block: followup_message, exit 0",
            ev("stop"),
            t::block("run the tests"),
            json!({"followup_message": "run the tests"}),
            vec![],
            0,
        ),
        (
            "subagentStop block: the same",
            ev("subagentStop"),
            t::block("run the tests"),
            json!({"followup_message": "run the tests"}),
            vec![],
            0,
        ),
        (
            "stop without a block: nothing",
            ev("stop"),
            Decision::default(),
            json!({}),
            vec![],
            0,
        ),
        (
            "postToolUse block: the tool has run, so no deny; the reason reaches the model as context, exit 0",
            ev("postToolUse"),
            t::block("lint failed"),
            json!({"additional_context": "lint failed"}),
            vec![],
            0,
        ),
        (
            "afterShellExecution block: Cursor takes no answer there, so a notice, exit 0",
            ev("afterShellExecution"),
            t::block("lint failed"),
            json!({}),
            vec![
                "hookrun: Cursor takes no answer from afterShellExecution: the PostToolUse block (\"lint failed\") did not reach the model",
            ],
            0,
        ),
        (
            "beforeSubmitPrompt context: no field for it, a notice",
            ev("beforeSubmitPrompt"),
            Decision {
                contexts: vec!["branch main".into()],
                ..Decision::default()
            },
            json!({"continue": true}),
            vec![
                "hookrun: Cursor's beforeSubmitPrompt takes no additional context: \"branch main\" was not passed on",
            ],
            0,
        ),
        (
            "sessionStart context: additional_context",
            ev("sessionStart"),
            t::context("ctx"),
            json!({"additional_context": "ctx"}),
            vec![],
            0,
        ),
        (
            "postToolUse context: additional_context",
            ev("postToolUse"),
            t::context("ctx"),
            json!({"additional_context": "ctx"}),
            vec![],
            0,
        ),
        (
            "afterShellExecution context: Cursor takes none there, and the user is told",
            ev("afterShellExecution"),
            t::context("ctx"),
            json!({}),
            vec![
                "hookrun: Cursor's afterShellExecution takes no additional context: \"ctx\" was not passed on",
            ],
            0,
        ),
        (
            "system messages go to stderr only",
            ev("stop"),
            Decision {
                system_messages: vec!["from a hook".into()],
                ..Decision::default()
            },
            json!({}),
            vec!["hookrun: from a hook"],
            0,
        ),
    ];
    t::check_renders(&Cursor, rows);
}
