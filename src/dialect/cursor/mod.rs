//! Cursor. Events in lowerCamelCase, with dedicated
//! shell, MCP and file events, and Tab's own file read and edit (as the
//! tool `Tab`); answers `permission` + `user_message` /
//! `agent_message` (+ `updated_input` on preToolUse), `continue` on
//! `beforeSubmitPrompt`, `followup_message` on `stop`, `additional_context`
//! on `sessionStart`/`postToolUse`. Exit 2 denies; other non-zero exits are
//! errors (fail open unless the hook fails closed).

use serde_json::{Map, Value, json};

use super::protocol::Reading;
use crate::answer::Answer;
use crate::decision::{Decision, Permission};
use crate::event::Event;
use crate::events::Family;
use crate::exec::{HookRun, RunStatus};
use crate::rendered::Rendered;

pub(crate) mod events;

pub(crate) use events::EVENTS;

#[must_use]
pub(crate) fn normalize(mut obj: Map<String, Value>) -> (Option<String>, Map<String, Value>) {
    let (given, name) = super::shared::mapped_name(&obj, EVENTS);
    let take = |obj: &Map<String, Value>, k: &str| obj.get(k).cloned().unwrap_or(Value::Null);
    match given.as_str() {
        "beforeShellExecution" | "afterShellExecution" => {
            obj.insert("tool_name".into(), "Shell".into());
            obj.insert(
                "tool_input".into(),
                json!({"command": take(&obj, "command"), "cwd": take(&obj, "cwd")}),
            );
            if given == "afterShellExecution" {
                obj.insert("tool_response".into(), take(&obj, "output"));
            }
        }
        "beforeReadFile" => {
            obj.insert("tool_name".into(), "Read".into());
            obj.insert(
                "tool_input".into(),
                json!({"file_path": take(&obj, "file_path")}),
            );
        }
        // Tab's own events: as a read and an edit by a tool named `Tab`,
        // so that `if` rules and guards see the file.
        "beforeTabFileRead" => {
            obj.insert("tool_name".into(), "Tab".into());
            obj.insert(
                "tool_input".into(),
                json!({"file_path": take(&obj, "file_path"), "content": take(&obj, "content")}),
            );
        }
        "afterTabFileEdit" => {
            obj.insert("tool_name".into(), "Tab".into());
            obj.insert(
                "tool_input".into(),
                json!({"file_path": take(&obj, "file_path"), "edits": take(&obj, "edits")}),
            );
        }
        "afterFileEdit" => {
            obj.insert("tool_name".into(), "Edit".into());
            obj.insert(
                "tool_input".into(),
                json!({"file_path": take(&obj, "file_path"), "edits": take(&obj, "edits")}),
            );
            obj.insert("tool_response".into(), json!({}));
        }
        "beforeMCPExecution" | "afterMCPExecution" => {
            if let Some(Value::String(s)) = obj.get("tool_input").cloned() {
                obj.insert(
                    "tool_input".into(),
                    serde_json::from_str(&s).unwrap_or(Value::String(s)),
                );
            }
            if given == "afterMCPExecution" {
                obj.insert("tool_response".into(), take(&obj, "result_json"));
            }
        }
        // Cursor names the tool's output `tool_output`.
        "postToolUse" if !obj.contains_key("tool_response") => {
            if let Some(output) = obj.get("tool_output").cloned() {
                obj.insert("tool_response".into(), output);
            }
        }
        "stop" => {
            let looping = obj.get("loop_count").and_then(Value::as_u64).unwrap_or(0) > 0;
            obj.insert("stop_hook_active".into(), Value::Bool(looping));
        }
        _ => {}
    }
    if !obj.contains_key("cwd") {
        if let Some(root) = obj.get("workspace_roots").and_then(|r| r.get(0)).cloned() {
            obj.insert("cwd".into(), root);
        }
    }
    obj.insert("hook_event_name".into(), Value::String(name.clone()));
    (Some(name), obj)
}

/// Cursor's reading of one hook, translated into a Claude-shaped answer.
#[must_use]
pub(crate) fn classify(event: &str, label: &str, run: &HookRun) -> Answer {
    let stdout = String::from_utf8_lossy(&run.stdout.bytes).into_owned();
    let stderr = String::from_utf8_lossy(&run.stderr.bytes).into_owned();
    match run.status {
        RunStatus::Exited(2) => {
            let reason = if stderr.trim().is_empty() {
                stdout.trim()
            } else {
                stderr.trim()
            };
            return super::shared::answer_from_json(event, label, run, &block(event, reason), 0);
        }
        RunStatus::Exited(0) => {}
        _ => return crate::answer::classify(event, label, run),
    }
    let Ok(Value::Object(obj)) = serde_json::from_str::<Value>(stdout.trim()) else {
        if stdout.trim().is_empty() {
            return super::shared::answer_from_json(event, label, run, &json!({}), 0);
        }
        // Cursor: non-JSON stdout is a parse error (fail open).
        let mut synthetic = run.clone();
        synthetic.status = RunStatus::Exited(1);
        return crate::answer::classify(event, label, &synthetic);
    };
    let message = obj
        .get("agent_message")
        .or_else(|| obj.get("user_message"))
        .and_then(Value::as_str)
        .unwrap_or("");
    let mut out = match obj.get("permission").and_then(Value::as_str) {
        Some("deny") => block(event, message),
        Some(p @ ("allow" | "ask")) if event == "PreToolUse" => {
            json!({"hookSpecificOutput": {"hookEventName": event, "permissionDecision": p, "permissionDecisionReason": message}})
        }
        _ => json!({}),
    };
    if let Some(input) = obj.get("updated_input").filter(|v| v.is_object()) {
        if event == "PreToolUse" {
            out["modified_args"] = input.clone();
        }
    }
    if obj.get("continue") == Some(&Value::Bool(false)) {
        out = block(event, message);
    }
    if let Some(f) = obj
        .get("followup_message")
        .and_then(Value::as_str)
        .filter(|f| !f.is_empty())
    {
        if event == "Stop" {
            out = block(event, f);
        }
    }
    if let Some(ctx) = obj.get("additional_context").and_then(Value::as_str) {
        if crate::schema::has_variant(event) {
            if out.get("hookSpecificOutput").is_none() {
                out["hookSpecificOutput"] = json!({"hookEventName": event});
            }
            out["hookSpecificOutput"]["additionalContext"] = Value::String(ctx.to_owned());
        }
    }
    super::shared::answer_from_json(event, label, run, &out, 0)
}

fn block(event: &str, reason: &str) -> Value {
    let reason = if reason.is_empty() {
        "Blocked by hook"
    } else {
        reason
    };
    if event == "PreToolUse" {
        json!({"hookSpecificOutput": {"hookEventName": event, "permissionDecision": "deny", "permissionDecisionReason": reason}})
    } else {
        json!({"decision": "block", "reason": reason})
    }
}

/// The merged decision in the shape of the Cursor event that came in.
/// What Cursor's event has no field for is said on stderr, never dropped:
/// a context outside `sessionStart`/`postToolUse`, a replaced tool output,
/// a block after the tool ran.
#[must_use]
pub(crate) fn render(
    event: &crate::event::Event,
    family: Family,
    d: &Decision,
    notices: &[String],
) -> Rendered {
    let reason = d.reasons.join("\n");
    let caller = event.caller_event.as_str();
    let mut out = json!({});
    let mut all: Vec<String> = notices.to_vec();
    let mut contexts = d.contexts.clone();
    match (caller, family) {
        ("beforeSubmitPrompt", _) => {
            out["continue"] = Value::Bool(!d.blocked && !d.prevent_continuation);
            if d.blocked {
                out["user_message"] = Value::String(reason.clone());
            }
        }
        ("stop", _) | ("subagentStop", _) if d.blocked => {
            out["followup_message"] = Value::String(reason.clone());
        }
        (_, Family::PreTool) => {
            if let Some(p) = d.permission {
                let p = match p {
                    Permission::Allow => "allow",
                    Permission::Deny => "deny",
                    Permission::Ask | Permission::Defer => "ask",
                };
                out["permission"] = Value::String(p.into());
                if !reason.is_empty() {
                    out["user_message"] = Value::String(reason.clone());
                    out["agent_message"] = Value::String(reason.clone());
                }
            }
            if caller == "preToolUse" && d.permission != Some(Permission::Deny) {
                if let Some(input) = &d.updated_input {
                    out["updated_input"] = Value::Object(input.clone());
                }
            }
        }
        // The tool has run: Cursor's exit 2 (a deny) has nothing left to
        // refuse. Claude Code shows a PostToolUse block's reason to the
        // model; Cursor's way to tell it is postToolUse's context.
        (_, Family::PostTool) if d.blocked => {
            if caller == "postToolUse" {
                contexts.insert(0, reason.clone());
            } else {
                all.push(format!(
                    "Cursor takes no answer from {caller}: the PostToolUse block ({reason:?}) did not reach the model"
                ));
            }
        }
        _ => {}
    }
    if !contexts.is_empty() {
        let context = contexts.join("\n");
        if matches!(caller, "sessionStart" | "postToolUse") {
            out["additional_context"] = Value::String(context);
        } else {
            all.push(format!(
                "Cursor's {caller} takes no additional context: {context:?} was not passed on"
            ));
        }
    }
    all.extend(super::shared::output_not_replaced("Cursor", d));
    let code =
        if d.blocked && family != Family::PostTool && !matches!(caller, "stop" | "subagentStop") {
            2
        } else {
            0
        };
    all.extend(d.system_messages.iter().cloned());
    super::shared::rendered(&out, code, Some(&reason), &all)
}

/// Cursor: recognised by its own event names.
pub(crate) struct Cursor;

impl super::protocol::Protocol for Cursor {
    fn setup(&self) -> Option<&'static super::setup::Setup> {
        Some(&SETUP)
    }

    fn id(&self) -> crate::agent::Dialect {
        crate::agent::Dialect::Cursor
    }

    fn hooks_file_writer(&self) -> Option<super::protocol::HooksFileWriter> {
        Some(super::flat_hooks::toml_to_cursor)
    }

    fn detects(&self, obj: &Map<String, Value>) -> bool {
        let name = obj
            .get("hook_event_name")
            .and_then(Value::as_str)
            .unwrap_or("");
        EVENTS.iter().any(|(c, _)| *c == name)
    }

    fn normalize(&self, obj: Map<String, Value>) -> (Option<String>, Map<String, Value>) {
        normalize(obj)
    }

    fn classify(&self, event: &str, label: &str, run: &HookRun, _: &Reading) -> Answer {
        classify(event, label, run)
    }

    fn unread_block(&self, message: &str) -> Rendered {
        // Permission events read `permission`, beforeSubmitPrompt
        // `continue`; exit 2 denies on any of them.
        let reason = format!("hookrun: {message}");
        let mut r = super::protocol::plain_block(message);
        r.stdout = json!({
            "permission": "deny",
            "continue": false,
            "user_message": reason,
            "agent_message": reason,
        })
        .to_string();
        r
    }

    fn render(&self, event: &Event, family: Family, d: &Decision, notices: &[String]) -> Rendered {
        render(event, family, d, notices)
    }
}

#[cfg(test)]
mod tests;

/// Cursor blocks its permission events and its prompt (the ones whose
/// answer can stop something; a `stop` or a post-tool answer cannot) on a
/// failed hook under `failClosed: true`.
fn fail_closed(model_event: &str) -> Option<(&'static str, Value)> {
    matches!(model_event, "PreToolUse" | "UserPromptSubmit")
        .then(|| ("failClosed", Value::Bool(true)))
}

/// What `install`, `doctor` and `check` know of Cursor.
pub(crate) const SETUP: super::setup::Setup = super::setup::Setup {
    name: "Cursor",
    tested: super::setup::Tested {
        program: "cursor-agent",
        versions: &[],
        how: super::setup::How::Fixtures,
        basis: "fixtures written from Cursor's hooks documentation; no version of `cursor-agent` has run them",
    },
    events: super::setup::Events::Renamed {
        table: events::EVENTS,
        same: &[],
    },
    file: super::setup::HooksFile {
        typed: false,
        ..super::setup::HooksFile::LISTED
    },
    places: PLACES,
    fail_closed,
    // Hooks run in the workspace root; no project variable.
    project_anchor: None,
    tool_names: &[("@shell", &["Shell"])],
    quirks: super::setup::Quirks {
        // Cursor loads Claude Code's settings files too.
        also_runs: Some(crate::agent::Agent::Claude),
        ..super::setup::Quirks::NONE
    },
    launch: LAUNCH,
    reads: READS,
    canary_payload,
};

/// How Cursor starts a hook's command: `sh -c` in the workspace root,
/// with no project variable (the payload's `workspace_roots` names it).
pub(crate) const LAUNCH: super::canary::Launch = super::canary::Launch {
    shell: super::canary::Shell::BinSh,
    project_vars: &[],
    substituted: &[],
    cwd: super::canary::Cwd::Project,
};

/// Cursor denies on exit 2 or `permission: "deny"`; it takes no replaced
/// tool output.
pub(crate) const READS: super::canary::Reads = super::canary::Reads {
    exit_2_needs_stderr: false,
    replaced_output: None,
};

/// A canary event as Cursor sends it.
pub(crate) fn canary_payload(f: &super::canary::Fired<'_>) -> Option<Value> {
    let (tool, input) = super::canary::tool(f, ("Shell", "Read"), "file_path");
    let mut v = json!({
        "conversation_id": "hookrun-doctor",
        "generation_id": "hookrun-doctor",
        "workspace_roots": [f.cwd],
        "cwd": f.cwd,
        "hook_event_name": f.agent_event,
        "tool_name": tool,
        "tool_input": input,
    });
    if let Some(out) = f.output {
        v["tool_output"] = Value::String(out.to_owned());
    }
    Some(v)
}

/// Where Cursor keeps its hooks: `~/.cursor/hooks.json` and
/// `<project>/.cursor/hooks.json`, and Claude Code's user, project and
/// local settings, which Cursor loads too (its "Third-party skills"
/// setting); Cursor's own files rank above Claude Code's, and the
/// machine's enterprise file, `/etc/cursor/hooks.json`, above all. (Team
/// hooks come from Cursor's dashboard, with no file on the machine.)
const PLACES: super::setup::Places = super::setup::Places {
    user: super::setup::UserFile {
        var: None,
        home_dir: ".cursor",
        file: "hooks.json",
    },
    project: ".cursor/hooks.json",
    local: None,
    reads: |project, homes| {
        crate::dirs::claude_settings(project, homes)
            .chain(
                [
                    homes.dir(None, ".cursor").map(|d| d.join("hooks.json")),
                    Some(project.join(".cursor/hooks.json")),
                    Some(std::path::PathBuf::from(MANAGED[0])),
                ]
                .into_iter()
                .flatten()
                .map(crate::dirs::HookPlace::File),
            )
            .collect()
    },
    managed: MANAGED,
};

/// The machine's enterprise hooks file (see [`PLACES`]).
const MANAGED: &[&str] = &["/etc/cursor/hooks.json"];
