//! deputy's hook events: a leaf, read by the dialect and by `config events`.
//!
//! deputy names its events as Claude Code does, so each maps to itself;
//! `PostModelRequest` is the one hookrun's model knows only from deputy.

/// The events deputy fires (its hook document's table), in that order.
pub(crate) const EVENTS: &[&str] = &[
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PostModelRequest",
    "PermissionRequest",
    "SessionStart",
    "UserPromptSubmit",
    "Stop",
    "SessionEnd",
    "SubagentStart",
    "SubagentStop",
    "PreCompact",
    "PostCompact",
    "Notification",
    "ConfigChange",
];

/// Whether deputy fires an event of hookrun's model.
#[must_use]
pub(crate) fn fires(event: &str) -> bool {
    EVENTS.contains(&event)
}
