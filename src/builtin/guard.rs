//! The one interface every built-in guard implements, and what it concludes.

use std::path::Path;

use serde_json::Value;

use crate::event::Event;

/// A built-in guard: what it concludes for one event. Built from its options
/// by its registry entry.
pub trait Guard: Send + Sync + std::fmt::Debug {
    /// Evaluates the guard for an event. `project` is the project directory
    /// (traversal and relative roots).
    fn evaluate(&self, event: &Event, project: &Path) -> Verdict;

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
