//! hookrun's own files, which `protect-paths` keeps the guarded tool from
//! writing (`own_files`, default on): a model that could edit them could
//! turn its own guard off. They are
//!
//! - the config layers read for this event, the user config path and every
//!   `$HOOKRUN_CONFIG` file (read or not yet existing);
//! - the trust list (`config::trust`);
//! - the audit log and the audit key file (the key is not even to be read:
//!   whoever reads it can forge sealed lines);
//! - every file an agent reads hooks from, whether or not it mentions
//!   hookrun today (`install::location::hook_places`): Claude Code's user,
//!   project, local and managed settings (a `disableAllHooks` in any of
//!   them turns off a hookrun registered in another), Codex's `hooks.json`
//!   and `config.toml`, Gemini CLI's settings, Cursor's `hooks.json` and
//!   Copilot's hooks directories (every `*.json` in them).
//!
//! Writing a directory that holds one of them (`rm -r .claude`,
//! `mv ~/.config/hookrun x`) counts as writing it, below the project and
//! home directories and `/`. The list is gathered once when the config is
//! loaded ([`OwnFiles::gather`]); the project's files are named from the
//! event's project directory at judge time.

use std::path::{Path, PathBuf};

use crate::install::agent::Agent;
use crate::install::location::{Homes, HookPlace, hook_places};

use crate::builtin::command::resolve::{lexical, walk};
use crate::builtin::command::tools::Access;

/// What a protected file is, which says how a person changes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Config,
    TrustList,
    AuditLog,
    AuditKey,
    AgentSettings,
}

impl Kind {
    fn describe(self) -> &'static str {
        match self {
            Kind::Config => {
                "hookrun's config: edit it yourself outside the agent (a project \
                 `hookrun.toml` then needs `hookrun trust` again)"
            }
            Kind::TrustList => {
                "hookrun's trust list: change it with `hookrun trust` outside the agent"
            }
            Kind::AuditLog => "hookrun's audit log: only hookrun appends to it",
            Kind::AuditKey => {
                "hookrun's audit key file: only a person handles it, outside the agent"
            }
            Kind::AgentSettings => {
                "an agent settings file that registers (or can turn off) hookrun: edit it \
                 yourself outside the agent, or use `hookrun install` / `hookrun install \
                 --uninstall`"
            }
        }
    }
}

/// hookrun's own files, as known when the config was loaded.
#[derive(Debug, Clone, Default)]
pub struct OwnFiles {
    /// Absolute paths and what each is.
    files: Vec<(PathBuf, Kind)>,
    /// The homes the agents' user files are found from.
    homes: Homes,
}

/// Where the config was read from, for [`OwnFiles::gather`].
#[derive(Debug, Clone, Default)]
pub struct Sources<'a> {
    /// The config files read.
    pub configs: &'a [PathBuf],
    /// The user config path (read or not) and `$HOOKRUN_CONFIG`'s files.
    pub named: Vec<PathBuf>,
    pub trust_list: Option<PathBuf>,
    pub audit_log: Option<&'a Path>,
    pub audit_key: Option<&'a Path>,
}

impl OwnFiles {
    /// The own files of a loaded config. `cwd` makes relative paths
    /// absolute (the process's directory, as the config was read from it).
    #[must_use]
    pub fn gather(s: &Sources<'_>, homes: Homes, cwd: &Path) -> OwnFiles {
        let abs = |p: &Path| lexical(&cwd.join(p));
        let mut files: Vec<(PathBuf, Kind)> = s
            .configs
            .iter()
            .chain(&s.named)
            .map(|p| (abs(p), Kind::Config))
            .collect();
        files.extend(s.trust_list.iter().map(|p| (abs(p), Kind::TrustList)));
        files.extend(s.audit_log.map(|p| (abs(p), Kind::AuditLog)));
        files.extend(s.audit_key.map(|p| (abs(p), Kind::AuditKey)));
        OwnFiles { files, homes }
    }

    /// Every own file for an event in `project`: the loaded ones and every
    /// place each agent reads hooks from (`install::location::hook_places`),
    /// a directory standing for each file in it. Claude Code's JSON layers
    /// may also be among the configs; the first kind listed wins.
    fn all(&self, project: &Path) -> Vec<(PathBuf, Kind, bool)> {
        let mut all: Vec<(PathBuf, Kind, bool)> = self
            .files
            .iter()
            .map(|(p, k)| (p.clone(), *k, false))
            .collect();
        for agent in [
            Agent::Claude,
            Agent::Codex,
            Agent::Gemini,
            Agent::Cursor,
            Agent::Copilot,
        ] {
            for place in hook_places(agent, project, &self.homes) {
                let (path, dir) = match place {
                    HookPlace::File(p) => (p, false),
                    HookPlace::JsonDir(d) => (d, true),
                };
                all.push((lexical(&path), Kind::AgentSettings, dir));
            }
        }
        all
    }

    /// Why an access to a path (its readings: as written and as walked) is
    /// denied as one of hookrun's own files, or `None`. Only writes are
    /// denied, and reads of the audit key.
    #[must_use]
    pub fn denied(
        &self,
        raw: &str,
        readings: &[PathBuf],
        access: Access,
        project: &Path,
    ) -> Option<String> {
        let home = self.homes.home.as_deref();
        // Directories too wide to count as holding an own file.
        let wide = |d: &Path| d.parent().is_none() || d == project || Some(d) == home;
        for (file, kind, dir) in self.all(project) {
            if access == Access::Read && kind != Kind::AuditKey {
                continue;
            }
            let forms = [file.clone(), walk(&file).path];
            let hit = readings.iter().find(|r| {
                forms.iter().any(|f| {
                    r.as_path() == f.as_path()
                        // A directory the agent reads every file of.
                        || (dir && r.starts_with(f))
                        || (access == Access::Write && f.starts_with(r) && !wide(r))
                })
            });
            if let Some(r) = hit {
                let verb = if access == Access::Read {
                    "read"
                } else {
                    "write"
                };
                let held = if forms.iter().any(|f| f == r) {
                    String::new()
                } else {
                    format!(", which holds `{}`", file.display())
                };
                return Some(format!(
                    "{verb} of hookrun's own file: `{raw}` (as `{}`{held}) is {}",
                    r.display(),
                    kind.describe()
                ));
            }
        }
        None
    }
}
