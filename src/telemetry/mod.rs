//! OpenTelemetry export: every event's decision as a span (with a child
//! span per hook), the servers' metrics series, and, when asked, each
//! event's audit record as a log record, sent over OTLP to a Collector.
//!
//! Data flows one way: the session builds an [`Observed`] from an event's
//! evaluation (redacted as the audit line is), and the exporter turns it
//! into spans, measurements and a log record after the fact, with the
//! times the evaluation measured. Nothing of it touches the evaluation: a
//! collector that is down, slow or wrong cannot change a decision.
//!
//! - `settings`: whether and where to export (`[telemetry]` over the
//!   `OTEL_*` variables);
//! - `export`: the OpenTelemetry SDK's providers and the OTLP exporters,
//!   and the instruments of the metrics series;
//! - `http_client`: the OTLP/HTTP requests, through ureq;
//! - [`once`] for `run`, one event per process: the export runs on a
//!   thread of its own after the decision is written, and `run` waits for
//!   it at most `export_timeout`; [`Server`] for `serve`, batching.
//!
//! Nothing of this is set up when no telemetry is configured.

mod export;
mod http_client;
mod settings;

use std::sync::Arc;
use std::time::{Duration, SystemTime};

pub(crate) use settings::{Settings, resolve};

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

/// The settings the config and this process's environment give; `None`
/// when nothing is exported or when a variable cannot be used (`run` says
/// nothing of it on the agent's stderr; `serve` and `doctor` do, through
/// [`resolve`]).
pub(crate) fn settings_here(config: &crate::config::Config) -> Option<Settings> {
    resolve(config.telemetry.as_ref(), &|name| std::env::var(name).ok())
        .ok()
        .flatten()
}

/// The W3C trace context an agent hands its hooks in `TRACEPARENT` and
/// `TRACESTATE` (the OpenTelemetry convention for environment carriers):
/// `run`'s event span is then a child of the agent's span.
pub(crate) fn parent_from_env() -> Option<(String, Option<String>)> {
    let parent = std::env::var("TRACEPARENT")
        .ok()
        .filter(|v| !v.is_empty())?;
    Some((
        parent,
        std::env::var("TRACESTATE").ok().filter(|v| !v.is_empty()),
    ))
}

/// `run`'s export of its one event: on a thread of its own, waited for at
/// most `settings.export_timeout`; past it, `run` exits and the export
/// dies with the process. What goes wrong (no collector, a refused
/// request) is not reported: the agent reads `run`'s stderr as part of
/// the answer (`hookrun doctor` checks the collector instead).
pub(crate) fn once(settings: Settings, observed: Observed) {
    let bound = settings.export_timeout;
    let (done, finished) = std::sync::mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("telemetry".into())
        .spawn(move || {
            if let Ok(pipeline) = export::Pipeline::start(&settings, export::Lifetime::OneEvent) {
                pipeline.record(&observed, true);
                pipeline.shutdown(bound);
            }
            let _ = done.send(());
        });
    if spawned.is_ok() {
        let _ = finished.recv_timeout(bound);
    }
}

/// `serve`'s export: one pipeline for the server's life, batching.
#[derive(Clone)]
pub(crate) struct Server {
    pipeline: Arc<export::Pipeline>,
    logs: bool,
}

impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("telemetry::Server")
    }
}

impl Server {
    /// Starts the export.
    ///
    /// # Errors
    /// The exporters cannot be built (an OTEL_* variable they cannot use).
    pub(crate) fn start(settings: &Settings) -> Result<Self, String> {
        export::Pipeline::start(settings, export::Lifetime::Server).map(|p| Server {
            pipeline: Arc::new(p),
            logs: settings.logs,
        })
    }

    /// Whether each event's audit record goes out as a log record.
    pub(crate) fn logs(&self) -> bool {
        self.logs
    }

    /// One event's span and log record (the server's metrics count it
    /// through [`Server::count_event`]).
    pub(crate) fn record(&self, observed: &Observed) {
        self.pipeline.record(observed, false);
    }

    /// An evaluated event in the metrics series, as `/metrics` counts it.
    pub(crate) fn count_event(
        &self,
        dialect: &str,
        event: &str,
        decision: &'static str,
        took: Duration,
        hooks: &[Duration],
    ) {
        self.pipeline
            .count_event(dialect, event, decision, took, hooks);
    }

    /// An event not evaluated, or a request refused, by kind.
    pub(crate) fn error(&self, kind: &str) {
        self.pipeline.error(kind);
    }

    /// The in-flight gauge, up or down by one.
    pub(crate) fn in_flight(&self, by: i64) {
        self.pipeline.in_flight(by);
    }

    /// Sends what is batched and stops, waiting at most `bound`.
    pub(crate) fn shutdown(&self, bound: Duration) {
        let pipeline = Arc::clone(&self.pipeline);
        let (done, finished) = std::sync::mpsc::channel();
        let spawned = std::thread::Builder::new()
            .name("telemetry".into())
            .spawn(move || {
                pipeline.shutdown(bound);
                let _ = done.send(());
            });
        if spawned.is_ok() {
            let _ = finished.recv_timeout(bound);
        }
    }
}
