//! Every agent's hook dialect: recognising who is calling, mapping its event
//! into hookrun's model (Claude Code's names and fields), reading a hook's
//! answer by that agent's rules, and rendering the merged decision in the
//! caller's shape. One file per agent; the pipeline only calls this module.
//!
//! Children speak the caller's dialect by default: they receive the event
//! exactly as the caller sent it, and their answers are read by the caller's
//! rules, so existing hook scripts run unchanged. `input = "…"` on a hook
//! asks for another dialect.

pub(crate) mod canary;
pub(crate) mod convert;
pub(crate) mod flat_hooks;
pub(crate) mod grouped_settings;
pub(crate) mod location;

pub(crate) mod protocol;
pub(crate) mod setup;
mod shared;
#[cfg(test)]
mod testing;

pub(crate) use protocol::{Protocol, Reading};

pub use crate::agent::Dialect;
pub(crate) use shared::notice_line;

use serde_json::{Map, Value};

use crate::error::Error;
use crate::event::Event;

/// Generates the dialects' `mod` lines and `REGISTRY` from the one list in `crate::agent`.
macro_rules! define_registry {
    ($($variant:ident $name:literal $module:ident::$imp:ident, $claude_like:literal $(, $agent:ident)?;)*) => {
        $(pub(crate) mod $module;)*

        /// Every dialect, in the order events are recognised.
        static REGISTRY: &[&dyn Protocol] = &[$(&$module::$imp,)*];
    };
}
crate::agent::dialects!(define_registry);

/// The implementation of a dialect.
#[must_use]
pub(crate) fn protocol(dialect: Dialect) -> &'static dyn Protocol {
    REGISTRY
        .iter()
        .copied()
        .find(|p| p.id() == dialect)
        .unwrap_or(&claude::Claude)
}

/// What `install`, `doctor` and `check` know of an agent hookrun
/// registers in (every `Agent` has its dialect's; a test keeps it so).
#[must_use]
pub(crate) fn setup(agent: crate::agent::Agent) -> &'static setup::Setup {
    protocol(agent.dialect()).setup().unwrap_or(&claude::SETUP)
}

/// The program that runs `prompt` and `agent` judgements where no model
/// API key is set: Claude Code's CLI, as its installer puts it on PATH.
#[must_use]
pub(crate) fn judge_cli() -> &'static str {
    claude::SETUP.tested.program
}

/// A dialect's own name for an event of hookrun's model; `None` where its
/// agent never fires it.
#[must_use]
pub(crate) fn event_name(dialect: Dialect, event: &str) -> Option<String> {
    protocol(dialect).event_name(event)
}

/// The dialects whose hooks file `convert --to` can write.
#[must_use]
pub(crate) fn writable_names() -> Vec<&'static str> {
    REGISTRY
        .iter()
        .filter(|p| p.hooks_file_writer().is_some())
        .map(|p| p.id().as_str())
        .collect()
}

/// Who sent this event (`--dialect` overrides it).
#[must_use]
pub(crate) fn detect(obj: &Map<String, Value>) -> Dialect {
    REGISTRY
        .iter()
        .find(|p| p.detects(obj))
        .map_or(Dialect::Claude, |p| p.id())
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
    let mut fields = crate::event::object_of(&raw)?;
    // A forced name (`--event`) stands where the event's own name would,
    // so that every agent's names are recognised and mapped alike.
    let mut renamed = false;
    if let Some(name) = forced_name {
        let key = if !fields.contains_key("hook_event_name")
            && fields.get("event").is_some_and(Value::is_string)
        {
            "event"
        } else {
            "hook_event_name"
        };
        renamed = fields.get(key).and_then(Value::as_str) != Some(name);
        fields.insert(key.into(), Value::String(name.to_owned()));
    }
    let detected = detect(&fields);
    let dialect = match forced_dialect {
        // Cursor runs the hooks in Claude Code's settings files too,
        // hookrun's Claude Code registration among them, and sends them its
        // own events: those are answered in Cursor's shape, the one Cursor
        // reads (a Claude Code answer would be lost, and a deny with it).
        Some(Dialect::Claude) if detected == Dialect::Cursor => Dialect::Cursor,
        Some(d) => d,
        None => detected,
    };
    let caller_event = fields
        .get("hook_event_name")
        .or_else(|| fields.get("event"))
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    let (mapped, fields) = protocol(dialect).normalize(fields);
    let forced_name = forced_name.map(|given| match &mapped {
        Some(m) if crate::events::info(m).is_some() => m.clone(),
        _ => given.to_owned(),
    });
    let recognised = crate::event::Recognised {
        dialect,
        caller_event,
        mapped,
        fields,
        renamed,
    };
    crate::event::build(raw, forced_name.as_deref(), recognised)
}

/// Renders a block hookrun makes itself in the caller's shape (see
/// `decision::own_block`).
#[must_use]
pub(crate) fn render_own_block(event: &Event, reason: &str) -> crate::rendered::Rendered {
    // An event hookrun does not know still gets a block: the plain
    // `decision: block` every Claude-like agent reads on any event.
    let family = event.info.map_or(crate::events::Family::Stop, |i| i.family);
    let d = crate::decision::own_block(&event.name, family, &event.fields, reason.to_owned());
    protocol(event.dialect).render(event, family, &d, &[])
}

/// Renders hookrun's own block for an event it could not read, in the
/// shape of the dialect `--dialect` named (see `Protocol::unread_block`).
#[must_use]
pub(crate) fn render_unread_block(dialect: Dialect, message: &str) -> crate::rendered::Rendered {
    protocol(dialect).unread_block(message)
}
