//! The OS seam on Unix: process groups and signals, `flock`, permission
//! bits, all through `nix` (safe wrappers, so the crate can forbid unsafe
//! code). `mod.rs` documents what each item promises.
//!
//! Every hook runs as the leader of its own process group (`setpgid(0, 0)`
//! at spawn), so one `killpg` reaches the shell *and* everything it started;
//! killing only the shell would leave `sleep 30 &` running as an orphan.

use std::fs::{File, Metadata};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Command, ExitStatus};

use nix::fcntl::{Flock, FlockArg};
use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use tokio::signal::unix::{SignalKind, signal};

pub(super) fn new_group(cmd: &mut Command) {
    cmd.process_group(0);
}

pub(super) fn terminate_group(leader: u32) {
    send(leader, Signal::SIGTERM);
}

pub(super) fn kill_group(leader: u32) {
    send(leader, Signal::SIGKILL);
}

/// Signals the group led by `leader` (its pgid is the leader's pid).
fn send(leader: u32, signal: Signal) {
    let pgid = i32::try_from(leader).unwrap_or(i32::MAX);
    // ESRCH (the group is gone) is the common, harmless case.
    let _ = killpg(Pid::from_raw(pgid), signal);
}

pub(super) fn killed_by(status: &ExitStatus) -> Option<i32> {
    status.signal()
}

pub(super) fn signal_name(signal: i32) -> String {
    Signal::try_from(signal).map_or_else(|_| format!("signal {signal}"), |s| s.as_str().to_owned())
}

/// SIGTERM and SIGINT; `None` for one whose handler could not be installed.
#[derive(Debug)]
pub(super) struct Termination {
    term: Option<tokio::signal::unix::Signal>,
    int: Option<tokio::signal::unix::Signal>,
}

impl Termination {
    pub(super) fn watch_all() -> std::io::Result<Self> {
        let (term, int) = (
            signal(SignalKind::terminate()),
            signal(SignalKind::interrupt()),
        );
        Ok(Termination {
            term: Some(term?),
            int: Some(int?),
        })
    }

    pub(super) fn watch() -> Self {
        Termination {
            term: signal(SignalKind::terminate()).ok(),
            int: signal(SignalKind::interrupt()).ok(),
        }
    }

    /// The name and number of the next signal received.
    pub(super) async fn recv(&mut self) -> (&'static str, i32) {
        tokio::select! {
            () = recv(&mut self.term) => ("SIGTERM", Signal::SIGTERM as i32),
            () = recv(&mut self.int) => ("SIGINT", Signal::SIGINT as i32),
        }
    }
}

async fn recv(sig: &mut Option<tokio::signal::unix::Signal>) {
    match sig {
        Some(s) => {
            s.recv().await;
        }
        None => std::future::pending().await,
    }
}

pub(super) type LockedFile = Flock<File>;
pub(super) type LockError = nix::errno::Errno;

/// `flock(LOCK_EX)`, which blocks until the lock is free.
pub(super) fn lock_exclusive(file: File) -> Result<LockedFile, LockError> {
    Flock::lock(file, FlockArg::LockExclusive).map_err(|(_, e)| e)
}

/// Any of the owner, group and other execute bits.
pub(super) fn has_execute_permission(meta: &Metadata) -> bool {
    meta.permissions().mode() & 0o111 != 0
}

pub(super) fn wait_stdin_readable(timeout: std::time::Duration) -> std::io::Result<bool> {
    use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
    use std::os::fd::AsFd;

    let stdin = std::io::stdin();
    // Rounded up, so a wait never ends just before the deadline.
    let wait = PollTimeout::try_from(timeout.as_millis() + 1).unwrap_or(PollTimeout::MAX);
    let mut fds = [PollFd::new(stdin.as_fd(), PollFlags::POLLIN)];
    match poll(&mut fds, wait) {
        Ok(0) => Ok(false),
        Ok(_) | Err(nix::errno::Errno::EINTR) => Ok(true),
        Err(e) => Err(e.into()),
    }
}

/// Walks the parent chain through `/proc` (Linux): `pid` counts only when
/// it is an ancestor running the same program as this process (its `comm`),
/// and never init. Elsewhere `None`.
pub(super) fn is_ancestor(pid: u32) -> Option<bool> {
    if !cfg!(target_os = "linux") {
        return None;
    }
    if pid <= 1 {
        return Some(false);
    }
    let comm = |p: &str| std::fs::read_to_string(format!("/proc/{p}/comm")).ok();
    let mut current = std::process::id();
    // A chain longer than this is not a process tree worth trusting.
    for _ in 0..256 {
        let stat = std::fs::read_to_string(format!("/proc/{current}/stat")).ok()?;
        // `pid (comm) state ppid ...`: comm may hold spaces and parentheses.
        let after = &stat[stat.rfind(')')? + 1..];
        let parent: u32 = after.split_whitespace().nth(1)?.parse().ok()?;
        if parent == pid {
            return Some(
                comm(&pid.to_string()).is_some() && comm(&pid.to_string()) == comm("self"),
            );
        }
        if parent <= 1 {
            return Some(false);
        }
        current = parent;
    }
    Some(false)
}
