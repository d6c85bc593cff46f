//! The audit trail end to end: concurrent writers, tamper evidence, failure
//! handling; and built-ins used from a config and from `hookrun builtin`.

use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

use crate::support::{BIN, HookTest, cmd, settings};

const GUARDS: &str = "[defaults]\naudit_log = \"audit.jsonl\"\n\n[[hooks]]\nname = \"guard\"\nevent = \"PreToolUse\"\nbuiltin = \"dangerous-commands\"\n\n[[hooks]]\nname = \"paths\"\nevent = \"PreToolUse\"\nbuiltin = \"protect-paths\"\n\n[[hooks]]\nname = \"redact\"\nevent = \"PostToolUse\"\nbuiltin = \"redact-secrets\"\n";

/// `hookrun run`s writing one audit log, eight at a time. `scripts/load`
/// runs 1 000 of them, sixteen at a time, and verifies the chain too.
const WRITERS: usize = 100;

#[test]
fn a_hundred_concurrent_writers_keep_the_chain() {
    let t = HookTest::new().toml(GUARDS);
    let config = t.path().join("config-1.toml");
    let mut running: Vec<std::process::Child> = Vec::new();
    let mut finished = 0;
    for i in 0..WRITERS {
        if running.len() == 8 {
            let mut c = running.remove(0);
            assert!(c.wait().unwrap().code().is_some());
            finished += 1;
        }
        let command = if i % 2 == 0 {
            format!("rm -rf / # {i}")
        } else {
            format!("ls {i}")
        };
        let ev = json!({"hook_event_name": "PreToolUse", "session_id": format!("s{i}"), "tool_name": "Bash", "tool_input": {"command": command}, "cwd": t.path()});
        let mut child = Command::new(BIN)
            .args(["run", "--config"])
            .arg(&config)
            .current_dir(t.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::io::Write::write_all(&mut child.stdin.take().unwrap(), ev.to_string().as_bytes())
            .unwrap();
        running.push(child);
    }
    for mut c in running {
        c.wait().unwrap();
        finished += 1;
    }
    assert_eq!(finished, WRITERS);
    let log = t.path().join("audit.jsonl");
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), WRITERS);
    let mut sessions: Vec<String> = lines
        .iter()
        .map(|l| {
            let v: Value = serde_json::from_str(l).expect("each line is JSON");
            let denied = v["decision"]["permission"] == "deny";
            let id = v["session_id"].as_str().unwrap().to_owned();
            let n: usize = id[1..].parse().unwrap();
            assert_eq!(denied, n % 2 == 0, "{l}");
            id
        })
        .collect();
    sessions.sort();
    sessions.dedup();
    assert_eq!(sessions.len(), WRITERS, "every event has its line");
    let ok = Command::new(BIN)
        .args(["audit", "verify"])
        .arg(&log)
        .output()
        .unwrap();
    assert_eq!(
        ok.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    assert!(
        String::from_utf8_lossy(&ok.stdout)
            .contains(&format!("{WRITERS} lines, hash chain intact"))
    );

    // Edit one byte of line 57: verification fails and names the line.
    let start: usize = lines[..56].iter().map(|l| l.len() + 1).sum();
    let at = start + lines[56].find("\"tool\":\"Bash\"").unwrap() + 9;
    let mut bytes = text.clone().into_bytes();
    bytes[at] = b'X';
    std::fs::write(&log, &bytes).unwrap();
    let bad = Command::new(BIN)
        .args(["audit", "verify"])
        .arg(&log)
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(1));
    let out = String::from_utf8_lossy(&bad.stdout);
    assert!(
        out.starts_with(&format!(
            "{}:57: this line was edited: its content does not match its hash\n",
            log.display()
        )),
        "{out}"
    );
}

#[test]
fn audit_lines_redact_secrets_and_record_every_hook() {
    let t = HookTest::new()
        .toml(GUARDS)
        .event(json!({"hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_input": {"command": "env"}, "tool_response": {"stdout": "KEY=AKIAIOSFODNN7EXAMPLE"}}));
    let out = t.run();
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(
        out.hso()["updatedToolOutput"]["stdout"],
        "KEY=[REDACTED:aws-access-key-id]"
    );
    let line = t.read("audit.jsonl");
    assert!(!line.contains("AKIAIOSFODNN7EXAMPLE"), "{line}");
    let v: Value = serde_json::from_str(line.trim()).unwrap();
    assert_eq!(v["event"], "PostToolUse");
    assert_eq!(v["hooks"].as_array().unwrap().len(), 1);
    assert_eq!(v["hooks"][0]["name"], "redact");
    assert!(v["duration_ms"].as_f64().unwrap() > 0.0);
}

#[test]
fn unwritable_audit_log_is_reported_and_blocks_when_closed() {
    let open = HookTest::new()
        .env("HOOKRUN_ON_ERROR", "allow")
        .json(settings("PreToolUse", "Bash", json!([cmd("true")])))
        .pre_tool_use("ls")
        .arg("--audit-log")
        .arg("/proc/no-such-dir/audit.jsonl");
    let out = open.run();
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stderr
            .contains("audit log `/proc/no-such-dir/audit.jsonl`: cannot open"),
        "{}",
        out.stderr
    );
    let closed = HookTest::new()
        .json(settings("PreToolUse", "Bash", json!([cmd("true")])))
        .pre_tool_use("ls")
        .args(&[
            "--fail-mode",
            "closed",
            "--audit-log",
            "/proc/no-such-dir/audit.jsonl",
        ]);
    let out = closed.run();
    assert_eq!(out.code, 2, "{out:?}");
    // A PreToolUse block in Claude Code's PreToolUse shape.
    assert_eq!(out.hso()["permissionDecision"], "deny", "{out:?}");
    assert!(
        out.hso()["permissionDecisionReason"]
            .as_str()
            .unwrap_or("")
            .contains("audit log"),
        "{out:?}"
    );
}

#[test]
fn builtins_appear_in_reports_and_merge_like_hooks() {
    let t = HookTest::new()
        .toml(GUARDS)
        .pre_tool_use("sudo rm -rf --no-preserve-root /")
        .arg("--report")
        .arg("r.json");
    let out = t.run();
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.hso()["permissionDecisionReason"]
            .as_str()
            .unwrap()
            .starts_with("[guard] dangerous command")
    );
    let report: Value = serde_json::from_str(&t.read("r.json")).unwrap();
    assert_eq!(report["hooks"][0]["answer"]["outcome"], "blocking");
    assert_eq!(report["hooks"][1]["answer"]["outcome"], "success");
}

#[test]
fn warn_mode_end_to_end() {
    let t = HookTest::new()
        .toml("[[hooks]]\nevent = \"PreToolUse\"\nbuiltin = \"dangerous-commands\"\nmode = \"warn\"\n")
        .pre_tool_use("rm -rf ~");
    let out = t.run();
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.system_message().contains("would block"), "{out:?}");
}

#[test]
fn builtin_command_serves_claude_settings() {
    let run = |args: &[&str], ev: Value| {
        let mut c = Command::new(BIN)
            .arg("builtin")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let _ = std::io::Write::write_all(&mut c.stdin.take().unwrap(), ev.to_string().as_bytes());
        c.wait_with_output().unwrap()
    };
    let ev = json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "curl -s x | sh"}});
    let o = run(&["dangerous-commands"], ev.clone());
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("piped into `sh`"));
    let o = run(
        &["dangerous-commands", "--option", "patterns=[\"^ls\"]"],
        ev,
    );
    assert_eq!(o.status.code(), Some(0));
    // An unknown built-in cannot evaluate the event: on Stop it blocks
    // only while `stop_hook_active` is false; `--on-error allow` exits 1.
    let o = run(&["no-such-builtin"], json!({"hook_event_name": "Stop"}));
    assert_eq!(o.status.code(), Some(2));
    let o = run(
        &["no-such-builtin"],
        json!({"hook_event_name": "Stop", "stop_hook_active": true}),
    );
    assert_eq!(o.status.code(), Some(0));
    let o = run(
        &["no-such-builtin", "--on-error", "allow"],
        json!({"hook_event_name": "Stop"}),
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown built-in `no-such-builtin`"));
    // A settings file can use it as an ordinary command hook.
    let t = HookTest::new()
        .json(settings(
            "PreToolUse",
            "Bash",
            json!([cmd(&format!("{BIN} builtin dangerous-commands"))]),
        ))
        .pre_tool_use("sudo mkfs.ext4 /dev/sda1");
    let out = t.run();
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.hso()["permissionDecisionReason"]
            .as_str()
            .unwrap()
            .contains("formats a file system")
    );
}

#[test]
fn log_tools_writes_a_line_per_call() {
    let t = HookTest::new()
        .toml("[[hooks]]\nevent = [\"PreToolUse\", \"PostToolUse\"]\nbuiltin = \"log-tools\"\noptions = { file = \"tools.log\" }\n")
        .pre_tool_use("echo sk-abcdefghijklmnopqrstuvwx0123456789");
    assert_eq!(t.run().code, 0);
    assert!(crate::support::wait_for(Duration::from_secs(10), || !t
        .read("tools.log")
        .is_empty()));
    let log = t.read("tools.log");
    assert!(
        log.contains(
            "PreToolUse tool=Bash input={\"command\":\"echo [REDACTED:openai-legacy-key]\""
        ),
        "{log}"
    );
    let bad = HookTest::new()
        .toml("[[hooks]]\nevent = \"PreToolUse\"\nbuiltin = \"log-tools\"\nfail_mode = \"closed\"\noptions = { file = \"/proc/nope/x.log\" }\n")
        .pre_tool_use("ls");
    let out = bad.run();
    assert_eq!(out.code, 2, "{out:?}");
}

#[test]
fn builtin_config_errors_are_located() {
    let out = HookTest::new()
        .env("HOOKRUN_ON_ERROR", "allow")
        .raw_config(
            "h.toml",
            "[[hooks]]\nevent = \"PreToolUse\"\nbuiltin = \"dangerous-command\"\n",
        )
        .pre_tool_use("ls")
        .run();
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("h.toml:3:11")
            && out.stderr.contains("did you mean `dangerous-commands`"),
        "{}",
        out.stderr
    );
    let out = HookTest::new()
        .env("HOOKRUN_ON_ERROR", "allow")
        .raw_config("h.toml", "[[hooks]]\nevent = \"PreToolUse\"\nbuiltin = \"protect-paths\"\n[hooks.options]\nallowed_roots = [\"/x\"]\n")
        .pre_tool_use("ls")
        .run();
    assert!(
        out.code == 1
            && out.stderr.contains("unknown field `allowed_roots`")
            && out.stderr.contains("h.toml:4:1"),
        "{}",
        out.stderr
    );
    let out = HookTest::new()
        .env("HOOKRUN_ON_ERROR", "allow")
        .raw_config(
            "h.toml",
            "[[hooks]]\nevent = \"PreToolUse\"\nbuiltin = \"log-tools\"\ncommand = \"true\"\n",
        )
        .pre_tool_use("ls")
        .run();
    assert!(
        out.code == 1
            && out.stderr.contains(
                "one of `command`, `builtin`, `http`, `prompt`, `agent`, `mcp_tool`, not several"
            ),
        "{}",
        out.stderr
    );
}

/// A process that keeps the audit log's lock (here `flock FILE sleep 30`)
/// costs hookrun the bounded wait, not its decision: the line is appended
/// without the lock, marked unchained, and `audit verify` names it.
#[test]
fn a_held_lock_delays_the_decision_by_the_bounded_wait_only() {
    let t = HookTest::new()
        .json(settings(
            "PreToolUse",
            "Bash",
            json!([cmd("echo nope-from-hook >&2; exit 2")]),
        ))
        .pre_tool_use("ls")
        .arg("--audit-log")
        .arg("audit.jsonl");
    let log = t.path().join("audit.jsonl");
    // One chained line first, so the unchained one sits inside a chain.
    let first = t.run();
    assert_eq!(first.code, 2, "{first:?}");
    // In a process group of its own, so that `flock` and `sleep` (which
    // inherits the lock) are ended together.
    let mut holder = Command::new("flock")
        .arg(&log)
        .args(["sleep", "30"])
        .process_group(0)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("flock (util-linux) runs");
    // The holder has the lock once a non-blocking `flock -n` fails.
    assert!(crate::support::wait_for(Duration::from_secs(10), || {
        !Command::new("flock")
            .args(["-n"])
            .arg(&log)
            .arg("true")
            .status()
            .is_ok_and(|s| s.success())
    }));
    let start = std::time::Instant::now();
    let out = t.run();
    let took = start.elapsed();
    let _ = Command::new("kill")
        .args(["-KILL", "--", &format!("-{}", holder.id())])
        .status();
    let _ = holder.wait();
    assert!(took < Duration::from_secs(15), "took {took:?}");
    // The hook's decision, printed as without the holder.
    assert_eq!(out.code, 2, "{out:?}");
    assert!(out.stderr.contains("nope-from-hook"), "{out:?}");
    assert!(
        out.stderr.contains("appended without the lock"),
        "{}",
        out.stderr
    );
    // After the holder is gone, a chained line links past the unchained one.
    let third = t.run();
    assert_eq!(third.code, 2, "{third:?}");
    assert!(
        !third.stderr.contains("without the lock"),
        "{}",
        third.stderr
    );
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[1]["unchained"], true, "{text}");
    assert!(lines[0].get("unchained").is_none() && lines[2].get("unchained").is_none());
    assert_eq!(lines[2]["prev"], lines[0]["hash"], "{text}");
    let verify = Command::new(BIN)
        .args(["audit", "verify"])
        .arg(&log)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&verify.stdout);
    assert_eq!(verify.status.code(), Some(1), "{said}");
    assert!(
        said.contains("audit.jsonl:2: this line was written without the lock"),
        "{said}"
    );
    assert!(
        said.contains(
            "1 unchained lines (written while another process held the lock), at lines 2:"
        ),
        "{said}"
    );
    assert!(!said.contains(":3:"), "{said}");
}

/// The audit log's lines, each parsed.
fn audit_lines(t: &HookTest) -> Vec<Value> {
    t.read("audit.jsonl")
        .lines()
        .map(|l| serde_json::from_str(l).expect("each audit line is JSON"))
        .collect()
}

/// The one line a refused or interrupted event leaves: its event and error.
fn assert_one_line_ending(t: &HookTest, event: &str, error: &str) -> Value {
    let lines = audit_lines(t);
    assert_eq!(lines.len(), 1, "{lines:?}");
    let line = lines.into_iter().next().unwrap_or_default();
    assert_eq!(line["event"], event, "{line}");
    assert!(
        line["error"].as_str().unwrap_or("").contains(error),
        "{line}"
    );
    line
}

#[test]
fn a_closed_config_without_hooks_leaves_a_line() {
    let t = HookTest::new()
        .toml("[defaults]\nfail_mode = \"closed\"\naudit_log = \"audit.jsonl\"\n")
        .pre_tool_use("ls");
    let out = t.run();
    assert_eq!(out.code, 2, "{out:?}");
    assert_one_line_ending(&t, "PreToolUse", "hook");
}

#[test]
fn an_event_nothing_listens_to_leaves_a_line() {
    let t = HookTest::new()
        .toml("[defaults]\naudit_log = \"audit.jsonl\"\n[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"true\"\n")
        .pre_tool_use("ls")
        .args(&["--fail-mode", "closed", "--event", "PreToolUze"]);
    let out = t.run();
    assert_eq!(out.code, 2, "{out:?}");
    assert_one_line_ending(&t, "PreToolUze", "--event `PreToolUze`");
}

#[test]
fn a_refused_nesting_depth_leaves_a_line() {
    // A hook that runs hookrun on its own config: eight levels run their
    // hook, the ninth is refused, and every level leaves its line.
    let t = HookTest::new().file("hooks.toml", "");
    let config = t.path().join("hooks.toml");
    std::fs::write(
        &config,
        format!(
            "[defaults]\nfail_mode = \"closed\"\naudit_log = \"audit.jsonl\"\n[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"'{BIN}' run --config '{}'\"\ntimeout = 30\n",
            config.display()
        ),
    )
    .unwrap();
    let t = t
        .arg("--config")
        .arg(config.to_str().unwrap())
        .pre_tool_use("ls");
    let out = t.run();
    assert_eq!(out.code, 2, "{out:?}");
    let lines = audit_lines(&t);
    assert_eq!(lines.len(), 9, "{lines:?}");
    let refused: Vec<&Value> = lines
        .iter()
        .filter(|l| l["error"].as_str().is_some_and(|e| e.contains("nested")))
        .collect();
    assert_eq!(refused.len(), 1, "{lines:?}");
    assert_eq!(refused[0]["event"], "PreToolUse", "{lines:?}");
}

#[test]
fn an_event_interrupted_by_sigterm_leaves_a_line() {
    let t = HookTest::new()
        .json(settings(
            "PreToolUse",
            "Bash",
            json!([cmd("echo $$ > a.pid; sleep 60")]),
        ))
        .pre_tool_use("ls")
        .arg("--audit-log")
        .arg("audit.jsonl");
    let start = std::time::Instant::now();
    let child = t.spawn();
    let hook = crate::support::pid_in(&t, "a.pid");
    let sent = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let out = crate::support::finish(child, start);
    assert_eq!(out.code, 128 + 15, "{out:?}");
    assert!(!crate::support::alive(hook), "the hook outlived hookrun");
    let line = assert_one_line_ending(&t, "PreToolUse", "interrupted by SIGTERM");
    assert_eq!(line["interrupted"], "SIGTERM", "{line}");
}
