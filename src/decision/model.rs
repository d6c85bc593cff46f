//! What the merge reads and produces: one hook's answer with what the merge
//! needs to know about the hook (`Input`), and the merged `Decision`.

use serde::Serialize;
use serde_json::{Map, Value};

use crate::answer::Answer;
use crate::config::FailMode;

/// A permission decision, in increasing precedence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Permission {
    Allow,
    Ask,
    Defer,
    Deny,
}

impl Permission {
    pub(super) fn parse(s: &str) -> Option<Self> {
        match s {
            "allow" | "approve" => Some(Permission::Allow),
            "ask" => Some(Permission::Ask),
            "defer" => Some(Permission::Defer),
            "deny" => Some(Permission::Deny),
            _ => None,
        }
    }

    /// The wire name.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Permission::Allow => "allow",
            Permission::Ask => "ask",
            Permission::Defer => "defer",
            Permission::Deny => "deny",
        }
    }
}

/// What makes a failing hook block, which also words the block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ClosedBy {
    /// hookrun's `fail_mode = "closed"`.
    FailMode,
    /// Claude Code's `onFailure: "block"`.
    OnFailure,
}

/// One hook's answer with what the merge needs to know about the hook.
#[derive(Debug, Clone)]
pub struct Input<'a> {
    /// The hook's name, or its command.
    pub name: String,
    /// The command as Claude Code quotes it (`[<cmd>]`).
    pub label: String,
    pub fail_mode: FailMode,
    pub answer: &'a Answer,
    /// What Claude Code adds after `blocking because onFailure is
    /// "block"` for this kind of handler (an MCP tool's: who must act).
    pub on_failure_note: Option<&'static str>,
}

/// The merged result of one event.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Decision {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub permission: Option<Permission>,
    /// Whether the result blocks (deny on PreToolUse and PermissionRequest,
    /// block elsewhere). Events that cannot block never set it.
    pub blocked: bool,
    /// Reasons for the block or the winning permission, in config order.
    pub reasons: Vec<String>,
    /// PermissionRequest: the merged `decision` object.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request: Option<Map<String, Value>>,
    pub contexts: Vec<String>,
    /// How many of `contexts` are a hook's plain stdout (the rest came
    /// from a JSON `additionalContext`): where every one is, Claude Code's
    /// renderer passes them on as plain text, as Claude Code labels plain
    /// stdout differently from `additionalContext`.
    #[serde(skip)]
    pub plain_contexts: usize,
    pub system_messages: Vec<String>,
    pub prevent_continuation: bool,
    pub stop_reasons: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_input: Option<Map<String, Value>>,
    /// Other `hookSpecificOutput` fields, merged (tool output rewrites,
    /// session title, watch paths, ...).
    pub specific: Map<String, Value>,
    /// PreCompact: text appended to the compaction instructions.
    pub compaction_text: Vec<String>,
    /// Lines for hookrun's stderr only (SessionEnd failures, conflicts).
    pub diagnostics: Vec<String>,
    /// `terminalSequence`s, in config order; Claude Code filters them.
    pub terminal_sequence: String,
    /// The exit status of each command hook that ran, in config order (1 for
    /// one killed by a signal, 124 for a timeout): for agents that report
    /// how many hooks failed by their exit status.
    #[serde(skip)]
    pub hook_exit_codes: Vec<i32>,
    /// The `system_messages` that report a failed hook (for agents that
    /// report failures by hookrun's exit status instead).
    #[serde(skip)]
    pub failure_notices: Vec<String>,
}

impl Decision {
    /// The decision in the one set every report uses (metrics, and what is
    /// to come of telemetry and replay): `allow`, `deny`, `ask`, `defer`
    /// (a permission given), `block` (blocked without one: a prompt, a
    /// stop, a post-tool block), `none` (nothing decided).
    #[must_use]
    pub fn outcome(&self) -> &'static str {
        match self.permission {
            Some(Permission::Deny) => "deny",
            Some(Permission::Allow) if !self.blocked => "allow",
            Some(Permission::Ask) if !self.blocked => "ask",
            Some(Permission::Defer) if !self.blocked => "defer",
            _ if self.blocked => "block",
            _ => "none",
        }
    }

    /// The tool input that will run instead of the original, whichever
    /// event carries it (PreToolUse's `updatedInput`, or a
    /// PermissionRequest allow's `decision.updatedInput`).
    #[must_use]
    pub fn rewritten_input(&self) -> Option<&Map<String, Value>> {
        self.updated_input.as_ref().or_else(|| {
            self.request
                .as_ref()
                .and_then(|r| r.get("updatedInput"))
                .and_then(Value::as_object)
        })
    }

    /// One line saying what the decision is, for `explain` and `test`.
    #[must_use]
    pub fn summary(&self) -> String {
        let mut parts = Vec::new();
        match (self.permission, self.blocked, &self.request) {
            (Some(p), _, None) => parts.push(format!("permission {}", p.as_str())),
            (_, _, Some(r)) => parts.push(format!(
                "decision {}",
                r.get("behavior").and_then(Value::as_str).unwrap_or("?")
            )),
            (None, true, None) => parts.push("block".to_owned()),
            (None, false, None) => parts.push("no decision".to_owned()),
        }
        if !self.reasons.is_empty() {
            parts.push(format!("reason {:?}", self.reasons.join("\n")));
        }
        if self.updated_input.is_some() {
            parts.push("rewrites the tool input".to_owned());
        }
        if !self.contexts.is_empty() {
            parts.push(format!("{} context(s)", self.contexts.len()));
        }
        if self.prevent_continuation {
            parts.push("continue: false".to_owned());
        }
        parts.join(", ")
    }
}
