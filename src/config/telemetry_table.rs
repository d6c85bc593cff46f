//! `[telemetry]`: where hookrun sends its traces, metrics and logs, as the
//! config files set it. Checked here, key by key, with the file and line
//! of a wrong value; the telemetry module resolves it against the standard
//! `OTEL_*` variables and runs the export.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

/// The OTLP transports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
pub(crate) enum OtlpProtocol {
    /// Protobuf over HTTP (the Collector's port 4318): the default.
    #[serde(rename = "http/protobuf")]
    HttpProtobuf,
    /// JSON over HTTP (port 4318).
    #[serde(rename = "http/json")]
    HttpJson,
    /// gRPC (port 4317).
    #[serde(rename = "grpc")]
    Grpc,
}

impl OtlpProtocol {
    /// The value as `OTEL_EXPORTER_OTLP_PROTOCOL` spells it.
    #[must_use]
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            OtlpProtocol::HttpProtobuf => "http/protobuf",
            OtlpProtocol::HttpJson => "http/json",
            OtlpProtocol::Grpc => "grpc",
        }
    }

    /// The value of `OTEL_EXPORTER_OTLP_PROTOCOL`, if it is one.
    #[must_use]
    pub(crate) fn parse(s: &str) -> Option<Self> {
        [Self::HttpProtobuf, Self::HttpJson, Self::Grpc]
            .into_iter()
            .find(|p| p.as_str() == s.trim())
    }
}

/// `[telemetry]`: OpenTelemetry export of every event's decision. Each key
/// left out falls back to its standard OTEL_* variable (docs/telemetry.md).
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawTelemetry {
    /// `false` turns hookrun's export off, even where OTEL_* variables
    /// inherited from the agent would turn it on.
    enabled: Option<bool>,
    /// The Collector's OTLP address, as OTEL_EXPORTER_OTLP_ENDPOINT:
    /// `http://127.0.0.1:4318` for HTTP (`/v1/traces`, `/v1/metrics`,
    /// `/v1/logs` are added), `http://127.0.0.1:4317` for gRPC.
    otlp_endpoint: Option<String>,
    /// "http/protobuf" (default), "http/json" or "grpc".
    protocol: Option<OtlpProtocol>,
    /// The `service.name` resource attribute (default "hookrun").
    service_name: Option<String>,
    /// Headers sent with every export (an API key of a hosted backend).
    headers: Option<BTreeMap<String, String>>,
    /// The fraction of events traced, 0 to 1 (default 1: every event).
    sampling: Option<f64>,
    /// Export a span per event and per hook (default true).
    traces: Option<bool>,
    /// Export the metrics `serve --http` shows on `/metrics` (default true).
    metrics: Option<bool>,
    /// Export each event's audit record as a log record (default false).
    logs: Option<bool>,
    /// Seconds `run` waits at most for its export once the decision is
    /// out (default 0.2, at most 10): a collector that is down or slow
    /// never delays a decision longer.
    export_timeout: Option<f64>,
}

/// `[telemetry]` as the layers set it, key by key (a later file's key
/// replaces an earlier one's).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct TelemetryTable {
    pub enabled: Option<bool>,
    /// The base URL, checked to be `http://` or `https://`.
    pub otlp_endpoint: Option<String>,
    pub protocol: Option<OtlpProtocol>,
    pub service_name: Option<String>,
    pub headers: Option<Vec<(String, String)>>,
    /// Between 0 and 1.
    pub sampling: Option<f64>,
    pub traces: Option<bool>,
    pub metrics: Option<bool>,
    pub logs: Option<bool>,
    pub export_timeout: Option<Duration>,
    /// The files that set it, in layer order.
    pub files: Vec<PathBuf>,
}

/// The longest `export_timeout` allowed: `run` is an agent's hook.
const MAX_EXPORT_TIMEOUT: f64 = 10.0;

impl TelemetryTable {
    /// One file's table, checked: the key and why when a value is wrong.
    pub(super) fn of_raw(raw: RawTelemetry, path: &Path) -> Result<Self, (String, String)> {
        let wrong = |key: &str, why: String| (format!("telemetry.{key}"), why);
        if let Some(url) = &raw.otlp_endpoint {
            let uri = url.parse::<ureq::http::Uri>().ok();
            let usable = uri.as_ref().is_some_and(|u| {
                matches!(u.scheme_str(), Some("http" | "https")) && u.host().is_some()
            });
            if !usable {
                return Err(wrong(
                    "otlp_endpoint",
                    format!(
                        "{url:?} is not an OTLP endpoint: give the Collector's http:// or https:// address (http://127.0.0.1:4318)"
                    ),
                ));
            }
        }
        if let Some(name) = &raw.service_name {
            if name.trim().is_empty() {
                return Err(wrong("service_name", "may not be empty".into()));
            }
        }
        if let Some(s) = raw.sampling {
            if !(0.0..=1.0).contains(&s) {
                return Err(wrong(
                    "sampling",
                    format!("{s} is not a fraction between 0 and 1"),
                ));
            }
        }
        let export_timeout = match raw.export_timeout {
            Some(t) if t.is_finite() && t > 0.0 && t <= MAX_EXPORT_TIMEOUT => {
                Some(Duration::from_secs_f64(t))
            }
            Some(t) => {
                return Err(wrong(
                    "export_timeout",
                    format!(
                        "{t} is not a number of seconds above 0 and at most {MAX_EXPORT_TIMEOUT}"
                    ),
                ));
            }
            None => None,
        };
        if let Some(headers) = &raw.headers {
            for (name, value) in headers {
                let valid = ureq::http::HeaderName::from_bytes(name.as_bytes()).is_ok()
                    && ureq::http::HeaderValue::from_str(value).is_ok();
                if !valid {
                    return Err(wrong(
                        &format!("headers.{name}"),
                        "is not a valid HTTP header name and value".into(),
                    ));
                }
            }
        }
        Ok(TelemetryTable {
            enabled: raw.enabled,
            otlp_endpoint: raw.otlp_endpoint,
            protocol: raw.protocol,
            service_name: raw.service_name,
            headers: raw.headers.map(|h| h.into_iter().collect()),
            sampling: raw.sampling,
            traces: raw.traces,
            metrics: raw.metrics,
            logs: raw.logs,
            export_timeout,
            files: vec![path.to_owned()],
        })
    }

    /// A later layer's table over this one, key by key.
    pub(super) fn layer(&mut self, later: TelemetryTable) {
        macro_rules! over {
            ($($key:ident),*) => { $( if later.$key.is_some() { self.$key = later.$key; } )* };
        }
        over!(
            enabled,
            otlp_endpoint,
            protocol,
            service_name,
            headers,
            sampling,
            traces,
            metrics,
            logs,
            export_timeout
        );
        self.files.extend(later.files);
    }
}
