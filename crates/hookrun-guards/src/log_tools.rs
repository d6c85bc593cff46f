//! `log-tools`: one line per tool call (deputy's `hook_log_tools`), to
//! stderr or appended to a file. Never decides anything.

use std::io::Write;
use std::path::PathBuf;

use serde::Deserialize;
use serde_json::Value;

use crate::guard::{Call, Context, Entry, Guard, Verdict, options};

/// Options of `log-tools`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// Append to this file instead of writing to stderr.
    pub file: Option<PathBuf>,
    /// Characters of the input and output shown (default 100).
    pub preview: Option<usize>,
}

/// The line for a call, stamped `now`.
#[must_use]
pub fn line(call: &Call<'_>, now: &str, preview: usize) -> String {
    let clip = |v: Option<&Value>| {
        let s = v.map(|v| match v {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        });
        let s = s.unwrap_or_default();
        let s: String = crate::redact::Redactor::default_set()
            .text(&s)
            .0
            .chars()
            .take(preview)
            .collect();
        s.replace('\n', "\\n")
    };
    let mut out = format!(
        "{now} {} tool={} input={}",
        call.event,
        call.tool,
        clip(call.input)
    );
    if let Some(r) = call.output.or(call.result) {
        out.push_str(&format!(" output={}", clip(Some(r))));
    }
    if let Some(e) = call.error.filter(|e| !e.is_null()) {
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
    example: "",
    canaries: &[],
    build: |o| Ok(Box::new(options::<Options>("log-tools", o)?)),
};

impl Guard for Options {
    fn evaluate(&self, call: &Call<'_>, ctx: &Context<'_>) -> Verdict {
        let preview = self.preview.unwrap_or(100);
        write(self, &line(call, &(ctx.now)(), preview))
            .map_or_else(Verdict::Failed, |()| Verdict::Pass)
    }

    fn judges_input(&self) -> bool {
        false
    }
}
