//! Claude Code's hook-output schema (2.1.332), as data.
//!
//! Used to validate each hook's JSON answer exactly as Claude Code does (an
//! answer that fails is a non-blocking error, not a decision), and in tests
//! to check that hookrun's own output is valid for the event.

use serde_json::{Map, Value};

#[derive(Debug, Clone, Copy)]
enum Kind {
    Str,
    Bool,
    Obj,
    Any,
    StrList,
    Enum(&'static [&'static str]),
    RequestDecision,
}

use Kind::{Any, Bool, Enum, Obj, Str, StrList};

const TOP_LEVEL: &[(&str, Kind)] = &[
    ("continue", Bool),
    ("stopReason", Str),
    ("suppressOutput", Bool),
    ("decision", Enum(&["approve", "block"])),
    ("reason", Str),
    ("systemMessage", Str),
    ("terminalSequence", Str),
    ("hookSpecificOutput", Obj),
];

const PRE_TOOL: &[(&str, Kind)] = &[
    (
        "permissionDecision",
        Enum(&["allow", "deny", "ask", "defer"]),
    ),
    ("permissionDecisionReason", Str),
    ("updatedInput", Obj),
    ("additionalContext", Str),
];
const CONTEXT_ONLY: &[(&str, Kind)] = &[("additionalContext", Str)];
const ACTIONS: &[(&str, Kind)] = &[
    ("action", Enum(&["accept", "decline", "cancel"])),
    ("content", Obj),
];

/// The `hookSpecificOutput` variant of an event, if it has one.
fn variant(event: &str) -> Option<&'static [(&'static str, Kind)]> {
    Some(match event {
        "PreToolUse" | "PreSkillShellCommand" => PRE_TOOL,
        "UserPromptSubmit" => &[
            ("additionalContext", Str),
            ("sessionTitle", Str),
            ("suppressOriginalPrompt", Bool),
        ],
        "UserPromptExpansion" => &[("additionalContext", Str), ("suppressOriginalPrompt", Bool)],
        "SessionStart" => &[
            ("additionalContext", Str),
            ("initialUserMessage", Str),
            ("sessionTitle", Str),
            ("watchPaths", StrList),
            ("reloadSkills", Bool),
        ],
        "Setup" | "SubagentStart" | "PostModelSwitch" | "PostToolUseFailure" | "PostToolBatch"
        | "Stop" | "SubagentStop" | "Notification" => CONTEXT_ONLY,
        "PreModelSwitch" => &[
            ("permissionDecision", Enum(&["allow", "deny", "ask"])),
            ("permissionDecisionReason", Str),
        ],
        "PostToolUse" => &[
            ("additionalContext", Str),
            ("classifierContext", Str),
            ("updatedToolOutput", Any),
            ("updatedMCPToolOutput", Any),
        ],
        "PermissionDenied" => &[("retry", Bool)],
        "PermissionRequest" => &[("decision", Kind::RequestDecision)],
        "Elicitation" | "ElicitationResult" => ACTIONS,
        "CwdChanged" | "FileChanged" => &[("watchPaths", StrList)],
        "WorktreeCreate" => &[("worktreePath", Str)],
        "MessageDisplay" => &[("displayContent", Str)],
        _ => return None,
    })
}

/// Whether an event has a `hookSpecificOutput` variant.
#[must_use]
pub(crate) fn has_variant(event: &str) -> bool {
    variant(event).is_some()
}

fn required(event: &str) -> &'static [&'static str] {
    match event {
        "PermissionRequest" => &["decision"],
        "WorktreeCreate" => &["worktreePath"],
        _ => &[],
    }
}

fn type_error(value: &Value, kind: Kind) -> Option<String> {
    let ok = match kind {
        Any => true,
        Str => value.is_string(),
        Bool => value.is_boolean(),
        Obj => value.is_object(),
        StrList => value
            .as_array()
            .is_some_and(|a| a.iter().all(Value::is_string)),
        Enum(values) => value.as_str().is_some_and(|s| values.contains(&s)),
        Kind::RequestDecision => return request_decision_error(value),
    };
    if ok {
        return None;
    }
    Some(match kind {
        Str => "expected string".into(),
        Bool => "expected boolean".into(),
        Obj => "expected object".into(),
        StrList => "expected array of strings".into(),
        Enum(values) => format!(
            "expected one of {}",
            values
                .iter()
                .map(|v| format!("\"{v}\""))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Any | Kind::RequestDecision => String::new(),
    })
}

fn request_decision_error(value: &Value) -> Option<String> {
    let Some(obj) = value.as_object() else {
        return Some("expected object".into());
    };
    let checks: &[(&str, Kind)] = match obj.get("behavior").and_then(Value::as_str) {
        Some("allow") => {
            if obj.get("updatedPermissions").is_some_and(|v| !v.is_array()) {
                return Some("updatedPermissions: expected array".into());
            }
            &[("updatedInput", Obj)]
        }
        Some("deny") => &[("message", Str), ("interrupt", Bool)],
        _ => return Some("behavior: expected \"allow\" or \"deny\"".into()),
    };
    checks.iter().find_map(|(key, kind)| {
        obj.get(*key)
            .and_then(|v| type_error(v, *kind))
            .map(|e| format!("{key}: {e}"))
    })
}

/// Validates an answer object. Unknown keys are allowed (Claude Code drops
/// them). The error names the offending path, as Claude Code's does.
///
/// # Errors
/// The first schema violation.
pub(crate) fn validate(obj: &Map<String, Value>) -> Result<(), String> {
    for (key, kind) in TOP_LEVEL {
        if let Some(e) = obj.get(*key).and_then(|v| type_error(v, *kind)) {
            let hint = if *key == "decision"
                && matches!(
                    obj.get(*key).and_then(Value::as_str),
                    Some("allow" | "deny" | "ask")
                ) {
                " (use hookSpecificOutput.permissionDecision for allow, deny and ask)"
            } else {
                ""
            };
            return Err(format!("{key}: {e}{hint}"));
        }
    }
    let Some(hso) = obj.get("hookSpecificOutput").and_then(Value::as_object) else {
        return Ok(());
    };
    let Some(name) = hso.get("hookEventName").and_then(Value::as_str) else {
        return Err("hookSpecificOutput is missing required field \"hookEventName\"".into());
    };
    let Some(fields) = variant(name) else {
        return Err(format!(
            "hookSpecificOutput.hookEventName: no output variant for \"{name}\""
        ));
    };
    if let Some(missing) = required(name).iter().find(|k| !hso.contains_key(**k)) {
        return Err(format!("hookSpecificOutput.{missing}: required"));
    }
    for (key, kind) in fields {
        if let Some(e) = hso.get(*key).and_then(|v| type_error(v, *kind)) {
            return Err(format!("hookSpecificOutput.{key}: {e}"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn check(v: Value) -> Result<(), String> {
        validate(v.as_object().unwrap())
    }

    #[test]
    fn spec_examples() {
        assert!(check(json!({"foo": 1})).is_ok());
        assert!(
            check(json!({"decision": "allow"}))
                .unwrap_err()
                .contains("permissionDecision")
        );
        assert!(check(json!({"continue": "no"})).is_err());
        assert!(
            check(json!({"hookSpecificOutput": {"additionalContext": "x"}}))
                .unwrap_err()
                .contains("hookEventName")
        );
        assert!(check(json!({"hookSpecificOutput": {"hookEventName": "SessionEnd"}})).is_err());
        assert!(
            check(json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest"}})).is_err()
        );
        assert!(check(json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "deny", "message": "m"}}})).is_ok());
        assert!(check(json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}})).is_ok());
    }
}
