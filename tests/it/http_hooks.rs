//! `http` hooks against a real local server: what each kind of answer
//! means, under open and closed fail modes, the header-variable rule,
//! Claude Code's order and dedup, and the events it skips.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};

use crate::support::{HookTest, cmd, hookrun_in, settings};

/// One request the server received.
#[derive(Debug, Clone)]
pub(crate) struct Seen {
    pub(crate) path: String,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: Value,
}

/// How a server answers a request's path: status line and body.
pub(crate) type Reply = fn(&str) -> (&'static str, String);

/// A local HTTP server on a free port, answering by path (see `reply`);
/// it records every request.
pub(crate) struct Server {
    url: String,
    seen: Arc<Mutex<Vec<Seen>>>,
}

impl Server {
    pub(crate) fn start() -> Server {
        Server::answering(reply)
    }

    /// A server answering with `reply`.
    pub(crate) fn answering(reply: Reply) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let url = format!("http://{}", listener.local_addr().expect("addr"));
        let seen = Arc::new(Mutex::new(Vec::new()));
        let record = Arc::clone(&seen);
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let record = Arc::clone(&record);
                std::thread::spawn(move || serve_one(stream, &record, reply));
            }
        });
        Server { url, seen }
    }

    pub(crate) fn url(&self, path: &str) -> String {
        format!("{}{path}", self.url)
    }

    pub(crate) fn seen(&self) -> Vec<Seen> {
        self.seen.lock().map(|s| s.clone()).unwrap_or_default()
    }
}

fn serve_one(stream: std::net::TcpStream, record: &Mutex<Vec<Seen>>, reply: Reply) {
    let mut reader = BufReader::new(stream.try_clone().expect("clone"));
    let mut line = String::new();
    if reader.read_line(&mut line).is_err() {
        return;
    }
    let path = line.split_whitespace().nth(1).unwrap_or("/").to_owned();
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h).is_err() || h.trim().is_empty() {
            break;
        }
        if let Some((k, v)) = h.trim_end().split_once(':') {
            headers.push((k.to_ascii_lowercase(), v.trim().to_owned()));
        }
    }
    let len = headers
        .iter()
        .find(|(k, _)| k == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; len];
    let _ = reader.read_exact(&mut body);
    if let Ok(mut r) = record.lock() {
        r.push(Seen {
            path: path.clone(),
            headers,
            body: serde_json::from_slice(&body).unwrap_or(Value::Null),
        });
    }
    let (status, text) = reply(&path);
    let mut stream = stream;
    let _ = write!(
        stream,
        "HTTP/1.1 {status}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{text}",
        text.len()
    );
}

/// The server's answer to each path.
fn reply(path: &str) -> (&'static str, String) {
    let deny = json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "permissionDecision": "deny", "permissionDecisionReason": "the policy server says no"}});
    match path {
        "/deny" => ("200 OK", deny.to_string()),
        "/allow-rewrite" => (
            "200 OK",
            json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                "permissionDecision": "allow", "updatedInput": {"command": "echo rewritten"}}})
            .to_string(),
        ),
        "/deny-500" => ("500 Internal Server Error", deny.to_string()),
        "/text" => ("200 OK", "looks fine to me".to_owned()),
        "/empty" => ("200 OK", String::new()),
        "/redirect" => ("302 Found", String::new()),
        "/big" => (
            "200 OK",
            format!("{{\"systemMessage\": \"{}\"}}", "x".repeat(4096)),
        ),
        "/slow" => {
            std::thread::sleep(Duration::from_secs(5));
            ("200 OK", "{}".to_owned())
        }
        p if p.starts_with("/context/") => (
            "200 OK",
            json!({"hookSpecificOutput": {"hookEventName": "UserPromptSubmit",
                "additionalContext": format!("from {}", &p[9..])}})
            .to_string(),
        ),
        _ => ("200 OK", "{}".to_owned()),
    }
}

fn http(url: &str) -> Value {
    json!({"type": "http", "url": url})
}

fn http_closed(url: &str) -> Value {
    json!({"type": "http", "url": url, "onFailure": "block"})
}

#[test]
fn a_json_deny_blocks_and_the_event_is_posted_as_json() {
    let server = Server::start();
    let out = HookTest::new()
        .json(settings(
            "PreToolUse",
            "Bash",
            json!([http(&server.url("/deny"))]),
        ))
        .pre_tool_use("rm -rf build")
        .run();
    assert_eq!(out.code, 2, "{out:?}");
    assert_eq!(out.hso()["permissionDecision"], "deny");
    assert_eq!(
        out.hso()["permissionDecisionReason"],
        "the policy server says no"
    );
    let seen = server.seen();
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert_eq!(seen[0].body["hook_event_name"], "PreToolUse");
    assert_eq!(seen[0].body["tool_input"]["command"], "rm -rf build");
    assert!(
        seen[0]
            .headers
            .contains(&("content-type".into(), "application/json".into())),
        "{seen:?}"
    );
}

#[test]
fn failures_are_notices_when_open_and_blocks_when_closed() {
    let server = Server::start();
    // Port 9 on localhost: nothing listens (connection refused).
    let unreachable = "http://127.0.0.1:9/hook".to_owned();
    for (path, says) in [
        ("/deny-500", "status 500"),
        ("/text", "other than a JSON object"),
        ("/redirect", "redirect"),
        ("", "request failed"),
        // Not a public address: refused before any connection.
        (
            "http://10.255.255.1/hook",
            "10.255.255.1 is not a public address",
        ),
    ] {
        let url = if path.is_empty() {
            unreachable.clone()
        } else if path.starts_with("http") {
            path.to_owned()
        } else {
            server.url(path)
        };
        let open = HookTest::new()
            .json(settings("PreToolUse", "Bash", json!([http(&url)])))
            .pre_tool_use("ls")
            .run();
        assert_eq!(open.code, 0, "{path}: {open:?}");
        assert!(
            open.hso().get("permissionDecision").is_none(),
            "{path}: {open:?}"
        );
        assert!(open.system_message().contains(says), "{path}: {open:?}");
        let closed = HookTest::new()
            .json(settings("PreToolUse", "Bash", json!([http_closed(&url)])))
            .pre_tool_use("ls")
            .run();
        assert_eq!(closed.code, 2, "{path}: {closed:?}");
        assert_eq!(
            closed.hso()["permissionDecision"],
            "deny",
            "{path}: {closed:?}"
        );
    }
}

#[test]
fn an_empty_answer_allows_and_a_large_one_fails() {
    let server = Server::start();
    let out = HookTest::new()
        .json(settings(
            "PreToolUse",
            "Bash",
            json!([http(&server.url("/empty"))]),
        ))
        .pre_tool_use("ls")
        .run();
    assert_eq!((out.code, out.json()), (0, json!({})), "{out:?}");
    let toml = format!(
        "[limits]\nmax_output_bytes = 1024\n\n[[hooks]]\nevent = \"PreToolUse\"\nhttp = \"{}\"\nfail_mode = \"closed\"\n",
        server.url("/big")
    );
    let out = HookTest::new().toml(&toml).pre_tool_use("ls").run();
    assert_eq!(out.code, 2, "{out:?}");
    let reason = out.hso()["permissionDecisionReason"].to_string();
    assert!(reason.contains("over 1024 bytes"), "{out:?}");
}

#[test]
fn a_slow_server_times_out_by_the_hooks_timeout() {
    let server = Server::start();
    let slow =
        json!({"type": "http", "url": server.url("/slow"), "timeout": 1, "onFailure": "block"});
    let out = HookTest::new()
        .json(settings("PreToolUse", "Bash", json!([slow])))
        .pre_tool_use("ls")
        .run();
    assert_eq!(out.code, 2, "{out:?}");
    assert!(out.elapsed < Duration::from_secs(4), "{out:?}");
    assert!(
        out.hso()["permissionDecisionReason"]
            .to_string()
            .contains("timed out"),
        "{out:?}"
    );
}

#[test]
fn only_allowed_variables_reach_the_headers() {
    let server = Server::start();
    let toml = format!(
        "[[hooks]]\nevent = \"PreToolUse\"\nhttp = \"{}\"\nheaders = {{ Authorization = \"Bearer $POLICY_TOKEN\", X-Home = \"[${{SECRET_HOME}}]\" }}\nallowed_env_vars = [\"POLICY_TOKEN\"]\n",
        server.url("/allow")
    );
    let out = HookTest::new()
        .toml(&toml)
        .env("POLICY_TOKEN", "t0ken")
        .env("SECRET_HOME", "/home/someone")
        .pre_tool_use("ls")
        .run();
    assert_eq!(out.code, 0, "{out:?}");
    let seen = server.seen();
    let header = |name: &str| {
        seen[0]
            .headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
    };
    assert_eq!(header("authorization").as_deref(), Some("Bearer t0ken"));
    assert_eq!(header("x-home").as_deref(), Some("[]"));
}

#[test]
fn http_hooks_merge_after_commands_run_once_and_skip_session_start() {
    let server = Server::start();
    let a = server.url("/context/http");
    let out = HookTest::new()
        .json(settings(
            "UserPromptSubmit",
            "",
            json!([http(&a), http(&a), cmd("echo '{\"hookSpecificOutput\": {\"hookEventName\": \"UserPromptSubmit\", \"additionalContext\": \"from command\"}}'")]),
        ))
        .event(json!({"hook_event_name": "UserPromptSubmit", "prompt": "hi"}))
        .run();
    assert_eq!(out.code, 0, "{out:?}");
    // Claude Code's order: commands, then http; identical http hooks once.
    assert_eq!(out.hso()["additionalContext"], "from command\nfrom http");
    let seen = server.seen();
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert_eq!(seen[0].path, "/context/http");
    let out = HookTest::new()
        .json(settings(
            "SessionStart",
            "",
            json!([http(&server.url("/deny"))]),
        ))
        .event(json!({"hook_event_name": "SessionStart", "source": "startup"}))
        .run();
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(server.seen().len(), 1, "no request on SessionStart");
}

#[test]
fn check_refuses_a_bad_url_and_warns_of_a_header_variable_not_allowed() {
    let dir = tempfile::tempdir().expect("tempdir");
    let check = |text: &str| {
        std::fs::write(dir.path().join("h.toml"), text).expect("write");
        let (code, out, err) = hookrun_in(dir.path(), &["check", "h.toml"]);
        (code, format!("{out}{err}"))
    };
    let (code, text) =
        check("[[hooks]]\nevent = \"PreToolUse\"\nhttp = \"ftp://files.example/x\"\n");
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("the scheme `ftp` is not http or https") && text.contains("h.toml:3"),
        "{text}"
    );
    let (_, text) = check(
        "[[hooks]]\nevent = \"PreToolUse\"\nhttp = \"https://policy.example/\"\nheaders = { Authorization = \"Bearer $TOKEN\" }\n",
    );
    assert!(text.contains("W022") && text.contains("$TOKEN"), "{text}");
}

#[test]
fn claude_codes_http_settings_admit_urls_and_variables() {
    let server = Server::start();
    let hook = |path: &str| {
        json!({"type": "http", "url": server.url(path),
            "headers": {"X-Token": "$POLICY_TOKEN", "X-Other": "$OTHER"},
            "allowedEnvVars": ["POLICY_TOKEN", "OTHER"]})
    };
    let mut with_lists = settings("PreToolUse", "Bash", json!([hook("/deny"), hook("/allow")]));
    with_lists["allowedHttpHookUrls"] = json!(["http://127.0.0.1:*/allow"]);
    with_lists["httpHookAllowedEnvVars"] = json!(["POLICY_TOKEN"]);
    let out = HookTest::new()
        .json(with_lists)
        .env("POLICY_TOKEN", "t0ken")
        .env("OTHER", "not for them")
        .pre_tool_use("ls")
        .run();
    // `/deny` is not admitted: it fails without a request (a notice, as
    // Claude Code's "HTTP hook blocked"), so the call goes ahead.
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.system_message()
            .contains("does not match any pattern in allowedHttpHookUrls"),
        "{out:?}"
    );
    let seen = server.seen();
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert_eq!(seen[0].path, "/allow");
    let header = |name: &str| {
        seen[0]
            .headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
    };
    assert_eq!(header("x-token").as_deref(), Some("t0ken"));
    assert_eq!(header("x-other").as_deref(), Some(""));
    // An empty list admits no http hook.
    let mut none = settings("PreToolUse", "Bash", json!([hook("/deny")]));
    none["allowedHttpHookUrls"] = json!([]);
    let out = HookTest::new().json(none).pre_tool_use("ls").run();
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(server.seen().len(), 1);
}

#[test]
fn explain_says_a_failed_request_answered_nothing_and_why() {
    let dir = tempfile::tempdir().expect("dir");
    std::fs::write(
        dir.path().join("h.toml"),
        "[[hooks]]\nevent = \"PreToolUse\"\nhttp = \"http://127.0.0.1:9/hook\"\n",
    )
    .expect("write");
    let event = json!({"hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": "ls"}});
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_hookrun"));
    cmd.args(["explain", "--config", "h.toml", "--run"])
        .current_dir(dir.path())
        .env("HOME", dir.path());
    let out = crate::support::output_with_stdin(&mut cmd, event.to_string().as_bytes());
    let text = String::from_utf8_lossy(&out.stdout);
    let ran = text.lines().find(|l| l.contains("ran:")).unwrap_or("");
    assert!(ran.contains("answered after"), "{text}");
    assert!(!ran.contains("exit 0"), "{text}");
    assert!(ran.contains("Connection refused"), "{text}");
}
