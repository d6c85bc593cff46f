//! A built-in guard's verdict as the answer JSON a command hook would
//! print for it, in hookrun's model (Claude Code's hook output): the
//! pipeline reads it with the one classifier, so a built-in merges,
//! reports and audits exactly like the equivalent script. The guards only
//! conclude; which keys say so for which event is known here.

use serde_json::{Map, Value, json};

use crate::builtin::{Builtin, Mode};
use hookrun_guards::Verdict;

/// The answer JSON a command hook would print for this verdict (its exit
/// status is 0), and, in warn mode, the report instead of the act. `tool`
/// is the tool's name: an MCP tool's output is replaced under its own key.
#[must_use]
pub fn verdict_json(
    b: &Builtin,
    label: &str,
    event: &str,
    tool: &str,
    verdict: &Verdict,
) -> Option<Map<String, Value>> {
    let warn = b.mode == Mode::Warn;
    let obj = match verdict {
        Verdict::Pass | Verdict::Failed(_) => return None,
        Verdict::Deny(why) if warn => {
            json!({"systemMessage": format!("[{label}] would block (mode = \"warn\"): {why}")})
        }
        Verdict::Rewrite { count, .. } if warn => {
            json!({"systemMessage": format!("[{label}] would redact {count} secret(s) in the tool output (mode = \"warn\")")})
        }
        Verdict::Deny(why) => {
            let reason = format!("[{label}] {why}");
            match event {
                "PreToolUse" | "PreSkillShellCommand" => json!({"hookSpecificOutput": {
                    "hookEventName": event, "permissionDecision": "deny", "permissionDecisionReason": reason}}),
                "PermissionRequest" => json!({"hookSpecificOutput": {
                    "hookEventName": event, "decision": {"behavior": "deny", "message": reason}}}),
                _ => json!({"decision": "block", "reason": reason}),
            }
        }
        Verdict::Rewrite { output, .. } => {
            let field = if tool.to_ascii_lowercase().starts_with("mcp__") {
                "updatedMCPToolOutput"
            } else {
                "updatedToolOutput"
            };
            json!({"hookSpecificOutput": {"hookEventName": event, field: output}})
        }
    };
    obj.as_object().cloned()
}

/// The answer JSON of a judgement that blocks (a prompt or agent hook's
/// `ok: false`), `reason` worded as Claude Code words it; with
/// `end_turn`, the turn also ends there (`continue: false`, its reason).
#[must_use]
pub(crate) fn judged_json(event: &str, reason: &str, end_turn: Option<&str>) -> Value {
    let mut obj = match event {
        "PreToolUse" | "PreSkillShellCommand" => json!({"hookSpecificOutput": {
            "hookEventName": event, "permissionDecision": "deny", "permissionDecisionReason": reason}}),
        "PermissionRequest" => json!({"hookSpecificOutput": {
            "hookEventName": event, "decision": {"behavior": "deny", "message": reason}}}),
        _ => json!({"decision": "block", "reason": reason}),
    };
    if let (Some(stop), Some(map)) = (end_turn, obj.as_object_mut()) {
        map.insert("continue".into(), Value::Bool(false));
        map.insert("stopReason".into(), Value::String(stop.to_owned()));
    }
    obj
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::verdict_json;
    use crate::builtin::{Builtin, Mode};
    use hookrun_guards::Verdict;

    #[test]
    fn an_mcp_tools_output_is_replaced_under_its_own_key() {
        let b = Builtin::new("redact-secrets", Value::Null, Mode::Enforce).expect("built-in");
        let v = Verdict::Rewrite {
            output: json!("[REDACTED:x]"),
            count: 1,
        };
        for (tool, key) in [
            ("Bash", "updatedToolOutput"),
            ("mcp__db__query", "updatedMCPToolOutput"),
        ] {
            let json = verdict_json(&b, "g", "PostToolUse", tool, &v).expect("an answer");
            assert_eq!(
                json["hookSpecificOutput"],
                json!({"hookEventName": "PostToolUse", key: "[REDACTED:x]"}),
                "{tool}"
            );
        }
    }
}
