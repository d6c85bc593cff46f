//! Every agent's hook dialect: recognising who is calling, mapping its event
//! into hookrun's model (Claude Code's names and fields), reading a hook's
//! answer by that agent's rules, and rendering the merged decision in the
//! caller's shape. One file per agent; the pipeline only calls this module.
//!
//! Children speak the caller's dialect by default: they receive the event
//! exactly as the caller sent it, and their answers are read by the caller's
//! rules, so existing hook scripts run unchanged. `input = "…"` on a hook
//! asks for another dialect.

pub mod claude;
pub mod codex;
pub mod copilot;
pub mod cursor;
pub mod gemini;
pub mod id;
pub mod pydantic;
mod shared;

pub use id::Dialect;

use serde_json::{Map, Value};

use crate::answer::Answer;
use crate::decision::Decision;
use crate::error::Error;
use crate::event::Event;
use crate::events::Family;
use crate::exec::HookRun;
use crate::rendered::Rendered;

/// Who sent this event (`--dialect` overrides it).
#[must_use]
pub fn detect(obj: &Map<String, Value>) -> Dialect {
    if pydantic::detect(obj) {
        return Dialect::PydanticDeep;
    }
    let name = obj
        .get("hook_event_name")
        .and_then(Value::as_str)
        .unwrap_or("");
    if gemini::EVENTS.iter().any(|(g, _)| *g == name) && crate::events::info(name).is_none() {
        return Dialect::Gemini;
    }
    if copilot::detect(obj) {
        return Dialect::Copilot;
    }
    if cursor::EVENTS.iter().any(|(c, _)| *c == name) {
        return Dialect::Cursor;
    }
    Dialect::Claude
}

/// Maps a caller's event into hookrun's model: the canonical event name and
/// Claude-shaped fields (with `hook_event_name` set).
#[must_use]
pub fn normalize(
    dialect: Dialect,
    obj: Map<String, Value>,
) -> (Option<String>, Map<String, Value>) {
    match dialect {
        Dialect::Claude | Dialect::Codex => {
            let name = obj
                .get("hook_event_name")
                .and_then(Value::as_str)
                .map(str::to_owned);
            (name, obj)
        }
        Dialect::PydanticDeep => pydantic::normalize(obj),
        Dialect::Gemini => gemini::normalize(obj),
        Dialect::Cursor => cursor::normalize(obj),
        Dialect::Copilot => copilot::normalize(obj),
    }
}

/// Parses the raw stdin bytes into an event, recognising the caller's
/// dialect from the event itself. `forced_name` (`--event`) wins over
/// `hook_event_name`.
///
/// # Errors
/// Empty input, malformed JSON (with the byte offset), a non-object, or no
/// event name.
pub fn read_event(raw: &[u8], forced_name: Option<&str>) -> Result<Event, Error> {
    read_event_as(raw, forced_name, None)
}

/// As [`read_event`], with the caller's dialect forced (`--dialect`) or,
/// when `None`, recognised from the event itself.
///
/// # Errors
/// As [`read_event`].
pub fn read_event_as<'a>(
    raw: impl Into<std::borrow::Cow<'a, [u8]>>,
    forced_name: Option<&str>,
    forced_dialect: Option<Dialect>,
) -> Result<Event, Error> {
    let raw: std::borrow::Cow<'a, [u8]> = raw.into();
    let fields = crate::event::object_of(&raw)?;
    let dialect = forced_dialect.unwrap_or_else(|| detect(&fields));
    let caller_event = fields
        .get("hook_event_name")
        .or_else(|| fields.get("event"))
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    let (mapped, fields) = normalize(dialect, fields);
    let recognised = crate::event::Recognised {
        dialect,
        caller_event,
        mapped,
        fields,
    };
    crate::event::build(raw, forced_name, recognised)
}

/// Reads one finished hook run by the rules of `dialect`, as an answer in
/// hookrun's (Claude-shaped) terms.
#[must_use]
pub fn classify(dialect: Dialect, event: &str, label: &str, run: &HookRun) -> Answer {
    match dialect {
        Dialect::Codex => codex::classify(event, label, run),
        Dialect::Claude | Dialect::Copilot => crate::answer::classify(event, label, run),
        Dialect::PydanticDeep => pydantic::classify(event, run),
        Dialect::Gemini => gemini::classify(event, label, run),
        Dialect::Cursor => cursor::classify(event, label, run),
    }
}

/// Renders the merged decision for the caller.
#[must_use]
pub fn render(
    dialect: Dialect,
    event: &crate::event::Event,
    family: Family,
    d: &Decision,
    notices: &[String],
) -> Rendered {
    match dialect {
        Dialect::Claude => crate::dialect::claude::render(&event.name, family, d, notices),
        Dialect::Codex => codex::render(event, family, d, notices),
        Dialect::PydanticDeep => pydantic::render(event, d, notices),
        Dialect::Gemini => gemini::render(event, family, d, notices),
        Dialect::Cursor => cursor::render(event, family, d, notices),
        Dialect::Copilot => copilot::render(event, family, d, notices),
    }
}
