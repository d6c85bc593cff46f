//! How requests reach `serve --http`'s router: the accept loop, TLS, the
//! read timeouts, the cap on open connections, and the stop.
//!
//! - A client gets `read_timeout` to send a request's headers (hyper's
//!   `header_read_timeout`, for the first request of a connection and for
//!   every one after it) and, over TLS, as long again to finish the
//!   handshake; a slower one is cut off. Its body has its own bound in the
//!   router (`hook`). Each connection is a task of its own: a slow client
//!   holds no worker and delays no one else.
//! - At most [`MAX_CONNECTIONS`] are open at once; more wait in the
//!   listen backlog until one closes.
//! - On a request to stop (SIGTERM, SIGINT, ...): the listener closes, each
//!   connection finishes the request under way and closes, and the events
//!   under way get `grace` to finish. Past it the hooks still running are
//!   stopped as `run` stops them (`exec::stop_on_server`) and their events
//!   are answered with hookrun's own block, for which they get
//!   [`AFTER_GRACE`] more; then the server exits.

use std::sync::Arc;
use std::time::Duration;

use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpListener;
use tokio::sync::watch;

use crate::os::{Interruption, Termination};
use crate::output;

/// The most connections open at once: far more than the events in flight,
/// far fewer than a default file-descriptor limit allows.
pub(super) const MAX_CONNECTIONS: usize = 512;

/// How long, once the grace period is over and the hooks under way are
/// stopped, their events get to send hookrun's own block.
const AFTER_GRACE: Duration = Duration::from_secs(5);

/// How long the accept loop waits after the OS refused a connection (no
/// file descriptor left, say) before it accepts again.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(100);

/// Where and how connections are accepted.
pub(super) struct Listening {
    pub listener: TcpListener,
    pub tls: Option<tokio_rustls::TlsAcceptor>,
    pub read_timeout: Duration,
    pub grace: Duration,
}

/// Serves `app` until a request to stop arrives, then stops as the module
/// says; the request is returned.
pub(super) async fn serve(
    listening: Listening,
    app: axum::Router,
    mut termination: Termination,
    stop: watch::Sender<Option<Interruption>>,
) -> Interruption {
    let Listening {
        listener,
        tls,
        read_timeout,
        grace,
    } = listening;
    let open = Arc::new(tokio::sync::Semaphore::new(MAX_CONNECTIONS));
    let watcher = GracefulShutdown::new();
    let mut refused_before = false;
    let interruption = loop {
        let slot = tokio::select! {
            biased;
            i = termination.recv() => break i,
            slot = Arc::clone(&open).acquire_owned() => slot,
        };
        // The semaphore is never closed; were it, no connection could be
        // served again, and the server waits to be stopped.
        let Ok(slot) = slot else {
            break termination.recv().await;
        };
        let stream = tokio::select! {
            biased;
            i = termination.recv() => break i,
            accepted = listener.accept() => accepted,
        };
        let stream = match stream {
            Ok((stream, _)) => stream,
            Err(e) => {
                // One line per run of refusals, not one per attempt.
                if !refused_before {
                    output::diagnostic(&format!("cannot accept a connection: {e}"));
                }
                refused_before = true;
                tokio::time::sleep(ACCEPT_BACKOFF).await;
                continue;
            }
        };
        refused_before = false;
        let _ = stream.set_nodelay(true);
        let app = app.clone();
        let watcher = watcher.watcher();
        let tls = tls.clone();
        tokio::spawn(async move {
            match tls {
                None => connection(stream, app, read_timeout, watcher).await,
                Some(tls) => {
                    if let Ok(Ok(stream)) =
                        tokio::time::timeout(read_timeout, tls.accept(stream)).await
                    {
                        connection(stream, app, read_timeout, watcher).await;
                    }
                }
            }
            drop(slot);
        });
    };
    drop(listener);
    let closed = watcher.shutdown();
    tokio::pin!(closed);
    if tokio::time::timeout(grace, &mut closed).await.is_err() {
        let _ = stop.send(Some(interruption));
        let _ = tokio::time::timeout(AFTER_GRACE, &mut closed).await;
    }
    interruption
}

/// One connection, HTTP/1.1, until the client closes it, a read times out,
/// or the server stops (after the request under way).
async fn connection<S>(
    stream: S,
    app: axum::Router,
    read_timeout: Duration,
    watcher: hyper_util::server::graceful::Watcher,
) where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let service = hyper_util::service::TowerToHyperService::new(app);
    let served = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(read_timeout)
        .serve_connection(TokioIo::new(stream), service);
    // A client that went away or broke the protocol ends only its own
    // connection; there is no one to tell.
    let _ = watcher.watch(served).await;
}
