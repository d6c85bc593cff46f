//! GitHub Copilot CLI's event names and the model's: a leaf, read by the
//! dialect and by the config reader.

/// Copilot event names and hookrun's.
pub(crate) const EVENTS: &[(&str, &str)] = &[
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
    ("preCompact", "PreCompact"),
];
