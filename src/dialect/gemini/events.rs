//! Gemini CLI's event names and the model's: a leaf, read by the dialect,
//! its settings writer and the converter.

/// Gemini event names and hookrun's.
pub(crate) const EVENTS: &[(&str, &str)] = &[
    ("BeforeTool", "PreToolUse"),
    ("AfterTool", "PostToolUse"),
    ("BeforeAgent", "UserPromptSubmit"),
    ("AfterAgent", "Stop"),
    ("PreCompress", "PreCompact"),
    ("BeforeModel", "BeforeModel"),
    ("AfterModel", "AfterModel"),
    ("BeforeToolSelection", "BeforeToolSelection"),
];
