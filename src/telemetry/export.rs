//! The OpenTelemetry SDK's providers with the OTLP exporters: spans,
//! metrics and log records made from an [`Observed`] after the fact.
//!
//! Each signal has its batch processor (a thread of the SDK's own) and its
//! exporter. `run` lives for one event: it exports metrics as deltas (each
//! process adds its event to the series; cumulative values from a process
//! that lives one event would each start a new series) and shuts the
//! providers down at once. `serve` batches (the SDK's defaults: spans and
//! logs every 5 s or 512 records, metrics every 60 s, cumulative).
//!
//! The metrics series are those of `serve --http`'s `/metrics`, named the
//! OpenTelemetry way so that a Collector's Prometheus exporter shows the
//! same names: `hookrun.events` (`hookrun_events_total`),
//! `hookrun.event.duration` and `hookrun.hook.duration` in seconds
//! (`hookrun_event_duration_seconds`, `hookrun_hook_duration_seconds`),
//! `hookrun.errors` (`hookrun_errors_total`) and `hookrun.events.in_flight`
//! (`hookrun_events_in_flight`).
//!
//! OTLP over gRPC is tonic's, which needs a tokio runtime with its own
//! thread for its connection: one is started for that protocol only.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use opentelemetry::logs::{AnyValue, LogRecord as _, Logger as _, LoggerProvider as _, Severity};
use opentelemetry::metrics::{Counter, Histogram, MeterProvider as _, UpDownCounter};
use opentelemetry::trace::{
    Span as _, SpanKind, Status, TraceContextExt, Tracer as _, TracerProvider as _,
};
use opentelemetry::{Context, KeyValue};
use opentelemetry_otlp::{WithExportConfig as _, WithHttpConfig as _, WithTonicConfig as _};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::logs::{SdkLogger, SdkLoggerProvider};
use opentelemetry_sdk::metrics::{SdkMeterProvider, Temporality};
use opentelemetry_sdk::trace::{Sampler, SdkTracer, SdkTracerProvider};

use super::observed::Observed;
use super::settings::Settings;
use crate::config::OtlpProtocol;

/// How long a pipeline lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Lifetime {
    /// `run`: one event, then the process ends.
    OneEvent,
    /// `serve`: many events, batched.
    Server,
}

/// The providers of the signals that are on.
pub(super) struct Pipeline {
    traces: Option<(SdkTracerProvider, SdkTracer)>,
    metrics: Option<(SdkMeterProvider, Instruments)>,
    logs: Option<(SdkLoggerProvider, SdkLogger)>,
    lifetime: Lifetime,
    /// gRPC's runtime, kept as long as the exporters.
    _runtime: Option<tokio::runtime::Runtime>,
}

/// The metrics series.
struct Instruments {
    events: Counter<u64>,
    event_seconds: Histogram<f64>,
    hook_seconds: Histogram<f64>,
    errors: Counter<u64>,
    in_flight: UpDownCounter<i64>,
}

/// The instrumentation scope of everything hookrun exports.
const SCOPE: &str = "hookrun";

/// Histogram bounds from 1 ms to about 65 s, doubling, as `/metrics` has.
fn bounds() -> Vec<f64> {
    (0..17).map(|i| 0.001 * f64::from(1u32 << i)).collect()
}

impl Pipeline {
    /// Builds the exporters and providers of the signals that are on.
    ///
    /// # Errors
    /// An exporter cannot be built (an endpoint the variables give that is
    /// not a URL, no runtime for gRPC).
    pub(super) fn start(settings: &Settings, lifetime: Lifetime) -> Result<Self, String> {
        let runtime = match settings.protocol {
            OtlpProtocol::Grpc => Some(
                tokio::runtime::Builder::new_multi_thread()
                    .worker_threads(1)
                    .thread_name("telemetry-grpc")
                    .enable_all()
                    .build()
                    .map_err(|e| format!("no runtime for OTLP over gRPC: {e}"))?,
            ),
            _ => None,
        };
        let _entered = runtime.as_ref().map(tokio::runtime::Runtime::enter);
        let exporters = Exporters::new(settings, lifetime);
        let resource = resource(settings);
        let traces = if settings.traces {
            let spans = exporters.spans()?;
            let builder = match lifetime {
                Lifetime::OneEvent => {
                    SdkTracerProvider::builder().with_span_processor(OneBatch::new(spans))
                }
                Lifetime::Server => SdkTracerProvider::builder().with_batch_exporter(spans),
            };
            let mut builder = builder.with_resource(resource.clone());
            if let Some(ratio) = settings.sampling {
                builder = builder.with_sampler(Sampler::ParentBased(Box::new(
                    Sampler::TraceIdRatioBased(ratio),
                )));
            }
            let provider = builder.build();
            let tracer = provider.tracer(SCOPE);
            Some((provider, tracer))
        } else {
            None
        };
        let metrics = if settings.metrics {
            let provider = SdkMeterProvider::builder()
                .with_periodic_exporter(exporters.metrics()?)
                .with_resource(resource.clone())
                .build();
            let instruments = Instruments::new(&provider);
            Some((provider, instruments))
        } else {
            None
        };
        let logs = if settings.logs {
            let logs = exporters.logs()?;
            // One record per event: `run` sends it as it is made.
            let builder = match lifetime {
                Lifetime::OneEvent => SdkLoggerProvider::builder().with_simple_exporter(logs),
                Lifetime::Server => SdkLoggerProvider::builder().with_batch_exporter(logs),
            };
            let provider = builder.with_resource(resource).build();
            let logger = provider.logger(SCOPE);
            Some((provider, logger))
        } else {
            None
        };
        drop(_entered);
        Ok(Pipeline {
            traces,
            metrics,
            logs,
            lifetime,
            _runtime: runtime,
        })
    }

    /// One event's span (with a child per hook) and log record, and, with
    /// `count`, its measurements (a server counts through its own
    /// metrics instead, `count_event`, so that both sinks get the same
    /// calls).
    pub(super) fn record(&self, observed: &Observed, count: bool) {
        let end = observed
            .started
            .and_then(|s| s.checked_add(observed.took))
            .unwrap_or_else(SystemTime::now);
        let start = observed.started.unwrap_or(end);
        let mut span_context = None;
        if let Some((_, tracer)) = &self.traces {
            let cx = event_span(tracer, observed, start, end);
            span_context = Some(cx.span().span_context().clone());
        }
        if let Some((_, m)) = &self.metrics.as_ref().filter(|_| count) {
            match &observed.error {
                Some(kind) => m.errors.add(1, &[KeyValue::new("kind", kind.clone())]),
                None => {
                    let hooks: Vec<Duration> = observed.hooks.iter().map(|h| h.took).collect();
                    m.event(
                        observed.dialect,
                        &observed.event,
                        observed.decision,
                        observed.took,
                        &hooks,
                    );
                }
            }
        }
        if let (Some((_, logger)), Some(audit)) = (&self.logs, &observed.audit) {
            let mut record = logger.create_log_record();
            record.set_event_name("hookrun.audit");
            record.set_timestamp(end);
            record.set_observed_timestamp(end);
            let blocked = matches!(observed.decision, "deny" | "block") || observed.error.is_some();
            record.set_severity_number(if blocked {
                Severity::Warn
            } else {
                Severity::Info
            });
            record.set_severity_text(if blocked { "WARN" } else { "INFO" });
            record.set_body(any_value(&serde_json::Value::Object(audit.clone())));
            record.add_attributes(
                event_attributes(observed)
                    .into_iter()
                    .map(|kv| (kv.key, AnyValue::from(kv.value.to_string()))),
            );
            if let Some(sc) = span_context.filter(opentelemetry::trace::SpanContext::is_valid) {
                record.set_trace_context(sc.trace_id(), sc.span_id(), Some(sc.trace_flags()));
            }
            logger.emit(record);
        }
    }

    /// An evaluated event in the metrics series.
    pub(super) fn count_event(
        &self,
        dialect: &str,
        event: &str,
        decision: &'static str,
        took: Duration,
        hooks: &[Duration],
    ) {
        if let Some((_, m)) = &self.metrics {
            m.event(dialect, event, decision, took, hooks);
        }
    }

    /// An event not evaluated, or a request refused.
    pub(super) fn error(&self, kind: &str) {
        if let Some((_, m)) = &self.metrics {
            m.errors.add(1, &[KeyValue::new("kind", kind.to_owned())]);
        }
    }

    /// The in-flight gauge.
    pub(super) fn in_flight(&self, by: i64) {
        if let Some((_, m)) = &self.metrics {
            m.in_flight.add(by, &[]);
        }
    }

    /// Flushes and stops every provider, each given at most `bound`. A
    /// server's shut down at once, each on its own thread, so one slow
    /// signal does not hold up the others; `run`'s one after the other on
    /// this thread (a thread costs more than a request to a local
    /// collector, and `run` stops waiting at `bound` anyway).
    pub(super) fn shutdown(&self, bound: Duration) {
        if self.lifetime == Lifetime::OneEvent {
            if let Some((p, _)) = &self.traces {
                let _ = p.shutdown_with_timeout(bound);
            }
            if let Some((p, _)) = &self.logs {
                let _ = p.shutdown_with_timeout(bound);
            }
            if let Some((p, _)) = &self.metrics {
                let _ = p.shutdown_with_timeout(bound);
            }
            return;
        }
        std::thread::scope(|scope| {
            if let Some((p, _)) = &self.traces {
                scope.spawn(|| p.shutdown_with_timeout(bound));
            }
            if let Some((p, _)) = &self.metrics {
                scope.spawn(|| p.shutdown_with_timeout(bound));
            }
            if let Some((p, _)) = &self.logs {
                scope.spawn(|| p.shutdown_with_timeout(bound));
            }
        });
    }
}

/// `run`'s span processor: the event's spans are kept as they end and
/// sent in one request when the provider is flushed, on the flushing
/// thread (the SDK's batch processor would start a thread of its own, the
/// simple one send a request per span).
#[derive(Debug)]
struct OneBatch<E> {
    exporter: std::sync::Mutex<E>,
    spans: std::sync::Mutex<Vec<opentelemetry_sdk::trace::SpanData>>,
}

impl<E> OneBatch<E> {
    fn new(exporter: E) -> Self {
        OneBatch {
            exporter: std::sync::Mutex::new(exporter),
            spans: std::sync::Mutex::new(Vec::new()),
        }
    }
}

impl<E: opentelemetry_sdk::trace::SpanExporter> opentelemetry_sdk::trace::SpanProcessor
    for OneBatch<E>
{
    fn on_start(&self, _span: &mut opentelemetry_sdk::trace::Span, _cx: &Context) {}

    fn on_end(&self, span: opentelemetry_sdk::trace::SpanData) {
        if let Ok(mut spans) = self.spans.lock() {
            spans.push(span);
        }
    }

    fn force_flush(&self) -> opentelemetry_sdk::error::OTelSdkResult {
        use opentelemetry_sdk::error::OTelSdkError;
        let poisoned = || OTelSdkError::InternalFailure("a lock was poisoned".into());
        let batch = std::mem::take(&mut *self.spans.lock().map_err(|_| poisoned())?);
        if batch.is_empty() {
            return Ok(());
        }
        let exporter = self.exporter.lock().map_err(|_| poisoned())?;
        futures::executor::block_on(exporter.export(batch))
    }

    fn shutdown_with_timeout(&self, _timeout: Duration) -> opentelemetry_sdk::error::OTelSdkResult {
        self.force_flush()
    }

    fn set_resource(&mut self, resource: &Resource) {
        if let Ok(exporter) = self.exporter.get_mut() {
            exporter.set_resource(resource);
        }
    }
}

/// The event's span and one child span per hook; the context of the
/// event's span (ended).
fn event_span(tracer: &SdkTracer, o: &Observed, start: SystemTime, end: SystemTime) -> Context {
    let parent = o
        .parent
        .as_ref()
        .map(|(traceparent, tracestate)| parent_context(traceparent, tracestate.as_deref()))
        .unwrap_or_default();
    let mut attributes = event_attributes(o);
    attributes.push(KeyValue::new("hookrun.hooks", count(o.hooks.len())));
    attributes.push(KeyValue::new("hookrun.exit_code", i64::from(o.exit_code)));
    if let Some(reason) = &o.reason {
        attributes.push(KeyValue::new("hookrun.reason", reason.clone()));
    }
    if let Some(kind) = &o.error {
        attributes.push(KeyValue::new("hookrun.error", kind.clone()));
    }
    let span = tracer
        .span_builder(format!("hookrun {}", o.event))
        .with_kind(SpanKind::Internal)
        .with_start_time(start)
        .with_attributes(attributes)
        .start_with_context(tracer, &parent);
    let cx = parent.with_span(span);
    for hook in &o.hooks {
        let mut attributes = vec![
            KeyValue::new("hookrun.hook.name", hook.name.clone()),
            KeyValue::new("hookrun.hook.kind", hook.kind),
            KeyValue::new("hookrun.hook.timed_out", hook.timed_out),
            KeyValue::new("hookrun.hook.outcome", hook.outcome.clone()),
        ];
        if let Some(code) = hook.exit_code {
            attributes.push(KeyValue::new("hookrun.hook.exit_code", i64::from(code)));
        }
        if let Some(signal) = hook.signal {
            attributes.push(KeyValue::new("hookrun.hook.signal", i64::from(signal)));
        }
        let mut child = tracer
            .span_builder(format!("hookrun.hook {}", hook.kind))
            .with_kind(SpanKind::Internal)
            .with_start_time(hook.started)
            .with_attributes(attributes)
            .start_with_context(tracer, &cx);
        if hook.timed_out || hook.signal.is_some() {
            child.set_status(Status::error(if hook.timed_out {
                "timed out"
            } else {
                "killed by a signal"
            }));
        }
        child.end_with_timestamp(hook.started.checked_add(hook.took).unwrap_or(end));
    }
    if let Some(kind) = &o.error {
        cx.span()
            .set_status(Status::error(format!("hookrun's own failure: {kind}")));
    }
    cx.span().end_with_timestamp(end);
    cx
}

/// What the event's span, its log record and its metrics share.
fn event_attributes(o: &Observed) -> Vec<KeyValue> {
    let mut out = vec![
        KeyValue::new("hookrun.event", o.event.clone()),
        KeyValue::new("hookrun.dialect", o.dialect),
        KeyValue::new("hookrun.decision", o.decision),
    ];
    if let Some(tool) = &o.tool {
        out.push(KeyValue::new("hookrun.tool", tool.clone()));
    }
    if let Some(session) = &o.session {
        out.push(KeyValue::new("hookrun.session", session.clone()));
    }
    out
}

/// The agent's span as the parent, from its W3C trace context.
fn parent_context(traceparent: &str, tracestate: Option<&str>) -> Context {
    use opentelemetry::propagation::TextMapPropagator as _;
    let mut carrier = HashMap::new();
    carrier.insert("traceparent".to_owned(), traceparent.to_owned());
    if let Some(state) = tracestate {
        carrier.insert("tracestate".to_owned(), state.to_owned());
    }
    opentelemetry_sdk::propagation::TraceContextPropagator::new().extract(&carrier)
}

fn count(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

impl Instruments {
    fn new(provider: &SdkMeterProvider) -> Self {
        let meter = provider.meter(SCOPE);
        Instruments {
            events: meter
                .u64_counter("hookrun.events")
                .with_description("Events evaluated, by dialect, event and decision")
                .build(),
            event_seconds: meter
                .f64_histogram("hookrun.event.duration")
                .with_unit("s")
                .with_description("Time to evaluate an event, its hooks included")
                .with_boundaries(bounds())
                .build(),
            hook_seconds: meter
                .f64_histogram("hookrun.hook.duration")
                .with_unit("s")
                .with_description("Time each hook took")
                .with_boundaries(bounds())
                .build(),
            errors: meter
                .u64_counter("hookrun.errors")
                .with_description("Events not evaluated and requests refused, by kind")
                .build(),
            in_flight: meter
                .i64_up_down_counter("hookrun.events.in_flight")
                .with_description("Events being evaluated now")
                .build(),
        }
    }

    fn event(
        &self,
        dialect: &str,
        event: &str,
        decision: &'static str,
        took: Duration,
        hooks: &[Duration],
    ) {
        let labels = [
            KeyValue::new("dialect", dialect.to_owned()),
            KeyValue::new("event", event.to_owned()),
            KeyValue::new("decision", decision),
        ];
        self.events.add(1, &labels);
        self.event_seconds.record(took.as_secs_f64(), &[]);
        for hook in hooks {
            self.hook_seconds.record(hook.as_secs_f64(), &[]);
        }
    }
}

/// `service.name` (and `service.version`, `host.name`) over the SDK's own
/// detectors (`OTEL_RESOURCE_ATTRIBUTES`).
fn resource(settings: &Settings) -> Resource {
    let mut builder = Resource::builder()
        .with_service_name(settings.service_name.clone())
        .with_attribute(KeyValue::new("service.version", env!("CARGO_PKG_VERSION")));
    if let Some(host) = crate::os::host_name() {
        builder = builder.with_attribute(KeyValue::new("host.name", host));
    }
    builder.build()
}

/// The three signals' exporters, over one transport.
struct Exporters<'a> {
    settings: &'a Settings,
    lifetime: Lifetime,
    client: Arc<dyn opentelemetry_http::HttpClient>,
}

/// Builds one signal's exporter on either transport: the builders of the
/// three signals have the same methods but no common type.
macro_rules! exporter {
    ($self:ident, $kind:ident, $signal:literal $(, $extra:ident($arg:expr))*) => {{
        let s = $self.settings;
        let built = match s.protocol {
            OtlpProtocol::Grpc => {
                let mut b = opentelemetry_otlp::$kind::builder()$(.$extra($arg))*.with_tonic();
                if let Some(url) = s.endpoint_of($signal) {
                    b = b.with_endpoint(url);
                }
                if let Some(t) = $self.timeout() {
                    b = b.with_timeout(t).with_retry_policy(opentelemetry_otlp::RetryPolicy::disabled());
                }
                b.with_metadata(metadata(&s.headers)).build()
            }
            OtlpProtocol::HttpProtobuf | OtlpProtocol::HttpJson => {
                let protocol = if s.protocol == OtlpProtocol::HttpJson {
                    opentelemetry_otlp::Protocol::HttpJson
                } else {
                    opentelemetry_otlp::Protocol::HttpBinary
                };
                let mut b = opentelemetry_otlp::$kind::builder()$(.$extra($arg))*
                    .with_http()
                    .with_protocol(protocol)
                    .with_shared_http_client(Arc::clone(&$self.client));
                if let Some(url) = s.endpoint_of($signal) {
                    b = b.with_endpoint(url);
                }
                if let Some(t) = $self.timeout() {
                    b = b.with_timeout(t).with_retry_policy(opentelemetry_otlp::RetryPolicy::disabled());
                }
                if !s.headers.is_empty() {
                    b = b.with_headers(s.headers.iter().cloned().collect());
                }
                b.build()
            }
        };
        built.map_err(|e| format!("the OTLP {} exporter: {e}", $signal))
    }};
}

impl<'a> Exporters<'a> {
    fn new(settings: &'a Settings, lifetime: Lifetime) -> Self {
        let timeout = match lifetime {
            Lifetime::OneEvent => settings.export_timeout,
            Lifetime::Server => super::http_client::SERVER_TIMEOUT,
        };
        Exporters {
            settings,
            lifetime,
            client: Arc::new(super::http_client::Ureq::new(timeout)),
        }
    }

    /// `run`'s exporters give up with `run`'s wait, and try once (a retry
    /// waits 100 ms first: a refused connection would cost `run` its whole
    /// wait); the servers keep the exporter's own timeout
    /// (`OTEL_EXPORTER_OTLP_TIMEOUT`, 10 s) and its retries.
    fn timeout(&self) -> Option<Duration> {
        (self.lifetime == Lifetime::OneEvent).then_some(self.settings.export_timeout)
    }

    fn spans(&self) -> Result<opentelemetry_otlp::SpanExporter, String> {
        exporter!(self, SpanExporter, "traces")
    }

    fn metrics(&self) -> Result<opentelemetry_otlp::MetricExporter, String> {
        let temporality = match self.lifetime {
            Lifetime::OneEvent => Temporality::Delta,
            Lifetime::Server => Temporality::Cumulative,
        };
        exporter!(
            self,
            MetricExporter,
            "metrics",
            with_temporality(temporality)
        )
    }

    fn logs(&self) -> Result<opentelemetry_otlp::LogExporter, String> {
        exporter!(self, LogExporter, "logs")
    }
}

/// The table's headers as gRPC metadata (the variables' are added by the
/// exporter).
fn metadata(
    headers: &[(String, String)],
) -> opentelemetry_otlp::tonic_types::metadata::MetadataMap {
    let mut map = ureq::http::HeaderMap::new();
    for (name, value) in headers {
        // Checked when the config was read.
        if let (Ok(n), Ok(v)) = (
            ureq::http::HeaderName::from_bytes(name.as_bytes()),
            ureq::http::HeaderValue::from_str(value),
        ) {
            map.insert(n, v);
        }
    }
    opentelemetry_otlp::tonic_types::metadata::MetadataMap::from_headers(map)
}

/// A JSON value as an OpenTelemetry `AnyValue` (a log record's body):
/// `null` is left out of maps and lists, as `AnyValue` has no null.
fn any_value(v: &serde_json::Value) -> AnyValue {
    use serde_json::Value;
    match v {
        Value::Null => AnyValue::String("".into()),
        Value::Bool(b) => AnyValue::Boolean(*b),
        Value::Number(n) => n
            .as_i64()
            .map(AnyValue::Int)
            .unwrap_or_else(|| AnyValue::Double(n.as_f64().unwrap_or(f64::NAN))),
        Value::String(s) => AnyValue::String(s.clone().into()),
        Value::Array(items) => AnyValue::ListAny(Box::new(
            items
                .iter()
                .filter(|i| !i.is_null())
                .map(any_value)
                .collect(),
        )),
        Value::Object(m) => AnyValue::Map(Box::new(
            m.iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k.clone().into(), any_value(v)))
                .collect(),
        )),
    }
}
