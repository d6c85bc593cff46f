//! `hookrun serve --stdio` refuses bad lines as `run` refuses bad events
//! (an error, or a block and an audit line where a guard is closed), never
//! stops on one, holds no more than the cap of an over-long line, and does
//! not apply a config file caught mid-save.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};

use crate::support::{BIN, HookTest, wait_for};

/// Generous bound on waiting for one reply: only a hang reaches it.
const HANG: Duration = Duration::from_secs(20);

/// A running `serve`, its replies and its stderr.
struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    replies: Receiver<String>,
    stderr: Arc<Mutex<String>>,
}

impl Server {
    fn start(t: &HookTest, config: &str) -> Self {
        let mut command = Command::new(BIN);
        command
            .args(["serve", "--stdio", "--config"])
            .arg(t.path().join(config))
            .current_dir(t.path())
            .env_remove("HOOKRUN_CONFIG");
        Self::spawn(command)
    }

    /// A server that discovers its config as `run` does in `t`'s directory
    /// (the project), with no user config.
    fn discovering(t: &HookTest) -> Self {
        let mut command = Command::new(BIN);
        command
            .args(["serve", "--stdio"])
            .current_dir(t.path())
            .env("CLAUDE_PROJECT_DIR", t.path())
            .env("XDG_CONFIG_HOME", t.path().join(".xdg-config"))
            // The home `run` gets in `HookTest`, not the real one.
            .env("HOME", t.path().join(".home"))
            .env_remove("HOOKRUN_CONFIG")
            .env_remove("HOOKRUN_AUDIT_KEY_FILE")
            .env_remove("HOOKRUN_ON_ERROR");
        Self::spawn(command)
    }

    fn spawn(mut command: Command) -> Self {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn serve");
        let (tx, replies) = channel();
        let out = child.stdout.take().expect("stdout");
        std::thread::spawn(move || {
            for l in BufReader::new(out).lines().map_while(Result::ok) {
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(String::new()));
        let (sink, err) = (Arc::clone(&stderr), child.stderr.take().expect("stderr"));
        std::thread::spawn(move || {
            for l in BufReader::new(err).lines().map_while(Result::ok) {
                let mut s = sink.lock().expect("stderr");
                s.push_str(&l);
                s.push('\n');
            }
        });
        let stdin = child.stdin.take();
        Server {
            child,
            stdin,
            replies,
            stderr,
        }
    }

    /// Sends one line (the bytes and a newline).
    fn send(&mut self, line: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(line).expect("write line");
        stdin.write_all(b"\n").expect("write newline");
        stdin.flush().expect("flush");
    }

    fn reply(&self) -> Value {
        let line = self
            .replies
            .recv_timeout(HANG)
            .unwrap_or_else(|e| panic!("no reply ({e}); stderr: {}", self.stderr()));
        serde_json::from_str(&line).expect("reply is JSON")
    }

    fn ask(&mut self, line: &[u8]) -> Value {
        self.send(line);
        self.reply()
    }

    fn stderr(&self) -> String {
        self.stderr.lock().expect("stderr").clone()
    }

    /// Closes stdin and returns the exit code.
    fn finish(mut self) -> Option<i32> {
        drop(self.stdin.take());
        assert!(
            wait_for(HANG, || matches!(self.child.try_wait(), Ok(Some(_)))),
            "serve did not end at EOF"
        );
        self.child.wait().expect("wait").code()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn good_event() -> Vec<u8> {
    json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}})
        .to_string()
        .into_bytes()
}

/// `run`'s answer to the same bytes, in a reply's shape.
fn run_answer(t: &HookTest, stdin: &[u8]) -> Value {
    let out = t.run_stdin(stdin);
    json!({"exit_code": out.code, "stdout": out.stdout, "stderr": out.stderr.trim_end()})
}

/// A reply's answer, its stderr trimmed at the end as `run_answer`'s is
/// (a hook's own last newline is framing, not content).
fn answer_of(reply: &Value) -> Value {
    let stderr = reply["stderr"].as_str().map(str::trim_end);
    json!({"exit_code": reply["exit_code"], "stdout": reply["stdout"], "stderr": stderr})
}

#[test]
fn a_bad_line_under_a_closed_guard_blocks_as_run_does_leaves_an_audit_line_and_the_next_is_answered()
 {
    let t = HookTest::new().toml(
        "[defaults]\nfail_mode = \"closed\"\naudit_log = \"audit.jsonl\"\n\n[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"exit 0\"\n",
    );
    let bad: [&[u8]; 3] = [b"not json", b"[1, 2]", b"{\"tool_input\": \"\xff\"}"];
    let mut server = Server::start(&t, "config-1.toml");
    let replies: Vec<Value> = bad.iter().map(|l| server.ask(l)).collect();
    let good = server.ask(&good_event());
    assert_eq!(server.finish(), Some(0));
    for (line, reply) in bad.iter().zip(&replies) {
        assert_eq!(reply["exit_code"], 2, "{reply}");
        let block: Value = serde_json::from_str(reply["stdout"].as_str().unwrap_or("")).unwrap();
        assert_eq!(block["decision"], "block", "{reply}");
        assert_eq!(answer_of(reply), run_answer(&t, line), "as `run` answers");
    }
    assert_eq!(
        (good["seq"].clone(), good["exit_code"].clone()),
        (json!(4), json!(0))
    );
    // `run_answer` added one refusal per bad line: serve's come first.
    let audit: Vec<Value> = t
        .read("audit.jsonl")
        .lines()
        .map(|l| serde_json::from_str(l).expect("audit line is JSON"))
        .collect();
    assert_eq!(audit.len(), 2 * bad.len() + 1, "{audit:?}");
    for record in &audit[..bad.len()] {
        let error = record["error"].as_str().unwrap_or("");
        assert!(error.starts_with("invalid event on stdin"), "{record}");
    }
    assert!(
        audit[bad.len()].get("error").is_none(),
        "the good event's line"
    );
}

#[test]
fn a_line_that_is_not_utf8_gets_an_error_and_the_stream_goes_on() {
    let t = HookTest::new().toml("[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"exit 0\"\n");
    let mut server = Server::start(&t, "config-1.toml");
    let bad = b"{\"hook_event_name\": \"PreToolUse\", \"x\": \"\xc3\x28\"}";
    let first = server.ask(bad);
    let second = server.ask(&good_event());
    assert_eq!(server.finish(), Some(0));
    assert_eq!(first["exit_code"], 2, "{first}");
    assert!(
        first["stdout"]
            .as_str()
            .is_some_and(|s| s.contains("not valid JSON")),
        "{first}"
    );
    assert_eq!(answer_of(&first), run_answer(&t, bad), "as `run` answers");
    assert_eq!(
        (second["seq"].clone(), second["exit_code"].clone()),
        (json!(2), json!(0))
    );
}

/// Peak resident memory of a process, in KiB (Linux).
fn peak_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn a_line_far_over_the_cap_is_refused_as_it_arrives_and_the_next_is_answered() {
    const LINE: usize = 24 << 20;
    let t = HookTest::new().toml(
        "[limits]\nmax_event_bytes = 1024\n\n[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"exit 0\"\n",
    );
    let mut server = Server::start(&t, "config-1.toml");
    assert_eq!(server.ask(&good_event())["exit_code"], 0);
    let before = peak_kib(server.child.id());
    let stdin = server.stdin.as_mut().expect("stdin");
    stdin.write_all(b"{\"x\": \"").expect("write");
    let block = vec![b'a'; 1 << 20];
    for _ in 0..LINE >> 20 {
        stdin.write_all(&block).expect("write");
    }
    stdin.write_all(b"\"}\n").expect("write");
    let over = server.reply();
    let next = server.ask(&good_event());
    let after = peak_kib(server.child.id());
    assert_eq!(server.finish(), Some(0));
    assert_eq!(over["exit_code"], 2, "{over}");
    let said = over["stderr"].as_str().unwrap_or("");
    assert!(
        said.contains("larger than the limit of 1024 bytes"),
        "{said}"
    );
    assert_eq!(
        (next["seq"].clone(), next["exit_code"].clone()),
        (json!(3), json!(0))
    );
    if let (Some(before), Some(after)) = (before, after) {
        // Holding the line would add at least its 24 MiB.
        assert!(
            after - before < 4 * 1024,
            "peak memory grew by {} KiB",
            after - before
        );
    }
}

const ALLOW: &str = "[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"exit 0\"\n";
const DENY: &str =
    "[[hooks]]\nname = \"edited\"\nevent = \"PreToolUse\"\ncommand = \"echo edited >&2; exit 2\"\n";

#[test]
fn a_config_saved_in_two_steps_is_applied_whole() {
    let t = HookTest::new().toml(ALLOW);
    let config = t.path().join("config-1.toml");
    let mut server = Server::start(&t, "config-1.toml");
    assert_eq!(server.ask(&good_event())["exit_code"], 0);
    // An editor's save: truncate, then (well within the settle time) write.
    std::fs::write(&config, "").expect("truncate");
    server.send(&good_event());
    std::thread::sleep(Duration::from_millis(20));
    std::fs::write(&config, DENY).expect("write");
    let during = server.reply();
    let note = server.stderr();
    // The truncated file must not have run: either the save was waited for
    // (the new config answers), or the empty file was refused aloud.
    assert!(
        during["exit_code"] == 2 || note.contains("configures no hook at all"),
        "{during} {note}"
    );
    assert_eq!(
        server.ask(&good_event())["exit_code"],
        2,
        "the save applied"
    );
    assert_eq!(server.finish(), Some(0));
}

#[test]
fn a_config_left_without_hooks_or_broken_keeps_the_last_good_one_and_says_why() {
    let t = HookTest::new().toml(DENY);
    let config = t.path().join("config-1.toml");
    let mut server = Server::start(&t, "config-1.toml");
    assert_eq!(server.ask(&good_event())["exit_code"], 2);
    std::fs::write(&config, "[defaults]\nfail_mode = \"open\"\n").expect("write");
    assert_eq!(server.ask(&good_event())["exit_code"], 2, "the hook stays");
    std::fs::write(
        &config,
        "[[hooks]]\nevent = \"PreToolUse\"\ncomand = \"x\"\n",
    )
    .expect("write");
    assert_eq!(server.ask(&good_event())["exit_code"], 2, "the hook stays");
    let name = config.display().to_string();
    assert!(
        wait_for(HANG, || server.stderr().lines().count() >= 2),
        "{}",
        server.stderr()
    );
    let notes: Vec<String> = server.stderr().lines().map(str::to_owned).collect();
    assert!(
        notes[0].contains("keeping the last good config")
            && notes[0].contains("configures no hook at all")
            && notes[0].contains(&name),
        "{notes:?}"
    );
    assert!(
        notes[1].contains("keeping the last good config")
            && notes[1].contains("comand")
            && notes[1].contains(&name),
        "{notes:?}"
    );
    std::fs::write(&config, ALLOW).expect("write");
    assert_eq!(
        server.ask(&good_event())["exit_code"],
        0,
        "a good edit applies"
    );
    // Every hook off on purpose is applied, not kept out.
    std::fs::write(&config, DENY).expect("write");
    assert_eq!(server.ask(&good_event())["exit_code"], 2);
    std::fs::write(&config, "disable_all_hooks = true\n").expect("write");
    assert_eq!(
        server.ask(&good_event())["exit_code"],
        0,
        "the off switch applies"
    );
    assert_eq!(server.finish(), Some(0));
}

/// The children of `pid` that have ended and were not waited for.
fn zombie_children(pid: u32) -> usize {
    let Ok(procs) = std::fs::read_dir("/proc") else {
        return 0;
    };
    procs
        .flatten()
        .filter_map(|e| std::fs::read_to_string(e.path().join("stat")).ok())
        .filter(|stat| {
            // `pid (comm) state ppid ...`
            let mut rest = stat.rsplit(')').next().unwrap_or("").split_whitespace();
            let state = rest.next();
            let parent = rest.next().and_then(|p| p.parse::<u32>().ok());
            state == Some("Z") && parent == Some(pid)
        })
        .count()
}

#[test]
fn async_hooks_that_ended_leave_no_zombie_of_the_server() {
    let t = HookTest::new()
        .toml("[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"touch ran.$$\"\nasync = true\n");
    let mut server = Server::start(&t, "config-1.toml");
    for _ in 0..6 {
        assert_eq!(server.ask(&good_event())["exit_code"], 0);
    }
    let ran = || {
        std::fs::read_dir(t.path())
            .map(|d| {
                d.flatten()
                    .filter(|e| e.file_name().to_string_lossy().starts_with("ran."))
                    .count()
            })
            .unwrap_or(0)
    };
    assert!(wait_for(HANG, || ran() == 6), "{} async hooks ran", ran());
    let pid = server.child.id();
    // Collected within a second or so of ending, while the server is idle.
    assert!(
        wait_for(Duration::from_secs(10), || zombie_children(pid) == 0),
        "{} zombies left",
        zombie_children(pid)
    );
    assert_eq!(server.finish(), Some(0));
}

/// Sends `signal` to the server and waits for its exit code, its stdin
/// still open.
fn interrupt(server: &mut Server, signal: nix::sys::signal::Signal) -> Option<i32> {
    let pid = nix::unistd::Pid::from_raw(i32::try_from(server.child.id()).expect("pid"));
    nix::sys::signal::kill(pid, signal).expect("signal serve");
    assert!(
        wait_for(HANG, || matches!(server.child.try_wait(), Ok(Some(_)))),
        "serve outlived {signal} with its stdin open"
    );
    server.child.wait().expect("wait").code()
}

#[test]
fn an_idle_server_ends_at_once_on_sigterm_with_its_stdin_open() {
    let t = HookTest::new().toml(ALLOW);
    let mut server = Server::start(&t, "config-1.toml");
    assert_eq!(server.ask(&good_event())["exit_code"], 0);
    let start = std::time::Instant::now();
    let code = interrupt(&mut server, nix::sys::signal::Signal::SIGTERM);
    assert_eq!(code, Some(143), "{}", server.stderr());
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    assert!(
        wait_for(HANG, || server.stderr().contains("interrupted by SIGTERM")),
        "{}",
        server.stderr()
    );
}

#[test]
fn sigterm_while_a_changing_config_settles_ends_the_server_before_the_hook_starts() {
    // The hook takes a second to leave its mark: on a machine so loaded
    // that the file did hold still once, the hook starts but SIGTERM kills
    // it first; a lost SIGTERM lets it finish.
    let hook = "[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"sleep 1; touch started; exit 0\"\n";
    let t = HookTest::new().toml(hook);
    let config = t.path().join("config-1.toml");
    let mut server = Server::start(&t, "config-1.toml");
    assert_eq!(server.ask(&good_event())["exit_code"], 0);
    std::fs::remove_file(t.path().join("started")).expect("the hook ran once");
    // The file keeps changing (size and time), so the event waits for it.
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let editor = {
        let (stop, config) = (Arc::clone(&stop), config.clone());
        std::thread::spawn(move || {
            let mut i = 0;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                i += 1;
                let _ = std::fs::write(&config, format!("{hook}{}\n", "#".repeat(i % 7)));
                std::thread::sleep(Duration::from_millis(15));
            }
        })
    };
    std::thread::sleep(Duration::from_millis(100));
    server.send(&good_event());
    std::thread::sleep(Duration::from_millis(300));
    let code = interrupt(&mut server, nix::sys::signal::Signal::SIGTERM);
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    editor.join().expect("editor");
    assert_eq!(code, Some(143), "{}", server.stderr());
    std::thread::sleep(Duration::from_millis(1500));
    assert!(
        !t.path().join("started").exists(),
        "the event's hook started after SIGTERM"
    );
}

#[test]
fn a_project_config_created_after_the_server_started_is_read_as_run_reads_it() {
    let t = HookTest::new();
    let mut server = Server::discovering(&t);
    let event = json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "rm -rf /"}})
        .to_string()
        .into_bytes();
    let before = server.ask(&event);
    assert_eq!(answer_of(&before), run_answer(&t, &event));
    assert_eq!(before["exit_code"], 2, "no config found blocks: {before}");
    assert!(
        before["stdout"]
            .as_str()
            .is_some_and(|s| s.contains("no config file found")),
        "{before}"
    );
    std::fs::write(
        t.path().join("hookrun.toml"),
        "[[hooks]]\nevent = \"PreToolUse\"\nbuiltin = \"dangerous-commands\"\n",
    )
    .expect("write the project config");
    let after = server.ask(&event);
    assert_eq!(answer_of(&after), run_answer(&t, &event));
    assert!(
        after["stdout"]
            .as_str()
            .is_some_and(|s| s.contains("dangerous command") && !s.contains("no config file")),
        "the new project guard denies: {after}"
    );
    std::fs::remove_file(t.path().join("hookrun.toml")).expect("remove");
    let gone = server.ask(&event);
    assert_eq!(answer_of(&gone), run_answer(&t, &event));
    assert_eq!(server.finish(), Some(0));
}

/// A PreToolUse event of exactly `len` bytes (padded in a field no hook reads).
fn event_of_len(len: usize) -> Vec<u8> {
    let bare = json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}, "pad": ""}).to_string();
    let pad = "x".repeat(len - bare.len());
    let event = json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}, "pad": pad}).to_string();
    assert_eq!(event.len(), len);
    event.into_bytes()
}

#[test]
fn an_event_of_exactly_the_cap_and_its_newline_is_accepted_by_run_and_serve_alike() {
    const CAP: usize = 4096;
    let t = HookTest::new().toml(&format!(
        "[limits]\nmax_event_bytes = {CAP}\n\n[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"echo seen >&2; exit 2\"\n"
    ));
    let mut server = Server::start(&t, "config-1.toml");
    for (len, accepted) in [(CAP, true), (CAP + 1, false)] {
        let event = event_of_len(len);
        let mut with_newline = event.clone();
        with_newline.push(b'\n');
        let reply = server.ask(&event);
        assert_eq!(
            answer_of(&reply),
            run_answer(&t, &with_newline),
            "{len} bytes"
        );
        assert_eq!(answer_of(&reply), run_answer(&t, &event), "{len} bytes");
        let seen = reply["stderr"]
            .as_str()
            .unwrap_or_default()
            .contains("seen");
        assert_eq!(seen, accepted, "{len} bytes: {reply}");
    }
    assert_eq!(server.finish(), Some(0));
}
