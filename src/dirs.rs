//! Directories derived from paths: where a config's relative paths (audit
//! log, scripts, test fixtures) are resolved from.

use std::path::PathBuf;

/// The directory of a path, for project-relative defaults.
#[must_use]
pub fn dir_of(path: &std::path::Path) -> PathBuf {
    path.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .map_or_else(|| PathBuf::from("."), std::path::Path::to_path_buf)
}
