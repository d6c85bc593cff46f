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

/// Gemini event names and hookrun's.
pub const EVENTS: &[(&str, &str)] = &[
    ("BeforeTool", "PreToolUse"),
    ("AfterTool", "PostToolUse"),
    ("BeforeAgent", "UserPromptSubmit"),
    ("AfterAgent", "Stop"),
    ("PreCompress", "PreCompact"),
    ("BeforeModel", "BeforeModel"),
    ("AfterModel", "AfterModel"),
    ("BeforeToolSelection", "BeforeToolSelection"),
];

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
    let answer = match parsed {
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

/// The merged decision in Gemini's shape; exit 2 (and the reason on
/// stderr) when it blocks, the JSON carrying the block too.
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
    if !hso.is_empty() {
        out["hookSpecificOutput"] = Value::Object(hso);
    }
    let mut system: Vec<String> = notices.to_vec();
    system.extend(d.system_messages.iter().cloned());
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
    let code = if d.blocked { 2 } else { 0 };
    super::shared::rendered(&out, code, Some(&reason), notices)
}

/// Gemini CLI: recognised by its own event names (those Claude Code does not share).
pub struct Gemini;

impl super::protocol::Protocol for Gemini {
    fn id(&self) -> super::id::Dialect {
        super::id::Dialect::Gemini
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
        // Gemini's hooks know the project directory by its own name.
        vec![("GEMINI_PROJECT_DIR".to_owned(), project_dir.to_owned())]
    }

    fn classify(&self, event: &str, label: &str, run: &HookRun, _: &Reading) -> Answer {
        classify(event, label, run)
    }

    fn render(&self, event: &Event, family: Family, d: &Decision, notices: &[String]) -> Rendered {
        render(event, family, d, notices)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::Dialect;
    use crate::dialect::protocol::Protocol;
    use crate::dialect::testing::{self as t, exited, finished};

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
            let event = json!({"hook_event_name": given, "session_id": "s", "tool_name": "run_shell_command"});
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
            vec![("GEMINI_PROJECT_DIR".to_owned(), "/p".to_owned())]
        );
    }

    /// Gemini's observed reading of a hook (landscape 1.6), as the Claude
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
                "BeforeTool deny: decision and reason, exit 2",
                ev("BeforeTool"),
                t::permission(Deny, "no"),
                json!({"decision": "deny", "reason": "no"}),
                vec!["no"],
                2,
            ),
            (
                "deny without a reason: an empty line on stderr",
                ev("BeforeTool"),
                t::permission(Deny, ""),
                json!({"decision": "deny"}),
                vec![""],
                2,
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
                "AfterAgent block: a deny, exit 2",
                ev("AfterAgent"),
                t::block("again"),
                json!({"decision": "deny", "reason": "again"}),
                vec!["again"],
                2,
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
}
