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
//! - `observed`: what an event's export carries;
//! - `http_client`: the OTLP/HTTP requests, through ureq;
//! - [`Once`] for `run`, one event per process: the exporters are built on
//!   a thread of its own while the hooks run, the export goes out after
//!   the decision is written, and `run` waits for it at most
//!   `export_timeout`; [`Server`] for `serve`, batching.
//!
//! Nothing of this is set up when no telemetry is configured.

mod export;
mod http_client;
mod observed;
mod settings;

use std::sync::Arc;
use std::time::Duration;

pub(crate) use observed::{Observed, ObservedHook};
pub(crate) use settings::{Settings, resolve};

/// The settings the config and this process's environment give; `None`
/// when nothing is exported or when a variable cannot be used (`run` says
/// nothing of it on the agent's stderr; `serve` does, through
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

/// `run`'s export of its one event, begun before the hooks run so that
/// building the exporters overlaps them: a thread of its own builds the
/// pipeline, then waits for the event ([`Once::finish`]); dropped without
/// one, it ends having sent nothing.
pub(crate) struct Once {
    event: std::sync::mpsc::Sender<Observed>,
    done: std::sync::mpsc::Receiver<()>,
    bound: Duration,
}

impl Once {
    /// Starts the thread; `None` when no thread can be started (then
    /// nothing is exported, and the event goes on).
    pub(crate) fn begin(settings: Settings) -> Option<Once> {
        let bound = settings.export_timeout;
        let (event, observed) = std::sync::mpsc::channel::<Observed>();
        let (sent, done) = std::sync::mpsc::channel();
        std::thread::Builder::new()
            .name("telemetry".into())
            .spawn(move || {
                let pipeline = export::Pipeline::start(&settings, export::Lifetime::OneEvent);
                if let (Ok(pipeline), Ok(observed)) = (pipeline, observed.recv()) {
                    pipeline.record(&observed, true);
                    pipeline.shutdown(bound);
                }
                let _ = sent.send(());
            })
            .ok()?;
        Some(Once { event, done, bound })
    }

    /// Exports the event and waits for it at most `export_timeout`; past
    /// it, `run` exits and the export dies with the process. What goes
    /// wrong (no collector, a refused request) is not reported: the agent
    /// reads `run`'s stderr as part of the answer (docs/telemetry.md).
    pub(crate) fn finish(self, observed: Observed) {
        if self.event.send(observed).is_ok() {
            let _ = self.done.recv_timeout(self.bound);
        }
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
