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

use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::event::Event;
pub use guard::{Canary, CanaryTool, Context, Entry, Expect, Guard, Verdict};

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

impl Builtin {
    /// Whether it judges the tool input (see `Guard::judges_input`).
    #[must_use]
    pub fn judges_input(&self) -> bool {
        self.guard.judges_input()
    }

    /// Builds a built-in from its name and options.
    ///
    /// # Errors
    /// An unknown name (with the nearest one), unknown or invalid options.
    pub fn new(name: &str, options: Value, mode: Mode) -> Result<Self, String> {
        let Some(entry) = REGISTRY.iter().find(|e| e.name == name) else {
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

    /// Evaluates the built-in for an event. `project` is the project
    /// directory (traversal and relative roots).
    #[must_use]
    pub fn evaluate(&self, event: &Event, project: &Path) -> Verdict {
        self.guard.evaluate(event, project)
    }

    /// Evaluates the built-in with the whole guard context.
    #[must_use]
    pub fn evaluate_in(&self, event: &Event, ctx: &Context<'_>) -> Verdict {
        self.guard.evaluate_in(event, ctx)
    }
}

/// The answer JSON a command hook would print for this verdict, the exit
/// status it would have, and, in warn mode, the report instead of the act.
#[must_use]
pub fn answer_json(
    b: &Builtin,
    label: &str,
    event: &str,
    verdict: &Verdict,
) -> (Option<Map<String, Value>>, i32) {
    let warn = b.mode == Mode::Warn;
    let obj = match verdict {
        Verdict::Pass | Verdict::Failed(_) => return (None, 0),
        Verdict::Deny(why) if warn => {
            json!({"systemMessage": format!("[{label}] would block (mode = \"warn\"): {why}")})
        }
        Verdict::Rewrite { count, .. } if warn => {
            json!({"systemMessage": format!("[{label}] would redact {count} secret(s) in the tool output (mode = \"warn\")")})
        }
        Verdict::Deny(why) => {
            let reason = format!("[{label}] {why}");
            match event {
                "PreToolUse" | "PreSkillShellCommand" => json!({"hookSpecificOutput": {
                    "hookEventName": event, "permissionDecision": "deny", "permissionDecisionReason": reason}}),
                "PermissionRequest" => json!({"hookSpecificOutput": {
                    "hookEventName": event, "decision": {"behavior": "deny", "message": reason}}}),
                _ => json!({"decision": "block", "reason": reason}),
            }
        }
        Verdict::Rewrite { field, value, .. } => {
            json!({"hookSpecificOutput": {"hookEventName": event, *field: value}})
        }
    };
    (obj.as_object().cloned(), 0)
}
