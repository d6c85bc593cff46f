//! Where each agent keeps its hooks: the user's file (under the home, or
//! the agent's own directory variable) and the project's.

use std::path::{Path, PathBuf};

use super::installable::{Agent, Scope};

pub(crate) use crate::dirs::{Homes, HookPlace};

/// The agent's hooks file for the scope; `None` when the user's is asked
/// for and no home is known, or the local one of an agent that has none
/// (`has_local`). Copilot reads every `*.json` in its hooks directory, so
/// hookrun gets a file of its own there.
#[must_use]
pub(crate) fn settings_file(
    agent: Agent,
    scope: Scope,
    project: &Path,
    homes: &Homes,
) -> Option<PathBuf> {
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
pub(crate) fn has_local(agent: Agent) -> bool {
    agent == Agent::Claude
}

/// The backup of a settings file, made before its first edit.
#[must_use]
pub(crate) fn backup_of(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".hookrun-backup");
    path.with_file_name(name)
}

/// Every place the agent reads hooks from by itself, for a session in
/// `project`, lowest priority first: the one definition that
/// `protect-paths` (these files can register hookrun or turn it off) and
/// `run` (a hook read from one of them is the agent's to run, not
/// hookrun's) share. Places whose directory is unknown (no home) are left
/// out; the rest are listed whether or not they exist.
///
/// - Claude Code: the user's `settings.json` (`$CLAUDE_CONFIG_DIR`, else
///   `~/.claude`), the project's `.claude/settings.json` and
///   `.claude/settings.local.json`, and the managed settings under
///   `/etc/claude-code`.
/// - Codex: `hooks.json` and `config.toml` (whose `[hooks]` tables it also
///   reads) in `$CODEX_HOME` (else `~/.codex`) and in `<project>/.codex`.
/// - Gemini CLI: `/etc/gemini-cli/settings.json`, `~/.gemini/settings.json`
///   and `<project>/.gemini/settings.json`.
/// - Cursor: `~/.cursor/hooks.json` and `<project>/.cursor/hooks.json`,
///   and Claude Code's user, project and local settings, which Cursor
///   loads too (its "Third-party skills" setting).
/// - Copilot CLI: every `*.json` in `~/.copilot/hooks` and in
///   `<project>/.github/hooks`.
#[must_use]
pub(crate) fn hook_places(agent: Agent, project: &Path, homes: &Homes) -> Vec<HookPlace> {
    let file = |p: Option<PathBuf>| p.map(HookPlace::File);
    let home = homes.home.as_deref();
    let mut places: Vec<Option<HookPlace>> = Vec::new();
    match agent {
        Agent::Claude => {
            places.extend(crate::dirs::claude_settings(project, homes).map(Some));
            places.extend(crate::dirs::claude_managed_settings().map(Some));
        }
        Agent::Codex => {
            let user = homes
                .codex_home
                .clone()
                .or_else(|| home.map(|h| h.join(".codex")));
            for dir in [user, Some(project.join(".codex"))] {
                places.push(file(dir.as_ref().map(|d| d.join("hooks.json"))));
                places.push(file(dir.map(|d| d.join("config.toml"))));
            }
        }
        Agent::Gemini => {
            places.push(file(Some(PathBuf::from("/etc/gemini-cli/settings.json"))));
            places.push(file(home.map(|h| h.join(".gemini/settings.json"))));
            places.push(file(Some(project.join(".gemini/settings.json"))));
        }
        Agent::Cursor => {
            // Cursor's own files rank above Claude Code's; listed lowest first.
            places.extend(crate::dirs::claude_settings(project, homes).map(Some));
            places.push(file(home.map(|h| h.join(".cursor/hooks.json"))));
            places.push(file(Some(project.join(".cursor/hooks.json"))));
        }
        Agent::Copilot => {
            places.push(home.map(|h| HookPlace::JsonDir(h.join(".copilot/hooks"))));
            places.push(Some(HookPlace::JsonDir(project.join(".github/hooks"))));
        }
    }
    places.into_iter().flatten().collect()
}

/// The files of [`hook_places`] that exist, a directory's `*.json` files by
/// name: the files the agent reads hooks from today.
#[must_use]
pub(crate) fn hook_files(agent: Agent, project: &Path, homes: &Homes) -> Vec<PathBuf> {
    crate::dirs::existing_files(hook_places(agent, project, homes))
}
