//! hookrun's built-in guards: rules that judge one hook event in-process,
//! without starting a process, and say what they conclude.
//!
//! | name | events | what it does |
//! | --- | --- | --- |
//! | `dangerous-commands` | PreToolUse, PermissionRequest | denies shell commands that destroy a system |
//! | `protect-paths` | PreToolUse, PermissionRequest | denies reads/writes of sensitive files, traversal, writes outside roots |
//! | `redact-secrets` | PostToolUse | replaces secrets in the tool output with `[REDACTED:<rule>]` |
//! | `log-tools` | any | one line per tool call, to stderr or a file |
//!
//! A guard is built from the [`REGISTRY`] with its options (a JSON
//! object), is given a [`Call`] (the few fields of the event it judges)
//! and a [`Context`] (the project directory, hookrun's own files, a
//! clock), and returns a [`Verdict`]: pass, deny with a reason, replace
//! the tool output, or failed. Commands are read through `hookrun-sh`, the
//! code they hand to other languages through `hookrun-code`.
//!
//! Non-goals: no agent's wire format (the engine builds the call from the
//! event it received and turns the verdict into its answer, warn mode
//! included), no processes, and no I/O but `log-tools`' line and the file
//! system lookups a path judgment needs (links, globs as bash expands them).
//!
//! ```
//! use std::path::Path;
//!
//! use hookrun_guards::{Call, Context, Verdict};
//! use serde_json::json;
//!
//! let entry = hookrun_guards::entry("dangerous-commands").expect("a registered guard");
//! let guard = (entry.build)(json!({})).expect("valid options");
//! let input = json!({"command": "rm -rf /"});
//! let call = Call {
//!     event: "PreToolUse",
//!     tool: "Bash",
//!     input: Some(&input),
//!     ..Call::default()
//! };
//! let verdict = guard.evaluate(&call, &Context::new(Path::new("/work"), String::new));
//! assert!(matches!(verdict, Verdict::Deny(_)));
//! ```
//!
//! Each guard is one module implementing [`Guard`] with a registry `ENTRY`
//! (name, summary, constructor from its options, `doctor`'s canaries); the
//! `guards!` line declares and lists them. A new guard is one new module
//! and its name there. The command semantics the guards share (argv,
//! wrappers, targets, writes) are in `command`.

mod command;
pub mod glob;
mod guard;
mod own_files;

pub use guard::{Call, Canary, CanaryTool, Context, Entry, Expect, Guard, OwnSource, Verdict};
pub use own_files::{OwnFiles, OwnKind};
/// Secret redaction outside the guard too: the audit line is redacted
/// with the default rules, and `doctor`'s canary carries a fake secret.
pub use redact::{CANARY_TOKEN_LINE, Redactor};

/// Declares each guard's file and lists its `ENTRY` in `REGISTRY`, from one
/// list: a new guard is one file and its name here.
macro_rules! guards {
    ($($module:ident),* $(,)?) => {
        $(pub mod $module;)*

        /// Every built-in guard, in the order they are listed.
        pub static REGISTRY: &[Entry] = &[$($module::ENTRY,)*];
    };
}
guards!(dangerous, protect_paths, redact, log_tools);

/// The names of the built-ins.
pub fn names() -> impl Iterator<Item = &'static str> {
    REGISTRY.iter().map(|e| e.name)
}

/// The registry entry of the guard named `name`, `None` for no such guard.
#[must_use]
pub fn entry(name: &str) -> Option<&'static Entry> {
    REGISTRY.iter().find(|e| e.name == name)
}
