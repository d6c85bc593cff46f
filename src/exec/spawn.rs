//! Building a hook's command, naming why it could not start, and starting
//! an async hook that hookrun never waits for.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use tokio::process::Command;

use crate::os;

/// What to run.
#[derive(Debug, Clone)]
pub(crate) enum Program {
    Shell(String),
    Exec { program: String, args: Vec<String> },
}

/// Everything needed to run one hook.
#[derive(Debug, Clone)]
pub(crate) struct ExecSpec {
    pub program: Program,
    /// What the hook reads on stdin.
    pub input: Arc<Vec<u8>>,
    pub cwd: PathBuf,
    pub env: Vec<(String, String)>,
    /// Start from an empty environment (`env` is then all the hook gets).
    pub clear_env: bool,
    pub timeout: Duration,
}

pub(super) fn command_for(spec: &ExecSpec) -> Command {
    let mut cmd = match &spec.program {
        Program::Shell(line) => {
            let mut c = Command::new("/bin/sh");
            c.arg("-c").arg(line);
            c
        }
        Program::Exec { program, args } => {
            let mut c = Command::new(program);
            c.args(args);
            c
        }
    };
    if spec.clear_env {
        cmd.env_clear();
    }
    cmd.current_dir(&spec.cwd)
        .envs(spec.env.iter().map(|(k, v)| (k, v)));
    cmd
}

pub(super) fn spawn_error(spec: &ExecSpec, e: &std::io::Error) -> String {
    let what = match &spec.program {
        Program::Shell(_) => "/bin/sh".to_owned(),
        Program::Exec { program, .. } => format!("`{program}`"),
    };
    match e.kind() {
        std::io::ErrorKind::NotFound if matches!(spec.program, Program::Exec { .. }) => {
            format!("executable {what} not found in $PATH")
        }
        std::io::ErrorKind::PermissionDenied => format!("{what} is not executable"),
        _ => {
            if !spec.cwd.is_dir() {
                format!(
                    "cannot start {what}: working directory `{}` is gone ({e})",
                    spec.cwd.display()
                )
            } else {
                format!("cannot start {what}: {e}")
            }
        }
    }
}

/// Starts an async hook: detached in its own group, its stdin an anonymous
/// file holding the event (so hookrun need not wait to write it), its output
/// discarded, never killed by hookrun and never waited for: the child is
/// kept in [`STARTED_ASYNC`] so that [`reap_async`] can collect it once it
/// has ended.
///
/// # Errors
/// The spawn failure, as a message.
pub(crate) fn spawn_async(spec: &ExecSpec, input: &[u8]) -> Result<u32, String> {
    use std::io::{Seek, Write};
    let mut file = tempfile::tempfile()
        .map_err(|e| format!("cannot buffer the event for an async hook: {e}"))?;
    file.write_all(input)
        .and_then(|()| file.rewind())
        .map_err(|e| format!("cannot buffer the event for an async hook: {e}"))?;
    let mut cmd = std::process::Command::new("/bin/sh");
    match &spec.program {
        Program::Shell(line) => {
            cmd.arg("-c").arg(line);
        }
        Program::Exec { program, args } => {
            cmd = std::process::Command::new(program);
            cmd.args(args);
        }
    }
    if spec.clear_env {
        cmd.env_clear();
    }
    cmd.current_dir(&spec.cwd)
        .envs(spec.env.iter().map(|(k, v)| (k, v)))
        .stdin(file)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    os::new_group(&mut cmd);
    let child = cmd.spawn().map_err(|e| spawn_error(spec, &e))?;
    let pid = child.id();
    STARTED_ASYNC
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .push(child);
    Ok(pid)
}

/// The async hooks started by this process that have not been seen to end.
/// An ended child stays a zombie, holding a process slot, until its parent
/// waits for it: `run` exits right after, and its zombies go to init, but a
/// long `serve` would fill the process table.
static STARTED_ASYNC: std::sync::Mutex<Vec<std::process::Child>> =
    std::sync::Mutex::new(Vec::new());

/// Collects every async hook that has ended (without waiting for one that
/// still runs), so that none is left a zombie. `serve` calls it after each
/// event and at least once a second while idle.
pub(crate) fn reap_async() {
    STARTED_ASYNC
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        // An error (the child was reaped elsewhere) ends the entry too.
        .retain_mut(|child| matches!(child.try_wait(), Ok(None)));
}
