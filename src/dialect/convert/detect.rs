//! Which agent a JSON hooks file belongs to: from its path where the path
//! says it, else from its content, and never by a guess. Several agents name
//! their file `hooks.json` (Cursor, Codex, Copilot, Claude Code plugins);
//! when the content fits more than one of the formats that differ, the
//! caller must say which (`--config-format`).

use std::path::Path;

use serde_json::Value;

use crate::agent::Dialect;

/// The agent whose hooks file lives at this path, where the path says it:
/// `.gemini/settings.json`, `.cursor/hooks.json`, `.github/hooks/*.json` and
/// `.copilot/hooks/*.json` (Copilot), `.codex/hooks.json` and
/// `.claude/*.json` (Claude Code's shape).
#[must_use]
pub(crate) fn agent_of_path(path: &Path) -> Option<Dialect> {
    let name = path.file_name()?.to_str()?;
    let dir = path.parent()?;
    let dir_name = dir.file_name()?.to_str()?;
    let grand = dir
        .parent()
        .and_then(Path::file_name)
        .and_then(|n| n.to_str());
    let own = crate::agent::Agent::ALL.into_iter().find(|agent| {
        let places = crate::dialect::setup(*agent).places;
        let user = Path::new(places.user.home_dir).join(places.user.file);
        [Path::new(places.project), user.as_path()]
            .into_iter()
            .any(|p| p.components().count() > 1 && path.ends_with(p))
    });
    if let Some(agent) = own {
        return Some(agent.dialect());
    }
    match (grand, dir_name, name) {
        (_, ".claude", _) => Some(Dialect::Claude),
        (Some(".github" | ".copilot"), "hooks", n) if n.ends_with(".json") => {
            Some(Dialect::Copilot)
        }
        _ => None,
    }
}

/// What a file's content says about its agent.
#[derive(Debug, Default)]
struct Signals {
    gemini: Vec<String>,
    cursor: Vec<String>,
    copilot: Vec<String>,
    /// camelCase event names both Cursor and Copilot use.
    shared: Vec<String>,
}

fn signals(hooks: &serde_json::Map<String, Value>) -> Signals {
    let gemini = crate::dialect::gemini::events::EVENTS;
    let cursor = crate::dialect::cursor::events::EVENTS;
    let copilot = crate::dialect::copilot::events::EVENTS;
    let mut s = Signals::default();
    for (event, entries) in hooks {
        let in_cursor = cursor.iter().any(|(c, _)| c == event);
        let in_copilot = copilot.iter().any(|(c, _)| c == event);
        if gemini.iter().any(|(g, _)| g == event) && crate::events::info(event).is_none() {
            s.gemini.push(format!("event `{event}`"));
        }
        match (in_cursor, in_copilot) {
            (true, false) => s.cursor.push(format!("event `{event}`")),
            (false, true) => s.copilot.push(format!("event `{event}`")),
            (true, true) => s.shared.push(event.clone()),
            (false, false) => {}
        }
        if !(in_cursor || in_copilot) {
            continue;
        }
        // Cursor's handlers carry `command`; Copilot's `bash`/`powershell`
        // and `timeoutSec`.
        for h in entries.as_array().into_iter().flatten() {
            if h.get("command").is_some() {
                s.cursor.push("a handler with `command`".to_owned());
            }
            for key in ["bash", "powershell", "timeoutSec"] {
                if h.get(key).is_some() {
                    s.copilot.push(format!("a handler with `{key}`"));
                }
            }
        }
    }
    for list in [&mut s.gemini, &mut s.cursor, &mut s.copilot] {
        list.dedup();
    }
    s
}

/// The agent whose format a JSON hooks file is in: `--config-format`,
/// else its path, else its content (parsed only then); Claude Code's shape
/// (`Dialect::Claude`) when nothing says otherwise, text that is not JSON
/// included (the Claude Code reader reports it).
///
/// # Errors
/// The content fits several formats, or the given format has no hooks file.
pub(crate) fn agent_of_file(
    path: &Path,
    text: &str,
    forced: Option<Dialect>,
) -> Result<Dialect, String> {
    let agent = match forced.or_else(|| agent_of_path(path)) {
        Some(d) => d,
        None => match serde_json::from_str::<Value>(text) {
            Ok(root) => agent_of_content(path, &root)?,
            Err(_) => Dialect::Claude,
        },
    };
    match crate::agent::Agent::of(agent) {
        Some(_) => Ok(agent),
        None => Err(format!(
            "hookrun reads no {} hooks file: {} hooks are configured in hookrun TOML",
            agent.as_str(),
            agent.as_str()
        )),
    }
}

/// Whether an agent reads its Claude-shaped hooks file without `if`
/// (Codex: such a hook runs on every match there).
#[must_use]
pub(crate) fn ignores_if(agent: Dialect) -> bool {
    agent == Dialect::Codex
}

/// The agent a JSON hooks file's content says it is in.
fn agent_of_content(path: &Path, root: &Value) -> Result<Dialect, String> {
    let Some(hooks) = root.get("hooks").and_then(Value::as_object) else {
        return Ok(Dialect::Claude);
    };
    let s = signals(hooks);
    let mut found: Vec<(Dialect, &Vec<String>)> = [
        (Dialect::Gemini, &s.gemini),
        (Dialect::Cursor, &s.cursor),
        (Dialect::Copilot, &s.copilot),
    ]
    .into_iter()
    .filter(|(_, why)| !why.is_empty())
    .collect();
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    match found.len() {
        1 => Ok(found.remove(0).0),
        0 if s.shared.is_empty() => Ok(Dialect::Claude),
        0 => Err(format!(
            "`{name}` could be Cursor's or GitHub Copilot's hooks file: its events ({}) are both agents' and no handler says which (`command` is Cursor's, `bash`/`powershell` Copilot's); say which with `--config-format cursor` or `--config-format copilot`",
            s.shared.join(", ")
        )),
        _ => Err(format!(
            "`{name}` mixes hooks file formats ({}); say which it is with `--config-format {}`",
            found
                .iter()
                .map(|(d, why)| format!("{}: {}", d.as_str(), why.join(", ")))
                .collect::<Vec<_>>()
                .join("; "),
            found
                .iter()
                .map(|(d, _)| d.as_str())
                .collect::<Vec<_>>()
                .join("|")
        )),
    }
}
