//! Reading and writing agents' hook files: which agent a file belongs to
//! (`detect`), the hooks another agent's file holds (`foreign`, which
//! config reads through [`HOOKS_FILES`] and `convert` writes as TOML), and
//! Claude Code's settings ⇄ hookrun TOML (`claude`). hookrun TOML to
//! Gemini's settings is `gemini::settings`; Codex's `hooks.json` has Claude
//! Code's shape and is read as Claude Code settings are.

mod builtin_cmd;
mod claude;
mod detect;
mod foreign;

pub use builtin_cmd::builtin_of;
pub use claude::{builtin_line, claude_to_toml, exec_line, toml_to_claude};
pub use detect::{agent_of_file, agent_of_path, ignores_if};

use serde_json::Value;

use crate::agent::Dialect;
use crate::config::{Foreign, ForeignFiles};

/// The result of a conversion: the new text and what could not be carried.
#[derive(Debug, Clone)]
pub struct Converted {
    pub text: String,
    pub warnings: Vec<String>,
}

/// Gemini, Cursor or Copilot JSON → hookrun TOML.
///
/// # Errors
/// The file is not such a config.
pub fn to_toml(root: &Value, agent: Dialect) -> Result<Converted, String> {
    foreign::read_hooks(root, agent).map(|f| Converted {
        text: foreign::to_toml(&f),
        warnings: f
            .skipped
            .iter()
            .map(|s| format!("`{}`: {}", s.key, s.why))
            .collect(),
    })
}

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
        agent_of_file(path, text, forced)
    }

    fn ignores_if(&self, agent: Dialect) -> bool {
        ignores_if(agent)
    }

    fn read(&self, agent: Dialect, text: &str) -> Option<Result<Foreign, String>> {
        let root: Value = serde_json::from_str(text).ok()?;
        Some(foreign::read_hooks(&root, agent))
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
