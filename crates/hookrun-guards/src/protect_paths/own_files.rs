//! hookrun's own files, which `protect-paths` keeps the guarded tool from
//! writing (`own_files`, default on): a model that could edit them could
//! turn its own guard off. They are hookrun's config files, its trust list,
//! its audit log and audit key file (the key is not even to be read:
//! whoever reads it can forge sealed lines), and every file an agent reads
//! hooks from, whether or not it mentions hookrun today.
//!
//! Writing a directory that holds one of them (`rm -r .claude`,
//! `mv ~/.config/hookrun x`) counts as writing it, below the project and
//! home directories and `/`. Which files they are is the engine's
//! knowledge (where each agent keeps its settings): it hands the list over
//! as data ([`OwnFiles`]) for the project being judged.

use std::path::{Path, PathBuf};

use crate::command::resolve::walk;
use crate::command::tools::Access;
use crate::own_files::{OwnFiles, OwnKind};

impl OwnKind {
    fn describe(self) -> &'static str {
        match self {
            OwnKind::Config => {
                "hookrun's config: edit it yourself outside the agent (a project \
                 `hookrun.toml` then needs `hookrun trust` again)"
            }
            OwnKind::TrustList => {
                "hookrun's trust list: change it with `hookrun trust` outside the agent"
            }
            OwnKind::AuditLog => "hookrun's audit log: only hookrun appends to it",
            OwnKind::AuditKey => {
                "hookrun's audit key file: only a person handles it, outside the agent"
            }
            OwnKind::AgentSettings => {
                "an agent settings file that registers (or can turn off) hookrun: edit it \
                 yourself outside the agent, or use `hookrun install` / `hookrun install \
                 --uninstall`"
            }
        }
    }
}

/// Why an access to a path (its readings: as written and as walked) is
/// denied as one of hookrun's own files, or `None`. Only writes are
/// denied, and reads of the audit key.
#[must_use]
pub(super) fn denied(
    own: &OwnFiles,
    raw: &str,
    readings: &[PathBuf],
    access: Access,
    project: &Path,
) -> Option<String> {
    let home = own.home();
    // Directories too wide to count as holding an own file.
    let wide = |d: &Path| d.parent().is_none() || d == project || Some(d) == home;
    for (file, kind, dir) in own.files() {
        if access == Access::Read && kind != OwnKind::AuditKey {
            continue;
        }
        let forms = [file.to_path_buf(), walk(file).path];
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
