//! deputy, the R agent framework (docs/deputy.md). deputy's hooks are R
//! callbacks, so it speaks to hookrun through the R adapter in
//! `integrations/deputy/`, which registers one deputy hook per event and
//! sends each call as one JSON object:
//!
//! ```json
//! {"deputy_event": "PreToolUse", "tool_name": "run_bash",
//!  "tool_input": {"command": "ls"}, "context": {"working_dir": "/p", "run_id": "r1"}}
//! ```
//!
//! that is, the callback's arguments by name and its `context` list. The
//! event is mapped into hookrun's model by adding Claude Code's field names
//! beside deputy's (nothing is removed), so one hook script serves both
//! agents. deputy has no command-hook protocol of its own: hooks under this
//! dialect read that mapped event and answer as Claude Code hooks do. The
//! merged decision is rendered as the deputy result the adapter constructs
//! (`render`).

use serde_json::{Map, Value};

use super::protocol::Reading;
use crate::answer::Answer;
use crate::decision::Decision;
use crate::event::Event;
use crate::events::Family;
use crate::exec::HookRun;
use crate::rendered::Rendered;

pub(crate) mod events;
mod render;

/// The key that names the event, and marks an event as deputy's.
const EVENT_KEY: &str = "deputy_event";

/// deputy: recognised by its `deputy_event` key.
pub(crate) struct Deputy;

/// Maps deputy's event into the model: every argument and the `context`
/// kept as sent, Claude Code's names added where deputy's differ.
#[must_use]
pub(crate) fn normalize(obj: Map<String, Value>) -> (Option<String>, Map<String, Value>) {
    let name = obj
        .get(EVENT_KEY)
        .or_else(|| obj.get("hook_event_name"))
        .and_then(Value::as_str)
        .map(str::to_owned);
    let Some(name) = name else {
        return (None, obj);
    };
    let context = obj
        .get("context")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let mut f = obj;
    f.remove(EVENT_KEY);
    f.insert("hook_event_name".into(), Value::String(name.clone()));
    let from_context = |key: &str| context.get(key).filter(|v| !v.is_null()).cloned();
    let add = |f: &mut Map<String, Value>, key: &str, value: Option<Value>| {
        if let Some(v) = value
            && f.get(key).is_none_or(Value::is_null)
        {
            f.insert(key.into(), v);
        }
    };
    add(&mut f, "cwd", from_context("working_dir"));
    add(
        &mut f,
        "session_id",
        from_context("session_id").or_else(|| from_context("run_id")),
    );
    add(&mut f, "tool_use_id", from_context("tool_call_id"));
    if matches!(name.as_str(), "Stop" | "SubagentStop") {
        let active = context.get("stop_hook_active").and_then(Value::as_bool);
        add(
            &mut f,
            "stop_hook_active",
            Some(Value::Bool(active == Some(true))),
        );
    }
    match name.as_str() {
        "PostToolUse" | "PostToolUseFailure" => {
            let result = f.get("tool_result").cloned();
            add(&mut f, "tool_response", result);
            let error = f.get("tool_error").filter(|v| !v.is_null()).cloned();
            add(&mut f, "error", error);
            // deputy does not pass a finished call's input; the guards and
            // hooks that read it find it empty rather than missing.
            add(
                &mut f,
                "tool_input",
                Some(from_context("tool_input").unwrap_or_else(|| Value::Object(Map::new()))),
            );
        }
        "SubagentStart" | "SubagentStop" => {
            let agent = f.get("agent_name").cloned();
            add(&mut f, "agent_type", agent);
            if name == "SubagentStop" {
                let text = f.get("result").filter(|v| v.is_string()).cloned();
                add(&mut f, "last_assistant_message", text);
            }
        }
        "PreCompact" | "PostCompact" => {
            let trigger = from_context("trigger").unwrap_or_else(|| "auto".into());
            add(&mut f, "trigger", Some(trigger));
            if name == "PostCompact" {
                let text = f.get("result").filter(|v| v.is_string()).cloned();
                add(&mut f, "compact_summary", text);
            }
        }
        "Notification" => {
            let kind = from_context("code").or_else(|| from_context("level"));
            add(&mut f, "notification_type", kind);
        }
        "ConfigChange" => {
            let key = f.get("key").cloned();
            add(&mut f, "source", key);
        }
        "SessionStart" => {
            add(
                &mut f,
                "source",
                Some(from_context("source").unwrap_or_else(|| "startup".into())),
            );
        }
        "PostModelRequest" => {
            add(&mut f, "request_number", from_context("request_number"));
            add(&mut f, "usage", from_context("usage"));
        }
        _ => {}
    }
    (Some(name), f)
}

impl super::protocol::Protocol for Deputy {
    fn id(&self) -> crate::agent::Dialect {
        crate::agent::Dialect::Deputy
    }

    fn detects(&self, obj: &Map<String, Value>) -> bool {
        obj.get(EVENT_KEY).is_some_and(Value::is_string)
    }

    fn normalize(&self, obj: Map<String, Value>) -> (Option<String>, Map<String, Value>) {
        normalize(obj)
    }

    fn default_timeout(&self, _event: &str) -> Option<std::time::Duration> {
        // deputy waits 60 s for a hook's answer by default (its
        // `promise_timeout`); a hook that sets no timeout gets as long.
        Some(std::time::Duration::from_secs(60))
    }

    fn event_name(&self, event: &str) -> Option<String> {
        events::fires(event).then(|| event.to_owned())
    }

    fn hooks_read_caller_bytes(&self) -> bool {
        // The adapter's bytes are deputy's arguments only; hooks read the
        // mapped event, which holds them and Claude Code's names too.
        false
    }

    fn classify(&self, event: &str, label: &str, run: &HookRun, _: &Reading) -> Answer {
        // deputy has no command-hook protocol: hooks answer as Claude Code's
        // do. A block by exit 2 is the hook's own words, without the
        // `[command]: ` that Claude Code puts before it for its model.
        let mut answer = crate::answer::classify(event, label, run);
        super::shared::unlabel_block(&mut answer, label);
        answer
    }

    fn unread_block(&self, message: &str) -> Rendered {
        // No deputy result fits an unknown event: the block is said in
        // `unsupported`, which the adapter warns with and denies on under
        // its closed mode.
        render::unread_block(message)
    }

    fn render(&self, event: &Event, family: Family, d: &Decision, notices: &[String]) -> Rendered {
        render::render(&event.name, family, d, notices)
    }
}

#[cfg(test)]
mod tests;
