//! An `mcp_tool` hook's `input` with its `${path}` references filled from
//! the event, as Claude Code fills them: pure, apart from the client.

use serde_json::Value;

/// The value of `input` with each `${path}` in its strings filled from
/// `event`, as Claude Code fills an `mcp_tool` hook's `input`:
///
/// - a reference is `${` a name `}`, the name a letter or `_` then
///   letters, digits, `_` and `.` (`${tool_input.command}`); anything else
///   (`${}`, `${a-b}`, `$name`) stays as written;
/// - the name is a dot path from the top of the event: each part a key of
///   an object, or an index (or `length`) of an array;
/// - the value is always put in as text, even where the string is nothing
///   but the reference: a string as itself, a number or `true`/`false` as
///   JavaScript writes them, an object or array as its compact JSON;
///   `"${tool_input}"` gives `"{\"command\":\"ls\"}"`, never an object;
/// - a missing path or a `null` gives the empty string;
/// - objects and arrays of `input` are walked, their keys left as they
///   are; numbers, booleans and `null` stay as they are.
#[must_use]
pub(crate) fn expand_input(input: &Value, event: &Value) -> Value {
    match input {
        Value::String(s) => Value::String(fill(s, event)),
        Value::Array(items) => Value::Array(items.iter().map(|v| expand_input(v, event)).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), expand_input(v, event)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// One string with its references filled (see [`expand_input`]).
fn fill(s: &str, event: &Value) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = rest.find("${") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let name_len = after
            .char_indices()
            .find(|&(i, c)| {
                let ok = if i == 0 {
                    c.is_ascii_alphabetic() || c == '_'
                } else {
                    c.is_ascii_alphanumeric() || c == '_' || c == '.'
                };
                !ok
            })
            .map_or(after.len(), |(i, _)| i);
        if name_len > 0 && after[name_len..].starts_with('}') {
            out.push_str(&as_text(lookup(event, &after[..name_len])));
            rest = &after[name_len + 1..];
        } else {
            out.push_str("${");
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// The value at a dot path, if there is one.
fn lookup(event: &Value, path: &str) -> Option<Value> {
    let mut parts = path.split('.').peekable();
    let mut here = event;
    while let Some(part) = parts.next() {
        here = match here {
            Value::Object(map) => map.get(part)?,
            // A number, which has no parts of its own.
            Value::Array(items) if part == "length" => {
                return parts.peek().is_none().then(|| Value::from(items.len()));
            }
            Value::Array(items) => items.get(array_index(part)?)?,
            _ => return None,
        };
    }
    Some(here.clone())
}

/// An array index as JavaScript reads a property name: decimal digits with
/// no leading zero (`"01"` is no index).
fn array_index(part: &str) -> Option<usize> {
    if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if part.len() > 1 && part.starts_with('0') {
        return None;
    }
    part.parse().ok()
}

/// A value as JavaScript's `String()` writes it, objects and arrays as
/// JSON; nothing for a missing value or `null`.
fn as_text(value: Option<Value>) -> String {
    match value {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s,
        Some(Value::Bool(b)) => b.to_string(),
        Some(Value::Number(n)) => js_number(&n),
        Some(v @ (Value::Array(_) | Value::Object(_))) => v.to_string(),
    }
}

/// A number as JavaScript writes it: whole floats without `.0`.
fn js_number(n: &serde_json::Number) -> String {
    if n.is_f64()
        && let Some(f) = n.as_f64()
        && f.fract() == 0.0
        && f.abs() < 1e21
    {
        // Exact: a whole number below 1e21 has an exact integer text.
        #[allow(clippy::cast_possible_truncation)]
        return format!("{}", f as i128);
    }
    n.to_string()
}
