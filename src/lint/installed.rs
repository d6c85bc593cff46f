//! What the installed setup does with a config: which agents' settings
//! register hookrun to read it, and on which events. Two findings follow
//! from that which no single file shows: a hook on an event hookrun is
//! registered for in no agent that reads its config never runs (W019),
//! and a matcher naming one agent's tool never matches the tool of
//! another agent that reads the config (W020).

use std::path::{Path, PathBuf};

use crate::config::{Code, Config, Diagnostic, Hook};
use crate::install::agent::{Agent, Scope, is_registration};
use crate::install::agent_own::{agent_name, agents_running};
use crate::install::events::agent_event;
use crate::install::location::{Homes, hook_files, settings_file};

/// One hookrun registration found in an agent's settings.
#[derive(Debug, Clone)]
pub(crate) struct Registration {
    pub(crate) agent: Agent,
    pub(crate) scope: Scope,
    /// The settings file it is in.
    pub(crate) file: PathBuf,
    /// The agent's own name of the event it is registered on.
    pub(crate) event: String,
    /// The command as written; for Claude Code's `http` handler posting
    /// to a `serve --http` endpoint, the `hookrun forward` command that
    /// posts the same event there (`http`).
    pub(crate) command: String,
    /// The handler is an `http` handler, not a command.
    pub(crate) http: bool,
    /// The handler's own fail-safe key, as written (Claude Code's
    /// `onFailure`, Cursor's `failClosed`); `None` when it has none.
    pub(crate) fail_safe: Option<serde_json::Value>,
    /// The config it names with `--config`, resolved against the project;
    /// `None`: it reads the files discovery finds.
    pub(crate) config: Option<PathBuf>,
}

/// Every hookrun registration in the agents' JSON settings files for a
/// session in `project` (both scopes; Codex's `config.toml` hooks are not
/// read).
pub(crate) fn registrations(project: &Path, homes: &Homes) -> Vec<Registration> {
    let mut out = Vec::new();
    for agent in Agent::ALL {
        for file in hook_files(agent, project, homes) {
            if file.extension().is_none_or(|e| e != "json") {
                continue;
            }
            let Some(value) = std::fs::read(&file)
                .ok()
                .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
            else {
                continue;
            };
            let Some(events) = value.get("hooks").and_then(|h| h.as_object()) else {
                continue;
            };
            let scope = scope_of(agent, &file, project, homes);
            for (event, handlers) in events {
                let mut commands = Vec::new();
                registration_commands(handlers, agent, &mut commands);
                for (command, fail_safe, http) in commands {
                    out.push(Registration {
                        agent,
                        scope,
                        file: file.clone(),
                        event: event.clone(),
                        config: config_of(&command, project),
                        command,
                        fail_safe,
                        http,
                    });
                }
            }
        }
    }
    out
}

/// The registration commands for `agent` anywhere under `value`
/// (Claude Code's `command`, Copilot CLI's `bash`), each with its
/// handler's fail-safe key; and each `http` handler posting to a `serve
/// --http` endpoint for the agent, as the `hookrun forward` command that
/// posts the same event there (marked `true`).
fn registration_commands(
    value: &serde_json::Value,
    agent: Agent,
    out: &mut Vec<(String, Option<serde_json::Value>, bool)>,
) {
    use serde_json::Value;
    match value {
        Value::Object(map) => {
            let fail_safe = || {
                crate::install::fail_safe::key(agent)
                    .and_then(|k| map.get(k))
                    .cloned()
            };
            if let Some(command) = http_registration(map, agent) {
                out.push((command, fail_safe(), true));
                return;
            }
            for (k, v) in map {
                match v.as_str() {
                    Some(c) if (k == "command" || k == "bash") && is_registration(c, agent) => {
                        out.push((c.to_owned(), fail_safe(), false));
                    }
                    _ => registration_commands(v, agent, out),
                }
            }
        }
        Value::Array(items) => {
            for v in items {
                registration_commands(v, agent, out);
            }
        }
        _ => {}
    }
}

/// For an `http` handler posting to a `serve --http` endpoint of the
/// agent's, the `hookrun forward` command that posts the same event, with
/// the same token variable (the first of `allowedEnvVars` its
/// `Authorization` header names).
fn http_registration(
    map: &serde_json::Map<String, serde_json::Value>,
    agent: Agent,
) -> Option<String> {
    use serde_json::Value;
    if map.get("type").and_then(Value::as_str) != Some("http") {
        return None;
    }
    let url = map.get("url").and_then(Value::as_str)?;
    if !crate::install::agent::is_http_registration(url, agent) {
        return None;
    }
    let authorization = map
        .get("headers")
        .and_then(|h| h.get("Authorization"))
        .and_then(Value::as_str)
        .unwrap_or("");
    let token_env = map
        .get("allowedEnvVars")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .find(|v| {
            authorization.contains(&format!("${{{v}}}")) || authorization.contains(&format!("${v}"))
        });
    Some(crate::install::command(
        "hookrun",
        agent,
        &crate::install::Invocation {
            server: Some(crate::install::Server { url, token_env }),
            ..crate::install::Invocation::default()
        },
    ))
}

/// The scope `install` would be given to rewrite the registration in `file`.
fn scope_of(agent: Agent, file: &Path, project: &Path, homes: &Homes) -> Scope {
    let is = |scope| {
        settings_file(agent, scope, project, homes)
            .is_some_and(|s| crate::config::same_file(&s, file))
    };
    if is(Scope::Local) {
        Scope::Local
    } else if is(Scope::Project) || file.starts_with(project) {
        Scope::Project
    } else {
        Scope::User
    }
}

/// The config a registration names with `--config` (the last words of
/// what `install` writes), with the agent's project variable or a
/// relative path resolved against `project`.
fn config_of(command: &str, project: &Path) -> Option<PathBuf> {
    let (_, word) = command.split_once(" --config ")?;
    let mut rest = word.trim();
    for anchor in [
        "\"$CLAUDE_PROJECT_DIR\"/",
        "\"${CLAUDE_PROJECT_DIR}\"/",
        "${CLAUDE_PROJECT_DIR}/",
        "$CLAUDE_PROJECT_DIR/",
        "\"$GEMINI_PROJECT_DIR\"/",
        "${GEMINI_PROJECT_DIR}/",
        "$GEMINI_PROJECT_DIR/",
    ] {
        if let Some(r) = rest.strip_prefix(anchor) {
            rest = r;
            break;
        }
    }
    let path = PathBuf::from(unquote(rest));
    Some(if path.is_absolute() {
        path
    } else {
        project.join(path)
    })
}

/// One shell word without its quotes (single, double, backslash).
pub(crate) fn unquote(word: &str) -> String {
    let mut out = String::new();
    let mut chars = word.chars();
    let mut quote: Option<char> = None;
    while let Some(c) = chars.next() {
        match (quote, c) {
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None | Some('"'), '\\') => {
                if let Some(next) = chars.next() {
                    out.push(next);
                }
            }
            _ => out.push(c),
        }
    }
    out
}

/// hookrun's events that an agent's registration on `theirs` receives.
pub(crate) fn model_events(agent: Agent, theirs: &str) -> Vec<String> {
    crate::dialect::setup(agent).events.model(theirs)
}

/// The registrations that read `file`: those naming it with `--config`,
/// and, when discovery finds it, those naming none.
fn reading<'a>(
    regs: &'a [Registration],
    file: &Path,
    discovered: &[PathBuf],
) -> Vec<&'a Registration> {
    let discovered = discovered.iter().any(|d| crate::config::same_file(d, file));
    regs.iter()
        .filter(|r| match &r.config {
            Some(c) => crate::config::same_file(c, file),
            None => discovered,
        })
        .collect()
}

/// W019 and W020 for the hooks of `config`, from the registrations in the
/// agents' settings for a session in `project`. Hooks read from an
/// agent's own hooks file are that agent's: it runs them itself, with its
/// own tool names.
pub(super) fn lint_installed(config: &Config, project: &Path, out: &mut Vec<Diagnostic>) {
    let homes = Homes::from_env();
    let regs = registrations(project, &homes);
    let discovered: Vec<PathBuf> =
        crate::config::paths(&crate::config::discover_for(&[], Some(project)));
    let mut files: Vec<&PathBuf> = Vec::new();
    for hook in &config.hooks {
        if !files.contains(&&hook.origin.file) {
            files.push(&hook.origin.file);
        }
    }
    for file in files {
        if !agents_running(file, project, &homes).is_empty() {
            continue;
        }
        let hooks: Vec<&Hook> = config
            .hooks
            .iter()
            .filter(|h| &h.origin.file == file && !h.runs_hookrun())
            .collect();
        let readers = reading(&regs, file, &discovered);
        unregistered(&hooks, &readers, project, out);
        let mut agents: Vec<Agent> = Vec::new();
        for r in &readers {
            if !agents.contains(&r.agent) {
                agents.push(r.agent);
            }
        }
        for hook in &hooks {
            if let Some(d) = one_agents_tool(hook, &agents) {
                out.push(d);
            }
        }
    }
}

/// W019: each event the file has hooks on that no registration reading
/// the file receives. Silent when none reads it at all: hookrun is not
/// installed for it yet, and `install` registers every event it uses.
fn unregistered(
    hooks: &[&Hook],
    readers: &[&Registration],
    project: &Path,
    out: &mut Vec<Diagnostic>,
) {
    if readers.is_empty() {
        return;
    }
    let mut seen: Vec<&str> = Vec::new();
    for hook in hooks {
        for event in &hook.events {
            if seen.contains(&event.as_str()) || crate::events::known(event).is_none() {
                continue;
            }
            seen.push(event);
            let covered = readers
                .iter()
                .any(|r| model_events(r.agent, &r.event).contains(event));
            if covered {
                continue;
            }
            let mut installs: Vec<String> = Vec::new();
            let mut names: Vec<&str> = Vec::new();
            for r in readers {
                let name = agent_name(r.agent);
                if !names.contains(&name) {
                    names.push(name);
                }
                if agent_event(r.agent, event).is_none() {
                    continue;
                }
                let cmd = install_command(r, project);
                if !installs.contains(&cmd) {
                    installs.push(cmd);
                }
            }
            let message = format!(
                "hookrun is registered on `{event}` in no agent that reads this file ({} {} it for other events), so this hook never runs{}",
                names.join(", "),
                if names.len() == 1 {
                    "registers"
                } else {
                    "register"
                },
                if installs.is_empty() {
                    ""
                } else {
                    " until `install` registers the event"
                },
            );
            let d = hook.diagnostic(Code::EventNotRegistered, message);
            out.push(if installs.is_empty() {
                let lacking = match names.as_slice() {
                    [one] => format!("{one} has no `{event}`: move the hook to an event it has"),
                    _ => format!(
                        "none of {} has `{event}`: move the hook to an event they have",
                        names.join(", ")
                    ),
                };
                d.fix(format!("{lacking}, or remove it"))
            } else {
                d.fix(format!("run {}", installs.join(" and ")))
            });
        }
    }
}

/// The `install` command that rewrites a registration with every event
/// its config uses.
pub(crate) fn install_command(r: &Registration, project: &Path) -> String {
    let mut c = format!("`hookrun install --agent {}", r.agent.as_str());
    match r.scope {
        Scope::User => {}
        Scope::Project => c.push_str(" --scope project"),
        Scope::Local => c.push_str(" --scope local"),
    }
    if let Some((url, token_env)) = crate::install::agent::server_of(&r.command) {
        c.push_str(" --url ");
        c.push_str(&hookrun_sh::word::word(crate::server_client::base_url(
            &url,
        )));
        if let Some(var) = token_env {
            c.push_str(" --token-env ");
            c.push_str(&var);
        }
    }
    if let Some(config) = &r.config {
        let shown = config.strip_prefix(project).unwrap_or(config);
        c.push_str(" --config ");
        c.push_str(&hookrun_sh::word::word(&shown.display().to_string()));
    }
    c.push('`');
    c
}

/// W020: a name-list matcher on a tool event that names a tool of one
/// agent's family and none of the names another agent registered to read
/// the file gives that family. With no registration, nothing is known of
/// which agents will read the file, and `matcher = "Bash"` is right for a
/// config only Claude Code reads: silent.
fn one_agents_tool(hook: &Hook, agents: &[Agent]) -> Option<Diagnostic> {
    let matcher = hook.matcher.as_ref()?;
    for event in &hook.events {
        let Some(info) = crate::events::known(event) else {
            continue;
        };
        if !info.tool_event {
            continue;
        }
        let Some(listed) = matcher.listed_names(info.names) else {
            continue;
        };
        for family in ["@shell", "@read", "@write", "@edit"] {
            // Each agent's own names of its tools in the family, where
            // known: an agent or family left out is not judged.
            let names = |a: Agent| {
                crate::dialect::setup(a)
                    .tool_names
                    .iter()
                    .find(|(f, _)| *f == family)
                    .map(|(_, n)| *n)
            };
            let Some(named) = listed.iter().find(|l| {
                Agent::ALL
                    .iter()
                    .any(|a| names(*a).is_some_and(|n| n.contains(l)))
            }) else {
                continue;
            };
            let missed: Vec<String> = agents
                .iter()
                .filter_map(|a| {
                    let theirs = names(*a)?;
                    (!theirs.iter().any(|t| listed.contains(t))).then(|| {
                        format!(
                            "{} calls it {}",
                            agent_name(*a),
                            theirs
                                .iter()
                                .map(|t| format!("`{t}`"))
                                .collect::<Vec<_>>()
                                .join(" or ")
                        )
                    })
                })
                .collect();
            if missed.is_empty() {
                continue;
            }
            let d = hook.diagnostic(
                Code::OneAgentsTool,
                format!(
                    "matcher `{}` names `{named}`, one agent's {} tool; of the agents registered to read this file, {}, so the hook never runs for {}",
                    matcher.pattern(),
                    &family[1..],
                    missed.join(", "),
                    if missed.len() == 1 { "it" } else { "them" }
                ),
            );
            return Some(d.fix(format!(
                "write `{family}` in place of `{named}`: it matches every agent's {} tool",
                &family[1..]
            )));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_config_a_registration_names_is_resolved_against_the_project() {
        let p = Path::new("/p");
        let c = |s: &str| config_of(s, p);
        assert_eq!(c("hookrun run --dialect claude"), None);
        assert_eq!(
            c("hookrun run --dialect claude --config \"$CLAUDE_PROJECT_DIR\"/h.toml"),
            Some(PathBuf::from("/p/h.toml"))
        );
        assert_eq!(
            c("hookrun run --dialect gemini --config $GEMINI_PROJECT_DIR/'my p/h.toml'"),
            Some(PathBuf::from("/p/my p/h.toml"))
        );
        assert_eq!(
            c("hookrun run --dialect codex --config ci/h.toml"),
            Some(PathBuf::from("/p/ci/h.toml"))
        );
        assert_eq!(
            c("hookrun run --dialect codex --config '/a b/h.toml'"),
            Some(PathBuf::from("/a b/h.toml"))
        );
    }

    #[test]
    fn each_agents_events_map_back_to_hookruns() {
        assert_eq!(model_events(Agent::Gemini, "BeforeTool"), ["PreToolUse"]);
        assert_eq!(model_events(Agent::Copilot, "agentStop"), ["Stop"]);
        assert_eq!(model_events(Agent::Cursor, "stop"), ["Stop"]);
        assert_eq!(model_events(Agent::Codex, "Stop"), ["Stop"]);
    }
}
