//! GitHub Copilot CLI (landscape section 4): camelCase events and fields
//! (`toolName`, `toolArgs`), answers `permissionDecision` +
//! `permissionDecisionReason`; hook answers are read like Claude Code's.

use serde_json::{Map, Value, json};

use super::protocol::Reading;
use crate::answer::Answer;
use crate::decision::{Decision, Permission};
use crate::event::Event;
use crate::events::Family;
use crate::exec::HookRun;
use crate::rendered::Rendered;

const EVENTS: &[(&str, &str)] = &[
    ("preToolUse", "PreToolUse"),
    ("postToolUse", "PostToolUse"),
    ("userPromptSubmitted", "UserPromptSubmit"),
    ("agentStop", "Stop"),
    ("subagentStop", "SubagentStop"),
    ("sessionStart", "SessionStart"),
    ("sessionEnd", "SessionEnd"),
    ("errorOccurred", "StopFailure"),
    ("permissionRequest", "PermissionRequest"),
    ("notification", "Notification"),
];

/// Copilot's payloads use `toolName` / `toolArgs`, or Copilot-only names.
#[must_use]
pub fn detect(obj: &Map<String, Value>) -> bool {
    let name = obj
        .get("hook_event_name")
        .and_then(Value::as_str)
        .unwrap_or("");
    obj.contains_key("toolName")
        || obj.contains_key("toolArgs")
        || matches!(name, "userPromptSubmitted" | "agentStop" | "errorOccurred")
}

#[must_use]
pub fn normalize(mut obj: Map<String, Value>) -> (Option<String>, Map<String, Value>) {
    let given = obj
        .get("hook_event_name")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let name = given.as_deref().map(|g| {
        EVENTS
            .iter()
            .find(|(c, _)| *c == g)
            .map_or(g.to_owned(), |(_, m)| (*m).to_owned())
    });
    if let Some(tool) = obj.get("toolName").cloned() {
        obj.insert("tool_name".into(), tool);
    }
    match obj.get("toolArgs").cloned() {
        Some(Value::String(s)) => {
            obj.insert(
                "tool_input".into(),
                serde_json::from_str(&s).unwrap_or(json!({"args": s})),
            );
        }
        Some(v) => {
            obj.insert("tool_input".into(), v);
        }
        None => {}
    }
    if let Some(r) = obj.get("toolResult").cloned() {
        obj.insert("tool_response".into(), r);
    }
    if let Some(n) = &name {
        obj.insert("hook_event_name".into(), Value::String(n.clone()));
    }
    (name, obj)
}

/// `permissionDecision` for tool events; exit 2 when it denies.
#[must_use]
pub fn render(
    _event: &crate::event::Event,
    family: Family,
    d: &Decision,
    notices: &[String],
) -> Rendered {
    let reason = d.reasons.join("\n");
    let mut out = json!({});
    if family == Family::PreTool || family == Family::PermissionRequest {
        if let Some(p) = d.permission {
            out["permissionDecision"] = Value::String(
                if p == Permission::Defer {
                    "ask"
                } else {
                    p.as_str()
                }
                .into(),
            );
            if !reason.is_empty() {
                out["permissionDecisionReason"] = Value::String(reason.clone());
            }
        }
        if let Some(input) = &d.updated_input {
            out["modifiedArgs"] = Value::Object(input.clone());
        }
    } else if d.blocked {
        out["decision"] = Value::String("block".into());
        out["reason"] = Value::String(reason.clone());
    }
    if !d.contexts.is_empty() {
        out["additionalContext"] = Value::String(d.contexts.join("\n"));
    }
    let mut all: Vec<String> = notices.to_vec();
    all.extend(d.system_messages.iter().cloned());
    super::shared::rendered(&out, if d.blocked { 2 } else { 0 }, Some(&reason), &all)
}

/// GitHub Copilot CLI.
pub struct Copilot;

impl super::protocol::Protocol for Copilot {
    fn id(&self) -> super::id::Dialect {
        super::id::Dialect::Copilot
    }

    fn detects(&self, obj: &Map<String, Value>) -> bool {
        detect(obj)
    }

    fn normalize(&self, obj: Map<String, Value>) -> (Option<String>, Map<String, Value>) {
        normalize(obj)
    }

    fn classify(&self, event: &str, label: &str, run: &HookRun, _: &Reading) -> Answer {
        crate::answer::classify(event, label, run)
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
    use crate::dialect::testing::{self as t, exited};

    /// Copilot is recognised by its tool fields or its own event names; the
    /// names it shares with Cursor are Cursor's without them.
    #[test]
    fn detect_rows() {
        let rows = [
            (
                "toolName",
                json!({"hook_event_name": "preToolUse", "toolName": "bash"}),
                Dialect::Copilot,
            ),
            (
                "toolArgs alone",
                json!({"hook_event_name": "postToolUse", "toolArgs": "{}"}),
                Dialect::Copilot,
            ),
            (
                "userPromptSubmitted",
                json!({"hook_event_name": "userPromptSubmitted", "prompt": "p"}),
                Dialect::Copilot,
            ),
            (
                "agentStop",
                json!({"hook_event_name": "agentStop"}),
                Dialect::Copilot,
            ),
            (
                "errorOccurred",
                json!({"hook_event_name": "errorOccurred"}),
                Dialect::Copilot,
            ),
            (
                "a tool field with a Claude Code name",
                json!({"hook_event_name": "PreToolUse", "toolName": "bash"}),
                Dialect::Copilot,
            ),
            (
                "preToolUse without Copilot's fields is Cursor's",
                json!({"hook_event_name": "preToolUse", "tool_name": "Shell"}),
                Dialect::Cursor,
            ),
            (
                "sessionStart without Copilot's fields is Cursor's",
                json!({"hook_event_name": "sessionStart"}),
                Dialect::Cursor,
            ),
            (
                "notification without Copilot's fields falls to Claude Code",
                json!({"hook_event_name": "notification"}),
                Dialect::Claude,
            ),
        ];
        let rows: Vec<_> = rows
            .into_iter()
            .map(|(rule, event, dialect)| (rule, event, dialect == Dialect::Copilot, dialect))
            .collect();
        t::check_detects(&Copilot, &rows);
    }

    /// Copilot's names and camelCase fields are mapped into the model; the
    /// caller's own keys stay.
    #[test]
    fn normalize_rows() {
        let rows = [
            (
                "preToolUse: toolName and JSON-text toolArgs",
                json!({"hook_event_name": "preToolUse", "toolName": "bash", "toolArgs": "{\"command\":\"ls\"}"}),
                Some("PreToolUse"),
                json!({"hook_event_name": "PreToolUse", "toolName": "bash", "toolArgs": "{\"command\":\"ls\"}", "tool_name": "bash", "tool_input": {"command": "ls"}}),
            ),
            (
                "toolArgs that is not JSON: kept as `args`",
                json!({"hook_event_name": "preToolUse", "toolName": "bash", "toolArgs": "ls -la"}),
                Some("PreToolUse"),
                json!({"hook_event_name": "PreToolUse", "toolName": "bash", "toolArgs": "ls -la", "tool_name": "bash", "tool_input": {"args": "ls -la"}}),
            ),
            (
                "toolArgs already an object: taken as is",
                json!({"hook_event_name": "preToolUse", "toolName": "edit", "toolArgs": {"path": "a"}}),
                Some("PreToolUse"),
                json!({"hook_event_name": "PreToolUse", "toolName": "edit", "toolArgs": {"path": "a"}, "tool_name": "edit", "tool_input": {"path": "a"}}),
            ),
            (
                "postToolUse: toolResult is the tool response",
                json!({"hook_event_name": "postToolUse", "toolName": "bash", "toolResult": {"resultType": "success"}}),
                Some("PostToolUse"),
                json!({"hook_event_name": "PostToolUse", "toolName": "bash", "toolResult": {"resultType": "success"}, "tool_name": "bash", "tool_response": {"resultType": "success"}}),
            ),
            (
                "userPromptSubmitted is UserPromptSubmit",
                json!({"hook_event_name": "userPromptSubmitted", "prompt": "p"}),
                Some("UserPromptSubmit"),
                json!({"hook_event_name": "UserPromptSubmit", "prompt": "p"}),
            ),
            (
                "agentStop is Stop",
                json!({"hook_event_name": "agentStop"}),
                Some("Stop"),
                json!({"hook_event_name": "Stop"}),
            ),
            (
                "errorOccurred is StopFailure",
                json!({"hook_event_name": "errorOccurred"}),
                Some("StopFailure"),
                json!({"hook_event_name": "StopFailure"}),
            ),
            (
                "an unknown name is kept",
                json!({"hook_event_name": "somethingNew"}),
                Some("somethingNew"),
                json!({"hook_event_name": "somethingNew"}),
            ),
            (
                "no name: none, and none is added",
                json!({"toolName": "bash"}),
                None,
                json!({"toolName": "bash", "tool_name": "bash"}),
            ),
        ];
        for (rule, event, name, fields) in rows {
            assert_eq!(
                Copilot.normalize(t::object(&event)),
                (name.map(str::to_owned), t::object(&fields)),
                "{rule}"
            );
        }
    }

    /// Hooks are read as Claude Code reads them: Copilot's own answer keys
    /// mean nothing there.
    #[test]
    fn classify_rows() {
        let rows = [
            (
                "exit 2: a block with stderr, as Claude Code",
                exited(2, "", "no"),
                json!({"outcome": "blocking", "blocking_error": "[cmd]: no", "status": 2}),
            ),
            (
                "Claude Code's deny: a block",
                exited(
                    0,
                    r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}"#,
                    "",
                ),
                json!({"outcome": "blocking", "blocking_error": "no", "json": {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "no"}}, "status": 0}),
            ),
            (
                "Copilot's top-level permissionDecision: not a decision",
                exited(
                    0,
                    r#"{"permissionDecision":"deny","permissionDecisionReason":"no"}"#,
                    "",
                ),
                json!({"outcome": "success", "json": {"permissionDecision": "deny", "permissionDecisionReason": "no"}, "status": 0}),
            ),
            (
                "exit 1: a non-blocking error",
                exited(1, "", ""),
                json!({"outcome": "non_blocking_error", "notice": "Failed with non-blocking status code: No stderr output", "failure": {"kind": "exit_code", "code": 1}, "status": 1}),
            ),
        ];
        for (rule, run, expected) in rows {
            assert_eq!(
                t::classify(&Copilot, "PreToolUse", &run),
                expected,
                "{rule}"
            );
        }
    }

    /// `permissionDecision` on tool and permission events, a block
    /// elsewhere; exit 2 whenever the decision blocks.
    #[test]
    fn render_rows() {
        use Permission::{Allow, Ask, Defer, Deny};
        let ev = |name: &str| {
            t::event(
                Dialect::Copilot,
                &json!({"hook_event_name": name, "toolName": "bash", "toolArgs": "{\"command\":\"ls\"}"}),
            )
        };
        let rows = [
            (
                "preToolUse deny: decision and reason, the reason on stderr, exit 2",
                ev("preToolUse"),
                t::permission(Deny, "no"),
                json!({"permissionDecision": "deny", "permissionDecisionReason": "no"}),
                vec!["no"],
                2,
            ),
            (
                "preToolUse deny without a reason: an empty line on stderr",
                ev("preToolUse"),
                t::permission(Deny, ""),
                json!({"permissionDecision": "deny"}),
                vec![""],
                2,
            ),
            (
                "preToolUse ask: with its reason, exit 0",
                ev("preToolUse"),
                t::permission(Ask, "sure?"),
                json!({"permissionDecision": "ask", "permissionDecisionReason": "sure?"}),
                vec![],
                0,
            ),
            (
                "preToolUse defer: Copilot has none, so ask",
                ev("preToolUse"),
                t::permission(Defer, ""),
                json!({"permissionDecision": "ask"}),
                vec![],
                0,
            ),
            (
                "preToolUse allow with a rewrite: modifiedArgs",
                ev("preToolUse"),
                t::rewrite(Some(Allow), &json!({"command": "ls -a"})),
                json!({"permissionDecision": "allow", "modifiedArgs": {"command": "ls -a"}}),
                vec![],
                0,
            ),
            (
                "permissionRequest deny: permissionDecision too",
                ev("permissionRequest"),
                Decision {
                    request: json!({"behavior": "deny"}).as_object().cloned(),
                    ..t::permission(Deny, "no")
                },
                json!({"permissionDecision": "deny", "permissionDecisionReason": "no"}),
                vec!["no"],
                2,
            ),
            (
                "agentStop block: decision and reason, exit 2",
                ev("agentStop"),
                t::block("run the tests"),
                json!({"decision": "block", "reason": "run the tests"}),
                vec!["run the tests"],
                2,
            ),
            (
                "context on any event: additionalContext",
                ev("sessionStart"),
                t::context("ctx"),
                json!({"additionalContext": "ctx"}),
                vec![],
                0,
            ),
            (
                "continue: false is not rendered",
                ev("agentStop"),
                t::stop("halt"),
                json!({}),
                vec![],
                0,
            ),
            (
                "system messages go to stderr only",
                ev("agentStop"),
                Decision {
                    system_messages: vec!["from a hook".into()],
                    ..Decision::default()
                },
                json!({}),
                vec!["hookrun: from a hook"],
                0,
            ),
        ];
        t::check_renders(&Copilot, rows);
    }

    /// The caller's notices come before the hooks' system messages.
    #[test]
    fn notices_then_system_messages_on_stderr() {
        let event = t::event(Dialect::Copilot, &json!({"hook_event_name": "agentStop"}));
        let d = Decision {
            system_messages: vec!["from a hook".into()],
            ..t::block("r")
        };
        assert_eq!(
            t::render(&Copilot, &event, &d, &["config notice"]),
            (
                json!({"decision": "block", "reason": "r"}),
                vec![
                    "r".to_owned(),
                    "hookrun: config notice".to_owned(),
                    "hookrun: from a hook".to_owned()
                ],
                2
            )
        );
    }
}
