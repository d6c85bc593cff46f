//! Qwen Code. Claude Code's event names and answer fields, with events of
//! its own (`SessionDelete`, `TodoCreated`, `TodoCompleted`), its own
//! reading of a hook's run (`read`), and settings files under `.qwen`
//! whose `timeout`s count seconds, and milliseconds from 1000 on.
//!
//! hookrun answers Qwen Code with exit 0 and the whole decision in one JSON
//! object on stdout, on every event: Qwen Code reads stdout JSON whatever
//! the event, while on exit 2 it would read only stderr, and with stdout
//! empty it reads stderr as the answer. So stdout always holds an object
//! when stderr has anything on it.

use serde_json::{Map, Value, json};

use super::protocol::Reading;
use crate::answer::Answer;
use crate::decision::{Decision, Permission};
use crate::event::Event;
use crate::events::Family;
use crate::exec::HookRun;
use crate::rendered::Rendered;

mod read;
mod tools;

/// Qwen Code 0.24's events: Claude Code's names, and three of its own.
const EVENTS: &[&str] = &[
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PostToolBatch",
    "Notification",
    "UserPromptSubmit",
    "UserPromptExpansion",
    "SessionStart",
    "Stop",
    "MessageDisplay",
    "SubagentStart",
    "SubagentStop",
    "PreCompact",
    "PostCompact",
    "SessionEnd",
    "SessionDelete",
    "PermissionRequest",
    "PermissionDenied",
    "StopFailure",
    "TodoCreated",
    "TodoCompleted",
    "InstructionsLoaded",
];

/// The merged decision in Qwen Code's shape, at exit 0.
#[must_use]
fn render(event: &str, family: Family, d: &Decision, notices: &[String]) -> Rendered {
    let mut notices = notices.to_vec();
    notices.extend(super::shared::output_not_replaced("Qwen Code", d));
    if family == Family::PreTool && d.updated_input.is_some() {
        notices.push(
            "hookrun: Qwen Code takes no rewritten tool input from a PreToolUse hook; the tool runs with its own input"
                .to_owned(),
        );
    }
    let reason = d.reasons.join("\n");
    let mut out = Map::new();
    let mut hso = Map::new();
    match family {
        Family::PreTool => {
            // Qwen Code has no `defer`: the tool call goes on as without
            // an answer.
            if let Some(p) = d.permission.filter(|p| *p != Permission::Defer) {
                hso.insert("permissionDecision".into(), p.as_str().into());
                if !reason.is_empty() {
                    hso.insert("permissionDecisionReason".into(), reason.clone().into());
                }
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
        _ if d.blocked => {
            out.insert("decision".into(), "block".into());
            out.insert("reason".into(), reason.clone().into());
        }
        _ => {}
    }
    if !d.contexts.is_empty() {
        hso.insert("additionalContext".into(), d.contexts.join("\n").into());
    }
    if !hso.is_empty() {
        let mut with_name = Map::new();
        with_name.insert("hookEventName".into(), event.into());
        with_name.extend(hso);
        out.insert("hookSpecificOutput".into(), Value::Object(with_name));
    }
    if d.prevent_continuation {
        out.insert("continue".into(), Value::Bool(false));
        if !d.stop_reasons.is_empty() {
            out.insert(
                "stopReason".into(),
                Value::String(d.stop_reasons.join("\n")),
            );
        }
    }
    // A hook that failed without an answer shows Qwen Code nothing: its
    // notice goes to stderr only, beside hookrun's own.
    let mut system: Vec<String> = notices.clone();
    system.extend(
        d.system_messages
            .iter()
            .filter(|m| !d.failure_notices.contains(m))
            .cloned(),
    );
    if !system.is_empty() {
        out.insert("systemMessage".into(), Value::String(system.join("\n")));
    }
    let failures: Vec<String> = d
        .system_messages
        .iter()
        .filter(|m| d.failure_notices.contains(m))
        .cloned()
        .collect();
    let mut r = super::shared::rendered(&Value::Object(out), 0, None, &notices);
    r.stderr.extend(super::shared::notice_lines(
        failures.iter().chain(&d.diagnostics),
    ));
    if r.stdout == "{}" && r.stderr.is_empty() {
        // Nothing to say is said with nothing, as by a silent hook.
        r.stdout.clear();
    }
    r
}

/// Qwen Code's settings `hooks` block, as `convert --to qwen` writes it:
/// its event names, timeouts in seconds, `failMode` and `async`.
const SETTINGS: super::grouped_settings::Grouped = super::grouped_settings::Grouped {
    agent: "Qwen Code",
    event_name: |event| EVENTS.contains(&event).then(|| event.to_owned()),
    millis: false,
    fail_closed: Some(("failMode", "closed")),
    async_hooks: true,
};

/// Qwen Code: recognised only with `--dialect qwen` (its events carry
/// Claude Code's names).
pub(crate) struct Qwen;

impl super::protocol::Protocol for Qwen {
    fn setup(&self) -> Option<&'static super::setup::Setup> {
        Some(&SETUP)
    }

    fn id(&self) -> crate::agent::Dialect {
        crate::agent::Dialect::Qwen
    }

    fn hooks_file_writer(&self) -> Option<super::protocol::HooksFileWriter> {
        Some(|path| super::grouped_settings::toml_to_grouped(path, &SETTINGS))
    }

    fn shape_rules(&self) -> crate::config::ShapeRules {
        crate::config::ShapeRules {
            agent: "Qwen Code",
            legacy_millis: true,
            handler_env: true,
            fail_mode_key: true,
            kinds: &["command", "http", "prompt"],
            guard_voids_file: false,
            sequential_groups: true,
            fires: |event| EVENTS.contains(&event),
            matcher: Some(tools::matcher_regex),
            prompt_provider: crate::config::Provider::Openai,
            ..crate::config::ShapeRules::CLAUDE
        }
    }

    fn default_timeout(&self, _event: &str) -> Option<std::time::Duration> {
        // Qwen Code gives a command hook 60 s on every event.
        Some(std::time::Duration::from_secs(60))
    }

    fn hook_env(&self, project_dir: &str) -> Vec<(String, String)> {
        // Qwen Code's hooks know the project directory by its own name,
        // Gemini CLI's and Claude Code's.
        [
            "QWEN_PROJECT_DIR",
            "GEMINI_PROJECT_DIR",
            "CLAUDE_PROJECT_DIR",
        ]
        .into_iter()
        .map(|k| (k.to_owned(), project_dir.to_owned()))
        .collect()
    }

    fn shell(&self) -> Option<(String, Vec<String>)> {
        // Qwen Code runs a hook's command line with `bash -c` on Unix.
        super::shared::bash_c()
    }

    fn classify(&self, event: &str, label: &str, run: &HookRun, _: &Reading) -> Answer {
        read::classify(event, label, run)
    }

    fn unread_block(&self, message: &str) -> Rendered {
        // Qwen Code reads the JSON's `decision` on every event at exit 0.
        let mut r = super::protocol::plain_block(message);
        r.stdout = json!({
            "decision": "block",
            "reason": format!("hookrun: {message}"),
            "hookSpecificOutput": {
                "permissionDecision": "deny",
                "permissionDecisionReason": format!("hookrun: {message}"),
            },
        })
        .to_string();
        r.exit_code = 0;
        r
    }

    fn render(&self, event: &Event, family: Family, d: &Decision, notices: &[String]) -> Rendered {
        render(&event.name, family, d, notices)
    }
}

#[cfg(test)]
mod tests;

/// What `install`, `doctor` and `check` know of Qwen Code.
pub(crate) const SETUP: super::setup::Setup = super::setup::Setup {
    name: "Qwen Code",
    tested: super::setup::Tested {
        program: "qwen",
        versions: &["0.24.4"],
        how: super::setup::How::Live,
        basis: "`scripts/live`",
    },
    events: super::setup::Events::Same(EVENTS),
    file: super::setup::HooksFile::GROUPED,
    places: PLACES,
    fail_closed,
    // Qwen Code exports `$QWEN_PROJECT_DIR` (the shell expands it; no text
    // is replaced).
    project_anchor: Some("\"$QWEN_PROJECT_DIR\""),
    tool_names: &[
        ("@shell", &["run_shell_command"]),
        ("@read", &["read_file", "read_many_files"]),
        ("@write", &["write_file"]),
        ("@edit", &["edit"]),
    ],
    quirks: super::setup::Quirks::NONE,
    launch: LAUNCH,
    reads: READS,
    canary_payload,
};

/// Qwen Code's per-handler fail-safe: `failMode: "closed"` makes a hook
/// that fails without an answer deny, on the events where a deny stops
/// the action.
fn fail_closed(model_event: &str) -> Option<(&'static str, Value)> {
    matches!(
        model_event,
        "PreToolUse" | "PermissionRequest" | "UserPromptSubmit"
    )
    .then(|| ("failMode", Value::String("closed".into())))
}

/// The variable that moves Qwen Code's user directory (it names the
/// `.qwen` directory itself).
const HOME_VAR: &str = "QWEN_HOME";

/// Where Qwen Code keeps its hooks: the system settings
/// (`$QWEN_CODE_SYSTEM_SETTINGS_PATH`, else `/etc/qwen-code/settings.json`)
/// and the system defaults beside them (`$QWEN_CODE_SYSTEM_DEFAULTS_PATH`,
/// else `system-defaults.json`), the user's `settings.json` in `$QWEN_HOME`
/// (else `~/.qwen`) and the project's `.qwen/settings.json`.
const PLACES: super::setup::Places = super::setup::Places {
    user: super::setup::UserFile {
        var: Some(HOME_VAR),
        home_dir: ".qwen",
        file: "settings.json",
    },
    project: ".qwen/settings.json",
    local: None,
    reads: |project, homes| {
        let system = homes.var("QWEN_CODE_SYSTEM_SETTINGS_PATH").map_or_else(
            || std::path::PathBuf::from("/etc/qwen-code/settings.json"),
            std::path::Path::to_path_buf,
        );
        let defaults = homes.var("QWEN_CODE_SYSTEM_DEFAULTS_PATH").map_or_else(
            || crate::dirs::dir_of(&system).join("system-defaults.json"),
            std::path::Path::to_path_buf,
        );
        [
            Some(defaults),
            Some(system),
            homes
                .dir(Some(HOME_VAR), ".qwen")
                .map(|d| d.join("settings.json")),
            Some(project.join(".qwen/settings.json")),
        ]
        .into_iter()
        .flatten()
        .map(crate::dirs::HookPlace::File)
        .collect()
    },
    managed: &[],
};

/// How Qwen Code starts a command hook on macOS and Linux: `bash -c`, in
/// the event's `cwd`, with `$QWEN_PROJECT_DIR`, `$GEMINI_PROJECT_DIR` and
/// `$CLAUDE_PROJECT_DIR` exported (no text is replaced).
pub(crate) const LAUNCH: super::canary::Launch = super::canary::Launch {
    shell: super::canary::Shell::Bash,
    project_vars: &[
        "QWEN_PROJECT_DIR",
        "GEMINI_PROJECT_DIR",
        "CLAUDE_PROJECT_DIR",
    ],
    substituted: &[],
    cwd: super::canary::Cwd::EventCwd,
};

/// Qwen Code blocks on exit 2 (stderr is the reason, or the answer) or a
/// deny; it takes no replaced tool output.
pub(crate) const READS: super::canary::Reads = super::canary::Reads {
    exit_2_needs_stderr: false,
    replaced_output: None,
};

/// A canary event as Qwen Code sends it.
pub(crate) fn canary_payload(f: &super::canary::Fired<'_>) -> Option<Value> {
    let (tool, input) = super::canary::tool(f, ("run_shell_command", "read_file"), "file_path");
    let mut v = json!({
        "session_id": "hookrun-doctor",
        "transcript_path": "",
        "cwd": f.cwd,
        "hook_event_name": f.agent_event,
        "timestamp": "2026-01-01T00:00:00.000Z",
        "permission_mode": "default",
        "tool_name": tool,
        "tool_input": input,
    });
    if let Some(out) = f.output {
        v["tool_response"] = json!({"llmContent": out, "returnDisplay": out});
    }
    Some(v)
}
