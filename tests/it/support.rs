//! `HookTest`: a temp dir with config files and fixtures, an event, and a
//! run of the built binary bounded against hangs.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tempfile::TempDir;

pub(crate) const BIN: &str = env!("CARGO_BIN_EXE_hookrun");

/// The variables that would turn hookrun's telemetry on from the test
/// runner's own environment: tests that want it set them.
pub(crate) const OTEL_VARS: &[&str] = &[
    "OTEL_EXPORTER_OTLP_ENDPOINT",
    "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
    "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT",
    "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT",
    "OTEL_TRACES_EXPORTER",
    "OTEL_METRICS_EXPORTER",
    "OTEL_LOGS_EXPORTER",
    "OTEL_SDK_DISABLED",
    "TRACEPARENT",
];

/// Generous bound on any single run: a hang fails the test, not the suite.
const HARD_LIMIT: Duration = Duration::from_secs(60);

pub(crate) struct HookTest {
    pub dir: TempDir,
    configs: Vec<PathBuf>,
    args: Vec<String>,
    stdin: Vec<u8>,
    env: Vec<(String, String)>,
}

#[derive(Debug)]
pub(crate) struct Out {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
    pub elapsed: Duration,
}

impl Out {
    pub(crate) fn json(&self) -> Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {:?}", self.stdout))
    }

    pub(crate) fn hso(&self) -> Value {
        self.json()
            .get("hookSpecificOutput")
            .cloned()
            .unwrap_or(Value::Null)
    }

    pub(crate) fn system_message(&self) -> String {
        self.json()
            .get("systemMessage")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned()
    }
}

impl HookTest {
    pub(crate) fn new() -> Self {
        HookTest {
            dir: tempfile::tempdir().expect("tempdir"),
            configs: Vec::new(),
            args: Vec::new(),
            stdin: Vec::new(),
            env: Vec::new(),
        }
    }

    pub(crate) fn path(&self) -> &Path {
        self.dir.path()
    }

    fn subst(&self, text: &str) -> String {
        text.replace("{dir}", &self.path().display().to_string())
    }

    /// Adds a hookrun TOML config layer (`{dir}` is the temp dir).
    pub(crate) fn toml(mut self, text: &str) -> Self {
        let path = self
            .path()
            .join(format!("config-{}.toml", self.configs.len() + 1));
        std::fs::write(&path, self.subst(text)).expect("write config");
        self.configs.push(path);
        self
    }

    /// Adds a Claude Code settings JSON layer.
    pub(crate) fn json(mut self, value: Value) -> Self {
        let path = self
            .path()
            .join(format!("settings-{}.json", self.configs.len() + 1));
        std::fs::write(&path, self.subst(&value.to_string())).expect("write config");
        self.configs.push(path);
        self
    }

    /// Adds a config layer with exactly this text and file name.
    pub(crate) fn raw_config(mut self, name: &str, text: &str) -> Self {
        let path = self.path().join(name);
        std::fs::write(&path, text).expect("write config");
        self.configs.push(path);
        self
    }

    pub(crate) fn file(self, rel: &str, content: &str) -> Self {
        let path = self.path().join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("mkdir");
        }
        std::fs::write(&path, content).expect("write fixture");
        self
    }

    /// The event: common fields (`session_id`, `transcript_path`, `cwd` =
    /// the temp dir) are added where missing.
    pub(crate) fn event(mut self, partial: Value) -> Self {
        let mut ev = json!({
            "session_id": "00000000-0000-4000-8000-000000000000",
            "transcript_path": self.path().join("transcript.jsonl").display().to_string(),
            "cwd": self.path().display().to_string(),
        });
        if let (Some(obj), Some(p)) = (ev.as_object_mut(), partial.as_object()) {
            for (k, v) in p {
                obj.insert(k.clone(), v.clone());
            }
        }
        let mut bytes = serde_json::to_vec(&ev).expect("event");
        bytes.push(b'\n');
        self.stdin = bytes;
        self
    }

    pub(crate) fn pre_tool_use(self, command: &str) -> Self {
        self.event(json!({
            "permission_mode": "default",
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": command, "description": "d"},
            "tool_use_id": "toolu_1",
        }))
    }

    pub(crate) fn stdin(mut self, bytes: &[u8]) -> Self {
        self.stdin = bytes.to_vec();
        self
    }

    pub(crate) fn args(mut self, a: &[&str]) -> Self {
        self.args.extend(a.iter().map(|s| (*s).to_owned()));
        self
    }

    pub(crate) fn arg(mut self, a: &str) -> Self {
        self.args.push(a.to_owned());
        self
    }

    pub(crate) fn command(&self) -> Command {
        let mut cmd = Command::new(BIN);
        cmd.arg("run");
        for c in &self.configs {
            cmd.arg("--config").arg(c);
        }
        cmd.args(&self.args)
            .current_dir(self.path())
            .env("CLAUDE_PROJECT_DIR", self.path())
            // No user config, agent settings or login profile from the real
            // home (Codex runs hooks in a login shell).
            .env("XDG_CONFIG_HOME", self.path().join(".xdg-config"))
            .env("HOME", self.path().join(".home"))
            .env_remove("HOOKRUN_CONFIG")
            .env_remove("HOOKRUN_AUDIT_KEY_FILE")
            .env_remove("HOOKRUN_ON_ERROR")
            .envs(NO_MODEL.iter().map(|(k, v)| (k, v)));
        for var in OTEL_VARS {
            cmd.env_remove(var);
        }
        cmd.envs(self.env.iter().map(|(k, v)| (k, v)));
        cmd
    }

    /// An environment variable for hookrun itself.
    pub(crate) fn env(mut self, key: &str, value: &str) -> Self {
        self.env.push((key.to_owned(), value.to_owned()));
        self
    }

    /// Starts hookrun with the event written to its stdin.
    pub(crate) fn spawn(&self) -> Child {
        self.spawn_with(&self.stdin)
    }

    /// Starts hookrun with these bytes on its stdin instead of the event.
    fn spawn_with(&self, bytes: &[u8]) -> Child {
        let bytes = bytes.to_vec();
        let mut child = self
            .command()
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn hookrun");
        let mut stdin = child.stdin.take().expect("stdin");
        std::thread::spawn(move || {
            let _ = stdin.write_all(&bytes);
        });
        child
    }

    pub(crate) fn run(&self) -> Out {
        let start = Instant::now();
        let child = self.spawn();
        finish(child, start)
    }

    /// Runs hookrun with these bytes on stdin instead of the event.
    pub(crate) fn run_stdin(&self, stdin: &[u8]) -> Out {
        let start = Instant::now();
        finish(self.spawn_with(stdin), start)
    }

    pub(crate) fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.path().join(rel)).unwrap_or_default()
    }
}

/// Waits for hookrun (killing it past the hard limit) and collects its output.
pub(crate) fn finish(mut child: Child, start: Instant) -> Out {
    let mut stdout = child.stdout.take().expect("stdout");
    let mut stderr = child.stderr.take().expect("stderr");
    let out_t = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut stdout, &mut s);
        s
    });
    let err_t = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut s);
        s
    });
    let status = loop {
        if let Some(st) = child.try_wait().expect("wait") {
            break st;
        }
        if start.elapsed() > HARD_LIMIT {
            let _ = child.kill();
            panic!("hookrun did not exit within {HARD_LIMIT:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let elapsed = start.elapsed();
    Out {
        code: status.code().unwrap_or(-1),
        stdout: out_t.join().unwrap_or_default(),
        stderr: err_t.join().unwrap_or_default(),
        elapsed,
    }
}

/// Whether a process is alive (a zombie counts as dead).
pub(crate) fn alive(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => {
            stat.rsplit(')')
                .next()
                .and_then(|rest| rest.split_whitespace().next())
                != Some("Z")
        }
        Err(_) => false,
    }
}

/// Polls until `cond` holds or `limit` passes.
pub(crate) fn wait_for(limit: Duration, mut cond: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if cond() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    cond()
}

/// Reads a pid a hook wrote to a file.
pub(crate) fn pid_in(t: &HookTest, rel: &str) -> i32 {
    assert!(
        wait_for(Duration::from_secs(10), || !t.read(rel).trim().is_empty()),
        "no pid in {rel}"
    );
    t.read(rel)
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("bad pid in {rel}: {:?}", t.read(rel)))
}

/// A one-group Claude settings object for an event.
pub(crate) fn settings(event: &str, matcher: &str, hooks: Value) -> Value {
    json!({"hooks": {event: [{"matcher": matcher, "hooks": hooks}]}})
}

pub(crate) fn cmd(command: &str) -> Value {
    json!({"type": "command", "command": command})
}

/// No model API or Claude Code CLI of the machine's: a prompt or agent
/// hook reaches only what a test names.
const NO_MODEL: &[(&str, &str)] = &[
    ("ANTHROPIC_API_KEY", ""),
    ("ANTHROPIC_AUTH_TOKEN", ""),
    ("ANTHROPIC_BASE_URL", ""),
    ("ANTHROPIC_MODEL", ""),
    ("OPENAI_API_KEY", ""),
    ("OPENAI_BASE_URL", ""),
    ("HOOKRUN_CLAUDE", ""),
];

/// Runs hookrun with `args` in `dir`, isolated from the user's configs
/// (HOME and XDG_CONFIG_HOME under `dir`, no `CLAUDE_PROJECT_DIR` or
/// `HOOKRUN_CONFIG`): exit code, stdout, stderr.
pub(crate) fn hookrun_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .env_remove("CLAUDE_PROJECT_DIR")
        .env_remove("HOOKRUN_CONFIG")
        .env("HOME", dir)
        .env("XDG_CONFIG_HOME", dir.join(".xdg-config"))
        .envs(NO_MODEL.iter().map(|(k, v)| (k, v)))
        .output()
        .expect("run hookrun");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs `cmd` with `stdin` written to it, and waits for its output.
pub(crate) fn output_with_stdin(cmd: &mut Command, stdin: &[u8]) -> std::process::Output {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    std::io::Write::write_all(&mut child.stdin.take().expect("stdin"), stdin).expect("write");
    child.wait_with_output().expect("wait")
}

/// Makes a file the test wrote executable.
pub(crate) fn make_executable(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}
