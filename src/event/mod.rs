//! The event as received on stdin: read with a size cap, parsed, and kept as
//! the exact compact bytes every hook receives.

use std::sync::Arc;

use serde_json::{Map, Value};

use crate::agent::Dialect;
use crate::error::{Error, byte_offset};
use crate::events::{self, EventInfo};

mod lenient;
mod lines;
mod stdin;
pub(crate) use lenient::limit_to_stack;
pub(crate) use lines::LineSplitter;
pub use lines::{Line, split_all};
pub(crate) use stdin::{read_capped, read_stdin, too_large};

/// One parsed event.
#[derive(Debug, Clone)]
pub struct Event {
    /// The canonical event name (`pre_tool_use` reads as `PreToolUse`).
    pub name: String,
    /// `None` for an event name hookrun does not know.
    pub info: Option<&'static EventInfo>,
    pub fields: Map<String, Value>,
    /// The event in hookrun's model, as Claude-dialect hooks get it on
    /// stdin: compact JSON plus one `\n`, as Claude Code
    /// writes it.
    pub bytes: Arc<Vec<u8>>,
    /// Who sent it.
    pub dialect: Dialect,
    /// The event name as the caller wrote it (`beforeShellExecution`).
    pub caller_event: String,
    /// The bytes exactly as the caller sent them: what hooks speaking the
    /// caller's (non-Claude) dialect receive.
    pub raw: Arc<Vec<u8>>,
}

impl Event {
    /// The `tool_input` object of a tool event, if it has one.
    #[must_use]
    pub fn tool_input(&self) -> Option<&Map<String, Value>> {
        self.fields.get("tool_input").and_then(Value::as_object)
    }

    /// A string field, or `""`.
    #[must_use]
    pub fn str_field(&self, key: &str) -> &str {
        self.fields.get(key).and_then(Value::as_str).unwrap_or("")
    }
}

/// The event's JSON object, from the raw stdin bytes.
///
/// # Errors
/// Empty input, malformed JSON (with the byte offset), or a non-object.
pub(crate) fn object_of(raw: &[u8]) -> Result<Map<String, Value>, Error> {
    if raw.iter().all(u8::is_ascii_whitespace) {
        return Err(Error::Event(
            "stdin is empty; expected one JSON object".into(),
        ));
    }
    let value: Value = lenient::parse(raw).map_err(|failure| match failure {
        lenient::Failure::TooDeep(depth) => Error::Event(format!(
            "nested {depth} levels deep, deeper than the {} hookrun reads",
            lenient::depth_limit()
        )),
        lenient::Failure::Json(e) => {
            let offset = byte_offset(raw, e.line(), e.column());
            let full = e.to_string();
            let suffix = format!(" at line {} column {}", e.line(), e.column());
            let what = full.strip_suffix(&suffix).unwrap_or(&full);
            Error::Event(format!(
                "not valid JSON at byte offset {offset} (line {}, column {}): {what}",
                e.line(),
                e.column()
            ))
        }
    })?;
    match value {
        Value::Object(fields) => Ok(fields),
        other => Err(Error::Event(format!(
            "expected a JSON object, found {}",
            kind(&other)
        ))),
    }
}

/// What the caller's dialect made of an event: who sent it, the name it
/// used, hookrun's name for it (if the dialect has one) and the fields in
/// hookrun's model.
#[derive(Debug)]
pub(crate) struct Recognised {
    pub dialect: Dialect,
    pub caller_event: String,
    pub mapped: Option<String>,
    pub fields: Map<String, Value>,
    /// The event's name was replaced by a forced one (`--event`): the hooks'
    /// bytes must be written anew.
    pub renamed: bool,
}

/// Builds the event from the caller's bytes and what its dialect made of
/// them. `forced_name` (`--event`) wins over `hook_event_name` and is written
/// into the payload when it differs.
///
/// # Errors
/// No event name, or a `hook_event_name` that is not a string.
pub(crate) fn build<'a>(
    raw: impl Into<std::borrow::Cow<'a, [u8]>>,
    forced_name: Option<&str>,
    recognised: Recognised,
) -> Result<Event, Error> {
    // Owned input (stdin) is reused as the hooks' bytes when it is already
    // compact: a large event is then held twice (bytes, parsed), not three times.
    let raw: std::borrow::Cow<'a, [u8]> = raw.into();
    let Recognised {
        dialect,
        caller_event,
        mapped,
        mut fields,
        renamed,
    } = recognised;
    if !dialect.is_claude_like() && mapped.is_none() && forced_name.is_none() {
        return Err(Error::Event(format!(
            "the {} event has no event name; pass `--event NAME` to name it",
            dialect.as_str()
        )));
    }
    let given = match fields.get("hook_event_name") {
        None => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(other) => {
            return Err(Error::Event(format!(
                "`hook_event_name` is {}, not a string",
                kind(other)
            )));
        }
    };
    let mut rewritten = renamed;
    let name = match (forced_name, given) {
        (Some(forced), given) => {
            if given.as_deref() != Some(forced) {
                fields.insert("hook_event_name".into(), Value::String(forced.to_owned()));
                rewritten = true;
            }
            forced.to_owned()
        }
        (None, Some(given)) => given,
        (None, None) => {
            return Err(Error::Event(
                "the event has no `hook_event_name`; pass `--event NAME` to name it".into(),
            ));
        }
    };
    let rewritten = rewritten || !dialect.is_claude_like();
    let original = if dialect.is_claude_like() {
        None
    } else {
        Some(raw.to_vec())
    };
    let mut bytes = if rewritten {
        serde_json::to_vec(&fields).map_err(|e| Error::Event(e.to_string()))?
    } else if is_compact(&raw) {
        let mut owned = raw.into_owned();
        while owned.last().is_some_and(u8::is_ascii_whitespace) {
            owned.pop();
        }
        owned
    } else {
        minify(&raw)
    };
    bytes.push(b'\n');
    let name = events::canonical_name(&name).to_owned();
    let bytes: Arc<Vec<u8>> = bytes.into();
    // Claude-dialect hooks get `bytes`; only other callers need their
    // original bytes kept (a second copy of a large event otherwise).
    let raw = match original {
        None => Arc::clone(&bytes),
        Some(r) => r.into(),
    };
    Ok(Event {
        info: events::known(&name),
        name,
        fields,
        bytes,
        dialect,
        caller_event,
        raw,
    })
}

/// Completes a partial event with the common fields Claude Code always
/// sends (`session_id`, `transcript_path`, `cwd`, and `permission_mode` on
/// the events that carry one), in Claude Code's key order; the partial
/// event's own fields win. For `explain` and `test`.
#[must_use]
pub(crate) fn complete(partial: &Map<String, Value>, cwd: &str) -> Map<String, Value> {
    let mut out = Map::new();
    out.insert(
        "session_id".into(),
        "00000000-0000-4000-8000-000000000000".into(),
    );
    out.insert(
        "transcript_path".into(),
        format!("{cwd}/transcript.jsonl").into(),
    );
    out.insert("cwd".into(), cwd.into());
    let name = partial
        .get("hook_event_name")
        .and_then(Value::as_str)
        .unwrap_or("");
    if events::info(name).is_some_and(|i| {
        i.tool_event
            || matches!(
                name,
                "Stop" | "SubagentStop" | "UserPromptSubmit" | "PostToolBatch"
            )
    }) {
        out.insert("permission_mode".into(), "default".into());
    }
    for (k, v) in partial {
        out.insert(k.clone(), v.clone());
    }
    out
}

/// Whether valid JSON has no insignificant whitespace (trailing whitespace
/// aside): Claude Code sends compact JSON plus one newline.
fn is_compact(json: &[u8]) -> bool {
    let end = json
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(0, |p| p + 1);
    let (mut in_string, mut escaped) = (false, false);
    for &b in &json[..end] {
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
        } else if b == b'"' {
            in_string = true;
        } else if matches!(b, b' ' | b'\t' | b'\n' | b'\r') {
            return false;
        }
    }
    true
}

/// Removes the insignificant whitespace of valid JSON, keeping every other
/// byte (numbers, escapes, key order) exactly as sent.
fn minify(json: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(json.len());
    let (mut in_string, mut escaped) = (false, false);
    for &b in json {
        if in_string {
            out.push(b);
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
        } else if b == b'"' {
            in_string = true;
            out.push(b);
        } else if !matches!(b, b' ' | b'\t' | b'\n' | b'\r') {
            out.push(b);
        }
    }
    out
}

fn kind(v: &Value) -> &'static str {
    crate::wording::kind_of(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compact_bytes_keep_numbers_and_strings() {
        let ev = crate::dialect::read_event(
            b" {\"hook_event_name\": \"Stop\",\n \"x\": 1.50, \"s\": \"a b\\\" c\"} ",
            None,
        )
        .unwrap();
        assert_eq!(
            &*ev.bytes,
            b"{\"hook_event_name\":\"Stop\",\"x\":1.50,\"s\":\"a b\\\" c\"}\n"
        );
        assert_eq!(ev.name, "Stop");
    }

    #[test]
    fn bad_inputs_have_clear_messages() {
        let msg = |raw: &[u8]| {
            crate::dialect::read_event(raw, None)
                .unwrap_err()
                .to_string()
        };
        assert!(msg(b"").contains("empty"));
        assert!(msg(b"[1]").contains("found an array"));
        assert!(msg(b"{\"a\":").contains("at byte offset 4"));
        assert!(msg(b"{\"a\":1}").contains("--event"));
    }

    #[test]
    fn forced_name_is_written_into_the_payload() {
        let ev =
            crate::dialect::read_event(b"{\"tool_name\":\"Bash\"}", Some("PreToolUse")).unwrap();
        assert_eq!(ev.name, "PreToolUse");
        assert!(
            std::str::from_utf8(&ev.bytes)
                .unwrap()
                .contains("\"hook_event_name\":\"PreToolUse\"")
        );
    }

    #[test]
    fn cap_is_enforced() {
        assert!(read_capped(&b"12345"[..], 4).is_err());
        assert_eq!(read_capped(&b"1234"[..], 4).unwrap(), b"1234");
        // The newline that ends the event is not part of it.
        assert_eq!(read_capped(&b"1234\n"[..], 4).unwrap(), b"1234\n");
        assert!(read_capped(&b"1234\r\n"[..], 4).is_err());
        assert!(read_capped(&b"12345\n"[..], 4).is_err());
    }
}
