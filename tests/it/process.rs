//! Process semantics with real processes: concurrency, timeouts, process
//! groups, leaks, big inputs and outputs, signals. Time bounds here only
//! guard against hangs and serialisation; they are deliberately generous.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::support::{HookTest, alive, cmd, finish, pid_in, settings, wait_for};

/// A hook that marks it started, waits up to 20 s for `other` to have
/// started, and creates the file `me` only if they met.
fn meeting(me: &str, other: &str) -> Value {
    cmd(&format!(
        "touch {me}.started; i=0; while [ ! -e {other}.started ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i+1)); done; [ -e {other}.started ] && touch {me}"
    ))
}

#[test]
fn hooks_run_concurrently() {
    // Each hook waits for the other to start: hooks run one after the other
    // never meet, however fast or slow the machine.
    let t = HookTest::new()
        .json(settings(
            "PreToolUse",
            "Bash",
            json!([meeting("a", "b"), meeting("b", "a")]),
        ))
        .pre_tool_use("ls");
    let out = t.run();
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        t.path().join("a").exists() && t.path().join("b").exists(),
        "the two hooks did not run at the same time: {out:?}"
    );
}

#[test]
fn timeout_kills_a_term_ignoring_hook_and_its_grandchild() {
    let script = "trap '' TERM; sleep 60 & echo $! > gc.pid; echo $$ > hook.pid; while :; do sleep 0.1; done";
    let hook = json!({"type": "command", "command": script, "timeout": 0.5});
    let t = HookTest::new()
        .json(settings("PreToolUse", "Bash", json!([hook])))
        .pre_tool_use("ls");
    let out = t.run();
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.system_message().contains("timed out after 0.5s"),
        "{out:?}"
    );
    let (hook_pid, gc_pid) = (pid_in(&t, "hook.pid"), pid_in(&t, "gc.pid"));
    assert!(
        wait_for(Duration::from_secs(10), || !alive(hook_pid)
            && !alive(gc_pid)),
        "hook {hook_pid} or grandchild {gc_pid} survived"
    );
    // TERM was ignored, so the group needed the SIGKILL 1.5 s later.
    assert!(
        out.elapsed >= Duration::from_millis(1900),
        "{:?}",
        out.elapsed
    );
}

#[test]
fn timed_out_answer_is_discarded() {
    let hook = json!({"type": "command", "command": "echo '{\"decision\":\"block\",\"reason\":\"late\"}'; sleep 30", "timeout": 0.3});
    let out = HookTest::new()
        .json(settings("PreToolUse", "Bash", json!([hook])))
        .pre_tool_use("ls")
        .run();
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.json().get("hookSpecificOutput").is_none());
}

#[test]
fn background_child_holding_stdout_does_not_hold_up_the_answer() {
    let script = "sleep 30 & echo $! > bg.pid; cat deny.json";
    let t = HookTest::new()
        .json(settings("PreToolUse", "Bash", json!([cmd(script)])))
        .file("deny.json", r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"leaky"}}"#)
        .pre_tool_use("ls");
    let out = t.run();
    assert_eq!(out.code, 2, "{out:?}");
    assert_eq!(out.hso()["permissionDecisionReason"], "leaky");
    // Well under the background child's 30 s.
    assert!(out.elapsed < Duration::from_secs(20), "{:?}", out.elapsed);
    assert!(
        out.system_message().contains("kept its output open"),
        "{out:?}"
    );
    let bg = pid_in(&t, "bg.pid");
    assert!(
        wait_for(Duration::from_secs(10), || !alive(bg)),
        "leaked background child {bg} survived"
    );
}

#[test]
fn properly_detached_daemon_is_left_alone() {
    let script = "sleep 30 >/dev/null 2>&1 </dev/null & echo $! > daemon.pid";
    let t = HookTest::new()
        .json(json!({"hooks": {"SessionStart": [{"hooks": [cmd(script)]}]}}))
        .event(json!({"hook_event_name": "SessionStart", "source": "startup"}));
    let out = t.run();
    assert_eq!(out.code, 0, "{out:?}");
    // Well under the daemon's 30 s.
    assert!(out.elapsed < Duration::from_secs(20), "{:?}", out.elapsed);
    let pid = pid_in(&t, "daemon.pid");
    let survived = alive(pid);
    let _ = nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(pid),
        nix::sys::signal::Signal::SIGKILL,
    );
    assert!(survived, "a detached daemon was killed");
}

#[test]
fn ten_mib_event_to_a_hook_that_never_reads_stdin() {
    let big = "x".repeat(10 * 1024 * 1024);
    let t = HookTest::new()
        .json(settings("PreToolUse", "Write", json!([cmd("exit 0"), cmd("sleep 0.3"), cmd("cat > in.json")])))
        .event(json!({"hook_event_name": "PreToolUse", "tool_name": "Write", "tool_input": {"file_path": "/tmp/x", "content": big}}));
    let out = t.run();
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.elapsed < Duration::from_secs(20), "{:?}", out.elapsed);
    let received: serde_json::Value =
        serde_json::from_str(&t.read("in.json")).expect("the reading hook got valid JSON");
    assert_eq!(
        received["tool_input"]["content"].as_str().map(str::len),
        Some(10 * 1024 * 1024)
    );
}

#[test]
fn fifty_mib_of_output_is_capped_and_memory_stays_bounded() {
    let t = HookTest::new()
        .json(settings(
            "PreToolUse",
            "Bash",
            json!([cmd("head -c 52428800 /dev/zero | tr '\\0' y")]),
        ))
        .pre_tool_use("ls");
    // Measure hookrun's peak RSS from a wrapper, so nothing else counts.
    let config = t.path().join("settings-1.json");
    let event = t.path().join("event.json");
    std::fs::write(&event, r#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"cwd":"."}"#).unwrap();
    let probe = format!(
        "import resource,subprocess,sys\n\
         r=subprocess.run([{bin:?},'run','--config',{config:?}],stdin=open({event:?}),capture_output=True,cwd={dir:?})\n\
         print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n\
         sys.stderr.write(r.stderr.decode())",
        bin = crate::support::BIN,
        config = config.display().to_string(),
        event = event.display().to_string(),
        dir = t.path().display().to_string(),
    );
    let start = Instant::now();
    let out = std::process::Command::new("python3")
        .arg("-c")
        .arg(&probe)
        .output()
        .expect("python3");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let mut parts = stdout.split_whitespace();
    assert_eq!(parts.next(), Some("0"), "{stdout} {stderr}");
    let max_rss_kib: u64 = parts
        .next()
        .and_then(|v| v.parse().ok())
        .unwrap_or(u64::MAX);
    assert!(
        max_rss_kib < 32 * 1024,
        "peak RSS {max_rss_kib} KiB for 50 MiB of hook output"
    );
    assert!(
        stderr.contains("wrote 52428800 bytes to stdout; only the first 1048576 were kept"),
        "{stderr}"
    );
    assert!(start.elapsed() < Duration::from_secs(30));
}

#[test]
fn sigterm_to_hookrun_kills_every_running_hook() {
    let t = HookTest::new()
        .json(settings(
            "PreToolUse",
            "Bash",
            json!([
                cmd("echo $$ > a.pid; sleep 60"),
                cmd("sleep 60 & echo $! > b.pid; wait")
            ]),
        ))
        .pre_tool_use("ls");
    let start = Instant::now();
    let child = t.spawn();
    let (a, b) = (pid_in(&t, "a.pid"), pid_in(&t, "b.pid"));
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGTERM,
    )
    .expect("signal hookrun");
    let out = finish(child, start);
    assert_eq!(out.code, 143, "{out:?}");
    assert!(
        out.stderr.contains("interrupted by SIGTERM"),
        "{}",
        out.stderr
    );
    assert!(
        wait_for(Duration::from_secs(10), || !alive(a) && !alive(b)),
        "hooks {a} or {b} survived SIGTERM to hookrun"
    );
}

#[test]
fn async_hooks_are_not_waited_for() {
    // The async hook reads the event only once the test creates `go` (or
    // after 20 s): had hookrun waited for it, `async_in.json` would exist
    // by the time hookrun answered.
    let script = "i=0; while [ ! -e go ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i+1)); done; cat > async_in.json; exit 2";
    let hook = json!({"type": "command", "command": script, "async": true});
    let t = HookTest::new()
        .json(settings(
            "PreToolUse",
            "Bash",
            json!([hook, cmd("touch sync_done")]),
        ))
        .pre_tool_use("ls");
    let out = t.run();
    assert_eq!(out.code, 0, "{out:?}");
    assert!(t.path().join("sync_done").exists());
    assert!(
        !t.path().join("async_in.json").exists(),
        "hookrun waited for the async hook: {out:?}"
    );
    std::fs::write(t.path().join("go"), "").unwrap();
    assert!(
        wait_for(Duration::from_secs(30), || t
            .read("async_in.json")
            .contains("\"tool_name\":\"Bash\"")),
        "the async hook never got the event"
    );
}

#[test]
fn hooks_get_cwd_project_dir_and_env() {
    let t = HookTest::new()
        .toml("[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"pwd -P > {dir}/cwd.txt; printf %s \\\"$CLAUDE_PROJECT_DIR|$LEVEL\\\" > {dir}/env.txt\"\nenv = { LEVEL = \"strict\" }\n")
        .file("sub/.keep", "")
        .event(json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {}, "cwd": "{dir}/sub"}));
    // The event's cwd uses the {dir} token: replace it by hand.
    let dir = t.path().display().to_string();
    let ev = format!(
        r#"{{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{{}},"cwd":"{dir}/sub"}}"#
    );
    let t = t.stdin(ev.as_bytes());
    let out = t.run();
    assert_eq!(out.code, 0, "{out:?}");
    let real = std::fs::canonicalize(t.path())
        .unwrap()
        .display()
        .to_string();
    assert_eq!(t.read("cwd.txt").trim(), format!("{real}/sub"));
    assert_eq!(t.read("env.txt"), format!("{dir}|strict"));
}
