//! Processes that leave their hook's process group (`setsid`, a double
//! fork, `set -m` job control) with real processes: one still holding the
//! hook's output is killed at the timeout, after the leak grace and when
//! hookrun is interrupted; one that redirected its output is left alone.

use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;
use serde_json::json;

use crate::support::{HookTest, alive, cmd, finish, pid_in, settings, wait_for};

/// Shell that waits (at most 20 s) until `file` holds a pid, so the escaped
/// process has written it before the hook can be killed.
fn await_pid(file: &str) -> String {
    format!("i=0; while [ ! -s {file} ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i+1)); done")
}

/// Escapes that keep the hook's stdout and stderr: a new session, a new
/// session whose parent is already gone (double fork), a job-control group.
const ESCAPES: [&str; 3] = [
    "setsid sh -c 'echo $$ > esc.pid; exec sleep 30' &",
    "(setsid sh -c 'echo $$ > esc.pid; exec sleep 30' &)",
    "set -m; sh -c 'echo $$ > esc.pid; exec sleep 30' &",
];

const DENY: &str = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"leaky"}}"#;

fn pre(hook: serde_json::Value) -> HookTest {
    HookTest::new()
        .json(settings("PreToolUse", "Bash", json!([hook])))
        .file("deny.json", DENY)
        .pre_tool_use("ls")
}

fn assert_killed(pid: i32, what: &str) {
    let dead = wait_for(Duration::from_secs(10), || !alive(pid));
    if !dead {
        let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
    }
    assert!(dead, "{what}: the escaped process {pid} survived");
}

#[test]
fn an_escaped_process_holding_the_output_is_killed_after_the_leak_grace() {
    for escape in ESCAPES {
        let script = format!("{escape}\n{}; cat deny.json", await_pid("esc.pid"));
        let t = pre(cmd(&script));
        let out = t.run();
        assert_eq!(out.code, 2, "{escape}: {out:?}");
        assert_eq!(out.hso()["permissionDecisionReason"], "leaky", "{out:?}");
        assert!(out.elapsed < Duration::from_secs(20), "{escape}: {out:?}");
        assert!(
            out.system_message().contains("kept its output open"),
            "{escape}: {out:?}"
        );
        assert_killed(pid_in(&t, "esc.pid"), escape);
    }
}

#[test]
fn an_escaped_process_holding_the_output_is_killed_at_the_timeout() {
    for escape in ESCAPES {
        let script = format!("{escape}\nsleep 30");
        let t = pre(json!({"type": "command", "command": script, "timeout": 0.5}));
        let out = t.run();
        assert_eq!(out.code, 0, "{escape}: {out:?}");
        assert!(out.system_message().contains("timed out"), "{out:?}");
        assert!(out.elapsed < Duration::from_secs(20), "{escape}: {out:?}");
        assert_killed(pid_in(&t, "esc.pid"), escape);
    }
}

#[test]
fn an_escaped_process_holding_the_output_is_killed_when_hookrun_is_interrupted() {
    let script = format!("{}\n{}; sleep 30", ESCAPES[1], await_pid("esc.pid"));
    let t = pre(cmd(&script));
    let start = Instant::now();
    let child = t.spawn();
    let escaped = pid_in(&t, "esc.pid");
    kill(Pid::from_raw(child.id() as i32), Signal::SIGTERM).expect("signal hookrun");
    let out = finish(child, start);
    assert_eq!(out.code, 143, "{out:?}");
    assert_killed(escaped, "SIGTERM to hookrun");
}

#[test]
fn an_escaped_daemon_with_its_output_redirected_is_left_alone() {
    // Beside a leaking escapee, so that the search for holders runs.
    let daemon = "setsid sh -c 'echo $$ > daemon.pid; exec sleep 30' </dev/null >/dev/null 2>&1 &";
    let script = format!(
        "{daemon}\n{}\n{}; {}; cat deny.json",
        ESCAPES[0],
        await_pid("daemon.pid"),
        await_pid("esc.pid")
    );
    let t = pre(cmd(&script));
    let out = t.run();
    assert_eq!(out.code, 2, "{out:?}");
    assert_killed(pid_in(&t, "esc.pid"), "the leaking escapee");
    let pid = pid_in(&t, "daemon.pid");
    let survived = alive(pid);
    let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
    assert!(survived, "a detached daemon was killed");
}
