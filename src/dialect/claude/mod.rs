//! Claude Code's dialect: the renderer. It turns a decision into exactly
//! what Claude Code must read from a single command hook to act as if it had
//! run every configured hook itself: one JSON object, valid under the
//! event's output schema, carrying the whole result by itself; exit 2 with
//! the reason on stderr when the result blocks. The one exception is
//! PreCompact, where Claude Code appends a successful hook's raw stdout to the
//! compaction instructions: there, unless it blocks, hookrun prints the
//! hooks' text and nothing else.

use serde_json::{Map, Value};

use super::protocol::Reading;
use crate::answer::Answer;
use crate::decision::{Decision, Permission};
use crate::event::Event;
use crate::events::Family;
use crate::exec::HookRun;
use crate::rendered::Rendered;

/// Events whose blocking result Claude Code reads as a block, so hookrun
/// exits 2 with them. Elsewhere a block (Elicitation) travels in the JSON and
/// hookrun exits 0, because exit 2 would mean something else there.
fn exits_2_on_block(event: &str, family: Family) -> bool {
    match family {
        Family::PreTool
        | Family::PermissionRequest
        | Family::Prompt
        | Family::Stop
        | Family::PostTool
        | Family::TaskCreated => true,
        Family::Outside => matches!(event, "PreCompact" | "ConfigChange"),
        Family::SessionStart | Family::Generic => false,
    }
}

/// Renders a decision for `event`.
#[must_use]
pub(crate) fn render(event: &str, family: Family, d: &Decision, notices: &[String]) -> Rendered {
    let reason = d.reasons.join("\n");
    let mut system: Vec<String> = notices.to_vec();
    system.extend(d.system_messages.iter().cloned());
    let mut stderr = crate::dialect::shared::notice_lines(system.iter().chain(&d.diagnostics));

    if event == "PreCompact" && !d.blocked {
        return Rendered {
            stdout: d.compaction_text.join("\n\n"),
            stderr,
            exit_code: 0,
        };
    }

    let mut out = Map::new();
    if d.prevent_continuation {
        out.insert("continue".into(), Value::Bool(false));
        if !d.stop_reasons.is_empty() {
            out.insert(
                "stopReason".into(),
                Value::String(d.stop_reasons.join("\n")),
            );
        }
    }
    let mut hso = Map::new();
    match family {
        Family::PreTool => {
            if let Some(p) = d.permission {
                hso.insert("permissionDecision".into(), p.as_str().into());
                if !reason.is_empty() {
                    hso.insert("permissionDecisionReason".into(), reason.clone().into());
                }
            }
            if let Some(input) = &d.updated_input {
                hso.insert("updatedInput".into(), Value::Object(input.clone()));
            }
        }
        Family::PermissionRequest => {
            if let Some(request) = &d.request {
                let mut request = request.clone();
                if d.blocked && !reason.is_empty() {
                    request.insert("message".into(), reason.clone().into());
                }
                hso.insert("decision".into(), Value::Object(request));
            }
        }
        Family::Generic if event == "PreModelSwitch" => {
            if let Some(p) = d.permission.filter(|p| *p != Permission::Defer) {
                hso.insert("permissionDecision".into(), p.as_str().into());
                if !reason.is_empty() {
                    hso.insert("permissionDecisionReason".into(), reason.clone().into());
                }
            }
        }
        Family::Prompt
        | Family::Stop
        | Family::PostTool
        | Family::TaskCreated
        | Family::Outside
            if d.blocked =>
        {
            out.insert("decision".into(), "block".into());
            out.insert("reason".into(), reason.clone().into());
        }
        _ => {}
    }
    if !d.contexts.is_empty() {
        hso.insert("additionalContext".into(), d.contexts.join("\n").into());
    }
    for (k, v) in &d.specific {
        hso.insert(k.clone(), v.clone());
    }
    if !hso.is_empty() && crate::schema::has_variant(event) {
        let mut with_name = Map::new();
        with_name.insert("hookEventName".into(), event.into());
        with_name.extend(hso);
        keep_schema_fields(event, &mut with_name);
        if with_name.len() > 1 || event == "PermissionRequest" && with_name.contains_key("decision")
        {
            out.insert("hookSpecificOutput".into(), Value::Object(with_name));
        }
    }
    if !system.is_empty() {
        out.insert("systemMessage".into(), system.join("\n").into());
    }
    if !d.terminal_sequence.is_empty() {
        out.insert(
            "terminalSequence".into(),
            d.terminal_sequence.clone().into(),
        );
    }
    let blocks = d.blocked && exits_2_on_block(event, family);
    if blocks {
        crate::dialect::shared::put_reason_first(
            &mut stderr,
            if reason.is_empty() {
                "blocked by hook"
            } else {
                &reason
            },
        );
    }
    let stdout = match plain_context(event, d, &out) {
        Some(text) => text,
        None => serde_json::to_string(&Value::Object(out)).unwrap_or_else(|_| "{}".to_owned()),
    };
    Rendered {
        stdout,
        stderr,
        exit_code: if blocks { 2 } else { 0 },
    }
}

/// The plain text to print instead of `out`, where Claude Code reads plain
/// stdout as context (SessionStart and UserPromptSubmit, at exit 0) and
/// every context is a hook's plain stdout and `out` says nothing else:
/// Claude Code labels plain stdout "hook success" and an
/// `additionalContext` "hook additional context", so the model reads what
/// it would have read had the hooks run without hookrun.
fn plain_context(event: &str, d: &Decision, out: &Map<String, Value>) -> Option<String> {
    if !matches!(event, "SessionStart" | "UserPromptSubmit")
        || d.blocked
        || d.contexts.is_empty()
        || d.plain_contexts != d.contexts.len()
        || out.len() != 1
    {
        return None;
    }
    let hso = out.get("hookSpecificOutput")?.as_object()?;
    let only_context = hso
        .keys()
        .all(|k| k == "hookEventName" || k == "additionalContext");
    only_context.then(|| d.contexts.join("\n"))
}

/// Drops fields the event's variant does not have, so the output always
/// validates (e.g. an `additionalContext` on an event without one).
fn keep_schema_fields(event: &str, hso: &mut Map<String, Value>) {
    let probe = |m: &Map<String, Value>| {
        let mut o = Map::new();
        o.insert("hookSpecificOutput".into(), Value::Object(m.clone()));
        crate::schema::validate(&o).is_ok()
    };
    if probe(hso) {
        return;
    }
    let keys: Vec<String> = hso
        .keys()
        .filter(|k| *k != "hookEventName")
        .cloned()
        .collect();
    for key in keys {
        let mut single = Map::new();
        single.insert("hookEventName".into(), event.into());
        if let Some(v) = hso.get(&key) {
            single.insert(key.clone(), v.clone());
        }
        if !probe(&single) {
            hso.shift_remove(&key);
        }
    }
}

/// Claude Code: the model hookrun's events and answers are in.
pub(crate) struct Claude;

impl super::protocol::Protocol for Claude {
    fn setup(&self) -> Option<&'static super::setup::Setup> {
        Some(&SETUP)
    }

    fn id(&self) -> crate::agent::Dialect {
        crate::agent::Dialect::Claude
    }

    fn hooks_file_writer(&self) -> Option<super::protocol::HooksFileWriter> {
        Some(crate::dialect::convert::toml_to_claude)
    }

    fn classify(&self, event: &str, label: &str, run: &HookRun, _: &Reading) -> Answer {
        crate::answer::classify(event, label, run)
    }

    fn render(&self, event: &Event, family: Family, d: &Decision, notices: &[String]) -> Rendered {
        render(&event.name, family, d, notices)
    }

    fn http_body(&self, event: &str, stdout: String) -> String {
        http_body(event, stdout)
    }
}

/// What a command hook prints, as Claude Code's `http` handler must read
/// it: JSON, always (a body that is not JSON fails the hook, and blocks
/// under `onFailure: "block"`). The plain text `render` prints where
/// Claude Code reads a command's plain stdout as context (SessionStart,
/// UserPromptSubmit) becomes that event's `additionalContext`; PreCompact's
/// compaction instructions have no field in an http answer and are dropped
/// (`{}`), as docs/serve.md says.
#[must_use]
pub(crate) fn http_body(event: &str, stdout: String) -> String {
    if stdout.is_empty() || serde_json::from_str::<Value>(&stdout).is_ok_and(|v| v.is_object()) {
        return stdout;
    }
    let mut out = Map::new();
    if matches!(event, "SessionStart" | "UserPromptSubmit") {
        let mut hso = Map::new();
        hso.insert("hookEventName".into(), event.into());
        hso.insert("additionalContext".into(), stdout.into());
        out.insert("hookSpecificOutput".into(), Value::Object(hso));
    }
    Value::Object(out).to_string()
}

#[cfg(test)]
mod tests;

/// The events on which Claude Code ignores `onFailure` (it cannot hold a
/// turn's end on a hook that failed).
const IGNORES_ON_FAILURE: &[&str] = &["Stop", "SubagentStop", "TaskCompleted", "TeammateIdle"];

/// Claude Code blocks an event on which its hook failed under
/// `onFailure: "block"`, except at a turn's end.
fn fail_closed(model_event: &str) -> Option<(&'static str, Value)> {
    (!IGNORES_ON_FAILURE.contains(&model_event)).then(|| ("onFailure", Value::from("block")))
}

/// What `install`, `doctor` and `check` know of Claude Code.
pub(crate) const SETUP: super::setup::Setup = super::setup::Setup {
    name: "Claude Code",
    tested: super::setup::Tested {
        program: "claude",
        versions: &["2.1.332"],
        how: super::setup::How::Live,
        basis: "`scripts/live` and the conformance suite",
    },
    events: super::setup::Events::Model,
    file: super::setup::HooksFile {
        http: true,
        ..super::setup::HooksFile::GROUPED
    },
    places: PLACES,
    fail_closed,
    // Claude Code exports `CLAUDE_PROJECT_DIR` (the directory it was
    // started in) and runs the command with a shell: quoted, so a
    // directory with spaces stays one word.
    project_anchor: Some("\"$CLAUDE_PROJECT_DIR\""),
    tool_names: &[
        ("@shell", &["Bash"]),
        ("@read", &["Read"]),
        ("@write", &["Write"]),
        ("@edit", &["Edit", "MultiEdit", "NotebookEdit"]),
    ],
    quirks: super::setup::Quirks::NONE,
    launch: LAUNCH,
    reads: READS,
    canary_payload,
};

/// How Claude Code starts a command hook on macOS and Linux: `/bin/sh -c`
/// whatever `$SHELL` is, in the project directory, with
/// `CLAUDE_PROJECT_DIR` exported (the shell expands it; no text is
/// replaced).
pub(crate) const LAUNCH: super::canary::Launch = super::canary::Launch {
    shell: super::canary::Shell::BinSh,
    project_vars: &["CLAUDE_PROJECT_DIR"],
    substituted: &[],
    cwd: super::canary::Cwd::Project,
};

/// Claude Code blocks on exit 2 or a deny, and takes a replaced output
/// from `hookSpecificOutput.updatedToolOutput`.
pub(crate) const READS: super::canary::Reads = super::canary::Reads {
    exit_2_needs_stderr: false,
    replaced_output: Some(&["hookSpecificOutput", "updatedToolOutput"]),
};

/// A canary event as Claude Code sends it.
pub(crate) fn canary_payload(f: &super::canary::Fired<'_>) -> Option<Value> {
    let (tool, input) = super::canary::tool(f, ("Bash", "Read"), "file_path");
    let mut v = serde_json::json!({
        "session_id": "hookrun-doctor",
        "transcript_path": "",
        "cwd": f.cwd,
        "permission_mode": "default",
        "hook_event_name": f.agent_event,
        "tool_name": tool,
        "tool_input": input,
    });
    if let Some(out) = f.output {
        v["tool_response"] = serde_json::json!({"stdout": out, "stderr": "", "interrupted": false});
    }
    Some(v)
}

/// Where Claude Code keeps its hooks: `~/.claude/settings.json`
/// (`$CLAUDE_CONFIG_DIR`), the project's `.claude/settings.json` and
/// `.claude/settings.local.json`, and the managed settings under
/// `/etc/claude-code`, which rank above every other file.
const PLACES: super::setup::Places = super::setup::Places {
    user: super::setup::UserFile {
        var: Some("CLAUDE_CONFIG_DIR"),
        home_dir: ".claude",
        file: "settings.json",
    },
    project: ".claude/settings.json",
    local: Some(".claude/settings.local.json"),
    reads: |project, homes| {
        crate::dirs::claude_settings(project, homes)
            .chain(crate::dirs::claude_managed_settings())
            .collect()
    },
    managed: &[
        "/etc/claude-code/managed-settings.json",
        "/etc/claude-code/managed-settings.d",
    ],
};
