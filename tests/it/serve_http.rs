//! `hookrun serve --http`: a real server on a free port, spoken to over
//! real sockets: the same answers as `run` (body = `run`'s stdout, the
//! `Hookrun-Exit-Code` header = its exit code), the dialect from the path,
//! `?event=`, a broken reload keeping the last good config, a config that
//! cannot load refused before listening, the token, the body cap, loopback
//! by default. Limits, TLS and the stop: `serve_http_limits`.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::json;

use crate::support::{BIN, HookTest};

const GUARD: &str = "[[hooks]]\nevent = \"PreToolUse\"\nbuiltin = \"dangerous-commands\"\n\n[[hooks]]\nevent = \"Stop\"\ncommand = \"echo 'tests first' >&2; exit 2\"\n";

/// A running server and its port; killed when dropped.
pub(crate) struct Server {
    pub child: Child,
    pub port: u16,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// hookrun in `t`'s directory, with no user config or home of the machine's.
pub(crate) fn hookrun(t: &HookTest) -> Command {
    let mut c = Command::new(BIN);
    c.current_dir(t.path())
        .env("HOME", t.path().join(".home"))
        .env("XDG_CONFIG_HOME", t.path().join(".xdg-config"))
        .env_remove("HOOKRUN_CONFIG")
        .env_remove("HOOKRUN_ON_ERROR");
    for var in crate::support::OTEL_VARS {
        c.env_remove(var);
    }
    c
}

/// Starts `hookrun serve --http 127.0.0.1:0` in `t`'s directory with these
/// arguments, and waits for its `listening on` line.
pub(crate) fn start(t: &HookTest, args: &[&str]) -> Server {
    let mut child = hookrun(t)
        .args(["serve", "--http", "127.0.0.1:0"])
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn serve --http");
    let mut lines = BufReader::new(child.stderr.take().expect("stderr")).lines();
    let first = lines.next().and_then(Result::ok).unwrap_or_default();
    let port = first
        .strip_prefix("listening on http://127.0.0.1:")
        .or_else(|| first.strip_prefix("listening on https://127.0.0.1:"))
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("not a listening line: {first:?}"));
    // Keep draining stderr so that the server never blocks on it.
    std::thread::spawn(move || lines.for_each(drop));
    Server { child, port }
}

/// One HTTP/1.1 request; the status, the headers (lower-case names) and
/// the body.
pub(crate) fn request(
    port: u16,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> (u16, Vec<(String, String)>, String) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(60)))
        .expect("timeout");
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    s.write_all(head.as_bytes()).expect("write head");
    // A server may answer (413) before reading all of a body it refuses.
    let _ = s.write_all(body);
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let headers = lines
        .filter_map(|l| l.split_once(": "))
        .map(|(k, v)| (k.to_ascii_lowercase(), v.to_owned()))
        .collect();
    (status, headers, body.to_owned())
}

pub(crate) fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

/// `hookrun run` on the same event: (exit code, stdout).
fn run(t: &HookTest, args: &[&str], event: &str) -> (u16, String) {
    let mut all = vec!["run"];
    all.extend_from_slice(args);
    run_with(t, &all, event)
}

/// hookrun with these arguments and `event` on stdin: (exit code, stdout).
pub(crate) fn run_with(t: &HookTest, args: &[&str], event: &str) -> (u16, String) {
    let mut command = hookrun(t);
    command.args(args);
    output_of(command, event)
}

/// `command` with `event` on stdin: (exit code, stdout).
pub(crate) fn output_of(command: Command, event: &str) -> (u16, String) {
    let out = finished(command, event);
    (
        u16::try_from(out.status.code().unwrap_or(-1)).unwrap_or(999),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// `command` run to its end with `event` on stdin, both outputs read.
fn finished(mut command: Command, event: &str) -> std::process::Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn hookrun");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(event.as_bytes()).expect("write event");
    drop(stdin);
    child.wait_with_output().expect("wait")
}

pub(crate) fn events(t: &HookTest) -> Vec<(&'static str, String)> {
    let cwd = t.path().display().to_string();
    let base = json!({"session_id": "s", "transcript_path": "/t", "cwd": cwd});
    let with = |extra: serde_json::Value| {
        let mut v = base.clone();
        for (k, x) in extra.as_object().into_iter().flatten() {
            v[k] = x.clone();
        }
        v.to_string()
    };
    vec![
        ("claude", with(json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "rm -rf ~"}}))),
        ("claude", with(json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}}))),
        ("claude", with(json!({"hook_event_name": "Stop", "stop_hook_active": false}))),
        ("auto", with(json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "sudo rm -r -f /"}}))),
        ("codex", with(json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "rm -rf ~"}, "turn_id": "t", "model": "gpt-5", "permission_mode": "default"}))),
        ("cursor", json!({"conversation_id": "c", "generation_id": "g", "hook_event_name": "beforeShellExecution", "command": "rm -rf ~", "cwd": cwd, "workspace_roots": [cwd]}).to_string()),
    ]
}

#[test]
fn every_answer_is_runs_stdout_with_its_exit_code() {
    let t = HookTest::new().toml(GUARD);
    let server = start(&t, &["--config", "config-1.toml"]);
    for (dialect, event) in events(&t) {
        let (status, headers, body) = request(
            server.port,
            "POST",
            &format!("/hooks/{dialect}"),
            &[("Content-Type", "application/json")],
            event.as_bytes(),
        );
        assert_eq!(status, 200, "{dialect} {event}: {body}");
        let args: Vec<&str> = if dialect == "auto" {
            vec!["--config", "config-1.toml"]
        } else {
            vec!["--config", "config-1.toml", "--dialect", dialect]
        };
        let (code, stdout) = run(&t, &args, &event);
        assert_eq!(body, stdout, "{dialect} {event}");
        assert_eq!(
            header(&headers, "hookrun-exit-code"),
            Some(code.to_string().as_str()),
            "{dialect} {event}: {headers:?}"
        );
    }
}

#[test]
fn the_event_query_names_an_event_its_payload_does_not() {
    let t = HookTest::new().toml(GUARD);
    let server = start(&t, &["--config", "config-1.toml"]);
    let event = json!({"sessionId": "s", "timestamp": 1, "cwd": t.path(), "toolName": "bash", "toolArgs": "{\"command\":\"rm -rf ~\"}"}).to_string();
    let (status, headers, body) = request(
        server.port,
        "POST",
        "/hooks/copilot?event=preToolUse",
        &[],
        event.as_bytes(),
    );
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"permissionDecision\":\"deny\""), "{body}");
    assert_eq!(header(&headers, "hookrun-exit-code"), Some("2"));
}

#[test]
fn a_broken_reload_keeps_the_last_good_config() {
    let t = HookTest::new().toml(GUARD);
    let server = start(&t, &["--config", "config-1.toml"]);
    let deny = &events(&t)[0].1;
    let allow = &events(&t)[1].1;
    std::fs::write(
        t.path().join("config-1.toml"),
        "[[hooks]]\nevent = \"PreToolUse\"\nbuiltin = \"dangerous-commands\"\ntimout = 5\n",
    )
    .expect("break the config");
    // Past the settling time of a changed file, the broken one has been
    // read and refused: the guard still denies, and an allowed command is
    // still allowed (a broken config would block it).
    std::thread::sleep(Duration::from_millis(800));
    for _ in 0..3 {
        let (status, headers, body) =
            request(server.port, "POST", "/hooks/claude", &[], deny.as_bytes());
        assert_eq!(status, 200, "{body}");
        assert_eq!(header(&headers, "hookrun-exit-code"), Some("2"), "{body}");
        let (status, headers, body) =
            request(server.port, "POST", "/hooks/claude", &[], allow.as_bytes());
        assert_eq!(status, 200, "{body}");
        assert_eq!(header(&headers, "hookrun-exit-code"), Some("0"), "{body}");
        std::thread::sleep(Duration::from_millis(300));
    }
    // A good edit is taken up: the server does reload.
    std::fs::write(
        t.path().join("config-1.toml"),
        "[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"echo no >&2; exit 2\"\n",
    )
    .expect("fix the config");
    let reloaded = crate::support::wait_for(Duration::from_secs(20), || {
        let (_, headers, _) = request(server.port, "POST", "/hooks/claude", &[], allow.as_bytes());
        header(&headers, "hookrun-exit-code") == Some("2")
    });
    assert!(reloaded, "the fixed config was never taken up");
}

#[test]
fn a_token_is_required_when_the_server_has_one() {
    let t = HookTest::new().toml(GUARD).file("token", "s3cret-token\n");
    let server = start(&t, &["--config", "config-1.toml", "--token-file", "token"]);
    let event = &events(&t)[0].1;
    for auth in [None, Some("Bearer wrong"), Some("s3cret-token")] {
        let headers: Vec<(&str, &str)> = auth.map(|a| ("Authorization", a)).into_iter().collect();
        let (status, _, _) = request(
            server.port,
            "POST",
            "/hooks/claude",
            &headers,
            event.as_bytes(),
        );
        assert_eq!(status, 401, "{auth:?}");
    }
    let (status, headers, body) = request(
        server.port,
        "POST",
        "/hooks/claude",
        &[("Authorization", "Bearer s3cret-token")],
        event.as_bytes(),
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(header(&headers, "hookrun-exit-code"), Some("2"));
}

#[test]
fn a_body_over_the_cap_is_413_and_an_unknown_dialect_404() {
    let t = HookTest::new().toml(GUARD);
    let server = start(
        &t,
        &["--config", "config-1.toml", "--max-event-bytes", "1000"],
    );
    let big = format!(
        "{{\"hook_event_name\":\"PreToolUse\",\"pad\":\"{}\"}}",
        "x".repeat(5000)
    );
    let (status, _, _) = request(server.port, "POST", "/hooks/claude", &[], big.as_bytes());
    assert_eq!(status, 413);
    let (status, _, body) = request(server.port, "POST", "/hooks/nobody", &[], b"{}");
    assert_eq!(status, 404);
    assert!(body.contains("claude"), "{body}");
    let (status, _, body) = request(server.port, "GET", "/healthz", &[], b"");
    assert_eq!((status, body.trim()), (200, "ok"));
    let (status, _, body) = request(server.port, "GET", "/readyz", &[], b"");
    assert_eq!((status, body.trim()), (200, "ready"));
}

/// A server at `addr` that must refuse to start: its stderr, once it
/// exited 1 without listening.
fn refused(t: &HookTest, addr: &str) -> String {
    let out = hookrun(t)
        .args(["serve", "--http", addr, "--config", "config-1.toml"])
        .output()
        .expect("serve");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(!stderr.contains("listening on"), "{stderr}");
    stderr
}

#[test]
fn beyond_loopback_a_token_is_needed_unless_forced() {
    let t = HookTest::new().toml(GUARD);
    let stderr = refused(&t, "0.0.0.0:0");
    assert!(stderr.contains("--token-file"), "{stderr}");
}

#[test]
fn a_config_that_cannot_load_exits_1_before_listening() {
    let t = HookTest::new().toml("[[hooks]]\nevent = \"PreToolUse\"\ntimout = 5\n");
    let stderr = refused(&t, "127.0.0.1:0");
    assert!(stderr.contains("timout"), "{stderr}");
}

/// `hookrun forward` with these arguments and the event on stdin: (exit
/// code, stdout).
fn forward(t: &HookTest, args: &[&str], event: &str) -> (u16, String) {
    let mut all = vec!["forward"];
    all.extend_from_slice(args);
    run_with(t, &all, event)
}

#[test]
fn forward_answers_as_the_server_does() {
    let t = HookTest::new().toml(GUARD).file("token", "s3cret-token\n");
    let server = start(&t, &["--config", "config-1.toml", "--token-file", "token"]);
    let url = format!("http://127.0.0.1:{}", server.port);
    for (dialect, event) in events(&t) {
        let mut args = vec!["--url", url.as_str(), "--token-file", "token"];
        let mut run_args = vec!["run", "--config", "config-1.toml"];
        if dialect != "auto" {
            args.extend(["--dialect", dialect]);
            run_args.extend(["--dialect", dialect]);
        }
        assert_eq!(
            forward(&t, &args, &event),
            run_with(&t, &run_args, &event),
            "{dialect} {event}"
        );
    }
}

#[test]
fn forward_without_a_server_blocks_unless_told_to_allow() {
    let t = HookTest::new();
    // A port nothing listens on: bound, then let go.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("port")
        .port();
    let url = format!("http://127.0.0.1:{port}");
    let event = &events(&t)[1].1;
    let (code, stdout) = forward(&t, &["--url", &url, "--dialect", "claude"], event);
    assert_eq!(code, 2, "{stdout}");
    assert!(
        stdout.contains("\"permissionDecision\":\"deny\""),
        "{stdout}"
    );
    assert!(
        stdout.contains("no decision from the policy server"),
        "{stdout}"
    );
    let (code, stdout) = forward(
        &t,
        &["--url", &url, "--dialect", "claude", "--on-error", "allow"],
        event,
    );
    assert_eq!((code, stdout.as_str()), (1, ""));
    // A server that is not hookrun's (no exit-code header) is no answer
    // either: here, hookrun's own server without the token it wants.
    let t = HookTest::new().toml(GUARD).file("token", "s3cret-token\n");
    let server = start(&t, &["--config", "config-1.toml", "--token-file", "token"]);
    let url = format!("http://127.0.0.1:{}", server.port);
    let (code, stdout) = forward(&t, &["--url", &url, "--dialect", "claude"], event);
    assert_eq!(code, 2, "{stdout}");
    assert!(stdout.contains("401"), "{stdout}");
}

#[test]
fn metrics_count_events_by_dialect_event_and_decision() {
    let t = HookTest::new().toml(GUARD);
    let server = start(&t, &["--config", "config-1.toml"]);
    let all = events(&t);
    for (dialect, event) in [&all[0], &all[0], &all[1], &all[2]] {
        request(
            server.port,
            "POST",
            &format!("/hooks/{dialect}"),
            &[],
            event.as_bytes(),
        );
    }
    request(server.port, "POST", "/hooks/claude", &[], b"not json");
    let (status, headers, body) = request(server.port, "GET", "/metrics", &[], b"");
    assert_eq!(status, 200, "{body}");
    assert!(
        header(&headers, "content-type").is_some_and(|c| c.contains("openmetrics")),
        "{headers:?}"
    );
    for line in [
        "hookrun_events_total{dialect=\"claude\",event=\"PreToolUse\",decision=\"deny\"} 2",
        "hookrun_events_total{dialect=\"claude\",event=\"PreToolUse\",decision=\"none\"} 1",
        "hookrun_events_total{dialect=\"claude\",event=\"Stop\",decision=\"block\"} 1",
        "hookrun_event_duration_seconds_count 4",
        "hookrun_hook_duration_seconds_count",
        "hookrun_errors_total{kind=\"not_evaluated\"} 1",
        "hookrun_events_in_flight 0",
    ] {
        assert!(body.contains(line), "{line} not in:\n{body}");
    }
}

/// hookrun with these arguments and `event` on stdin: (exit code, stdout,
/// stderr).
fn streams_of(t: &HookTest, args: &[&str], event: &str) -> (Option<i32>, String, String) {
    let mut command = hookrun(t);
    command.args(args);
    let out = finished(command, event);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// An agent that reads a block's reason from stderr at exit 2 (Codex)
/// gets it through `forward` as through `run`: every stream travels.
#[test]
fn forward_prints_runs_stderr_too() {
    let t = HookTest::new().toml(GUARD);
    let server = start(&t, &["--config", "config-1.toml"]);
    let url = format!("http://127.0.0.1:{}", server.port);
    for (dialect, event) in events(&t) {
        let mut args = vec!["forward", "--url", url.as_str()];
        let mut run_args = vec!["run", "--config", "config-1.toml"];
        if dialect != "auto" {
            args.extend(["--dialect", dialect]);
            run_args.extend(["--dialect", dialect]);
        }
        let by_run = streams_of(&t, &run_args, &event);
        assert_eq!(streams_of(&t, &args, &event), by_run, "{dialect} {event}");
        if by_run.0 == Some(2) {
            assert!(
                !by_run.2.is_empty(),
                "{dialect}: a block says why on stderr"
            );
        }
    }
}
