//! Where each agent keeps its hooks, as its dialect's `Setup::places`
//! says: the user's file (under the home, or the agent's own directory
//! variable), the project's, and every place it reads hooks from.

use std::path::{Path, PathBuf};

use crate::agent::{Agent, Scope};

pub(crate) use crate::dirs::{Homes, HookPlace};

/// The agent's hooks file for the scope; `None` when the user's is asked
/// for and no home is known, or the local one of an agent that has none
/// (`has_local`).
#[must_use]
pub(crate) fn settings_file(
    agent: Agent,
    scope: Scope,
    project: &Path,
    homes: &Homes,
) -> Option<PathBuf> {
    let places = crate::dialect::setup(agent).places;
    match scope {
        Scope::User => places.user.path(homes),
        Scope::Project => Some(project.join(places.project)),
        Scope::Local => places.local.map(|l| project.join(l)),
    }
}

/// Whether the agent reads a project file of this machine's own, kept out
/// of version control (Claude Code's `.claude/settings.local.json`); for
/// the others a registration only this machine can run belongs in the
/// user's file.
#[must_use]
pub(crate) fn has_local(agent: Agent) -> bool {
    crate::dialect::setup(agent).places.local.is_some()
}

/// The backup of a settings file, made before its first edit.
#[must_use]
pub(crate) fn backup_of(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".hookrun-backup");
    path.with_file_name(name)
}

/// Every place the agent reads hooks from by itself, for a session in
/// `project`, lowest priority first: the one definition that
/// `protect-paths` (these files can register hookrun or turn it off) and
/// `run` (a hook read from one of them is the agent's to run, not
/// hookrun's) share, given by each agent's dialect (`Setup::places`).
/// Places whose directory is unknown (no home) are left out; the rest are
/// listed whether or not they exist.
#[must_use]
pub(crate) fn hook_places(agent: Agent, project: &Path, homes: &Homes) -> Vec<HookPlace> {
    (crate::dialect::setup(agent).places.reads)(project, homes)
}

/// The files of [`hook_places`] that exist, a directory's `*.json` files by
/// name: the files the agent reads hooks from today.
#[must_use]
pub(crate) fn hook_files(agent: Agent, project: &Path, homes: &Homes) -> Vec<PathBuf> {
    crate::dirs::existing_files(hook_places(agent, project, homes))
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::*;

    fn homes() -> Homes {
        let mut homes = Homes::default();
        homes.home = Some(PathBuf::from("/h"));
        homes
    }

    #[test]
    fn every_agent_has_a_user_and_a_project_file_and_reads_both() {
        let project = Path::new("/p");
        for agent in Agent::ALL {
            let user = settings_file(agent, Scope::User, project, &homes());
            let shared = settings_file(agent, Scope::Project, project, &homes());
            let (Some(user), Some(shared)) = (user, shared) else {
                panic!("{agent:?} has no user or project file");
            };
            assert!(user.starts_with("/h"), "{agent:?}: {}", user.display());
            assert!(
                shared.starts_with(project),
                "{agent:?}: {}",
                shared.display()
            );
            let places = hook_places(agent, project, &homes());
            for file in [user, shared] {
                assert!(
                    places.iter().any(|p| match p {
                        HookPlace::File(f) => *f == file,
                        HookPlace::JsonDir(d) => file.parent() == Some(d.as_path()),
                    }),
                    "{agent:?} does not read the file install writes: {}",
                    file.display()
                );
            }
            assert_eq!(
                has_local(agent),
                settings_file(agent, Scope::Local, project, &homes()).is_some()
            );
        }
    }

    #[test]
    fn an_agents_directory_variable_moves_its_user_file() {
        let moved = homes().with_var("CODEX_HOME", Path::new("/c"));
        assert_eq!(
            settings_file(Agent::Codex, Scope::User, Path::new("/p"), &moved),
            Some(PathBuf::from("/c/hooks.json"))
        );
        let moved = homes().with_var("CLAUDE_CONFIG_DIR", Path::new("/cc"));
        assert_eq!(
            settings_file(Agent::Claude, Scope::User, Path::new("/p"), &moved),
            Some(PathBuf::from("/cc/settings.json"))
        );
        // Without a home, a user file is unknown.
        assert_eq!(
            settings_file(
                Agent::Gemini,
                Scope::User,
                Path::new("/p"),
                &Homes::default()
            ),
            None
        );
    }
}
