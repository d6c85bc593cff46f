//! The one interface every built-in guard implements: what it is given
//! (a [`Call`] and its [`Context`]) and what it concludes (a [`Verdict`]).

use std::path::Path;

use serde_json::{Map, Value};

use crate::own_files::OwnFiles;

/// One hook event as a guard reads it: the few fields the guards judge,
/// taken out of the event by the engine, so that no guard knows how any
/// agent spells them.
#[derive(Debug, Clone, Copy, Default)]
pub struct Call<'a> {
    /// hookrun's name of the event (`PreToolUse`, `PermissionRequest`,
    /// `PostToolUse`, ...).
    pub event: &'a str,
    /// The tool's name as the agent sent it, `""` for none.
    pub tool: &'a str,
    /// The tool's input as sent (an object for every tool a guard knows).
    pub input: Option<&'a Value>,
    /// A shell command the event itself carries, outside any tool input
    /// (an event about a command line rather than a tool call).
    pub command: Option<&'a Value>,
    /// The directory the agent ran in, `""` for none.
    pub cwd: &'a str,
    /// The tool's output, after it ran: what `redact-secrets` rewrites.
    pub output: Option<&'a Value>,
    /// The tool's output under another name some callers send it; shown
    /// by `log-tools`, never rewritten.
    pub result: Option<&'a Value>,
    /// The tool's error, when it failed.
    pub error: Option<&'a Value>,
}

impl<'a> Call<'a> {
    /// The tool input when it is an object.
    #[must_use]
    pub fn input_object(&self) -> Option<&'a Map<String, Value>> {
        self.input.and_then(Value::as_object)
    }
}

/// Where a guard gets hookrun's own files for a project from: the engine
/// knows where its config, trust list, audit files and the agents' settings
/// live; the guards only match paths against the list.
pub trait OwnSource: Sync {
    /// hookrun's own files for an event in `project`.
    fn own_files(&self, project: &Path) -> OwnFiles;
}

/// What a guard knows of the run besides the call: the project directory,
/// hookrun's own files (its config, trust list, audit files, the agent
/// settings that register it), and the clock, which only `log-tools` reads.
///
/// The own files are gathered on first use ([`Context::own`]): only
/// `protect-paths` judging a path asks, so the other guards, and events it
/// passes at once, never pay for the list.
pub struct Context<'a> {
    pub project: &'a Path,
    /// The time now, as RFC 3339 text; injected so that the guards keep no
    /// clock of their own and tests can fix it.
    pub now: fn() -> String,
    source: Option<&'a dyn OwnSource>,
    own: std::cell::OnceCell<OwnFiles>,
}

impl std::fmt::Debug for Context<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Context")
            .field("project", &self.project)
            .field("own", &self.own.get())
            .finish_non_exhaustive()
    }
}

impl<'a> Context<'a> {
    /// A context with no own files, and `now` for its clock.
    #[must_use]
    pub fn new(project: &'a Path, now: fn() -> String) -> Self {
        Context {
            project,
            now,
            source: None,
            own: std::cell::OnceCell::new(),
        }
    }

    /// The same context, with hookrun's own files taken from `source`.
    #[must_use]
    pub fn with_own(mut self, source: &'a dyn OwnSource) -> Self {
        self.source = Some(source);
        self
    }

    /// hookrun's own files for this project, gathered on the first call.
    #[must_use]
    pub fn own(&self) -> &OwnFiles {
        self.own.get_or_init(|| {
            self.source
                .map_or_else(OwnFiles::default, |s| s.own_files(self.project))
        })
    }
}

/// A built-in guard: what it concludes for one call. Built from its options
/// by its registry entry.
pub trait Guard: Send + Sync + std::fmt::Debug {
    /// Evaluates the guard for one call.
    fn evaluate(&self, call: &Call<'_>, ctx: &Context<'_>) -> Verdict;

    /// Whether it judges the tool input, and so must judge it again once a
    /// hook rewrites it. A guard with side effects (a log line) says no: it
    /// would act twice for one call.
    fn judges_input(&self) -> bool {
        true
    }

    /// Whether its whole effect is rewriting the tool output, which a
    /// config without the rights to rewrite loses: there it changes nothing.
    fn only_rewrites(&self) -> bool {
        false
    }
}

/// A guard's line in the registry: its name, what it does, and how it is
/// built from its options (a JSON object).
pub struct Entry {
    pub name: &'static str,
    pub summary: &'static str,
    /// What follows `hookrun builtin NAME` in the help's example of it:
    /// the options a user is likely to set first, or nothing.
    pub example: &'static str,
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
pub(crate) fn options<T: serde::de::DeserializeOwned>(
    name: &str,
    options: Value,
) -> Result<T, String> {
    serde_json::from_value(options).map_err(|e| format!("invalid options for `{name}`: {e}"))
}

/// What a guard concluded for one call.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// Nothing to say.
    Pass,
    /// Deny (or block) with this reason.
    Deny(String),
    /// Replace the tool output with `output`, `count` secrets redacted.
    Rewrite { output: Value, count: usize },
    /// The built-in could not do its job (e.g. its log file is unwritable).
    Failed(String),
}
