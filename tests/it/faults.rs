//! Fault injection with real processes: misbehaving hooks and a misbehaving
//! caller. Each case states its outcome; time bounds only guard against
//! hangs and are generous.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::support::{BIN, HookTest, alive, cmd, finish, settings, wait_for};

fn pre(hooks: serde_json::Value) -> HookTest {
    HookTest::new()
        .env("HOOKRUN_ON_ERROR", "allow")
        .json(settings("PreToolUse", "Bash", hooks))
        .pre_tool_use("ls")
}

/// Pids of processes whose command line contains `marker`.
fn pids_with(marker: &str) -> Vec<i32> {
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .is_ok_and(|c| String::from_utf8_lossy(&c).contains(marker))
        })
        .filter(|pid| alive(*pid))
        .collect()
}

#[test]
fn a_hook_that_spawns_100_children_and_exits_leaves_none() {
    let out = pre(json!([cmd(
        "for i in $(seq 100); do sleep 30.4242 & done; exit 0"
    )]))
    .run();
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.elapsed < Duration::from_secs(20), "{:?}", out.elapsed);
    assert!(
        wait_for(Duration::from_secs(10), || pids_with("30.4242").is_empty()),
        "children survived: {:?}",
        pids_with("30.4242")
    );
}

#[test]
fn a_hook_that_closes_stdout_and_keeps_running_times_out() {
    let hook = json!({"type": "command", "command": "exec >&-; sleep 30", "timeout": 0.5});
    let out = pre(json!([hook])).run();
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.system_message().contains("timed out"), "{out:?}");
    assert!(out.elapsed < Duration::from_secs(20), "{:?}", out.elapsed);
}

#[test]
fn a_gigabyte_of_output_is_capped() {
    let out = pre(json!([cmd("head -c 1073741824 /dev/zero")])).run();
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stderr
            .contains("wrote 1073741824 bytes to stdout; only the first 1048576 were kept"),
        "{}",
        out.stderr
    );
}

#[test]
fn invalid_utf8_and_nul_bytes_are_plain_text() {
    let out = pre(json!([
        cmd("printf '\\377\\000abc\\000'"),
        cmd("printf 'x\\377' >&2; exit 1")
    ]))
    .run();
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.json().get("hookSpecificOutput").is_none());
    assert!(out.system_message().contains("exited 1"), "{out:?}");
}

#[test]
fn death_by_each_common_signal_is_named() {
    for sig in [
        "HUP", "INT", "QUIT", "ABRT", "KILL", "SEGV", "TERM", "PIPE", "USR1", "USR2", "ALRM",
        "XFSZ",
    ] {
        let out = pre(json!([cmd(&format!("kill -{sig} $$"))])).run();
        assert_eq!(out.code, 0, "{sig}: {out:?}");
        assert!(
            out.system_message()
                .contains(&format!("killed by SIG{sig}")),
            "{sig}: {out:?}"
        );
    }
}

#[test]
fn a_directory_a_non_executable_file_and_a_crlf_shebang() {
    let t = pre(json!([cmd("./dir"), cmd("./plain.sh"), cmd("./crlf.sh")]))
        .file("dir/.keep", "")
        .file("plain.sh", "#!/bin/sh\nexit 2\n")
        .file("crlf.sh", "#!/bin/sh\r\nexit 2\r\n");
    let mut perms = std::fs::metadata(t.path().join("crlf.sh"))
        .unwrap()
        .permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(t.path().join("crlf.sh"), perms).unwrap();
    let out = t.run();
    // None of them can run, none decides: each is a named non-blocking error.
    assert_eq!(out.code, 0, "{out:?}");
    let msg = out.system_message();
    assert!(
        msg.contains("`./dir` exited 126") && msg.contains("`./plain.sh` exited 126"),
        "{msg}"
    );
    assert!(msg.contains("`./crlf.sh` exited"), "{msg}");
    // Under fail_mode = "closed" the same failures block.
    let closed = pre(json!([cmd("./plain.sh")]))
        .file("plain.sh", "#!/bin/sh\nexit 0\n")
        .arg("--fail-mode")
        .arg("closed")
        .run();
    assert_eq!(closed.code, 2, "{closed:?}");
}

#[test]
fn a_hook_that_deletes_its_own_working_directory() {
    let t = HookTest::new().json(settings(
        "PreToolUse",
        "Bash",
        json!([cmd("rm -rf \"$PWD\"; echo '{\"systemMessage\":\"gone\"}'")]),
    ));
    let sub = t.path().join("sub");
    std::fs::create_dir(&sub).unwrap();
    let ev = json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}, "cwd": sub});
    let out = t.stdin(ev.to_string().as_bytes()).run();
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(out.system_message(), "gone");
    assert!(!sub.exists());
}

#[test]
fn sigint_to_hookrun_kills_every_running_hook() {
    let t = pre(json!([cmd("echo $$ > a.pid; sleep 60")]));
    let start = Instant::now();
    let child = t.spawn();
    let a = crate::support::pid_in(&t, "a.pid");
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGINT,
    )
    .unwrap();
    let out = finish(child, start);
    assert_eq!(out.code, 130, "{out:?}");
    assert!(
        wait_for(Duration::from_secs(10), || !alive(a)),
        "hook {a} survived SIGINT"
    );
}

#[test]
fn a_caller_that_closes_stdout_gets_the_exit_code_and_no_panic() {
    let t = pre(json!([cmd("echo no >&2; exit 2")]));
    let config = t.path().join("settings-1.json");
    let script = format!(
        "echo '{{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"tool_input\":{{}}}}' | {BIN} run --config {} >&-",
        config.display()
    );
    let out = Command::new("sh")
        .arg("-c")
        .arg(&script)
        .current_dir(t.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
}

#[test]
fn a_caller_that_never_closes_stdin_is_bounded() {
    let t = pre(json!([cmd("true")]));
    let config = t.path().join("settings-1.json");
    let start = Instant::now();
    let mut child = Command::new(BIN)
        .args([
            "run",
            "--on-error",
            "allow",
            "--stdin-timeout",
            "0.5",
            "--config",
        ])
        .arg(&config)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let _keep_open = child.stdin.take();
    let out = finish(child, start);
    assert_eq!(out.code, 1, "{out:?}");
    assert!(
        out.stderr.contains("stdin was not closed within 0.5s"),
        "{}",
        out.stderr
    );
    assert!(out.elapsed < Duration::from_secs(20), "{:?}", out.elapsed);
}

#[test]
fn an_event_written_in_pieces_with_pauses_is_read_whole() {
    // The read waits for stdin between pieces; every piece must be kept,
    // including ones larger than one read.
    let t = pre(json!([cmd("cat > got.json")]));
    let config = t.path().join("settings-1.json");
    let start = Instant::now();
    let mut child = Command::new(BIN)
        .args(["run", "--stdin-timeout", "30", "--config"])
        .arg(&config)
        .current_dir(t.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let padding = "p".repeat(40_000);
    let event = format!(
        r#"{{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{{"command":"ls"}},"pad":"{padding}"}}"#
    );
    let mut stdin = child.stdin.take().unwrap();
    for piece in event.as_bytes().chunks(15_000) {
        stdin.write_all(piece).unwrap();
        stdin.flush().unwrap();
        std::thread::sleep(Duration::from_millis(100));
    }
    drop(stdin);
    let out = finish(child, start);
    assert_eq!(out.code, 0, "{out:?}");
    let got = std::fs::read_to_string(t.path().join("got.json")).unwrap();
    assert_eq!(got.trim_end(), event, "the hook got a different event");
}

#[test]
fn a_hundred_mib_event_is_refused_by_the_default_cap() {
    let big = format!(
        "{{\"hook_event_name\":\"PreToolUse\",\"x\":\"{}\"}}",
        "y".repeat(100 * 1024 * 1024)
    );
    let out = pre(json!([cmd("true")])).stdin(big.as_bytes()).run();
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("larger than the limit of 67108864 bytes"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_config_with_ten_thousand_hooks() {
    let mut toml = String::new();
    for i in 0..10_000 {
        toml.push_str(&format!("[[hooks]]\nevent = \"PreToolUse\"\nmatcher = \"Tool{i}\"\ncommand = \"exit 2 # {i}\"\n\n"));
    }
    toml.push_str(
        "[[hooks]]\nevent = \"PreToolUse\"\nmatcher = \"Bash\"\ncommand = \"touch ran\"\n",
    );
    let t = HookTest::new().toml(&toml).pre_tool_use("ls");
    let out = t.run();
    assert_eq!(out.code, 0, "{out:?}");
    assert!(t.path().join("ran").exists());
    assert!(out.elapsed < Duration::from_secs(30), "{:?}", out.elapsed);
}

#[test]
fn two_json_documents_are_not_an_answer() {
    // Claude Code parses the whole stdout as one document; two documents
    // back to back are not valid JSON, so the deny inside is not applied.
    let two = r#"printf '%s%s' '{"decision":"block","reason":"first"}' '{"continue":false}'"#;
    let out = pre(json!([cmd(two)])).run();
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.json().get("decision").is_none(), "{out:?}");
    assert!(out.json().get("continue").is_none(), "{out:?}");
    let message = out.system_message();
    assert_eq!(
        message.matches("trailing characters").count(),
        1,
        "the parse error is named once: {message}"
    );
}

#[test]
fn json_with_a_byte_order_mark_is_read() {
    let bom = r#"printf '\357\273\277%s' '{"decision":"block","reason":"bom deny"}'"#;
    let out = pre(json!([cmd(bom)])).run();
    assert_eq!(out.code, 2, "{out:?}");
    assert!(out.stderr.contains("bom deny"), "{out:?}");
}

#[test]
fn a_missing_script_is_a_named_failure_and_blocks_when_closed() {
    let missing = cmd("/no/such/dir/guard.sh");
    let out = pre(json!([missing.clone()])).run();
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stderr.contains("/no/such/dir/guard.sh"), "{out:?}");
    let out = pre(json!([missing])).args(&["--fail-mode", "closed"]).run();
    assert_eq!(out.code, 2, "{out:?}");
    assert_eq!(out.hso()["permissionDecision"], "deny", "{out:?}");
    assert!(
        out.hso()["permissionDecisionReason"]
            .as_str()
            .is_some_and(|r| r.contains("exited 127 (command not found)")),
        "{out:?}"
    );
}

#[test]
fn a_full_disk_under_the_audit_log_is_reported_and_blocks_when_closed() {
    let out = pre(json!([cmd("true")]))
        .args(&["--audit-log", "/dev/full"])
        .run();
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stderr.contains("/dev/full"), "{out:?}");
    let out = pre(json!([cmd("true")]))
        .args(&["--fail-mode", "closed", "--audit-log", "/dev/full"])
        .run();
    assert_eq!(out.code, 2, "{out:?}");
    assert_eq!(out.hso()["permissionDecision"], "deny", "{out:?}");
}

#[test]
fn a_matcher_built_to_backtrack_finishes() {
    // `(a|aa)+$` against a long run of `a`s followed by a mismatch backtracks
    // exponentially without a limit; the match is abandoned instead.
    let long_name = format!("{}!", "a".repeat(64));
    let t = HookTest::new()
        .json(settings(
            "PreToolUse",
            "(a|aa)+$",
            json!([cmd("echo matched >&2; exit 2")]),
        ))
        .event(json!({"hook_event_name": "PreToolUse", "tool_name": long_name, "tool_input": {}}));
    let out = t.run();
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.elapsed < Duration::from_secs(20), "{:?}", out.elapsed);
}

/// Under a low open-file limit hookrun cannot build its runtime (tokio's
/// signal set-up panics inside): that is hookrun's own error on stderr,
/// never a panic (exit 101). Once own errors block by default, stdout should
/// carry the block.
#[test]
fn a_low_open_file_limit_gets_a_decision_not_a_panic() {
    let t = HookTest::new()
        .toml("[[hooks]]\nname = \"g\"\nevents = [\"PreToolUse\"]\ncommand = \"true\"\n");
    let event = br#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"session_id":"s","cwd":"."}"#;
    for n in 5..=9 {
        let cmd = t.command();
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(format!("ulimit -n {n}; exec \"$0\" \"$@\""))
            .arg(cmd.get_program())
            .args(cmd.get_args())
            .current_dir(t.path())
            .env("CLAUDE_PROJECT_DIR", t.path())
            .env("XDG_CONFIG_HOME", t.path().join(".xdg-config"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn sh");
        let _ = child.stdin.take().expect("stdin").write_all(event);
        let out = finish(child, Instant::now());
        assert!(
            !out.stderr.contains("panicked"),
            "ulimit -n {n}: {}",
            out.stderr
        );
        // Whatever the limit takes away, the answer is a decision: the
        // hook ran and allowed, or hookrun could not run it and denies.
        let decided = (out.code == 0 && out.stdout.trim().is_empty())
            || (out.code == 2 && out.hso()["permissionDecision"] == "deny");
        assert!(decided, "ulimit -n {n}: {out:?}");
    }
}

/// Runs the real binary with `args` under a 1 MiB main-thread stack (and
/// `extra` shell limits before it), `stdin` on its stdin.
fn under_small_stack(
    t: &HookTest,
    extra: &str,
    args: &[&str],
    stdin: Vec<u8>,
) -> crate::support::Out {
    let start = Instant::now();
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -s 1024; {extra} exec \"$0\" \"$@\""))
        .arg(BIN)
        .args(args)
        .current_dir(t.path())
        .env("XDG_CONFIG_HOME", t.path().join(".xdg-config"))
        .env_remove("HOOKRUN_CONFIG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn sh");
    let mut input = child.stdin.take().expect("stdin");
    std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    finish(child, start)
}

/// An event whose `tool_input` (or `tool_response`) holds `depth` levels of
/// objects around `leaf`.
fn nested_event(event: &str, field: &str, depth: usize, leaf: &str) -> String {
    let inner = format!("{}\"{leaf}\"{}", "{\"a\":".repeat(depth), "}".repeat(depth));
    let input = if field == "tool_input" {
        format!("{{\"command\":\"ls\",\"x\":{inner}}}")
    } else {
        format!("{{\"command\":\"ls\"}},\"{field}\":{inner}")
    };
    format!(
        "{{\"hook_event_name\":\"{event}\",\"tool_name\":\"Bash\",\"session_id\":\"s\",\"cwd\":\"/tmp\",\"tool_input\":{input}}}"
    )
}

const DEEP_CONFIG: &str = "[[hooks]]\nevent = \"PreToolUse\"\nbuiltin = \"dangerous-commands\"\n\
    [[hooks]]\nevent = \"PreToolUse\"\ncommand = \"touch {dir}/ran\"\n\
    [[hooks]]\nevent = \"PostToolUse\"\nbuiltin = \"redact-secrets\"\n";

#[test]
fn an_event_nested_near_the_limit_is_decided_under_a_one_mib_stack() {
    let t = HookTest::new().toml(DEEP_CONFIG);
    let event = nested_event("PreToolUse", "tool_input", 4_990, "x");
    let out = under_small_stack(
        &t,
        "",
        &["run", "--config", "config-1.toml"],
        event.into_bytes(),
    );
    assert_eq!(out.code, 0, "a decision, not a signal death: {out:?}");
    assert!(
        serde_json::from_str::<serde_json::Value>(&out.stdout).is_ok(),
        "{out:?}"
    );
    assert!(
        t.path().join("ran").exists(),
        "the event was evaluated: {out:?}"
    );
}

#[test]
fn serve_answers_a_deep_tool_response_under_redact_secrets_and_the_next_event() {
    let t = HookTest::new().toml(DEEP_CONFIG);
    let deep = nested_event(
        "PostToolUse",
        "tool_response",
        4_000,
        "KEY=AKIAIOSFODNN7EXAMPLE",
    );
    let normal = nested_event("PreToolUse", "tool_input", 1, "x");
    let out = under_small_stack(
        &t,
        "",
        &["serve", "--stdio", "--config", "config-1.toml"],
        format!("{deep}\n{normal}\n").into_bytes(),
    );
    assert_eq!(out.code, 0, "{out:?}");
    let replies: Vec<serde_json::Value> = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON reply"))
        .collect();
    assert_eq!(replies.len(), 2, "{out:?}");
    assert_eq!(replies[0]["seq"], 1, "{out:?}");
    assert_eq!(
        replies[0]["exit_code"], 0,
        "the deep event was read: {out:?}"
    );
    assert_eq!(replies[1]["seq"], 2, "{out:?}");
    assert_eq!(replies[1]["exit_code"], 0, "{out:?}");
}

/// Where no thread with a large stack can be reserved (`ulimit -v`), the
/// event is handled on the main thread: what its stack holds is read, what
/// it does not is refused as too deep, never a crash.
#[test]
fn without_room_for_a_large_stack_the_depth_follows_the_stack_at_hand() {
    let t = HookTest::new().toml(DEEP_CONFIG);
    let args = ["run", "--fail-mode", "closed", "--config", "config-1.toml"];
    let limit = "ulimit -v 200000;";
    let deep = nested_event("PreToolUse", "tool_input", 4_990, "x");
    let out = under_small_stack(&t, limit, &args, deep.into_bytes());
    assert_eq!(out.code, 2, "a block, not a signal death: {out:?}");
    let reason = out.json()["reason"].as_str().unwrap_or("").to_owned();
    assert!(
        reason.contains("nested 4992 levels deep, deeper than the"),
        "{out:?}"
    );
    assert!(!t.path().join("ran").exists());
    let fits = nested_event("PreToolUse", "tool_input", 150, "x");
    let out = under_small_stack(&t, limit, &args, fits.into_bytes());
    assert_eq!(out.code, 0, "{out:?}");
    assert!(t.path().join("ran").exists(), "{out:?}");
}
