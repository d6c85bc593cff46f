//! The OTLP/HTTP exporter's requests, sent by ureq: the HTTP client the
//! `http` hooks and `forward` already use (rustls, the platform's trust
//! store, `SSL_CERT_FILE`), rather than a second stack. ureq is blocking;
//! the SDK's batch processors call the exporter on threads of their own.

use std::time::Duration;

use opentelemetry_http::{Bytes, HttpError, Request, Response};

/// A server's exporter waits this long for a collector's answer, as the
/// OTLP exporter's own default (`OTEL_EXPORTER_OTLP_TIMEOUT`).
pub(super) const SERVER_TIMEOUT: Duration = Duration::from_secs(10);

/// The most of a collector's answer read (it is a small status message).
const MAX_ANSWER_BYTES: u64 = 4 * 1024 * 1024;

#[derive(Debug)]
pub(super) struct Ureq {
    agent: ureq::Agent,
}

impl Ureq {
    /// A client whose every exchange is bounded by `timeout`, every
    /// status read as an answer (the exporter judges it), no redirect.
    pub(super) fn new(timeout: Duration) -> Self {
        Ureq {
            agent: crate::server_client::client(timeout),
        }
    }
}

#[async_trait::async_trait]
impl opentelemetry_http::HttpClient for Ureq {
    async fn send_bytes(&self, request: Request<Bytes>) -> Result<Response<Bytes>, HttpError> {
        let (parts, body) = request.into_parts();
        let request = ureq::http::Request::from_parts(parts, body.to_vec());
        let response = self.agent.run(request)?;
        let (parts, mut body) = response.into_parts();
        let bytes = body.with_config().limit(MAX_ANSWER_BYTES).read_to_vec()?;
        Ok(Response::from_parts(parts, Bytes::from(bytes)))
    }
}
