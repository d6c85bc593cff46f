//! What the guard tests share: hookrun's model event as the engine hands
//! it over (a JSON object read into a [`Call`]), a guard built from the
//! registry, and the `dangerous-commands` table checks.

use std::path::Path;

use hookrun_guards::{Call, Context, Guard, Verdict};
use serde_json::Value;

/// An event in hookrun's model, as the tests write it.
pub(crate) struct Event(Value);

/// The event of a JSON object (`hook_event_name`, `tool_name`,
/// `tool_input`, `cwd`, `tool_response`).
///
/// # Errors
/// Not an object, or no event name.
pub(crate) fn event(v: &Value) -> Result<Event, String> {
    let name = v.get("hook_event_name").and_then(Value::as_str);
    match (v.as_object(), name) {
        (Some(_), Some(_)) => Ok(Event(v.clone())),
        _ => Err(format!("not an event: {v}")),
    }
}

impl Event {
    /// The call a guard reads, taken out of the event as the engine takes it.
    pub(crate) fn call(&self) -> Call<'_> {
        let f = &self.0;
        let s = |k: &str| f.get(k).and_then(Value::as_str).unwrap_or("");
        Call {
            event: s("hook_event_name"),
            tool: s("tool_name"),
            input: f.get("tool_input"),
            command: f.get("command"),
            cwd: s("cwd"),
            output: f.get("tool_response"),
            result: f.get("tool_result"),
            error: f.get("error").or_else(|| f.get("tool_error")),
        }
    }
}

/// A guard from the registry, with its options.
#[derive(Debug)]
pub(crate) struct Builtin(Box<dyn Guard>);

impl Builtin {
    /// Builds the guard `name` with `options` (`null`: none).
    ///
    /// # Errors
    /// An unknown name, unknown or invalid options.
    pub(crate) fn new(name: &str, options: Value) -> Result<Self, String> {
        let entry = hookrun_guards::entry(name).ok_or_else(|| format!("no guard `{name}`"))?;
        let options = if options.is_null() {
            Value::Object(serde_json::Map::new())
        } else {
            options
        };
        (entry.build)(options).map(Builtin)
    }

    /// Evaluates the guard for an event in a context.
    pub(crate) fn evaluate(&self, event: &Event, ctx: &Context<'_>) -> Verdict {
        self.0.evaluate(&event.call(), ctx)
    }
}

/// A context with no own files, in `project`.
pub(crate) fn at(project: &Path) -> Context<'_> {
    Context::new(project, String::new)
}

/// Checks a table of (command line, reason fragment) against the
/// `dangerous-commands` rule set: each is denied with a reason holding
/// its fragment. Reports every miss at once.
pub(crate) fn assert_guard_denies(table: &[(&str, &str)]) {
    let g = dangerous_guard();
    let mut wrong = Vec::new();
    for (line, part) in table {
        match g.check(line) {
            Some(why) if why.contains(part) => {}
            other => wrong.push(format!("{line:?}: {other:?} (wanted {part:?})")),
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Checks that every command line of `lines` is allowed by the
/// `dangerous-commands` rule set. Reports every false alarm at once.
pub(crate) fn assert_guard_allows(lines: &[&str]) {
    let g = dangerous_guard();
    let wrong: Vec<String> = lines
        .iter()
        .filter_map(|line| g.check(line).map(|why| format!("{line:?}: {why}")))
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

fn dangerous_guard() -> hookrun_guards::dangerous::DangerousCommands {
    let options = hookrun_guards::dangerous::Options::default();
    hookrun_guards::dangerous::DangerousCommands::new(options).expect("built-in rules")
}
