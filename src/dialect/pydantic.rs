//! pydantic-deep 0.3.50 (spec pydantic-deep-and-deputy.md 1.2–1.7, and
//! dialect-pydantic-deep.md, whose numbered rules are cited below).
//!
//! Its payload is five keys — `event` (snake_case), `tool_name`,
//! `tool_input`, `tool_result`, `tool_error` — written by Python's
//! `json.dumps` (`", "`/`": "` separators, `\uXXXX` escapes, no newline).
//! Its answers: exit 2 denies with `(stdout + stderr).strip()` as the
//! reason; any other exit allows, and stdout JSON may carry `modified_args`
//! and `modified_result`; nothing else counts.

use serde_json::{Map, Value, json};

use super::protocol::Reading;
use crate::answer::{Answer, Failure, Outcome};
use crate::decision::Decision;
use crate::event::Event;
use crate::events::Family;
use crate::exec::{HookRun, RunStatus};
use crate::rendered::Rendered;

const KEYS: &[&str] = &[
    "event",
    "tool_name",
    "tool_input",
    "tool_result",
    "tool_error",
];

/// Rule 1: the five-key payload with a snake_case `event`.
#[must_use]
pub fn detect(obj: &Map<String, Value>) -> bool {
    obj.get("event").is_some_and(Value::is_string)
        && !obj.contains_key("hook_event_name")
        && obj.keys().all(|k| KEYS.contains(&k.as_str()))
}

/// Rule 2: the tool events map to PreToolUse, PostToolUse and
/// PostToolUseFailure; lifecycle events keep their names (their hooks run,
/// matchers ignored, answers ignored). Rule 4: tool names are kept.
#[must_use]
pub fn normalize(obj: Map<String, Value>) -> (Option<String>, Map<String, Value>) {
    let event = obj
        .get("event")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    let name = crate::events::canonical_name(&event).to_owned();
    let mut fields = Map::new();
    fields.insert("hook_event_name".into(), Value::String(name.clone()));
    for (from, to) in [
        ("tool_name", "tool_name"),
        ("tool_input", "tool_input"),
        ("tool_result", "tool_response"),
        ("tool_error", "error"),
    ] {
        if let Some(v) = obj.get(from).filter(|v| !v.is_null()) {
            fields.insert(to.into(), v.clone());
        }
    }
    (Some(name), fields)
}

/// The payload pydantic-deep would send for the current state of a call
/// (rule 6): `json.dumps` style; a non-string result as Python's `str()`.
#[must_use]
pub fn payload(
    event: &str,
    tool_name: &str,
    tool_input: &Value,
    tool_result: Option<&Value>,
    tool_error: Option<&Value>,
) -> Vec<u8> {
    let result = tool_result.map(|r| match r {
        Value::String(s) => Value::String(s.clone()),
        other => Value::String(py_str(other)),
    });
    let mut out = String::from("{");
    let entries = [
        ("event", Value::String(snake(event))),
        ("tool_name", Value::String(tool_name.to_owned())),
        ("tool_input", tool_input.clone()),
        ("tool_result", result.unwrap_or(Value::Null)),
        ("tool_error", tool_error.cloned().unwrap_or(Value::Null)),
    ];
    for (i, (k, v)) in entries.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        py_json(&Value::String((*k).to_owned()), &mut out);
        out.push_str(": ");
        py_json(v, &mut out);
    }
    out.push('}');
    out.into_bytes()
}

fn snake(event: &str) -> String {
    match event {
        "PreToolUse" => "pre_tool_use",
        "PostToolUse" => "post_tool_use",
        "PostToolUseFailure" => "post_tool_use_failure",
        other => other,
    }
    .to_owned()
}

/// Python's `json.dumps(v)` with default settings.
fn py_json(v: &Value, out: &mut String) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&n.to_string()),
        Value::String(s) => {
            out.push('"');
            for c in s.chars() {
                match c {
                    '"' => out.push_str("\\\""),
                    '\\' => out.push_str("\\\\"),
                    '\n' => out.push_str("\\n"),
                    '\r' => out.push_str("\\r"),
                    '\t' => out.push_str("\\t"),
                    '\u{8}' => out.push_str("\\b"),
                    '\u{c}' => out.push_str("\\f"),
                    c if (c as u32) < 0x20 || (c as u32) > 0x7e => {
                        let mut buf = [0u16; 2];
                        for unit in c.encode_utf16(&mut buf) {
                            out.push_str(&format!("\\u{unit:04x}"));
                        }
                    }
                    c => out.push(c),
                }
            }
            out.push('"');
        }
        Value::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                py_json(x, out);
            }
            out.push(']');
        }
        Value::Object(m) => {
            out.push('{');
            for (i, (k, x)) in m.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                py_json(&Value::String(k.clone()), out);
                out.push_str(": ");
                py_json(x, out);
            }
            out.push('}');
        }
    }
}

/// Python's `str()` of a JSON value: `True`, `None`, `1.5`, `[1, 2]`,
/// `{'a': 1}`.
#[must_use]
pub fn py_str(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => py_repr(other),
    }
}

fn py_repr(v: &Value) -> String {
    match v {
        Value::Null => "None".into(),
        Value::Bool(true) => "True".into(),
        Value::Bool(false) => "False".into(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => {
            if s.contains('\'') && !s.contains('"') {
                format!("\"{s}\"")
            } else {
                format!(
                    "'{}'",
                    s.replace('\\', "\\\\")
                        .replace('\'', "\\'")
                        .replace('\n', "\\n")
                )
            }
        }
        Value::Array(a) => format!("[{}]", a.iter().map(py_repr).collect::<Vec<_>>().join(", ")),
        Value::Object(m) => format!(
            "{{{}}}",
            m.iter()
                .map(|(k, x)| format!("{}: {}", py_repr(&Value::String(k.clone())), py_repr(x)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// Python's `str.strip()` whitespace.
fn py_strip(s: &str) -> &str {
    s.trim_matches(|c: char| c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c))
}

/// Reads a hook by pydantic-deep's rules (rule 5), with its failure rules
/// (rule 7) unless the hook's `fail_mode` is explicit.
#[must_use]
pub fn classify_with(
    event: &str,
    run: &HookRun,
    timeout_secs: f64,
    explicit_fail_mode: bool,
) -> Answer {
    let stdout = String::from_utf8_lossy(&run.stdout.bytes).into_owned();
    let stderr = String::from_utf8_lossy(&run.stderr.bytes).into_owned();
    let pre = event == "PreToolUse";
    let mut a = Answer {
        outcome: Outcome::Success,
        blocking_error: None,
        json: None,
        plain_stdout: None,
        notice: None,
        failure: None,
        status: None,
        raw_stdout: stdout.clone(),
        stderr: stderr.clone(),
    };
    let deny = |a: &mut Answer, reason: String| {
        a.outcome = Outcome::Blocking;
        a.json = json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": reason}})
            .as_object()
            .cloned();
        a.blocking_error = Some(reason);
    };
    let flooded = run.stdout.dropped > 0 || run.stderr.dropped > 0;
    let undecided = match &run.status {
        RunStatus::TimedOut => Some(format!("command timed out after {} and was killed", crate::wording::fmt_secs(timeout_secs))),
        _ if flooded => Some(
            "local workspace output exceeded 10 MiB safety limit; redirect the command's output to a file and read part of it instead".to_owned(),
        ),
        _ => None,
    };
    if let Some(why) = undecided {
        if explicit_fail_mode {
            a.outcome = if matches!(run.status, RunStatus::TimedOut) {
                Outcome::Cancelled
            } else {
                Outcome::NonBlockingError
            };
            a.failure = Some(match run.status {
                RunStatus::TimedOut => Failure::TimedOut {
                    seconds: timeout_secs,
                },
                _ => Failure::Builtin { message: why },
            });
        } else if pre {
            // Rule 7: undecided on a pre-tool event denies (fail closed).
            deny(&mut a, format!("A hook could not decide: {why}"));
        }
        return a;
    }
    let status = match &run.status {
        RunStatus::Exited(c) => *c,
        RunStatus::Signaled(s) => 128 + s,
        RunStatus::SpawnFailed(_) => 127,
        RunStatus::TimedOut => 0,
    };
    a.status = Some(status);
    if explicit_fail_mode && status != 0 && status != 2 {
        a.failure = Some(match &run.status {
            RunStatus::Signaled(s) => Failure::Signaled {
                signal: crate::os::signal_name(*s),
            },
            RunStatus::SpawnFailed(m) => Failure::SpawnFailed { message: m.clone() },
            _ => Failure::ExitCode { code: status },
        });
    }
    if status == 2 {
        // Rule 9: on post events an exit 2 never denies.
        if pre {
            let reason = py_strip(&format!("{stdout}{stderr}")).to_owned();
            deny(
                &mut a,
                if reason.is_empty() {
                    "Denied by hook".to_owned()
                } else {
                    reason
                },
            );
        }
        return a;
    }
    // Any other exit allows; stdout JSON may rewrite.
    let Ok(Value::Object(obj)) = serde_json::from_str::<Value>(py_strip(&stdout)) else {
        return a;
    };
    let mut answer = Map::new();
    if let Some(args) = obj.get("modified_args").filter(|v| !v.is_null()) {
        if pre {
            if !args.is_object() {
                // Rule 10: pydantic-deep crashes here; hookrun denies.
                deny(
                    &mut a,
                    format!(
                        "a hook's `modified_args` is {}, not an object",
                        crate::wording::kind_of(args)
                    ),
                );
                return a;
            }
            answer.insert("modified_args".into(), args.clone());
        }
    }
    if let Some(result) = obj.get("modified_result").filter(|v| !v.is_null()) {
        if event == "PostToolUse" {
            answer.insert("modified_result".into(), result.clone());
        }
    }
    if !answer.is_empty() {
        a.json = Some(answer);
    }
    a
}

/// Rule 9: a deny is exit 2 with the reason alone on stdout and nothing on
/// stderr; otherwise exit 0 and `modified_args` / `modified_result` when a
/// hook replaced them (neither key when nothing was replaced).
#[must_use]
pub fn render(event: &crate::event::Event, d: &Decision, notices: &[String]) -> Rendered {
    if event.name == "PreToolUse" && d.blocked {
        return Rendered {
            stdout: d.reasons.join("\n"),
            stderr: Vec::new(),
            exit_code: 2,
        };
    }
    let mut out = Map::new();
    if event.name == "PreToolUse" {
        if let Some(args) = &d.updated_input {
            out.insert("modified_args".into(), Value::Object(args.clone()));
        }
    }
    if event.name == "PostToolUse" {
        if let Some(result) = d.specific.get("updatedToolOutput") {
            out.insert("modified_result".into(), result.clone());
        }
    }
    let mut stderr: Vec<String> = notices.iter().map(|n| format!("hookrun: {n}")).collect();
    stderr.extend(d.system_messages.iter().map(|n| format!("hookrun: {n}")));
    Rendered {
        stdout: Value::Object(out).to_string(),
        stderr,
        exit_code: 0,
    }
}

/// pydantic-deep.
pub struct PydanticDeep;

impl super::protocol::Protocol for PydanticDeep {
    fn id(&self) -> super::id::Dialect {
        super::id::Dialect::PydanticDeep
    }

    fn detects(&self, obj: &Map<String, Value>) -> bool {
        detect(obj)
    }

    fn normalize(&self, obj: Map<String, Value>) -> (Option<String>, Map<String, Value>) {
        normalize(obj)
    }

    fn default_timeout(&self, _event: &str) -> Option<std::time::Duration> {
        // pydantic-deep's own default (dialect rule 7).
        Some(std::time::Duration::from_secs(30))
    }

    fn payload(&self, event: &Event) -> Option<Vec<u8>> {
        // Rule 6: hooks get `json.dumps` of the (possibly rewritten) state.
        let empty = Value::Object(Map::new());
        let f = &event.fields;
        Some(payload(
            &event.name,
            event.str_field("tool_name"),
            f.get("tool_input").unwrap_or(&empty),
            f.get("tool_response"),
            f.get("error"),
        ))
    }

    fn classify(&self, event: &str, _label: &str, run: &HookRun, reading: &Reading) -> Answer {
        classify_with(event, run, reading.timeout_secs, reading.fail_mode_explicit)
    }

    fn render(&self, event: &Event, _family: Family, d: &Decision, notices: &[String]) -> Rendered {
        render(event, d, notices)
    }
}

#[cfg(test)]
mod tests {
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
}
