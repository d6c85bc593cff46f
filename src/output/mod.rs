//! The one place that writes hookrun's stdout and stderr. What to write is
//! decided elsewhere: each dialect renders a decision into a `Rendered`.

pub(crate) mod colour;
pub(crate) mod explain;
pub(crate) mod findings;
pub(crate) mod findings_junit;
pub(crate) mod sarif;
pub(crate) mod suite;
pub(crate) mod workflow;
pub(crate) mod xml;

use std::io::Write;

use serde_json::{Map, Value};

use crate::rendered::Rendered;

/// Writes the rendered result. A closed stdout (the caller went away) is
/// not an error worth a panic: the decision had no reader.
pub(crate) fn emit(rendered: &Rendered) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(rendered.stdout.as_bytes());
    let _ = out.flush();
    let mut err = std::io::stderr().lock();
    for line in &rendered.stderr {
        let _ = writeln!(err, "{line}");
    }
}

/// Writes a rendered text to stdout. A closed stdout is not worth a panic.
pub(crate) fn print(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

/// Whether text on stdout is coloured: `--color`, else a terminal without
/// `NO_COLOR`.
#[must_use]
pub(crate) fn colour_stdout() -> bool {
    colour::stdout()
}

/// Writes one line to stderr as it is (a line other programs read, such as
/// `serve --http`'s `listening on …`).
pub(crate) fn stderr_line(line: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

/// Writes one diagnostic line to stderr.
pub(crate) fn diagnostic(line: &str) {
    let _ = writeln!(std::io::stderr().lock(), "hookrun: {line}");
}

/// hookrun's own error as its caller gets it: one line on stderr and, when
/// a closed guard must block, a block decision on stdout. `run` prints it and
/// `serve` sends it as a reply, so both answer an error alike. Without an
/// event, and without `--dialect` (whose agent gets its own block,
/// `Protocol::unread_block`), there is no dialect to answer in: the block is
/// Claude Code's plain one, with exit code 2.
#[must_use]
pub(crate) fn error_answer(e: &crate::error::Error) -> Rendered {
    let message = e.to_string();
    let stdout = if e.blocks() {
        let mut o = Map::new();
        o.insert("decision".into(), "block".into());
        o.insert("reason".into(), format!("hookrun: {message}").into());
        Value::Object(o).to_string()
    } else {
        String::new()
    };
    Rendered {
        stdout,
        stderr: vec![format!("hookrun: error: {message}")],
        exit_code: e.exit_code(),
    }
}

/// Writes the report to a file, or to stderr for `-`.
///
/// # Errors
/// The file cannot be written.
pub(crate) fn write_report(path: &std::path::Path, report: &Value) -> std::io::Result<()> {
    let text = serde_json::to_string_pretty(report).unwrap_or_default();
    if path.as_os_str() == "-" {
        let _ = writeln!(std::io::stderr().lock(), "{text}");
        return Ok(());
    }
    std::fs::write(path, text + "\n")
}
