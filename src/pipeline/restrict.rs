//! The answer of a hook from an untrusted project file, cut down to what
//! adds a guard (see `config::untrusted`). The cut is an allow-list: a key
//! hookrun does not know to be a guard is dropped, so that a field added
//! later (by an agent, or by hookrun) is never a way around the rule.

use serde_json::{Map, Value};

use crate::answer::Answer;

/// Keeps, in place, what only adds a guard: a block (exit 2, `decision:
/// "block"` / `"deny"`), a `deny` / `ask` / `defer` permission with its
/// reason, `continue: false` with its `stopReason`, a PermissionRequest
/// deny, an Elicitation decline, `systemMessage` and `additionalContext`.
/// Returns the names of what was dropped (`allow`, `updatedInput`, ...),
/// for the notice.
#[must_use]
pub(super) fn restrict(answer: &mut Answer, event: &str) -> Vec<String> {
    let mut dropped = Vec::new();
    if let Some(json) = answer.json.as_mut() {
        restrict_top(json, &mut dropped);
    }
    if event == "WorktreeCreate" && !answer.raw_stdout.trim().is_empty() {
        // The last line of stdout is the worktree's path.
        answer.raw_stdout.clear();
        dropped.push("the worktree path".to_owned());
    }
    dropped
}

fn restrict_top(json: &mut Map<String, Value>, dropped: &mut Vec<String>) {
    json.retain(|key, value| {
        let keep = match key.as_str() {
            "continue" => value == &Value::Bool(false),
            "decision" => matches!(value.as_str(), Some("block" | "deny")),
            "stopReason" | "systemMessage" | "reason" | "hookSpecificOutput" => true,
            _ => false,
        };
        if !keep {
            dropped.push(describe(key, value));
        }
        keep
    });
    if let Some(Value::Object(hso)) = json.get_mut("hookSpecificOutput") {
        hso.retain(|key, value| {
            let keep = match key.as_str() {
                "hookEventName" | "additionalContext" | "permissionDecisionReason" => true,
                "permissionDecision" => matches!(value.as_str(), Some("deny" | "ask" | "defer")),
                "action" => value.as_str() == Some("decline"),
                "decision" => denies(value),
                _ => false,
            };
            if !keep {
                dropped.push(describe(key, value));
            }
            keep
        });
        if let Some(Value::Object(d)) = hso.get_mut("decision") {
            // A deny carries only its message and `interrupt`.
            d.retain(|k, _| matches!(k.as_str(), "behavior" | "message" | "interrupt"));
        }
    }
}

/// A PermissionRequest decision that denies.
fn denies(decision: &Value) -> bool {
    decision.get("behavior").and_then(Value::as_str) == Some("deny")
}

/// `permissionDecision: "allow"` names its value, which is what matters.
fn describe(key: &str, value: &Value) -> String {
    match value.as_str() {
        Some(v) if matches!(key, "permissionDecision" | "decision") => format!("`{key}: {v}`"),
        _ => format!("`{key}`"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn cut(value: Value) -> (Value, Vec<String>) {
        let mut json = value.as_object().cloned().unwrap_or_default();
        let mut dropped = Vec::new();
        restrict_top(&mut json, &mut dropped);
        (Value::Object(json), dropped)
    }

    #[test]
    fn allow_and_rewrites_are_dropped_guards_kept() {
        let (kept, dropped) = cut(json!({
            "continue": true,
            "suppressOutput": true,
            "systemMessage": "s",
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "allow",
                "permissionDecisionReason": "r",
                "updatedInput": {"command": "true"},
                "additionalContext": "c"
            }
        }));
        assert_eq!(
            kept,
            json!({"systemMessage": "s", "hookSpecificOutput": {
                "hookEventName": "PreToolUse", "permissionDecisionReason": "r", "additionalContext": "c"}})
        );
        assert_eq!(
            dropped,
            [
                "`continue`",
                "`suppressOutput`",
                "`permissionDecision: allow`",
                "`updatedInput`"
            ]
        );
    }

    #[test]
    fn denials_stay_whole() {
        let deny = json!({"decision": "block", "reason": "no", "continue": false,
            "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}});
        assert_eq!(cut(deny.clone()), (deny, vec![]));
        let (kept, dropped) = cut(
            json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest",
                "decision": {"behavior": "deny", "message": "m", "updatedInput": {}}}}),
        );
        assert_eq!(
            kept["hookSpecificOutput"]["decision"],
            json!({"behavior": "deny", "message": "m"})
        );
        assert!(dropped.is_empty());
        let (_, dropped) = cut(
            json!({"hookSpecificOutput": {"decision": {"behavior": "allow"}}, "decision": "approve"}),
        );
        assert_eq!(dropped, ["`decision: approve`", "`decision`"]);
    }
}
