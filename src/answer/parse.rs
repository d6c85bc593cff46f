//! Reading a hook's stdout the way Claude Code does: plain text,
//! a schema-valid JSON object, the async marker, or a validation error.

use serde_json::{Map, Value};

/// ECMAScript `String.prototype.trim` (includes the BOM, unlike Rust's).
#[must_use]
pub(crate) fn js_trim(s: &str) -> &str {
    s.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}')
}

pub(super) enum Parsed {
    Plain,
    Json(Map<String, Value>),
    Async,
    Invalid(String),
}

/// What Claude Code makes of a hook's stdout: plain text, a schema-valid
/// object, an async marker, or a validation error.
pub(super) fn parse_stdout(stdout: &str) -> Parsed {
    let t = js_trim(stdout);
    if !t.starts_with('{') {
        return Parsed::Plain;
    }
    let first_line = stdout
        .trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}')
        .split('\n')
        .next()
        .unwrap_or("");
    if let Ok(Value::Object(head)) = serde_json::from_str::<Value>(first_line)
        && head.get("async") == Some(&Value::Bool(true))
    {
        return Parsed::Async;
    }
    match serde_json::from_str::<Value>(t) {
        Ok(Value::Object(obj)) => match crate::schema::validate(&obj) {
            Ok(()) => Parsed::Json(obj),
            Err(e) => Parsed::Invalid(format!("Hook JSON output validation failed — {e}")),
        },
        Ok(_) => Parsed::Plain,
        Err(e) => {
            if !t.ends_with('}') {
                return Parsed::Plain;
            }
            let json_lines = t
                .split('\n')
                .map(js_trim)
                .filter(|l| !l.is_empty())
                .all(|l| serde_json::from_str::<serde::de::IgnoredAny>(l).is_ok());
            if json_lines {
                return Parsed::Plain;
            }
            Parsed::Invalid(format!(
                "Hook output looks like a JSON object but is not valid JSON — {e}"
            ))
        }
    }
}
