//! `hookrun convert`: Claude Code settings JSON ⇄ hookrun TOML.

use crate::cli::ConvertArgs;
use crate::error::{Error, ExitStatus};
use crate::output;

/// Converts one file to stdout; what cannot be carried over is listed on
/// stderr (and makes `--strict` exit 1).
///
/// # Errors
/// The input cannot be read or converted.
pub fn execute(args: &ConvertArgs) -> Result<ExitStatus, Error> {
    let text = std::fs::read_to_string(&args.path).map_err(|source| Error::Io {
        what: format!("cannot read `{}`", args.path.display()),
        source,
    })?;
    let is_json =
        args.path.extension().is_some_and(|e| e == "json") || text.trim_start().starts_with('{');
    let foreign = if is_json {
        match serde_json::from_str::<serde_json::Value>(&text) {
            Ok(v) => crate::dialect::convert::format_of(&args.path, &v, args.config_format)
                .map_err(|message| Error::Convert {
                    path: args.path.clone(),
                    message,
                })?
                .map(|a| (v, a)),
            Err(_) => None,
        }
    } else {
        None
    };
    let result = match (is_json, foreign, args.to) {
        (true, Some((root, agent)), _) => crate::dialect::convert::to_toml(&root, agent),
        (true, None, _) if is_codex(args) => {
            let (text, dropped) = without_if(&text);
            crate::convert::claude_to_toml(&text).map(|mut c| {
                c.warnings.extend(dropped);
                c
            })
        }
        (true, None, _) => crate::convert::claude_to_toml(&text),
        (false, _, None) => crate::convert::toml_to_claude(&args.path),
        (false, _, Some(agent)) => match crate::dialect::protocol(agent).hooks_file_writer() {
            Some(write) => write(&args.path),
            None => Err(format!(
                "hookrun cannot write a {} hooks file; `--to` takes {}",
                agent.as_str(),
                crate::dialect::writable_names().join(", ")
            )),
        },
    };
    let c = result.map_err(|message| Error::Convert {
        path: args.path.clone(),
        message,
    })?;
    output::print(&c.text);
    for w in &c.warnings {
        output::diagnostic(&format!("warning: {w}"));
    }
    Ok(u8::from(args.strict && !c.warnings.is_empty()))
}

/// Whether the JSON file is Codex's hooks file (its path, or
/// `--config-format codex`).
fn is_codex(args: &ConvertArgs) -> bool {
    use crate::dialect::Dialect;
    args.config_format == Some(Dialect::Codex)
        || (args.config_format.is_none()
            && crate::dialect::convert::agent_of_path(&args.path) == Some(Dialect::Codex))
}

/// Codex ignores `if`: a Codex hooks file converts without it, said.
fn without_if(text: &str) -> (String, Vec<String>) {
    let Ok(mut root) = serde_json::from_str::<serde_json::Value>(text) else {
        return (text.to_owned(), Vec::new());
    };
    let mut dropped = Vec::new();
    if let Some(events) = root.get_mut("hooks").and_then(|h| h.as_object_mut()) {
        for (event, groups) in events.iter_mut() {
            for (gi, group) in groups.as_array_mut().into_iter().flatten().enumerate() {
                let handlers = group.get_mut("hooks").and_then(|h| h.as_array_mut());
                for (hi, h) in handlers.into_iter().flatten().enumerate() {
                    if h.as_object_mut().and_then(|o| o.remove("if")).is_some() {
                        dropped.push(format!(
                            "`hooks.{event}[{gi}].hooks[{hi}].if`: Codex ignores `if`, so the hook runs on every event its matcher selects: not converted"
                        ));
                    }
                }
            }
        }
    }
    (root.to_string(), dropped)
}
