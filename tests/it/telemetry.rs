//! OpenTelemetry export, as a Collector receives it: a real OTLP receiver
//! (tests/otlp/receiver.py) decodes every export with the OpenTelemetry
//! project's protocol definitions (`opentelemetry-proto`), never with
//! hookrun's encoder, over OTLP/HTTP (protobuf and JSON) and gRPC.
//!
//! The receiver needs Python with tests/otlp/requirements.txt installed:
//! `HOOKRUN_OTLP_PYTHON` names that Python (else `python3`). Without the
//! packages each test says it was skipped and passes, so `cargo test`
//! needs no Python packages; `HOOKRUN_REQUIRE_OTLP=1` (set by CI, which
//! installs them) makes that a failure.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::support::{BIN, HookTest};

/// What a test waits at most for an export to arrive.
const ARRIVAL: Duration = Duration::from_secs(20);

const INSTALL: &str = "python3 -m pip install -r tests/otlp/requirements.txt";

/// A running receiver: its port and the exports it decoded.
struct Receiver {
    child: Child,
    port: u16,
    exports: mpsc::Receiver<Value>,
}

impl Drop for Receiver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The Python that has the receiver's packages, or `None` (skipped).
fn python() -> Option<String> {
    let python = std::env::var("HOOKRUN_OTLP_PYTHON").unwrap_or_else(|_| "python3".into());
    let ready = Command::new(&python)
        .args(["-c", "import opentelemetry.proto, grpc, google.protobuf"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if ready {
        return Some(python);
    }
    let why = format!("{python} cannot import opentelemetry-proto and grpcio");
    if std::env::var("HOOKRUN_REQUIRE_OTLP").is_ok_and(|v| v == "1") {
        panic!("HOOKRUN_REQUIRE_OTLP=1 but {why}; {INSTALL}");
    }
    eprintln!("skipped: {why}; {INSTALL}");
    None
}

impl Receiver {
    /// Starts the receiver (`http` or `grpc`; `hang`: never answers).
    fn start(protocol: &str, hang: bool) -> Option<Receiver> {
        let python = python()?;
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/otlp/receiver.py");
        let mut child = Command::new(python)
            .arg(script)
            .args(["--protocol", protocol])
            .args(hang.then_some("--hang"))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn the OTLP receiver");
        let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
        let first: Value = lines
            .next()
            .and_then(Result::ok)
            .and_then(|l| serde_json::from_str(&l).ok())
            .expect("the receiver's listening line");
        let port = u16::try_from(first["listening"].as_u64().expect("a port")).expect("a port");
        let (tx, exports) = mpsc::channel();
        std::thread::spawn(move || {
            for line in lines.map_while(Result::ok) {
                if let Ok(v) = serde_json::from_str::<Value>(&line) {
                    let _ = tx.send(v);
                }
            }
        });
        Some(Receiver {
            child,
            port,
            exports,
        })
    }

    fn endpoint(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// The exports received until `done` holds of them (or the wait ran out).
    fn until(&self, done: impl Fn(&[Value]) -> bool) -> Vec<Value> {
        let deadline = Instant::now() + ARRIVAL;
        let mut got = Vec::new();
        while !done(&got) {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.exports.recv_timeout(left) {
                Ok(v) => {
                    assert!(
                        v.get("error").is_none(),
                        "the receiver could not decode: {v}"
                    );
                    got.push(v);
                }
                Err(_) => break,
            }
        }
        got
    }

    /// Whatever arrives within `wait`.
    fn within(&self, wait: Duration) -> Vec<Value> {
        let deadline = Instant::now() + wait;
        let mut got = Vec::new();
        while let Ok(v) = self
            .exports
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            got.push(v);
        }
        got
    }
}

/// Every item of one signal across the exports.
fn items(exports: &[Value], signal: &str) -> Vec<Value> {
    exports
        .iter()
        .filter(|e| e["signal"] == signal)
        .flat_map(|e| e["items"].as_array().cloned().unwrap_or_default())
        .collect()
}

fn spans_named<'a>(spans: &'a [Value], prefix: &str) -> Vec<&'a Value> {
    spans
        .iter()
        .filter(|s| s["name"].as_str().is_some_and(|n| n.starts_with(prefix)))
        .collect()
}

/// The events with this decision in the last `hookrun.events` received,
/// over all its points (dialects, events).
fn events_counted(metrics: &[Value], decision: &str) -> u64 {
    metrics
        .iter()
        .rfind(|m| m["name"] == "hookrun.events")
        .and_then(|m| m["points"].as_array())
        .into_iter()
        .flatten()
        .filter(|p| p["attributes"]["decision"] == decision)
        .map(|p| p["value"].as_u64().unwrap_or(0))
        .sum()
}

/// A fake AWS key built at run time, so that no secret is in the source.
fn secret() -> String {
    format!("AKIA{}", "Q7ZL3MNB5XK2WP4R")
}

/// A config whose Bash guard denies with a reason naming a secret, a
/// second hook that allows, and `[telemetry]` with `extra` keys.
fn guarded(endpoint: &str, extra: &str) -> String {
    format!(
        r#"[telemetry]
otlp_endpoint = "{endpoint}"
{extra}

[[hooks]]
event = "PreToolUse"
matcher = "Bash"
name = "no-rm"
command = "echo 'rm is off, key {secret}' >&2; exit 2"

[[hooks]]
event = "PreToolUse"
builtin = "dangerous-commands"
"#,
        secret = secret()
    )
}

fn bash(command: &str) -> Value {
    json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": command}, "session_id": "sess-1"})
}

#[test]
fn run_exports_a_span_per_event_with_a_child_per_hook_its_metrics_and_its_audit_log() {
    let Some(rx) = Receiver::start("http", false) else {
        return;
    };
    let t = HookTest::new()
        .toml(&guarded(&rx.endpoint(), "logs = true"))
        .event(bash("rm -rf build"));
    let out = t.run();
    assert_eq!(out.code, 2, "{out:?}");
    let got = rx.until(|e| {
        ["traces", "metrics", "logs"]
            .iter()
            .all(|s| !items(e, s).is_empty())
    });
    assert!(got.iter().all(|e| e["encoding"] == "protobuf"), "{got:?}");
    let spans = items(&got, "traces");
    let event = spans_named(&spans, "hookrun PreToolUse");
    assert_eq!(event.len(), 1, "{spans:?}");
    let event = event[0];
    let a = &event["attributes"];
    assert_eq!(a["hookrun.event"], "PreToolUse");
    assert_eq!(a["hookrun.tool"], "Bash");
    assert_eq!(a["hookrun.dialect"], "claude");
    assert_eq!(a["hookrun.decision"], "deny");
    assert_eq!(a["hookrun.hooks"], 2);
    assert_eq!(a["hookrun.exit_code"], 2);
    assert_eq!(a["hookrun.session"], "sess-1");
    let reason = a["hookrun.reason"].as_str().unwrap_or_default();
    assert!(reason.contains("rm is off"), "{reason}");
    assert!(!reason.contains(&secret()), "a secret in a span: {reason}");
    assert_eq!(event["resource"]["service.name"], "hookrun");
    assert!(event["end"].as_u64() > event["start"].as_u64(), "{event}");
    // One child per hook, in the same trace, under the event's span.
    let hooks = spans_named(&spans, "hookrun.hook ");
    assert_eq!(hooks.len(), 2, "{spans:?}");
    for h in &hooks {
        assert_eq!(h["trace_id"], event["trace_id"]);
        assert_eq!(h["parent_span_id"], event["span_id"]);
        assert!(h["start"].as_u64() >= event["start"].as_u64(), "{h}");
        assert!(h["end"].as_u64() <= event["end"].as_u64(), "{h}");
    }
    let command = hooks
        .iter()
        .find(|h| h["attributes"]["hookrun.hook.kind"] == "command")
        .expect("the command hook's span");
    assert_eq!(command["attributes"]["hookrun.hook.name"], "no-rm");
    assert_eq!(command["attributes"]["hookrun.hook.exit_code"], 2);
    assert_eq!(command["attributes"]["hookrun.hook.timed_out"], false);
    let builtin = hooks
        .iter()
        .find(|h| h["attributes"]["hookrun.hook.kind"] == "builtin")
        .expect("the built-in's span");
    assert_eq!(
        builtin["attributes"]["hookrun.hook.name"],
        "dangerous-commands"
    );
    // Metrics: `run` adds its one event as a delta.
    let metrics = items(&got, "metrics");
    assert_eq!(events_counted(&metrics, "deny"), 1, "{metrics:?}");
    let events = metrics
        .iter()
        .find(|m| m["name"] == "hookrun.events")
        .expect("hookrun.events");
    assert_eq!(events["temporality"], 1, "delta: {events}");
    let point = &events["points"][0]["attributes"];
    assert_eq!(
        (&point["dialect"], &point["event"]),
        (&json!("claude"), &json!("PreToolUse"))
    );
    let hook_seconds = metrics
        .iter()
        .find(|m| m["name"] == "hookrun.hook.duration")
        .expect("hookrun.hook.duration");
    assert_eq!(hook_seconds["unit"], "s");
    assert_eq!(hook_seconds["points"][0]["count"], 2);
    // The audit record, redacted as the audit line, in the event's trace.
    let logs = items(&got, "logs");
    assert_eq!(logs.len(), 1, "{logs:?}");
    let log = &logs[0];
    assert_eq!(log["event_name"], "hookrun.audit");
    assert_eq!(log["trace_id"], event["trace_id"]);
    assert_eq!(log["span_id"], event["span_id"]);
    assert_eq!(log["body"]["event"], "PreToolUse");
    assert_eq!(log["body"]["decision"]["permission"], "deny");
    assert_eq!(log["body"]["hooks"].as_array().map(Vec::len), Some(2));
    assert!(
        !log.to_string().contains(&secret()),
        "a secret in a log: {log}"
    );
}

#[test]
fn http_json_and_grpc_carry_the_same_event() {
    for (protocol, receiver) in [("http/json", "http"), ("grpc", "grpc")] {
        let Some(rx) = Receiver::start(receiver, false) else {
            return;
        };
        let extra = format!("protocol = \"{protocol}\"\nlogs = true");
        let t = HookTest::new()
            .toml(&guarded(&rx.endpoint(), &extra))
            .event(bash("ls"));
        let out = t.run();
        assert_eq!(out.code, 2, "{protocol}: {out:?}");
        let got = rx.until(|e| {
            ["traces", "metrics", "logs"]
                .iter()
                .all(|s| !items(e, s).is_empty())
        });
        let expected = if protocol == "grpc" { "grpc" } else { "json" };
        assert!(
            got.iter().all(|e| e["encoding"] == expected),
            "{protocol}: {got:?}"
        );
        let spans = items(&got, "traces");
        let event = spans_named(&spans, "hookrun PreToolUse");
        assert_eq!(event.len(), 1, "{protocol}: {spans:?}");
        assert_eq!(event[0]["attributes"]["hookrun.decision"], "deny");
        let hooks = spans_named(&spans, "hookrun.hook ");
        assert_eq!(hooks.len(), 2, "{protocol}: {spans:?}");
        assert!(
            hooks
                .iter()
                .all(|h| h["parent_span_id"] == event[0]["span_id"])
        );
        assert_eq!(events_counted(&items(&got, "metrics"), "deny"), 1);
        assert_eq!(items(&got, "logs")[0]["body"]["event"], "PreToolUse");
    }
}

#[test]
fn the_standard_variables_alone_turn_it_on_and_otel_sdk_disabled_off() {
    let Some(rx) = Receiver::start("http", false) else {
        return;
    };
    let plain = "[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"exit 0\"\n";
    let parent_trace = "4bf92f3577b34da6a3ce929d0e0e4736";
    let t = HookTest::new()
        .toml(plain)
        .event(bash("ls"))
        .env("OTEL_EXPORTER_OTLP_ENDPOINT", &rx.endpoint())
        .env("OTEL_SERVICE_NAME", "agents")
        .env("OTEL_EXPORTER_OTLP_HEADERS", "x-team=policy")
        .env(
            "TRACEPARENT",
            &format!("00-{parent_trace}-00f067aa0ba902b7-01"),
        );
    let out = t.run();
    assert_eq!(out.code, 0, "{out:?}");
    let got = rx.until(|e| !items(e, "traces").is_empty() && !items(e, "metrics").is_empty());
    let spans = items(&got, "traces");
    let event = spans_named(&spans, "hookrun PreToolUse");
    assert_eq!(event.len(), 1, "{spans:?}");
    assert_eq!(event[0]["resource"]["service.name"], "agents");
    assert_eq!(event[0]["attributes"]["hookrun.decision"], "none");
    // The agent's trace context makes the event's span a child of its own.
    assert_eq!(event[0]["trace_id"], parent_trace);
    assert_eq!(event[0]["parent_span_id"], "00f067aa0ba902b7");
    let traces = got
        .iter()
        .find(|e| e["signal"] == "traces")
        .expect("traces");
    assert_eq!(traces["headers"]["x-team"], "policy", "{traces}");
    // Logs only when asked.
    assert!(items(&got, "logs").is_empty());
    // OTEL_SDK_DISABLED turns it off, the table notwithstanding.
    let off = HookTest::new()
        .toml(&guarded(&rx.endpoint(), "logs = true"))
        .event(bash("ls"))
        .env("OTEL_SDK_DISABLED", "true");
    assert_eq!(off.run().code, 2);
    let late = rx.within(Duration::from_millis(800));
    assert!(late.is_empty(), "exported though disabled: {late:?}");
}

#[test]
fn a_collector_that_is_down_or_hangs_changes_nothing_and_delays_run_at_most_its_bound() {
    let Some(hung) = Receiver::start("http", true) else {
        return;
    };
    let baseline = HookTest::new()
        .toml(&guarded("http://127.0.0.1:9", "enabled = false"))
        .event(bash("rm -rf build"))
        .run();
    assert_eq!(baseline.code, 2, "{baseline:?}");
    // A port nobody listens on: the connection is refused.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let down = format!("http://{}", closed.local_addr().expect("addr"));
    drop(closed);
    for (what, endpoint) in [("down", down), ("hung", hung.endpoint())] {
        for protocol in ["http/protobuf", "grpc"] {
            let extra = format!("protocol = \"{protocol}\"\nlogs = true\nexport_timeout = 0.3");
            let out = HookTest::new()
                .toml(&guarded(&endpoint, &extra))
                .event(bash("rm -rf build"))
                .run();
            assert_eq!(
                (out.code, &out.stdout, &out.stderr),
                (baseline.code, &baseline.stdout, &baseline.stderr),
                "{what} {protocol}"
            );
            // The exporter's own timeout is 10 s; `run` stops waiting at
            // export_timeout (generous bound: this only catches a wait on
            // the collector).
            assert!(
                out.elapsed < Duration::from_secs(5),
                "{what} {protocol}: {:?}",
                out.elapsed
            );
        }
    }
}

/// `serve --stdio` with this config in `t`, fed `lines`, until EOF.
fn serve_stdio(t: &HookTest, lines: &[Value]) -> std::process::Output {
    let mut child = Command::new(BIN)
        .args(["serve", "--stdio", "--config"])
        .arg(t.path().join("hookrun.toml"))
        .current_dir(t.path())
        .env("HOME", t.path().join(".home"))
        .env("XDG_CONFIG_HOME", t.path().join(".xdg-config"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn serve --stdio");
    let mut stdin = child.stdin.take().expect("stdin");
    for line in lines {
        writeln!(stdin, "{line}").expect("write an event");
    }
    drop(stdin);
    child.wait_with_output().expect("serve --stdio")
}

fn pre_tool_use(command: &str) -> Value {
    json!({
        "hook_event_name": "PreToolUse", "session_id": "s", "cwd": "/",
        "tool_name": "Bash", "tool_input": {"command": command},
    })
}

#[test]
fn serve_stdio_batches_and_sends_everything_before_it_exits() {
    let Some(rx) = Receiver::start("http", false) else {
        return;
    };
    let t = HookTest::new().raw_config("hookrun.toml", &guarded(&rx.endpoint(), "logs = true"));
    let out = serve_stdio(&t, &[pre_tool_use("ls"), pre_tool_use("make")]);
    assert!(out.status.success(), "{out:?}");
    let got = rx.until(|e| {
        spans_named(&items(e, "traces"), "hookrun PreToolUse").len() == 2
            && items(e, "logs").len() == 2
            && events_counted(&items(e, "metrics"), "deny") == 2
    });
    let spans = items(&got, "traces");
    let events = spans_named(&spans, "hookrun PreToolUse");
    assert_eq!(events.len(), 2, "{spans:?}");
    assert_ne!(events[0]["trace_id"], events[1]["trace_id"]);
    assert_eq!(spans_named(&spans, "hookrun.hook ").len(), 4);
    let metrics = items(&got, "metrics");
    assert_eq!(events_counted(&metrics, "deny"), 2, "{metrics:?}");
    let counter = metrics
        .iter()
        .find(|m| m["name"] == "hookrun.events")
        .expect("hookrun.events");
    assert_eq!(
        counter["temporality"], 2,
        "a server's series are cumulative"
    );
    assert_eq!(counter["points"][0]["attributes"]["dialect"], "auto");
    assert_eq!(items(&got, "logs").len(), 2);
}

#[test]
fn serve_http_exports_the_series_of_its_metrics_page_and_the_callers_trace() {
    let Some(rx) = Receiver::start("http", false) else {
        return;
    };
    let t = HookTest::new().raw_config("hookrun.toml", &guarded(&rx.endpoint(), ""));
    let token = t.path().join("token");
    std::fs::write(&token, "s3cret-token\n").expect("token");
    let server = crate::serve_http::start(
        &t,
        &[
            "--config",
            "hookrun.toml",
            "--token-file",
            token.to_str().expect("utf-8"),
            "--grace",
            "1",
        ],
    );
    let parent_trace = "0af7651916cd43dd8448eb211c80319c";
    let traceparent = format!("00-{parent_trace}-b7ad6b7169203331-01");
    let event = pre_tool_use("rm -rf x");
    let (status, _, _) = crate::serve_http::request(
        server.port,
        "POST",
        "/hooks/claude",
        &[
            ("Authorization", "Bearer s3cret-token"),
            ("traceparent", &traceparent),
        ],
        event.to_string().as_bytes(),
    );
    assert_eq!(status, 200);
    // `hookrun forward` hands the server its own TRACEPARENT.
    let forwarded_trace = "5bf92f3577b34da6a3ce929d0e0e4736";
    let mut forward = Command::new(BIN)
        .args(["forward", "--url"])
        .arg(format!("http://127.0.0.1:{}", server.port))
        .arg("--token-file")
        .arg(&token)
        .env(
            "TRACEPARENT",
            format!("00-{forwarded_trace}-00f067aa0ba902b7-01"),
        )
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn forward");
    forward
        .stdin
        .take()
        .expect("stdin")
        .write_all(pre_tool_use("ls").to_string().as_bytes())
        .expect("event");
    let forwarded = forward.wait_with_output().expect("forward");
    // The config's Bash guard denies, through forward as through run.
    assert_eq!(forwarded.status.code(), Some(2), "{forwarded:?}");
    let (status, _, _) =
        crate::serve_http::request(server.port, "POST", "/hooks/claude", &[], b"{}");
    assert_eq!(status, 401);
    let (_, _, page) = crate::serve_http::request(
        server.port,
        "GET",
        "/metrics",
        &[("Authorization", "Bearer s3cret-token")],
        b"",
    );
    assert!(
        page.contains(
            r#"hookrun_events_total{dialect="claude",event="PreToolUse",decision="deny"} 1"#
        ),
        "{page}"
    );
    // SIGTERM: the server sends what it batched before it exits.
    let pid = nix::unistd::Pid::from_raw(i32::try_from(server.child.id()).expect("pid"));
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM).expect("SIGTERM");
    let got = rx.until(|e| {
        spans_named(&items(e, "traces"), "hookrun PreToolUse").len() == 2
            && items(e, "metrics")
                .iter()
                .any(|m| m["name"] == "hookrun.errors")
    });
    let spans = items(&got, "traces");
    let events = spans_named(&spans, "hookrun PreToolUse");
    assert_eq!(events.len(), 2, "{spans:?}");
    assert!(
        events.iter().any(|s| s["trace_id"] == forwarded_trace),
        "{events:?}"
    );
    let event: Vec<&Value> = events
        .into_iter()
        .filter(|s| s["trace_id"] == parent_trace)
        .collect();
    assert_eq!(event.len(), 1, "{spans:?}");
    assert_eq!(event[0]["trace_id"], parent_trace);
    assert_eq!(event[0]["parent_span_id"], "b7ad6b7169203331");
    assert_eq!(event[0]["attributes"]["hookrun.decision"], "deny");
    assert_eq!(spans_named(&spans, "hookrun.hook ").len(), 4);
    let metrics = items(&got, "metrics");
    let names: Vec<&str> = metrics.iter().filter_map(|m| m["name"].as_str()).collect();
    for name in [
        "hookrun.events",
        "hookrun.event.duration",
        "hookrun.hook.duration",
        "hookrun.errors",
        "hookrun.events.in_flight",
    ] {
        assert!(names.contains(&name), "{name} missing from {names:?}");
    }
    assert_eq!(events_counted(&metrics, "deny"), 2);
    let errors = metrics
        .iter()
        .find(|m| m["name"] == "hookrun.errors")
        .expect("errors");
    assert_eq!(errors["points"][0]["attributes"]["kind"], "unauthorized");
}

#[test]
fn an_untrusted_project_file_cannot_set_telemetry_and_check_says_so() {
    let Some(rx) = Receiver::start("http", false) else {
        return;
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    std::fs::create_dir_all(root.join("xdg/hookrun")).expect("mkdir");
    std::fs::create_dir_all(root.join("proj")).expect("mkdir");
    std::fs::write(
        root.join("xdg/hookrun/hookrun.toml"),
        "[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"exit 0\"\n",
    )
    .expect("user config");
    std::fs::write(
        root.join("proj/hookrun.toml"),
        format!(
            "[telemetry]\notlp_endpoint = \"{}\"\nlogs = true\n\n[[hooks]]\nevent = \"Stop\"\ncommand = \"exit 0\"\n",
            rx.endpoint()
        ),
    )
    .expect("project config");
    let hookrun = |args: &[&str], stdin: &[u8]| {
        let mut child = Command::new(BIN)
            .args(args)
            .current_dir(root.join("proj"))
            .env("HOME", root.join("home"))
            .env("XDG_CONFIG_HOME", root.join("xdg"))
            .env("CLAUDE_PROJECT_DIR", root.join("proj"))
            .env_remove("HOOKRUN_CONFIG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(stdin)
            .expect("event");
        child.wait_with_output().expect("hookrun")
    };
    let out = hookrun(&["run"], pre_tool_use("ls").to_string().as_bytes());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("`[telemetry]`"), "{stderr}");
    assert!(stderr.contains("not trusted"), "{stderr}");
    let late = rx.within(Duration::from_millis(800));
    assert!(
        late.is_empty(),
        "an untrusted file's telemetry was sent: {late:?}"
    );
    let check = hookrun(&["check"], b"");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&check.stdout),
        String::from_utf8_lossy(&check.stderr)
    );
    assert!(said.contains("`[telemetry]`"), "{said}");
    assert!(said.contains("proj/hookrun.toml"), "{said}");
    // Trusted, the same file's table is used.
    let trust = hookrun(&["trust", "hookrun.toml"], b"");
    assert!(trust.status.success(), "{trust:?}");
    let out = hookrun(&["run"], pre_tool_use("ls").to_string().as_bytes());
    assert!(out.status.success(), "{out:?}");
    let got = rx.until(|e| !items(e, "traces").is_empty());
    assert_eq!(
        spans_named(&items(&got, "traces"), "hookrun PreToolUse").len(),
        1
    );
}

#[test]
fn a_wrong_telemetry_value_names_its_file_line_and_key() {
    for (table, key, says) in [
        (
            "otlp_endpoint = \"ftp://collector\"",
            "telemetry.otlp_endpoint",
            "not an OTLP endpoint",
        ),
        ("sampling = 1.5", "telemetry.sampling", "between 0 and 1"),
        (
            "export_timeout = 60",
            "telemetry.export_timeout",
            "at most 10",
        ),
        ("endpoint = \"http://c:4318\"", "endpoint", "unknown field"),
        (
            "protocol = \"thrift\"",
            "telemetry.protocol",
            "unknown variant",
        ),
    ] {
        let t = HookTest::new()
            .toml(&format!(
                "[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"exit 0\"\n\n[telemetry]\n{table}\n"
            ))
            .event(bash("ls"));
        let out = t.run();
        // The config could not be evaluated: the trust rule's block.
        assert_eq!(out.code, 2, "{table}: {out:?}");
        let said = format!("{}{}", out.stdout, out.stderr);
        assert!(said.contains(key), "{table}: {said}");
        assert!(said.contains(says), "{table}: {said}");
        assert!(said.contains("config-1.toml:6"), "{table}: {said}");
    }
}
