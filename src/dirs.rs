//! Directories derived from paths: where a config's relative paths (audit
//! log, scripts, test fixtures) are resolved from, and the user's
//! directories (and their places) that agents' hooks files are found in.

use std::path::PathBuf;

/// The directory of a path, for project-relative defaults.
#[must_use]
pub fn dir_of(path: &std::path::Path) -> PathBuf {
    path.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .map_or_else(|| PathBuf::from("."), std::path::Path::to_path_buf)
}

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

/// A place an agent reads hooks from by itself: one file, or a directory
/// whose every `*.json` file it reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HookPlace {
    File(PathBuf),
    JsonDir(PathBuf),
}

/// The files of `places` that exist, a directory's `*.json` files by name.
#[must_use]
pub fn existing_files(places: impl IntoIterator<Item = HookPlace>) -> Vec<PathBuf> {
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
