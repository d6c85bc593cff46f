//! `hookrun convert`: an agent's hooks file ⇄ hookrun TOML (`--to AGENT`).

use crate::cli::ConvertArgs;
use crate::error::{Error, ExitStatus};
use crate::output;

/// Converts one file to stdout; what cannot be carried over is listed on
/// stderr (and makes `--strict` exit 1).
///
/// # Errors
/// The input cannot be read or converted.
pub(crate) fn execute(args: &ConvertArgs) -> Result<ExitStatus, Error> {
    let text = std::fs::read_to_string(&args.path).map_err(|source| Error::Io {
        what: format!("cannot read `{}`", args.path.display()),
        source,
    })?;
    let is_json =
        args.path.extension().is_some_and(|e| e == "json") || text.trim_start().starts_with('{');
    let convert_error = |message: String| Error::Convert {
        path: args.path.clone(),
        message,
    };
    let result = if is_json {
        match crate::dialect::convert::agent_of_file(&args.path, &text, args.config_format)
            .map_err(convert_error)?
        {
            // An agent that reads the shape by rules of its own: through
            // the model, as `run` reads the file.
            agent
                if agent.is_claude_like()
                    && !crate::dialect::protocol(agent).shape_rules().are_claudes() =>
            {
                crate::dialect::convert::own_rules_to_toml(&args.path, agent)
            }
            agent if agent.is_claude_like() && crate::dialect::convert::ignores_if(agent) => {
                let (text, dropped) = without_if(&text, agent);
                crate::dialect::convert::claude_to_toml(&text).map(|mut c| {
                    c.warnings.extend(dropped);
                    c
                })
            }
            agent if agent.is_claude_like() => crate::dialect::convert::claude_to_toml(&text),
            agent => serde_json::from_str(&text)
                .map_err(|e| format!("not valid JSON: {e}"))
                .and_then(|root| crate::dialect::convert::to_toml(&root, agent)),
        }
    } else {
        match args.to {
            None => crate::dialect::convert::toml_to_claude(&args.path),
            Some(agent) => match crate::dialect::protocol(agent).hooks_file_writer() {
                Some(write) => write(&args.path),
                None => Err(format!(
                    "hookrun cannot write a {} hooks file; `--to` takes {}",
                    agent.as_str(),
                    crate::dialect::writable_names().join(", ")
                )),
            },
        }
    };
    let c = result.map_err(convert_error)?;
    output::print(&c.text);
    for w in &c.warnings {
        output::diagnostic(&format!("warning: {w}"));
    }
    Ok(u8::from(args.strict && !c.warnings.is_empty()))
}

/// An agent that ignores `if` in its Claude-shaped hooks file (Codex): the
/// file converts without it, said.
fn without_if(text: &str, agent: crate::dialect::Dialect) -> (String, Vec<String>) {
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
                            "`hooks.{event}[{gi}].hooks[{hi}].if`: {} ignores `if`, so the hook runs on every event its matcher selects: not converted",
                            agent.as_str()
                        ));
                    }
                }
            }
        }
    }
    (root.to_string(), dropped)
}
