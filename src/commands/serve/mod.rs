//! `hookrun serve --stdio`: many events through one process (and, in
//! `http`, `serve --http`: the same evaluation over HTTP).
//!
//! Line protocol: each line of stdin is one event (any dialect, as `run`
//! reads it); each event gets one line on stdout, in input order:
//!
//! ```json
//! {"seq":1,"exit_code":2,"stdout":"{\"hookSpecificOutput\":…}","stderr":"…"}
//! ```
//!
//! `stdout`, `stderr` and `exit_code` are exactly what `hookrun run` would
//! print and exit with for that event. A bad line (not UTF-8, not JSON, not
//! an object, over `limits.max_event_bytes`) gets `run`'s answer to that
//! event: an error, or a block where a guard fails closed, and an audit
//! line; then the stream goes on. Only EOF on stdin or a signal ends the
//! server (SIGINT, SIGTERM, SIGHUP, ... after killing every running hook), and a stdin
//! that cannot be read at all. Lines are cut while reading
//! (`event::LineSplitter`): an over-long line is dropped as it arrives, so
//! memory stays near the cap (which counts a line without its newline, as
//! `run` does not count an event's final newline). Config reloads and
//! re-discovery: `reload`. Ended async hooks are collected after each event
//! and once a second (`exec::reap_async`).

use std::sync::Arc;

use tokio::io::{AsyncBufRead, AsyncBufReadExt};

use crate::cli::ServeArgs;
use crate::config;
use crate::error::{Error, ExitStatus};
use crate::event::{Line, LineSplitter};
use crate::os;
use crate::output;

mod evaluate;
mod http;
mod metrics;
mod reload;

/// Runs the server; the exit code is 0 at EOF.
///
/// # Errors
/// The first config cannot be loaded, stdin cannot be read, or hookrun was
/// interrupted (130/143).
pub(crate) fn execute(args: &ServeArgs) -> Result<ExitStatus, Error> {
    let config = crate::session::load_config(&args.run)?;
    let paths = config::paths(&config::discover(&args.run.configs));
    let telemetry = telemetry(&config);
    let live = reload::Live::new(config, &paths);
    let rt = crate::os::runtime().map_err(Error::Runtime)?;
    let metrics = metrics::Metrics::new(telemetry.clone());
    let result = match &args.http {
        Some(addr) => rt.block_on(http::serve(args.clone(), addr.clone(), live, metrics)),
        None => rt.block_on(serve(args.clone(), live, metrics)),
    };
    // tokio reads stdin on a blocking thread that returns only when a line
    // or EOF arrives; waiting for it would keep an interrupted server alive
    // until its stdin closed.
    rt.shutdown_background();
    if let Some(t) = telemetry {
        t.shutdown(TELEMETRY_FLUSH);
    }
    result
}

/// How long a server that stops waits at most for its last telemetry.
const TELEMETRY_FLUSH: std::time::Duration = std::time::Duration::from_secs(5);

/// The server's export, when telemetry is configured: read once, from the
/// config the server starts with (a later `[telemetry]` change needs a
/// restart, docs/telemetry.md). What keeps it off is said on stderr, the
/// operator's.
fn telemetry(config: &config::Config) -> Option<crate::telemetry::Server> {
    let settings =
        crate::telemetry::resolve(config.telemetry.as_ref(), &|name| std::env::var(name).ok());
    let started = match settings {
        Ok(None) => return None,
        Ok(Some(s)) => crate::telemetry::Server::start(&s),
        Err(why) => Err(why),
    };
    started
        .map_err(|why| output::diagnostic(&format!("telemetry is off: {why}")))
        .ok()
}

/// How often an idle server collects the async hooks that ended.
const REAP_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

fn interrupted(interruption: os::Interruption) -> Error {
    Error::Interrupted {
        name: interruption.name,
        signal: interruption.number,
    }
}

async fn serve(
    args: ServeArgs,
    mut live: reload::Live,
    metrics: metrics::Metrics,
) -> Result<ExitStatus, Error> {
    let mut input = tokio::io::BufReader::new(tokio::io::stdin());
    let mut splitter = LineSplitter::new(live.config.limits.max_event_bytes);
    let Ok(mut termination) = os::Termination::watch_all() else {
        return Err(Error::Internal("cannot watch for signals".into()));
    };
    let depth = crate::launch::inherited_depth();
    let mut seq: u64 = 0;
    let mut reap = tokio::time::interval(REAP_EVERY);
    loop {
        // `biased`: a signal is acted on before any further line. Reading a
        // line is cancel-safe: what was read stays in `splitter`.
        let line = tokio::select! {
            biased;
            interruption = termination.recv() => return Err(interrupted(interruption)),
            _ = reap.tick() => {
                crate::exec::reap_async();
                continue;
            }
            line = next_line(&mut input, &mut splitter) => line,
        };
        let line = match line {
            Ok(Some(l)) => l,
            Ok(None) => return Ok(0),
            Err(source) => {
                return Err(Error::Io {
                    what: "cannot read stdin".into(),
                    source,
                });
            }
        };
        if matches!(&line, Line::Complete(b) if b.iter().all(u8::is_ascii_whitespace)) {
            continue;
        }
        seq += 1;
        // A signal while a changing config settles ends the server before
        // the event's hooks start.
        tokio::select! {
            biased;
            interruption = termination.recv() => return Err(interrupted(interruption)),
            () = live.refresh(&args.run) => {}
        }
        let config = Arc::clone(&live.config);
        splitter.set_cap(config.limits.max_event_bytes);
        let found_none = live.found_none();
        let tracing = metrics.export().map(|export| evaluate::Tracing {
            export,
            parent: None,
        });
        let in_flight = metrics.started();
        let started = std::time::Instant::now();
        let outcome = evaluate::on_thread(
            config,
            args.run.clone(),
            depth,
            line,
            found_none,
            ((), tracing),
        )
        .await;
        drop(in_flight);
        let label = args.run.dialect.map_or("auto", |d| d.as_str());
        let answer = match outcome {
            Ok((Some(e), r)) => {
                metrics.evaluated(label, &e, started.elapsed());
                r
            }
            Ok((None, r)) => {
                metrics.error("not_evaluated");
                r
            }
            Err(e @ Error::Interrupted { .. }) => return Err(e),
            Err(e) => {
                metrics.error(&format!("{:?}", e.kind()).to_lowercase());
                output::error_answer(&e)
            }
        };
        let mut reply = serde_json::Map::new();
        reply.insert("seq".into(), seq.into());
        reply.extend(crate::server_client::command_answer(&answer));
        output::print(&format!("{}\n", serde_json::Value::Object(reply)));
    }
}

/// The next line of `input`, cut by `splitter`; `None` at EOF.
async fn next_line(
    input: &mut (impl AsyncBufRead + Unpin),
    splitter: &mut LineSplitter,
) -> std::io::Result<Option<Line>> {
    loop {
        let chunk = input.fill_buf().await?;
        if chunk.is_empty() {
            return Ok(splitter.finish());
        }
        let (used, line) = splitter.feed(chunk);
        input.consume(used);
        if line.is_some() {
            return Ok(line);
        }
    }
}
