//! `hookrun serve --http ADDR`: events over HTTP, for Claude Code's `http`
//! hooks and for a team's policy server.
//!
//! - `POST /hooks/{dialect}` (`auto`, or a dialect's name), the body an
//!   event as `run` reads it from stdin, `?event=NAME` as `run --event`:
//!   `200`, the body what `run` prints on stdout, and the header
//!   `Hookrun-Exit-Code` the exit code `run` exits with. An event the
//!   server accepted and did not evaluate (a broken config, a handler it
//!   cannot run, the queue full, the server stopping, past the time bound)
//!   is answered `200` with a block where `run` blocks on its own failure
//!   (the trust rule, `--on-error` as for `run`): an agent reads an error
//!   status as a failed hook and goes on.
//! - `GET /healthz` (alive), `GET /readyz` (a config is loaded) and
//!   `GET /metrics` (`metrics`).
//! - With `--token-file`, every request needs `Authorization: Bearer
//!   TOKEN` (compared in constant time), else `401`. A bind beyond
//!   loopback without a token is refused unless `--allow-remote`.
//! - Limits: a body over `[limits] max_event_bytes` is `413`, a body not
//!   sent within `--read-timeout` is `408`; at most `--max-in-flight`
//!   events are evaluated at once and `--max-queued` wait; an event's
//!   evaluation is bounded by the sum of its config's hook timeouts plus
//!   [`BOUND_MARGIN`]. Connections, TLS and the stop: `connections`.
//!
//! `hookrun forward` (`commands::forward`) is this server's command-hook
//! client.
//!
//! Each event is one call of the `serve --stdio` evaluation
//! (`evaluate::on_thread`), so that `run`, `serve --stdio` and this server
//! give the same answers; the config is refreshed before each event as
//! `serve --stdio` refreshes it, and an event is evaluated whole on the
//! config it started with. A config that cannot be read at start ends the
//! server before it listens (exit 1).

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};

use crate::cli::{RunArgs, ServeArgs};
use crate::config::Config;
use crate::error::{Error, ExitStatus};
use crate::event::Line;
use crate::os;
use crate::rendered::Rendered;

use super::reload;

mod connections;
mod tls;

/// What an event's evaluation may take beyond the sum of its config's hook
/// timeouts before it is answered with hookrun's own block: room for
/// killing an overrunning hook (`exec::KILL_GRACE`) and for hookrun's own
/// work.
const BOUND_MARGIN: Duration = Duration::from_secs(10);

/// What every request handler shares.
struct Shared {
    live: tokio::sync::Mutex<reload::Live>,
    metrics: super::metrics::Metrics,
    run: RunArgs,
    token: Option<Vec<u8>>,
    depth: u32,
    read_timeout: Duration,
    places: Places,
}

/// The cap on events evaluated at once, and on those waiting for a place.
struct Places {
    in_flight: Arc<tokio::sync::Semaphore>,
    max_in_flight: u32,
    waiting: AtomicU32,
    max_waiting: u32,
}

/// A place in the queue, given back however the wait ends (a client that
/// goes away drops it).
struct Waiting<'a>(&'a AtomicU32);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Places {
    /// A place to evaluate an event in, waiting for one if the queue has
    /// room; `None` when it has none.
    async fn take(&self) -> Option<tokio::sync::OwnedSemaphorePermit> {
        if let Ok(place) = Arc::clone(&self.in_flight).try_acquire_owned() {
            return Some(place);
        }
        if self.waiting.fetch_add(1, Ordering::AcqRel) >= self.max_waiting {
            self.waiting.fetch_sub(1, Ordering::AcqRel);
            return None;
        }
        let _waiting = Waiting(&self.waiting);
        Arc::clone(&self.in_flight).acquire_owned().await.ok()
    }
}

#[derive(Debug, serde::Deserialize)]
struct HookQuery {
    event: Option<String>,
}

/// Serves until interrupted.
///
/// # Errors
/// The address cannot be bound or is refused, the token file or the TLS
/// files cannot be used, or hookrun was interrupted (130/143).
pub(super) async fn serve(
    args: ServeArgs,
    addr: String,
    live: reload::Live,
    counted: super::metrics::Metrics,
) -> Result<ExitStatus, Error> {
    // A server that would block every event from its first one is refused
    // before it listens: its operator sees why at start.
    if let Some(broken) = live.config.unreadable.first() {
        return Err(Error::Usage(broken.error.to_string()));
    }
    let token = match &args.token_file {
        Some(path) => Some(
            crate::server_client::read_token(path)
                .map_err(Error::Usage)?
                .into_bytes(),
        ),
        None => None,
    };
    let tls = match (&args.tls_cert, &args.tls_key) {
        (Some(cert), Some(key)) => Some(tls::acceptor(cert, key)?),
        _ => None,
    };
    let listener = tokio::net::TcpListener::bind(&addr)
        .await
        .map_err(|source| Error::Io {
            what: format!("cannot listen on {addr}"),
            source,
        })?;
    let local = listener.local_addr().map_err(|source| Error::Io {
        what: format!("cannot listen on {addr}"),
        source,
    })?;
    if !local.ip().is_loopback() && token.is_none() && !args.allow_remote {
        return Err(Error::Usage(format!(
            "{local} is reachable beyond this machine and no --token-file is given: anyone who reaches it could ask for decisions and see their reasons; give --token-file, or --allow-remote to serve it anyway"
        )));
    }
    if !local.ip().is_loopback() && token.is_some() && tls.is_none() {
        crate::output::diagnostic(&format!(
            "{local} is reachable beyond this machine without TLS: the token and every event travel in clear unless a proxy in front terminates TLS (--tls-cert, --tls-key)"
        ));
    }
    let shared = Arc::new(Shared {
        live: tokio::sync::Mutex::new(live),
        metrics: counted,
        run: args.run.clone(),
        token,
        depth: crate::launch::inherited_depth(),
        read_timeout: args.read_timeout,
        places: Places {
            in_flight: Arc::new(tokio::sync::Semaphore::new(args.max_in_flight as usize)),
            max_in_flight: args.max_in_flight,
            waiting: AtomicU32::new(0),
            max_waiting: args.max_queued,
        },
    });
    let app = axum::Router::new()
        .route("/hooks/{dialect}", post(hook))
        .route("/healthz", get(|| async { "ok\n" }))
        .route("/readyz", get(|| async { "ready\n" }))
        .route("/metrics", get(metrics))
        .with_state(shared);
    let Ok(termination) = os::Termination::watch_all() else {
        return Err(Error::Internal("cannot watch for signals".into()));
    };
    // The events' hooks stop on the server's word, once the events under
    // way have had their grace period, not on the signal itself.
    let (stop, stopped) = tokio::sync::watch::channel(None);
    crate::exec::stop_on_server(stopped);
    let scheme = if tls.is_some() { "https" } else { "http" };
    crate::output::stderr_line(&format!("listening on {scheme}://{local}"));
    let listening = connections::Listening {
        listener,
        tls,
        read_timeout: args.read_timeout,
        grace: args.grace,
    };
    let interruption = connections::serve(listening, app, termination, stop).await;
    Err(Error::Interrupted {
        name: interruption.name,
        signal: interruption.number,
    })
}

/// Whether the request carries the server's token (any request does when
/// the server has none).
fn authorised(shared: &Shared, headers: &HeaderMap) -> bool {
    let Some(token) = &shared.token else {
        return true;
    };
    let given = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or("");
    subtle::ConstantTimeEq::ct_eq(given.as_bytes(), token.as_slice()).into()
}

async fn hook(
    State(shared): State<Arc<Shared>>,
    Path(dialect): Path<String>,
    Query(query): Query<HookQuery>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    if !authorised(&shared, &headers) {
        shared.metrics.error("unauthorized");
        return (StatusCode::UNAUTHORIZED, "a bearer token is required\n").into_response();
    }
    let label = dialect.clone();
    let dialect = if dialect == "auto" {
        None
    } else {
        match <crate::dialect::Dialect as clap::ValueEnum>::from_str(&dialect, false) {
            Ok(d) => Some(d),
            Err(_) => {
                shared.metrics.error("no_dialect");
                return (StatusCode::NOT_FOUND, no_dialect(&dialect)).into_response();
            }
        }
    };
    let (config, found_none) = {
        let mut live = shared.live.lock().await;
        live.refresh(&shared.run).await;
        (Arc::clone(&live.config), live.found_none())
    };
    let cap = config.limits.max_event_bytes;
    let body = match tokio::time::timeout(shared.read_timeout, axum::body::to_bytes(body, cap))
        .await
    {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(_)) => {
            shared.metrics.error("too_large");
            return (
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("the event is over [limits] max_event_bytes ({cap} bytes), or its body broke off\n"),
            )
                .into_response();
        }
        Err(_) => {
            shared.metrics.error("slow_client");
            return (
                StatusCode::REQUEST_TIMEOUT,
                format!(
                    "the body did not arrive within {} s\n",
                    shared.read_timeout.as_secs_f64()
                ),
            )
                .into_response();
        }
    };
    let mut run = shared.run.clone();
    if dialect.is_some() {
        run.dialect = dialect;
    }
    if query.event.is_some() {
        run.event = query.event;
    }
    let request = Request {
        label: &label,
        body: &body,
        as_command: headers.contains_key(crate::server_client::AS_COMMAND_HEADER),
        parent: trace_parent(&headers),
    };
    let as_command = request.as_command;
    let answer = evaluated(&shared, config, run, found_none, request).await;
    // What `run` would say on stderr is the operator's to read.
    for line in &answer.stderr {
        crate::output::stderr_line(line);
    }
    // A command hook (`hookrun forward`) prints `run`'s stdout and stderr
    // and exits with its code: an agent reads a block's reason from stderr
    // (exit 2), so all three travel, as `serve --stdio` sends them.
    let body = if as_command {
        serde_json::Value::Object(crate::server_client::command_answer(&answer)).to_string()
    } else {
        answer.stdout
    };
    let mut response = body.into_response();
    let headers = response.headers_mut();
    headers.insert(
        crate::server_client::EXIT_CODE_HEADER,
        HeaderValue::from(u16::from(answer.exit_code)),
    );
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

/// The `404` text for a dialect hookrun does not speak.
fn no_dialect(given: &str) -> String {
    let names: Vec<String> = <crate::dialect::Dialect as clap::ValueEnum>::value_variants()
        .iter()
        .filter_map(clap::ValueEnum::to_possible_value)
        .map(|p| p.get_name().to_owned())
        .collect();
    format!(
        "no dialect `{given}`: POST /hooks/auto or /hooks/NAME, NAME one of {}\n",
        names.join(", ")
    )
}

/// One accepted request, as `evaluated` needs it.
struct Request<'a> {
    /// The dialect as the path gives it (`auto`), for the metrics.
    label: &'a str,
    body: &'a [u8],
    /// Sent by `hookrun forward` (`Hookrun-Command`): answered as `run`.
    as_command: bool,
    /// The caller's W3C trace context, for the event's span.
    parent: Option<(String, Option<String>)>,
}

/// The caller's `traceparent` and `tracestate` headers.
fn trace_parent(headers: &HeaderMap) -> Option<(String, Option<String>)> {
    let text = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .filter(|v| !v.is_empty())
            .map(str::to_owned)
    };
    Some((text("traceparent")?, text("tracestate")))
}

/// The answer to an accepted event: its evaluation once a place is free
/// (as the caller's `http` handler reads it, unless `as_command`), or
/// hookrun's own answer where it was not evaluated (no place in the queue,
/// the server stopped its hooks, past the time bound).
async fn evaluated(
    shared: &Shared,
    config: Arc<Config>,
    run: RunArgs,
    found_none: bool,
    request: Request<'_>,
) -> Rendered {
    let Request {
        label,
        body,
        as_command,
        parent,
    } = request;
    let closed = crate::session::own_errors_block(&run, config.any_closed);
    let unserved = |kind: &str, why: String| {
        shared.metrics.error(kind);
        let e = Error::Unserved(why).closed_if(closed);
        crate::session::unevaluated_answer(body, &e, run.event.as_deref(), run.dialect)
    };
    let Some(place) = shared.places.take().await else {
        return unserved(
            "overloaded",
            format!(
                "the server is overloaded ({} events under way and {} waiting)",
                shared.places.max_in_flight, shared.places.max_waiting
            ),
        );
    };
    let bound = time_bound(&config);
    let in_flight = shared.metrics.started();
    let started = std::time::Instant::now();
    let line = Line::Complete(body.to_vec());
    let tracing = shared
        .metrics
        .export()
        .map(|export| super::evaluate::Tracing { export, parent });
    let evaluation = super::evaluate::on_thread(
        config,
        run.clone(),
        shared.depth,
        line,
        found_none,
        (place, tracing),
    );
    let outcome = tokio::time::timeout(bound, evaluation).await;
    let took = started.elapsed();
    drop(in_flight);
    match outcome {
        Ok(Ok((evaluated, mut answer))) => {
            match &evaluated {
                Some(e) => {
                    shared.metrics.evaluated(label, e, took);
                    if !as_command {
                        answer.stdout = crate::dialect::protocol(e.dialect)
                            .http_body(&e.event, std::mem::take(&mut answer.stdout));
                    }
                }
                None => shared.metrics.error("not_evaluated"),
            }
            answer
        }
        Ok(Err(Error::Interrupted { name, .. })) => unserved(
            "stopped",
            format!("the server was stopped ({name}) before the event's hooks finished"),
        ),
        Ok(Err(e)) => {
            shared
                .metrics
                .error(&format!("{:?}", e.kind()).to_lowercase());
            crate::output::error_answer(&e)
        }
        Err(_) => unserved(
            "time_bound",
            format!(
                "no decision within {} s, the sum of the hooks' timeouts and a margin",
                bound.as_secs_f64()
            ),
        ),
    }
}

/// The longest an event of `config` can take when nothing goes wrong: every
/// hook at its timeout one after the other, plus [`BOUND_MARGIN`].
fn time_bound(config: &Config) -> Duration {
    config
        .hooks
        .iter()
        .map(|h| {
            h.timeout.unwrap_or_else(|| {
                h.events
                    .iter()
                    .map(|e| crate::events::default_timeout(e))
                    .max()
                    .unwrap_or_default()
            })
        })
        .fold(BOUND_MARGIN, Duration::saturating_add)
}

/// `GET /metrics`, behind the token like every other request.
async fn metrics(State(shared): State<Arc<Shared>>, headers: HeaderMap) -> Response {
    if !authorised(&shared, &headers) {
        shared.metrics.error("unauthorized");
        return (StatusCode::UNAUTHORIZED, "a bearer token is required\n").into_response();
    }
    let mut response = shared.metrics.text().into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/openmetrics-text; version=1.0.0; charset=utf-8"),
    );
    response
}
