//! The OS seam: everything hookrun needs from the operating system beyond
//! portable `std` and tokio, behind one platform-neutral API.
//!
//! This file says what each item promises; `unix.rs` keeps those promises on
//! Unix (through `nix`, without unsafe code) and is the only platform code in
//! the crate. Another platform is one more file beside it that provides the
//! same `pub(super)` functions and types, selected below.
//!
//! - process groups: a hook starts as the leader of a new group
//!   ([`new_group`]) so that one call stops the hook and everything it
//!   started ([`GroupGuard`], [`LiveGroups`]), together with whatever left
//!   the group but still holds the hook's output ([`OutputPipes`]);
//! - how a child ended ([`killed_by`], [`signal_name`]);
//! - requests that hookrun itself stop ([`Termination`]), and surviving the
//!   file-size limit ([`with_file_size_errors`]);
//! - an exclusive advisory lock on a file, waited for a bounded time
//!   ([`lock_exclusive_within`]);
//! - whether a file can be executed ([`is_executable`]), and whether two
//!   names are one file ([`same_file`]);
//! - waiting, without a thread, until stdin has bytes or is closed
//!   ([`wait_stdin_readable`]);
//! - whether a process is one of hookrun's ancestors ([`is_ancestor`]),
//!   and which process started it ([`parent_pid`]);
//! - a thread with a stack sized for the deepest event hookrun reads
//!   ([`on_event_stack`], [`EVENT_STACK`]).

#[cfg(unix)]
#[path = "unix.rs"]
mod imp;

/// What only Linux's `/proc` can tell: which processes hold a given pipe.
#[cfg(unix)]
#[path = "procfs.rs"]
mod procfs;

/// The stack of every thread that handles an event (reads, evaluates,
/// renders and drops it): serde_json, the guards' walks and the recursive
/// drop of a `serde_json::Value` each take stack for every level of nesting,
/// several hundred bytes in a debug build, so the deepest event hookrun
/// reads (5 000 levels) needs a few MiB. This gives it over 50 KiB a level.
/// Only the pages a thread touches are ever committed.
pub(crate) const EVENT_STACK: usize = 256 * 1024 * 1024;

/// Runs `work` on a thread with [`EVENT_STACK`] bytes of stack and returns
/// its result; `work` gets the stack it has. Where that thread cannot be
/// created (a thread or memory limit), `work` runs on the calling thread
/// and gets `here`, that thread's stack ([`main_stack`],
/// [`BLOCKING_STACK`]), so that it can refuse what would not fit in it. A
/// panic in `work` continues in the caller, as if `work` had run there.
pub(crate) fn on_event_stack<T: Send>(here: usize, work: impl FnOnce(usize) -> T + Send) -> T {
    let mut work = Some(work);
    let spawned = std::thread::scope(|scope| {
        let started = std::thread::Builder::new()
            .stack_size(EVENT_STACK)
            .spawn_scoped(scope, || work.take().map(|w| w(EVENT_STACK)));
        started.ok().map(|thread| thread.join())
    });
    match (spawned, work) {
        (Some(Ok(Some(done))), _) => done,
        (Some(Err(panic)), _) => std::panic::resume_unwind(panic),
        (_, Some(work)) => work(here),
        (_, None) => unreachable!("the thread ran `work` and returned its result"),
    }
}

/// The stack of the runtime's blocking threads (tokio's default, made
/// explicit so that [`on_event_stack`] knows what it falls back to there).
/// They read stdin and start event threads: most need little stack, and a
/// large one would fail to be reserved under a low `ulimit -v`.
pub(crate) const BLOCKING_STACK: usize = 2 * 1024 * 1024;

/// The stack of the main thread: its `RLIMIT_STACK` ([`EVENT_STACK`] when
/// unlimited).
#[must_use]
pub(crate) fn main_stack() -> usize {
    imp::stack_limit().unwrap_or(EVENT_STACK)
}

/// A current-thread tokio runtime with IO, time and signals, whose blocking
/// threads get [`BLOCKING_STACK`], or the error that kept it from starting. tokio sets up its signal registry (a socket
/// pair) while building the runtime and panics when it cannot, as under a low
/// `ulimit -n`: a pair made first, and the build kept from unwinding, turn
/// that into an error hookrun reports like any other.
pub(crate) fn runtime() -> std::io::Result<tokio::runtime::Runtime> {
    drop(std::os::unix::net::UnixStream::pair()?);
    // The panic is reported as the error, not printed by the default hook.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let built = std::panic::catch_unwind(|| {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .thread_stack_size(BLOCKING_STACK)
            .build()
    });
    std::panic::set_hook(hook);
    built.unwrap_or_else(|payload| {
        let why = payload
            .downcast_ref::<String>()
            .map_or("cannot set up signal handling", String::as_str);
        Err(std::io::Error::other(why.to_owned()))
    })
}

#[cfg(not(unix))]
compile_error!(
    "hookrun supports Unix only for now: src/os/ has no implementation for this target \
     (a new platform is one file beside src/os/unix.rs)"
);

use std::collections::HashMap;
use std::fs::{File, Metadata};
use std::ops::{Deref, DerefMut};
use std::process::{Command, ExitStatus};
use std::sync::{Arc, Mutex, PoisonError};

/// How to stop a process group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stop {
    /// Ask every process to end (SIGTERM): it may clean up first.
    Terminate,
    /// End every process at once (SIGKILL): it cannot be caught or ignored.
    Kill,
}

/// Makes the child that `cmd` spawns the leader of a new process group, so
/// that its group can later be stopped as a whole, grandchildren included:
/// `sh -c` makes the shell the direct child, and stopping only the shell
/// would leave `sleep 30 &` running as an orphan. The group is also out of
/// reach of the terminal's Ctrl-C, which is why hookrun forwards its own
/// [`Termination`] to the groups it started.
pub(crate) fn new_group(cmd: &mut Command) {
    imp::new_group(cmd);
}

/// A hook's stdout and stderr pipes, by identity, so that a process holding
/// them can be found after it left the hook's process group (`setsid`, a
/// double fork, `set -m` job control): such a process would otherwise
/// survive every stop of the group. Finding the holders needs Linux's
/// `/proc`; elsewhere none are found (docs/processes.md).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct OutputPipes(Vec<u64>);

impl OutputPipes {
    /// The identities of the pipes behind the hook's stdout and stderr, as
    /// hookrun holds their read ends.
    #[must_use]
    pub(crate) fn of(
        stdout: Option<&tokio::process::ChildStdout>,
        stderr: Option<&tokio::process::ChildStderr>,
    ) -> Self {
        let out = stdout.and_then(imp::pipe_id);
        let err = stderr.and_then(imp::pipe_id);
        OutputPipes(out.into_iter().chain(err).collect())
    }
}

/// The process groups of hooks that are still running, with their output
/// pipes, so that hookrun can stop them all when it is itself interrupted.
#[derive(Debug, Clone, Default)]
pub(crate) struct LiveGroups(Arc<Mutex<HashMap<u32, OutputPipes>>>);

impl LiveGroups {
    /// Stops every live group; a group that is already gone is fine.
    pub(crate) fn signal_all(&self, stop: Stop) {
        let groups = self
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        for (leader, pipes) in groups {
            stop_group(leader, &pipes, stop);
        }
    }

    fn insert(&self, leader: u32, pipes: OutputPipes) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(leader, pipes);
    }

    fn remove(&self, leader: u32) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&leader);
    }
}

/// Owns one hook's process group while it runs. Dropping an armed guard
/// kills the group (and whatever holds the hook's output): the last line
/// of defence if a run is abandoned (an early return, a panic, hookrun's
/// own interruption).
#[derive(Debug)]
pub(crate) struct GroupGuard {
    leader: u32,
    pipes: OutputPipes,
    live: LiveGroups,
    armed: bool,
}

impl GroupGuard {
    /// Registers the group led by `pid`, a child spawned after
    /// [`new_group`], whose output goes through `pipes`.
    #[must_use]
    pub(crate) fn new(pid: u32, pipes: OutputPipes, live: &LiveGroups) -> Self {
        live.insert(pid, pipes.clone());
        GroupGuard {
            leader: pid,
            pipes,
            live: live.clone(),
            armed: true,
        }
    }

    /// Stops the whole group, and every process that left it but still
    /// holds the hook's output; a group that is already gone is fine.
    pub(crate) fn signal(&self, stop: Stop) {
        stop_group(self.leader, &self.pipes, stop);
    }

    /// The hook finished and its pipes closed: leave the group alone from
    /// now on, so a properly detached background process (a daemon a
    /// SessionStart hook starts) survives, as under Claude Code.
    pub(crate) fn disarm(mut self) {
        self.armed = false;
        self.live.remove(self.leader);
    }
}

impl Drop for GroupGuard {
    fn drop(&mut self) {
        if self.armed {
            stop_group(self.leader, &self.pipes, Stop::Kill);
            self.live.remove(self.leader);
        }
    }
}

/// Stops the group led by `leader` and the processes holding `pipes`; a
/// group that is already gone is fine. Only a timeout, a leak, hookrun's
/// interruption or an abandoned run stop a group; a hook that ends cleanly
/// costs no search for holders.
fn stop_group(leader: u32, pipes: &OutputPipes, stop: Stop) {
    match stop {
        Stop::Terminate => imp::terminate_group(leader, &pipes.0),
        Stop::Kill => imp::kill_group(leader, &pipes.0),
    }
}

/// The number of the signal that ended a child, if a signal did (`None`
/// for a child that exited, and on platforms without signals).
#[must_use]
pub(crate) fn killed_by(status: &ExitStatus) -> Option<i32> {
    imp::killed_by(status)
}

/// The name of signal number `signal` (`SIGKILL`), or `signal N` for a
/// number the platform does not know; reports and dialects show it.
#[must_use]
pub(crate) fn signal_name(signal: i32) -> String {
    imp::signal_name(signal)
}

/// A request, from outside, that hookrun itself stop: its name and number
/// as a signal (`SIGTERM`, 15), which make the message and the exit code
/// (128 + number).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Interruption {
    pub name: &'static str,
    pub number: i32,
}

/// The requests that hookrun itself stop, as one stream: on Unix every
/// signal sent from outside whose default action would end hookrun (SIGINT,
/// SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, ...; the list and
/// what is left out are in `unix.rs` and docs/processes.md), except one
/// hookrun was started with ignored (`nohup`), which stays ignored. Create
/// it inside the tokio runtime (with its signal driver enabled); from then
/// on these requests no longer end hookrun by default, so the owner must
/// act on what [`Termination::recv`] returns: stop the hooks, then exit
/// 128 + the signal's number. Hooks still start with the default actions.
#[derive(Debug)]
pub(crate) struct Termination(imp::Termination);

impl Termination {
    /// Watches for every kind of request.
    ///
    /// # Errors
    /// One of them cannot be watched (no runtime, or the OS refused).
    pub(crate) fn watch_all() -> std::io::Result<Self> {
        imp::Termination::watch_all().map(Termination)
    }

    /// Watches for the kinds of request that can be watched; one that
    /// cannot is never received (hooks then still run to their timeouts).
    #[must_use]
    pub(crate) fn watch() -> Self {
        Termination(imp::Termination::watch())
    }

    /// Waits for the next request. Cancel-safe: a request that arrives while
    /// no one waits is kept for the next call, so it can sit in a `select!`.
    pub(crate) async fn recv(&mut self) -> Interruption {
        let (name, number) = self.0.recv().await;
        Interruption { name, number }
    }
}

/// Runs `write` so that going past the file-size limit (`ulimit -f`) fails
/// with an error (`EFBIG`) instead of ending hookrun by a signal (SIGXFSZ
/// on Unix) before it prints a decision it has made: the audit line that
/// could not be written is then reported, and blocks under
/// `fail_mode = "closed"`. Only `write` is covered, on the calling thread:
/// hooks still die of the signal, as anywhere else.
pub(crate) fn with_file_size_errors<T>(write: impl FnOnce() -> T) -> T {
    imp::with_file_size_signal_blocked(write)
}

/// A file held under an exclusive advisory lock, released when dropped. It
/// reads and writes as the file itself.
#[derive(Debug)]
pub(crate) struct LockedFile(imp::LockedFile);

impl Deref for LockedFile {
    type Target = File;

    fn deref(&self) -> &File {
        &self.0
    }
}

impl DerefMut for LockedFile {
    fn deref_mut(&mut self) -> &mut File {
        &mut self.0
    }
}

/// Why a file could not be locked, as the platform words it.
#[derive(Debug)]
pub(crate) struct LockError(imp::LockError);

impl std::fmt::Display for LockError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for LockError {}

/// Takes an exclusive advisory lock on `file`, waiting at most `within`
/// while another process holds one: a process that keeps the lock (a
/// stuck writer, a `flock FILE sleep` left running) must not hang hookrun
/// before it prints its decision. `Ok(Err(file))` gives the file back
/// when the lock was still held at the end. Advisory: it excludes only
/// other lockers, which is what keeps concurrent appenders to one log in
/// order.
///
/// # Errors
/// The lock cannot be taken (the file system does not support locks, ...).
pub(crate) fn lock_exclusive_within(
    file: File,
    within: std::time::Duration,
) -> Result<Result<LockedFile, File>, LockError> {
    imp::lock_exclusive_within(file, within)
        .map(|r| r.map(LockedFile))
        .map_err(LockError)
}

/// Whether a file with this metadata can be executed by someone: a
/// directory or a file without any execute permission makes a hook that
/// runs it directly fail (exit 126 from the shell).
#[must_use]
pub(crate) fn is_executable(meta: &Metadata) -> bool {
    !meta.is_dir() && imp::has_execute_permission(meta)
}

/// The first executable file named `program` in the directories of
/// `path_var`, as a shell looks it up (an empty entry is the working
/// directory).
#[must_use]
pub(crate) fn find_on_path(
    program: &str,
    path_var: Option<&std::ffi::OsStr>,
) -> Option<std::path::PathBuf> {
    std::env::split_paths(path_var?)
        .map(|dir| {
            if dir.as_os_str().is_empty() {
                std::path::PathBuf::from(".").join(program)
            } else {
                dir.join(program)
            }
        })
        .find(|p| std::fs::metadata(p).is_ok_and(|m| is_executable(&m)))
}

/// Whether two files' metadata describe the same file: two hard links to
/// it, say, which no comparison of paths can tell.
#[must_use]
pub(crate) fn same_file(a: &Metadata, b: &Metadata) -> bool {
    imp::same_file(a, b)
}

/// Waits on the calling thread until stdin can be read without blocking
/// (bytes have arrived, or the writer closed it), for at most `timeout`.
/// Returns `false` when the time ran out. Bounding a read of stdin this way
/// costs no thread (its stack, guard page and signal stack were a measurable
/// share of one `hookrun run`). A signal that interrupts the wait ends it
/// early with `true`; the caller's read then decides.
///
/// # Errors
/// The wait itself failed (stdin is not a valid descriptor, ...).
pub(crate) fn wait_stdin_readable(timeout: std::time::Duration) -> std::io::Result<bool> {
    imp::wait_stdin_readable(timeout)
}

/// Whether `pid` is an ancestor of this process (its parent, the parent's
/// parent, ...) running the same program; `None` where the platform cannot
/// tell. Self-recursion
/// detection uses it to trust only a nesting depth set by a real enclosing
/// hookrun, not one inherited from a project's environment settings.
#[must_use]
pub(crate) fn is_ancestor(pid: u32) -> Option<bool> {
    imp::is_ancestor(pid)
}

/// This machine's host name (telemetry's `host.name`); `None` where it
/// cannot be read.
#[must_use]
pub(crate) fn host_name() -> Option<String> {
    imp::host_name()
}

/// The pid of the process that started this one (its parent); `None` where
/// the platform has no such notion. `install` uses it to trust a note from
/// npm's launcher only in the process that launcher started itself.
#[must_use]
pub(crate) fn parent_pid() -> Option<u32> {
    imp::parent_pid()
}
