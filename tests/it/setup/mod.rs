//! `init`, `install`, `config show` and `${HOOKRUN_CONFIG_DIR}`: the
//! commands that set hookrun up, run as a user would, each test with its
//! own temporary HOME and project.

mod config_show;
mod doctor;
mod init;
mod install;
mod install_agents;
mod install_program;
mod installed;
mod once;
mod placeholder;
mod plugin;
mod registrations;
mod server;
mod truth;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use tempfile::TempDir;

use crate::support::{BIN, Out, finish};

/// A temporary HOME and project directory; hookrun runs in the project.
pub(crate) struct Setup {
    pub home: TempDir,
    pub project: TempDir,
    /// Whether the built binary's directory is on PATH.
    pub on_path: bool,
}

impl Setup {
    pub(crate) fn new() -> Self {
        Setup {
            home: tempfile::tempdir().expect("home"),
            project: tempfile::tempdir().expect("project"),
            on_path: false,
        }
    }

    pub(crate) fn on_path(mut self) -> Self {
        self.on_path = true;
        self
    }

    pub(crate) fn home(&self) -> &Path {
        self.home.path()
    }

    pub(crate) fn project(&self) -> &Path {
        self.project.path()
    }

    /// The PATH hookrun and the agent's command see.
    pub(crate) fn path_var(&self) -> String {
        let base = "/usr/local/bin:/usr/bin:/bin";
        if self.on_path {
            let dir = Path::new(BIN).parent().expect("bin dir");
            format!("{}:{base}", dir.display())
        } else {
            base.to_owned()
        }
    }

    /// A command with this HOME, no user config or agent directory from the
    /// real environment, and the project as working directory.
    pub(crate) fn command(&self, program: &str) -> Command {
        let mut cmd = Command::new(program);
        cmd.current_dir(self.project())
            .env("HOME", self.home())
            .env("XDG_CONFIG_HOME", self.home().join(".config"))
            .env("PATH", self.path_var())
            .env_remove("HOOKRUN_CONFIG")
            .env_remove("CLAUDE_PROJECT_DIR")
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("CODEX_HOME")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        cmd
    }

    /// Runs `hookrun ARGS`.
    pub(crate) fn run(&self, args: &[&str]) -> Out {
        let mut cmd = self.command(BIN);
        cmd.args(args);
        finish(cmd.spawn().expect("spawn hookrun"), Instant::now())
    }

    /// Runs a command with these bytes on stdin.
    pub(crate) fn pipe(&self, mut cmd: Command, stdin: &[u8]) -> Out {
        cmd.stdin(Stdio::piped());
        let mut child = cmd.spawn().expect("spawn");
        let mut pipe = child.stdin.take().expect("stdin");
        std::io::Write::write_all(&mut pipe, stdin).expect("write stdin");
        drop(pipe);
        finish(child, Instant::now())
    }

    /// A PreToolUse Bash event in the project.
    pub(crate) fn bash_event(&self, bash: &str) -> Vec<u8> {
        serde_json::json!({
            "session_id": "s1",
            "transcript_path": "",
            "cwd": self.project(),
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": bash},
        })
        .to_string()
        .into_bytes()
    }

    /// Runs `hookrun ARGS` and asserts exit 0.
    pub(crate) fn ok(&self, args: &[&str]) -> Out {
        let out = self.run(args);
        assert_eq!(out.code, 0, "hookrun {args:?}: {out:?}");
        out
    }

    /// The user config directory `install --scope user` reads by default.
    pub(crate) fn user_config_dir(&self) -> PathBuf {
        self.home().join(".config/hookrun")
    }
}

/// A file's bytes, or `None` when it does not exist.
pub(crate) fn bytes(path: &Path) -> Option<Vec<u8>> {
    std::fs::read(path).ok()
}

/// A file parsed as JSON.
pub(crate) fn json(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}
