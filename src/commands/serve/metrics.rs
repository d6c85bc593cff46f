//! `serve --http`'s `GET /metrics`: counters, histograms and a gauge of
//! the events served, in the Prometheus/OpenMetrics text format
//! (prometheus-client, the Prometheus project's Rust client):
//!
//! - `hookrun_events_total{dialect,event,decision}`, the decision one of
//!   `allow`, `deny`, `ask`, `defer`, `block`, `none`
//!   (`Decision::outcome`);
//! - `hookrun_event_duration_seconds` and `hookrun_hook_duration_seconds`,
//!   histograms of an event's whole evaluation and of each hook it ran;
//! - `hookrun_errors_total{kind}`: events not evaluated (hookrun's own
//!   error, by `error::ErrorKind`; `overloaded`, `stopped`, `time_bound`
//!   where the server answered with its own block) and requests refused
//!   (`unauthorized`, `no_dialect`, `too_large`, `slow_client`);
//! - `hookrun_events_in_flight`.
//!
//! With `[telemetry]` (or the OTEL_* variables), every call here is also
//! made on the OpenTelemetry instruments of the same series
//! (`telemetry::Server`), so the Collector gets what `/metrics` shows;
//! `serve --stdio` keeps these metrics for that export alone.

use std::sync::atomic::AtomicI64;
use std::time::Duration;

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct EventLabels {
    dialect: String,
    event: String,
    decision: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ErrorLabels {
    kind: String,
}

/// The server's metrics.
pub(super) struct Metrics {
    registry: Registry,
    events: Family<EventLabels, Counter>,
    event_seconds: Histogram,
    hook_seconds: Histogram,
    errors: Family<ErrorLabels, Counter>,
    in_flight: Gauge<i64, AtomicI64>,
    otel: Option<crate::telemetry::Server>,
}

/// Histogram buckets from 1 ms to about 65 s, doubling: a built-in guard
/// answers in well under a millisecond, a hook may take its timeout.
fn buckets() -> impl Iterator<Item = f64> {
    exponential_buckets(0.001, 2.0, 17)
}

impl Metrics {
    pub(super) fn new(otel: Option<crate::telemetry::Server>) -> Self {
        let mut registry = Registry::default();
        let events = Family::<EventLabels, Counter>::default();
        let event_seconds = Histogram::new(buckets());
        let hook_seconds = Histogram::new(buckets());
        let errors = Family::<ErrorLabels, Counter>::default();
        let in_flight = Gauge::<i64, AtomicI64>::default();
        registry.register(
            "hookrun_events",
            "Events evaluated, by dialect, event and decision",
            events.clone(),
        );
        registry.register(
            "hookrun_event_duration_seconds",
            "Time to evaluate an event, its hooks included",
            event_seconds.clone(),
        );
        registry.register(
            "hookrun_hook_duration_seconds",
            "Time each hook took",
            hook_seconds.clone(),
        );
        registry.register(
            "hookrun_errors",
            "Events not evaluated and requests refused, by kind",
            errors.clone(),
        );
        registry.register(
            "hookrun_events_in_flight",
            "Events being evaluated now",
            in_flight.clone(),
        );
        Metrics {
            registry,
            events,
            event_seconds,
            hook_seconds,
            errors,
            in_flight,
            otel,
        }
    }

    /// The OpenTelemetry export, when telemetry is configured.
    pub(super) fn export(&self) -> Option<crate::telemetry::Server> {
        self.otel.clone()
    }

    /// An event starts; the guard ends it in the gauge when dropped.
    pub(super) fn started(&self) -> InFlight<'_> {
        self.in_flight.inc();
        if let Some(otel) = &self.otel {
            otel.in_flight(1);
        }
        InFlight(self)
    }

    /// An evaluated event.
    pub(super) fn evaluated(
        &self,
        dialect: &str,
        evaluated: &super::evaluate::Evaluated,
        took: Duration,
    ) {
        self.events
            .get_or_create(&EventLabels {
                dialect: dialect.to_owned(),
                event: evaluated.event.clone(),
                decision: evaluated.decision.to_owned(),
            })
            .inc();
        self.event_seconds.observe(took.as_secs_f64());
        for hook in &evaluated.hooks {
            self.hook_seconds.observe(hook.as_secs_f64());
        }
        if let Some(otel) = &self.otel {
            otel.count_event(
                dialect,
                &evaluated.event,
                evaluated.decision,
                took,
                &evaluated.hooks,
            );
        }
    }

    /// An event not evaluated, or a request refused.
    pub(super) fn error(&self, kind: &str) {
        self.errors
            .get_or_create(&ErrorLabels {
                kind: kind.to_owned(),
            })
            .inc();
        if let Some(otel) = &self.otel {
            otel.error(kind);
        }
    }

    /// The text `GET /metrics` answers.
    pub(super) fn text(&self) -> String {
        let mut out = String::new();
        // Writing into a String cannot fail.
        let _ = prometheus_client::encoding::text::encode(&mut out, &self.registry);
        out
    }
}

/// An event in flight, counted until dropped.
pub(super) struct InFlight<'a>(&'a Metrics);

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.0.in_flight.dec();
        if let Some(otel) = &self.0.otel {
            otel.in_flight(-1);
        }
    }
}
