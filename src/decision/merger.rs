//! The merge itself: one answer at a time, in config order, into the
//! decision; event-specific parts live in `tool`, `outside`, `fields` and
//! `failure`.

use serde_json::{Map, Value};

use super::model::{ClosedBy, Decision, Input, Permission};
use super::rewrite::merge_rewrites;
use crate::answer::{Failure, Outcome, js_trim};
use crate::events::Family;

/// The merge in progress: the decision so far and what it still needs
/// (permission reasons, rewrites) to finish.
pub(super) struct Merger<'a> {
    pub(super) event: &'a str,
    pub(super) family: Family,
    pub(super) fields: &'a Map<String, Value>,
    pub(super) d: Decision,
    pub(super) perm_reasons: Vec<(Permission, String)>,
    pub(super) rewrites: Vec<(String, Map<String, Value>)>,
}

impl<'a> Merger<'a> {
    /// An empty merge for one event.
    pub(super) fn new(event: &'a str, family: Family, fields: &'a Map<String, Value>) -> Self {
        Merger {
            event,
            family,
            fields,
            d: Decision::default(),
            perm_reasons: Vec::new(),
            rewrites: Vec::new(),
        }
    }

    /// Merges one answer. `closed`: what makes a failure of this hook block,
    /// if anything.
    pub(super) fn one(&mut self, input: &Input<'_>, closed: Option<ClosedBy>) {
        let a = input.answer;
        if let Some(failure) = &a.failure {
            if let Some(by) = closed
                && a.outcome != Outcome::Blocking
            {
                let mut reason = match (by, failure) {
                    // Claude Code's wording, read by the model.
                    (ClosedBy::OnFailure, Failure::TimedOut { .. }) => format!(
                        "[{}]: timed out; blocking because onFailure is \"block\"",
                        input.label
                    ),
                    (ClosedBy::OnFailure, _) => format!(
                        "[{}]: failed; blocking because onFailure is \"block\"",
                        input.label
                    ),
                    (ClosedBy::FailMode, _) => format!(
                        "[{}]: {}; blocking because fail_mode is \"closed\"",
                        input.name,
                        failure.describe()
                    ),
                };
                if let (ClosedBy::OnFailure, Some(note)) = (by, input.on_failure_note) {
                    reason.push_str(note);
                }
                let err = js_trim(&a.stderr);
                if !err.is_empty() && !matches!(failure, Failure::TimedOut { .. }) {
                    reason.push('\n');
                    reason.push_str(err);
                } else if let (ClosedBy::OnFailure, Failure::Handler { message }) = (by, failure) {
                    // A handler that is not a process has no stderr: why
                    // it failed is its message.
                    reason.push('\n');
                    reason.push_str(message);
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
            self.d.plain_contexts += 1;
        }
        if let Some(ctx) = hso.and_then(|h| nonempty(h.get("additionalContext"))) {
            self.d.contexts.push(ctx);
        }
        // Gemini's model events' fields (see `dialect::gemini`).
        if let Some(fields) = json
            .and_then(|j| j.get("model_fields"))
            .and_then(Value::as_object)
        {
            self.pass_through(Some(fields));
        }
        match self.family {
            Family::PreTool => self.pre_tool(input, json, hso),
            Family::PermissionRequest => self.permission_request(input, hso),
            Family::Generic if self.event == "PreModelSwitch" => self.pre_tool(input, json, hso),
            Family::SessionStart | Family::Generic => {
                // Nothing here can be blocked: an exit 2 is shown, not lost.
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
            Family::Outside => {}
        }
    }

    /// Records a block. On events that cannot block it becomes a notice.
    pub(super) fn block(&mut self, permission: Permission, reason: String) {
        if !can_block(self.family, self.event) {
            self.d.system_messages.push(reason);
            return;
        }
        match self.family {
            // PreToolUse-like, and PreModelSwitch (the one Generic event
            // that can block): a permission among the others.
            Family::PreTool | Family::Generic => self.perm_reasons.push((permission, reason)),
            Family::PermissionRequest => {
                let request = self.d.request.get_or_insert_with(Map::new);
                if request.get("behavior").and_then(Value::as_str) != Some("deny") {
                    request.clear();
                    request.insert("behavior".into(), "deny".into());
                    self.d.reasons.clear();
                }
                self.d.reasons.push(reason);
            }
            _ => {
                if self.event == "ConfigChange"
                    && self.fields.get("source").and_then(Value::as_str) == Some("policy_settings")
                {
                    return;
                }
                self.d.blocked = true;
                self.d.reasons.push(reason);
            }
        }
    }

    /// Last in config order wins; a change of an already set value is
    /// reported.
    pub(super) fn set_specific(&mut self, key: &str, value: Value, by: &str) {
        if let Some(prev) = self.d.specific.insert(key.to_owned(), value.clone())
            && prev != value
        {
            self.d.diagnostics.push(format!(
                "several hooks set `{key}`; {by}, later in config order, wins"
            ));
        }
    }

    pub(super) fn finish(mut self) -> Decision {
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

/// Whether a block on this event does anything in Claude Code: on the
/// others it is a notice.
pub(super) fn can_block(family: Family, event: &str) -> bool {
    match family {
        Family::PreTool
        | Family::PermissionRequest
        | Family::Prompt
        | Family::Stop
        | Family::PostTool
        | Family::TaskCreated => true,
        Family::Generic => event == "PreModelSwitch",
        Family::Outside => matches!(
            event,
            "PreCompact" | "ConfigChange" | "Elicitation" | "ElicitationResult"
        ),
        Family::SessionStart => false,
    }
}

/// A non-empty string field.
pub(super) fn nonempty(v: Option<&Value>) -> Option<String> {
    v.and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
}
