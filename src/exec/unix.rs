//! The only platform code: process groups and signals.
//!
//! Every hook runs as the leader of its own process group (`setpgid(0, 0)`
//! at spawn), so one `killpg` reaches the shell *and* everything it started;
//! killing only the shell would leave `sleep 30 &` running as an orphan.

use std::collections::HashSet;
use std::sync::{Arc, Mutex, PoisonError};

use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;

pub use nix::sys::signal::Signal as Sig;

/// The process groups of hooks that are still running, so that hookrun can
/// kill them all when it is itself interrupted.
#[derive(Debug, Clone, Default)]
pub struct LiveGroups(Arc<Mutex<HashSet<i32>>>);

impl LiveGroups {
    /// Sends `signal` to every live group.
    pub fn signal_all(&self, signal: Signal) {
        let groups = self
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        for pgid in groups {
            send(pgid, signal);
        }
    }

    /// Whether any group is still registered.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .is_empty()
    }

    fn insert(&self, pgid: i32) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(pgid);
    }

    fn remove(&self, pgid: i32) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&pgid);
    }
}

/// Owns one hook's process group while it runs. Dropping an armed guard
/// SIGKILLs the group: the last line of defence if a run is abandoned (an
/// early return, a panic, hookrun's own interruption).
#[derive(Debug)]
pub struct GroupGuard {
    pgid: i32,
    live: LiveGroups,
    armed: bool,
}

impl GroupGuard {
    /// Registers the group led by `pid`.
    #[must_use]
    pub fn new(pid: u32, live: &LiveGroups) -> Self {
        let pgid = i32::try_from(pid).unwrap_or(i32::MAX);
        live.insert(pgid);
        GroupGuard {
            pgid,
            live: live.clone(),
            armed: true,
        }
    }

    /// Signals the whole group; a group that is already gone is fine.
    pub fn signal(&self, signal: Signal) {
        send(self.pgid, signal);
    }

    /// The hook finished and its pipes closed: leave the group alone from
    /// now on, so a properly detached background process (a daemon a
    /// SessionStart hook starts) survives, as under Claude Code.
    pub fn disarm(mut self) {
        self.armed = false;
        self.live.remove(self.pgid);
    }
}

impl Drop for GroupGuard {
    fn drop(&mut self) {
        if self.armed {
            send(self.pgid, Signal::SIGKILL);
            self.live.remove(self.pgid);
        }
    }
}

fn send(pgid: i32, signal: Signal) {
    // ESRCH (the group is gone) is the common, harmless case.
    let _ = killpg(Pid::from_raw(pgid), signal);
}

/// The signal number and name of a wait status, if it ended by a signal.
#[must_use]
pub fn signal_name(signal: i32) -> String {
    Signal::try_from(signal).map_or_else(|_| format!("signal {signal}"), |s| s.as_str().to_owned())
}
