//! `log-tools`: one line per tool call (deputy's `hook_log_tools`), to
//! stderr or appended to a file. Never decides anything.

use std::io::Write;
use std::path::PathBuf;

use serde::Deserialize;
use serde_json::Value;

use crate::builtin::guard::{Entry, Guard, Verdict, options};
use crate::event::Event;

/// Options of `log-tools`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// Append to this file instead of writing to stderr.
    pub file: Option<PathBuf>,
    /// Characters of the input and output shown (default 100).
    pub preview: Option<usize>,
}

/// The line for an event.
#[must_use]
pub fn line(event: &Event, preview: usize) -> String {
    let clip = |v: Option<&Value>| {
        let s = v.map(|v| match v {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        });
        let s = s.unwrap_or_default();
        let s: String = crate::builtin::redact::Redactor::default_set()
            .text(&s)
            .0
            .chars()
            .take(preview)
            .collect();
        s.replace('\n', "\\n")
    };
    let f = &event.fields;
    let mut out = format!(
        "{} {} tool={} input={}",
        crate::clock::now_rfc3339(),
        event.name,
        event.str_field("tool_name"),
        clip(f.get("tool_input"))
    );
    if let Some(r) = f.get("tool_response").or_else(|| f.get("tool_result")) {
        out.push_str(&format!(" output={}", clip(Some(r))));
    }
    if let Some(e) = f
        .get("error")
        .or_else(|| f.get("tool_error"))
        .filter(|e| !e.is_null())
    {
        out.push_str(&format!(" error={}", clip(Some(e))));
    }
    out
}

/// Writes the line; a failure is returned as a message (reported, never a
/// decision).
///
/// # Errors
/// The log file cannot be opened or written.
pub fn write(o: &Options, line: &str) -> Result<(), String> {
    let text = format!("{line}\n");
    match &o.file {
        None => std::io::stderr()
            .lock()
            .write_all(text.as_bytes())
            .map_err(|e| e.to_string()),
        Some(path) => std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .and_then(|mut f| f.write_all(text.as_bytes()))
            .map_err(|e| format!("cannot append to `{}`: {e}", path.display())),
    }
}

/// The registry entry of `log-tools`.
pub const ENTRY: Entry = Entry {
    name: "log-tools",
    summary: "one line per tool call, to stderr or a file",
    canaries: &[],
    build: |o| Ok(Box::new(options::<Options>("log-tools", o)?)),
};

impl Guard for Options {
    fn evaluate(&self, event: &Event, _project: &std::path::Path) -> Verdict {
        let preview = self.preview.unwrap_or(100);
        write(self, &line(event, preview)).map_or_else(Verdict::Failed, |()| Verdict::Pass)
    }

    fn judges_input(&self) -> bool {
        false
    }
}
