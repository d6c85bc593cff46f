//! The merged decision as the deputy result the R adapter constructs:
//!
//! ```json
//! {"result": "HookResultPreToolUse", "args": {"permission": "deny", "reason": "…"},
//!  "unsupported": [], "messages": []}
//! ```
//!
//! `result` names deputy's constructor and `args` its named arguments;
//! `null` means the adapter returns `NULL`. An allow is `null` too: deputy
//! stops at the first hook that returns anything, an allow included, which
//! hookrun's allow does not mean. What deputy cannot carry is never dropped
//! in silence: each such part of the answer is a sentence in
//! `unsupported`, which the adapter warns with (and denies on under its
//! closed mode). `messages` are for the user: hooks' `systemMessage`s and
//! hookrun's notices.

use serde_json::{Map, Value, json};

use crate::decision::{Decision, Permission};
use crate::events::Family;
use crate::rendered::Rendered;

/// What deputy receives, built up per event.
#[derive(Default)]
struct Answer {
    result: Option<&'static str>,
    args: Map<String, Value>,
    unsupported: Vec<String>,
}

impl Answer {
    fn arg(&mut self, key: &str, value: impl Into<Value>) {
        self.args.insert(key.into(), value.into());
    }

    fn lost(&mut self, what: String) {
        self.unsupported.push(what);
    }
}

/// Renders the decision for deputy's `event`.
#[must_use]
pub(super) fn render(event: &str, family: Family, d: &Decision, notices: &[String]) -> Rendered {
    let reason = d.reasons.join("\n");
    let mut a = Answer::default();
    match event {
        "PreToolUse" => pre_tool_use(&mut a, d, &reason),
        "PermissionRequest" => permission_request(&mut a, d, &reason),
        "PostToolUse" => post_tool_use(&mut a, d, &reason),
        // `continue: false` wins over a block (Claude Code's rule): the run
        // ends as it stands.
        "Stop" if d.blocked && !d.prevent_continuation => {
            a.result = Some("HookResultStop");
            a.arg("message", reason.clone());
        }
        "PreCompact" if d.blocked => {
            a.result = Some("HookResultPreCompact");
            a.arg("continue", false);
        }
        _ => {}
    }
    if a.result.is_none() {
        ignored(&mut a, event, family, d, &reason);
    }
    if !d.compaction_text.is_empty() {
        a.lost(format!(
            "deputy's PreCompact takes no compaction instructions: {:?} was not passed on",
            d.compaction_text.join("\n\n")
        ));
    }
    for key in d.specific.keys() {
        if event == "PostToolUse" && is_output_rewrite(key) {
            continue;
        }
        a.lost(format!(
            "deputy has no counterpart of `hookSpecificOutput.{key}`: it was not passed on"
        ));
    }
    let mut messages: Vec<String> = notices.to_vec();
    messages.extend(d.system_messages.iter().cloned());
    let out = json!({
        "result": a.result,
        "args": a.args,
        "unsupported": a.unsupported,
        "messages": messages,
    });
    let stderr = crate::dialect::shared::notice_lines(notices.iter().chain(&d.diagnostics));
    Rendered {
        stdout: out.to_string(),
        stderr,
        exit_code: 0,
    }
}

fn is_output_rewrite(key: &str) -> bool {
    matches!(key, "updatedToolOutput" | "updatedMCPToolOutput")
}

fn pre_tool_use(a: &mut Answer, d: &Decision, reason: &str) {
    let deny = d.permission == Some(Permission::Deny);
    if let Some(p @ (Permission::Ask | Permission::Defer)) = d.permission {
        let what = if p == Permission::Ask {
            "ask the user about"
        } else {
            "defer"
        };
        let why = if reason.is_empty() {
            String::new()
        } else {
            format!("; the reason was {reason:?}")
        };
        a.lost(format!(
            "deputy cannot {what} a PreToolUse call (it runs after deputy's permission \
             policy): the call goes ahead{why}"
        ));
    }
    if d.updated_input.is_some() && !deny {
        a.lost(
            "deputy cannot rewrite a tool's input: the call runs with its original input".into(),
        );
    }
    if !(deny || d.prevent_continuation || !d.contexts.is_empty()) {
        return;
    }
    a.result = Some("HookResultPreToolUse");
    a.arg("permission", if deny { "deny" } else { "allow" });
    if deny && !reason.is_empty() {
        a.arg("reason", reason);
    }
    continuation(a, d);
    contexts(a, &d.contexts);
}

fn permission_request(a: &mut Answer, d: &Decision, reason: &str) {
    let Some(request) = &d.request else {
        return;
    };
    match request.get("behavior").and_then(Value::as_str) {
        Some("deny") => {
            a.result = Some("PermissionResultDeny");
            a.arg(
                "reason",
                if reason.is_empty() {
                    "Permission denied by hook"
                } else {
                    reason
                },
            );
            if request.get("interrupt") == Some(&Value::Bool(true)) {
                a.arg("interrupt", true);
            }
        }
        Some("allow") => {
            a.result = Some("PermissionResultAllow");
            if d.updated_input.is_some() {
                a.lost(
                    "deputy cannot rewrite a tool's input: the allowed call runs with its \
                     original input"
                        .into(),
                );
            }
            if request.contains_key("updatedPermissions") {
                a.lost(
                    "deputy's PermissionResultAllow takes no permission updates: \
                     `updatedPermissions` was not applied"
                        .into(),
                );
            }
        }
        _ => {}
    }
    if d.prevent_continuation {
        a.lost("deputy cannot stop a run from a PermissionRequest hook: `continue: false` was not carried".into());
    }
}

fn post_tool_use(a: &mut Answer, d: &Decision, reason: &str) {
    let output = d
        .specific
        .iter()
        .find(|(k, _)| is_output_rewrite(k))
        .map(|(_, v)| v.clone());
    let mut feedback = d.contexts.clone();
    if d.blocked && !reason.is_empty() {
        // Claude Code shows a PostToolUse block's reason to the model;
        // deputy's way to tell the model is additional context.
        feedback.insert(0, reason.to_owned());
    }
    if !(d.prevent_continuation || !feedback.is_empty() || output.is_some()) {
        return;
    }
    a.result = Some("HookResultPostToolUse");
    continuation(a, d);
    contexts(a, &feedback);
    if let Some(output) = output {
        a.arg("updated_tool_output", output);
        a.lost(
            "deputy cannot change what the model sees of a tool's output: the rewritten output \
             only reaches deputy's `tool_end` event; the model has the original"
                .into(),
        );
    }
}

/// `continue = FALSE` and the stop reason, on results that carry them.
fn continuation(a: &mut Answer, d: &Decision) {
    if d.prevent_continuation {
        a.arg("continue", false);
        if !d.stop_reasons.is_empty() {
            a.arg("stop_reason", d.stop_reasons.join("\n"));
        }
    }
}

fn contexts(a: &mut Answer, contexts: &[String]) {
    if !contexts.is_empty() {
        a.arg("additional_context", contexts.join("\n"));
    }
}

/// On events whose result deputy ignores (or where this answer has no
/// result), whatever the hooks decided is listed as not carried.
fn ignored(a: &mut Answer, event: &str, family: Family, d: &Decision, reason: &str) {
    let cannot = |what: &str| format!("deputy ignores what {event} hooks return: {what}");
    // A run that stops or ends loses nothing to `continue: false`.
    let ending = matches!(event, "Stop" | "SessionEnd") && d.prevent_continuation;
    if d.blocked && !ending && event != "PostToolUse" {
        let what = match family {
            Family::Stop => "the block that would keep it working",
            Family::Prompt => "the block that would reject the prompt",
            _ => "the block",
        };
        a.lost(cannot(&format!("{what} ({reason:?}) was not carried")));
    }
    if d.prevent_continuation && !ending && !matches!(event, "PreToolUse" | "PostToolUse") {
        a.lost(cannot("`continue: false` was not carried; the run goes on"));
    }
    if !d.contexts.is_empty() && !matches!(event, "PreToolUse" | "PostToolUse") {
        a.lost(cannot(&format!(
            "the additional context ({:?}) was not passed on",
            d.contexts.join("\n")
        )));
    }
}

/// hookrun's own block for an event it could not read: no constructor
/// fits an event it does not know, so the block is a sentence in
/// `unsupported` (the adapter warns with it, and denies under its closed
/// mode) and the error a message for the user.
#[must_use]
pub(super) fn unread_block(message: &str) -> Rendered {
    let reason = format!("hookrun: {message}");
    let out = json!({
        "result": null,
        "args": {},
        "unsupported": [format!(
            "hookrun could not read the event, so no deputy result could carry its block: {reason}"
        )],
        "messages": [reason],
    });
    Rendered {
        stdout: out.to_string(),
        stderr: vec![format!("hookrun: error: {message}")],
        exit_code: 0,
    }
}
