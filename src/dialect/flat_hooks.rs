//! hookrun TOML written as Cursor's `.cursor/hooks.json` or a GitHub Copilot
//! hooks file (`hookrun convert --to cursor|copilot`). Both are
//! `{"version": 1, "hooks": {"<event>": [handler, …]}}` with handlers listed
//! directly under their event (no groups), so one writer serves both.
//!
//! Meaning is never changed silently: a hook's event the agent lacks, a
//! matcher it cannot take, `if`, `async`, `env` (Cursor), fail-closed
//! (Copilot), a sequential order and a payload dialect other than the
//! agent's own are each a warning naming the hook and the key.

use serde_json::{Map, Value, json};

use crate::agent::Dialect;
use crate::config::{Action, Config, FailMode, Hook, Order};
use crate::dialect::convert::Converted;

/// A hookrun TOML config, loaded (and so validated) for writing it out.
///
/// # Errors
/// The TOML is not a valid hookrun config.
pub(crate) fn load_toml(path: &std::path::Path) -> Result<Config, String> {
    let options = crate::config::LoadOptions {
        explicit: false,
        default_fail_mode: FailMode::Open,
        format: None,
        foreign: crate::dialect::convert::HOOKS_FILES,
    };
    crate::config::load(&[path.to_owned()], options).map_err(|e| e.to_string())
}

/// A hook's action as one shell command line: its own command, exec-form
/// words quoted so the shell passes each through unchanged, a built-in as
/// `hookrun builtin NAME --options … --mode …`; `None` (warned) for an
/// action no command line can express.
pub(crate) fn shell_command(hook: &Hook, warnings: &mut Vec<String>) -> Option<String> {
    match &hook.action {
        Action::Command {
            command,
            args: None,
        } => Some(command.clone()),
        Action::Command {
            command,
            args: Some(a),
        } => Some(crate::dialect::convert::exec_line(command, a)),
        Action::Builtin(b) => Some(crate::dialect::convert::builtin_line(b)),
        Action::Http { .. }
        | Action::Prompt { .. }
        | Action::Agent { .. }
        | Action::McpTool { .. } => {
            warnings.push(format!(
                "`{}`: {} cannot be expressed as a command line: not converted (register `hookrun run` with this config to run it)",
                hook.origin.key,
                hook.action.kind_phrase()
            ));
            None
        }
        Action::Unsupported { kind } => {
            warnings.push(format!(
                "`{}`: a {kind} cannot be expressed: not converted",
                hook.origin.key
            ));
            None
        }
    }
}

/// hookrun TOML → Cursor's `hooks.json`, timeouts in seconds.
///
/// # Errors
/// The TOML is not a valid hookrun config.
pub(crate) fn toml_to_cursor(path: &std::path::Path) -> Result<Converted, String> {
    write(path, Dialect::Cursor)
}

/// hookrun TOML → a GitHub Copilot hooks file, timeouts as `timeoutSec`.
///
/// # Errors
/// The TOML is not a valid hookrun config.
pub(crate) fn toml_to_copilot(path: &std::path::Path) -> Result<Converted, String> {
    write(path, Dialect::Copilot)
}

/// The agent's name for a hookrun event: the first entry of its table that
/// maps to it (Cursor's generic `preToolUse`, not `beforeShellExecution`).
fn event_name(agent: Dialect, event: &str) -> Option<&'static str> {
    let table = if agent == Dialect::Cursor {
        crate::dialect::cursor::events::EVENTS
    } else {
        crate::dialect::copilot::events::EVENTS
    };
    table.iter().find(|(_, m)| *m == event).map(|(a, _)| *a)
}

/// Whether the agent reads `matcher` on this event of its own: Cursor on
/// every event, Copilot only on `permissionRequest` and `notification`.
fn takes_matcher(agent: Dialect, name: &str) -> bool {
    agent == Dialect::Cursor || matches!(name, "permissionRequest" | "notification")
}

fn write(path: &std::path::Path, agent: Dialect) -> Result<Converted, String> {
    let config = load_toml(path)?;
    let them = if agent == Dialect::Cursor {
        "Cursor"
    } else {
        "Copilot"
    };
    let mut warnings = Vec::new();
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    if text.lines().any(|l| l.trim_start().starts_with("[limits]")) {
        warnings.push(format!(
            "`[limits]` has no {them} equivalent: not converted"
        ));
    }
    let mut events: Map<String, Value> = Map::new();
    for hook in &config.hooks {
        let key = &hook.origin.key;
        let Some(command) = shell_command(hook, &mut warnings) else {
            continue;
        };
        let mut lost = |what: &str| {
            warnings.push(format!("`{key}`: {them} has no {what}: not converted"));
        };
        if let Some(r) = &hook.if_rule {
            lost(&format!(
                "`if` (`{r}`), so the hook would run on every match"
            ));
        }
        if hook.is_async {
            lost("`async` hooks, so the hook would run in the foreground");
        }
        if !hook.env.is_empty() && agent == Dialect::Cursor {
            lost("per-hook `env`");
        }
        if hook.fail_mode == FailMode::Closed && agent == Dialect::Copilot {
            lost("fail-closed hooks (`fail_mode`)");
        }
        if let Some(input) = hook.input.filter(|i| *i != agent) {
            lost(&format!(
                "way to send a hook {} payloads (`input`), so the script would read {them}'s",
                input.as_str()
            ));
        }
        let mut h = Map::new();
        if agent == Dialect::Copilot {
            h.insert("type".into(), "command".into());
            h.insert("bash".into(), command.into());
        } else {
            h.insert("command".into(), command.into());
        }
        // Copilot's default is 30 s: hookrun's own default is written out.
        let timeout = hook.timeout.or_else(|| {
            (agent == Dialect::Copilot).then(|| {
                hook.events
                    .first()
                    .map_or(std::time::Duration::from_secs(600), |e| {
                        crate::events::default_timeout(e)
                    })
            })
        });
        if let Some(t) = timeout {
            let secs = t.as_secs_f64();
            if agent == Dialect::Copilot {
                if secs.fract() != 0.0 {
                    warnings.push(format!(
                        "`{key}`: Copilot counts whole seconds: `timeout` {secs} rounded up"
                    ));
                }
                h.insert(
                    "timeoutSec".into(),
                    json!(t.as_secs() + u64::from(secs.fract() != 0.0)),
                );
            } else if secs.fract() == 0.0 {
                h.insert("timeout".into(), json!(t.as_secs()));
            } else {
                h.insert("timeout".into(), json!(secs));
            }
        }
        if hook.fail_mode == FailMode::Closed && agent == Dialect::Cursor {
            h.insert("failClosed".into(), Value::Bool(true));
        }
        if !hook.env.is_empty() && agent == Dialect::Copilot {
            h.insert(
                "env".into(),
                hook.env
                    .iter()
                    .map(|(k, v)| (k.clone(), Value::String(v.clone())))
                    .collect::<Map<_, _>>()
                    .into(),
            );
        }
        for event in &hook.events {
            let Some(name) = event_name(agent, event) else {
                warnings.push(format!(
                    "`{key}`: {them} has no `{event}` event: not converted"
                ));
                continue;
            };
            if config.order_of(event) == Order::Sequential {
                warnings.push(format!(
                    "`{key}`: {them} has no sequential order for `{event}` hooks: `order` not converted"
                ));
            }
            let mut h = h.clone();
            if let Some(m) = &hook.matcher {
                if takes_matcher(agent, name) {
                    h.insert("matcher".into(), m.pattern().into());
                    if let Some(tool) = claude_tool_in(m.pattern()) {
                        warnings.push(format!(
                            "`{key}`: matcher `{}` names Claude Code's `{tool}` tool; {them} names its tools differently, so it is kept as written and may never match",
                            m.pattern()
                        ));
                    }
                } else {
                    warnings.push(format!(
                        "`{key}`: {them}'s `{name}` takes no matcher: `matcher` (`{}`) not converted, so the hook would run for every tool",
                        m.pattern()
                    ));
                }
            }
            if let Value::Array(list) = events
                .entry(name.to_owned())
                .or_insert_with(|| Value::Array(Vec::new()))
            {
                list.push(Value::Object(h));
            }
        }
    }
    warnings.dedup();
    let doc = json!({"version": 1, "hooks": events});
    let text = serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n";
    Ok(Converted { text, warnings })
}

/// A Claude Code tool name a matcher spells (`Bash`, `Edit|Write`): the
/// other agents call their tools otherwise (Cursor's shell is `Shell`).
fn claude_tool_in(pattern: &str) -> Option<&'static str> {
    const TOOLS: &[&str] = &[
        "Bash",
        "Edit",
        "MultiEdit",
        "Write",
        "Read",
        "Glob",
        "Grep",
        "NotebookEdit",
        "WebFetch",
        "WebSearch",
        "Task",
    ];
    pattern
        .split(|c: char| !c.is_ascii_alphanumeric())
        .find_map(|word| TOOLS.iter().find(|t| **t == word).copied())
}
