//! `hookrun serve --http`'s limits and lifecycle, with real sockets and
//! processes: a client slow to send its headers or its body, the cap on
//! events in flight and the queue behind it (overload answered `200` with
//! a block under the trust rule), SIGTERM with events under way (finished
//! within the grace period, blocked past it), and reloads while events are
//! served (never an answer half from one config, half from the other).

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::serve_http::{header, request, start};
use crate::support::HookTest;

fn pre_tool(t: &HookTest, command: &str) -> String {
    json!({"hook_event_name": "PreToolUse", "session_id": "s", "transcript_path": "/t",
           "cwd": t.path().display().to_string(), "tool_name": "Bash",
           "tool_input": {"command": command}})
    .to_string()
}

fn post(port: u16, event: &str) -> (u16, Option<String>, String) {
    let (status, headers, body) = request(port, "POST", "/hooks/claude", &[], event.as_bytes());
    let code = header(&headers, "hookrun-exit-code").map(str::to_owned);
    (status, code, body)
}

/// What the server sends on `s` until it closes it (or 20 s pass).
fn read_all(mut s: TcpStream) -> String {
    s.set_read_timeout(Some(Duration::from_secs(20)))
        .expect("timeout");
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    String::from_utf8_lossy(&raw).into_owned()
}

#[test]
fn a_client_slow_to_send_its_headers_is_cut_off_and_delays_no_one() {
    let t = HookTest::new()
        .toml("[[hooks]]\nevent = \"PreToolUse\"\nbuiltin = \"dangerous-commands\"\n");
    let server = start(&t, &["--config", "config-1.toml", "--read-timeout", "1"]);
    let mut slow = TcpStream::connect(("127.0.0.1", server.port)).expect("connect");
    slow.write_all(b"POST /hooks/claude HTTP/1.1\r\nHost: x\r\n")
        .expect("write");
    let idle = TcpStream::connect(("127.0.0.1", server.port)).expect("connect");
    // Others are answered while both hang.
    let began = Instant::now();
    let (status, code, _) = post(server.port, &pre_tool(&t, "rm -rf ~"));
    assert_eq!((status, code.as_deref()), (200, Some("2")));
    assert!(
        began.elapsed() < Duration::from_millis(900),
        "{:?}",
        began.elapsed()
    );
    let began = Instant::now();
    let cut = read_all(slow);
    assert!(!cut.contains("200 OK"), "{cut}");
    let waited = began.elapsed();
    assert!(waited < Duration::from_secs(10), "{waited:?}");
    let cut = read_all(idle);
    assert!(!cut.contains("200 OK"), "{cut}");
    assert!(began.elapsed() < Duration::from_secs(10));
}

#[test]
fn a_body_that_does_not_arrive_in_time_is_408() {
    let t = HookTest::new()
        .toml("[[hooks]]\nevent = \"PreToolUse\"\nbuiltin = \"dangerous-commands\"\n");
    let server = start(&t, &["--config", "config-1.toml", "--read-timeout", "1"]);
    let mut slow = TcpStream::connect(("127.0.0.1", server.port)).expect("connect");
    slow.write_all(
        b"POST /hooks/claude HTTP/1.1\r\nHost: x\r\nContent-Length: 500\r\n\r\n{\"hook_event_name\":",
    )
    .expect("write");
    let answer = read_all(slow);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("did not arrive within 1 s"), "{answer}");
}

#[test]
fn past_the_queue_an_event_is_blocked_saying_the_server_is_overloaded() {
    let t = HookTest::new()
        .toml("[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"sleep 1.5\"\n")
        .file(
            "allow.toml",
            "[defaults]\n[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"sleep 1.5\"\n",
        );
    for (on_error, code) in [("block", "2"), ("allow", "1")] {
        let server = start(
            &t,
            &[
                "--config",
                "config-1.toml",
                "--max-in-flight",
                "1",
                "--max-queued",
                "1",
                "--on-error",
                on_error,
            ],
        );
        let port = server.port;
        let clients: Vec<_> = (0..3)
            .map(|i| {
                let event = pre_tool(&t, &format!("ls {i}"));
                std::thread::spawn(move || post(port, &event))
            })
            .collect();
        let answers: Vec<_> = clients
            .into_iter()
            .map(|c| c.join().expect("client"))
            .collect();
        let refused: Vec<_> = answers
            .iter()
            .filter(|(_, c, _)| c.as_deref() != Some("0"))
            .collect();
        assert_eq!(refused.len(), 1, "{on_error}: {answers:?}");
        let (status, got, body) = refused[0];
        assert_eq!((*status, got.as_deref()), (200, Some(code)), "{body}");
        if on_error == "block" {
            let v: Value = serde_json::from_str(body).expect("json");
            let hso = &v["hookSpecificOutput"];
            assert_eq!(hso["permissionDecision"], "deny", "{body}");
            let reason = hso["permissionDecisionReason"].as_str().unwrap_or("");
            assert!(
                reason.contains("overloaded (1 events under way and 1 waiting)"),
                "{reason}"
            );
        } else {
            assert_eq!(body, "", "{on_error}");
        }
    }
}

fn sigterm(pid: u32) {
    let killed = Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()
        .expect("kill");
    assert!(killed.success());
}

#[test]
fn sigterm_lets_the_events_under_way_finish_then_exits_143() {
    let t = HookTest::new().toml(
        "[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"sleep 1; echo done > done.txt; echo 'finished first' >&2; exit 2\"\n",
    );
    let mut server = start(&t, &["--config", "config-1.toml"]);
    let port = server.port;
    let event = pre_tool(&t, "ls");
    let client = std::thread::spawn(move || post(port, &event));
    std::thread::sleep(Duration::from_millis(300));
    sigterm(server.child.id());
    let (status, code, body) = client.join().expect("client");
    assert_eq!((status, code.as_deref()), (200, Some("2")), "{body}");
    assert!(body.contains("finished first"), "{body}");
    assert!(t.path().join("done.txt").exists());
    assert_eq!(server.child.wait().expect("wait").code(), Some(143));
    // No longer listening.
    assert!(TcpStream::connect(("127.0.0.1", port)).is_err());
}

#[test]
fn past_the_grace_period_the_hooks_are_stopped_and_the_event_blocked() {
    let t = HookTest::new()
        .toml("[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"sleep 3; echo done > done.txt\"\n");
    let mut server = start(&t, &["--config", "config-1.toml", "--grace", "0.5"]);
    let port = server.port;
    let event = pre_tool(&t, "ls");
    let client = std::thread::spawn(move || post(port, &event));
    std::thread::sleep(Duration::from_millis(300));
    let began = Instant::now();
    sigterm(server.child.id());
    let (status, code, body) = client.join().expect("client");
    assert_eq!((status, code.as_deref()), (200, Some("2")), "{body}");
    let v: Value = serde_json::from_str(&body).expect("json");
    let reason = v["hookSpecificOutput"]["permissionDecisionReason"]
        .as_str()
        .unwrap_or("");
    assert!(
        reason.contains("the server was stopped (SIGTERM)"),
        "{reason}"
    );
    assert_eq!(server.child.wait().expect("wait").code(), Some(143));
    assert!(
        began.elapsed() < Duration::from_secs(3),
        "{:?}",
        began.elapsed()
    );
    // The hook was killed: it never finishes.
    std::thread::sleep(Duration::from_millis(3500));
    assert!(!t.path().join("done.txt").exists());
}

/// Two configs of two blocking hooks each, told apart by their reasons.
fn config_named(name: &str) -> String {
    format!(
        "[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"echo {name}-one >&2; exit 2\"\n\n[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"echo {name}-two >&2; exit 2\"\n"
    )
}

#[test]
fn reloads_under_load_give_whole_answers_and_a_broken_one_keeps_the_last_good() {
    let t = HookTest::new().toml(&config_named("old"));
    let config = t.path().join("config-1.toml");
    let server = start(&t, &["--config", "config-1.toml"]);
    let port = server.port;
    let clients: Vec<_> = (0..4)
        .map(|_| {
            let event = pre_tool(&t, "ls");
            std::thread::spawn(move || (0..25).map(|_| post(port, &event)).collect::<Vec<_>>())
        })
        .collect();
    for round in 0..6 {
        std::thread::sleep(Duration::from_millis(150));
        let name = if round % 2 == 0 { "new" } else { "old" };
        std::fs::write(&config, config_named(name)).expect("write");
    }
    for client in clients {
        for (status, code, body) in client.join().expect("client") {
            assert_eq!((status, code.as_deref()), (200, Some("2")), "{body}");
            let whole = ["old", "new"]
                .iter()
                .any(|n| body.contains(&format!("{n}-one")) && body.contains(&format!("{n}-two")));
            assert!(whole, "an answer from two configs: {body}");
        }
    }
    // A broken save keeps the last good config.
    std::fs::write(&config, config_named("last")).expect("write");
    std::thread::sleep(Duration::from_millis(400));
    let (_, _, body) = post(port, &pre_tool(&t, "ls"));
    assert!(body.contains("last-one"), "{body}");
    std::fs::write(&config, "[[hooks]]\nevent = \"PreToolUse\"\ntimout = 1\n").expect("write");
    std::thread::sleep(Duration::from_millis(400));
    let (status, code, body) = post(port, &pre_tool(&t, "ls"));
    assert_eq!((status, code.as_deref()), (200, Some("2")), "{body}");
    assert!(
        body.contains("last-one") && body.contains("last-two"),
        "{body}"
    );
}

/// A self-signed certificate for 127.0.0.1 in `t`'s directory
/// (`cert.pem`, `key.pem`).
fn certificate(t: &HookTest) {
    let made = rcgen::generate_simple_self_signed(vec!["127.0.0.1".to_owned()]).expect("cert");
    std::fs::write(t.path().join("cert.pem"), made.cert.pem()).expect("write");
    std::fs::write(t.path().join("key.pem"), made.signing_key.serialize_pem()).expect("write");
}

#[test]
fn over_tls_forward_gets_the_servers_answer_and_plain_http_gets_none() {
    let t = HookTest::new()
        .toml("[[hooks]]\nevent = \"PreToolUse\"\nbuiltin = \"dangerous-commands\"\n")
        .file("token", "tls-token\n");
    certificate(&t);
    let tls = ["--tls-cert", "cert.pem", "--tls-key", "key.pem"];
    let mut args = vec!["--config", "config-1.toml", "--token-file", "token"];
    args.extend(tls);
    let server = start(&t, &args);
    let url = format!("https://127.0.0.1:{}", server.port);
    let event = pre_tool(&t, "rm -rf ~");
    let mut forward = crate::serve_http::hookrun(&t);
    forward
        .args([
            "forward",
            "--url",
            &url,
            "--token-file",
            "token",
            "--dialect",
            "claude",
        ])
        .env("SSL_CERT_FILE", t.path().join("cert.pem"));
    let (code, stdout) = crate::serve_http::output_of(forward, &event);
    let (run_code, run_stdout) =
        crate::serve_http::run_with(&t, &["run", "--config", "config-1.toml"], &event);
    assert_eq!((code, stdout.as_str()), (run_code, run_stdout.as_str()));
    assert_eq!(code, 2);
    // Plain HTTP on the TLS port is answered with nothing of the server's.
    let mut plain = TcpStream::connect(("127.0.0.1", server.port)).expect("connect");
    plain
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .expect("write");
    let answer = read_all(plain);
    assert!(!answer.contains("ok"), "{answer}");
}

#[test]
fn unusable_tls_files_end_the_server_before_it_listens_naming_the_file() {
    let t = HookTest::new()
        .toml("[[hooks]]\nevent = \"PreToolUse\"\nbuiltin = \"dangerous-commands\"\n")
        .file("not-a-cert.pem", "hello\n");
    certificate(&t);
    for (cert, key, says) in [
        (
            "missing.pem",
            "key.pem",
            "--tls-cert `missing.pem` cannot be used",
        ),
        (
            "not-a-cert.pem",
            "key.pem",
            "--tls-cert `not-a-cert.pem` holds no PEM certificate",
        ),
        (
            "cert.pem",
            "cert.pem",
            "--tls-key `cert.pem` cannot be used",
        ),
    ] {
        let out = crate::serve_http::hookrun(&t)
            .args([
                "serve",
                "--http",
                "127.0.0.1:0",
                "--config",
                "config-1.toml",
            ])
            .args(["--tls-cert", cert, "--tls-key", key])
            .stdin(std::process::Stdio::null())
            .output()
            .expect("serve");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(stderr.contains(says), "{says}: {stderr}");
        assert!(!stderr.contains("listening on"), "{stderr}");
    }
}
