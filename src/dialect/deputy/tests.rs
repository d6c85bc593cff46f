//! Unit tests of the deputy dialect.

use serde_json::json;

use super::*;
use crate::decision::Permission;
use crate::dialect::Dialect;
use crate::dialect::protocol::Protocol;
use crate::dialect::testing::{self as t, exited};

fn ev(json: &Value) -> Event {
    t::event(Dialect::Deputy, json)
}

/// The adapter's `deputy_event` key is deputy's mark; nothing else is.
#[test]
fn detect_rows() {
    let rows = [
        (
            "the adapter's event",
            json!({"deputy_event": "PreToolUse", "tool_name": "run_bash", "tool_input": {}, "context": {}}),
            true,
            Dialect::Deputy,
        ),
        (
            "Claude Code's event with deputy's tool name",
            json!({"hook_event_name": "PreToolUse", "tool_name": "run_bash", "tool_input": {}}),
            false,
            Dialect::Claude,
        ),
        (
            "a deputy_event that is not a string",
            json!({"deputy_event": 1}),
            false,
            Dialect::Claude,
        ),
    ];
    t::check_detects(&Deputy, &rows);
}

/// Every event deputy fires is mapped: Claude Code's names are added
/// beside deputy's arguments and its context, nothing is taken away.
#[test]
fn normalize_rows() {
    let ctx = json!({"working_dir": "/w", "run_id": "r1", "agent_id": "a1"});
    let with = |extra: Value| {
        let mut c = ctx.clone();
        for (k, v) in extra.as_object().expect("an object") {
            c[k] = v.clone();
        }
        c
    };
    // (event, deputy's arguments, the context's own fields, the fields
    // hookrun adds besides cwd and session_id)
    let rows = [
        (
            "PreToolUse",
            json!({"tool_name": "run_bash", "tool_input": {"command": "ls"}}),
            json!({"tool_call_id": "c1"}),
            json!({"tool_use_id": "c1"}),
        ),
        (
            "PostToolUse",
            json!({"tool_name": "run_bash", "tool_result": "out", "tool_error": null}),
            json!({}),
            json!({"tool_response": "out", "tool_input": {}}),
        ),
        (
            "PostToolUseFailure",
            json!({"tool_name": "read_file", "tool_result": null, "tool_error": "no such file"}),
            json!({}),
            json!({"tool_response": null, "error": "no such file", "tool_input": {}}),
        ),
        (
            "PostModelRequest",
            json!({}),
            json!({"request_number": 2, "usage": {"class": "AgentUsage", "total_tokens": 9}}),
            json!({"request_number": 2, "usage": {"class": "AgentUsage", "total_tokens": 9}}),
        ),
        (
            "PermissionRequest",
            json!({"tool_name": "run_r_code", "tool_input": {"code": "1"}, "permission_result": {"class": "PermissionResultDeny", "reason": "policy"}}),
            json!({}),
            json!({}),
        ),
        (
            "SessionStart",
            json!({}),
            json!({"tools_count": 4}),
            json!({"source": "startup"}),
        ),
        (
            "UserPromptSubmit",
            json!({"prompt": "fix it"}),
            json!({}),
            json!({}),
        ),
        (
            "Stop",
            json!({"reason": "complete"}),
            json!({"stop_hook_active": true, "ending": {"class": "RunEndingAnswered"}}),
            json!({"stop_hook_active": true}),
        ),
        (
            "SessionEnd",
            json!({"reason": "complete"}),
            json!({"ending": {"class": "RunEndingStopped"}}),
            json!({}),
        ),
        (
            "SubagentStart",
            json!({"agent_name": "coder", "task": "t"}),
            json!({}),
            json!({"agent_type": "coder"}),
        ),
        (
            "SubagentStop",
            json!({"agent_name": "coder", "task": "t", "result": "done"}),
            json!({}),
            json!({"agent_type": "coder", "last_assistant_message": "done", "stop_hook_active": false}),
        ),
        (
            "PreCompact",
            json!({"turns_to_compact": [], "turns_to_keep": []}),
            json!({"compact_count": 3}),
            json!({"trigger": "auto"}),
        ),
        (
            "PostCompact",
            json!({"result": "summary"}),
            json!({"trigger": "manual"}),
            json!({"trigger": "manual", "compact_summary": "summary"}),
        ),
        (
            "Notification",
            json!({"message": "denied"}),
            json!({"level": "warning", "code": "tool_denied"}),
            json!({"notification_type": "tool_denied"}),
        ),
        (
            "ConfigChange",
            json!({"key": "permission_mode", "old_value": "default", "new_value": "plan"}),
            json!({}),
            json!({"source": "permission_mode"}),
        ),
    ];
    assert_eq!(rows.len(), events::EVENTS.len(), "a row per deputy event");
    for (name, args, own, added) in rows {
        assert!(events::fires(name), "{name}");
        let context = with(own);
        let mut sent = args.clone();
        sent["deputy_event"] = json!(name);
        sent["context"] = context.clone();
        let (mapped, fields) = normalize(t::object(&sent));
        assert_eq!(mapped.as_deref(), Some(name));
        let mut want = args.clone();
        want["context"] = context;
        want["hook_event_name"] = json!(name);
        want["cwd"] = json!("/w");
        want["session_id"] = json!("r1");
        for (k, v) in added.as_object().expect("an object") {
            want[k] = v.clone();
        }
        assert_eq!(Value::Object(fields), want, "{name}");
        // The event is read whole, and `PostModelRequest` is known.
        let e = ev(&sent);
        assert_eq!(e.name, name);
        assert!(e.info.is_some(), "{name} is a known event");
    }
}

/// A field the adapter sent at the top level wins over the context's.
#[test]
fn sent_fields_win_over_the_context() {
    let (_, f) = normalize(t::object(&json!({
        "deputy_event": "PreToolUse", "cwd": "/given", "session_id": "s",
        "context": {"working_dir": "/w", "run_id": "r", "session_id": "s2"}
    })));
    assert_eq!(f["cwd"], "/given");
    assert_eq!(f["session_id"], "s");
    let (_, f) = normalize(t::object(
        &json!({"deputy_event": "Stop", "context": {"session_id": "s2", "run_id": "r"}}),
    ));
    assert_eq!(f["session_id"], "s2", "session_id before run_id");
    assert_eq!(f["stop_hook_active"], false, "absent reads as false");
}

/// Hooks under the deputy dialect read the mapped event, not the
/// adapter's bytes, so Claude Code hook scripts work unchanged.
#[test]
fn hooks_read_the_mapped_event() {
    assert!(!Deputy.hooks_read_caller_bytes());
    let e = ev(
        &json!({"deputy_event": "PreToolUse", "tool_name": "run_bash", "tool_input": {"command": "ls"}, "context": {"working_dir": "/w"}}),
    );
    let seen: Value = serde_json::from_slice(&e.bytes).expect("json");
    assert_eq!(seen["hook_event_name"], "PreToolUse");
    assert_eq!(seen["cwd"], "/w");
    assert_eq!(seen["tool_input"]["command"], "ls");
}

/// Answers are read as Claude Code's; an exit-2 block is the hook's own
/// words.
#[test]
fn classify_rows() {
    let a = Deputy.classify("Stop", "cmd", &exited(2, "", "add sources\n"), &t::READING);
    assert_eq!(a.blocking_error.as_deref(), Some("add sources"));
    let a = Deputy.classify("Stop", "cmd", &exited(2, "", ""), &t::READING);
    assert_eq!(a.blocking_error.as_deref(), Some("Blocked by hook"));
    let json = r#"{"decision":"block","reason":"tests fail"}"#;
    let a = Deputy.classify("Stop", "cmd", &exited(0, json, ""), &t::READING);
    assert_eq!(a.blocking_error.as_deref(), Some("tests fail"));
    let a = Deputy.classify("PreToolUse", "cmd", &exited(1, "", "oops"), &t::READING);
    assert!(
        a.blocking_error.is_none(),
        "exit 1 is an error, not a block"
    );
}

fn answer(result: Value, args: Value, unsupported: &[&str]) -> Value {
    json!({"result": result, "args": args, "unsupported": unsupported, "messages": []})
}

/// The merged decision as deputy's result, per event.
#[test]
fn render_rows() {
    let pre = ev(&json!({"deputy_event": "PreToolUse", "tool_name": "run_bash", "tool_input": {}}));
    let post = ev(
        &json!({"deputy_event": "PostToolUse", "tool_name": "run_bash", "tool_result": "x", "tool_error": null}),
    );
    let perm = ev(
        &json!({"deputy_event": "PermissionRequest", "tool_name": "run_r_code", "tool_input": {}}),
    );
    let stop = ev(&json!({"deputy_event": "Stop", "reason": "complete"}));
    let compact = ev(&json!({"deputy_event": "PreCompact"}));
    let prompt = ev(&json!({"deputy_event": "UserPromptSubmit", "prompt": "p"}));
    let allow_request = Decision {
        request: json!({"behavior": "allow"}).as_object().cloned(),
        ..Decision::default()
    };
    let deny_request = Decision {
        request: json!({"behavior": "deny", "interrupt": true})
            .as_object()
            .cloned(),
        reasons: vec!["not today".into()],
        ..Decision::default()
    };
    let mut redacted = Decision::default();
    redacted
        .specific
        .insert("updatedToolOutput".into(), json!("[REDACTED]"));
    let mut deny_and_stop = t::permission(Permission::Deny, "no");
    deny_and_stop.prevent_continuation = true;
    deny_and_stop.stop_reasons = vec!["halt".into()];
    let mut stop_for_good = t::block("more");
    stop_for_good.prevent_continuation = true;
    let none: Vec<&str> = Vec::new();
    let rows = [
        (
            "deny: HookResultPreToolUse with the reason",
            pre.clone(),
            t::permission(Permission::Deny, "rm -rf /"),
            answer(
                json!("HookResultPreToolUse"),
                json!({"permission": "deny", "reason": "rm -rf /"}),
                &[],
            ),
        ),
        (
            "allow: NULL, so deputy's later hooks still run",
            pre.clone(),
            t::permission(Permission::Allow, "fine"),
            answer(Value::Null, json!({}), &[]),
        ),
        (
            "no decision: NULL",
            pre.clone(),
            Decision::default(),
            answer(Value::Null, json!({}), &[]),
        ),
        (
            "context: an allow result carrying it",
            pre.clone(),
            t::context("branch main"),
            answer(
                json!("HookResultPreToolUse"),
                json!({"permission": "allow", "additional_context": "branch main"}),
                &[],
            ),
        ),
        (
            "continue: false stops the run",
            pre.clone(),
            deny_and_stop,
            answer(
                json!("HookResultPreToolUse"),
                json!({"permission": "deny", "reason": "no", "continue": false, "stop_reason": "halt"}),
                &[],
            ),
        ),
        (
            "a rewrite deputy cannot carry is named",
            pre.clone(),
            t::rewrite(Some(Permission::Allow), &json!({"command": "ls -a"})),
            answer(
                Value::Null,
                json!({}),
                &["deputy cannot rewrite a tool's input: the call runs with its original input"],
            ),
        ),
        (
            "PostToolUse stop",
            post.clone(),
            t::stop("tool_failed"),
            answer(
                json!("HookResultPostToolUse"),
                json!({"continue": false, "stop_reason": "tool_failed"}),
                &[],
            ),
        ),
        (
            "PostToolUse block: its reason is feedback for the model",
            post.clone(),
            t::block("lint failed"),
            answer(
                json!("HookResultPostToolUse"),
                json!({"additional_context": "lint failed"}),
                &[],
            ),
        ),
        (
            "PostToolUse output rewrite: passed, and said not to reach the model",
            post,
            redacted,
            answer(
                json!("HookResultPostToolUse"),
                json!({"updated_tool_output": "[REDACTED]"}),
                &[
                    "deputy cannot change what the model sees of a tool's output: the rewritten output only reaches deputy's `tool_end` event; the model has the original",
                ],
            ),
        ),
        (
            "PermissionRequest allow",
            perm.clone(),
            allow_request,
            answer(json!("PermissionResultAllow"), json!({}), &[]),
        ),
        (
            "PermissionRequest deny, with interrupt",
            perm,
            deny_request,
            answer(
                json!("PermissionResultDeny"),
                json!({"reason": "not today", "interrupt": true}),
                &[],
            ),
        ),
        (
            "Stop block sends the run on",
            stop.clone(),
            t::block("add sources"),
            answer(
                json!("HookResultStop"),
                json!({"message": "add sources"}),
                &[],
            ),
        ),
        (
            "Stop block with continue: false ends the run as it stands",
            stop,
            stop_for_good,
            answer(Value::Null, json!({}), &[]),
        ),
        (
            "PreCompact block cancels compaction",
            compact,
            t::block("not now"),
            answer(
                json!("HookResultPreCompact"),
                json!({"continue": false}),
                &[],
            ),
        ),
        (
            "UserPromptSubmit block: deputy ignores it, and says so",
            prompt.clone(),
            t::block("secret in prompt"),
            answer(
                Value::Null,
                json!({}),
                &[
                    "deputy ignores what UserPromptSubmit hooks return: the block that would reject the prompt (\"secret in prompt\") was not carried",
                ],
            ),
        ),
        (
            "UserPromptSubmit context: not passed on, and said",
            prompt,
            t::context("ctx"),
            answer(
                Value::Null,
                json!({}),
                &[
                    "deputy ignores what UserPromptSubmit hooks return: the additional context (\"ctx\") was not passed on",
                ],
            ),
        ),
    ];
    let rows = rows
        .into_iter()
        .map(|(rule, e, d, out)| (rule, e, d, out, none.clone(), 0));
    t::check_renders(&Deputy, rows);
}

/// User-facing messages and hookrun's notices reach the adapter.
#[test]
fn messages_carry_system_messages_and_notices() {
    let e = ev(&json!({"deputy_event": "SessionStart"}));
    let d = Decision {
        system_messages: vec!["welcome".into()],
        ..Decision::default()
    };
    let (out, stderr, code) = t::render(&Deputy, &e, &d, &["hook x timed out"]);
    assert_eq!(out["messages"], json!(["hook x timed out", "welcome"]));
    assert_eq!(stderr, vec!["hookrun: hook x timed out".to_owned()]);
    assert_eq!(code, 0);
}
