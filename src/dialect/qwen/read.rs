//! Qwen Code's reading of one hook's run, translated into a Claude-shaped
//! answer.
//!
//! Qwen Code reads a hook otherwise than Claude Code: on exit 2 it reads
//! **stderr**, as a JSON answer when it is one, else as the reason of a
//! deny (a silent exit 2 is no answer); on any other exit it reads stdout, or stderr when stdout is empty,
//! and takes a JSON object as the answer whatever the exit status (a
//! failing hook's JSON counts). Plain text is context on SessionStart,
//! UserPromptSubmit and UserPromptExpansion (from stdout), a message
//! elsewhere, and a warning after a failing exit.

use serde_json::{Map, Value, json};

use crate::answer::Answer;
use crate::exec::{HookRun, RunStatus};

/// Events whose plain stdout text Qwen Code adds as context for the model.
const TEXT_IS_CONTEXT: &[&str] = &["SessionStart", "UserPromptSubmit", "UserPromptExpansion"];

/// Qwen Code's reading of one hook, translated into a Claude-shaped answer.
#[must_use]
pub(crate) fn classify(event: &str, label: &str, run: &HookRun) -> Answer {
    let status = match run.status {
        RunStatus::TimedOut | RunStatus::SpawnFailed(_) => {
            return crate::answer::classify(event, label, run);
        }
        RunStatus::Exited(c) => c,
        // Killed by a signal: no exit code, read as a failing exit.
        _ => 1,
    };
    let stdout = String::from_utf8_lossy(&run.stdout.bytes);
    let stderr = String::from_utf8_lossy(&run.stderr.bytes);
    let answer = if status == 2 {
        // A silent exit 2 gives Qwen Code no answer at all: the action goes
        // on.
        let text = stderr.trim();
        match json_of(text) {
            Some(obj) => translate(event, &obj),
            None if text.is_empty() => json!({}),
            None => deny(event, text),
        }
    } else {
        let from_stderr = stdout.trim().is_empty();
        let text = if from_stderr {
            stderr.trim()
        } else {
            stdout.trim()
        };
        match json_of(text) {
            Some(obj) => translate(event, &obj),
            None if text.starts_with('{') => {
                return failed(event, label, run, "Hook output is not valid JSON");
            }
            None if text.is_empty() => {
                if status != 0 {
                    return failed(event, label, run, &format!("exited with status {status}"));
                }
                json!({})
            }
            None if status != 0 => json!({"systemMessage": format!("Warning: {text}")}),
            None if !from_stderr && TEXT_IS_CONTEXT.contains(&event) => context(event, text),
            None => json!({"systemMessage": text}),
        }
    };
    crate::dialect::shared::answer_from_json(event, label, run, &answer, 0)
}

/// A non-blocking failure of the hook, as Qwen Code counts one: the
/// action goes on, nothing reaches the model.
fn failed(event: &str, label: &str, run: &HookRun, why: &str) -> Answer {
    let mut synthetic = run.clone();
    synthetic.status = RunStatus::Exited(1);
    synthetic.stdout = crate::exec::Captured::default();
    synthetic.stderr = crate::exec::Captured {
        bytes: why.as_bytes().to_vec(),
        dropped: 0,
    };
    crate::answer::classify(event, label, &synthetic)
}

/// A JSON object, or a JSON string holding one (Qwen Code parses both).
fn json_of(text: &str) -> Option<Map<String, Value>> {
    match serde_json::from_str::<Value>(text).ok()? {
        Value::Object(m) => Some(m),
        Value::String(s) => serde_json::from_str::<Value>(&s).ok()?.as_object().cloned(),
        _ => None,
    }
}

/// Plain text as context for the model, control characters taken out.
fn context(event: &str, text: &str) -> Value {
    let clean: String = text
        .chars()
        .filter(|c| *c == '\n' || *c == '\t' || !c.is_control())
        .collect();
    json!({"hookSpecificOutput": {"hookEventName": event, "additionalContext": clean}})
}

fn deny(event: &str, reason: &str) -> Value {
    if event == "PreToolUse" {
        json!({"hookSpecificOutput": {"hookEventName": event, "permissionDecision": "deny", "permissionDecisionReason": reason}})
    } else {
        json!({"decision": "block", "reason": reason})
    }
}

/// Qwen Code's answer object (Claude Code's fields, with `deny` and
/// `allow` beside `block` and `approve`) in Claude Code's shape.
fn translate(event: &str, obj: &Map<String, Value>) -> Value {
    let decision = obj.get("decision").and_then(Value::as_str).unwrap_or("");
    let reason = obj.get("reason").and_then(Value::as_str).unwrap_or("");
    let hso = obj.get("hookSpecificOutput").and_then(Value::as_object);
    let hso_str = |k: &str| hso.and_then(|h| h.get(k)).and_then(Value::as_str);
    let mut out = if event == "PreToolUse" {
        // `permissionDecision` first, then `decision`.
        let permission = hso_str("permissionDecision")
            .filter(|p| matches!(*p, "allow" | "deny" | "ask"))
            .or(match decision {
                "allow" | "approve" => Some("allow"),
                "deny" | "block" => Some("deny"),
                "ask" => Some("ask"),
                _ => None,
            });
        match permission {
            Some(p) => {
                let why = hso_str("permissionDecisionReason").unwrap_or(reason);
                json!({"hookSpecificOutput": {"hookEventName": event, "permissionDecision": p, "permissionDecisionReason": why}})
            }
            None => json!({}),
        }
    } else if matches!(decision, "block" | "deny") {
        json!({"decision": "block", "reason": reason})
    } else {
        json!({})
    };
    for key in ["systemMessage", "continue", "stopReason", "suppressOutput"] {
        if let Some(v) = obj.get(key) {
            out[key] = v.clone();
        }
    }
    if let Some(hso) = hso {
        let has_variant = crate::schema::has_variant(event);
        for key in ["additionalContext", "decision"] {
            let Some(v) = hso.get(key) else { continue };
            let fits = match key {
                "additionalContext" => v.is_string() && has_variant,
                _ => event == "PermissionRequest" && v.is_object(),
            };
            if fits {
                if out.get("hookSpecificOutput").is_none() {
                    out["hookSpecificOutput"] = json!({"hookEventName": event});
                }
                out["hookSpecificOutput"][key] = v.clone();
            }
        }
    }
    out
}
