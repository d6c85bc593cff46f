//! Reading every event the agents' serializers can write, where serde_json
//! alone refuses it:
//!
//! - **lone UTF-16 surrogates.** Node's `JSON.stringify` (Claude Code,
//!   Gemini CLI) writes an unpaired surrogate as a `\udXXX` escape, which
//!   is not Unicode; serde_json rejects it. For hookrun's own reading (guards,
//!   matching) such an escape is read as U+FFFD, which is what the agent's
//!   runtime passes to a process it starts; the hooks still get the original
//!   bytes.
//! - **deep nesting.** serde_json stops at 128 levels. Node's
//!   `JSON.stringify` gives up near 4 200, Python's `json` near 1 000, so
//!   hookrun reads up to [`MAX_DEPTH`] levels, on a thread whose stack is
//!   sized for it; where no such thread could be created, as many as fit in
//!   the stack at hand ([`limit_to_stack`]). Deeper input is refused with
//!   that reason (and follows hookrun's own-error rule).

use serde::Deserialize;
use serde_json::Value;

/// The deepest nesting hookrun reads: above what any agent's serializer
/// writes.
pub(super) const MAX_DEPTH: usize = 5_000;

/// The stack of the thread that parses a deep event: a nesting level costs
/// serde_json a few hundred bytes of stack.
const DEEP_STACK: usize = crate::os::EVENT_STACK;

/// The stack one level of nesting may take, at most, anywhere an event is
/// handled (parse, guards, rendering, drop). In a debug build, dropping a
/// 4 990-deep event fits in 2 MiB (under 420 bytes a level) and
/// redact-secrets' walk takes over 512 bytes a level; 190 levels under a
/// 1 MiB stack and 445 under 2 MiB are handled with this bound (the tests
/// in `faults`).
const STACK_PER_LEVEL: usize = 4 * 1024;

/// The stack kept for everything around the nested work.
const STACK_RESERVE: usize = 256 * 1024;

thread_local! {
    /// The deepest nesting this thread's stack holds, once
    /// [`limit_to_stack`] said what that stack is. Per thread, as the stack
    /// it guards is.
    static DEPTH_LIMIT: std::cell::Cell<Option<usize>> = const { std::cell::Cell::new(None) };
}

/// Says that this thread handles an event with `stack` bytes of stack: it
/// reads as deep as that holds (at most [`MAX_DEPTH`]), on itself.
pub(crate) fn limit_to_stack(stack: usize) {
    let fits = stack.saturating_sub(STACK_RESERVE) / STACK_PER_LEVEL;
    DEPTH_LIMIT.set(Some(fits.min(MAX_DEPTH)));
}

/// The deepest nesting read on this thread.
#[must_use]
pub(super) fn depth_limit() -> usize {
    DEPTH_LIMIT.get().unwrap_or(MAX_DEPTH)
}

/// Parses `raw` as serde_json would, then, where serde_json refused what an
/// agent can send, once more as described in the module docs.
///
/// # Errors
/// The text is not JSON even so (serde_json's error for the original text),
/// or it is nested deeper than [`MAX_DEPTH`] (a message saying so).
pub(super) fn parse(raw: &[u8]) -> Result<Value, Failure> {
    let first = match serde_json::from_slice(raw) {
        Ok(v) => return Ok(v),
        Err(e) => e,
    };
    let sanitized = without_lone_surrogates(raw);
    let text = sanitized.as_deref().unwrap_or(raw);
    if sanitized.is_some()
        && let Ok(v) = serde_json::from_slice(text)
    {
        return Ok(v);
    }
    let depth = max_depth(text);
    if depth > depth_limit() {
        return Err(Failure::TooDeep(depth));
    }
    if depth <= 128 {
        return Err(Failure::Json(first));
    }
    if DEPTH_LIMIT.get().is_some() {
        // This thread's stack holds `depth` levels (checked above).
        return parse_deep(text).map_err(Failure::Json);
    }
    let owned = text.to_vec();
    std::thread::Builder::new()
        .stack_size(DEEP_STACK)
        .spawn(move || parse_deep(&owned))
        .ok()
        .and_then(|t| t.join().ok())
        .map_or(Err(Failure::Json(first)), |r| r.map_err(Failure::Json))
}

/// serde_json's parse without its recursion limit: only for text whose
/// depth the stack at hand holds.
fn parse_deep(text: &[u8]) -> Result<Value, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_slice(text);
    de.disable_recursion_limit();
    let v = Value::deserialize(&mut de)?;
    de.end().map(|()| v)
}

/// Why an event could not be read.
#[derive(Debug)]
pub(super) enum Failure {
    Json(serde_json::Error),
    TooDeep(usize),
}

/// The deepest nesting of arrays and objects in JSON text (strings skipped).
fn max_depth(text: &[u8]) -> usize {
    let (mut depth, mut max, mut in_string, mut escaped) = (0usize, 0usize, false, false);
    for &b in text {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                max = max.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    max
}

/// The text with every unpaired `\uD800`–`\uDFFF` escape inside a string
/// replaced by `\uFFFD`; `None` when there is none.
fn without_lone_surrogates(text: &[u8]) -> Option<Vec<u8>> {
    let unit = |at: usize| -> Option<u16> {
        let hex = text.get(at..at + 4)?;
        u16::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok()
    };
    let escape_at = |at: usize| text.get(at) == Some(&b'\\') && text.get(at + 1) == Some(&b'u');
    let mut out: Option<Vec<u8>> = None;
    let (mut i, mut in_string, mut copied) = (0usize, false, 0usize);
    while i < text.len() {
        let b = text[i];
        if !in_string {
            in_string = b == b'"';
            i += 1;
            continue;
        }
        match b {
            b'"' => {
                in_string = false;
                i += 1;
            }
            b'\\' if text.get(i + 1) == Some(&b'u') => {
                let Some(u) = unit(i + 2) else {
                    i += 2;
                    continue;
                };
                let paired = (0xD800..0xDC00).contains(&u)
                    && escape_at(i + 6)
                    && unit(i + 8).is_some_and(|low| (0xDC00..0xE000).contains(&low));
                if paired {
                    i += 12;
                } else if (0xD800..0xE000).contains(&u) {
                    let buf = out.get_or_insert_with(Vec::new);
                    buf.extend_from_slice(&text[copied..i]);
                    buf.extend_from_slice(b"\\uFFFD");
                    i += 6;
                    copied = i;
                } else {
                    i += 6;
                }
            }
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
    let mut buf = out?;
    buf.extend_from_slice(&text[copied..]);
    Some(buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lone_surrogates_read_as_replacement_characters() {
        let v =
            parse(br#"{"a":"x\ud800y","b":"\udc00","c":"\ud83d\ude00","d":"\\ud800"}"#).unwrap();
        assert_eq!(v["a"], "x\u{FFFD}y");
        assert_eq!(v["b"], "\u{FFFD}");
        assert_eq!(v["c"], "\u{1F600}");
        assert_eq!(v["d"], "\\ud800");
    }

    #[test]
    fn deep_nesting_within_the_bound_is_read() {
        let n = MAX_DEPTH;
        let text = format!("{}{}", "[".repeat(n), "]".repeat(n));
        assert!(parse(text.as_bytes()).is_ok());
        let text = "[".repeat(MAX_DEPTH + 1);
        assert!(matches!(parse(text.as_bytes()), Err(Failure::TooDeep(_))));
        assert!(matches!(parse(b"{not json"), Err(Failure::Json(_))));
    }
}
