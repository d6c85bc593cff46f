//! MCP's streamable HTTP over ureq, the HTTP client hookrun already has
//! for `http` hooks: rmcp's streamable-HTTP transport does the protocol
//! (sessions, SSE answers, reconnects) and calls this client for each
//! request. ureq is blocking, so each request runs on the runtime's
//! blocking threads; an SSE answer is read there too, its bytes handed to
//! the transport as they come.
//!
//! Unlike an `http` hook's URL, a server's URL is not held to public
//! addresses: it is a server the user configured, reached as the agent
//! reaches it.

use std::borrow::Cow;
use std::collections::HashMap;
use std::io::Read;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use futures::StreamExt;
use futures::stream::BoxStream;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::common::http_header::{
    EVENT_STREAM_MIME_TYPE, HEADER_LAST_EVENT_ID, HEADER_SESSION_ID, JSON_MIME_TYPE,
};
use rmcp::transport::streamable_http_client::{
    StreamableHttpClient, StreamableHttpClientTransportConfig, StreamableHttpError,
    StreamableHttpPostResponse,
};
use sse_stream::{Sse, SseStream};
use ureq::http::{HeaderName, HeaderValue, StatusCode};

/// Why a request failed, worded for a user.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub(super) struct HttpError(String);

type Failure = StreamableHttpError<HttpError>;

fn failure(why: impl Into<String>) -> Failure {
    StreamableHttpError::Client(HttpError(why.into()))
}

/// The client: one ureq agent (its connections kept between requests)
/// and the most bytes read from one answer.
#[derive(Clone)]
pub(super) struct Client {
    agent: ureq::Agent,
    limit: usize,
}

/// The transport to the server at `url`, `headers` sent with every
/// request.
///
/// # Errors
/// A header name or value that cannot be sent.
pub(super) fn transport(
    url: &str,
    headers: &[(String, String)],
    limit: usize,
) -> Result<StreamableHttpClientTransport<Client>, String> {
    let mut custom = HashMap::new();
    for (name, value) in headers {
        let n = HeaderName::try_from(name.as_str())
            .map_err(|e| format!("header name `{name}` cannot be sent: {e}"))?;
        let v = HeaderValue::try_from(value.as_str())
            .map_err(|e| format!("the value of header `{name}` cannot be sent: {e}"))?;
        custom.insert(n, v);
    }
    let config = StreamableHttpClientTransportConfig::with_uri(url)
        .custom_headers(custom)
        .max_sse_event_size(limit)
        .max_json_response_size(limit);
    Ok(StreamableHttpClientTransport::with_client(
        Client {
            agent: agent(),
            limit,
        },
        config,
    ))
}

/// ureq configured as for `http` hooks (rustls, the platform's trust
/// store, no redirect followed), with no overall timeout: an SSE stream
/// stays open as long as the server keeps it, and each call is bounded by
/// its own timeout around the whole exchange.
fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .timeout_connect(Some(Duration::from_secs(10)))
        .max_redirects(0)
        .http_status_as_error(false)
        .user_agent(concat!("hookrun/", env!("CARGO_PKG_VERSION")))
        .tls_config(
            ureq::tls::TlsConfig::builder()
                .root_certs(ureq::tls::RootCerts::PlatformVerifier)
                .build(),
        )
        .build()
        .into()
}

type Response = ureq::http::Response<ureq::Body>;

/// Runs a blocking request on the runtime's blocking threads.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, Failure> + Send + 'static,
) -> Result<T, Failure> {
    tokio::task::spawn_blocking(work).await?
}

fn content_type(response: &Response) -> Option<String> {
    response
        .headers()
        .get(ureq::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(|v| {
            v.split(';')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase()
        })
}

fn session_of(response: &Response) -> Option<String> {
    response
        .headers()
        .get(HEADER_SESSION_ID)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
}

/// An SSE body as rmcp's transport reads it: the bytes are read on a
/// blocking thread and handed over as they come; at most `limit` bytes.
fn sse(body: ureq::Body, limit: usize) -> BoxStream<'static, Result<Sse, sse_stream::Error>> {
    let (tx, rx) = tokio::sync::mpsc::channel::<Result<Bytes, std::io::Error>>(16);
    tokio::task::spawn_blocking(move || {
        let mut reader = body.into_reader();
        let mut buf = vec![0u8; 16 * 1024];
        let mut total = 0usize;
        loop {
            match reader.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => {
                    total = total.saturating_add(n);
                    if total > limit {
                        let _ = tx.blocking_send(Err(std::io::Error::other(format!(
                            "the server's SSE answer is over {limit} bytes"
                        ))));
                        break;
                    }
                    if tx
                        .blocking_send(Ok(Bytes::copy_from_slice(&buf[..n])))
                        .is_err()
                    {
                        break;
                    }
                }
                Err(e) => {
                    let _ = tx.blocking_send(Err(e));
                    break;
                }
            }
        }
    });
    let chunks = futures::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|chunk| (chunk, rx))
    });
    SseStream::from_bytes_stream(chunks).boxed()
}

impl StreamableHttpClient for Client {
    type Error = HttpError;

    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<StreamableHttpPostResponse, Failure> {
        let body = serde_json::to_vec(&message)?;
        let awaits_no_response = matches!(
            message,
            ClientJsonRpcMessage::Notification(_)
                | ClientJsonRpcMessage::Response(_)
                | ClientJsonRpcMessage::Error(_)
        );
        let agent = self.agent.clone();
        let had_session = session_id.is_some();
        let target = Arc::clone(&uri);
        let response = blocking(move || {
            let mut request = agent
                .post(&*target)
                .header(
                    ureq::http::header::ACCEPT,
                    format!("{JSON_MIME_TYPE}, {EVENT_STREAM_MIME_TYPE}"),
                )
                .header(ureq::http::header::CONTENT_TYPE, JSON_MIME_TYPE);
            if let Some(session) = &session_id {
                request = request.header(HEADER_SESSION_ID, &**session);
            }
            if let Some(token) = &auth_header {
                request =
                    request.header(ureq::http::header::AUTHORIZATION, format!("Bearer {token}"));
            }
            for (name, value) in custom_headers {
                request = request.header(name, value);
            }
            request
                .send(&body[..])
                .map_err(|e| failure(format!("the request to {target} failed: {e}")))
        })
        .await?;
        let status = response.status();
        if matches!(status, StatusCode::ACCEPTED | StatusCode::NO_CONTENT) {
            return Ok(StreamableHttpPostResponse::Accepted);
        }
        if status == StatusCode::NOT_FOUND && had_session {
            return Err(StreamableHttpError::SessionExpired);
        }
        let kind = content_type(&response);
        let session = session_of(&response);
        let limit = self.limit;
        if kind.as_deref() == Some(EVENT_STREAM_MIME_TYPE) && status.is_success() {
            return Ok(StreamableHttpPostResponse::Sse(
                sse(response.into_body(), limit),
                session,
            ));
        }
        let is_json = kind.as_deref() == Some(JSON_MIME_TYPE);
        let body = blocking(move || {
            let mut body = response.into_body();
            body.with_config()
                .limit(u64::try_from(limit).unwrap_or(u64::MAX))
                .read_to_vec()
                .map_err(|e| match e {
                    ureq::Error::BodyExceedsLimit(_) => {
                        StreamableHttpError::ResponseBodyTooLarge { max_size: limit }
                    }
                    e => failure(format!("reading the answer failed: {e}")),
                })
        })
        .await?;
        if status.is_success() && body.is_empty() && awaits_no_response {
            return Ok(StreamableHttpPostResponse::Accepted);
        }
        if is_json {
            // A JSON-RPC error may come with a failure status: it is the
            // answer, and says why.
            match serde_json::from_slice::<ServerJsonRpcMessage>(&body) {
                Ok(message)
                    if status.is_success() || matches!(message, ServerJsonRpcMessage::Error(_)) =>
                {
                    return Ok(StreamableHttpPostResponse::Json(message, session));
                }
                Ok(_) => {}
                Err(e) if status.is_success() => return Err(e.into()),
                Err(_) => {}
            }
        }
        if !status.is_success() {
            return Err(StreamableHttpError::UnexpectedServerResponse(Cow::Owned(
                format!("the server answered with status {status}"),
            )));
        }
        Err(StreamableHttpError::UnexpectedContentType(kind))
    }

    async fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<(), Failure> {
        let agent = self.agent.clone();
        blocking(move || {
            let mut request = agent.delete(&*uri).header(HEADER_SESSION_ID, &*session_id);
            if let Some(token) = &auth_header {
                request =
                    request.header(ureq::http::header::AUTHORIZATION, format!("Bearer {token}"));
            }
            for (name, value) in custom_headers {
                request = request.header(name, value);
            }
            // A server that keeps no sessions refuses it: that is fine.
            request
                .call()
                .map(drop)
                .map_err(|e| failure(format!("ending the session failed: {e}")))
        })
        .await
    }

    async fn get_stream(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<BoxStream<'static, Result<Sse, sse_stream::Error>>, Failure> {
        let agent = self.agent.clone();
        let response = blocking(move || {
            let mut request = agent.get(&*uri).header(
                ureq::http::header::ACCEPT,
                format!("{EVENT_STREAM_MIME_TYPE}, {JSON_MIME_TYPE}"),
            );
            if let Some(session) = &session_id {
                request = request.header(HEADER_SESSION_ID, &**session);
            }
            if let Some(id) = &last_event_id {
                request = request.header(HEADER_LAST_EVENT_ID, id);
            }
            if let Some(token) = &auth_header {
                request =
                    request.header(ureq::http::header::AUTHORIZATION, format!("Bearer {token}"));
            }
            for (name, value) in custom_headers {
                request = request.header(name, value);
            }
            request
                .call()
                .map_err(|e| failure(format!("opening the server's event stream failed: {e}")))
        })
        .await?;
        let status = response.status();
        if status == StatusCode::METHOD_NOT_ALLOWED {
            return Err(StreamableHttpError::ServerDoesNotSupportSse);
        }
        if !status.is_success() {
            return Err(StreamableHttpError::UnexpectedServerResponse(Cow::Owned(
                format!("the server answered the event stream's request with status {status}"),
            )));
        }
        match content_type(&response).as_deref() {
            Some(EVENT_STREAM_MIME_TYPE) => Ok(sse(response.into_body(), self.limit)),
            other => Err(StreamableHttpError::UnexpectedContentType(
                other.map(str::to_owned),
            )),
        }
    }
}
