//! Merging every hook's answer into one decision (spec section 7), pure.
//!
//! Claude Code consumes answers in completion order, so where several hooks
//! compete its result can differ from run to run; hookrun merges in config
//! order, so the same answers always give the same decision:
//!
//! | what | rule |
//! | --- | --- |
//! | permission (PreToolUse) | deny > defer > ask > allow; the reasons of every hook that chose the winner, in config order |
//! | block (Stop, PostToolUse, prompts, ...) | any block blocks; every reason kept, in config order |
//! | PermissionRequest | any deny wins (messages joined, `interrupt` if any asks); else the first allow, with every allow's rewrite |
//! | `continue: false` | wins, with every `stopReason` |
//! | contexts, system messages | all kept, in config order |
//! | rewritten tool input | each hook's keys that differ from the original are applied in config order; a later hook wins a key two hooks change (reported); dropped on deny and defer |
//! | rewritten tool output | the last hook in config order wins (reported when several) |
//! | failures | `fail_mode = "open"`: a notice, no decision; `"closed"`: a block naming the hook and the failure |

use serde::Serialize;
use serde_json::{Map, Value};

use crate::answer::{Answer, Failure, Outcome, js_trim};

mod failure;
mod fields;
mod outside;
mod rewrite;
#[cfg(test)]
mod tests;
mod tool;

use crate::config::FailMode;
use crate::events::Family;
pub use rewrite::merge_rewrites;

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
    fn parse(s: &str) -> Option<Self> {
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

/// One hook's answer with what the merge needs to know about the hook.
#[derive(Debug, Clone)]
pub struct Input<'a> {
    /// The hook's name, or its command.
    pub name: String,
    /// The command as Claude Code quotes it (`[<cmd>]`).
    pub label: String,
    pub fail_mode: FailMode,
    pub answer: &'a Answer,
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
}

impl Decision {
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

/// Merges the answers of one event, in config order.
#[must_use]
pub fn merge(
    event: &str,
    family: Family,
    fields: &Map<String, Value>,
    inputs: &[Input<'_>],
    on_failure_flags: &[bool],
) -> Decision {
    let mut m = Merger {
        event,
        family,
        fields,
        d: Decision::default(),
        perm_reasons: Vec::new(),
        rewrites: Vec::new(),
    };
    for (i, input) in inputs.iter().enumerate() {
        let from_on_failure = on_failure_flags.get(i).copied().unwrap_or(false);
        m.one(input, failure::closed(input, event, from_on_failure));
    }
    m.finish()
}

struct Merger<'a> {
    event: &'a str,
    family: Family,
    fields: &'a Map<String, Value>,
    d: Decision,
    perm_reasons: Vec<(Permission, String)>,
    rewrites: Vec<(String, Map<String, Value>)>,
}

impl Merger<'_> {
    fn one(&mut self, input: &Input<'_>, closed: bool) {
        let a = input.answer;
        if let Some(failure) = &a.failure {
            if closed && a.outcome != Outcome::Blocking {
                let mut reason = format!(
                    "[{}]: {}; blocking because fail_mode is \"closed\"",
                    input.name,
                    failure.describe()
                );
                let err = js_trim(&a.stderr);
                if !err.is_empty() && !matches!(failure, Failure::TimedOut { .. }) {
                    reason.push('\n');
                    reason.push_str(err);
                }
                self.block(Permission::Deny, reason);
                return;
            }
            if a.outcome != Outcome::Blocking {
                self.failure_notice(input, failure);
            }
        }
        if a.outcome == Outcome::Cancelled {
            return;
        }
        if let Some(seq) = a
            .json
            .as_ref()
            .and_then(|j| j.get("terminalSequence"))
            .and_then(Value::as_str)
        {
            self.d.terminal_sequence.push_str(seq);
        }
        if self.family == Family::Outside {
            self.outside(input);
            return;
        }
        let json = a.json.as_ref();
        let hso = json
            .and_then(|j| j.get("hookSpecificOutput"))
            .and_then(Value::as_object);
        if let Some(msg) = json.and_then(|j| nonempty(j.get("systemMessage"))) {
            self.d.system_messages.push(msg);
        }
        if json.and_then(|j| j.get("continue")) == Some(&Value::Bool(false)) {
            self.d.prevent_continuation = true;
            if let Some(r) = json.and_then(|j| nonempty(j.get("stopReason"))) {
                self.d.stop_reasons.push(r);
            }
        }
        if let Some(plain) = a.plain_stdout.as_ref().filter(|p| !p.is_empty())
            && matches!(
                self.event,
                "SessionStart" | "UserPromptSubmit" | "UserPromptExpansion"
            )
        {
            self.d.contexts.push(plain.clone());
        }
        if let Some(ctx) = hso.and_then(|h| nonempty(h.get("additionalContext"))) {
            self.d.contexts.push(ctx);
        }
        match self.family {
            Family::PreTool => self.pre_tool(input, json, hso),
            Family::PermissionRequest => self.permission_request(input, hso),
            Family::SessionStart => {
                if let Some(b) = &a.blocking_error {
                    self.d
                        .system_messages
                        .push(format!("{} hook error: {b}", self.event));
                }
                self.pass_through(hso);
            }
            Family::Prompt | Family::Stop | Family::PostTool | Family::TaskCreated => {
                if let Some(b) = &a.blocking_error {
                    self.block(Permission::Deny, b.clone());
                }
                if self.family == Family::PostTool
                    && let Some(result) = json
                        .and_then(|j| j.get("modified_result"))
                        .filter(|v| !v.is_null())
                    && self.event == "PostToolUse"
                {
                    self.set_specific("updatedToolOutput", result.clone(), &input.name);
                }
                self.pass_through(hso);
            }
            Family::Generic => {
                if self.event == "PreModelSwitch" {
                    self.pre_tool(input, json, hso);
                } else {
                    self.pass_through(hso);
                }
            }
            Family::Outside => {}
        }
    }

    /// Records a block. On families that cannot block it becomes a notice.
    fn block(&mut self, permission: Permission, reason: String) {
        match self.family {
            Family::PreTool => self.perm_reasons.push((permission, reason)),
            Family::Generic if self.event == "PreModelSwitch" => {
                self.perm_reasons.push((permission, reason))
            }
            Family::PermissionRequest => {
                let request = self.d.request.get_or_insert_with(Map::new);
                if request.get("behavior").and_then(Value::as_str) != Some("deny") {
                    request.clear();
                    request.insert("behavior".into(), "deny".into());
                    self.d.reasons.clear();
                }
                self.d.reasons.push(reason);
            }
            Family::Prompt | Family::Stop | Family::PostTool | Family::TaskCreated => {
                self.d.blocked = true;
                self.d.reasons.push(reason);
            }
            Family::Outside
                if matches!(
                    self.event,
                    "PreCompact" | "ConfigChange" | "Elicitation" | "ElicitationResult"
                ) =>
            {
                if self.event == "ConfigChange"
                    && self.fields.get("source").and_then(Value::as_str) == Some("policy_settings")
                {
                    return;
                }
                self.d.blocked = true;
                self.d.reasons.push(reason);
            }
            Family::SessionStart | Family::Generic | Family::Outside => {
                self.d.system_messages.push(reason);
            }
        }
    }

    /// Last in config order wins; a change of an already set value is
    /// reported.
    fn set_specific(&mut self, key: &str, value: Value, by: &str) {
        if let Some(prev) = self.d.specific.insert(key.to_owned(), value.clone())
            && prev != value
        {
            self.d.diagnostics.push(format!(
                "several hooks set `{key}`; {by}, later in config order, wins"
            ));
        }
    }

    fn finish(mut self) -> Decision {
        let mut d = self.d;
        if (matches!(self.family, Family::PreTool) || self.event == "PreModelSwitch")
            && let Some(winner) = self.perm_reasons.iter().map(|(p, _)| *p).max()
        {
            d.permission = Some(winner);
            d.blocked = winner == Permission::Deny;
            d.reasons = self
                .perm_reasons
                .drain(..)
                .filter(|(p, r)| *p == winner && !r.is_empty())
                .map(|(_, r)| r)
                .collect();
        }
        if let Some(request) = &d.request {
            d.blocked = request.get("behavior").and_then(Value::as_str) == Some("deny");
            d.permission = Some(if d.blocked {
                Permission::Deny
            } else {
                Permission::Allow
            });
        }
        let rewrites_apply = !matches!(d.permission, Some(Permission::Deny | Permission::Defer));
        if !self.rewrites.is_empty() && rewrites_apply {
            let original = self
                .fields
                .get("tool_input")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default();
            let (merged, conflicts) = merge_rewrites(&original, &self.rewrites);
            d.diagnostics.extend(conflicts.iter().cloned());
            d.system_messages.extend(conflicts);
            if let Some(request) = d.request.as_mut() {
                request.insert("updatedInput".into(), Value::Object(merged));
            } else {
                d.updated_input = Some(merged);
            }
        }
        d
    }
}

fn nonempty(v: Option<&Value>) -> Option<String> {
    v.and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
}
