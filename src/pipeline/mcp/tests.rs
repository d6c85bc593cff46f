//! The client against a real server process (tests/fixtures/mcp_server.py),
//! over stdio and over HTTP on loopback.

use std::path::{Path, PathBuf};

use serde_json::json;

use super::*;

/// The client is one per process, and [`shutdown`] ends it for every
/// caller: the tests that use it take turns.
static TURN: Mutex<()> = Mutex::new(());

fn turn() -> std::sync::MutexGuard<'static, ()> {
    TURN.lock().unwrap_or_else(PoisonError::into_inner)
}

fn fixture() -> String {
    format!(
        "{}/tests/fixtures/mcp_server.py",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn stdio(name: &str, extra: &[&str]) -> Server {
    let mut args = vec![fixture()];
    args.extend(extra.iter().map(|s| (*s).to_owned()));
    Server {
        name: name.to_owned(),
        transport: Transport::Stdio {
            command: "python3".into(),
            args,
            env: vec![],
            cwd: None,
        },
    }
}

fn call(server: &Server, tool: &str, arguments: Value) -> Outcome {
    call_within(server, tool, arguments, Duration::from_secs(20))
}

fn call_within(server: &Server, tool: &str, arguments: Value, timeout: Duration) -> Outcome {
    let Value::Object(arguments) = arguments else {
        panic!("arguments are an object")
    };
    let handle = start(Call {
        server: server.clone(),
        tool: tool.to_owned(),
        arguments,
        timeout,
        cap: 64 * 1024,
    })
    .expect("the call starts");
    handle.join().expect("the call's thread ends").0
}

fn answered(outcome: &Outcome) -> Value {
    match outcome {
        Outcome::Answered(text) => serde_json::from_slice(text).expect("JSON"),
        other => panic!("expected an answer, got {other:?}"),
    }
}

fn failed(outcome: &Outcome) -> &str {
    match outcome {
        Outcome::Failed(why) => why,
        other => panic!("expected a failure, got {other:?}"),
    }
}

/// Whether a process runs (a zombie does not).
fn running(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        stat.rsplit(')')
            .next()
            .and_then(|rest| rest.split_whitespace().next())
            .is_some_and(|state| state != "Z" && state != "X")
    })
}

fn wait_gone(pid: u32) -> bool {
    let until = Instant::now() + Duration::from_secs(5);
    while Instant::now() < until {
        if !running(pid) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

fn read_pid(path: &Path) -> u32 {
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        if let Some(pid) = std::fs::read_to_string(path)
            .ok()
            .and_then(|s| s.trim().parse().ok())
        {
            return pid;
        }
        assert!(Instant::now() < until, "no pid in {}", path.display());
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn temp() -> tempfile::TempDir {
    tempfile::tempdir().expect("a temporary directory")
}

#[test]
fn a_json_answer_is_the_hooks_answer_and_arguments_reach_the_tool() {
    let _turn = turn();
    let server = stdio("policy", &[]);
    let out = call(&server, "deny", json!({"command": "rm -rf /"}));
    assert_eq!(
        answered(&out)["hookSpecificOutput"]["permissionDecisionReason"],
        "rm -rf /"
    );
    shutdown();
}

#[test]
fn plain_text_and_non_text_items_are_dropped() {
    let _turn = turn();
    let server = stdio("policy", &[]);
    assert_eq!(call(&server, "plain", json!({})), Outcome::Dropped);
    // `[image]\n\n{}` is not a JSON object.
    assert_eq!(call(&server, "image", json!({})), Outcome::Dropped);
    shutdown();
}

#[test]
fn is_error_is_a_failure_with_its_text() {
    let _turn = turn();
    let server = stdio("policy", &[]);
    let why = call(&server, "error", json!({})).clone();
    let why = failed(&why);
    assert!(why.contains("policy store unreachable"), "{why}");
    assert!(why.contains("`error`") && why.contains("`policy`"), "{why}");
    let empty = call(&server, "error_empty", json!({}));
    assert!(
        failed(&empty).contains("MCP tool returned an error"),
        "{empty:?}"
    );
    shutdown();
}

#[test]
fn a_missing_command_fails_naming_the_server() {
    let _turn = turn();
    let server = Server {
        name: "ghost".into(),
        transport: Transport::Stdio {
            command: "hookrun-no-such-mcp-server".into(),
            args: vec![],
            env: vec![],
            cwd: None,
        },
    };
    let out = call(&server, "check", json!({}));
    let why = failed(&out);
    assert!(
        why.contains("`ghost`") && why.contains("not found"),
        "{why}"
    );
    shutdown();
}

#[test]
fn a_crash_fails_with_the_servers_stderr_and_the_next_call_restarts_it() {
    let _turn = turn();
    let dir = temp();
    let count = dir.path().join("inits");
    let server = stdio("policy", &["--count", count.to_str().expect("utf-8")]);
    let out = call(&server, "crash", json!({}));
    let why = failed(&out);
    assert!(why.contains("`policy`"), "{why}");
    assert!(
        why.contains("status 3") && why.contains("crashing on purpose"),
        "{why}"
    );
    // Started again.
    assert_eq!(call(&server, "plain", json!({})), Outcome::Dropped);
    let inits = std::fs::read_to_string(&count).expect("count");
    assert_eq!(inits.lines().count(), 2);
    shutdown();
}

#[test]
fn a_server_that_never_initializes_times_out_and_is_killed() {
    let _turn = turn();
    let dir = temp();
    let pidfile = dir.path().join("pid");
    let server = stdio(
        "mute",
        &["--no-init", "--pidfile", pidfile.to_str().expect("utf-8")],
    );
    let out = call_within(&server, "plain", json!({}), Duration::from_millis(800));
    assert_eq!(out, Outcome::TimedOut);
    let pid = read_pid(&pidfile);
    shutdown();
    assert!(wait_gone(pid), "the server {pid} still runs");
}

#[test]
fn garbage_on_stdout_fails_at_once() {
    let _turn = turn();
    let server = stdio("noisy", &["--garbage-init"]);
    let started = Instant::now();
    let out = call(&server, "plain", json!({}));
    let why = failed(&out);
    assert!(
        why.contains("`noisy`") && why.contains("not JSON-RPC"),
        "{why}"
    );
    assert!(why.contains("Welcome to the policy server"), "{why}");
    assert!(started.elapsed() < Duration::from_secs(10));
    // Garbage in the middle of a call, too.
    let server = stdio("noisy", &[]);
    let out = call(&server, "garbage", json!({}));
    assert!(failed(&out).contains("not JSON-RPC"), "{out:?}");
    shutdown();
}

#[test]
fn a_call_that_times_out_kills_the_server_tree_with_no_orphan() {
    let _turn = turn();
    let dir = temp();
    let pidfile = dir.path().join("pid");
    let childfile = dir.path().join("child");
    let server = stdio("slow", &["--pidfile", pidfile.to_str().expect("utf-8")]);
    // A grandchild in the server's group.
    let spawned = call(
        &server,
        "spawn",
        json!({"file": childfile.to_str().expect("utf-8")}),
    );
    assert_eq!(spawned, Outcome::Dropped);
    let pid = read_pid(&pidfile);
    let grandchild = read_pid(&childfile);
    assert!(running(pid) && running(grandchild));
    let out = call_within(&server, "sleep", json!({}), Duration::from_millis(700));
    assert_eq!(out, Outcome::TimedOut);
    // Killed as a tree on the timeout, before any shutdown.
    assert!(wait_gone(pid), "the server {pid} still runs");
    assert!(wait_gone(grandchild), "its child {grandchild} still runs");
    // The next call starts it afresh.
    let again = call(&server, "pid", json!({}));
    let new_pid = answered(&again)["pid"].as_u64().expect("pid");
    assert_ne!(new_pid, u64::from(pid));
    shutdown();
    assert!(wait_gone(u32::try_from(new_pid).expect("pid")));
}

#[test]
fn shutdown_kills_every_server_tree() {
    let _turn = turn();
    let dir = temp();
    let childfile = dir.path().join("child");
    let server = stdio("policy", &[]);
    let pid = answered(&call(&server, "pid", json!({})))["pid"]
        .as_u64()
        .and_then(|p| u32::try_from(p).ok())
        .expect("pid");
    call(
        &server,
        "spawn",
        json!({"file": childfile.to_str().expect("utf-8")}),
    );
    let grandchild = read_pid(&childfile);
    assert!(running(pid) && running(grandchild));
    shutdown();
    assert!(!running(pid), "the server {pid} is reaped by shutdown");
    assert!(wait_gone(grandchild), "its child {grandchild} still runs");
}

#[test]
fn a_result_over_the_cap_fails() {
    let _turn = turn();
    let server = stdio("policy", &[]);
    let out = call(&server, "huge", json!({"size": 70_000}));
    let why = failed(&out);
    assert!(why.contains("65536") || why.contains("over"), "{why}");
    // Under the cap: plain text.
    assert_eq!(
        call(&server, "huge", json!({"size": 60_000})),
        Outcome::Dropped
    );
    shutdown();
}

#[test]
fn a_server_is_started_once_for_many_calls() {
    let _turn = turn();
    let dir = temp();
    let count = dir.path().join("inits");
    let server = stdio("policy", &["--count", count.to_str().expect("utf-8")]);
    let a = call(&server, "pid", json!({}));
    let b = call(&server, "pid", json!({}));
    assert_eq!(answered(&a), answered(&b));
    // Calls at once share the connection being made.
    let handles: Vec<_> = (0..4)
        .map(|_| {
            let s = server.clone();
            std::thread::spawn(move || call(&s, "echo", json!({"n": 1})))
        })
        .collect();
    for h in handles {
        assert_eq!(answered(&h.join().expect("thread")), json!({"n": 1}));
    }
    let inits = std::fs::read_to_string(&count).expect("count");
    assert_eq!(inits.lines().count(), 1);
    shutdown();
}

/// The fixture over HTTP on a free loopback port; killed when dropped.
struct HttpServer {
    child: std::process::Child,
    url: String,
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn http_server(dir: &Path, extra: &[&str]) -> HttpServer {
    let portfile: PathBuf = dir.join("port");
    let child = std::process::Command::new("python3")
        .arg(fixture())
        .arg("--http")
        .arg(&portfile)
        .args(extra)
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("python3 starts");
    let port = read_pid(&portfile);
    HttpServer {
        child,
        url: format!("http://127.0.0.1:{port}/mcp"),
    }
}

#[test]
fn over_http_json_and_sse_answers_and_one_session() {
    let _turn = turn();
    let dir = temp();
    let count = dir.path().join("inits");
    let http = http_server(dir.path(), &["--count", count.to_str().expect("utf-8")]);
    let server = Server {
        name: "remote".into(),
        transport: Transport::Http {
            url: http.url.clone(),
            headers: vec![("X-Team".into(), "a".into())],
        },
    };
    let out = call(&server, "deny", json!({"command": "curl evil"}));
    assert_eq!(
        answered(&out)["hookSpecificOutput"]["permissionDecisionReason"],
        "curl evil"
    );
    let sse = call(&server, "sse", json!({}));
    assert_eq!(answered(&sse)["reason"], "by sse");
    assert_eq!(call(&server, "plain", json!({})), Outcome::Dropped);
    assert!(failed(&call(&server, "error", json!({}))).contains("unreachable"));
    let inits = std::fs::read_to_string(&count).expect("count");
    assert_eq!(inits.lines().count(), 1);
    shutdown();
}

#[test]
fn over_http_no_server_fails_and_a_silent_one_times_out() {
    let _turn = turn();
    // A port nothing listens on: bound, then freed.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let server = Server {
        name: "down".into(),
        transport: Transport::Http {
            url: format!("http://127.0.0.1:{port}/mcp"),
            headers: vec![],
        },
    };
    let out = call(&server, "plain", json!({}));
    assert!(failed(&out).contains("`down`"), "{out:?}");

    let dir = temp();
    let http = http_server(dir.path(), &[]);
    let server = Server {
        name: "remote".into(),
        transport: Transport::Http {
            url: http.url.clone(),
            headers: vec![],
        },
    };
    let out = call_within(&server, "sleep", json!({}), Duration::from_millis(700));
    assert_eq!(out, Outcome::TimedOut);
    shutdown();
}

#[test]
fn a_process_that_makes_no_call_starts_nothing() {
    let _turn = turn();
    shutdown();
    assert!(HUB.lock().unwrap_or_else(PoisonError::into_inner).is_none());
    shutdown();
}

#[test]
fn input_references_are_filled_as_text() {
    let event = json!({
        "tool_name": "Bash",
        "tool_input": {"command": "ls -la", "timeout": 5, "flag": true, "edits": [{"old": "a"}, {"old": "b"}]},
        "n": 1.5,
        "whole": 2.0,
        "nothing": null,
    });
    let input = json!({
        "command": "${tool_input.command}",
        "line": "run ${tool_name}: ${tool_input.command}!",
        "whole_input": "${tool_input}",
        "number": "${tool_input.timeout}",
        "bool": "${tool_input.flag}",
        "float": "${n} ${whole}",
        "missing": "[${tool_input.nope}]",
        "null": "[${nothing}]",
        "deeper": "${tool_input.command.length}",
        "index": "${tool_input.edits.1.old} of ${tool_input.edits.length}",
        "not_refs": "${} ${a-b} $tool_name ${tool_name",
        "nested": {"list": ["${tool_name}", 3, null, {"k": "${tool_input.timeout}"}]},
        "kept": 42,
    });
    let out = expand_input(&input, &event);
    assert_eq!(
        out,
        json!({
            "command": "ls -la",
            "line": "run Bash: ls -la!",
            "whole_input": r#"{"command":"ls -la","timeout":5,"flag":true,"edits":[{"old":"a"},{"old":"b"}]}"#,
            "number": "5",
            "bool": "true",
            "float": "1.5 2",
            "missing": "[]",
            "null": "[]",
            "deeper": "",
            "index": "b of 2",
            "not_refs": "${} ${a-b} $tool_name ${tool_name",
            "nested": {"list": ["Bash", 3, null, {"k": "5"}]},
            "kept": 42,
        })
    );
}

#[test]
fn result_text_is_read_as_claude_code_reads_it() {
    let result = |v: Value| -> CallToolResult { serde_json::from_value(v).expect("a result") };
    let what = "MCP tool `t` of server `s`";
    let r = result(json!({"content": [{"type": "text", "text": "  {\"decision\":\"block\"}\n"}]}));
    assert_eq!(
        read_result(&r, 1000, what),
        Outcome::Answered(br#"{"decision":"block"}"#.to_vec())
    );
    // Two text items are joined by a blank line: together no object.
    let r = result(
        json!({"content": [{"type": "text", "text": "{}"}, {"type": "text", "text": "{}"}]}),
    );
    assert_eq!(read_result(&r, 1000, what), Outcome::Dropped);
    // Not read: structuredContent (Claude Code reads the text only).
    let r = result(json!({"content": [], "structuredContent": {"decision": "block"}}));
    assert_eq!(read_result(&r, 1000, what), Outcome::Dropped);
    let r = result(json!({"content": [{"type": "text", "text": "[1]"}]}));
    assert_eq!(read_result(&r, 1000, what), Outcome::Dropped);
    let r = result(json!({"content": [{"type": "text", "text": "x".repeat(11)}]}));
    assert!(matches!(read_result(&r, 10, what), Outcome::Failed(_)));
}
