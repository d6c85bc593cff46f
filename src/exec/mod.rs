//! Running hooks as child processes: the only module that spawns, waits,
//! signals or reads pipes. It reports what happened as data (`HookRun`) and
//! never decides what that means; `answer` and `decision` do. What differs
//! between platforms (process groups, signals) it asks of `crate::os`.
//!
//! Process semantics, per hook:
//! - `/bin/sh -c COMMAND`, or exec form (`args`: no shell), in a new
//!   process group, with the event bytes on stdin, which is then closed
//!   (a hook that never reads stdin is normal: the write just stops);
//! - stdout and stderr read while the hook runs, each kept up to a cap;
//! - on timeout: SIGTERM to the group, SIGKILL once the leader has exited
//!   or 1.5 s later, then reap; the answer is discarded;
//! - after a normal exit, the pipes get `leak_grace` to close; a background
//!   child still holding them then has its group SIGKILLed, and the answer
//!   read so far is used (reported as a leak);
//! - whenever a group is stopped, so is every process that left it (`setsid`,
//!   a double fork, `set -m`) but still holds the hook's stdout or stderr
//!   (`os::OutputPipes`; Linux only);
//! - a group whose leader exited and whose pipes closed is left alone, and so
//!   is a process that left it with its output redirected (a daemon).

mod capture;
mod spawn;
mod streams;

use std::sync::Arc;
use std::time::Duration;

use tokio::io::AsyncWriteExt;
use tokio::time::{Instant, sleep_until};

pub use capture::Captured;
use capture::capture;
pub(crate) use spawn::{ExecSpec, Program, reap_async, spawn_async};
use spawn::{command_for, spawn_error};
use streams::{Streams, kill_until_closed};

use crate::os::{self, GroupGuard, LiveGroups, Stop};

/// How long a timed-out hook gets between SIGTERM and SIGKILL: Claude Code
/// sends SIGTERM, then SIGKILL 1.5 s later.
pub(crate) const KILL_GRACE: Duration = Duration::from_millis(1500);

/// Limits that apply to every hook of a run.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ExecLimits {
    pub max_output_bytes: usize,
    pub leak_grace: Duration,
}

/// How a hook ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunStatus {
    Exited(i32),
    /// Killed by a signal it was not sent by hookrun.
    Signaled(i32),
    /// Ran past its timeout and was killed; its answer is discarded.
    TimedOut,
    /// Could not be started (missing program, not executable, ...).
    SpawnFailed(String),
}

/// The facts of one hook run.
#[derive(Debug, Clone)]
pub struct HookRun {
    pub status: RunStatus,
    pub stdout: Captured,
    pub stderr: Captured,
    /// A background process held the hook's pipes after it exited; its
    /// group was killed after the leak grace.
    pub leaked: bool,
    pub duration: Duration,
    /// When it started (its span's start, `crate::telemetry`).
    pub started: std::time::Instant,
    pub pid: Option<u32>,
    /// A built-in evaluated in-process: no process, so `status` is only the
    /// exit status its answer is read with, not one that happened.
    pub in_process: bool,
}

impl HookRun {
    fn spawn_failed(message: String, started: Instant) -> Self {
        HookRun {
            status: RunStatus::SpawnFailed(message),
            stdout: Captured::default(),
            stderr: Captured::default(),
            leaked: false,
            duration: started.elapsed(),
            started: started.into_std(),
            pid: None,
            in_process: false,
        }
    }
}

/// Runs every spec at once and returns the runs in the order given, with
/// the result of `meanwhile`, which runs once every hook has been started:
/// in-process work (built-in hooks) overlaps the hooks instead of adding
/// to the event's latency.
pub(crate) async fn run_all<T>(
    specs: Vec<ExecSpec>,
    limits: ExecLimits,
    live: &LiveGroups,
    meanwhile: impl FnOnce() -> T,
) -> (Vec<HookRun>, T) {
    let mut set = tokio::task::JoinSet::new();
    let count = specs.len();
    for (i, spec) in specs.into_iter().enumerate() {
        let input = Arc::clone(&spec.input);
        let live = live.clone();
        set.spawn(async move { (i, run_one(spec, input, limits, &live).await) });
    }
    // Let every task run to its first await: each child is spawned by then.
    tokio::task::yield_now().await;
    let extra = meanwhile();
    let mut runs: Vec<Option<HookRun>> = vec![None; count];
    while let Some(joined) = set.join_next().await {
        if let Ok((i, run)) = joined {
            runs[i] = Some(run);
        }
    }
    let runs = runs
        .into_iter()
        .map(|r| {
            r.unwrap_or_else(|| {
                HookRun::spawn_failed("the hook's task ended abnormally".into(), Instant::now())
            })
        })
        .collect();
    (runs, extra)
}

/// Runs one hook to completion, timeout or leak; never fails.
pub(crate) async fn run_one(
    spec: ExecSpec,
    input: Arc<Vec<u8>>,
    limits: ExecLimits,
    live: &LiveGroups,
) -> HookRun {
    let started = Instant::now();
    let mut cmd = command_for(&spec);
    cmd.stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true);
    os::new_group(cmd.as_std_mut());
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => return HookRun::spawn_failed(spawn_error(&spec, &e), started),
    };
    let pid = child.id();
    let pipes = os::OutputPipes::of(child.stdout.as_ref(), child.stderr.as_ref());
    let guard = pid.map(|p| GroupGuard::new(p, pipes, live));
    let writer = child.stdin.take().map(|mut stdin| {
        tokio::spawn(async move {
            // BrokenPipe here means the hook did not read its stdin: normal.
            let _ = stdin.write_all(&input).await;
            let _ = stdin.shutdown().await;
        })
    });
    let (mut out, mut err) = (Captured::default(), Captured::default());
    let cap = limits.max_output_bytes;
    let (stdout, stderr) = (child.stdout.take(), child.stderr.take());
    let mut streams = Streams {
        out: Box::pin(async {
            if let Some(s) = stdout {
                capture(s, cap, &mut out).await;
            }
        }),
        err: Box::pin(async {
            if let Some(s) = stderr {
                capture(s, cap, &mut err).await;
            }
        }),
        out_done: false,
        err_done: false,
    };

    // Phase 1: until the hook exits or its deadline passes.
    let deadline = started + spec.timeout;
    let mut exit = None;
    let mut timed_out = false;
    while exit.is_none() && !timed_out {
        tokio::select! {
            biased;
            status = child.wait() => exit = Some(status),
            () = &mut streams.out, if !streams.out_done => streams.out_done = true,
            () = &mut streams.err, if !streams.err_done => streams.err_done = true,
            () = sleep_until(deadline) => timed_out = true,
        }
    }

    let mut leaked = false;
    let status = if timed_out {
        if let Some(g) = &guard {
            g.signal(Stop::Terminate);
        }
        let grace_end = Instant::now() + KILL_GRACE;
        let _ = tokio::time::timeout_at(grace_end, async {
            let _ = child.wait().await;
        })
        .await;
        if let Some(g) = &guard {
            g.signal(Stop::Kill);
        }
        let _ = child.wait().await;
        kill_until_closed(guard.as_ref(), &mut streams).await;
        RunStatus::TimedOut
    } else {
        // Phase 2: the hook exited; its pipes get `leak_grace` to close.
        if !streams.until(Instant::now() + limits.leak_grace).await {
            leaked = true;
            if let Some(g) = &guard {
                g.signal(Stop::Kill);
            }
            kill_until_closed(guard.as_ref(), &mut streams).await;
        }
        match exit {
            Some(Ok(st)) => exit_status(st),
            Some(Err(e)) => RunStatus::SpawnFailed(format!("cannot wait for the hook: {e}")),
            None => RunStatus::SpawnFailed("the hook's status was lost".into()),
        }
    };
    let clean = streams.done() && !leaked && !timed_out;
    drop(streams);
    if let Some(w) = writer {
        w.abort();
    }
    if let Some(g) = guard
        && clean
    {
        g.disarm();
    }
    HookRun {
        status,
        stdout: out,
        stderr: err,
        leaked,
        duration: started.elapsed(),
        started: started.into_std(),
        pid,
        in_process: false,
    }
}

fn exit_status(status: std::process::ExitStatus) -> RunStatus {
    match (status.code(), os::killed_by(&status)) {
        (Some(code), _) => RunStatus::Exited(code),
        (None, Some(sig)) => RunStatus::Signaled(sig),
        (None, None) => RunStatus::Exited(1),
    }
}

/// Who stops the hooks under way early, when the process is not `serve
/// --http`: the signals that would end hookrun, at once. A server sets its
/// own word instead ([`stop_on_server`]): it lets the events under way
/// finish when asked to stop, and stops their hooks only once its grace
/// period is over.
static SERVER_STOP: std::sync::OnceLock<tokio::sync::watch::Receiver<Option<os::Interruption>>> =
    std::sync::OnceLock::new();

/// From now on, the hooks of every event stop when `stop` says why (the
/// signal the server was asked to stop by), not on the signal itself. Set
/// once, by `serve --http` before its first event; a second call is ignored.
pub(crate) fn stop_on_server(stop: tokio::sync::watch::Receiver<Option<os::Interruption>>) {
    let _ = SERVER_STOP.set(stop);
}

/// The request to stop the hooks under way: the server's word where
/// [`stop_on_server`] set one, else the next signal that would end hookrun.
async fn stopped() -> os::Interruption {
    if let Some(stop) = SERVER_STOP.get() {
        let mut stop = stop.clone();
        // A server that is gone can no longer ask: only its word stops.
        if let Ok(why) = stop.wait_for(Option::is_some).await
            && let Some(interruption) = *why
        {
            return interruption;
        }
        return std::future::pending().await;
    }
    os::Termination::watch().recv().await
}

/// Runs commands at once to completion or timeout from synchronous code,
/// in a runtime of its own that also watches for every signal that would
/// end hookrun (`os::Termination`): on one, every group still running is
/// stopped before hookrun exits. The runs come back in the order given;
/// for `doctor`'s probes and canaries, which run outside an event but with
/// the same process-tree guarantees as a hook.
///
/// # Errors
/// The runtime cannot start, or hookrun was interrupted.
pub(crate) fn run_blocking(
    specs: Vec<ExecSpec>,
    limits: ExecLimits,
) -> Result<Vec<HookRun>, crate::error::Error> {
    run_blocking_with(specs, limits, || ()).map(|(runs, ())| runs)
}

/// [`run_blocking`] with in-process work (`meanwhile`, see [`run_all`]) done
/// once every command has started: the pipeline's one way to run an
/// event's hooks. Without commands no runtime is built and `meanwhile`
/// just runs.
///
/// # Errors
/// The runtime cannot start, or hookrun was interrupted (every running
/// group is then terminated, then killed).
pub(crate) fn run_blocking_with<T>(
    specs: Vec<ExecSpec>,
    limits: ExecLimits,
    meanwhile: impl FnOnce() -> T,
) -> Result<(Vec<HookRun>, T), crate::error::Error> {
    if specs.is_empty() {
        return Ok((Vec::new(), meanwhile()));
    }
    let rt = os::runtime().map_err(crate::error::Error::Runtime)?;
    let live = LiveGroups::default();
    let outcome = rt.block_on(async {
        tokio::select! {
            done = run_all(specs, limits, &live, meanwhile) => Ok(done),
            interruption = stopped() => Err(interruption),
        }
    });
    outcome.map_err(|interruption| {
        // TERM first so that a hook may clean up; the groups that ignore
        // it are killed a moment later.
        live.signal_all(Stop::Terminate);
        std::thread::sleep(Duration::from_millis(100));
        live.signal_all(Stop::Kill);
        crate::error::Error::Interrupted {
            name: interruption.name,
            signal: interruption.number,
        }
    })
}
