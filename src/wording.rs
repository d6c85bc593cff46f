//! How values are named in messages, the same way everywhere: seconds as
//! `1.5s`, JSON values by their kind (`a string`, `an object`).

use serde_json::Value;

/// Formats seconds like `1s`, `0.5s`, `1.5s`.
#[must_use]
pub(crate) fn fmt_secs(secs: f64) -> String {
    let s = format!("{secs:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    format!("{s}s")
}

/// "a string", "an array", ... for messages.
#[must_use]
pub(crate) fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
