//! OpenAI Codex CLI: Claude Code's events and wire
//! format, with strict output schemas. On PreToolUse Codex rejects (and so
//! ignores) `ask`, `continue`, `stopReason` and `suppressOutput`, applies
//! `updatedInput` only with `allow`, and blocks on exit 2 only with a
//! non-empty stderr. hookrun renders within those limits and says what it
//! had to leave out.

use serde_json::Value;

use super::protocol::Reading;
use crate::answer::Answer;
use crate::decision::{Decision, Permission};
use crate::event::Event;
use crate::events::Family;
use crate::exec::HookRun;
use crate::rendered::Rendered;

pub(crate) mod managed;
pub(crate) mod mcp;
pub(crate) mod trust;

/// Codex's reading of one hook: as Claude Code's, except that an exit 2
/// with an empty stderr does not block ("exited with code 2 but did not
/// write a blocking reason": the hook failed), and that an exit-2 block's
/// reason is the hook's stderr as written: Codex puts it before the model
/// verbatim (`Command blocked by PreToolUse hook: <stderr>`), without
/// Claude Code's `[<command>]: ` label.
#[must_use]
pub(crate) fn classify(
    event: &str,
    label: &str,
    run: &crate::exec::HookRun,
) -> crate::answer::Answer {
    let stderr = String::from_utf8_lossy(&run.stderr.bytes);
    if run.status == crate::exec::RunStatus::Exited(2) && stderr.trim().is_empty() {
        let mut failed = run.clone();
        failed.status = crate::exec::RunStatus::Exited(1);
        let mut a = crate::answer::classify(event, label, &failed);
        a.notice = Some("exited with code 2 but did not write a blocking reason".into());
        return a;
    }
    let mut a = crate::answer::classify(event, label, run);
    let labelled = format!("[{label}]: ");
    if let Some(reason) = a
        .blocking_error
        .as_mut()
        .filter(|b| b.starts_with(&labelled))
    {
        *reason = stderr.trim().to_owned();
    }
    a
}

/// Keys of a rendered answer that only say what exit 2 says by itself.
const BLOCK_ONLY_KEYS: &[&str] = &["decision", "reason"];
const BLOCK_ONLY_SPECIFIC: &[&str] = &[
    "hookEventName",
    "permissionDecision",
    "permissionDecisionReason",
];

/// Whether a rendered JSON answer says more than its block: on exit 2 Codex
/// reads only stderr, so anything more (a context, a message) would be lost.
fn says_more_than_the_block(out: &serde_json::Map<String, Value>) -> bool {
    out.iter().any(|(k, v)| match (k.as_str(), v) {
        ("hookSpecificOutput", Value::Object(hso)) => hso
            .keys()
            .any(|k| !BLOCK_ONLY_SPECIFIC.contains(&k.as_str())),
        (k, _) => !BLOCK_ONLY_KEYS.contains(&k),
    })
}

#[must_use]
pub(crate) fn render(
    event: &crate::event::Event,
    family: Family,
    d: &Decision,
    notices: &[String],
) -> Rendered {
    let mut d = d.clone();
    let mut notes: Vec<String> = notices.to_vec();
    if family == Family::PreTool {
        if matches!(d.permission, Some(Permission::Ask | Permission::Defer)) {
            notes.push(format!("Codex does not accept `{}` from a PreToolUse hook; left to Codex's own permission flow", d.permission.map_or("", Permission::as_str)));
            d.permission = None;
            d.reasons.clear();
        }
        if d.updated_input.is_some() && d.permission != Some(Permission::Allow) {
            notes.push(
                "Codex applies a rewritten tool input only with `allow`; the rewrite was left out"
                    .into(),
            );
            d.updated_input = None;
        }
        if d.prevent_continuation {
            notes.push(
                "Codex does not accept `continue: false` from a PreToolUse hook; left out".into(),
            );
            d.prevent_continuation = false;
            d.stop_reasons.clear();
        }
    }
    // Plain stdout reaches Codex as a JSON `additionalContext`, as the live
    // scenarios pinned it; the plain-text pass-through is Claude Code's.
    d.plain_contexts = 0;
    let mut r = crate::dialect::claude::render(&event.name, family, &d, &notes);
    if r.exit_code == 2 && r.stderr.first().is_none_or(|l| l.trim().is_empty()) {
        r.stderr.insert(0, "blocked by hook".into());
    }
    if let Ok(Value::Object(mut o)) = serde_json::from_str::<Value>(&r.stdout) {
        o.remove("suppressOutput");
        // Codex honours a JSON block at exit 0 and reads only stderr at exit
        // 2: when the answer carries more than the block, exit 0 so that all
        // of it arrives.
        if r.exit_code == 2 && says_more_than_the_block(&o) {
            r.exit_code = 0;
        }
        r.stdout = Value::Object(o).to_string();
    }
    r
}

/// Codex CLI: recognised only with `--dialect codex` (its events are Claude Code's).
pub(crate) struct Codex;

impl super::protocol::Protocol for Codex {
    fn setup(&self) -> Option<&'static super::setup::Setup> {
        Some(&SETUP)
    }

    fn stderr_is_reason(&self) -> bool {
        // On exit 2 Codex puts the whole stderr before the model.
        true
    }

    fn id(&self) -> crate::agent::Dialect {
        crate::agent::Dialect::Codex
    }

    fn hooks_file_writer(&self) -> Option<super::protocol::HooksFileWriter> {
        Some(|path| crate::dialect::convert::toml_to_claude_shape(path, &Codex.shape_rules()))
    }

    fn shape_rules(&self) -> crate::config::ShapeRules {
        crate::config::ShapeRules {
            agent: "Codex",
            // Codex runs command hooks and MCP tools; it skips prompt and
            // agent hooks ("not supported yet") and an MCP tool on
            // SessionEnd, warning at start.
            kinds: &["command", "prompt", "agent", "mcp_tool"],
            skips: |kind, event| {
                matches!(kind, "prompt" | "agent") || (kind == "mcp_tool" && event == "SessionEnd")
            },
            timeout_cap: |event| capped(event).then_some(CAP_SECS),
            fires: |event| EVENTS.contains(&event),
            prompt_provider: crate::config::Provider::Openai,
            mcp_servers: mcp::servers,
            ..crate::config::ShapeRules::CLAUDE
        }
    }

    fn default_timeout(&self, event: &str) -> Option<std::time::Duration> {
        // Codex gives SessionEnd and Interrupt hooks a second.
        capped(event).then(|| std::time::Duration::from_secs(1))
    }

    fn hook_env(&self, _project_dir: &str) -> Vec<(String, String)> {
        // Codex sets no project-directory variable for its hooks.
        Vec::new()
    }

    fn shell(&self) -> Option<(String, Vec<String>)> {
        // Codex runs a hook's command line with the user's login shell.
        let shell = std::env::var("SHELL")
            .ok()
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| "/bin/sh".to_owned());
        Some((shell, vec!["-lc".to_owned()]))
    }

    fn payload(&self, event: &Event) -> Option<Vec<u8>> {
        // Codex writes the event without a trailing newline.
        let bytes = event.bytes.as_slice();
        Some(bytes.strip_suffix(b"\n").unwrap_or(bytes).to_vec())
    }

    fn classify(&self, event: &str, label: &str, run: &HookRun, _: &Reading) -> Answer {
        classify(event, label, run)
    }

    fn render(&self, event: &Event, family: Family, d: &Decision, notices: &[String]) -> Rendered {
        render(event, family, d, notices)
    }
}

#[cfg(test)]
mod tests;

/// Codex's events: Claude Code's names, fewer of them.
const EVENTS: &[&str] = &[
    "SessionStart",
    "SubagentStart",
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "PreCompact",
    "PostCompact",
    "UserPromptSubmit",
    "SubagentStop",
    "Stop",
    "SessionEnd",
    "Interrupt",
];

/// The events whose hooks Codex gives at most [`CAP_SECS`] (a longer
/// `timeout` is cut to it, with a warning at start).
fn capped(event: &str) -> bool {
    matches!(event, "SessionEnd" | "Interrupt")
}

/// The longest timeout Codex gives a hook on a [`capped`] event.
pub(crate) const CAP_SECS: f64 = 3.0;

/// What `install`, `doctor` and `check` know of Codex.
pub(crate) const SETUP: super::setup::Setup = super::setup::Setup {
    name: "Codex",
    tested: super::setup::Tested {
        program: "codex",
        versions: &["0.171.0"],
        how: super::setup::How::Live,
        basis: "`scripts/live`",
    },
    events: super::setup::Events::Same(EVENTS),
    file: super::setup::HooksFile::GROUPED,
    places: PLACES,
    // No fail-safe switch.
    fail_closed: |_| None,
    // Hooks run in the session's working directory; no project variable.
    project_anchor: None,
    tool_names: &[("@shell", &["Bash"])],
    quirks: super::setup::Quirks {
        hook_review: Some(trust::skipped),
        machine_lock: Some(managed::lock),
        ..super::setup::Quirks::NONE
    },
    launch: LAUNCH,
    reads: READS,
    canary_payload,
};

/// How Codex starts a command hook: `$SHELL -lc` (a login shell, so the
/// user's profile runs and may change PATH), in the session's working
/// directory, with no project variable.
pub(crate) const LAUNCH: super::canary::Launch = super::canary::Launch {
    shell: super::canary::Shell::UserLogin,
    project_vars: &[],
    substituted: &[],
    cwd: super::canary::Cwd::Project,
};

/// Codex blocks on exit 2 only with a reason on stderr, or on a deny, and
/// takes a replaced output from `hookSpecificOutput.updatedToolOutput`.
pub(crate) const READS: super::canary::Reads = super::canary::Reads {
    exit_2_needs_stderr: true,
    replaced_output: Some(&["hookSpecificOutput", "updatedToolOutput"]),
};

/// A canary event as Codex sends it; Codex's only tool that reads a file
/// is its shell, so a read canary has no Codex shape.
pub(crate) fn canary_payload(f: &super::canary::Fired<'_>) -> Option<Value> {
    if f.tool == hookrun_guards::CanaryTool::Read {
        return None;
    }
    let (tool, input) = super::canary::tool(f, ("Bash", "Read"), "file_path");
    let mut v = serde_json::json!({
        "session_id": "hookrun-doctor",
        "transcript_path": null,
        "cwd": f.cwd,
        "model": "gpt-5",
        "permission_mode": "default",
        "hook_event_name": f.agent_event,
        "tool_name": tool,
        "tool_input": input,
    });
    if let Some(out) = f.output {
        v["tool_response"] = Value::String(out.to_owned());
    }
    Some(v)
}

/// Where Codex keeps its hooks: `hooks.json` and `config.toml` (whose
/// `[hooks]` tables it also reads) in `$CODEX_HOME` (else `~/.codex`) and
/// in `<project>/.codex`; and the machine's, in `/etc/codex`: its system
/// config layer and, above all, the administrator's `managed_config.toml`
/// and `requirements.toml`.
const PLACES: super::setup::Places = super::setup::Places {
    user: super::setup::UserFile {
        var: Some(trust::HOME_VAR),
        home_dir: ".codex",
        file: "hooks.json",
    },
    project: ".codex/hooks.json",
    local: None,
    reads: |project, homes| {
        let user = homes.dir(Some(trust::HOME_VAR), ".codex");
        user.into_iter()
            .chain([project.join(".codex")])
            .flat_map(|dir| [dir.join("hooks.json"), dir.join("config.toml")])
            .chain(MANAGED.iter().map(std::path::PathBuf::from))
            .map(crate::dirs::HookPlace::File)
            .collect()
    },
    managed: MANAGED,
};

/// The machine's Codex files that hold hooks (see [`managed`]).
const MANAGED: &[&str] = &[
    "/etc/codex/hooks.json",
    "/etc/codex/config.toml",
    "/etc/codex/managed_config.toml",
    "/etc/codex/requirements.toml",
];
