//! Reading other agents' hook files: which agent a file belongs to
//! (`detect`) and the hookrun TOML it means (`foreign`). hookrun TOML to
//! Gemini's settings is `gemini::settings`; Codex's `hooks.json` has Claude
//! Code's shape and is read as Claude Code settings are.

mod builtin_cmd;
mod claude;
mod detect;
mod foreign;

pub use builtin_cmd::builtin_of;
pub use claude::{builtin_line, claude_to_toml, exec_line, toml_to_claude};
pub use detect::{agent_of_file, agent_of_path, ignores_if};
pub use foreign::{Foreign, Skipped};

use serde_json::Value;

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
pub fn to_toml(root: &Value, agent: crate::agent::Dialect) -> Result<Converted, String> {
    foreign::convert_hooks(root, agent).map(|f| Converted {
        text: f.toml,
        warnings: f
            .skipped
            .iter()
            .map(|s| format!("`{}`: {}", s.key, s.why))
            .collect(),
    })
}

/// Reads a JSON hooks file of an agent whose format is not Claude Code's
/// (Gemini CLI's settings, Cursor's `hooks.json`, Copilot's hook files) as
/// the hookrun TOML it means; `None` for text that is not JSON (the Claude
/// Code reader reports where it breaks).
#[must_use]
pub fn read_foreign(text: &str, agent: crate::agent::Dialect) -> Option<Result<Foreign, String>> {
    let root: Value = serde_json::from_str(text).ok()?;
    Some(foreign::convert_hooks(&root, agent))
}
