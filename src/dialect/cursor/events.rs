//! Cursor's event names and the model's: a leaf, read by the dialect and
//! by the config reader.

/// Cursor event names and hookrun's.
pub(crate) const EVENTS: &[(&str, &str)] = &[
    ("preToolUse", "PreToolUse"),
    ("postToolUse", "PostToolUse"),
    ("postToolUseFailure", "PostToolUseFailure"),
    ("beforeShellExecution", "PreToolUse"),
    ("afterShellExecution", "PostToolUse"),
    ("beforeMCPExecution", "PreToolUse"),
    ("afterMCPExecution", "PostToolUse"),
    ("beforeReadFile", "PreToolUse"),
    ("afterFileEdit", "PostToolUse"),
    ("beforeSubmitPrompt", "UserPromptSubmit"),
    ("stop", "Stop"),
    ("sessionStart", "SessionStart"),
    ("sessionEnd", "SessionEnd"),
    ("subagentStart", "SubagentStart"),
    ("subagentStop", "SubagentStop"),
    ("preCompact", "PreCompact"),
    ("afterAgentThought", "AfterAgentThought"),
    ("afterAgentResponse", "AfterAgentResponse"),
    ("beforeTabFileRead", "BeforeTabFileRead"),
    ("afterTabFileEdit", "AfterTabFileEdit"),
];
