//! pydantic-deep 0.3.50, as its code reads and runs command hooks
//! (docs/dialects.md).
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
use crate::decision::{Decision, Permission};
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
pub(crate) fn detect(obj: &Map<String, Value>) -> bool {
    obj.get("event").is_some_and(Value::is_string)
        && !obj.contains_key("hook_event_name")
        && obj.keys().all(|k| KEYS.contains(&k.as_str()))
}

/// Rule 2: the tool events map to PreToolUse, PostToolUse and
/// PostToolUseFailure; lifecycle events keep their names (their hooks run,
/// matchers ignored, answers ignored). Rule 4: tool names are kept.
#[must_use]
pub(crate) fn normalize(obj: Map<String, Value>) -> (Option<String>, Map<String, Value>) {
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
/// byte for byte: `json.dumps` style; a non-string result as Python's `str()`.
#[must_use]
pub(crate) fn payload(
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

/// pydantic-deep's name for an event of the model (its tool events are
/// snake_case; lifecycle events keep their names).
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
pub(crate) fn py_str(v: &Value) -> String {
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

/// Reads a hook by pydantic-deep's rules (exit 2 denies, any other exit
/// allows, `modified_args` / `modified_result` apply), with its failure rules
/// (on `pre_tool_use` a timeout or flood denies) unless the hook's
/// `fail_mode` is explicit.
#[must_use]
pub(crate) fn classify_with(
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
pub(crate) fn render(event: &crate::event::Event, d: &Decision, notices: &[String]) -> Rendered {
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
    let mut stderr = crate::dialect::shared::notice_lines(notices);
    if let Some(p @ (Permission::Ask | Permission::Defer)) = d.permission
        && event.name == "PreToolUse"
    {
        // pydantic-deep's hooks can only deny or allow: the call goes ahead,
        // as under deputy, and the user is told what was asked.
        let what = if p == Permission::Ask {
            "ask the user about"
        } else {
            "defer"
        };
        let reason = d.reasons.join("\n");
        let why = if reason.is_empty() {
            String::new()
        } else {
            format!("; the reason was {reason:?}")
        };
        stderr.push(crate::dialect::shared::notice_line(&format!(
            "pydantic-deep cannot {what} a pre_tool_use call (its hooks only deny or allow): the call goes ahead{why}"
        )));
    }
    stderr.extend(crate::dialect::shared::notice_lines(&d.system_messages));
    Rendered {
        stdout: Value::Object(out).to_string(),
        stderr,
        exit_code: 0,
    }
}

/// pydantic-deep.
pub(crate) struct PydanticDeep;

impl super::protocol::Protocol for PydanticDeep {
    fn id(&self) -> crate::agent::Dialect {
        crate::agent::Dialect::PydanticDeep
    }

    fn detects(&self, obj: &Map<String, Value>) -> bool {
        detect(obj)
    }

    fn normalize(&self, obj: Map<String, Value>) -> (Option<String>, Map<String, Value>) {
        normalize(obj)
    }

    fn default_timeout(&self, _event: &str) -> Option<std::time::Duration> {
        // pydantic-deep's own default hook timeout.
        Some(std::time::Duration::from_secs(30))
    }

    fn dedups(&self) -> bool {
        // pydantic-deep runs every registered hook, identical or not.
        false
    }

    fn env_filter(&self) -> Option<fn(&str) -> bool> {
        // pydantic-deep passes its hooks PATH, HOME, LANG and LC_* only.
        Some(|name| matches!(name, "PATH" | "HOME" | "LANG") || name.starts_with("LC_"))
    }

    fn hook_env(&self, _project_dir: &str) -> Vec<(String, String)> {
        // pydantic-deep sets no project-directory variable for its hooks.
        Vec::new()
    }

    fn event_name(&self, event: &str) -> Option<String> {
        Some(snake(event))
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

    fn unread_block(&self, message: &str) -> Rendered {
        // A deny: the reason alone on stdout, nothing on stderr (rule 9).
        Rendered {
            stdout: format!("hookrun: {message}"),
            stderr: Vec::new(),
            exit_code: 2,
        }
    }

    fn render(&self, event: &Event, _family: Family, d: &Decision, notices: &[String]) -> Rendered {
        render(event, d, notices)
    }
}

#[cfg(test)]
mod tests;
