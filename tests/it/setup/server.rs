//! `install --url` and `doctor` with a policy server: Claude Code's `http`
//! handler (token from an environment variable, `onFailure: "block"` on the
//! events that can block, `hookrun forward` where Claude Code runs no http
//! handler), `hookrun forward` for an agent that runs only commands, and
//! `doctor` asking the server whether it answers and takes the token
//! (D013), then firing the canaries through what `install` wrote.

use std::io::{BufRead, BufReader};
use std::process::{Child, Stdio};

use serde_json::Value;

use super::Setup;
use super::doctor::{codes, doctor_with, messages};
use crate::support::BIN;

/// `hookrun serve --http` on a free port in the setup's project, with the
/// token `right-token`; killed when dropped.
struct Server {
    child: Child,
    url: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(s: &Setup) -> Server {
    std::fs::write(s.home().join("server-token"), "right-token\n").expect("token");
    let mut cmd = s.command(BIN);
    cmd.args([
        "serve",
        "--http",
        "127.0.0.1:0",
        "--config",
        "hookrun.toml",
        "--token-file",
    ])
    .arg(s.home().join("server-token"))
    .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("serve");
    let mut lines = BufReader::new(child.stderr.take().expect("stderr")).lines();
    let first = lines.next().and_then(Result::ok).unwrap_or_default();
    let url = first
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("not a listening line: {first:?}"))
        .to_owned();
    std::thread::spawn(move || lines.for_each(drop));
    Server { child, url }
}

fn settings(s: &Setup, rel: &str) -> Value {
    let text = std::fs::read_to_string(s.project().join(rel)).expect("settings");
    serde_json::from_str(&text).expect("json")
}

/// Every handler of every event in a nested hooks file, with its event.
fn handlers(v: &Value) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for (event, groups) in v["hooks"].as_object().expect("hooks") {
        for g in groups.as_array().expect("groups") {
            for h in g["hooks"].as_array().expect("handlers") {
                out.push((event.clone(), h.clone()));
            }
        }
    }
    out
}

#[test]
fn claude_gets_http_handlers_and_doctor_checks_the_server_and_its_canaries() {
    let s = Setup::new().on_path();
    s.ok(&["init"]);
    std::fs::OpenOptions::new()
        .append(true)
        .open(s.project().join("hookrun.toml"))
        .and_then(|mut f| {
            std::io::Write::write_all(
                &mut f,
                b"\n[[hooks]]\nevent = \"SessionStart\"\ncommand = \"echo started\"\n",
            )
        })
        .expect("append");
    s.ok(&["trust", "hookrun.toml"]);
    let server = serve(&s);
    let install = || {
        s.ok(&[
            "install",
            "--agent",
            "claude",
            "--scope",
            "project",
            "--url",
            &server.url,
            "--token-env",
            "HOOKRUN_TOKEN",
        ])
    };
    install();
    let written = handlers(&settings(&s, ".claude/settings.json"));
    assert!(
        written.iter().any(|(e, _)| e == "PreToolUse"),
        "{written:?}"
    );
    for (event, h) in &written {
        if event == "SessionStart" {
            assert_eq!(h["type"], "command", "{h}");
            let c = h["command"].as_str().unwrap_or("");
            assert!(
                c.starts_with(&format!(
                    "hookrun forward --url {} --dialect claude --token-env HOOKRUN_TOKEN",
                    server.url
                )),
                "{c}"
            );
            continue;
        }
        assert_eq!(h["type"], "http", "{event}: {h}");
        assert_eq!(h["url"], format!("{}/hooks/claude", server.url), "{h}");
        assert_eq!(
            h["headers"]["Authorization"], "Bearer ${HOOKRUN_TOKEN}",
            "{h}"
        );
        assert_eq!(
            h["allowedEnvVars"],
            serde_json::json!(["HOOKRUN_TOKEN"]),
            "{h}"
        );
        let blocking = matches!(
            event.as_str(),
            "PreToolUse" | "PermissionRequest" | "UserPromptSubmit" | "PostToolUse"
        );
        if blocking {
            assert_eq!(h["onFailure"], "block", "{event}: {h}");
        }
        if matches!(event.as_str(), "Stop" | "SubagentStop") {
            assert!(h.get("onFailure").is_none(), "{event}: {h}");
        }
    }
    // Installing again changes nothing.
    let again = install();
    assert!(again.stdout.contains("nothing changed"), "{again:?}");

    // With the right token: no problem, and every canary holds through
    // the server.
    let run = |token: &str| doctor_with(&s, &[], None, &[("HOOKRUN_TOKEN", token)]);
    let (out, v) = run("right-token");
    assert_eq!(out.code, 0, "{out:?}");
    assert!(codes(&v).is_empty(), "{v:#}");
    let canaries = v["canaries"].as_array().expect("canaries");
    assert!(
        canaries
            .iter()
            .any(|c| c["guard"] == "dangerous-commands" && c["got"] == "blocked"),
        "{v:#}"
    );
    assert!(canaries.iter().all(|c| c["holds"] == true), "{v:#}");

    // A wrong token is D013, saying so.
    let (_, v) = run("wrong-token");
    assert!(codes(&v).contains(&"D013".to_owned()), "{v:#}");
    assert!(
        messages(&v, "D013")
            .iter()
            .any(|m| m.contains("refuses the token in `HOOKRUN_TOKEN`")),
        "{v:#}"
    );

    // No server: D013, and the canary that should pass is blocked (the
    // trust rule), so doctor says the setup does not hold.
    drop(server);
    let (out, v) = run("right-token");
    assert_ne!(out.code, 0, "{out:?}");
    assert!(codes(&v).contains(&"D013".to_owned()), "{v:#}");
}

#[test]
fn an_agent_of_commands_gets_hookrun_forward_and_its_canaries_hold_through_it() {
    let s = Setup::new().on_path();
    s.ok(&["init"]);
    let server = serve(&s);
    s.ok(&[
        "install",
        "--agent",
        "gemini",
        "--scope",
        "project",
        "--url",
        &server.url,
        "--token-env",
        "HOOKRUN_TOKEN",
    ]);
    let written = handlers(&settings(&s, ".gemini/settings.json"));
    assert!(!written.is_empty());
    for (_, h) in &written {
        assert_eq!(
            h["command"],
            format!(
                "hookrun forward --url {} --dialect gemini --token-env HOOKRUN_TOKEN",
                server.url
            ),
            "{h}"
        );
    }
    let (out, v) = doctor_with(&s, &[], None, &[("HOOKRUN_TOKEN", "right-token")]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(codes(&v).is_empty(), "{v:#}");
    let canaries = v["canaries"].as_array().expect("canaries");
    assert!(!canaries.is_empty(), "{v:#}");
    assert!(canaries.iter().all(|c| c["holds"] == true), "{v:#}");
    // Back to `hookrun run` in place.
    s.ok(&["install", "--agent", "gemini", "--scope", "project"]);
    let written = handlers(&settings(&s, ".gemini/settings.json"));
    assert!(
        written
            .iter()
            .all(|(_, h)| h["command"] == "hookrun run --dialect gemini"),
        "{written:?}"
    );
}
