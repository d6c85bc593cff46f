//! hookrun's own errors and the one table that maps them to exit codes.
//!
//! Hook failures are not errors: they are outcomes (`exec::RunStatus`) that
//! the merge turns into notices or, under `fail_mode = "closed"`, blocks.
//! `Error` is only for hookrun itself being unable to do its job.
//!
//! Exit codes of `hookrun run`:
//!
//! | code | meaning |
//! | --- | --- |
//! | 0 | the merged result does not block (allow, ask, no decision, context) |
//! | 1 | hookrun's own error: bad flag, bad config, bad event, I/O (every `ErrorKind` but `Interrupted`) |
//! | 2 | the merged result blocks (deny / block), or a hookrun error under `fail_mode = "closed"` |
//! | 128 + N | hookrun was stopped by signal N (SIGINT 130, SIGTERM 143, SIGHUP 129, ...); every running hook was killed first |

use std::path::PathBuf;

/// Where a config problem is: the file, and the position when the format
/// gives one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    pub path: PathBuf,
    pub line: Option<usize>,
    pub column: Option<usize>,
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.path.display())?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(column) = self.column {
                write!(f, ":{column}")?;
            }
        }
        Ok(())
    }
}

/// A config file that cannot be used: where, which key, what is wrong.
#[derive(Debug)]
pub struct ConfigProblem {
    pub code: crate::diagnostic::Code,
    pub at: Location,
    pub key: Option<String>,
    pub message: String,
    pub fix: Option<String>,
}

impl std::fmt::Display for ConfigProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.at)?;
        if let Some(k) = &self.key {
            write!(f, " at `{k}`")?;
        }
        write!(f, ": {}", self.message)?;
        if let Some(fix) = &self.fix {
            write!(f, "; {fix}")?;
        }
        Ok(())
    }
}

/// How a command that did its job ends: the exit status it chose. A block
/// (2) or a failed check (1) is a result, not an error.
pub(crate) type ExitStatus = u8;

/// What kind of problem stopped hookrun: the axis the exit-code table and
/// callers care about, whatever the details.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// A flag or argument that cannot be used.
    Usage,
    /// A config file that cannot be read or used.
    Config,
    /// The event on stdin, or another input file, that cannot be used.
    Input,
    /// Reading or writing something hookrun needs failed.
    Io,
    /// A signal that would end hookrun (SIGINT, SIGTERM, SIGHUP, ...):
    /// every running hook was killed.
    Interrupted,
    /// hookrun itself could not work (runtime, rendering).
    Internal,
}

/// Everything that stops hookrun from producing a decision. Commands return
/// it; `crate::run` is the one place that prints it and picks the exit code.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{0}")]
    Usage(String),
    #[error("cannot read config `{}`: {source}", path.display())]
    ConfigRead {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("invalid config {0}")]
    Config(Box<ConfigProblem>),
    #[error("invalid event on stdin: {0}")]
    Event(String),
    /// The config defines no hook and was not turned off on purpose.
    #[error("{0}")]
    NoHooks(String),
    #[error(
        "hookrun run is nested {depth} deep; a configured hook probably runs `hookrun run` on the same config"
    )]
    Nested { depth: u32 },
    #[error("{what}: {source}")]
    Io {
        what: String,
        source: std::io::Error,
    },
    #[error("cannot read the event from stdin: {0}")]
    Stdin(std::io::Error),
    #[error("cannot write the report to `{}`: {source}", path.display())]
    Report {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot convert `{}`: {message}", path.display())]
    Convert { path: PathBuf, message: String },
    /// An agent's settings file `install` cannot edit.
    #[error("cannot edit `{}`: {message}", path.display())]
    Settings { path: PathBuf, message: String },
    #[error("cannot start the async runtime: {0}")]
    Runtime(std::io::Error),
    #[error("{0}")]
    Internal(String),
    /// A config layer that could not be loaded while the others were: the
    /// config the user wrote could not be fully evaluated.
    #[error("{0}")]
    Unevaluated(String),
    /// `forward` got no answer from its server.
    #[error("no decision from the policy server {0}")]
    Unanswered(String),
    /// `serve --http` accepted an event it did not evaluate (overloaded,
    /// stopping, past its time bound).
    #[error("the policy server did not evaluate this event: {0}")]
    Unserved(String),
    #[error("interrupted by {name}; every running hook was killed")]
    Interrupted { name: &'static str, signal: i32 },
    /// An error where a guard fails closed: answered with a block (exit 2)
    /// so that a broken input never opens a closed guard.
    #[error(transparent)]
    Closed(Box<Error>),
}

impl Error {
    /// The kind of problem.
    #[must_use]
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::Usage(_) => ErrorKind::Usage,
            Error::ConfigRead { .. }
            | Error::Config(_)
            | Error::NoHooks(_)
            | Error::Unevaluated(_) => ErrorKind::Config,
            Error::Event(_)
            | Error::Nested { .. }
            | Error::Stdin(_)
            | Error::Convert { .. }
            | Error::Settings { .. } => ErrorKind::Input,
            Error::Io { .. } | Error::Report { .. } | Error::Unanswered(_) | Error::Unserved(_) => {
                ErrorKind::Io
            }
            Error::Runtime(_) | Error::Internal(_) => ErrorKind::Internal,
            Error::Interrupted { .. } => ErrorKind::Interrupted,
            Error::Closed(inner) => inner.kind(),
        }
    }

    /// The exit code of this error (see the table in the module docs).
    #[must_use]
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Interrupted { signal, .. } => u8::try_from(128 + signal).unwrap_or(1),
            Error::Closed(_) => 2,
            _ => 1,
        }
    }

    /// Whether the error is answered with a block decision on stdout.
    #[must_use]
    pub fn blocks(&self) -> bool {
        matches!(self, Error::Closed(_))
    }

    /// Whether a closed guard must turn this error into a block: a broken
    /// input or config must never open a guard that was asked to fail closed.
    #[must_use]
    pub fn blocks_when_closed(&self) -> bool {
        !matches!(
            self,
            Error::Interrupted { .. } | Error::Report { .. } | Error::Closed(_)
        )
    }

    /// This error, answered as a block when `closed` applies and the error
    /// is one a closed guard must not let through.
    #[must_use]
    pub fn closed_if(self, closed: bool) -> Error {
        if closed && self.blocks_when_closed() {
            Error::Closed(Box::new(self))
        } else {
            self
        }
    }
}

/// Converts a byte offset into a 1-based line and column.
#[must_use]
pub(crate) fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text.as_bytes()[..offset];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    (line, offset - line_start + 1)
}

/// Line starts of a text, for many offset → line/column lookups in
/// O(log n) each (one pass over the text instead of one per lookup).
#[derive(Debug, Clone)]
pub(crate) struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    #[must_use]
    pub(crate) fn new(text: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(
            text.bytes()
                .enumerate()
                .filter(|(_, b)| *b == b'\n')
                .map(|(i, _)| i + 1),
        );
        LineIndex { starts }
    }

    /// 1-based line and column of a byte offset.
    #[must_use]
    pub(crate) fn line_col(&self, offset: usize) -> (usize, usize) {
        let line = self.starts.partition_point(|&s| s <= offset);
        let start = self.starts[line.saturating_sub(1)];
        (line.max(1), offset.saturating_sub(start) + 1)
    }
}

/// Converts a 1-based line and column into a byte offset.
#[must_use]
pub(crate) fn byte_offset(text: &[u8], line: usize, column: usize) -> usize {
    let mut current = 1;
    let mut start = 0;
    for (i, &b) in text.iter().enumerate() {
        if current == line {
            break;
        }
        if b == b'\n' {
            current += 1;
            start = i + 1;
        }
    }
    (start + column.saturating_sub(1)).min(text.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_and_offset_round_trip() {
        let text = "ab\ncd\nef";
        assert_eq!(line_col(text, 4), (2, 2));
        assert_eq!(byte_offset(text.as_bytes(), 2, 2), 4);
        assert_eq!(line_col(text, 0), (1, 1));
    }

    #[test]
    fn line_index_agrees_with_line_col() {
        let text = "ab\ncd\n\nef";
        let index = LineIndex::new(text);
        for offset in 0..=text.len() {
            assert_eq!(index.line_col(offset), line_col(text, offset), "{offset}");
        }
    }

    #[test]
    fn exit_codes_follow_the_table() {
        let e = Error::Event("x".into());
        assert_eq!(e.exit_code(), 1);
        let i = Error::Interrupted {
            name: "SIGTERM",
            signal: 15,
        };
        assert_eq!(i.exit_code(), 143);
        assert_eq!(i.kind(), ErrorKind::Interrupted);
    }

    #[test]
    fn a_closed_guard_turns_input_errors_into_blocks_but_not_interruptions() {
        let e = Error::Nested { depth: 8 }.closed_if(true);
        assert!(e.blocks());
        assert_eq!(e.exit_code(), 2);
        assert_eq!(e.kind(), ErrorKind::Input);
        assert!(e.to_string().starts_with("hookrun run is nested 8 deep"));
        let open = Error::Usage("x".into()).closed_if(false);
        assert_eq!((open.blocks(), open.exit_code()), (false, 1));
        let i = Error::Interrupted {
            name: "SIGINT",
            signal: 2,
        }
        .closed_if(true);
        assert_eq!((i.blocks(), i.exit_code()), (false, 130));
    }
}
