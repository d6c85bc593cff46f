//! Each configured hook runs exactly once. An agent runs the hooks in its
//! own files itself (`dialect::location::hook_places`); hookrun, run as
//! that agent's hook, may read the same files as layers (Claude Code's
//! settings are discovered, any file can be named with `--config`), and
//! running their hooks too would run each of them twice. So for the agent
//! an event comes from, hookrun leaves those hooks out, and says so: the
//! agent does run them, so nothing is lost and nothing blocks.
//!
//! The agent is the event's dialect (`--dialect`, which every
//! registration `install` writes carries, or the one recognised from the
//! event). A dialect `install` knows no agent for (deputy, pydantic-deep)
//! reads no agent's files, and keeps every hook.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use crate::agent::Dialect;
use crate::dialect::location::{Homes, hook_files};
use crate::install::agent::Agent;

use crate::config::Config;
use crate::diagnostic::{Code, Diagnostic};

/// The config as `run` evaluates it for an event of `dialect`: without the
/// hooks read from a file that agent runs itself (`project` is the
/// session's project directory), each such file named in a notice.
/// Borrowed unchanged when no hook comes from such a file.
#[must_use]
pub(crate) fn for_agent<'a>(
    config: &'a Config,
    dialect: Dialect,
    project: &Path,
    homes: &Homes,
) -> Cow<'a, Config> {
    let Some(agent) = Agent::of(dialect) else {
        return Cow::Borrowed(config);
    };
    let own: Vec<PathBuf> = hook_files(agent, project, homes)
        .iter()
        .filter_map(|p| std::fs::canonicalize(p).ok())
        .collect();
    if own.is_empty() {
        return Cow::Borrowed(config);
    }
    let is_own = |file: &Path| {
        std::fs::canonicalize(file)
            .ok()
            .is_some_and(|f| own.contains(&f))
    };
    let left: Vec<PathBuf> = config
        .files
        .iter()
        .filter(|f| is_own(f) && config.hooks.iter().any(|h| &h.origin.file == *f))
        .cloned()
        .collect();
    if left.is_empty() {
        return Cow::Borrowed(config);
    }
    let mut config = config.clone();
    config.hooks.retain(|h| !left.contains(&h.origin.file));
    for file in &left {
        config.quiet_notices.push(left_to_agent(file, agent));
    }
    config.left_to_agent = left;
    Cow::Owned(config)
}

/// The agents that run the hooks in `file` themselves (`config show`
/// names them next to each such hook).
#[must_use]
pub(crate) fn agents_running(file: &Path, project: &Path, homes: &Homes) -> Vec<Agent> {
    let Ok(file) = std::fs::canonicalize(file) else {
        return Vec::new();
    };
    Agent::ALL
        .into_iter()
        .filter(|a| {
            hook_files(*a, project, homes)
                .iter()
                .any(|p| std::fs::canonicalize(p).is_ok_and(|p| p == file))
        })
        .collect()
}

/// The notice for a file whose hooks hookrun leaves to the agent.
#[must_use]
pub(crate) fn left_to_agent(file: &Path, agent: Agent) -> Diagnostic {
    Diagnostic::new(
        Code::AgentRunsIt,
        file.to_path_buf(),
        format!(
            "hookrun leaves the hooks in this file to {}, which runs them itself (running them here too would run each twice)",
            agent_name(agent)
        ),
    )
}

/// The agent's name as its users know it.
#[must_use]
pub(crate) fn agent_name(agent: Agent) -> &'static str {
    crate::dialect::setup(agent).name
}

/// The config for an event `agent` sent to hookrun's registration for
/// `via`, an agent whose settings files it also runs (Cursor loads Claude
/// Code's): when `agent`'s own files register hookrun too, that
/// registration judges the event and this one runs nothing, so that
/// hookrun's hooks run once; otherwise this one judges it, as `agent`'s
/// (`for_agent` with its files).
#[must_use]
pub(crate) fn for_agent_via<'a>(
    config: &'a Config,
    agent: Agent,
    via: Agent,
    project: &Path,
    homes: &Homes,
) -> Cow<'a, Config> {
    let Some(file) = own_registration(agent, via, project, homes) else {
        return for_agent(config, agent.dialect(), project, homes);
    };
    let mut config = config.clone();
    config.hooks.clear();
    config.left_to_agent = config.files.clone();
    let (name, via_name) = (agent_name(agent), agent_name(via));
    config.quiet_notices.push(Diagnostic::new(
        Code::AgentRunsIt,
        file,
        format!(
            "{name} ran hookrun's {via_name} registration; hookrun's {name} registration in this file judges the same event, so this one ran nothing (each hook runs once)"
        ),
    ));
    Cow::Owned(config)
}

/// The first of `agent`'s own hooks files (not `via`'s, which it also
/// reads) that registers hookrun for `agent`.
fn own_registration(agent: Agent, via: Agent, project: &Path, homes: &Homes) -> Option<PathBuf> {
    let via_files = hook_files(via, project, homes);
    hook_files(agent, project, homes)
        .into_iter()
        .filter(|f| !via_files.contains(f))
        .find(|f| {
            std::fs::read(f)
                .ok()
                .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
                .is_some_and(|v| registers(&v, agent))
        })
}

/// Whether a hooks file's JSON holds a `command` (Copilot: `bash`) that is hookrun's
/// registration for `agent`.
#[must_use]
pub(crate) fn registers(value: &serde_json::Value, agent: Agent) -> bool {
    use serde_json::Value;
    match value {
        Value::Object(map) => map.iter().any(|(k, v)| {
            ((k == "command" || k == "bash")
                && v.as_str()
                    .is_some_and(|c| crate::install::agent::is_registration(c, agent)))
                || registers(v, agent)
        }),
        Value::Array(items) => items.iter().any(|v| registers(v, agent)),
        _ => false,
    }
}
