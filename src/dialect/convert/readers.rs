//! The readers of other agents' hooks files, as config asks for them
//! (`config::ForeignFiles`): which agent a file is, the hooks in it, and
//! the agents' own names for the model's events.

use serde_json::Value;

use crate::agent::Dialect;
use crate::config::{Foreign, ForeignFiles};

/// The readers of other agents' hooks files that config loads with
/// (`config::LoadOptions::foreign`).
pub static HOOKS_FILES: &dyn ForeignFiles = &Readers;

/// This layer's answers to config's questions about other agents' files.
struct Readers;

impl ForeignFiles for Readers {
    fn agent_of_file(
        &self,
        path: &std::path::Path,
        text: &str,
        forced: Option<Dialect>,
    ) -> Result<Dialect, String> {
        super::detect::agent_of_file(path, text, forced)
    }

    fn shape_rules(&self, agent: Dialect) -> crate::config::ShapeRules {
        crate::dialect::protocol(agent).shape_rules()
    }

    fn ignores_if(&self, agent: Dialect) -> bool {
        super::detect::ignores_if(agent)
    }

    fn read(&self, agent: Dialect, text: &str) -> Option<Result<Foreign, String>> {
        let root: Value = serde_json::from_str(text).ok()?;
        Some(super::foreign::read_hooks(&root, agent))
    }

    fn is_managed(&self, path: &std::path::Path) -> bool {
        crate::agent::Agent::ALL.into_iter().any(|agent| {
            crate::dialect::setup(agent)
                .places
                .managed
                .iter()
                .map(std::path::Path::new)
                .any(|m| path == m || path.parent() == Some(m))
        })
    }

    fn hook_places(
        &self,
        dialect: Dialect,
        project: &std::path::Path,
        homes: &crate::dirs::Homes,
    ) -> Vec<crate::dirs::HookPlace> {
        crate::agent::Agent::of(dialect).map_or_else(Vec::new, |agent| {
            crate::dialect::location::hook_places(agent, project, homes)
        })
    }

    fn model_name_of(&self, name: &str) -> Option<(&'static str, &'static str)> {
        [
            ("Gemini CLI", crate::dialect::gemini::events::EVENTS),
            ("Cursor", crate::dialect::cursor::events::EVENTS),
            ("Copilot CLI", crate::dialect::copilot::events::EVENTS),
        ]
        .into_iter()
        .find_map(|(agent, table)| {
            table
                .iter()
                .find(|(theirs, _)| *theirs == name)
                .map(|(_, ours)| (agent, *ours))
        })
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    #[test]
    fn the_machines_own_hook_files_are_managed_and_the_users_are_not() {
        let files = super::HOOKS_FILES;
        for managed in [
            "/etc/github-copilot/policy.d/team.json",
            "/etc/cursor/hooks.json",
            "/etc/codex/requirements.toml",
            "/etc/claude-code/managed-settings.json",
        ] {
            assert!(files.is_managed(Path::new(managed)), "{managed}");
        }
        for own in [
            "/home/u/.copilot/hooks/hookrun.json",
            "/p/.cursor/hooks.json",
            "/etc/github-copilot/team.json",
            "/home/u/.codex/config.toml",
        ] {
            assert!(!files.is_managed(Path::new(own)), "{own}");
        }
    }
}
