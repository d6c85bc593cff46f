//! Gathering hookrun's own files, which `protect-paths` keeps the guarded
//! tool from writing: the config layers read for this event, the user
//! config path and every `$HOOKRUN_CONFIG` file (read or not yet
//! existing), the trust list (`config::trust`), the audit log and the audit
//! key file, and every file an agent reads hooks from
//! (each agent's dialect names them: `ForeignFiles::hook_places`): Claude Code's user, project, local
//! and managed settings (a `disableAllHooks` in any of them turns off a
//! hookrun registered in another), Codex's `hooks.json` and `config.toml`,
//! Gemini CLI's settings, Cursor's `hooks.json` and Copilot's hooks
//! directories (every `*.json` in them).
//!
//! The loaded files are gathered once when the config is loaded
//! ([`OwnFiles::gather`]); the agents' project files are named from the
//! event's project directory when a guard first asks (`OwnSource`),
//! and the guard gets the resulting list as data.

use std::path::{Path, PathBuf};

use hookrun_guards::{OwnFiles as Listed, OwnKind};

use crate::agent::Agent;
use crate::dirs::{Homes, HookPlace};

/// hookrun's own files, as known when the config was loaded.
#[derive(Debug, Clone, Default)]
pub struct OwnFiles {
    /// Absolute paths and what each is.
    files: Vec<(PathBuf, OwnKind)>,
    /// The homes the agents' user files are found from.
    homes: Homes,
    /// Where each agent reads hooks from; `None` (no agent's files) only
    /// in configs built by hand.
    agents: Option<&'static dyn super::readers::ForeignFiles>,
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
    pub fn gather(
        s: &Sources<'_>,
        homes: Homes,
        agents: &'static dyn super::readers::ForeignFiles,
        cwd: &Path,
    ) -> OwnFiles {
        let mut files: Vec<(PathBuf, OwnKind)> = s
            .configs
            .iter()
            .chain(&s.named)
            .map(|p| (cwd.join(p), OwnKind::Config))
            .collect();
        files.extend(
            s.trust_list
                .iter()
                .map(|p| (cwd.join(p), OwnKind::TrustList)),
        );
        files.extend(s.audit_log.map(|p| (cwd.join(p), OwnKind::AuditLog)));
        files.extend(s.audit_key.map(|p| (cwd.join(p), OwnKind::AuditKey)));
        OwnFiles {
            files,
            homes,
            agents: Some(agents),
        }
    }
}

impl hookrun_guards::OwnSource for OwnFiles {
    /// Every own file for an event in `project`: the loaded ones and every
    /// place each agent reads hooks from, a directory standing for each
    /// file in it. Claude Code's JSON layers may also be among the configs;
    /// the first kind listed wins.
    fn own_files(&self, project: &Path) -> Listed {
        let mut all = Listed::new(self.homes.home.clone());
        for (path, kind) in &self.files {
            all.add(path, *kind);
        }
        if let Some(agents) = self.agents {
            for agent in Agent::ALL {
                for place in agents.hook_places(agent.dialect(), project, &self.homes) {
                    match place {
                        HookPlace::File(p) => all.add(&p, OwnKind::AgentSettings),
                        HookPlace::JsonDir(d) => all.add_dir(&d, OwnKind::AgentSettings),
                    }
                }
            }
        }
        all
    }
}
