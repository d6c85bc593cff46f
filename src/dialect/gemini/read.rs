//! Gemini CLI's reading of one hook's run, translated into a Claude-shaped
//! answer.
//!
//! hookrun reproduces Gemini's *observed* reading of a hook (running Gemini CLI),
//! not its documentation, because transparency means the same outcome as
//! Gemini running the hook itself: stdout JSON wins over the exit code (so
//! `{}` with exit 2 allows), exit 2 without output allows, exit 1 warns, and
//! any other non-zero exit with text **denies** with that text.

use serde_json::{Map, Value, json};

use crate::answer::Answer;
use crate::exec::{HookRun, RunStatus};

/// `hookSpecificOutput` fields of Gemini's model events: BeforeModel's
/// request rewrite and synthetic response, AfterModel's replacement
/// response, BeforeToolSelection's tool config. They travel beside the
/// Claude-shaped answer (`model_fields`), as Claude Code's output schema has
/// no place for them, and are merged by `decision::fields`.
pub(super) const MODEL_FIELDS: &[&str] = &["llm_request", "llm_response", "toolConfig"];

/// Gemini's reading of one hook, translated into a Claude-shaped answer.
#[must_use]
pub(crate) fn classify(event: &str, label: &str, run: &HookRun) -> Answer {
    let stdout = String::from_utf8_lossy(&run.stdout.bytes).into_owned();
    let stderr = String::from_utf8_lossy(&run.stderr.bytes).into_owned();
    if matches!(run.status, RunStatus::TimedOut | RunStatus::SpawnFailed(_)) {
        return crate::answer::classify(event, label, run);
    }
    let status = match run.status {
        RunStatus::Exited(c) => c,
        _ => 1,
    };
    let parsed = json_of(&stdout).or_else(|| json_of(&stderr));
    // Gemini has an output for the hook whenever stdout or stderr holds text.
    let answered = !stdout.trim().is_empty() || !stderr.trim().is_empty();
    let mut answer = match parsed {
        Some(obj) => translate(event, &obj),
        None => {
            let text = if stdout.trim().is_empty() {
                stderr.trim()
            } else {
                stdout.trim()
            }
            .to_owned();
            match status {
                0 if text.is_empty() => json!({}),
                0 => json!({"systemMessage": text}),
                1 => json!({"systemMessage": format!("Warning: {text}")}),
                _ if text.is_empty() => json!({}),
                2 => deny(event, stderr.trim()),
                _ => deny(event, &text),
            }
        }
    };
    if event == "BeforeToolSelection"
        && answered
        && answer.pointer("/model_fields/toolConfig").is_none()
    {
        // Gemini applies a merged tool config (`AUTO`) as soon as any hook
        // answered, with or without one of its own.
        set_model_field(&mut answer, "toolConfig", json!({}));
    }
    crate::dialect::shared::answer_from_json(event, label, run, &answer, 0)
}

/// A JSON object, or a JSON string holding one (Gemini accepts both).
fn json_of(text: &str) -> Option<Map<String, Value>> {
    match serde_json::from_str::<Value>(text.trim()).ok()? {
        Value::Object(m) => Some(m),
        Value::String(s) => serde_json::from_str::<Value>(&s).ok()?.as_object().cloned(),
        _ => None,
    }
}

fn deny(event: &str, reason: &str) -> Value {
    let reason = if reason.is_empty() {
        "Blocked by hook"
    } else {
        reason
    };
    match event {
        "PreToolUse" => {
            json!({"hookSpecificOutput": {"hookEventName": event, "permissionDecision": "deny", "permissionDecisionReason": reason}})
        }
        _ => json!({"decision": "block", "reason": reason}),
    }
}

fn translate(event: &str, obj: &Map<String, Value>) -> Value {
    let decision = obj.get("decision").and_then(Value::as_str).unwrap_or("");
    let reason = obj.get("reason").and_then(Value::as_str).unwrap_or("");
    let mut out = match decision {
        "deny" | "block" => deny(event, reason),
        "ask" if event == "PreToolUse" => {
            json!({"hookSpecificOutput": {"hookEventName": event, "permissionDecision": "ask", "permissionDecisionReason": reason}})
        }
        "allow" | "approve" if event == "PreToolUse" => {
            json!({"hookSpecificOutput": {"hookEventName": event, "permissionDecision": "allow"}})
        }
        _ => json!({}),
    };
    for key in ["systemMessage", "continue", "stopReason"] {
        if let Some(v) = obj.get(key) {
            out[key] = v.clone();
        }
    }
    if let Some(hso) = obj.get("hookSpecificOutput").and_then(Value::as_object) {
        for key in MODEL_FIELDS {
            if let Some(v) = hso.get(*key).filter(|v| !v.is_null()) {
                set_model_field(&mut out, key, v.clone());
            }
        }
        if let Some(input) = hso.get("tool_input").filter(|v| v.is_object()) {
            // Merged over the original input, not a replacement.
            out["merge_input"] = input.clone();
        }
        if let Some(ctx) = hso.get("additionalContext").and_then(Value::as_str) {
            let has_variant = crate::schema::has_variant(event);
            if has_variant {
                if out.get("hookSpecificOutput").is_none() {
                    out["hookSpecificOutput"] = json!({"hookEventName": event});
                }
                out["hookSpecificOutput"]["additionalContext"] = Value::String(ctx.to_owned());
            }
        }
    }
    out
}

/// Sets one of the model events' fields beside the Claude-shaped answer.
fn set_model_field(answer: &mut Value, key: &str, value: Value) {
    if answer.get("model_fields").is_none() {
        answer["model_fields"] = json!({});
    }
    answer["model_fields"][key] = value;
}
