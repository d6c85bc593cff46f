//! The catalogue of hook events: what each one is called, which event field
//! its matcher is tested against, its default timeout, and which family of
//! consequences in Claude Code its answers have.
//!
//! Everything event-specific that the rest of the pipeline needs to know is a
//! lookup here, so that adding an event is one table row, not a hunt through
//! the matcher, the merge and the renderer.

use std::time::Duration;

/// How Claude Code acts on the answers of an event's hooks.
/// The merge and the renderer switch on this, never on event names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// PreToolUse, PreSkillShellCommand: allow / deny / ask / defer, rewrites.
    PreTool,
    /// PermissionRequest: only `hookSpecificOutput.decision` counts.
    PermissionRequest,
    /// UserPromptSubmit, UserPromptExpansion: a block rejects the prompt;
    /// Gemini CLI's BeforeModel and AfterModel: a block aborts the turn.
    Prompt,
    /// SessionStart, Setup, SubagentStart: nothing blocks.
    SessionStart,
    /// Stop, SubagentStop, TeammateIdle, TaskCompleted: a block keeps working.
    Stop,
    /// PostToolUse, PostToolUseFailure, PostToolBatch: a block is feedback.
    PostTool,
    /// TaskCreated: a block deletes the task; `continue` is ignored.
    TaskCreated,
    /// Other events run by Claude Code's main executor (PermissionDenied,
    /// PreModelSwitch, MessageDisplay, ...): answers pass through.
    Generic,
    /// Events of Claude Code's "outside-REPL" executor (Notification,
    /// SessionEnd, PreCompact, ConfigChange, ...): blocked = exit 2 or
    /// `decision: "block"`, a successful hook's raw stdout is the output.
    Outside,
}

/// Which characters a matcher may use to be read as a list of exact names
/// in Claude Code: the wide set also allows `,`, ` ` and `-`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameSet {
    Wide,
    Narrow,
}

/// One row of the catalogue.
#[derive(Debug)]
pub struct EventInfo {
    pub name: &'static str,
    /// The event field the matcher is tested against; `None` = no matcher.
    pub query_field: Option<&'static str>,
    pub names: NameSet,
    pub family: Family,
    /// Default timeout in milliseconds for hooks that set none.
    pub default_timeout_ms: u64,
    /// Whether `if` rules can be evaluated (tool events only).
    pub tool_event: bool,
}

const LONG: u64 = 600_000;

macro_rules! ev {
    ($name:literal, $query:expr, $names:ident, $family:ident, $timeout:expr, $tool:expr) => {
        EventInfo {
            name: $name,
            query_field: $query,
            names: NameSet::$names,
            family: Family::$family,
            default_timeout_ms: $timeout,
            tool_event: $tool,
        }
    };
}

/// Every event of Claude Code 2.1.332.
pub(crate) static EVENTS: &[EventInfo] = &[
    ev!("PreToolUse", Some("tool_name"), Wide, PreTool, LONG, true),
    ev!(
        "PermissionRequest",
        Some("tool_name"),
        Wide,
        PermissionRequest,
        LONG,
        true
    ),
    ev!("PostToolUse", Some("tool_name"), Wide, PostTool, LONG, true),
    ev!(
        "PostToolUseFailure",
        Some("tool_name"),
        Wide,
        PostTool,
        LONG,
        true
    ),
    ev!(
        "PermissionDenied",
        Some("tool_name"),
        Wide,
        Generic,
        LONG,
        true
    ),
    ev!("PostToolBatch", None, Narrow, PostTool, LONG, false),
    ev!("UserPromptSubmit", None, Narrow, Prompt, 30_000, false),
    ev!(
        "UserPromptExpansion",
        Some("command_name"),
        Wide,
        Prompt,
        LONG,
        false
    ),
    ev!(
        "SessionStart",
        Some("source"),
        Wide,
        SessionStart,
        LONG,
        false
    ),
    ev!("Setup", Some("trigger"), Wide, SessionStart, LONG, false),
    ev!(
        "SubagentStart",
        Some("agent_type"),
        Wide,
        SessionStart,
        LONG,
        false
    ),
    ev!("SubagentStop", Some("agent_type"), Wide, Stop, LONG, false),
    ev!("Stop", None, Narrow, Stop, LONG, false),
    ev!("TeammateIdle", None, Narrow, Stop, LONG, false),
    ev!("TaskCreated", None, Narrow, TaskCreated, LONG, false),
    ev!("TaskCompleted", None, Narrow, Stop, LONG, false),
    ev!("MessageDisplay", None, Narrow, Generic, 10_000, false),
    ev!(
        "PreModelSwitch",
        Some("to_model"),
        Wide,
        Generic,
        LONG,
        false
    ),
    ev!(
        "PostModelSwitch",
        Some("to_model"),
        Wide,
        Generic,
        LONG,
        false
    ),
    ev!(
        "PreSkillShellCommand",
        Some("tool_name"),
        Wide,
        PreTool,
        LONG,
        true
    ),
    ev!(
        "Notification",
        Some("notification_type"),
        Wide,
        Outside,
        LONG,
        false
    ),
    ev!("PreCompact", Some("trigger"), Wide, Outside, LONG, false),
    ev!("PostCompact", Some("trigger"), Wide, Outside, LONG, false),
    ev!("SessionEnd", Some("reason"), Wide, Outside, 1_500, false),
    ev!("StopFailure", Some("error"), Narrow, Outside, LONG, false),
    ev!("ConfigChange", Some("source"), Wide, Outside, LONG, false),
    ev!(
        "InstructionsLoaded",
        Some("load_reason"),
        Wide,
        Outside,
        LONG,
        false
    ),
    ev!("DirectoryAdded", Some("source"), Wide, Outside, LONG, false),
    ev!(
        "Elicitation",
        Some("mcp_server_name"),
        Wide,
        Outside,
        LONG,
        false
    ),
    ev!(
        "ElicitationResult",
        Some("mcp_server_name"),
        Wide,
        Outside,
        LONG,
        false
    ),
    ev!("CwdChanged", None, Narrow, Outside, LONG, false),
    ev!(
        "FileChanged",
        Some("file_path"),
        Narrow,
        Outside,
        LONG,
        false
    ),
    ev!("WorktreeCreate", None, Narrow, Outside, LONG, false),
    ev!("WorktreeRemove", None, Narrow, Outside, LONG, false),
];

/// Events only another agent sends, under names hookrun keeps as they are
/// (Gemini CLI's model events): none of them has a matcher
/// field (Gemini runs their hooks whatever the matcher says).
pub(crate) static AGENT_ONLY: &[EventInfo] = &[
    ev!("BeforeModel", None, Narrow, Prompt, 60_000, false),
    ev!("AfterModel", None, Narrow, Prompt, 60_000, false),
    ev!("BeforeToolSelection", None, Narrow, Generic, 60_000, false),
    // deputy's, after each model request of a run; deputy ignores its
    // hooks' results.
    ev!("PostModelRequest", None, Narrow, Generic, LONG, false),
    // Qwen Code's: after a session is deleted (its hooks' output is never
    // read), and as a todo item is added or completed (a block keeps it
    // from being so, with the reason for the model).
    ev!("SessionDelete", None, Narrow, Outside, 60_000, false),
    ev!("TodoCreated", None, Narrow, TaskCreated, 60_000, false),
    ev!("TodoCompleted", None, Narrow, TaskCreated, 60_000, false),
    // Codex's, when the user interrupts a turn: it reads only a
    // `systemMessage` and cannot be blocked; its hooks get a second.
    ev!("Interrupt", None, Narrow, Generic, 1_000, false),
    // Cursor's, after the agent's thinking and its reply (text only; their
    // hooks' output is not read), and its Tab completions' file read (which
    // a `permission: "deny"` refuses) and file edit (not answered).
    ev!("AfterAgentThought", None, Narrow, Generic, LONG, false),
    ev!("AfterAgentResponse", None, Narrow, Generic, LONG, false),
    ev!("BeforeTabFileRead", None, Narrow, PreTool, LONG, true),
    ev!("AfterTabFileEdit", None, Narrow, Generic, LONG, true),
];

/// pydantic-deep's lifecycle events, which keep their own names (their
/// hooks run, matchers and answers ignored).
pub(crate) static PYDANTIC_LIFECYCLE: &[&str] = &[
    "before_run",
    "after_run",
    "run_error",
    "before_model_request",
    "after_model_request",
    "model_fallback_triggered",
];

/// The catalogue row for an event's canonical (Claude Code) name.
#[must_use]
pub fn info(name: &str) -> Option<&'static EventInfo> {
    EVENTS.iter().find(|e| e.name == name)
}

/// The catalogue row for an event any supported agent sends: Claude Code's,
/// or one only another agent has (`AGENT_ONLY`).
#[must_use]
pub(crate) fn known(name: &str) -> Option<&'static EventInfo> {
    info(name).or_else(|| AGENT_ONLY.iter().find(|e| e.name == name))
}

/// The known event nearest to a misspelt name.
#[must_use]
pub(crate) fn nearest(name: &str) -> Option<&'static str> {
    crate::suggest::nearest(name, EVENTS.iter().map(|e| e.name))
}

/// Maps pydantic-deep's snake_case tool-event names to Claude Code's, so a
/// config may name events either way (`pre_tool_use` = `PreToolUse`).
#[must_use]
pub(crate) fn canonical_name(name: &str) -> &str {
    match name {
        "pre_tool_use" => "PreToolUse",
        "post_tool_use" => "PostToolUse",
        "post_tool_use_failure" => "PostToolUseFailure",
        other => other,
    }
}

/// The value the matcher is tested against for this event, if the event has a
/// matcher field. FileChanged matches on the basename of `file_path`; a
/// missing or non-string field reads as the empty string, as in JavaScript.
#[must_use]
pub(crate) fn query_value(
    info: &EventInfo,
    event: &serde_json::Map<String, serde_json::Value>,
) -> Option<String> {
    let field = info.query_field?;
    let raw = event
        .get(field)
        .and_then(serde_json::Value::as_str)
        .unwrap_or("");
    if info.name == "FileChanged" {
        return Some(raw.rsplit('/').next().unwrap_or(raw).to_owned());
    }
    if info.name == "PreModelSwitch" || info.name == "PostModelSwitch" {
        return Some(raw.replace("[1m]", ""));
    }
    Some(raw.to_owned())
}

/// Whether Claude Code runs `http` handlers on this event: not on
/// SessionStart and Setup, which it answers before a session can reach a
/// server (it skips them there with a log line).
#[must_use]
pub(crate) fn runs_http(name: &str) -> bool {
    !matches!(name, "SessionStart" | "Setup")
}

/// The default timeout of a hook on an event hookrun knows, else Claude
/// Code's general default of 600 s.
#[must_use]
pub(crate) fn default_timeout(name: &str) -> Duration {
    Duration::from_millis(info(name).map_or(LONG, |i| i.default_timeout_ms))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalogue_has_every_spec_event_once() {
        assert_eq!(EVENTS.len(), 34);
        for e in EVENTS {
            assert_eq!(
                EVENTS.iter().filter(|o| o.name == e.name).count(),
                1,
                "{}",
                e.name
            );
        }
    }

    #[test]
    fn snake_case_names_map_to_the_model_names() {
        assert_eq!(canonical_name("pre_tool_use"), "PreToolUse");
        assert_eq!(
            canonical_name("post_tool_use_failure"),
            "PostToolUseFailure"
        );
        assert_eq!(canonical_name("Stop"), "Stop");
    }

    #[test]
    fn file_changed_matches_the_basename() {
        let info = info("FileChanged").unwrap();
        let ev = serde_json::json!({"file_path": "/a/b/.envrc"});
        assert_eq!(
            query_value(info, ev.as_object().unwrap()).as_deref(),
            Some(".envrc")
        );
    }
}
