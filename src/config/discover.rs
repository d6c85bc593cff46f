//! Which config files are read when no `--config` is given, and how far
//! each is trusted. This is the one definition of discovery: `run`,
//! `serve`, `check` and `explain` all call [`discover`].
//!
//! Layering order, first file lowest (later files are appended; a scalar
//! such as `audit_log` takes the last value set):
//!
//! 1. the user config, `$XDG_CONFIG_HOME/hookrun/hookrun.toml`
//!    (`~/.config/hookrun/hookrun.toml` when `XDG_CONFIG_HOME` is unset),
//!    when it exists;
//! 2. `$HOOKRUN_CONFIG` (one path, or several separated by `:`), when set:
//!    the user's environment names these files, so a missing one is an
//!    error, as with `--config`;
//! 3. only when neither 1 nor 2 gave a file: Claude Code's own layers,
//!    lowest priority first: `~/.claude/settings.json`
//!    (`$CLAUDE_CONFIG_DIR` relocates `~/.claude`),
//!    `<project>/.claude/settings.json`,
//!    `<project>/.claude/settings.local.json`, then managed settings
//!    (`/etc/claude-code/managed-settings.json` and
//!    `managed-settings.d/*.json`; the list is `install::location`'s). A
//!    user who has a hookrun config of their own registers hookrun in those
//!    files, and their other hooks are Claude Code's to run: reading them
//!    too would run them twice. Even when read, their hooks are left to
//!    Claude Code (and Cursor, which loads them) for those agents' events
//!    (`install::agent_own`); they run for the other agents';
//! 4. the project file, `<project>/hookrun.toml`, when it exists and is not
//!    already one of the files above.
//!
//! `<project>` is `$CLAUDE_PROJECT_DIR`, else the current directory. Only
//! that directory is looked at: a `hookrun.toml` in a directory the model
//! `cd`'d into below the project is never read, and the project file never
//! changes which of 1–3 are read.
//!
//! Files 1–3 are the user's own. The project file may come with the code
//! being worked on, or be written by the model itself, so unless the user
//! trusted its exact content (`hookrun trust`, see `config::trust`) it may
//! only add guards: see `config::untrusted` for what is ignored.

use std::path::{Path, PathBuf};

/// Where a config file came from, which decides a few loading rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// `--config` flags: the user chose the files.
    Explicit,
    /// The user config under `$XDG_CONFIG_HOME/hookrun/`.
    User,
    /// `$HOOKRUN_CONFIG`.
    Env,
    /// Claude Code's own settings layers: these usually register hookrun
    /// itself, and those registrations must not run again.
    ClaudeLayers,
    /// `<project>/hookrun.toml`: trusted only when its content is on the
    /// user's trust list.
    Project,
}

/// One config file to read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub path: PathBuf,
    pub source: Source,
}

/// The config files to read, in layering order.
#[must_use]
pub(crate) fn discover(explicit: &[PathBuf]) -> Vec<Found> {
    discover_for(explicit, project_dir().as_deref())
}

/// As [`discover`], for an agent that names `project` as the project
/// (`hookrun test` evaluates its cases as `run` would in the suite's
/// project directory).
#[must_use]
pub(crate) fn discover_for(explicit: &[PathBuf], project: Option<&Path>) -> Vec<Found> {
    let found = |source| move |path| Found { path, source };
    if !explicit.is_empty() {
        return explicit
            .iter()
            .cloned()
            .map(found(Source::Explicit))
            .collect();
    }
    let mut files: Vec<Found> = user_config()
        .filter(|p| p.is_file())
        .map(found(Source::User))
        .into_iter()
        .collect();
    if let Some(list) = std::env::var_os("HOOKRUN_CONFIG").filter(|v| !v.is_empty()) {
        files.extend(std::env::split_paths(&list).map(found(Source::Env)));
    }
    if files.is_empty() {
        files.extend(
            claude_layers(project)
                .into_iter()
                .map(found(Source::ClaudeLayers)),
        );
    }
    if let Some(project) = project.and_then(project_file)
        && !files.iter().any(|f| same_file(&f.path, &project))
    {
        files.push(Found {
            path: project,
            source: Source::Project,
        });
    }
    files
}

/// Every place [`discover`] looks when no `--config` is given, for the
/// message of a run that found nothing: the user config, `$HOOKRUN_CONFIG`,
/// Claude Code's settings layers and the project file, each as a path.
#[must_use]
pub(crate) fn looked_for() -> Vec<String> {
    let mut places: Vec<String> = user_config()
        .map(|p| p.display().to_string())
        .into_iter()
        .collect();
    places.push("$HOOKRUN_CONFIG (unset)".to_owned());
    let claude_user = std::env::var_os("CLAUDE_CONFIG_DIR")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".claude")));
    if let Some(dir) = claude_user {
        places.push(dir.join("settings.json").display().to_string());
    }
    let project = project_dir();
    if let Some(p) = &project {
        places.push(p.join(".claude/settings.json").display().to_string());
        places.push(p.join(".claude/settings.local.json").display().to_string());
    }
    places.push("/etc/claude-code/managed-settings.json".to_owned());
    if let Some(p) = &project {
        places.push(p.join("hookrun.toml").display().to_string());
    }
    places
}

/// The paths of discovered files.
#[must_use]
pub(crate) fn paths(found: &[Found]) -> Vec<PathBuf> {
    found.iter().map(|f| f.path.clone()).collect()
}

/// The config files hookrun recognises in `dir` (what `check DIR` reads),
/// in layering order: `hookrun.toml`, `*.hookrun.toml` (by name), Claude
/// Code's `.claude/settings.json` and `.claude/settings.local.json`,
/// Codex's `.codex/hooks.json`, Gemini's `.gemini/settings.json`, Cursor's
/// `.cursor/hooks.json`, then Copilot's `.github/hooks/*.json` (by name).
/// Nothing deeper is searched: these are the places the agents read.
#[must_use]
pub(crate) fn in_directory(dir: &Path) -> Vec<PathBuf> {
    let mut files = vec![dir.join("hookrun.toml")];
    files.extend(named(dir, |n| n.ends_with(".hookrun.toml")));
    for sub in [
        ".claude/settings.json",
        ".claude/settings.local.json",
        ".codex/hooks.json",
        ".gemini/settings.json",
        ".cursor/hooks.json",
    ] {
        files.push(dir.join(sub));
    }
    files.extend(named(&dir.join(".github/hooks"), |n| n.ends_with(".json")));
    files.retain(|p| p.is_file());
    files
}

/// The entries of `dir` whose file name passes `keep`, sorted by name.
fn named(dir: &Path, keep: impl Fn(&str) -> bool) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_str().is_some_and(&keep))
        .map(|e| e.path())
        .collect();
    found.sort();
    found
}

/// hookrun's directory in the user's config home: the user config and the
/// trust list live there.
#[must_use]
pub(crate) fn user_dir() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        // The XDG spec ignores a relative value.
        .filter(|p| p.is_absolute())
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|v| !v.is_empty())
                .map(|h| Path::new(&h).join(".config"))
        })?;
    Some(base.join("hookrun"))
}

fn user_config() -> Option<PathBuf> {
    user_dir().map(|d| d.join("hookrun.toml"))
}

/// The directory the agent names as the project: `$CLAUDE_PROJECT_DIR`,
/// else the current directory.
pub(crate) fn project_dir() -> Option<PathBuf> {
    std::env::var_os("CLAUDE_PROJECT_DIR")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::current_dir().ok())
}

/// `<project>/hookrun.toml`, absolute and with links resolved, so that the
/// trust list and reports name one path for it.
pub(crate) fn project_file(project: &Path) -> Option<PathBuf> {
    let path = project.join("hookrun.toml");
    if !path.is_file() {
        return None;
    }
    std::fs::canonicalize(&path).ok()
}

pub(crate) fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Claude Code's own settings files that exist, lowest priority first:
/// the one list of them (`dirs`, which `install::location` names for the
/// agents that read them).
pub(super) fn claude_layers(project: Option<&Path>) -> Vec<PathBuf> {
    let Some(project) = project else {
        return Vec::new();
    };
    let homes = crate::dirs::Homes::from_env();
    crate::dirs::existing_files(
        crate::dirs::claude_settings(project, &homes).chain(crate::dirs::claude_managed_settings()),
    )
}
