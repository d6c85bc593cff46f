//! Where each agent keeps its hooks: the user's file (under the home, or
//! the agent's own directory variable) and the project's.

use std::path::{Path, PathBuf};

use super::agent::Agent;
use super::agent::Scope;

/// The directories the user's files are found from.
#[derive(Debug, Clone, Default)]
pub struct Homes {
    pub home: Option<PathBuf>,
    /// `$CLAUDE_CONFIG_DIR`: Claude Code's user directory.
    pub claude_config_dir: Option<PathBuf>,
    /// `$CODEX_HOME`: Codex's user directory.
    pub codex_home: Option<PathBuf>,
}

impl Homes {
    /// From the environment.
    #[must_use]
    pub fn from_env() -> Homes {
        let var = |k: &str| {
            std::env::var_os(k)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        Homes {
            home: var("HOME"),
            claude_config_dir: var("CLAUDE_CONFIG_DIR"),
            codex_home: var("CODEX_HOME"),
        }
    }
}

/// The agent's hooks file for the scope; `None` when the user's is asked
/// for and no home is known, or the local one of an agent that has none
/// (`has_local`). Copilot reads every `*.json` in its hooks directory, so
/// hookrun gets a file of its own there.
#[must_use]
pub fn settings_file(agent: Agent, scope: Scope, project: &Path, homes: &Homes) -> Option<PathBuf> {
    let home = homes.home.as_deref();
    let user = |dir: &str| home.map(|h| h.join(dir));
    Some(match (agent, scope) {
        (Agent::Claude, Scope::User) => homes
            .claude_config_dir
            .clone()
            .or_else(|| user(".claude"))?
            .join("settings.json"),
        (Agent::Claude, Scope::Project) => project.join(".claude/settings.json"),
        (Agent::Claude, Scope::Local) => project.join(".claude/settings.local.json"),
        (_, Scope::Local) => return None,
        (Agent::Codex, Scope::User) => homes
            .codex_home
            .clone()
            .or_else(|| user(".codex"))?
            .join("hooks.json"),
        (Agent::Codex, Scope::Project) => project.join(".codex/hooks.json"),
        (Agent::Gemini, Scope::User) => user(".gemini")?.join("settings.json"),
        (Agent::Gemini, Scope::Project) => project.join(".gemini/settings.json"),
        (Agent::Cursor, Scope::User) => user(".cursor")?.join("hooks.json"),
        (Agent::Cursor, Scope::Project) => project.join(".cursor/hooks.json"),
        (Agent::Copilot, Scope::User) => user(".copilot/hooks")?.join("hookrun.json"),
        (Agent::Copilot, Scope::Project) => project.join(".github/hooks/hookrun.json"),
    })
}

/// Whether the agent reads a project file of this machine's own, kept out
/// of version control: only Claude Code (`.claude/settings.local.json`).
/// Codex, Gemini CLI, Cursor and Copilot CLI read the project's shared
/// file and the user's; a registration only this machine can run belongs
/// in the user's.
#[must_use]
pub fn has_local(agent: Agent) -> bool {
    agent == Agent::Claude
}

/// The backup of a settings file, made before its first edit.
#[must_use]
pub fn backup_of(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".hookrun-backup");
    path.with_file_name(name)
}
