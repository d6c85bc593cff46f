//! `hookrun serve --http ADDR`: events over HTTP, for Claude Code's `http`
//! hooks and for a team's policy server.
//!
//! - `POST /hooks/{dialect}` (`auto`, or a dialect's name), the body an
//!   event as `run` reads it from stdin, `?event=NAME` as `run --event`:
//!   `200`, the body what `run` prints on stdout, and the header
//!   `Hookrun-Exit-Code` the exit code `run` exits with. An event the
//!   server accepted and cannot evaluate (a broken config, a handler it
//!   cannot run) is answered `200` with a block where `run` blocks (the
//!   trust rule, `--on-error` as for `run`): an agent reads an error status
//!   as a failed hook and goes on.
//! - `GET /healthz` (alive), `GET /readyz` (a config is loaded) and
//!   `GET /metrics` (`metrics`).
//! - With `--token-file`, every request needs `Authorization: Bearer
//!   TOKEN` (compared in constant time), else `401`. A bind beyond
//!   loopback without a token is refused unless `--allow-remote`.
//! - A body over `[limits] max_event_bytes` is `413`.
//!
//! `hookrun forward` (`commands::forward`) is this server's command-hook
//! client.
//!
//! Each event is one call of the `serve --stdio` evaluation (`evaluate::one`)
//! on a blocking thread, so that `run`, `serve --stdio` and this server
//! give the same answers; the config is refreshed before each event as
//! `serve --stdio` refreshes it. A config that cannot be read at start
//! ends the server before it listens (exit 1). SIGINT or SIGTERM stops
//! accepting and kills the hooks under way, as `run` does (exit 130/143).

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};

use crate::cli::{RunArgs, ServeArgs};
use crate::error::{Error, ExitStatus};
use crate::event::Line;
use crate::os;

use super::reload;

/// The header that carries the exit code `run` would have used.
const EXIT_CODE_HEADER: &str = "hookrun-exit-code";

/// What every request handler shares.
struct Shared {
    live: tokio::sync::Mutex<reload::Live>,
    metrics: super::metrics::Metrics,
    run: RunArgs,
    token: Option<Vec<u8>>,
    depth: u32,
}

#[derive(Debug, serde::Deserialize)]
struct HookQuery {
    event: Option<String>,
}

/// Serves until interrupted.
///
/// # Errors
/// The address cannot be bound or is refused, the token file cannot be
/// read, or hookrun was interrupted (130/143).
pub(super) async fn serve(
    args: ServeArgs,
    addr: String,
    live: reload::Live,
) -> Result<ExitStatus, Error> {
    // A server that would block every event from its first one is refused
    // before it listens: its operator sees why at start.
    if let Some(broken) = live.config.unreadable.first() {
        return Err(Error::Usage(broken.error.to_string()));
    }
    let token = match &args.token_file {
        Some(path) => Some(
            crate::commands::forward::read_token(path)
                .map_err(Error::Usage)?
                .into_bytes(),
        ),
        None => None,
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
    let cap = live.config.limits.max_event_bytes;
    let shared = Arc::new(Shared {
        live: tokio::sync::Mutex::new(live),
        metrics: super::metrics::Metrics::new(),
        run: args.run.clone(),
        token,
        depth: crate::launch::inherited_depth(),
    });
    let app = axum::Router::new()
        .route("/hooks/{dialect}", post(hook))
        .route("/healthz", get(|| async { "ok\n" }))
        .route("/readyz", get(|| async { "ready\n" }))
        .route("/metrics", get(metrics))
        .layer(DefaultBodyLimit::max(cap))
        .with_state(shared);
    let Ok(mut termination) = os::Termination::watch_all() else {
        return Err(Error::Internal("cannot watch for signals".into()));
    };
    let (stopped, mut why) = tokio::sync::oneshot::channel();
    crate::output::stderr_line(&format!("listening on http://{local}"));
    axum::serve(listener, app)
        .with_graceful_shutdown(async move {
            let _ = stopped.send(termination.recv().await);
        })
        .await
        .map_err(|source| Error::Io {
            what: format!("cannot serve on {local}"),
            source,
        })?;
    match why.try_recv() {
        Ok(i) => Err(Error::Interrupted {
            name: i.name,
            signal: i.number,
        }),
        Err(_) => Ok(0),
    }
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
    body: Bytes,
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
                let names: Vec<String> =
                    <crate::dialect::Dialect as clap::ValueEnum>::value_variants()
                        .iter()
                        .filter_map(clap::ValueEnum::to_possible_value)
                        .map(|p| p.get_name().to_owned())
                        .collect();
                return (
                    StatusCode::NOT_FOUND,
                    format!(
                        "no dialect `{dialect}`: POST /hooks/auto or /hooks/NAME, NAME one of {}\n",
                        names.join(", ")
                    ),
                )
                    .into_response();
            }
        }
    };
    let (config, found_none) = {
        let mut live = shared.live.lock().await;
        live.refresh(&shared.run).await;
        (Arc::clone(&live.config), live.found_none())
    };
    let mut run = shared.run.clone();
    if dialect.is_some() {
        run.dialect = dialect;
    }
    if query.event.is_some() {
        run.event = query.event;
    }
    let in_flight = shared.metrics.started();
    let started = std::time::Instant::now();
    let line = Line::Complete(body.to_vec());
    let outcome = super::evaluate::on_thread(config, run, shared.depth, line, found_none).await;
    let took = started.elapsed();
    drop(in_flight);
    let answer = match outcome {
        Ok((evaluated, r)) => {
            match &evaluated {
                Some(e) => shared.metrics.evaluated(&label, e, took),
                None => shared.metrics.error("not_evaluated"),
            }
            r
        }
        Err(e) => {
            shared
                .metrics
                .error(&format!("{:?}", e.kind()).to_lowercase());
            crate::output::error_answer(&e)
        }
    };
    // What `run` would say on stderr is the operator's to read.
    for line in &answer.stderr {
        crate::output::stderr_line(line);
    }
    let mut response = answer.stdout.into_response();
    let headers = response.headers_mut();
    headers.insert(
        EXIT_CODE_HEADER,
        HeaderValue::from(u16::from(answer.exit_code)),
    );
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
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
