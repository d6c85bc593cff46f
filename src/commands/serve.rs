//! `hookrun serve --stdio`: many events through one process.
//!
//! Line protocol: each line of stdin is one event (any dialect, as `run`
//! reads it); each event gets one line on stdout, in input order:
//!
//! ```json
//! {"seq":1,"exit_code":2,"stdout":"{\"hookSpecificOutput\":…}","stderr":"…"}
//! ```
//!
//! `stdout`, `stderr` and `exit_code` are exactly what `hookrun run` would
//! print and exit with for that event (a bad line gets exit code 1 and its
//! error, and the stream goes on). The config is loaded once and reloaded
//! when one of its files changes; a broken edit is reported on stderr and
//! the last good config keeps working. EOF on stdin ends the server;
//! SIGINT/SIGTERM end it after killing every running hook.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::SystemTime;

use serde_json::json;
use tokio::io::AsyncBufReadExt;

use crate::cli::ServeArgs;
use crate::config::{self, Config};
use crate::error::{Error, ExitStatus};
use crate::os;
use crate::output;

/// The config and what it was loaded from, reloaded on change.
struct Live {
    config: Arc<Config>,
    stamps: Vec<(PathBuf, Option<SystemTime>)>,
    failed: Option<Vec<(PathBuf, Option<SystemTime>)>>,
}

fn stamps(paths: &[PathBuf]) -> Vec<(PathBuf, Option<SystemTime>)> {
    paths
        .iter()
        .map(|p| {
            (
                p.clone(),
                std::fs::metadata(p).and_then(|m| m.modified()).ok(),
            )
        })
        .collect()
}

impl Live {
    fn reload_if_changed(&mut self, args: &ServeArgs) {
        let paths: Vec<PathBuf> = self.stamps.iter().map(|(p, _)| p.clone()).collect();
        let now = stamps(&paths);
        if now == self.stamps || self.failed.as_ref() == Some(&now) {
            return;
        }
        match super::run::load_config(&args.run) {
            Ok(c) => {
                self.config = Arc::new(c);
                self.stamps = now;
                self.failed = None;
                output::diagnostic("config reloaded");
            }
            Err(e) => {
                output::diagnostic(&format!(
                    "config reload failed, keeping the last good config: {e}"
                ));
                self.failed = Some(now);
            }
        }
    }
}

/// Runs the server; the exit code is 0 at EOF.
///
/// # Errors
/// The first config cannot be loaded, stdin cannot be read, or hookrun was
/// interrupted (130/143).
pub fn execute(args: &ServeArgs) -> Result<ExitStatus, Error> {
    let config = super::run::load_config(&args.run)?;
    let (paths, _) = config::discover(&args.run.configs);
    let live = Live {
        config: Arc::new(config),
        stamps: stamps(&paths),
        failed: None,
    };
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(Error::Runtime)?;
    rt.block_on(serve(args.clone(), live))
}

async fn serve(args: ServeArgs, mut live: Live) -> Result<ExitStatus, Error> {
    let mut lines = tokio::io::BufReader::new(tokio::io::stdin()).lines();
    let Ok(mut termination) = os::Termination::watch_all() else {
        return Err(Error::Internal("cannot watch for signals".into()));
    };
    let mut seq: u64 = 0;
    loop {
        let line = tokio::select! {
            line = lines.next_line() => line,
            interruption = termination.recv() => {
                let (name, signal) = (interruption.name, interruption.number);
                return Err(Error::Interrupted { name, signal });
            }
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
        if line.trim().is_empty() {
            continue;
        }
        seq += 1;
        live.reload_if_changed(&args);
        let config = Arc::clone(&live.config);
        let run = args.run.clone();
        // `evaluate` runs its own small runtime: give it a thread.
        let outcome = tokio::task::spawn_blocking(move || one(&config, &run, &line)).await;
        let reply = match outcome {
            Ok(Ok(r)) => {
                json!({"seq": seq, "exit_code": r.exit_code, "stdout": r.stdout, "stderr": r.stderr.join("\n")})
            }
            Ok(Err(e @ Error::Interrupted { .. })) => return Err(e),
            Ok(Err(e)) => {
                json!({"seq": seq, "exit_code": e.exit_code(), "stdout": "", "stderr": format!("hookrun: error: {e}")})
            }
            Err(e) => {
                json!({"seq": seq, "exit_code": 1, "stdout": "", "stderr": format!("hookrun: error: {e}")})
            }
        };
        output::print(&format!("{reply}\n"));
    }
}

/// One event, as `run` would handle it.
fn one(
    config: &Config,
    args: &crate::cli::RunArgs,
    line: &str,
) -> Result<crate::rendered::Rendered, Error> {
    let started = std::time::Instant::now();
    let raw = line.as_bytes();
    if raw.len() > config.limits.max_event_bytes {
        return Err(Error::Event(format!(
            "the event is larger than the limit of {} bytes",
            config.limits.max_event_bytes
        )));
    }
    let ev = crate::dialect::read_event_as(raw, args.event.as_deref(), args.dialect)?;
    super::run::handle(config, &ev, 0, started).map(|(_, r)| r)
}
