//! GitHub Copilot CLI: camelCase events and fields
//! (`toolName`, `toolArgs`), answers `permissionDecision` +
//! `permissionDecisionReason`; hook answers are read like Claude Code's.

use serde_json::{Map, Value, json};

use super::protocol::Reading;
use crate::answer::Answer;
use crate::decision::{Decision, Permission};
use crate::event::Event;
use crate::events::Family;
use crate::exec::HookRun;
use crate::rendered::Rendered;

pub(crate) mod events;

pub(crate) use events::EVENTS;

/// Copilot's payloads use `toolName` / `toolArgs`, or Copilot-only names.
#[must_use]
pub(crate) fn detect(obj: &Map<String, Value>) -> bool {
    let name = obj
        .get("hook_event_name")
        .and_then(Value::as_str)
        .unwrap_or("");
    obj.contains_key("toolName")
        || obj.contains_key("toolArgs")
        || matches!(name, "userPromptSubmitted" | "agentStop" | "errorOccurred")
}

#[must_use]
pub(crate) fn normalize(mut obj: Map<String, Value>) -> (Option<String>, Map<String, Value>) {
    let given = obj
        .get("hook_event_name")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let name = given.as_deref().map(|g| {
        EVENTS
            .iter()
            .find(|(c, _)| *c == g)
            .map_or(g.to_owned(), |(_, m)| (*m).to_owned())
    });
    if let Some(tool) = obj.get("toolName").cloned() {
        obj.insert("tool_name".into(), tool);
    }
    match obj.get("toolArgs").cloned() {
        Some(Value::String(s)) => {
            obj.insert(
                "tool_input".into(),
                serde_json::from_str(&s).unwrap_or(json!({"args": s})),
            );
        }
        Some(v) => {
            obj.insert("tool_input".into(), v);
        }
        None => {}
    }
    if let Some(r) = obj.get("toolResult").cloned() {
        obj.insert("tool_response".into(), r);
    }
    if let Some(n) = &name {
        obj.insert("hook_event_name".into(), Value::String(n.clone()));
    }
    (name, obj)
}

/// Copilot's own answer keys, top-level where Claude Code nests them.
const OWN_KEYS: &[&str] = &[
    "permissionDecision",
    "permissionDecisionReason",
    "modifiedArgs",
    "additionalContext",
];

/// A hook's run read by Copilot's rules: Claude Code's (exit 2 blocks with
/// the hook's stderr, unlabelled; JSON on exit 0), with Copilot's top-level `permissionDecision`,
/// `permissionDecisionReason`, `modifiedArgs` and `additionalContext`
/// read as Claude Code's `hookSpecificOutput` fields.
#[must_use]
pub(crate) fn classify(event: &str, label: &str, run: &HookRun) -> Answer {
    let own = match (
        &run.status,
        serde_json::from_slice::<Value>(&run.stdout.bytes),
    ) {
        (crate::exec::RunStatus::Exited(0), Ok(Value::Object(obj)))
            if OWN_KEYS.iter().any(|k| obj.contains_key(*k)) =>
        {
            obj
        }
        _ => {
            // Copilot CLI has no `[command]: ` label of its own: an exit-2
            // block is the hook's stderr, as Codex, Cursor and Gemini CLI
            // give it to their models.
            let mut answer = crate::answer::classify(event, label, run);
            super::shared::unlabel_block(&mut answer, label);
            return answer;
        }
    };
    // Claude Code's `hookSpecificOutput` carries a decision and a rewrite on
    // PreToolUse only; a context wherever the event has a variant.
    let pre_tool = event == "PreToolUse";
    let mut json = Map::new();
    let mut hso = Map::new();
    for (key, value) in own {
        match key.as_str() {
            "permissionDecision" | "permissionDecisionReason" if pre_tool => {
                hso.insert(key, value);
            }
            "modifiedArgs" if pre_tool => {
                hso.insert("updatedInput".into(), value);
            }
            "additionalContext" => {
                hso.insert(key, value);
            }
            k if OWN_KEYS.contains(&k) => {}
            _ => {
                json.insert(key, value);
            }
        }
    }
    if crate::schema::has_variant(event) && !hso.is_empty() {
        hso.insert("hookEventName".into(), Value::String(event.to_owned()));
        json.insert("hookSpecificOutput".into(), Value::Object(hso));
    }
    super::shared::answer_from_json(event, label, run, &Value::Object(json), 0)
}

/// `permissionDecision` for tool events; exit 2 when it denies.
#[must_use]
pub(crate) fn render(
    event: &crate::event::Event,
    family: Family,
    d: &Decision,
    notices: &[String],
) -> Rendered {
    let reason = d.reasons.join("\n");
    let mut all: Vec<String> = notices.to_vec();
    // Copilot CLI reads no answer from preCompact: a block cannot stop the
    // compaction, so it is said rather than sent.
    let mut d = std::borrow::Cow::Borrowed(d);
    if event.name == "PreCompact" && d.blocked {
        all.push(format!(
            "Copilot CLI takes no answer from preCompact: the block ({reason:?}) did not stop the compaction"
        ));
        let d = d.to_mut();
        d.blocked = false;
        d.reasons.clear();
    }
    let d = d.as_ref();
    let reason = d.reasons.join("\n");
    let mut out = json!({});
    if family == Family::PreTool || family == Family::PermissionRequest {
        if let Some(p) = d.permission {
            out["permissionDecision"] = Value::String(
                if p == Permission::Defer {
                    "ask"
                } else {
                    p.as_str()
                }
                .into(),
            );
            if !reason.is_empty() {
                out["permissionDecisionReason"] = Value::String(reason.clone());
            }
        }
        if let Some(input) = &d.updated_input {
            out["modifiedArgs"] = Value::Object(input.clone());
        }
    } else if d.blocked {
        out["decision"] = Value::String("block".into());
        out["reason"] = Value::String(reason.clone());
    }
    if !d.contexts.is_empty() {
        out["additionalContext"] = Value::String(d.contexts.join("\n"));
    }
    all.extend(super::shared::output_not_replaced("Copilot CLI", d));
    all.extend(d.system_messages.iter().cloned());
    super::shared::rendered(&out, if d.blocked { 2 } else { 0 }, Some(&reason), &all)
}

/// GitHub Copilot CLI.
pub(crate) struct Copilot;

impl super::protocol::Protocol for Copilot {
    fn setup(&self) -> Option<&'static super::setup::Setup> {
        Some(&SETUP)
    }

    fn id(&self) -> crate::agent::Dialect {
        crate::agent::Dialect::Copilot
    }

    fn hooks_file_writer(&self) -> Option<super::protocol::HooksFileWriter> {
        Some(super::flat_hooks::toml_to_copilot)
    }

    fn detects(&self, obj: &Map<String, Value>) -> bool {
        detect(obj)
    }

    fn normalize(&self, obj: Map<String, Value>) -> (Option<String>, Map<String, Value>) {
        normalize(obj)
    }

    fn shell(&self) -> Option<(String, Vec<String>)> {
        // A hook's `bash` command line runs under bash.
        super::shared::bash_c()
    }

    fn classify(&self, event: &str, label: &str, run: &HookRun, _: &Reading) -> Answer {
        classify(event, label, run)
    }

    fn unread_block(&self, message: &str) -> Rendered {
        // Tool events read `permissionDecision`, the others `decision`:
        // both, as the event is unknown.
        let reason = format!("hookrun: {message}");
        let mut r = super::protocol::plain_block(message);
        r.stdout = json!({
            "permissionDecision": "deny",
            "permissionDecisionReason": reason,
            "decision": "block",
            "reason": reason,
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

/// What `install`, `doctor` and `check` know of Copilot CLI.
pub(crate) const SETUP: super::setup::Setup = super::setup::Setup {
    name: "Copilot CLI",
    tested: super::setup::Tested {
        program: "copilot",
        versions: &["1.0.102"],
        how: super::setup::How::Fixtures,
        basis: "fixtures written from the documentation and the `@github/copilot` package it was read from",
    },
    events: super::setup::Events::Renamed {
        table: events::EVENTS,
        same: &[],
    },
    file: super::setup::HooksFile {
        command_key: "bash",
        timeout_key: "timeoutSec",
        ..super::setup::HooksFile::LISTED
    },
    places: PLACES,
    // No fail-safe switch.
    fail_closed: |_| None,
    // Hooks run in the session's working directory; no project variable.
    project_anchor: None,
    tool_names: &[("@shell", &["bash"])],
    quirks: super::setup::Quirks {
        // Its camelCase payloads (`{"sessionId", "timestamp", "cwd",
        // "toolName", …}`) name no event.
        needs_event_flag: true,
        own_file: Some("hookrun.json"),
        ..super::setup::Quirks::NONE
    },
    launch: LAUNCH,
    reads: READS,
    canary_payload,
};

/// How Copilot CLI starts a hook's `bash` command: `bash -c`, in the
/// session's working directory, with no project variable.
pub(crate) const LAUNCH: super::canary::Launch = super::canary::Launch {
    shell: super::canary::Shell::Bash,
    project_vars: &[],
    substituted: &[],
    cwd: super::canary::Cwd::Project,
};

/// Copilot CLI denies on `permissionDecision: "deny"` (and exit 2); it
/// takes no replaced tool output.
pub(crate) const READS: super::canary::Reads = super::canary::Reads {
    exit_2_needs_stderr: false,
    replaced_output: None,
};

/// A canary event as Copilot CLI sends it: camelCase, the tool's
/// arguments as a JSON string, no event name.
pub(crate) fn canary_payload(f: &super::canary::Fired<'_>) -> Option<Value> {
    let (tool, args) = match f.tool {
        hookrun_guards::CanaryTool::Shell => ("bash", serde_json::json!({"command": f.input})),
        hookrun_guards::CanaryTool::Read => ("view", serde_json::json!({"path": f.input})),
    };
    let mut v = serde_json::json!({
        "sessionId": "hookrun-doctor",
        "timestamp": 1_767_225_600_000_u64,
        "cwd": f.cwd,
        "toolName": tool,
        "toolArgs": args.to_string(),
    });
    if let Some(out) = f.output {
        v["toolResult"] = serde_json::json!({"resultType": "success", "textResultForLlm": out});
    }
    Some(v)
}

/// Where Copilot CLI keeps its hooks: every `*.json` in `~/.copilot/hooks`
/// and in `<project>/.github/hooks`; hookrun's registration is a file of
/// its own there. Before them it loads the machine's policy files,
/// `/etc/github-copilot/policy.d/*.json` (root's, and not turned off by
/// `disableAllHooks`).
const PLACES: super::setup::Places = super::setup::Places {
    user: super::setup::UserFile {
        var: None,
        home_dir: ".copilot/hooks",
        file: "hookrun.json",
    },
    project: ".github/hooks/hookrun.json",
    local: None,
    reads: |project, homes| {
        MANAGED
            .iter()
            .map(std::path::PathBuf::from)
            .chain(homes.dir(None, ".copilot/hooks"))
            .chain([project.join(".github/hooks")])
            .map(crate::dirs::HookPlace::JsonDir)
            .collect()
    },
    managed: MANAGED,
};

/// The machine's policy hook files (see [`PLACES`]).
const MANAGED: &[&str] = &["/etc/github-copilot/policy.d"];
