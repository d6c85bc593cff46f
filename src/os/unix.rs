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
use nix::sys::signal::{SigSet, SigmaskHow, Signal, kill, killpg};
use nix::unistd::Pid;
use tokio::signal::unix::{SignalKind, signal};

pub(super) fn new_group(cmd: &mut Command) {
    cmd.process_group(0);
}

pub(super) fn terminate_group(leader: u32, pipes: &[u64]) {
    send(leader, pipes, Signal::SIGTERM);
}

pub(super) fn kill_group(leader: u32, pipes: &[u64]) {
    send(leader, pipes, Signal::SIGKILL);
}

/// Signals the group led by `leader` (its pgid is the leader's pid), then
/// every process that holds one of `pipes` (by inode) from outside it.
fn send(leader: u32, pipes: &[u64], signal: Signal) {
    let pgid = i32::try_from(leader).unwrap_or(i32::MAX);
    // ESRCH (the group is gone) is the common, harmless case.
    let _ = killpg(Pid::from_raw(pgid), signal);
    for pid in super::procfs::pipe_holders(pipes) {
        // A holder of another user (a setuid program) is out of reach.
        let _ = kill(Pid::from_raw(pid), signal);
    }
}

/// The inode of the pipe behind `fd`: what `/proc/PID/fd/N` names as
/// `pipe:[INODE]` in every process holding either end.
// `ino_t` is 32 bits wide on some targets: the conversion is not useless there.
#[allow(clippy::useless_conversion)]
pub(super) fn pipe_id(fd: &impl std::os::fd::AsFd) -> Option<u64> {
    nix::sys::stat::fstat(fd.as_fd())
        .ok()
        .map(|st| u64::from(st.st_ino))
}

pub(super) fn killed_by(status: &ExitStatus) -> Option<i32> {
    status.signal()
}

pub(super) fn signal_name(signal: i32) -> String {
    Signal::try_from(signal).map_or_else(|_| format!("signal {signal}"), |s| s.as_str().to_owned())
}

/// What a signal does to a process that neither catches nor ignores it
/// (POSIX `<signal.h>`, Linux signal(7)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum DefaultAction {
    /// The process ends.
    Terminate,
    /// The process ends and dumps core.
    Core,
    Ignore,
    Stop,
    Continue,
}

/// The default action of `sig`; `None` for a signal this table does not
/// know (a newer one), which is then left alone.
fn default_action(sig: Signal) -> Option<DefaultAction> {
    use DefaultAction::{Continue, Core, Ignore, Stop, Terminate};
    Some(match sig {
        Signal::SIGHUP
        | Signal::SIGINT
        | Signal::SIGKILL
        | Signal::SIGUSR1
        | Signal::SIGUSR2
        | Signal::SIGPIPE
        | Signal::SIGALRM
        | Signal::SIGTERM
        | Signal::SIGVTALRM
        | Signal::SIGPROF
        | Signal::SIGIO => Terminate,
        #[cfg(any(target_os = "linux", target_os = "android"))]
        Signal::SIGSTKFLT | Signal::SIGPWR => Terminate,
        Signal::SIGQUIT
        | Signal::SIGILL
        | Signal::SIGTRAP
        | Signal::SIGABRT
        | Signal::SIGBUS
        | Signal::SIGFPE
        | Signal::SIGSEGV
        | Signal::SIGXCPU
        | Signal::SIGXFSZ
        | Signal::SIGSYS => Core,
        #[cfg(not(any(target_os = "linux", target_os = "android")))]
        Signal::SIGEMT => Core,
        // Discarded by default on the BSDs and macOS (fatal on Linux above).
        #[cfg(not(any(target_os = "linux", target_os = "android")))]
        Signal::SIGINFO => Ignore,
        Signal::SIGCHLD | Signal::SIGURG | Signal::SIGWINCH => Ignore,
        Signal::SIGSTOP | Signal::SIGTSTP | Signal::SIGTTIN | Signal::SIGTTOU => Stop,
        Signal::SIGCONT => Continue,
        #[allow(unreachable_patterns)]
        _ => return None,
    })
}

/// Why a signal whose default action ends the process is still not
/// watched, so that it keeps that action; `None` for one that is watched.
fn left_alone(sig: Signal) -> Option<&'static str> {
    match sig {
        Signal::SIGKILL | Signal::SIGSTOP => Some("cannot be caught"),
        // The CPU raises these on the thread that faulted, and a handler
        // that returns runs the faulting instruction again; Rust's own
        // stack-overflow handler owns SIGSEGV and SIGBUS.
        Signal::SIGSEGV | Signal::SIGBUS | Signal::SIGILL | Signal::SIGFPE => {
            Some("a fault of hookrun's own code: it cannot go on after one")
        }
        Signal::SIGABRT => Some("`abort()`, hookrun's own last resort, must end it at once"),
        Signal::SIGTRAP => {
            Some("a breakpoint or single step of hookrun's own thread, for a debugger")
        }
        // A seccomp filter traps a call it forbids with SIGSYS: returning
        // from a handler would go on as if the call had run.
        Signal::SIGSYS => Some("a system call of hookrun's own that was refused"),
        // Rust's runtime ignores it at start, so that a write to a closed
        // pipe is an `EPIPE` error to handle; watching it would turn every
        // such write into an interruption.
        Signal::SIGPIPE => Some("a write to a closed pipe, an error hookrun handles"),
        _ => None,
    }
}

/// The signals that would end hookrun by default and that come from outside
/// (a terminal, a supervisor, a resource limit), so that hookrun stops its
/// hooks first: every signal whose default action ends the process
/// ([`default_action`]) but those [`left_alone`], and every real-time
/// signal (they all end the process by default). Numbers the platform
/// reserves below `SIGRTMIN` (glibc's threads use two) are not in it.
/// SIGXFSZ is in it: one sent from outside is a request to stop; one that
/// hookrun's own audit write raises is blocked on that thread and
/// discarded ([`with_file_size_signal_blocked`]). Computed once; each
/// entry is the number and its name.
fn watched() -> &'static [(i32, String)] {
    static WATCHED: std::sync::OnceLock<Vec<(i32, String)>> = std::sync::OnceLock::new();
    WATCHED.get_or_init(|| {
        let fatal = Signal::iterator()
            .filter(|&s| {
                matches!(
                    default_action(s),
                    Some(DefaultAction::Terminate | DefaultAction::Core)
                )
            })
            .filter(|&s| left_alone(s).is_none())
            .map(|s| (s as i32, s.as_str().to_owned()));
        fatal.chain(real_time()).collect()
    })
}

/// The real-time signals, `SIGRTMIN` to `SIGRTMAX` (Linux; none
/// elsewhere), named as `kill -l` names them.
fn real_time() -> Vec<(i32, String)> {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        let (min, max) = (nix::libc::SIGRTMIN(), nix::libc::SIGRTMAX());
        (min..=max)
            .map(|n| {
                let name = if n == min {
                    "SIGRTMIN".to_owned()
                } else {
                    format!("SIGRTMIN+{}", n - min)
                };
                (n, name)
            })
            .collect()
    }
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    Vec::new()
}

/// A stream of signal `number`. tokio's signal registry, set up on first
/// use, panics when it cannot make its socket pair (no file descriptor left
/// under a low `ulimit -n`): a pair made first, and the set-up kept from
/// unwinding, turn that into an error hookrun reports like any other.
fn signal_stream(number: i32) -> std::io::Result<tokio::signal::unix::Signal> {
    drop(std::os::unix::net::UnixStream::pair()?);
    std::panic::catch_unwind(|| signal(SignalKind::from_raw(number)))
        .unwrap_or_else(|_| Err(std::io::Error::other("cannot set up signal handling")))
}

/// The watched signals (number and name), each with its stream; a signal
/// whose handler could not be installed has none.
#[derive(Debug)]
pub(super) struct Termination(Vec<(i32, &'static str, tokio::signal::unix::Signal)>);

impl Termination {
    pub(super) fn watch_all() -> std::io::Result<Self> {
        let mut watched = Vec::new();
        for (number, name) in to_watch() {
            watched.push((number, name, signal_stream(number)?));
        }
        Ok(Termination(watched))
    }

    pub(super) fn watch() -> Self {
        Termination(
            to_watch()
                .filter_map(|(number, name)| Some((number, name, signal_stream(number).ok()?)))
                .collect(),
        )
    }

    /// The name and number of the next signal received; never returns when
    /// none is watched.
    pub(super) async fn recv(&mut self) -> (&'static str, i32) {
        std::future::poll_fn(|cx| {
            for (number, name, stream) in &mut self.0 {
                if stream.poll_recv(cx).is_ready() {
                    return std::task::Poll::Ready((*name, *number));
                }
            }
            std::task::Poll::Pending
        })
        .await
    }
}

/// The watched signals but those this process was started with ignored.
fn to_watch() -> impl Iterator<Item = (i32, &'static str)> {
    let ignored = ignored_at_start();
    watched()
        .iter()
        .filter(move |(n, _)| !ignored(*n))
        .map(|(n, name)| (*n, name.as_str()))
}

/// The signals this process was started with ignored (Linux: `SigIgn` in
/// `/proc/self/status`; elsewhere none are known). They stay ignored: under
/// `nohup` a hangup, and for a background job of a non-interactive shell an
/// interrupt, is not meant to reach the program (as for any program that
/// leaves its signals alone). Hooks then inherit the ignored disposition.
fn ignored_at_start() -> impl Fn(i32) -> bool {
    let mask = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            let hex = status.lines().find_map(|l| l.strip_prefix("SigIgn:"))?;
            u64::from_str_radix(hex.trim(), 16).ok()
        })
        .unwrap_or(0);
    move |n| (1..=64).contains(&n) && mask & (1 << (n - 1)) != 0
}

/// Runs `write` with SIGXFSZ blocked in the calling thread: a write past
/// the file-size limit (`ulimit -f`) then fails with `EFBIG`, an error
/// hookrun reports, where the signal's default action would end hookrun
/// before it printed its decision. Blocked rather than ignored, and only
/// around `write`: children inherit both an ignored disposition and the
/// signal mask across `exec` (Rust's spawning resets neither), and a hook
/// must still die of SIGXFSZ as it would anywhere else. A signal the write
/// left pending is discarded before the mask is restored (Linux: read from
/// a `signalfd`); where it cannot be, the thread keeps SIGXFSZ blocked
/// rather than die of it.
pub(super) fn with_file_size_signal_blocked<T>(write: impl FnOnce() -> T) -> T {
    let mut set = SigSet::empty();
    set.add(Signal::SIGXFSZ);
    let before = set.thread_swap_mask(SigmaskHow::SIG_BLOCK);
    let out = write();
    if let Ok(before) = before
        && !before.contains(Signal::SIGXFSZ)
        && discard_pending(&set)
    {
        let _ = set.thread_unblock();
    }
    out
}

/// Takes every pending signal of `set` off this thread; `false` when that
/// cannot be done (no `signalfd` on this platform, or it failed).
#[cfg(any(target_os = "linux", target_os = "android"))]
fn discard_pending(set: &SigSet) -> bool {
    use nix::sys::signalfd::{SfdFlags, SignalFd};
    let Ok(fd) = SignalFd::with_flags(set, SfdFlags::SFD_NONBLOCK | SfdFlags::SFD_CLOEXEC) else {
        return false;
    };
    loop {
        match fd.read_signal() {
            Ok(Some(_)) => {}
            Ok(None) => return true,
            Err(_) => return false,
        }
    }
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn discard_pending(_set: &SigSet) -> bool {
    false
}

pub(super) type LockedFile = Flock<File>;
pub(super) type LockError = nix::errno::Errno;

/// `flock(LOCK_EX | LOCK_NB)` retried every 20 ms until `within` has
/// passed: the file back when another process still holds the lock.
pub(super) fn lock_exclusive_within(
    mut file: File,
    within: std::time::Duration,
) -> Result<Result<LockedFile, File>, LockError> {
    let deadline = std::time::Instant::now() + within;
    loop {
        match Flock::lock(file, FlockArg::LockExclusiveNonblock) {
            Ok(locked) => return Ok(Ok(locked)),
            Err((back, nix::errno::Errno::EWOULDBLOCK)) => file = back,
            Err((_, e)) => return Err(e),
        }
        if std::time::Instant::now() >= deadline {
            return Ok(Err(file));
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
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

/// The same device and inode.
pub(super) fn same_file(a: &Metadata, b: &Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    a.dev() == b.dev() && a.ino() == b.ino()
}

/// `getppid`, which cannot fail.
pub(super) fn host_name() -> Option<String> {
    nix::unistd::gethostname()
        .ok()
        .and_then(|h| h.into_string().ok())
        .filter(|h| !h.is_empty())
}

pub(super) fn parent_pid() -> Option<u32> {
    Some(std::os::unix::process::parent_id())
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

pub(super) fn stack_limit() -> Option<usize> {
    use nix::sys::resource::{RLIM_INFINITY, Resource, getrlimit};
    let (soft, _) = getrlimit(Resource::RLIMIT_STACK).ok()?;
    (soft != RLIM_INFINITY).then(|| usize::try_from(soft).unwrap_or(usize::MAX))
}
