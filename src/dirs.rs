//! Directories derived from paths: where a config's relative paths (audit
//! log, scripts, test fixtures) are resolved from, and the user's
//! directories (and their places) that agents' hooks files are found in.

use std::path::{Path, PathBuf};

/// The directory of a path, for project-relative defaults.
#[must_use]
pub(crate) fn dir_of(path: &std::path::Path) -> PathBuf {
    path.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .map_or_else(|| PathBuf::from("."), std::path::Path::to_path_buf)
}

/// The directories the user's files are found from: the home, and the
/// variables with which an agent moves its own directory
/// (`$CLAUDE_CONFIG_DIR`, `$CODEX_HOME`, …), which each agent's dialect
/// names.
#[derive(Debug, Clone, Default)]
pub struct Homes {
    pub home: Option<PathBuf>,
    /// Every variable of the environment set to a non-empty value.
    vars: std::sync::Arc<std::collections::BTreeMap<String, PathBuf>>,
}

impl Homes {
    /// From the environment, as it was when this was first asked: hookrun
    /// never changes its own environment, and an event asks for it several
    /// times (discovery, the agents' own files, protect-paths' list), so it
    /// is read once per process.
    #[must_use]
    pub fn from_env() -> Homes {
        static READ: std::sync::OnceLock<Homes> = std::sync::OnceLock::new();
        READ.get_or_init(|| {
            let vars: std::collections::BTreeMap<String, PathBuf> = std::env::vars_os()
                .filter(|(_, v)| !v.is_empty())
                .filter_map(|(k, v)| Some((k.into_string().ok()?, PathBuf::from(v))))
                .collect();
            Homes {
                home: vars.get("HOME").cloned(),
                vars: std::sync::Arc::new(vars),
            }
        })
        .clone()
    }

    /// An agent's own directory: the one `var` names, else `under_home`
    /// in the home; `None` when neither is known.
    #[must_use]
    pub fn dir(&self, var: Option<&str>, under_home: &str) -> Option<PathBuf> {
        var.and_then(|v| self.vars.get(v))
            .cloned()
            .or_else(|| self.home.as_ref().map(|h| h.join(under_home)))
    }

    /// The path a variable of the environment names, where it is set.
    #[must_use]
    pub fn var(&self, name: &str) -> Option<&Path> {
        self.vars.get(name).map(PathBuf::as_path)
    }

    /// These homes with `var` set to `dir` (tests).
    #[cfg(test)]
    #[must_use]
    pub(crate) fn with_var(mut self, var: &str, dir: &Path) -> Homes {
        std::sync::Arc::make_mut(&mut self.vars).insert(var.to_owned(), dir.to_owned());
        self
    }
}

/// A place an agent reads hooks from by itself: one file, or a directory
/// whose every `*.json` file it reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HookPlace {
    File(PathBuf),
    JsonDir(PathBuf),
}

/// The files of `places` that exist, a directory's `*.json` files by name.
#[must_use]
pub(crate) fn existing_files(places: impl IntoIterator<Item = HookPlace>) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for place in places {
        match place {
            HookPlace::File(p) => files.push(p),
            HookPlace::JsonDir(d) => {
                let mut inside: Vec<PathBuf> = std::fs::read_dir(&d)
                    .into_iter()
                    .flatten()
                    .filter_map(Result::ok)
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|e| e == "json"))
                    .collect();
                inside.sort();
                files.extend(inside);
            }
        }
    }
    files.retain(|p| p.is_file());
    files
}

/// Claude Code's user, project and local settings files, lowest priority
/// first, whether or not they exist: the layers config discovers, and
/// places Cursor reads too (here, below both, so that config and install
/// name one list).
pub(crate) fn claude_settings(project: &Path, homes: &Homes) -> impl Iterator<Item = HookPlace> {
    let user = homes
        .dir(Some("CLAUDE_CONFIG_DIR"), ".claude")
        .map(|d| d.join("settings.json"));
    user.into_iter()
        .chain([
            project.join(".claude/settings.json"),
            project.join(".claude/settings.local.json"),
        ])
        .map(HookPlace::File)
}

/// Claude Code's managed settings, which rank above every other file.
pub(crate) fn claude_managed_settings() -> impl Iterator<Item = HookPlace> {
    let managed = Path::new("/etc/claude-code");
    [
        HookPlace::File(managed.join("managed-settings.json")),
        HookPlace::JsonDir(managed.join("managed-settings.d")),
    ]
    .into_iter()
}
