//! Gemini CLI (landscape section 1). Event names `BeforeTool`, `AfterTool`,
//! `BeforeAgent`, `AfterAgent`, `PreCompress`, …; answers `decision`,
//! `reason`, `hookSpecificOutput.tool_input` (merged over the input).
//!
//! hookrun reproduces Gemini's *observed* reading of a hook (landscape 1.6),
//! not its documentation, because transparency means the same outcome as
//! Gemini running the hook itself: stdout JSON wins over the exit code (so
//! `{}` with exit 2 allows), exit 2 without output allows, exit 1 warns, and
//! any other non-zero exit with text **denies** with that text.

use serde_json::{Map, Value, json};

use super::protocol::Reading;
use crate::answer::Answer;
use crate::decision::{Decision, Permission};
use crate::event::Event;
use crate::events::Family;
use crate::exec::{HookRun, RunStatus};
use crate::rendered::Rendered;

pub mod events;
pub mod settings;

pub use events::EVENTS;

#[must_use]
pub fn normalize(mut obj: Map<String, Value>) -> (Option<String>, Map<String, Value>) {
    let (_, name) = super::shared::mapped_name(&obj, EVENTS);
    obj.insert("hook_event_name".into(), Value::String(name.clone()));
    (Some(name), obj)
}

/// The event name Gemini uses for hookrun's.
fn gemini_name(model: &str) -> &str {
    EVENTS
        .iter()
        .find(|(_, c)| *c == model)
        .map_or(model, |(g, _)| g)
}

/// Gemini's reading of one hook, translated into a Claude-shaped answer.
#[must_use]
pub fn classify(event: &str, label: &str, run: &HookRun) -> Answer {
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
        if answer.get("model_fields").is_none() {
            answer["model_fields"] = json!({});
        }
        answer["model_fields"]["toolConfig"] = json!({});
    }
    super::shared::answer_from_json(event, label, run, &answer, 0)
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

/// `hookSpecificOutput` fields of Gemini's model events: BeforeModel's
/// request rewrite and synthetic response, AfterModel's replacement
/// response, BeforeToolSelection's tool config.
const MODEL_FIELDS: &[&str] = &["llm_request", "llm_response", "toolConfig"];

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
        // The model events' own fields pass through to the merge (last in
        // config order wins, toolConfig is united: `decision::fields`).
        // They travel beside the Claude-shaped answer (`model_fields`), as
        // Claude Code's output schema has no place for them.
        for key in MODEL_FIELDS {
            if let Some(v) = hso.get(*key).filter(|v| !v.is_null()) {
                if out.get("model_fields").is_none() {
                    out["model_fields"] = json!({});
                }
                out["model_fields"][*key] = v.clone();
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

/// The merged decision in Gemini's shape: the JSON carries everything; the
/// exit status mirrors the hooks' (see below).
#[must_use]
pub fn render(
    event: &crate::event::Event,
    family: Family,
    d: &Decision,
    notices: &[String],
) -> Rendered {
    let reason = d.reasons.join("\n");
    let mut out = json!({});
    match (family, d.permission) {
        (Family::PreTool, Some(p)) => {
            out["decision"] = Value::String(
                if p == Permission::Defer {
                    "ask"
                } else {
                    p.as_str()
                }
                .into(),
            );
        }
        _ if d.blocked => out["decision"] = Value::String("deny".into()),
        _ => {}
    }
    if !reason.is_empty() {
        out["reason"] = Value::String(reason.clone());
    }
    let mut hso = Map::new();
    if let Some(input) = &d.updated_input {
        hso.insert("tool_input".into(), Value::Object(input.clone()));
    }
    if !d.contexts.is_empty() {
        hso.insert(
            "additionalContext".into(),
            Value::String(d.contexts.join("\n")),
        );
    }
    for key in MODEL_FIELDS {
        if let Some(v) = d.specific.get(*key) {
            hso.insert((*key).to_owned(), v.clone());
        }
    }
    if !hso.is_empty() {
        out["hookSpecificOutput"] = Value::Object(hso);
    }
    // The exit status (below) is how Gemini learns that a hook failed and
    // warns about it, as for a hook it runs itself: hookrun's own notice of
    // that failure would be a second, different message.
    let code = gemini_exit_status(d);
    let mut system: Vec<String> = notices.to_vec();
    system.extend(
        d.system_messages
            .iter()
            .filter(|m| code == 0 || !d.failure_notices.contains(m))
            .cloned(),
    );
    if !system.is_empty() {
        out["systemMessage"] = Value::String(system.join("\n"));
    }
    if d.prevent_continuation {
        out["continue"] = Value::Bool(false);
        if !d.stop_reasons.is_empty() {
            out["stopReason"] = Value::String(d.stop_reasons.join("\n"));
        }
    }
    let _ = gemini_name(&event.name);
    // Gemini reads stdout JSON first whatever the exit status, and counts a
    // hook that exits non-zero as failed (`Hook execution for X: 0
    // succeeded, 1 failed`, a warning on exit 1): the JSON carries the
    // decision, and the exit status is the first non-zero one of the hooks,
    // so that one hook through hookrun shows what it shows alone.
    let mut r = super::shared::rendered(&out, 0, None, notices);
    r.exit_code = code;
    if code == 0 && out.as_object().is_some_and(Map::is_empty) {
        // Nothing to say is said with nothing, as by a silent hook: an
        // empty object is an answer to Gemini (on BeforeToolSelection it
        // applies a tool config). Not at a non-zero status, where Gemini
        // would read any stderr text as the answer.
        r.stdout.clear();
    }
    if code != 0 && d.blocked {
        r.stderr.insert(0, reason);
    }
    r
}

/// The first non-zero exit status among the hooks (1 where it does not
/// fit), else 0.
fn gemini_exit_status(d: &Decision) -> u8 {
    d.hook_exit_codes
        .iter()
        .copied()
        .find(|c| *c != 0)
        .map_or(0, |c| u8::try_from(c).unwrap_or(1))
}

/// Gemini CLI: recognised by its own event names (those Claude Code does not share).
pub struct Gemini;

impl super::protocol::Protocol for Gemini {
    fn id(&self) -> super::id::Dialect {
        super::id::Dialect::Gemini
    }

    fn hooks_file_writer(&self) -> Option<super::protocol::HooksFileWriter> {
        Some(settings::toml_to_gemini)
    }

    fn detects(&self, obj: &Map<String, Value>) -> bool {
        let name = obj
            .get("hook_event_name")
            .and_then(Value::as_str)
            .unwrap_or("");
        EVENTS.iter().any(|(g, _)| *g == name) && crate::events::info(name).is_none()
    }

    fn normalize(&self, obj: Map<String, Value>) -> (Option<String>, Map<String, Value>) {
        normalize(obj)
    }

    fn hook_env(&self, project_dir: &str) -> Vec<(String, String)> {
        // Gemini's hooks know the project directory by its own name, and by
        // Claude Code's.
        vec![
            ("CLAUDE_PROJECT_DIR".to_owned(), project_dir.to_owned()),
            ("GEMINI_PROJECT_DIR".to_owned(), project_dir.to_owned()),
        ]
    }

    fn shell(&self) -> Option<(String, Vec<String>)> {
        // Gemini runs a hook's command line with `bash -c` on Unix.
        super::shared::bash_c()
    }

    fn classify(&self, event: &str, label: &str, run: &HookRun, _: &Reading) -> Answer {
        classify(event, label, run)
    }

    fn render(&self, event: &Event, family: Family, d: &Decision, notices: &[String]) -> Rendered {
        render(event, family, d, notices)
    }
}

#[cfg(test)]
#[path = "../tests/gemini.rs"]
mod tests;
