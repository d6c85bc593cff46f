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
use crate::config::FailMode;
use crate::events::Family;

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

/// Whether a failing hook blocks: `fail_mode = "closed"`, except where it
/// came from Claude Code's `onFailure`, which Claude Code ignores on these.
fn closed(input: &Input<'_>, event: &str, from_on_failure: bool) -> bool {
    input.fail_mode == FailMode::Closed
        && !(from_on_failure
            && matches!(
                event,
                "Stop" | "SubagentStop" | "TaskCompleted" | "TeammateIdle"
            ))
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
        m.one(input, closed(input, event, from_on_failure));
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

    fn failure_notice(&mut self, input: &Input<'_>, failure: &Failure) {
        let a = input.answer;
        // Claude Code's own text where it has one (non-blocking status code,
        // JSON problems); hookrun's, naming the failure kind, elsewhere.
        let text = match failure {
            Failure::TimedOut { .. } => {
                format!(
                    "hook `{}` {}; its answer was discarded",
                    input.name,
                    failure.describe()
                )
            }
            Failure::ExitCode { .. }
            | Failure::InvalidJson { .. }
            | Failure::WrongEventName { .. } => {
                let notice = a.notice.clone().unwrap_or_else(|| failure.describe());
                format!(
                    "{} hook error: `{}` {}: {notice}",
                    self.event,
                    input.name,
                    failure.describe()
                )
            }
            _ => {
                let err = js_trim(&a.stderr);
                let mut text = format!(
                    "{} hook error: `{}` {}",
                    self.event,
                    input.name,
                    failure.describe()
                );
                if !err.is_empty() {
                    text.push_str(": ");
                    text.push_str(err.lines().next().unwrap_or(err));
                }
                text
            }
        };
        // A hook that printed valid JSON on a non-0/2 exit is honoured and
        // not shown as an error by Claude Code; keep it out of the notices.
        if a.json.is_some() && matches!(failure, Failure::ExitCode { .. }) {
            self.d.diagnostics.push(text);
        } else if self.event == "SessionEnd" {
            self.d.diagnostics.push(format!(
                "SessionEnd hook [{}] failed: {}",
                input.label,
                failure.describe()
            ));
        } else {
            self.d.system_messages.push(text);
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

    fn pre_tool(
        &mut self,
        input: &Input<'_>,
        json: Option<&Map<String, Value>>,
        hso: Option<&Map<String, Value>>,
    ) {
        let a = input.answer;
        let reason = hso.and_then(|h| nonempty(h.get("permissionDecisionReason")));
        let decision = if let Some(b) = &a.blocking_error {
            self.perm_reasons.push((Permission::Deny, b.clone()));
            Some(Permission::Deny)
        } else {
            let p = hso
                .and_then(|h| h.get("permissionDecision"))
                .and_then(Value::as_str)
                .or_else(|| json.and_then(|j| j.get("decision")).and_then(Value::as_str))
                .and_then(Permission::parse);
            if let Some(p) = p {
                self.perm_reasons.push((p, reason.unwrap_or_default()));
            }
            p
        };
        if self.family != Family::PreTool
            || matches!(decision, Some(Permission::Deny | Permission::Defer))
        {
            return;
        }
        let rewrite = hso
            .and_then(|h| h.get("updatedInput"))
            .or_else(|| json.and_then(|j| j.get("modified_args")))
            .and_then(Value::as_object);
        if let Some(r) = rewrite {
            self.rewrites.push((input.name.clone(), r.clone()));
        }
    }

    fn permission_request(&mut self, input: &Input<'_>, hso: Option<&Map<String, Value>>) {
        let Some(decision) = hso
            .and_then(|h| h.get("decision"))
            .and_then(Value::as_object)
        else {
            return;
        };
        match decision.get("behavior").and_then(Value::as_str) {
            Some("deny") => {
                let message = nonempty(decision.get("message"))
                    .unwrap_or_else(|| "Permission denied by hook".into());
                self.block(Permission::Deny, message);
                if decision.get("interrupt") == Some(&Value::Bool(true))
                    && let Some(r) = self.d.request.as_mut()
                {
                    r.insert("interrupt".into(), Value::Bool(true));
                }
            }
            Some("allow") => {
                let request = self.d.request.get_or_insert_with(Map::new);
                if request.get("behavior").and_then(Value::as_str) == Some("deny") {
                    return;
                }
                request.insert("behavior".into(), "allow".into());
                if let Some(perms) = decision.get("updatedPermissions").and_then(Value::as_array) {
                    let list = request
                        .entry("updatedPermissions")
                        .or_insert_with(|| Value::Array(Vec::new()));
                    if let Value::Array(l) = list {
                        l.extend(perms.iter().cloned());
                    }
                }
                if let Some(r) = decision.get("updatedInput").and_then(Value::as_object) {
                    self.rewrites.push((input.name.clone(), r.clone()));
                }
            }
            _ => {}
        }
    }

    /// Event-specific fields other than decisions and contexts.
    fn pass_through(&mut self, hso: Option<&Map<String, Value>>) {
        let Some(hso) = hso else { return };
        for (key, value) in hso {
            match key.as_str() {
                "hookEventName"
                | "additionalContext"
                | "permissionDecision"
                | "permissionDecisionReason"
                | "updatedInput"
                | "decision" => {}
                "watchPaths" => {
                    let list = self
                        .d
                        .specific
                        .entry("watchPaths")
                        .or_insert_with(|| Value::Array(Vec::new()));
                    if let (Value::Array(l), Value::Array(new)) = (list, value) {
                        for p in new {
                            if !l.contains(p) {
                                l.push(p.clone());
                            }
                        }
                    }
                }
                "reloadSkills" | "suppressOriginalPrompt" | "retry" => {
                    let any = self
                        .d
                        .specific
                        .get(key)
                        .and_then(Value::as_bool)
                        .unwrap_or(false);
                    self.d.specific.insert(
                        key.clone(),
                        Value::Bool(any || value.as_bool().unwrap_or(false)),
                    );
                }
                "initialUserMessage" | "classifierContext" => {
                    if let Some(text) = value.as_str().filter(|s| !s.is_empty()) {
                        let joined = match self.d.specific.get(key).and_then(Value::as_str) {
                            Some(prev) => format!("{prev}\n{text}"),
                            None => text.to_owned(),
                        };
                        self.d.specific.insert(key.clone(), Value::String(joined));
                    }
                }
                _ => self.set_specific(key, value.clone(), "a hook"),
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

    /// The outside-REPL executor's reading (spec 7.8).
    fn outside(&mut self, input: &Input<'_>) {
        let a = input.answer;
        if self.event == "Notification" {
            return;
        }
        let json = a.json.as_ref();
        let status = a.status.unwrap_or(1);
        let json_block =
            json.and_then(|j| j.get("decision")).and_then(Value::as_str) == Some("block");
        let blocked = status == 2 || json_block;
        let output = if json_block {
            json.and_then(|j| nonempty(j.get("reason")))
                .unwrap_or_else(|| a.stderr.clone())
        } else if status == 0 {
            a.raw_stdout.clone()
        } else {
            a.stderr.clone()
        };
        if let Some(msg) = json.and_then(|j| nonempty(j.get("systemMessage")))
            && matches!(self.event, "CwdChanged" | "FileChanged" | "DirectoryAdded")
        {
            self.d.system_messages.push(msg);
        }
        let hso = json
            .and_then(|j| j.get("hookSpecificOutput"))
            .and_then(Value::as_object);
        match self.event {
            "PreCompact" | "ConfigChange" if blocked => {
                let reason = if self.event == "PreCompact" {
                    format!("[{}]: {output}", input.label)
                } else {
                    output.clone()
                };
                self.block(Permission::Deny, reason);
            }
            "PreCompact" => {
                let text = js_trim(&a.raw_stdout);
                if status == 0 && !text.is_empty() {
                    self.d.compaction_text.push(text.to_owned());
                }
            }
            "Elicitation" | "ElicitationResult" => {
                let decline =
                    hso.and_then(|h| h.get("action")).and_then(Value::as_str) == Some("decline");
                if blocked || decline {
                    self.block(
                        Permission::Deny,
                        if output.is_empty() {
                            "declined by hook".into()
                        } else {
                            output.clone()
                        },
                    );
                } else if let Some(h) = hso
                    && h.contains_key("action")
                    && !self.d.specific.contains_key("action")
                {
                    for key in ["action", "content"] {
                        if let Some(v) = h.get(key) {
                            self.d.specific.insert(key.into(), v.clone());
                        }
                    }
                }
            }
            "WorktreeCreate"
                if status == 0 && !blocked && !self.d.specific.contains_key("worktreePath") =>
            {
                let path = hso
                    .and_then(|h| nonempty(h.get("worktreePath")))
                    .or_else(|| last_line(&a.raw_stdout));
                if let Some(p) = path {
                    self.d
                        .specific
                        .insert("worktreePath".into(), Value::String(p));
                }
            }
            "CwdChanged" | "FileChanged" => self.pass_through(hso),
            _ => {}
        }
        if status != 0 && !blocked && a.failure.is_none() {
            self.d
                .system_messages
                .push(format!("[{}] failed: {output}", input.label));
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

/// Applies each rewrite's differences from `original` in order. Returns the
/// merged input and a message per key that two hooks changed differently.
#[must_use]
pub fn merge_rewrites(
    original: &Map<String, Value>,
    rewrites: &[(String, Map<String, Value>)],
) -> (Map<String, Value>, Vec<String>) {
    let mut merged = original.clone();
    let mut changed_by: Map<String, Value> = Map::new();
    let mut conflicts = Vec::new();
    for (hook, rewrite) in rewrites {
        let mut changes: Vec<(String, Option<Value>)> = rewrite
            .iter()
            .filter(|(k, v)| original.get(k.as_str()) != Some(v))
            .map(|(k, v)| (k.clone(), Some(v.clone())))
            .collect();
        changes.extend(
            original
                .keys()
                .filter(|k| !rewrite.contains_key(k.as_str()))
                .map(|k| (k.clone(), None)),
        );
        for (key, value) in changes {
            let current = merged.get(&key).cloned();
            if let Some(Value::String(earlier)) = changed_by.get(&key)
                && current != value
            {
                conflicts.push(format!(
                        "hooks `{earlier}` and `{hook}` both rewrite `tool_input.{key}`; `{hook}`, later in config order, wins"
                    ));
            }
            changed_by.insert(key.clone(), Value::String(hook.clone()));
            match value {
                Some(v) => {
                    merged.insert(key, v);
                }
                None => {
                    merged.shift_remove(&key);
                }
            }
        }
    }
    (merged, conflicts)
}

fn nonempty(v: Option<&Value>) -> Option<String> {
    v.and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
}

/// The last non-empty line of a text, ANSI escapes removed.
fn last_line(text: &str) -> Option<String> {
    text.lines()
        .rev()
        .map(strip_ansi)
        .find(|l| !l.trim().is_empty())
        .map(|l| l.trim().to_owned())
}

fn strip_ansi(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            if chars.next() == Some('[') {
                for n in chars.by_ref() {
                    if n.is_ascii_alphabetic() {
                        break;
                    }
                }
            }
            continue;
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answer::Outcome;
    use serde_json::json;

    fn answer(json: Value) -> Answer {
        let obj = json.as_object().cloned();
        let blocking = obj.as_ref().and_then(|o| {
            (o.get("hookSpecificOutput")?.get("permissionDecision")? == "deny")
                .then(|| "why".to_owned())
        });
        Answer {
            outcome: if blocking.is_some() {
                Outcome::Blocking
            } else {
                Outcome::Success
            },
            blocking_error: blocking,
            json: obj,
            plain_stdout: None,
            notice: None,
            failure: None,
            status: Some(0),
            raw_stdout: String::new(),
            stderr: String::new(),
        }
    }

    fn decide(p: &str) -> Answer {
        answer(
            json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": p}}),
        )
    }

    fn merge_pre(answers: &[Answer]) -> Decision {
        let inputs: Vec<Input<'_>> = answers
            .iter()
            .enumerate()
            .map(|(i, a)| Input {
                name: format!("h{i}"),
                label: format!("c{i}"),
                fail_mode: FailMode::Open,
                answer: a,
            })
            .collect();
        let fields = json!({"tool_input": {"command": "ls", "description": "d"}});
        merge(
            "PreToolUse",
            Family::PreTool,
            fields.as_object().unwrap(),
            &inputs,
            &[],
        )
    }

    #[test]
    fn precedence_is_independent_of_order() {
        let all = ["allow", "ask", "defer", "deny"];
        for a in all {
            for b in all {
                let one = merge_pre(&[decide(a), decide(b)]).permission;
                let two = merge_pre(&[decide(b), decide(a)]).permission;
                assert_eq!(one, two, "{a} {b}");
                assert_eq!(one, Permission::parse(a).max(Permission::parse(b)));
            }
        }
    }

    #[test]
    fn an_empty_answer_changes_nothing() {
        let d = merge_pre(&[decide("ask"), answer(json!({}))]);
        assert_eq!(d.permission, Some(Permission::Ask));
        assert!(merge_pre(&[answer(json!({}))]).permission.is_none());
    }

    #[test]
    fn rewrites_merge_by_key() {
        let original = json!({"command": "ls", "description": "d"});
        let a = json!({"command": "ls -a", "description": "d"});
        let b = json!({"command": "ls", "description": "d", "timeout": 5});
        let c = json!({"command": "ls -c"});
        let rewrites = vec![
            ("a".to_owned(), a.as_object().unwrap().clone()),
            ("b".to_owned(), b.as_object().unwrap().clone()),
            ("c".to_owned(), c.as_object().unwrap().clone()),
        ];
        let (merged, conflicts) = merge_rewrites(original.as_object().unwrap(), &rewrites);
        assert_eq!(
            Value::Object(merged),
            json!({"command": "ls -c", "timeout": 5})
        );
        assert_eq!(conflicts.len(), 1, "{conflicts:?}");
        assert!(conflicts[0].contains("`a` and `c`"));
    }

    #[test]
    fn closed_failure_blocks_and_open_failure_notifies() {
        let mut failed = answer(json!({}));
        failed.json = None;
        failed.outcome = Outcome::Cancelled;
        failed.failure = Some(Failure::TimedOut { seconds: 2.0 });
        let fields = Map::new();
        let open = [Input {
            name: "g".into(),
            label: "g".into(),
            fail_mode: FailMode::Open,
            answer: &failed,
        }];
        let d = merge("PreToolUse", Family::PreTool, &fields, &open, &[]);
        assert!(d.permission.is_none());
        assert!(d.system_messages[0].contains("timed out after 2s"));
        let closed = [Input {
            fail_mode: FailMode::Closed,
            ..open[0].clone()
        }];
        let d = merge("PreToolUse", Family::PreTool, &fields, &closed, &[]);
        assert_eq!(d.permission, Some(Permission::Deny));
        assert!(d.reasons[0].starts_with("[g]: timed out after 2s; blocking"));
        // Claude Code ignores onFailure on Stop.
        let d = merge("Stop", Family::Stop, &fields, &closed, &[true]);
        assert!(!d.blocked);
    }
}
