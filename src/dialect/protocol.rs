//! The one interface every dialect implements.

use serde_json::{Map, Value};

use crate::agent::Dialect;
use crate::answer::Answer;
use crate::decision::Decision;
use crate::event::Event;
use crate::events::Family;
use crate::exec::HookRun;
use crate::rendered::Rendered;

/// How one agent speaks the hook protocol: recognising its events, mapping
/// them into hookrun's model, what its hooks expect (stdin, environment,
/// default timeout), reading a hook's run by its rules and rendering the
/// merged decision in its shape. One implementation per file, listed once in
/// `REGISTRY`; nothing outside `dialect/` needs to know which agent called.
pub(crate) trait Protocol: Sync {
    /// The dialect this implements.
    fn id(&self) -> Dialect;

    /// Whether an event was sent by this agent. Tried in `REGISTRY` order;
    /// Claude Code, whose event model hookrun uses, is the fallback.
    fn detects(&self, _obj: &Map<String, Value>) -> bool {
        false
    }

    /// Maps the caller's event into the model: hookrun's name for it and
    /// Claude-shaped fields (with `hook_event_name` set).
    fn normalize(&self, obj: Map<String, Value>) -> (Option<String>, Map<String, Value>) {
        let name = obj
            .get("hook_event_name")
            .and_then(Value::as_str)
            .map(str::to_owned);
        (name, obj)
    }

    /// This agent's own name for an event of hookrun's model; `None`
    /// where the agent never fires it (what `check` asks of a test case,
    /// and `config events` prints). The model's name unless the dialect
    /// knows better.
    fn event_name(&self, event: &str) -> Option<String> {
        Some(event.to_owned())
    }

    /// How this agent reads a hooks file of Claude Code's shape, where it
    /// has one.
    fn shape_rules(&self) -> crate::config::ShapeRules {
        crate::config::ShapeRules::CLAUDE
    }

    /// The timeout of a hook that sets none, where this agent's own default
    /// differs from Claude Code's.
    fn default_timeout(&self, _event: &str) -> Option<std::time::Duration> {
        None
    }

    /// Environment variables that hooks speaking this dialect get from their
    /// agent, beyond hookrun's own `HOOKRUN_DEPTH` and the hook's `env`:
    /// Claude Code's `CLAUDE_PROJECT_DIR` by default.
    fn hook_env(&self, project_dir: &str) -> Vec<(String, String)> {
        vec![("CLAUDE_PROJECT_DIR".to_owned(), project_dir.to_owned())]
    }

    /// Which of hookrun's own environment variables a hook inherits, where
    /// the agent passes its hooks only some; `None`: all of them.
    fn env_filter(&self) -> Option<fn(&str) -> bool> {
        None
    }

    /// Whether this agent reads a blocking answer's whole stderr as the
    /// reason the model sees (so hookrun keeps its own lines off stderr).
    fn stderr_is_reason(&self) -> bool {
        false
    }

    /// Whether identical handlers matching one event run once (Claude Code's
    /// de-duplication, which Codex and Gemini CLI share); pydantic-deep
    /// runs each.
    fn dedups(&self) -> bool {
        true
    }

    /// The interpreter and its flags for a hook given as a shell command
    /// line; `None`: `/bin/sh -c`, as Claude Code.
    fn shell(&self) -> Option<(String, Vec<String>)> {
        None
    }

    /// Whether hooks speaking the caller's own dialect read the caller's
    /// bytes as sent (every agent whose hooks are processes); `false`: they
    /// read the mapped event, as deputy's, whose adapter sends only its
    /// callbacks' arguments.
    fn hooks_read_caller_bytes(&self) -> bool {
        true
    }

    /// What a hook speaking this dialect reads on stdin when it is not the
    /// caller's own bytes; `None`: the event in hookrun's model.
    fn payload(&self, _event: &Event) -> Option<Vec<u8>> {
        None
    }

    /// What `install`, `doctor` and `check` know of the agent, where
    /// hookrun registers in it; `None` for a dialect only an adapter speaks.
    fn setup(&self) -> Option<&'static super::setup::Setup> {
        None
    }

    /// How a hookrun TOML config is written as this agent's hooks file
    /// (`hookrun convert --to`); `None` where hookrun cannot write that
    /// agent's format.
    fn hooks_file_writer(&self) -> Option<HooksFileWriter> {
        None
    }

    /// Reads one finished hook run by this agent's rules, as an answer in
    /// hookrun's terms.
    fn classify(&self, event: &str, label: &str, run: &HookRun, reading: &Reading) -> Answer;

    /// Renders the merged decision in this agent's shape.
    fn render(&self, event: &Event, family: Family, d: &Decision, notices: &[String]) -> Rendered;

    /// `stdout`, what a command hook would print for `event`, as the body
    /// of an answer to this agent's `http` handler (`serve --http`): the
    /// same, unless the agent reads an http answer otherwise than a
    /// command's output.
    fn http_body(&self, _event: &str, stdout: String) -> String {
        stdout
    }

    /// hookrun's own block (`message`, its error) for an event it could not
    /// read (not JSON, not an object, too large) when `--dialect` names the
    /// caller but nothing names the event: a shape this agent reads as a
    /// block on whichever event it sent. Claude Code's `decision: "block"`
    /// at exit 2 unless the dialect knows better.
    fn unread_block(&self, message: &str) -> Rendered {
        plain_block(message)
    }
}

/// The block every Claude-like agent reads on any event: `decision:
/// "block"` with hookrun's reason, exit 2, the error on stderr.
#[must_use]
pub(crate) fn plain_block(message: &str) -> Rendered {
    Rendered {
        stdout: serde_json::json!({"decision": "block", "reason": format!("hookrun: {message}")})
            .to_string(),
        stderr: vec![format!("hookrun: error: {message}")],
        exit_code: 2,
    }
}

/// Converts the hookrun TOML config at a path into an agent's hooks file.
pub(crate) type HooksFileWriter = fn(&std::path::Path) -> Result<Converted, String>;

/// The result of a conversion: the new text and what could not be carried.
#[derive(Debug, Clone)]
pub(crate) struct Converted {
    pub text: String,
    pub warnings: Vec<String>,
}

/// What reading a hook's run may depend on besides the run itself.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Reading {
    /// The hook's timeout, in seconds.
    pub timeout_secs: f64,
    /// Whether the hook's `fail_mode` was set explicitly (else the agent's
    /// own failure rules apply).
    pub fail_mode_explicit: bool,
}
