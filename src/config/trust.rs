//! The user's trust list: project config files hookrun reads with full
//! rights, each named by its absolute path and the SHA-256 of its content.
//!
//! A project file can be written by anyone who can write to the project,
//! the model included, so trust is given to one exact content: an edited
//! file is untrusted again until the user runs `hookrun trust` on it anew.
//! The list lives in `$XDG_CONFIG_HOME/hookrun/trusted.toml`, outside any
//! project.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// One trusted file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Entry {
    /// Absolute, with links resolved.
    pub path: PathBuf,
    /// Lowercase hex SHA-256 of the content trusted.
    pub sha256: String,
}

/// The trust list as stored.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct TrustList {
    #[serde(default, rename = "trusted")]
    pub entries: Vec<Entry>,
}

/// The trust list's path, if a config home can be named.
#[must_use]
pub(crate) fn list_path() -> Option<PathBuf> {
    super::discover::user_dir().map(|d| d.join("trusted.toml"))
}

/// The hex SHA-256 of a file's content.
#[must_use]
pub(crate) fn digest(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

impl TrustList {
    /// Reads the list; a missing file is an empty list.
    ///
    /// # Errors
    /// The file exists but cannot be read or parsed: said, so that a broken
    /// list is fixed rather than silently trusting nothing.
    pub(crate) fn read(path: &Path) -> Result<Self, String> {
        match std::fs::read_to_string(path) {
            Ok(text) => toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(TrustList::default()),
            Err(e) => Err(format!("{}: {e}", path.display())),
        }
    }

    /// The list at [`list_path`]; unreadable is empty, with the reason.
    #[must_use]
    pub(crate) fn load() -> (Self, Option<String>) {
        match list_path().map(|p| Self::read(&p)) {
            Some(Ok(list)) => (list, None),
            Some(Err(why)) => (TrustList::default(), Some(why)),
            None => (TrustList::default(), None),
        }
    }

    /// Whether this content of the file at `path` (absolute) is trusted.
    #[must_use]
    pub(crate) fn allows(&self, path: &Path, content: &[u8]) -> bool {
        let sum = digest(content);
        self.entries
            .iter()
            .any(|e| e.path == path && e.sha256 == sum)
    }

    /// Trusts this content of `path`, replacing an older entry for it.
    pub(crate) fn add(&mut self, path: &Path, content: &[u8]) {
        self.remove(path);
        self.entries.push(Entry {
            path: path.to_owned(),
            sha256: digest(content),
        });
    }

    /// Removes `path`'s entry; whether there was one.
    pub(crate) fn remove(&mut self, path: &Path) -> bool {
        let before = self.entries.len();
        self.entries.retain(|e| e.path != path);
        self.entries.len() != before
    }

    /// Writes the list whole, through a temporary file renamed over it, so
    /// that a reader never sees half a list.
    ///
    /// # Errors
    /// The directory cannot be created or the file written.
    pub(crate) fn write(&self, path: &Path) -> Result<(), String> {
        let fail = |e: std::io::Error| format!("{}: {e}", path.display());
        let dir = crate::dirs::dir_of(path);
        std::fs::create_dir_all(&dir).map_err(fail)?;
        let text = format!(
            "# Project config files hookrun reads with full rights: written by\n# `hookrun trust`; an entry holds only while the file keeps this content.\n{}",
            toml::to_string(self).map_err(|e| format!("{}: {e}", path.display()))?
        );
        let mut tmp = tempfile::NamedTempFile::new_in(&dir).map_err(fail)?;
        std::io::Write::write_all(&mut tmp, text.as_bytes()).map_err(fail)?;
        tmp.persist(path).map_err(|e| fail(e.error))?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trust_holds_for_one_content_only() {
        let mut list = TrustList::default();
        let path = Path::new("/p/hookrun.toml");
        list.add(path, b"a");
        assert!(list.allows(path, b"a"));
        assert!(!list.allows(path, b"b"));
        assert!(!list.allows(Path::new("/q/hookrun.toml"), b"a"));
        list.add(path, b"b");
        assert_eq!(list.entries.len(), 1);
        assert!(list.allows(path, b"b"));
        assert!(list.remove(path));
        assert!(!list.allows(path, b"b"));
    }

    #[test]
    fn list_round_trips() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("sub/trusted.toml");
        assert_eq!(TrustList::read(&file), Ok(TrustList::default()));
        let mut list = TrustList::default();
        list.add(Path::new("/p/hookrun.toml"), b"x");
        list.write(&file).expect("write");
        assert_eq!(TrustList::read(&file), Ok(list));
        std::fs::write(&file, "trusted = 3").expect("write");
        assert!(TrustList::read(&file).is_err());
    }
}
