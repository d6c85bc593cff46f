//! Qwen Code's dialect through the binary: its settings file read as Qwen
//! Code reads it (`--config-format qwen`), real hook processes read by its
//! rules, and the decision printed as it reads one (exit 0, one JSON
//! object on stdout). The payloads are the fixtures recorded from Qwen
//! Code 0.24.4 (`tests/fixtures/qwen`).

use serde_json::{Value, json};

use crate::support::{HookTest, Out};

/// A recorded payload, its `cwd` set to the test's directory.
fn payload(t: &HookTest, name: &str) -> Vec<u8> {
    let path = format!(
        "{}/tests/fixtures/qwen/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut v: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    v["cwd"] = json!(t.path().display().to_string());
    serde_json::to_vec(&v).expect("payload")
}

/// Qwen Code settings with one command handler on `event`.
fn settings(event: &str, handler: Value) -> Value {
    json!({"hooks": {event: [{"matcher": "", "hooks": [handler]}]}})
}

fn run(event: &str, handler: Value, fixture: &str) -> Out {
    let t = HookTest::new().json(settings(event, handler)).args(&[
        "--dialect",
        "qwen",
        "--config-format",
        "qwen",
    ]);
    let stdin = payload(&t, fixture);
    t.run_stdin(&stdin)
}

fn command(c: &str) -> Value {
    json!({"type": "command", "command": c})
}

#[test]
fn every_recorded_payload_is_read_and_a_silent_hook_says_nothing() {
    let dir = format!("{}/tests/fixtures/qwen", env!("CARGO_MANIFEST_DIR"));
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).expect("fixtures") {
        let path = entry.expect("entry").path();
        let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        if path.extension().is_none_or(|e| e != "json") || name == "hook-env" {
            continue;
        }
        let event = name.split('.').next().unwrap_or(name);
        let out = run(event, command("cat > got.json"), name);
        assert_eq!(out.code, 0, "{name}: {out:?}");
        assert_eq!(out.stdout, "", "{name}: {out:?}");
        seen += 1;
    }
    assert!(seen >= 15, "only {seen} fixtures");
}

#[test]
fn the_hook_reads_the_payload_as_qwen_sent_it_with_qwens_variables() {
    let t = HookTest::new()
        .json(settings(
            "PreToolUse",
            json!({"type": "command", "command": "cat > got.json; echo \"$QWEN_PROJECT_DIR|$GEMINI_PROJECT_DIR|$MY_VAR\" > env.txt", "env": {"MY_VAR": "set"}}),
        ))
        .args(&["--dialect", "qwen", "--config-format", "qwen"]);
    let stdin = payload(&t, "PreToolUse");
    let out = t.run_stdin(&stdin);
    assert_eq!(out.code, 0, "{out:?}");
    let got: Value = serde_json::from_str(&t.read("got.json")).expect("payload JSON");
    let sent: Value = serde_json::from_slice(&stdin).expect("sent");
    assert_eq!(got, sent);
    let dir = t.path().display().to_string();
    assert_eq!(t.read("env.txt").trim(), format!("{dir}|{dir}|set"));
}

#[test]
fn exit_2_denies_with_stderr_and_the_answer_is_json_at_exit_0() {
    let out = run(
        "PreToolUse",
        command("echo 'not here' >&2; exit 2"),
        "PreToolUse",
    );
    assert_eq!(out.code, 0, "{out:?}");
    let hso = out.hso();
    assert_eq!(hso["permissionDecision"], "deny", "{out:?}");
    assert_eq!(hso["permissionDecisionReason"], "not here", "{out:?}");
}

#[test]
fn a_silent_exit_2_is_no_answer() {
    let out = run("PreToolUse", command("exit 2"), "PreToolUse");
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(out.stdout, "", "{out:?}");
}

#[test]
fn on_exit_2_a_json_stderr_is_the_answer_and_stdout_is_not_read() {
    // Qwen Code parses stderr as the answer on exit 2: an allow there allows.
    let out = run(
        "PreToolUse",
        command(
            r#"echo '{"decision":"deny","reason":"from stdout"}'; echo '{"decision":"allow"}' >&2; exit 2"#,
        ),
        "PreToolUse",
    );
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(out.hso()["permissionDecision"], "allow", "{out:?}");
}

#[test]
fn a_failing_hooks_json_answer_counts() {
    // Exit 1 with a JSON deny on stdout: Qwen Code takes the JSON.
    let out = run(
        "Stop",
        command(r#"echo '{"decision":"block","reason":"keep going"}'; exit 1"#),
        "Stop",
    );
    assert_eq!(out.code, 0, "{out:?}");
    let v = out.json();
    assert_eq!(v["decision"], "block", "{out:?}");
    assert_eq!(v["reason"], "keep going", "{out:?}");
}

#[test]
fn deny_and_allow_spelled_qwens_way_are_read() {
    let out = run(
        "UserPromptSubmit",
        command(r#"echo '{"decision":"deny","reason":"no prompts"}'"#),
        "UserPromptSubmit",
    );
    assert_eq!(out.json()["decision"], "block", "{out:?}");
    let out = run(
        "PreToolUse",
        command(r#"echo '{"decision":"block","reason":"r"}'"#),
        "PreToolUse",
    );
    assert_eq!(out.hso()["permissionDecision"], "deny", "{out:?}");
    assert_eq!(out.hso()["permissionDecisionReason"], "r", "{out:?}");
}

#[test]
fn plain_stdout_is_context_on_prompt_events_and_a_message_elsewhere() {
    let out = run(
        "UserPromptSubmit",
        command("echo remember this"),
        "UserPromptSubmit",
    );
    assert_eq!(out.hso()["additionalContext"], "remember this", "{out:?}");
    let out = run(
        "PostToolUse",
        command("echo just so you know"),
        "PostToolUse",
    );
    assert_eq!(out.system_message(), "just so you know", "{out:?}");
    assert_eq!(out.hso(), Value::Null, "{out:?}");
    // After a failing exit, plain text is a warning.
    let out = run("PostToolUse", command("echo oops; exit 1"), "PostToolUse");
    assert_eq!(out.system_message(), "Warning: oops", "{out:?}");
}

#[test]
fn stdout_is_never_empty_when_stderr_is_not() {
    // A hook that fails without an answer: Qwen Code would read a lone
    // stderr as the answer, so stdout holds an object.
    let out = run("PreToolUse", command("exit 1"), "PreToolUse");
    assert_eq!(out.code, 0, "{out:?}");
    if !out.stderr.trim().is_empty() {
        assert!(out.json().is_object(), "{out:?}");
    }
    let out = run("PreToolUse", command("echo '{not json'"), "PreToolUse");
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.json().get("hookSpecificOutput").is_none(), "{out:?}");
    assert!(out.stderr.contains("not valid JSON"), "{out:?}");
}

#[test]
fn timeouts_count_seconds_and_milliseconds_from_1000_on() {
    for timeout in [json!(1), json!(1500), json!("1")] {
        let out = run(
            "PreToolUse",
            json!({"type": "command", "command": "sleep 20", "timeout": timeout}),
            "PreToolUse",
        );
        assert_eq!(out.code, 0, "{timeout}: {out:?}");
        assert!(
            out.elapsed < std::time::Duration::from_secs(10),
            "{timeout}: took {:?}",
            out.elapsed
        );
    }
}

#[test]
fn fail_mode_closed_denies_when_the_hook_fails_without_an_answer() {
    let out = run(
        "PreToolUse",
        json!({"type": "command", "command": "exit 1", "failMode": "closed"}),
        "PreToolUse",
    );
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(out.hso()["permissionDecision"], "deny", "{out:?}");
    let open = run(
        "PreToolUse",
        json!({"type": "command", "command": "exit 1", "failMode": "open"}),
        "PreToolUse",
    );
    assert_ne!(open.hso()["permissionDecision"], "deny", "{open:?}");
}

#[test]
fn handler_kinds_qwen_does_not_run_are_dropped_with_a_notice() {
    let t = HookTest::new()
        .json(json!({"hooks": {"PreToolUse": [{"hooks": [
            {"type": "agent", "prompt": "judge"},
            {"type": "command", "command": "echo '{\"decision\":\"deny\",\"reason\":\"r\"}'"}
        ]}]}}))
        .args(&["--dialect", "qwen", "--config-format", "qwen"]);
    let stdin = payload(&t, "PreToolUse");
    let out = t.run_stdin(&stdin);
    // The file is not void (Qwen Code drops only the entry): the command
    // still denies, and the dropped entry is said.
    assert_eq!(out.hso()["permissionDecision"], "deny", "{out:?}");
    let said = format!("{}{}", out.stdout, out.stderr);
    assert!(said.contains("which Qwen Code does not run"), "{out:?}");
}

#[test]
fn qwens_own_events_run_their_hooks() {
    let t = HookTest::new()
        .json(settings(
            "TodoCreated",
            command(r#"echo '{"decision":"block","reason":"no more todos"}'"#),
        ))
        .args(&["--dialect", "qwen", "--config-format", "qwen"]);
    let out = t.run_stdin(
        json!({"session_id": "s", "transcript_path": "", "cwd": t.path(), "hook_event_name": "TodoCreated", "timestamp": "t"})
            .to_string()
            .as_bytes(),
    );
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(out.json()["decision"], "block", "{out:?}");
    assert_eq!(out.json()["reason"], "no more todos", "{out:?}");
}

#[test]
fn install_registers_hookrun_in_qwens_user_settings_in_qwen_home() {
    let t = HookTest::new().file(
        ".xdg/hookrun/hookrun.toml",
        "[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"true\"\n",
    );
    let home = t.path().join(".home");
    std::fs::create_dir_all(&home).expect("home");
    let out = std::process::Command::new(crate::support::BIN)
        .args(["install", "--agent", "qwen", "--scope", "user"])
        .current_dir(t.path())
        .env("HOME", &home)
        .env("QWEN_HOME", t.path().join("qh"))
        .env("XDG_CONFIG_HOME", t.path().join(".xdg"))
        .output()
        .expect("install");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // `$QWEN_HOME` is Qwen Code's `.qwen` directory itself.
    let text = std::fs::read_to_string(t.path().join("qh/settings.json")).expect("settings");
    let v: Value = serde_json::from_str(&text).expect("JSON");
    let handler = &v["hooks"]["PreToolUse"][0]["hooks"][0];
    let cmd = handler["command"].as_str().unwrap_or("");
    assert!(
        cmd.contains("hookrun") && cmd.contains("--dialect qwen"),
        "{text}"
    );
    // Qwen Code counts seconds: the registration's timeout is below 1000.
    assert!(
        handler["timeout"].as_f64().is_some_and(|t| t < 1000.0),
        "{text}"
    );
    // A deny must hold when hookrun cannot answer: Qwen Code's fail-safe.
    assert_eq!(handler["failMode"], "closed", "{text}");
    // And doctor reads it back as the fail-safe install wrote.
    let doctor = std::process::Command::new(crate::support::BIN)
        .args(["doctor", "--no-hooks"])
        .current_dir(t.path())
        .env("HOME", &home)
        .env("QWEN_HOME", t.path().join("qh"))
        .env("XDG_CONFIG_HOME", t.path().join(".xdg"))
        .output()
        .expect("doctor");
    let said = String::from_utf8_lossy(&doctor.stdout);
    assert!(said.contains("qh/settings.json"), "{said}");
    assert!(!said.contains("D004"), "{said}");
}

#[test]
fn a_sequential_group_runs_the_events_hooks_one_after_another() {
    for (sequential, expected) in [(true, "a\nb\n"), (false, "b\na\n")] {
        let t = HookTest::new()
            .json(json!({"hooks": {"PreToolUse": [
                {"sequential": sequential, "hooks": [command("sleep 1; echo a >> log")]},
                {"hooks": [command("echo b >> log")]}
            ]}}))
            .args(&["--dialect", "qwen", "--config-format", "qwen"]);
        let stdin = payload(&t, "PreToolUse");
        let out = t.run_stdin(&stdin);
        assert_eq!(out.code, 0, "{out:?}");
        assert_eq!(t.read("log"), expected, "sequential: {sequential}");
    }
}

#[test]
fn a_qwen_settings_file_is_known_by_its_path() {
    // No `--config-format`: `.qwen/settings.json` says whose file it is, so
    // a timeout of 1500 counts milliseconds.
    let t = HookTest::new()
        .file(
            ".qwen/settings.json",
            &settings(
                "PreToolUse",
                json!({"type": "command", "command": "sleep 20", "timeout": 1500}),
            )
            .to_string(),
        )
        .args(&["--dialect", "qwen"]);
    let t = t.arg("--config").arg(".qwen/settings.json");
    let stdin = payload(&t, "PreToolUse");
    let out = t.run_stdin(&stdin);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.elapsed < std::time::Duration::from_secs(10),
        "{:?}",
        out.elapsed
    );
}

#[test]
fn converted_settings_mean_what_qwen_code_reads_in_them() {
    // An alias matcher (`Bash` is Qwen Code's `run_shell_command`), a
    // millisecond timeout, `env` and `failMode`: the TOML `convert` writes
    // runs the hook on the same event, the same way.
    let settings = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "echo \"$GREETING\" > ran.txt; echo no >&2; exit 2", "timeout": 5000, "env": {"GREETING": "hi"}, "failMode": "closed"}
    ]}]}});
    let t = HookTest::new().file("settings.json", &settings.to_string());
    let (code, toml, stderr) = crate::support::hookrun_in(
        t.path(),
        &["convert", "--config-format", "qwen", "settings.json"],
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(toml.contains("timeout = 5\n"), "{toml}");
    assert!(toml.contains("fail_mode = \"closed\""), "{toml}");
    let t = t.toml(&toml).args(&["--dialect", "qwen"]);
    let stdin = payload(&t, "PreToolUse");
    let out = t.run_stdin(&stdin);
    assert_eq!(t.read("ran.txt").trim(), "hi", "{out:?}");
    assert_eq!(out.hso()["permissionDecision"], "deny", "{out:?}");
}
