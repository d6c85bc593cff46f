//! Signals to hookrun itself, with real processes: every signal that would
//! end it stops the hooks first; one it was started with ignored stays
//! ignored; a file-size limit does not cost the decision.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;
use serde_json::json;

use crate::support::{BIN, HookTest, alive, cmd, finish, pid_in, settings};

fn pre(hooks: serde_json::Value) -> HookTest {
    HookTest::new()
        .json(settings("PreToolUse", "Bash", hooks))
        .pre_tool_use("ls")
}

/// The signals whose default action ends a process but that hookrun leaves
/// alone (docs/processes.md): uncatchable, its own faults, SIGPIPE.
const LEFT_ALONE: &[Signal] = &[
    Signal::SIGKILL,
    Signal::SIGSTOP,
    Signal::SIGSEGV,
    Signal::SIGBUS,
    Signal::SIGILL,
    Signal::SIGFPE,
    Signal::SIGABRT,
    Signal::SIGTRAP,
    Signal::SIGSYS,
    Signal::SIGPIPE,
];

/// The signals that do not end a process by default (a stop would stop
/// hookrun itself).
const HARMLESS: &[Signal] = &[
    Signal::SIGCHLD,
    Signal::SIGURG,
    Signal::SIGWINCH,
    Signal::SIGCONT,
    Signal::SIGTSTP,
    Signal::SIGTTIN,
    Signal::SIGTTOU,
];

/// Every signal number that would end hookrun by default: the named ones
/// but those above, and the real-time ones.
fn fatal_signals() -> Vec<i32> {
    let named = (1..nix::libc::SIGRTMIN()).filter(|&n| {
        Signal::try_from(n).is_ok_and(|s| !LEFT_ALONE.contains(&s) && !HARMLESS.contains(&s))
    });
    named
        .chain(nix::libc::SIGRTMIN()..=nix::libc::SIGRTMAX())
        .collect()
}

/// Sends signal `number` to hookrun while a hook and its child run: hookrun
/// exits 128 + `number` only after both are gone.
fn assert_signal_stops_hooks_first(number: i32) {
    let t = pre(json!([cmd(
        "sleep 60 & echo $! > bg.pid; echo $$ > a.pid; wait"
    )]));
    let start = Instant::now();
    let child = t.spawn();
    let (a, bg) = (pid_in(&t, "a.pid"), pid_in(&t, "bg.pid"));
    // By number: `nix` names no real-time signal.
    let sent = Command::new("kill")
        .arg(format!("-{number}"))
        .arg(child.id().to_string())
        .status()
        .expect("run kill");
    assert!(sent.success(), "kill -{number}");
    let out = finish(child, start);
    assert_eq!(out.code, 128 + number, "signal {number}: {out:?}");
    assert!(
        out.stderr.contains("interrupted by SIG"),
        "signal {number}: {}",
        out.stderr
    );
    assert!(
        !alive(a) && !alive(bg),
        "signal {number}: hook {a} or its child {bg} outlived hookrun"
    );
}

#[test]
fn each_signal_that_would_end_hookrun_kills_every_running_hook_first() {
    let all = fatal_signals();
    for must in [
        Signal::SIGXFSZ,
        Signal::SIGXCPU,
        Signal::SIGTERM,
        Signal::SIGPWR,
    ] {
        assert!(all.contains(&(must as i32)), "{must}");
    }
    for chunk in all.chunks(8) {
        std::thread::scope(|s| {
            for &n in chunk {
                s.spawn(move || assert_signal_stops_hooks_first(n));
            }
        });
    }
}

#[test]
fn a_hangup_hookrun_was_started_ignoring_stays_ignored() {
    // As under `nohup`: the hangup is not a request to stop, so the hook
    // runs on and its answer is used.
    let t = pre(json!([cmd(
        "echo $$ > a.pid; i=0; while [ ! -e go ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i+1)); done; echo held >&2; exit 2"
    )]));
    let mut command = t.command();
    let program = command.get_program().to_owned();
    let args: Vec<_> = command.get_args().map(ToOwned::to_owned).collect();
    command = Command::new("sh");
    command
        .arg("-c")
        .arg("trap '' HUP; exec \"$@\"")
        .arg("sh")
        .arg(program)
        .args(args)
        .current_dir(t.path());
    let start = Instant::now();
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn hookrun");
    let event =
        r#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}"#;
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(event.as_bytes()).expect("event");
    drop(stdin);
    pid_in(&t, "a.pid");
    kill(Pid::from_raw(child.id() as i32), Signal::SIGHUP).expect("signal hookrun");
    // Give a wrongly handled hangup time to act before the hook may end.
    std::thread::sleep(Duration::from_millis(300));
    std::fs::write(t.path().join("go"), "").expect("go");
    let out = finish(child, start);
    assert_eq!(out.code, 2, "{out:?}");
    assert!(out.stderr.contains("held"), "{out:?}");
}

/// Runs hookrun under `ulimit -f 1` (512 or 1024 bytes, by shell) with an
/// audit log already past the limit, so appending to it must fail.
fn run_over_the_file_size_limit(t: &HookTest, extra: &[&str]) -> crate::support::Out {
    std::fs::write(t.path().join("audit.jsonl"), "x".repeat(8192) + "\n").expect("log");
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg("ulimit -f 1 && exec \"$@\"")
        .arg("sh")
        .arg(BIN)
        .args(["run", "--audit-log", "audit.jsonl", "--config"])
        .arg(t.path().join("settings-1.json"))
        .args(extra)
        .current_dir(t.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let start = Instant::now();
    let mut child = command.spawn().expect("spawn hookrun");
    let event =
        r#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}"#;
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(event.as_bytes()).expect("event");
    drop(stdin);
    finish(child, start)
}

#[test]
fn a_file_size_limit_on_the_audit_log_is_reported_and_the_decision_printed() {
    let deny = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no ls"}}"#;
    let t = pre(json!([cmd("cat deny.json")])).file("deny.json", deny);
    let out = run_over_the_file_size_limit(&t, &[]);
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.hso()["permissionDecisionReason"]
            .as_str()
            .is_some_and(|r| r.starts_with("no ls")),
        "{out:?}"
    );
    assert!(out.stderr.contains("audit.jsonl"), "{out:?}");

    // An allow is printed too, and a closed guard turns the lost line into
    // a block.
    let t = pre(json!([cmd("true")]));
    let out = run_over_the_file_size_limit(&t, &["--on-error", "allow"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stderr.contains("audit.jsonl"), "{out:?}");
    let out = run_over_the_file_size_limit(&t, &[]);
    assert_eq!(out.code, 2, "a lost audit line blocks by default: {out:?}");
    let out = run_over_the_file_size_limit(&t, &["--fail-mode", "closed"]);
    assert_eq!(out.code, 2, "{out:?}");
    assert_eq!(out.hso()["permissionDecision"], "deny", "{out:?}");
}

#[test]
fn hooks_under_a_file_size_limit_still_die_of_it() {
    // hookrun survives the limit; its hooks must not: a hook writing past
    // the limit is killed by SIGXFSZ, as it would be anywhere else.
    let t = pre(json!([cmd(
        "head -c 100000 /dev/zero > big; echo $? > status"
    )]));
    let out = run_over_the_file_size_limit(&t, &["--on-error", "allow"]);
    assert_eq!(out.code, 0, "{out:?}");
    // 128 + SIGXFSZ, as the shell reports a child killed by a signal.
    assert_eq!(
        t.read("status").trim(),
        (128 + Signal::SIGXFSZ as i32).to_string(),
        "{out:?}"
    );
}
