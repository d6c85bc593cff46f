//! The one interface every built-in guard implements, and what it concludes.

use std::path::Path;

use serde_json::Value;

use crate::builtin::protect_paths::own_files::OwnFiles;
use crate::event::Event;

/// What a guard knows of the run besides the event: the project directory
/// and hookrun's own files (its config, trust list, audit files, the agent
/// settings that register it), gathered when the config was loaded.
#[derive(Debug, Clone, Copy)]
pub struct Context<'a> {
    pub project: &'a Path,
    pub own: &'a OwnFiles,
}

/// A built-in guard: what it concludes for one event. Built from its options
/// by its registry entry.
pub trait Guard: Send + Sync + std::fmt::Debug {
    /// Evaluates the guard for an event. `project` is the project directory
    /// (traversal and relative roots).
    fn evaluate(&self, event: &Event, project: &Path) -> Verdict;

    /// Evaluates the guard with the whole context; guards that need only
    /// the project keep [`evaluate`](Guard::evaluate).
    fn evaluate_in(&self, event: &Event, ctx: &Context<'_>) -> Verdict {
        self.evaluate(event, ctx.project)
    }

    /// Whether it judges the tool input, and so must judge it again once a
    /// hook rewrites it. A guard with side effects (a log line) says no: it
    /// would act twice for one call.
    fn judges_input(&self) -> bool {
        true
    }
}

/// A guard's line in the registry: its name, what it does, and how it is
/// built from its options (a JSON object).
pub struct Entry {
    pub name: &'static str,
    pub summary: &'static str,
    pub build: fn(Value) -> Result<Box<dyn Guard>, String>,
    /// The events `doctor` fires through each registration to prove the
    /// guard holds there: strings inside events, never executed.
    pub canaries: &'static [Canary],
}

/// One event a guard answers in a known way, for `doctor`.
#[derive(Debug, Clone, Copy)]
pub struct Canary {
    /// hookrun's name of the event (`PreToolUse`, `PostToolUse`).
    pub event: &'static str,
    /// The tool the event is about, by family.
    pub tool: CanaryTool,
    /// The shell command, or the file name (placed in a scratch
    /// directory) the tool reads.
    pub input: &'static str,
    /// The tool's output, for an event after the tool ran.
    pub output: Option<&'static str>,
    /// What the guard must make of it.
    pub expect: Expect,
}

/// The tool family of a canary, named in each agent's own words by the
/// dialect that fires it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CanaryTool {
    Shell,
    Read,
}

/// What a guard must make of a canary.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Expect {
    /// The call is blocked.
    Blocked,
    /// The call goes through untouched.
    Allowed,
    /// The output reaches the model with the secret replaced.
    Redacted,
}

impl Expect {
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Expect::Blocked => "blocked",
            Expect::Allowed => "allowed",
            Expect::Redacted => "redacted",
        }
    }
}

/// Deserialises a guard's options, naming the guard in the error.
///
/// # Errors
/// Unknown or invalid options.
pub fn options<T: serde::de::DeserializeOwned>(name: &str, options: Value) -> Result<T, String> {
    serde_json::from_value(options).map_err(|e| format!("invalid options for `{name}`: {e}"))
}

/// What a built-in concluded for one event.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// Nothing to say.
    Pass,
    /// Deny (or block) with this reason.
    Deny(String),
    /// Replace the tool output (`field` is `updatedToolOutput` or
    /// `updatedMCPToolOutput`), `count` secrets redacted.
    Rewrite {
        field: &'static str,
        value: Value,
        count: usize,
    },
    /// The built-in could not do its job (e.g. its log file is unwritable).
    Failed(String),
}
