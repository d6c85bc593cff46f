//! Gemini CLI. Event names `BeforeTool`, `AfterTool`,
//! `BeforeAgent`, `AfterAgent`, `PreCompress`, …, and the model events
//! (`BeforeModel`, `AfterModel`, `BeforeToolSelection`); answers
//! `decision`, `reason`, `hookSpecificOutput.tool_input` (merged over the
//! input), `llm_request`, `llm_response`, `toolConfig`. Reading a hook's
//! run is `read`; this file maps events and renders the merged decision.

use serde_json::{Map, Value, json};

use super::protocol::Reading;
use crate::answer::Answer;
use crate::decision::{Decision, Permission};
use crate::event::Event;
use crate::events::Family;
use crate::exec::HookRun;
use crate::rendered::Rendered;

pub(crate) mod events;
mod read;

pub(crate) use events::EVENTS;
use read::MODEL_FIELDS;
pub(crate) use read::classify;

#[must_use]
pub(crate) fn normalize(mut obj: Map<String, Value>) -> (Option<String>, Map<String, Value>) {
    let (_, name) = super::shared::mapped_name(&obj, EVENTS);
    obj.insert("hook_event_name".into(), Value::String(name.clone()));
    (Some(name), obj)
}

/// The merged decision in Gemini's shape: the JSON carries everything; the
/// exit status mirrors the hooks' (see below).
#[must_use]
pub(crate) fn render(
    _event: &crate::event::Event,
    family: Family,
    d: &Decision,
    notices: &[String],
) -> Rendered {
    let mut notices = notices.to_vec();
    notices.extend(super::shared::output_not_replaced("Gemini CLI", d));
    let notices = notices.as_slice();
    let reason = d.reasons.join("\n");
    let mut out = json!({});
    match (family, d.permission) {
        (Family::PreTool, Some(p)) => {
            out["decision"] = Value::String(
                if p == Permission::Defer {
                    "ask"
                } else {
                    p.as_str()
                }
                .into(),
            );
        }
        _ if d.blocked => out["decision"] = Value::String("deny".into()),
        _ => {}
    }
    if !reason.is_empty() {
        out["reason"] = Value::String(reason.clone());
    }
    let mut hso = Map::new();
    if let Some(input) = &d.updated_input {
        hso.insert("tool_input".into(), Value::Object(input.clone()));
    }
    if !d.contexts.is_empty() {
        hso.insert(
            "additionalContext".into(),
            Value::String(d.contexts.join("\n")),
        );
    }
    for key in MODEL_FIELDS {
        if let Some(v) = d.specific.get(*key) {
            hso.insert((*key).to_owned(), v.clone());
        }
    }
    if !hso.is_empty() {
        out["hookSpecificOutput"] = Value::Object(hso);
    }
    // The exit status (below) is how Gemini learns that a hook failed and
    // warns about it, as for a hook it runs itself: hookrun's own notice of
    // that failure would be a second, different message.
    let code = gemini_exit_status(d);
    let mut system: Vec<String> = notices.to_vec();
    system.extend(
        d.system_messages
            .iter()
            .filter(|m| code == 0 || !d.failure_notices.contains(m))
            .cloned(),
    );
    if !system.is_empty() {
        out["systemMessage"] = Value::String(system.join("\n"));
    }
    if d.prevent_continuation {
        out["continue"] = Value::Bool(false);
        if !d.stop_reasons.is_empty() {
            out["stopReason"] = Value::String(d.stop_reasons.join("\n"));
        }
    }
    // Gemini reads stdout JSON first whatever the exit status, and counts a
    // hook that exits non-zero as failed (`Hook execution for X: 0
    // succeeded, 1 failed`, a warning on exit 1): the JSON carries the
    // decision, and the exit status is the first non-zero one of the hooks,
    // so that one hook through hookrun shows what it shows alone.
    let mut r = super::shared::rendered(&out, 0, None, notices);
    r.exit_code = code;
    if code == 0 && out.as_object().is_some_and(Map::is_empty) {
        // Nothing to say is said with nothing, as by a silent hook: an
        // empty object is an answer to Gemini (on BeforeToolSelection it
        // applies a tool config). Not at a non-zero status, where Gemini
        // would read any stderr text as the answer.
        r.stdout.clear();
    }
    if code != 0 && d.blocked {
        super::shared::put_reason_first(&mut r.stderr, &reason);
    }
    r
}

/// The first non-zero exit status among the hooks (1 where it does not
/// fit), else 0.
fn gemini_exit_status(d: &Decision) -> u8 {
    d.hook_exit_codes
        .iter()
        .copied()
        .find(|c| *c != 0)
        .map_or(0, |c| u8::try_from(c).unwrap_or(1))
}

/// Gemini CLI's settings `hooks` block, as `convert --to gemini` writes
/// it: Gemini's event names, timeouts in **milliseconds**.
const SETTINGS: super::grouped_settings::Grouped = super::grouped_settings::Grouped {
    agent: "Gemini",
    event_name: |event| {
        Some(
            EVENTS
                .iter()
                .find(|(_, m)| *m == event)
                .map_or(event, |(g, _)| g)
                .to_owned(),
        )
    },
    millis: true,
    fail_closed: None,
    async_hooks: false,
};

/// Gemini CLI: recognised by its own event names (those Claude Code does not share).
pub(crate) struct Gemini;

impl super::protocol::Protocol for Gemini {
    fn setup(&self) -> Option<&'static super::setup::Setup> {
        Some(&SETUP)
    }

    fn id(&self) -> crate::agent::Dialect {
        crate::agent::Dialect::Gemini
    }

    fn hooks_file_writer(&self) -> Option<super::protocol::HooksFileWriter> {
        Some(|path| super::grouped_settings::toml_to_grouped(path, &SETTINGS))
    }

    fn detects(&self, obj: &Map<String, Value>) -> bool {
        let name = obj
            .get("hook_event_name")
            .and_then(Value::as_str)
            .unwrap_or("");
        EVENTS.iter().any(|(g, _)| *g == name) && crate::events::info(name).is_none()
    }

    fn normalize(&self, obj: Map<String, Value>) -> (Option<String>, Map<String, Value>) {
        normalize(obj)
    }

    fn hook_env(&self, project_dir: &str) -> Vec<(String, String)> {
        // Gemini's hooks know the project directory by its own name, and by
        // Claude Code's.
        vec![
            ("CLAUDE_PROJECT_DIR".to_owned(), project_dir.to_owned()),
            ("GEMINI_PROJECT_DIR".to_owned(), project_dir.to_owned()),
        ]
    }

    fn shell(&self) -> Option<(String, Vec<String>)> {
        // Gemini runs a hook's command line with `bash -c` on Unix.
        super::shared::bash_c()
    }

    fn classify(&self, event: &str, label: &str, run: &HookRun, _: &Reading) -> Answer {
        classify(event, label, run)
    }

    fn unread_block(&self, message: &str) -> Rendered {
        // Gemini reads the JSON's `decision` on every event, at exit 0 as
        // at any other.
        let mut r = super::protocol::plain_block(message);
        r.stdout = json!({"decision": "deny", "reason": format!("hookrun: {message}")}).to_string();
        r.exit_code = 0;
        r
    }

    fn render(&self, event: &Event, family: Family, d: &Decision, notices: &[String]) -> Rendered {
        render(event, family, d, notices)
    }
}

#[cfg(test)]
mod tests;

/// Gemini's events under Claude Code's names (the rest are renamed in
/// `events::EVENTS`).
const SAME_EVENTS: &[&str] = &["SessionStart", "SessionEnd", "Notification"];

/// What `install`, `doctor` and `check` know of Gemini CLI.
pub(crate) const SETUP: super::setup::Setup = super::setup::Setup {
    name: "Gemini CLI",
    tested: super::setup::Tested {
        program: "gemini",
        versions: &["0.61.0"],
        how: super::setup::How::Live,
        basis: "`scripts/live`",
    },
    events: super::setup::Events::Renamed {
        table: events::EVENTS,
        same: SAME_EVENTS,
    },
    file: super::setup::HooksFile {
        timeout_millis: true,
        // Gemini dedups and lists hooks by name.
        handler_name: Some("hookrun"),
        ..super::setup::HooksFile::GROUPED
    },
    places: PLACES,
    // No fail-safe switch.
    fail_closed: |_| None,
    // Gemini CLI replaces `$GEMINI_PROJECT_DIR` in the command text with
    // the directory, already shell-quoted, before the shell sees it (and
    // exports it too): unquoted, or the quotes it adds would be literal.
    project_anchor: Some("$GEMINI_PROJECT_DIR"),
    tool_names: &[
        ("@shell", &["run_shell_command"]),
        ("@read", &["read_file", "read_many_files"]),
        ("@write", &["write_file"]),
        ("@edit", &["replace"]),
    ],
    quirks: super::setup::Quirks::NONE,
    launch: LAUNCH,
    reads: READS,
    canary_payload,
};

/// How Gemini CLI starts a command hook on macOS and Linux: `bash -c`,
/// in the event's `cwd`, with `$GEMINI_PROJECT_DIR` and
/// `$CLAUDE_PROJECT_DIR` replaced (shell-quoted) in the command text and
/// exported too.
pub(crate) const LAUNCH: super::canary::Launch = super::canary::Launch {
    shell: super::canary::Shell::Bash,
    project_vars: &["GEMINI_PROJECT_DIR", "CLAUDE_PROJECT_DIR"],
    substituted: &["GEMINI_PROJECT_DIR", "CLAUDE_PROJECT_DIR"],
    cwd: super::canary::Cwd::EventCwd,
};

/// Gemini CLI blocks on exit 2 or `decision: "deny"`; it takes no
/// replaced tool output.
pub(crate) const READS: super::canary::Reads = super::canary::Reads {
    exit_2_needs_stderr: false,
    replaced_output: None,
};

/// A canary event as Gemini CLI sends it.
pub(crate) fn canary_payload(f: &super::canary::Fired<'_>) -> Option<Value> {
    let (tool, input) = super::canary::tool(f, ("run_shell_command", "read_file"), "file_path");
    let mut v = serde_json::json!({
        "session_id": "hookrun-doctor",
        "transcript_path": "",
        "cwd": f.cwd,
        "timestamp": "2026-01-01T00:00:00Z",
        "hook_event_name": f.agent_event,
        "tool_name": tool,
        "tool_input": input,
    });
    if let Some(out) = f.output {
        v["tool_response"] = serde_json::json!({"llmContent": out, "returnDisplay": out});
    }
    Some(v)
}

/// Where Gemini CLI keeps its hooks: `/etc/gemini-cli/settings.json`,
/// `~/.gemini/settings.json` and `<project>/.gemini/settings.json`.
const PLACES: super::setup::Places = super::setup::Places {
    user: super::setup::UserFile {
        var: None,
        home_dir: ".gemini",
        file: "settings.json",
    },
    project: ".gemini/settings.json",
    local: None,
    reads: |project, homes| {
        [Some(std::path::PathBuf::from(
            "/etc/gemini-cli/settings.json",
        ))]
        .into_iter()
        .chain([
            homes.dir(None, ".gemini").map(|d| d.join("settings.json")),
            Some(project.join(".gemini/settings.json")),
        ])
        .flatten()
        .map(crate::dirs::HookPlace::File)
        .collect()
    },
    managed: &[],
};
