//! A configured built-in hook: which guard of `hookrun-guards` it runs,
//! with which options and in which mode, and the seam between the engine
//! and the guards: the event as the guard's [`Call`], the context it
//! judges in. Enforce or warn is the engine's: a guard only concludes, and
//! `answer::verdict` writes what its verdict answers in each mode.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use hookrun_guards::{Call, Context, Guard, Verdict, entry, names};

use crate::event::Event;

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
pub(crate) fn options_from_args(options: Option<&str>, pairs: &[String]) -> Result<Value, String> {
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
pub(crate) fn call_of(event: &Event) -> Call<'_> {
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
