//! What one event's export carries, built by the session
//! (`session::observed`) and read by `export`.

use std::time::{Duration, SystemTime};

/// One event as exported: what its span, its measurements and its log
/// record carry.
#[derive(Debug, Clone, Default)]
pub(crate) struct Observed {
    /// The event's name in the model (`PreToolUse`).
    pub event: String,
    /// The dialect the event was read in (`claude`).
    pub dialect: &'static str,
    pub tool: Option<String>,
    pub session: Option<String>,
    /// `Decision::outcome`: allow, deny, ask, defer, block or none.
    pub decision: &'static str,
    pub exit_code: i32,
    /// The decision's reasons, redacted.
    pub reason: Option<String>,
    /// hookrun's own failure that answered the event instead of its hooks
    /// (`config`, `io`, ...), by `ErrorKind`.
    pub error: Option<String>,
    pub started: Option<SystemTime>,
    pub took: Duration,
    pub hooks: Vec<ObservedHook>,
    /// The audit record, for the log record (only built when logs are on).
    pub audit: Option<serde_json::Map<String, serde_json::Value>>,
    /// The caller's W3C trace context (`traceparent`, `tracestate`): the
    /// event's span is then a child of the agent's.
    pub parent: Option<(String, Option<String>)>,
}

/// One hook that ran, for its child span.
#[derive(Debug, Clone)]
pub(crate) struct ObservedHook {
    /// Its name or label, redacted.
    pub name: String,
    /// `command`, `builtin`, `http`, `prompt`, `agent` or `mcp_tool`.
    pub kind: &'static str,
    pub exit_code: Option<i32>,
    pub signal: Option<i32>,
    pub timed_out: bool,
    /// How its answer read: `success`, `blocking`, `non_blocking_error`, ...
    pub outcome: String,
    pub started: SystemTime,
    pub took: Duration,
}
