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
mod model_toml;
mod readers;

pub(crate) use crate::dialect::protocol::Converted;
pub use builtin_cmd::builtin_of;
pub(crate) use claude::{
    builtin_line, claude_to_toml, exec_line, toml_to_claude, toml_to_claude_shape,
};
pub(crate) use detect::{agent_of_file, ignores_if};
pub(crate) use model_toml::to_toml as own_rules_to_toml;
pub use readers::HOOKS_FILES;

use serde_json::Value;

use crate::agent::Dialect;

/// The `hooks` of an agent's settings file (`root`) as hookrun TOML, by
/// the agent's own rules: Claude Code's reader for the dialects that share
/// its format, the foreign reader for the others.
///
/// # Errors
/// The hooks are not in the agent's format.
pub(crate) fn hooks_to_toml(root: &Value, agent: Dialect) -> Result<Converted, String> {
    if agent.is_claude_like() {
        let hooks_only =
            serde_json::json!({"hooks": root.get("hooks").cloned().unwrap_or_default()});
        claude_to_toml(&hooks_only.to_string())
    } else {
        to_toml(root, agent)
    }
}

/// Gemini, Cursor or Copilot JSON → hookrun TOML.
///
/// # Errors
/// The file is not such a config.
pub(crate) fn to_toml(root: &Value, agent: Dialect) -> Result<Converted, String> {
    foreign::read_hooks(root, agent).map(|f| Converted {
        text: foreign::to_toml(&f),
        warnings: f
            .skipped
            .iter()
            .map(|s| format!("`{}`: {}", s.key, s.why))
            .chain(f.hooks.iter().filter_map(|h| match &h.action {
                crate::config::ForeignAction::Unsupported(kind) => Some(format!(
                    "`{}`: a {kind} asks the agent's own model, which hookrun cannot: not converted",
                    h.key
                )),
                _ => None,
            }))
            .collect(),
    })
}
