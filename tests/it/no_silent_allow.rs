//! Failure paths that must end the way the user chose, never in an allow
//! nobody chose: self-recursion, inherited environment, empty configs,
//! hookrun's own errors, blocks in the caller's shape.

use std::time::{Duration, Instant};

use crate::support::{BIN, HookTest};

/// A guard that denies every Bash command.
const DENY_ALL: &str = "[[hooks]]\nevent = \"PreToolUse\"\nmatcher = \"Bash\"\ncommand = \"echo 'guard says no' >&2; exit 2\"\n";

#[test]
fn a_nesting_depth_from_the_environment_does_not_turn_guards_off() {
    // A project's settings can set any variable for hooks, ours included.
    for parent in ["1", "999999", "not-a-pid", ""] {
        let out = HookTest::new()
            .toml(DENY_ALL)
            .pre_tool_use("ls")
            .env("HOOKRUN_DEPTH", "8")
            .env("HOOKRUN_PARENT", parent)
            .run();
        assert_eq!(out.code, 2, "HOOKRUN_PARENT={parent:?}: {out:?}");
        assert!(out.stdout.contains("guard says no"), "{out:?}");
    }
}

#[test]
fn real_self_recursion_stops_and_follows_fail_mode() {
    for (mode, code) in [("open", 0), ("closed", 2)] {
        let t = HookTest::new().file("hooks.toml", "");
        let config = t.path().join("hooks.toml");
        std::fs::write(
            &config,
            format!(
                "[defaults]\nfail_mode = \"{mode}\"\n[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"'{BIN}' run --config '{}'\"\ntimeout = 30\n",
                config.display()
            ),
        )
        .unwrap();
        let t = t
            .env("HOOKRUN_ON_ERROR", "allow")
            .arg("--config")
            .arg(config.to_str().unwrap())
            .pre_tool_use("ls");
        let started = Instant::now();
        let out = t.run();
        assert!(started.elapsed() < Duration::from_secs(20), "{out:?}");
        assert_eq!(out.code, code, "fail_mode {mode}: {out:?}");
        assert!(out.stdout.contains("nested"), "fail_mode {mode}: {out:?}");
    }
}

/// pydantic-deep's payload: a deny is its reason alone on stdout, exit 2.
const PYDANTIC_EVENT: &str = r#"{"event": "pre_tool_use", "tool_name": "execute", "tool_input": {"command": "ls"}, "tool_result": null, "tool_error": null}"#;

#[test]
fn blocks_hookrun_makes_itself_come_in_the_callers_shape() {
    // A broken config under --fail-mode closed, then an audit log that
    // cannot be written under a closed hook: both blocks reach a
    // pydantic-deep caller in its own shape, a Gemini caller in its own.
    let broken = HookTest::new()
        .raw_config("broken.toml", "[[hooks]\n")
        .stdin(PYDANTIC_EVENT.as_bytes())
        .args(&["--fail-mode", "closed"]);
    let out = broken.run();
    assert_eq!(out.code, 2, "{out:?}");
    assert!(out.stdout.starts_with("hookrun: "), "{out:?}");
    assert!(!out.stdout.contains("\"decision\""), "{out:?}");
    assert!(
        out.stderr.is_empty(),
        "pydantic-deep appends stderr: {out:?}"
    );

    let audit = |stdin: &str| {
        let t = HookTest::new()
            .file("log-is-a-dir/.keep", "")
            .toml("[defaults]\nfail_mode = \"closed\"\naudit_log = \"log-is-a-dir\"\n[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"true\"\n")
            .stdin(stdin.as_bytes());
        t.run()
    };
    let out = audit(PYDANTIC_EVENT);
    assert_eq!(out.code, 2, "{out:?}");
    assert!(out.stdout.contains("audit log"), "{out:?}");
    assert!(!out.stdout.contains("\"decision\""), "{out:?}");
    let gemini = r#"{"hook_event_name": "BeforeTool", "tool_name": "run_shell_command", "tool_input": {"command": "ls"}}"#;
    let out = audit(gemini);
    let answer: serde_json::Value = serde_json::from_str(&out.stdout).unwrap_or_default();
    assert_eq!(answer["decision"], "deny", "{out:?}");
    assert!(
        answer["reason"]
            .as_str()
            .unwrap_or("")
            .contains("audit log"),
        "{out:?}"
    );
}

/// Runs the binary with `args` and `stdin`; (exit code, stdout, stderr).
fn hookrun(args: &[&str], stdin: &str) -> (Option<i32>, String, String) {
    use std::io::Write;
    let mut child = std::process::Command::new(BIN)
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_mistyped_flag_in_a_hook_command_blocks_unless_the_user_lets_it_through() {
    // What an agent runs as a hook cannot evaluate the event: a block in
    // the caller's shape (pydantic-deep: the reason alone on stdout).
    for args in [
        &["run", "--confg", "x.toml"][..],
        &["builtin", "dangerous-commands", "--optoin", "x=y"],
    ] {
        let (code, stdout, stderr) = hookrun(args, PYDANTIC_EVENT);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(stdout.starts_with("hookrun: "), "{args:?}: {stdout}");
        assert!(stdout.contains("unexpected argument"), "{args:?}: {stdout}");
    }
    // `--on-error allow`: 1, a non-blocking error to every agent; and so for
    // `serve`, which has no stream to answer yet.
    for args in [
        &["run", "--on-error", "allow", "--confg", "x.toml"][..],
        &["serve", "--stdio", "--no-such-flag"],
        &[
            "builtin",
            "dangerous-commands",
            "--on-error=allow",
            "--optoin",
            "x=y",
        ],
    ] {
        let (code, _, stderr) = hookrun(args, PYDANTIC_EVENT);
        assert_eq!(code, Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains("error"), "{args:?}: {stderr}");
    }
    // A closed guard blocks even then.
    let (code, stdout, _) = hookrun(
        &[
            "run",
            "--on-error",
            "allow",
            "--fail-mode",
            "closed",
            "--confg",
            "x.toml",
        ],
        PYDANTIC_EVENT,
    );
    assert_eq!(code, Some(2), "{stdout}");
    assert!(stdout.starts_with("hookrun: "), "{stdout}");
    // CI commands keep the usual 2 for usage errors.
    let (code, _, _) = hookrun(&["check", "--no-such-flag"], "");
    assert_eq!(code, Some(2));
    let (code, stdout, _) = hookrun(&["run", "--help"], "");
    assert_eq!(code, Some(0), "{stdout}");
}

#[test]
fn a_config_without_hooks_is_said_and_blocks_when_closed() {
    for (name, text) in [
        ("empty.toml", ""),
        ("empty.json", "{}"),
        ("blank.json", "  \n"),
    ] {
        let out = HookTest::new()
            .raw_config(name, text)
            .pre_tool_use("ls")
            .run();
        assert_eq!(out.code, 0, "{name}: {out:?}");
        assert!(
            out.system_message().contains("defines no hook"),
            "{name}: {out:?}"
        );
        assert!(out.stderr.contains("defines no hook"), "{name}: {out:?}");
    }
    let out = HookTest::new()
        .raw_config("closed.toml", "[defaults]\nfail_mode = \"closed\"\n")
        .pre_tool_use("ls")
        .run();
    assert_eq!(out.code, 2, "{out:?}");
    assert_eq!(out.hso()["permissionDecision"], "deny", "{out:?}");
    // Off on purpose: silent, even under a closed default.
    let out = HookTest::new()
        .raw_config(
            "off.toml",
            "disable_all_hooks = true\n[defaults]\nfail_mode = \"closed\"\n",
        )
        .pre_tool_use("ls")
        .run();
    assert_eq!((out.code, out.stdout.as_str()), (0, "{}"), "{out:?}");
}

/// A guard hookrun runs itself, and a hook that keeps the bytes it got.
const GUARD_AND_RECORDER: &str = "[[hooks]]\nevent = \"PreToolUse\"\nbuiltin = \"dangerous-commands\"\n[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"cat > seen.json\"\n";

#[test]
fn lone_surrogates_from_node_are_read_and_passed_on_unchanged() {
    // Node's JSON.stringify writes an unpaired surrogate as an escape.
    let event = r#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf / # \ud800"}}"#;
    let t = HookTest::new()
        .toml(GUARD_AND_RECORDER)
        .stdin(event.as_bytes());
    let out = t.run();
    assert_eq!(out.code, 2, "the guard judged it: {out:?}");
    assert!(
        t.read("seen.json").contains(r"\ud800"),
        "the hook got the original bytes: {}",
        t.read("seen.json")
    );
}

#[test]
fn events_nested_as_deep_as_agents_write_are_read_and_deeper_ones_follow_fail_mode() {
    let nested = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    let event = |n: usize| {
        format!(
            r#"{{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{{"command":"rm -rf /","deep":{}}}}}"#,
            nested(n)
        )
    };
    let out = HookTest::new()
        .toml(GUARD_AND_RECORDER)
        .stdin(event(4_000).as_bytes())
        .run();
    assert_eq!(out.code, 2, "read and judged: {}", out.stderr);
    let open = HookTest::new()
        .env("HOOKRUN_ON_ERROR", "allow")
        .toml(GUARD_AND_RECORDER)
        .stdin(event(20_000).as_bytes())
        .run();
    assert_eq!(open.code, 1, "{}", open.stderr);
    assert!(open.stderr.contains("levels deep"), "{}", open.stderr);
    let closed = HookTest::new()
        .toml(&format!(
            "[defaults]\nfail_mode = \"closed\"\n{GUARD_AND_RECORDER}"
        ))
        .stdin(event(20_000).as_bytes())
        .run();
    assert_eq!(closed.code, 2, "{}", closed.stderr);
}

#[test]
fn built_in_guards_judge_the_input_after_every_rewrite() {
    let rewrite = r#"printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"rm -rf /"}}}'"#;
    let config = format!(
        "[[hooks]]\nevent = \"PreToolUse\"\nname = \"guard\"\nbuiltin = \"dangerous-commands\"\n[[hooks]]\nevent = \"PreToolUse\"\ncommand = '''{rewrite}'''\n"
    );
    let out = HookTest::new().toml(&config).pre_tool_use("ls").run();
    assert_eq!(out.code, 2, "{out:?}");
    assert_eq!(out.hso()["permissionDecision"], "deny", "{out:?}");
    assert!(out.hso().get("updatedInput").is_none(), "{out:?}");
    crate::rewrites::assert_judged_rewrite(&out.hso()["permissionDecisionReason"], &out);
    // The same order, sequential: the guard after the rewrite sees it too.
    let out = HookTest::new()
        .toml(&format!("[defaults]\norder = \"sequential\"\n{config}"))
        .pre_tool_use("ls")
        .run();
    assert_eq!(out.code, 2, "{out:?}");
    // A harmless rewrite passes.
    let harmless = config.replace("rm -rf /", "ls -la");
    let out = HookTest::new().toml(&harmless).pre_tool_use("ls").run();
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(out.hso()["updatedInput"]["command"], "ls -la", "{out:?}");
}
