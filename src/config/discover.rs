//! Which config files `run` reads when no `--config` is given:
//!
//! 1. `$HOOKRUN_CONFIG` (one path, or several separated by `:`);
//! 2. else `./hookrun.toml`;
//! 3. else Claude Code's own layers for the current project, lowest priority
//!    first (spec 1.1): `~/.claude/settings.json` (`$CLAUDE_CONFIG_DIR`
//!    relocates `~/.claude`), `<project>/.claude/settings.json`,
//!    `<project>/.claude/settings.local.json`, then managed settings
//!    (`/etc/claude-code/managed-settings.json` and
//!    `managed-settings.d/*.json`). `<project>` is `$CLAUDE_PROJECT_DIR`,
//!    else the current directory. Missing layers are skipped.

use std::path::{Path, PathBuf};

/// Where the config came from, which decides a few loading rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Discovery {
    /// `--config` flags.
    Explicit,
    /// `$HOOKRUN_CONFIG` or `./hookrun.toml`.
    Hookrun,
    /// Claude Code's own settings layers: these usually register hookrun
    /// itself, and those registrations must not run again.
    ClaudeLayers,
}

/// The config files to read, in layering order.
#[must_use]
pub fn discover(explicit: &[PathBuf]) -> (Vec<PathBuf>, Discovery) {
    if !explicit.is_empty() {
        return (explicit.to_vec(), Discovery::Explicit);
    }
    if let Some(list) = std::env::var_os("HOOKRUN_CONFIG").filter(|v| !v.is_empty()) {
        return (std::env::split_paths(&list).collect(), Discovery::Hookrun);
    }
    let local = PathBuf::from("hookrun.toml");
    if local.is_file() {
        return (vec![local], Discovery::Hookrun);
    }
    (claude_layers(), Discovery::ClaudeLayers)
}

fn claude_layers() -> Vec<PathBuf> {
    let user_dir = std::env::var_os("CLAUDE_CONFIG_DIR")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".claude")));
    let project = std::env::var_os("CLAUDE_PROJECT_DIR")
        .map(PathBuf::from)
        .or_else(|| std::env::current_dir().ok());
    let mut candidates = Vec::new();
    if let Some(user) = user_dir {
        candidates.push(user.join("settings.json"));
    }
    if let Some(project) = project {
        candidates.push(project.join(".claude/settings.json"));
        candidates.push(project.join(".claude/settings.local.json"));
    }
    let managed = Path::new("/etc/claude-code");
    candidates.push(managed.join("managed-settings.json"));
    if let Ok(entries) = std::fs::read_dir(managed.join("managed-settings.d")) {
        let mut dropins: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        dropins.sort();
        candidates.extend(dropins);
    }
    candidates.into_iter().filter(|p| p.is_file()).collect()
}
