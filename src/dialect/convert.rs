//! Converting Gemini CLI and Cursor hook configs to hookrun TOML (hookrun
//! TOML to Gemini's is `gemini::settings`). Codex's `hooks.json` has Claude Code's shape
//! and converts as Claude Code settings do.
//!
//! Units are converted, not copied: Gemini counts timeouts in
//! **milliseconds** (copying Claude Code's seconds into Gemini's field is a
//! known bug of converters elsewhere), Cursor and hookrun in seconds.

use serde_json::Value;

/// The result of a conversion: the new text and what could not be carried.
#[derive(Debug, Clone)]
pub struct Converted {
    pub text: String,
    pub warnings: Vec<String>,
}

/// Which agent a JSON hooks file belongs to, from its event names.
#[must_use]
pub fn agent_of(root: &Value) -> Option<crate::dialect::id::Dialect> {
    let hooks = root.get("hooks")?.as_object()?;
    if hooks.keys().any(|k| {
        crate::dialect::gemini::events::EVENTS
            .iter()
            .any(|(g, _)| g == k)
            && crate::events::info(k).is_none()
    }) {
        return Some(crate::dialect::id::Dialect::Gemini);
    }
    if root.get("version").is_some()
        || hooks.keys().any(|k| {
            crate::dialect::cursor::events::EVENTS
                .iter()
                .any(|(c, _)| c == k)
        })
    {
        return Some(crate::dialect::id::Dialect::Cursor);
    }
    None
}

fn toml_string(s: &str) -> String {
    toml::Value::String(s.to_owned()).to_string()
}

fn secs(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v}")
    }
}

/// Gemini or Cursor JSON → hookrun TOML.
///
/// # Errors
/// The file is not such a config.
pub fn to_toml(root: &Value, agent: crate::dialect::id::Dialect) -> Result<Converted, String> {
    convert_hooks(root, agent).map(|f| Converted {
        text: f.toml,
        warnings: f
            .skipped
            .iter()
            .map(|s| format!("`{}`: {}", s.key, s.why))
            .collect(),
    })
}

/// The agent whose hooks file lives at this path, where the path says it:
/// `.gemini/settings.json`, `.cursor/hooks.json`.
#[must_use]
pub fn agent_of_path(path: &std::path::Path) -> Option<crate::dialect::id::Dialect> {
    let dir = path.parent()?.file_name()?.to_str()?;
    let name = path.file_name()?.to_str()?;
    match (dir, name) {
        (".gemini", "settings.json") => Some(crate::dialect::id::Dialect::Gemini),
        (".cursor", "hooks.json") => Some(crate::dialect::id::Dialect::Cursor),
        _ => None,
    }
}

/// A foreign agent's hooks file, read for `run`, `check`, `explain` and
/// `test` as the hookrun TOML it converts to, with where each hook came from.
#[derive(Debug)]
pub struct Foreign {
    /// The agent the file belongs to.
    pub agent: &'static str,
    /// The hookrun TOML the file means.
    pub toml: String,
    /// The JSON key of each `[[hooks]]` entry of `toml`, in order.
    pub origins: Vec<String>,
    /// Entries that could not be carried over.
    pub skipped: Vec<Skipped>,
}

/// An entry of another agent's hooks file that is not carried over.
#[derive(Debug)]
pub struct Skipped {
    /// Its JSON key, e.g. `hooks.BeforeTool[0].hooks[1]`.
    pub key: String,
    /// Why, e.g. "no `command`: not converted".
    pub why: String,
    /// The entry is an event the agent does not know (the agent skips it too).
    pub unknown_event: bool,
}

/// Reads a JSON hooks file of an agent whose format is not Claude Code's
/// (Gemini CLI's settings, Cursor's `hooks.json`), recognised by its event
/// names; `None` for Claude Code's shape (Codex's `hooks.json` too) and for
/// text that is not JSON (the Claude Code reader reports it).
#[must_use]
pub fn read_foreign(path: &std::path::Path, text: &str) -> Option<Result<Foreign, String>> {
    let root: Value = serde_json::from_str(text).ok()?;
    let agent = agent_of_path(path).or_else(|| agent_of(&root))?;
    Some(convert_hooks(&root, agent))
}

/// The conversion, with the JSON key of each hook written.
fn convert_hooks(root: &Value, agent: crate::dialect::id::Dialect) -> Result<Foreign, String> {
    let mut origins = Vec::new();
    let empty = serde_json::Map::new();
    let hooks = match root.get("hooks") {
        None | Some(Value::Null) => &empty,
        Some(Value::Object(hooks)) => hooks,
        Some(_) => return Err("`hooks` is not an object keyed by event name".to_owned()),
    };
    let mut out = format!(
        "# Converted from a {} hooks config by `hookrun convert`.\n",
        agent.as_str()
    );
    let mut skipped = Vec::new();
    let mut skip = |key: String, why: String, unknown_event: bool| {
        skipped.push(Skipped {
            key,
            why,
            unknown_event,
        });
    };
    let gemini = agent == crate::dialect::id::Dialect::Gemini;
    if gemini {
        // Gemini matches tool names with an unanchored regex.
        out.push_str("\n[defaults]\nmatcher_syntax = \"regex\"\n");
    }
    let mut sequential = Vec::new();
    let mut body = String::new();
    for (event, entries) in hooks {
        let known = if gemini {
            crate::dialect::gemini::events::EVENTS
                .iter()
                .any(|(g, _)| g == event)
        } else {
            crate::dialect::cursor::events::EVENTS
                .iter()
                .any(|(c, _)| c == event)
        };
        if !known && crate::events::info(event).is_none() {
            skip(
                format!("hooks.{event}"),
                format!(
                    "unknown {} event `{event}`: skipped, as {} skips it",
                    agent.as_str(),
                    agent.as_str()
                ),
                true,
            );
            continue;
        }
        let (model, implied_matcher) = if gemini {
            (
                crate::dialect::gemini::events::EVENTS
                    .iter()
                    .find(|(g, _)| g == event)
                    .map_or(event.as_str(), |(_, m)| m),
                None,
            )
        } else {
            let model = crate::dialect::cursor::events::EVENTS
                .iter()
                .find(|(c, _)| c == event)
                .map_or(event.as_str(), |(_, m)| m);
            let implied = match event.as_str() {
                "beforeShellExecution" | "afterShellExecution" => Some("Shell"),
                "beforeReadFile" => Some("Read"),
                "afterFileEdit" => Some("Edit"),
                _ => None,
            };
            (model, implied)
        };
        for (gi, group) in entries.as_array().into_iter().flatten().enumerate() {
            // Gemini nests handlers in groups; Cursor lists handlers directly.
            let (matcher, handlers): (Option<&str>, Vec<&Value>) = if gemini {
                if group.get("sequential") == Some(&Value::Bool(true)) {
                    sequential.push(model.to_owned());
                }
                (
                    group.get("matcher").and_then(Value::as_str),
                    group
                        .get("hooks")
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                        .collect(),
                )
            } else {
                (group.get("matcher").and_then(Value::as_str), vec![group])
            };
            for (hi, h) in handlers.into_iter().enumerate() {
                let key = format!(
                    "hooks.{event}[{gi}]{}",
                    if gemini {
                        format!(".hooks[{hi}]")
                    } else {
                        String::new()
                    }
                );
                if h.get("type")
                    .and_then(Value::as_str)
                    .is_some_and(|t| t != "command")
                {
                    skip(
                        key,
                        format!(
                            "a `{}` hook cannot be expressed in hookrun TOML: not converted",
                            h["type"].as_str().unwrap_or("")
                        ),
                        false,
                    );
                    continue;
                }
                let Some(command) = h.get("command").and_then(Value::as_str) else {
                    skip(key, "no `command`: not converted".to_owned(), false);
                    continue;
                };
                body.push_str("\n[[hooks]]\n");
                origins.push(key.clone());
                if let Some(n) = h.get("name").and_then(Value::as_str) {
                    body.push_str(&format!("name = {}\n", toml_string(n)));
                }
                body.push_str(&format!("event = {}\n", toml_string(model)));
                if let Some(m) = matcher.filter(|m| !m.is_empty()).or(implied_matcher) {
                    body.push_str(&format!("matcher = {}\n", toml_string(m)));
                }
                body.push_str(&format!("command = {}\n", toml_string(command)));
                if let Some(t) = h.get("timeout").and_then(Value::as_f64) {
                    let s = if gemini { t / 1000.0 } else { t };
                    body.push_str(&format!("timeout = {}\n", secs(s)));
                }
                if h.get("failClosed") == Some(&Value::Bool(true)) {
                    body.push_str("fail_mode = \"closed\"\n");
                }
                if let Some(env) = h.get("env").and_then(Value::as_object) {
                    let pairs: Vec<String> = env
                        .iter()
                        .filter_map(|(k, v)| {
                            v.as_str()
                                .map(|v| format!("{} = {}", toml_string(k), toml_string(v)))
                        })
                        .collect();
                    body.push_str(&format!("env = {{ {} }}\n", pairs.join(", ")));
                }
                let input = if gemini { "gemini" } else { "cursor" };
                // The script expects its own agent's payload and answers.
                body.push_str(&format!("input = \"{input}\"\n"));
            }
        }
    }
    sequential.dedup();
    for e in sequential {
        out.push_str(&format!("\n[events.{e}]\norder = \"sequential\"\n"));
    }
    out.push_str(&body);
    Ok(Foreign {
        agent: agent.as_str(),
        toml: out,
        origins,
        skipped,
    })
}
