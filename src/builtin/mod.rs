//! Built-in hooks: guardrails that run in-process, cost no process, and
//! answer exactly like a command hook would, so they merge, report and
//! audit like any hook.
//!
//! | name | events | what it does |
//! | --- | --- | --- |
//! | `dangerous-commands` | PreToolUse, PermissionRequest | denies shell commands that destroy a system |
//! | `protect-paths` | PreToolUse, PermissionRequest | denies reads/writes of sensitive files, traversal, writes outside roots |
//! | `redact-secrets` | PostToolUse | replaces secrets in the tool output with `[REDACTED:<rule>]` |
//! | `log-tools` | any | one line per tool call, to stderr or a file |
//!
//! `mode = "warn"` turns any of them into shadow mode: it reports what it
//! would have done, and allows.
//!
//! Each guard is one file implementing `Guard` with a registry `ENTRY`
//! (name, summary, constructor from its options); the `guards!` line
//! declares and lists them. A new guard is one new file and its name there.

pub mod command;
pub mod guard;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::event::Event;
pub use guard::{Call, Canary, CanaryTool, Context, Entry, Expect, Guard, Verdict};
pub use protect_paths::own_files::{OwnFiles, OwnKind};

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

// ---- engine side ----

/// Enforce (the default) or only report.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Default,
    Deserialize,
    Serialize,
    schemars::JsonSchema,
    clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    #[default]
    Enforce,
    Warn,
}

/// A configured built-in hook.
#[derive(Debug)]
pub struct Builtin {
    pub name: &'static str,
    pub mode: Mode,
    /// The options as given, for reports and dedup.
    pub options: Value,
    guard: Box<dyn Guard>,
}

/// The options object of `hookrun builtin NAME [--options JSON] [--option
/// KEY=VALUE]...`: `--options` first, each `--option` over it (VALUE is
/// JSON, or else a string). Shared by the command and `check`, which
/// validates the same words when it finds them in an agent's settings.
///
/// # Errors
/// `--options` that is not a JSON object, an `--option` without `=`.
pub fn options_from_args(options: Option<&str>, pairs: &[String]) -> Result<Value, String> {
    let mut map = match options {
        Some(text) => match serde_json::from_str(text) {
            Ok(Value::Object(m)) => m,
            _ => return Err("--options must be a JSON object".into()),
        },
        None => Map::new(),
    };
    for pair in pairs {
        let Some((k, v)) = pair.split_once('=') else {
            return Err(format!("--option `{pair}` is not KEY=VALUE"));
        };
        map.insert(
            k.to_owned(),
            serde_json::from_str(v).unwrap_or_else(|_| Value::String(v.to_owned())),
        );
    }
    Ok(Value::Object(map))
}

/// The event as a guard reads it: the fields of hookrun's model the guards
/// judge, under their own names.
#[must_use]
pub fn call_of(event: &Event) -> Call<'_> {
    let f = &event.fields;
    Call {
        event: &event.name,
        tool: event.str_field("tool_name"),
        input: f.get("tool_input"),
        command: f.get("command"),
        cwd: event.str_field("cwd"),
        output: f.get("tool_response"),
        result: f.get("tool_result"),
        error: f.get("error").or_else(|| f.get("tool_error")),
    }
}

impl Builtin {
    /// Whether it judges the tool input (see `Guard::judges_input`).
    #[must_use]
    pub fn judges_input(&self) -> bool {
        self.guard.judges_input()
    }

    /// Whether its whole effect is a rewrite of the tool output (see
    /// `Guard::only_rewrites`).
    #[must_use]
    pub fn only_rewrites(&self) -> bool {
        self.guard.only_rewrites()
    }

    /// Builds a built-in from its name and options.
    ///
    /// # Errors
    /// An unknown name (with the nearest one), unknown or invalid options.
    pub fn new(name: &str, options: Value, mode: Mode) -> Result<Self, String> {
        let Some(entry) = entry(name) else {
            let hint = crate::suggest::nearest(name, names())
                .map(|n| format!("; did you mean `{n}`?"))
                .unwrap_or_default();
            return Err(format!(
                "unknown built-in `{name}` (known: {}){hint}",
                names().collect::<Vec<_>>().join(", ")
            ));
        };
        let opts = if options.is_null() {
            Value::Object(Map::new())
        } else {
            options.clone()
        };
        Ok(Builtin {
            name: entry.name,
            mode,
            options,
            guard: (entry.build)(opts)?,
        })
    }

    /// Evaluates the built-in for an event in its context.
    #[must_use]
    pub fn evaluate(&self, event: &Event, ctx: &Context<'_>) -> Verdict {
        self.guard.evaluate(&call_of(event), ctx)
    }
}
