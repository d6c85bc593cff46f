//! hookrun's own files for one project (its config files, its trust list,
//! its audit log and audit key file, and every file an agent reads hooks
//! from), as the engine hands them to the guards through the [`Context`]:
//! which files they are is the engine's knowledge (where each agent keeps
//! its settings), what they may not be used for is `protect-paths`'.
//!
//! [`Context`]: crate::Context

use std::path::{Path, PathBuf};

use crate::command::resolve::lexical;

/// What a protected file is, which says how a person changes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OwnKind {
    Config,
    TrustList,
    AuditLog,
    AuditKey,
    AgentSettings,
}

/// hookrun's own files for one project, as the engine gathered them.
#[derive(Debug, Clone, Default)]
pub struct OwnFiles {
    /// Absolute, lexically normal paths, what each is, and whether it is a
    /// directory standing for every file in it; the first listed wins.
    files: Vec<(PathBuf, OwnKind, bool)>,
    /// The user's home directory, too wide to count as holding an own file.
    home: Option<PathBuf>,
}

impl OwnFiles {
    /// No own file yet; `home` is the user's home directory.
    #[must_use]
    pub fn new(home: Option<PathBuf>) -> Self {
        OwnFiles {
            files: Vec::new(),
            home,
        }
    }

    /// Adds a file (an absolute path).
    pub fn add(&mut self, path: &Path, kind: OwnKind) {
        self.files.push((lexical(path), kind, false));
    }

    /// Adds a directory the agent reads every file of (an absolute path).
    pub fn add_dir(&mut self, dir: &Path, kind: OwnKind) {
        self.files.push((lexical(dir), kind, true));
    }

    /// Each file: its absolute, lexically normal path, what it is, and
    /// whether it is a directory standing for every file in it.
    pub(crate) fn files(&self) -> impl Iterator<Item = (&Path, OwnKind, bool)> {
        self.files.iter().map(|(p, k, d)| (p.as_path(), *k, *d))
    }

    /// The user's home directory.
    pub(crate) fn home(&self) -> Option<&Path> {
        self.home.as_deref()
    }
}
