//! Whether and where hookrun exports: `[telemetry]` over the standard
//! `OTEL_*` variables, resolved once per process from the config and an
//! environment (pure: the environment is a lookup, so tests give their
//! own).
//!
//! - Off with `OTEL_SDK_DISABLED=true`, whatever else is set, and with
//!   `[telemetry] enabled = false`.
//! - On with a `[telemetry]` table, or, without one, when the environment
//!   names an OTLP endpoint (`OTEL_EXPORTER_OTLP_ENDPOINT` or a signal's
//!   own `OTEL_EXPORTER_OTLP_{TRACES,METRICS,LOGS}_ENDPOINT`) or an `otlp`
//!   exporter (`OTEL_{TRACES,METRICS,LOGS}_EXPORTER`): what a hook
//!   inherits from an agent whose own telemetry is configured.
//! - Each signal: traces and metrics unless turned off (`traces = false`,
//!   `OTEL_TRACES_EXPORTER=none`); logs only when asked (`logs = true`,
//!   `OTEL_LOGS_EXPORTER=otlp`).
//! - A key of the table wins over its variable; an endpoint or header the
//!   table leaves out is the exporter's to read from the variables, as
//!   the OTLP exporter reads them everywhere.

use std::time::Duration;

use crate::config::{OtlpProtocol, TelemetryTable};

/// How long `run` waits for its export by default, once the decision is out.
const DEFAULT_EXPORT_TIMEOUT: Duration = Duration::from_millis(200);

/// What the export is, once resolved.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Settings {
    pub protocol: OtlpProtocol,
    /// The table's base URL; `None` leaves it to the OTEL_* variables
    /// (and the exporter's default, `http://localhost:4318` or `:4317`).
    pub endpoint: Option<String>,
    /// The table's headers (the variables' are added by the exporter).
    pub headers: Vec<(String, String)>,
    pub service_name: String,
    /// The table's fraction of events traced; `None` leaves the sampler to
    /// `OTEL_TRACES_SAMPLER` (every event by default).
    pub sampling: Option<f64>,
    pub traces: bool,
    pub metrics: bool,
    pub logs: bool,
    /// The longest `run` waits for its export after the decision.
    pub export_timeout: Duration,
}

impl Settings {
    /// The full URL of one signal's OTLP/HTTP endpoint (`/v1/traces`),
    /// or, for gRPC, the base URL itself.
    pub(crate) fn endpoint_of(&self, signal: &str) -> Option<String> {
        let base = self.endpoint.as_deref()?;
        Some(match self.protocol {
            OtlpProtocol::Grpc => base.to_owned(),
            OtlpProtocol::HttpProtobuf | OtlpProtocol::HttpJson => {
                format!("{}/v1/{signal}", base.trim_end_matches('/'))
            }
        })
    }
}

/// Resolves the settings; `Ok(None)` when nothing is to be exported.
///
/// # Errors
/// A variable hookrun reads has a value it cannot use (names it).
pub(crate) fn resolve(
    table: Option<&TelemetryTable>,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Option<Settings>, String> {
    let var = |name: &str| env(name).filter(|v| !v.trim().is_empty());
    if var("OTEL_SDK_DISABLED").is_some_and(|v| v.trim().eq_ignore_ascii_case("true")) {
        return Ok(None);
    }
    if table.is_some_and(|t| t.enabled == Some(false)) {
        return Ok(None);
    }
    let exporter = |signal: &str| var(&format!("OTEL_{signal}_EXPORTER"));
    let names_otlp = |v: &str| v.split(',').any(|e| e.trim() == "otlp");
    let asked = [
        "OTEL_EXPORTER_OTLP_ENDPOINT",
        "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
        "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT",
        "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT",
    ]
    .iter()
    .any(|v| var(v).is_some())
        || ["TRACES", "METRICS", "LOGS"]
            .iter()
            .any(|s| exporter(s).is_some_and(|v| names_otlp(&v)));
    if table.is_none() && !asked {
        return Ok(None);
    }
    let protocol = match (table.and_then(|t| t.protocol), var("OTEL_EXPORTER_OTLP_PROTOCOL")) {
        (Some(p), _) => p,
        (None, Some(v)) => OtlpProtocol::parse(&v).ok_or_else(|| {
            format!(
                "OTEL_EXPORTER_OTLP_PROTOCOL={v:?} is not one of \"http/protobuf\", \"http/json\", \"grpc\""
            )
        })?,
        (None, None) => OtlpProtocol::HttpProtobuf,
    };
    // A signal is on unless its exporter variable leaves otlp out
    // (`none`); logs only when asked for.
    let kept = |signal: &str, key: Option<bool>, default: bool| match key {
        Some(on) => on,
        None => exporter(signal).map_or(default, |v| names_otlp(&v)),
    };
    let settings = Settings {
        protocol,
        endpoint: table.and_then(|t| t.otlp_endpoint.clone()),
        headers: table.and_then(|t| t.headers.clone()).unwrap_or_default(),
        service_name: table
            .and_then(|t| t.service_name.clone())
            .or_else(|| var("OTEL_SERVICE_NAME"))
            .unwrap_or_else(|| "hookrun".to_owned()),
        sampling: table.and_then(|t| t.sampling),
        traces: kept("TRACES", table.and_then(|t| t.traces), true),
        metrics: kept("METRICS", table.and_then(|t| t.metrics), true),
        logs: kept("LOGS", table.and_then(|t| t.logs), false),
        export_timeout: table
            .and_then(|t| t.export_timeout)
            .unwrap_or(DEFAULT_EXPORT_TIMEOUT),
    };
    Ok((settings.traces || settings.metrics || settings.logs).then_some(settings))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env_of(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        move |name| {
            pairs
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
        }
    }

    fn table() -> TelemetryTable {
        TelemetryTable {
            otlp_endpoint: Some("http://127.0.0.1:4318/".into()),
            ..TelemetryTable::default()
        }
    }

    #[test]
    fn nothing_configured_exports_nothing() {
        assert_eq!(resolve(None, &env_of(&[])), Ok(None));
        // An agent's unrelated OTEL_ variable turns nothing on.
        let env = env_of(&[("OTEL_SERVICE_NAME", "claude-code")]);
        assert_eq!(resolve(None, &env), Ok(None));
    }

    #[test]
    fn the_agents_variables_turn_it_on() {
        let env = env_of(&[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4317"),
            ("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"),
            ("OTEL_SERVICE_NAME", "agents"),
        ]);
        let s = resolve(None, &env).unwrap().unwrap();
        assert_eq!(s.protocol, OtlpProtocol::Grpc);
        assert_eq!(s.endpoint, None, "left to the exporter's own reading");
        assert_eq!(s.service_name, "agents");
        assert!(s.traces && s.metrics && !s.logs);
        let env = env_of(&[("OTEL_LOGS_EXPORTER", "otlp")]);
        let s = resolve(None, &env).unwrap().unwrap();
        assert!(s.logs && s.traces);
    }

    #[test]
    fn off_switches_win() {
        let env = env_of(&[("OTEL_SDK_DISABLED", "TRUE")]);
        assert_eq!(resolve(Some(&table()), &env), Ok(None));
        let off = TelemetryTable {
            enabled: Some(false),
            ..table()
        };
        let env = env_of(&[("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318")]);
        assert_eq!(resolve(Some(&off), &env), Ok(None));
        let env = env_of(&[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318"),
            ("OTEL_TRACES_EXPORTER", "none"),
            ("OTEL_METRICS_EXPORTER", "none"),
        ]);
        assert_eq!(resolve(None, &env), Ok(None));
    }

    #[test]
    fn the_table_wins_over_the_variables() {
        let t = TelemetryTable {
            protocol: Some(OtlpProtocol::HttpJson),
            service_name: Some("policy".into()),
            logs: Some(true),
            traces: Some(true),
            ..table()
        };
        let env = env_of(&[
            ("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"),
            ("OTEL_SERVICE_NAME", "agents"),
            ("OTEL_TRACES_EXPORTER", "none"),
        ]);
        let s = resolve(Some(&t), &env).unwrap().unwrap();
        assert_eq!(s.protocol, OtlpProtocol::HttpJson);
        assert_eq!(s.service_name, "policy");
        assert!(s.logs && s.traces);
        assert_eq!(
            s.endpoint_of("traces").as_deref(),
            Some("http://127.0.0.1:4318/v1/traces")
        );
        assert_eq!(s.export_timeout, DEFAULT_EXPORT_TIMEOUT);
    }

    #[test]
    fn a_protocol_variable_hookrun_cannot_use_is_named() {
        let env = env_of(&[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318"),
            ("OTEL_EXPORTER_OTLP_PROTOCOL", "thrift"),
        ]);
        let e = resolve(None, &env).unwrap_err();
        assert!(e.contains("OTEL_EXPORTER_OTLP_PROTOCOL=\"thrift\""), "{e}");
    }
}
