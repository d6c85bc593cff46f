//! `check` on policy test files (`*.test.toml`, run by `hookrun test`):
//! what would make `test` fail before any case runs, found without running
//! a hook. The file must parse as a test file, the configs it names must
//! exist, and each case's event must read in the case's dialect as an
//! event that agent fires, in any dialect hookrun speaks (a deputy case
//! names deputy's events and its `context`, a Gemini case `BeforeTool`).

use std::path::Path;

use crate::config::{Code, Diagnostic};
use crate::error::Error;
use crate::suite::{self, Case};

/// Whether a path names a test file rather than a config.
#[must_use]
pub(crate) fn is_suite(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.ends_with(".test.toml"))
}

/// The findings of one test file.
#[must_use]
pub(crate) fn check(path: &Path) -> Vec<Diagnostic> {
    let s = match suite::load(path) {
        Ok(s) => s,
        Err(Error::Config(p)) => {
            let mut d = Diagnostic::new(p.code, path, p.message.clone());
            d.line = p.at.line;
            d.column = p.at.column;
            d.key = p.key.clone();
            d.fix = p.fix.clone();
            return vec![d];
        }
        Err(e) => return vec![Diagnostic::new(Code::Unreadable, path, e.to_string())],
    };
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut out = Vec::new();
    for config in &s.configs {
        if !config.is_file() {
            out.push(
                Diagnostic::new(
                    Code::Unreadable,
                    path,
                    format!("the config `{}` does not exist", config.display()),
                )
                .at(line_of(&text, "config"))
                .key("config"),
            );
        }
    }
    for (i, case) in s.cases.iter().enumerate() {
        if let Some(d) = check_case(path, &text, i, case) {
            out.push(d);
        }
    }
    out
}

/// A case whose event its dialect cannot read, or reads as an event
/// hookrun does not know.
fn check_case(path: &Path, text: &str, index: usize, case: &Case) -> Option<Diagnostic> {
    let at = event_line(text, &case.name);
    let key = format!("case[{index}].event");
    let dialect = case.dialect.map_or("recognised", |d| d.as_str());
    let partial = suite::event_of(case, "/tmp", "/tmp");
    let bytes = serde_json::to_vec(&crate::event::complete(&partial, "/tmp")).ok()?;
    let found = |code: Code, message: String| {
        Some(Diagnostic::new(code, path, message).at(at).key(key.clone()))
    };
    match crate::dialect::read_event_as(bytes, None, case.dialect) {
        Err(e) => found(
            Code::WrongShape,
            format!("case {:?}: its event cannot be read: {e}", case.name),
        ),
        Ok(ev) if ev.info.is_none() => found(
            Code::UnknownEvent,
            format!(
                "case {:?}: `{}` is not an event of the {dialect} dialect",
                case.name,
                given_name(&ev)
            ),
        ),
        Ok(ev) if crate::dialect::event_name(ev.dialect, &ev.name).is_none() => found(
            Code::UnknownEvent,
            format!(
                "case {:?}: {} never fires `{}`",
                case.name,
                ev.dialect.as_str(),
                given_name(&ev)
            ),
        ),
        Ok(_) => None,
    }
}

/// The event's name as the case gave it.
fn given_name(ev: &crate::event::Event) -> &str {
    if ev.caller_event.is_empty() {
        &ev.name
    } else {
        &ev.caller_event
    }
}

/// Where a case's `event` is: the first `event` after the case's name,
/// else the name.
fn event_line(text: &str, name: &str) -> Option<(usize, usize)> {
    let named = text.find(&format!("{name:?}"))?;
    let at = text[named..]
        .find("\nevent")
        .map_or(named, |e| named + e + 1);
    Some(crate::error::line_col(text, at))
}

/// The line and column of the first occurrence of `needle`, if any.
fn line_of(text: &str, needle: &str) -> Option<(usize, usize)> {
    text.find(needle).map(|at| crate::error::line_col(text, at))
}
