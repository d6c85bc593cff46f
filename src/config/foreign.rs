//! Hooks files of other agents, read into hookrun's model: Gemini CLI's
//! settings and Cursor's `hooks.json` through the TOML they convert to, and
//! Codex's Claude-shaped file without the `if` it ignores.

use std::path::Path;

use super::json_locate;
use super::layer::Layer;
use super::model::LoadOptions;
use super::toml_file;
use crate::agent::Dialect;
use crate::diagnostic::{Code, Diagnostic};
use crate::error::Error;

/// An agent that reads its hooks file in Claude Code's shape but ignores
/// `if` (Codex) runs such a hook on every match, and so does hookrun, said.
pub(super) fn drop_if(path: &Path, text: &str, agent: Dialect, layer: &mut Layer) {
    for hook in &mut layer.hooks {
        if hook.if_rule.take().is_some() {
            let key = format!("{}.if", hook.origin.key);
            let at = json_locate::locate(text, &key).map(|o| crate::error::line_col(text, o));
            layer.warnings.push(
                Diagnostic::new(
                    Code::AgentIgnoresKey,
                    path,
                    format!(
                        "{} ignores `if`: this hook runs on every event its matcher selects",
                        agent.as_str()
                    ),
                )
                .at(at)
                .key(key),
            );
        }
    }
}

/// Another agent's hooks file (Gemini CLI's settings, Cursor's
/// `hooks.json`): loaded as the hookrun TOML it converts to, with every hook
/// and finding pointed back at its key and line in the original file.
pub(super) fn layer(
    path: &Path,
    text: &str,
    foreign: Result<crate::dialect::convert::Foreign, String>,
    options: LoadOptions,
) -> Result<Layer, Error> {
    let problem = |message: String, key: Option<String>| {
        let at = key
            .as_deref()
            .and_then(|k| json_locate::locate(text, k))
            .map(|o| crate::error::line_col(text, o));
        Error::Config(Box::new(crate::error::ConfigProblem {
            code: Code::WrongShape,
            at: crate::error::Location {
                path: path.to_owned(),
                line: at.map(|(l, _)| l),
                column: at.map(|(_, c)| c),
            },
            key,
            message,
            fix: None,
        }))
    };
    let foreign = foreign.map_err(|m| problem(m, None))?;
    // The key of the original entry behind the TOML's `hooks[N]`.
    let original = |key: &str| -> Option<String> {
        let rest = key.strip_prefix("hooks[")?;
        let (n, tail) = rest.split_once(']')?;
        let origin = foreign.origins.get(n.parse::<usize>().ok()?)?;
        Some(format!("{origin}{tail}"))
    };
    let mut layer = toml_file::load(path, &foreign.toml, options).map_err(|e| match e {
        Error::Config(p) => {
            let key = p.key.as_deref().and_then(original);
            problem(
                format!("{} (read as a {} hooks file)", p.message, foreign.agent),
                key,
            )
        }
        other => other,
    })?;
    let locate =
        |key: &str| json_locate::locate(text, key).map(|o| crate::error::line_col(text, o));
    for (hook, key) in layer.hooks.iter_mut().zip(&foreign.origins) {
        hook.origin.key.clone_from(key);
        hook.origin.line_col = locate(key);
    }
    for d in layer.notices.iter_mut().chain(layer.warnings.iter_mut()) {
        let key = d.key.as_deref().and_then(original);
        let at = key.as_deref().and_then(locate);
        d.key = key;
        d.line = at.map(|(l, _)| l);
        d.column = at.map(|(_, c)| c);
    }
    for skipped in foreign.skipped {
        let code = if skipped.unknown_event {
            Code::UnknownEvent
        } else {
            Code::Unsupported
        };
        let at = locate(&skipped.key);
        layer.warnings.push(
            Diagnostic::new(code, path, skipped.why)
                .at(at)
                .key(skipped.key),
        );
    }
    Ok(layer)
}
