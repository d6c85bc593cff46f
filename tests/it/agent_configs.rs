//! Other agents' hook files read natively by `run` and `check`: Gemini CLI's
//! settings, Cursor's `hooks.json`, Codex's `hooks.json` (Claude Code's shape),
//! Copilot's hook files, and a `hooks.json` that could be several. The files
//! sit in a `kit/` directory: in the project's own places, the agent runs
//! them itself and `run` leaves them out (`once.rs`).

use serde_json::json;

use crate::support::HookTest;

const GEMINI_SETTINGS: &str = r#"{
  "hooksConfig": {"enabled": true},
  "hooks": {
    "BeforeTool": [
      {"matcher": "shell", "hooks": [
        {"type": "command", "name": "guard", "timeout": 5000,
         "command": "echo '{\"decision\":\"deny\",\"reason\":\"no shell here\"}'"}
      ]}
    ],
    "NoSuchEvent": [{"hooks": [{"type": "command", "command": "true"}]}]
  }
}"#;

#[test]
fn gemini_settings_are_read_with_gemini_names_units_and_matchers() {
    let t = HookTest::new()
        .file("kit/.gemini/.keep", "")
        .raw_config("kit/.gemini/settings.json", GEMINI_SETTINGS);
    let ev = json!({"hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
                    "tool_input": {"command": "ls"}, "cwd": t.path()});
    let out = t.stdin(ev.to_string().as_bytes()).run();
    // Gemini's unanchored regex `shell` matches `run_shell_command`; the
    // JSON deny decides, and exit 0 says no hook failed (Gemini's count).
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stdout.contains("\"decision\":\"deny\""), "{out:?}");
    assert!(out.stdout.contains("no shell here"), "{out:?}");
    // The unknown event is skipped, as Gemini skips it, and said.
    assert!(out.stderr.contains("NoSuchEvent"), "{out:?}");
}

#[test]
fn check_points_gemini_findings_at_the_original_file_and_line() {
    let t = HookTest::new()
        .file("kit/.gemini/.keep", "")
        .raw_config("kit/.gemini/settings.json", GEMINI_SETTINGS);
    let out = std::process::Command::new(crate::support::BIN)
        .arg("check")
        .arg(t.path().join("kit/.gemini/settings.json"))
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(text.contains("settings.json:10:"), "{text}");
    assert!(text.contains("hooks.NoSuchEvent"), "{text}");
}

#[test]
fn a_gemini_file_with_only_shared_event_names_is_recognised_by_its_path() {
    // SessionStart is both Gemini's and Claude Code's name: the path decides.
    let t = HookTest::new().file("kit/.gemini/.keep", "").raw_config(
        "kit/.gemini/settings.json",
        r#"{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "echo ran > ran.txt", "timeout": 3000}]}]}}"#,
    );
    let ev = json!({"hook_event_name": "SessionStart", "source": "startup", "cwd": t.path()});
    let t = t.stdin(ev.to_string().as_bytes()).args(&["--report", "-"]);
    let out = t.run();
    assert_eq!(out.code, 0, "{out:?}");
    // 3000 is milliseconds in Gemini's file: three seconds, not 50 minutes.
    assert!(
        out.stderr.contains("\"timeout_seconds\": 3.0"),
        "{}",
        out.stderr
    );
    assert_eq!(t.read("ran.txt").trim(), "ran");
}

#[test]
fn cursor_hooks_json_is_read_with_cursor_names() {
    let t = HookTest::new().file("kit/.cursor/.keep", "").raw_config(
        "kit/.cursor/hooks.json",
        r#"{"version": 1, "hooks": {"beforeShellExecution": [{"command": "echo '{\"permission\":\"deny\",\"user_message\":\"not here\"}'"}]}}"#,
    );
    let ev = json!({"hook_event_name": "beforeShellExecution", "command": "rm -rf build", "cwd": t.path()});
    let out = t.stdin(ev.to_string().as_bytes()).run();
    assert_eq!(out.code, 2, "{out:?}");
    assert!(out.stdout.contains("not here"), "{out:?}");
}

#[test]
fn codex_hooks_json_is_read_as_claude_codes_shape() {
    let t = HookTest::new().file("kit/.codex/.keep", "").raw_config(
        "kit/.codex/hooks.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo 'no' >&2; exit 2"}]}]}}"#,
    );
    let ev = json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}, "cwd": t.path()});
    let out = t
        .stdin(ev.to_string().as_bytes())
        .args(&["--dialect", "codex"])
        .run();
    assert_eq!(out.code, 2, "{out:?}");
    assert_eq!(out.stderr.lines().next(), Some("no"), "{out:?}");
}

#[test]
fn convert_recognises_a_gemini_file_with_only_shared_events_by_its_path() {
    let t = HookTest::new().file(
        "kit/.gemini/settings.json",
        r#"{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "echo hi", "timeout": 3000}]}]}}"#,
    );
    let out = std::process::Command::new(crate::support::BIN)
        .arg("convert")
        .arg(t.path().join("kit/.gemini/settings.json"))
        .output()
        .unwrap();
    let toml = String::from_utf8_lossy(&out.stdout);
    assert!(toml.contains("timeout = 3\n"), "3000 ms is 3 s: {toml}");
    assert!(toml.contains("input = \"gemini\""), "{toml}");
}

/// A Copilot hook file: `bash` commands, `timeoutSec`, `cwd`, Copilot's
/// answer keys at the top level; a `powershell`-only hook is said to be
/// skipped, and a `prompt` hook (Copilot asks its own model) to be one
/// hookrun cannot run.
const COPILOT_HOOKS: &str = r#"{"version": 1, "hooks": {
  "preToolUse": [
    {"type": "command", "bash": "cat > ../seen.json; echo '{\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"no rm here\"}'", "cwd": "sub", "timeoutSec": 10},
    {"type": "command", "powershell": "Write-Output hi"}
  ],
  "sessionStart": [{"type": "prompt", "prompt": "hello"}]
}}"#;

#[test]
fn copilot_hook_files_are_read_with_copilot_names_shell_and_answers() {
    let t = HookTest::new()
        .file("kit/.github/hooks/.keep", "")
        .file("sub/.keep", "")
        .raw_config("kit/.github/hooks/guard.json", COPILOT_HOOKS);
    let ev = json!({"hook_event_name": "preToolUse", "toolName": "bash",
                    "toolArgs": "{\"command\":\"rm -rf ~\"}", "cwd": t.path(), "timestamp": 1});
    let t = t.stdin(ev.to_string().as_bytes());
    let out = t.run();
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.stdout.contains("\"permissionDecision\":\"deny\""),
        "{out:?}"
    );
    assert!(out.stdout.contains("no rm here"), "{out:?}");
    // The hook ran in its `cwd` and got the event as Copilot sent it.
    assert!(t.read("seen.json").contains("\"toolArgs\""), "{out:?}");
    assert!(out.stderr.contains("powershell"), "{out:?}");
    // On sessionStart, the prompt hook hookrun cannot run is said.
    let ev = json!({"hook_event_name": "sessionStart", "source": "new", "cwd": t.path(), "timestamp": 1});
    let out = t.stdin(ev.to_string().as_bytes()).run();
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stderr.contains("Copilot CLI prompt hook"), "{out:?}");
}

#[test]
fn a_copilot_file_elsewhere_is_recognised_by_its_content() {
    // `bash` handlers say Copilot wherever the file is; a missing
    // `timeoutSec` is Copilot's 30 s, not Claude Code's 600 s.
    let t = HookTest::new().raw_config(
        "hooks.json",
        r#"{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "true"}]}}"#,
    );
    let ev = json!({"hook_event_name": "preToolUse", "toolName": "bash", "toolArgs": "{}", "cwd": t.path()});
    let out = t
        .stdin(ev.to_string().as_bytes())
        .args(&["--report", "-"])
        .run();
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stderr.contains("\"timeout_seconds\": 30.0"), "{out:?}");
}

/// Events Cursor and Copilot share, and a handler that says neither.
const AMBIGUOUS: &str = r#"{"version": 1, "hooks": {"preToolUse": [{"type": "command", "command": "exit 2", "bash": "exit 2"}]}}"#;

#[test]
fn an_ambiguous_hooks_json_needs_config_format_in_every_command() {
    let t = HookTest::new()
        .raw_config("hooks.json", AMBIGUOUS)
        .env("HOOKRUN_ON_ERROR", "allow");
    let file = t.path().join("hooks.json");
    let ev = json!({"hook_event_name": "preToolUse", "toolName": "bash", "toolArgs": "{}", "cwd": t.path()});
    // run: an error (exit 1 under `--on-error allow`) naming the file and
    // the flag, no guessing.
    let t = t.stdin(ev.to_string().as_bytes());
    let out = t.run();
    assert_eq!(out.code, 1, "{out:?}");
    assert!(out.stderr.contains("hooks.json"), "{out:?}");
    assert!(out.stderr.contains("--config-format"), "{out:?}");
    // With the format named, the file is read and its hook blocks.
    let t = t.args(&["--config-format", "copilot"]);
    let out = t.run();
    assert_eq!(out.code, 2, "{out:?}");
    let cmd = |args: &[&str]| {
        let o = std::process::Command::new(crate::support::BIN)
            .args(args)
            .output()
            .unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr),
        )
    };
    let path = file.to_str().unwrap();
    let (code, text) = cmd(&["check", path]);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("--config-format"), "{text}");
    let (code, text) = cmd(&["check", "--config-format", "cursor", path]);
    assert_eq!(code, Some(0), "{text}");
    let (code, text) = cmd(&["convert", path]);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("--config-format"), "{text}");
    let (code, text) = cmd(&["convert", "--config-format", "copilot", path]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("input = \"copilot\""), "{text}");
    let (code, text) = cmd(&[
        "explain",
        "-c",
        path,
        "--event",
        "PreToolUse",
        "--tool",
        "Bash",
    ]);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("--config-format"), "{text}");
}

#[test]
fn codex_hooks_json_ignores_if_as_codex_does() {
    let hooks = r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo no >&2; exit 2", "if": "Bash(git *)"}]}]}}"#;
    let t = HookTest::new()
        .file("kit/.codex/.keep", "")
        .raw_config("kit/.codex/hooks.json", hooks);
    let ev = json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}, "cwd": t.path()});
    let t = t
        .stdin(ev.to_string().as_bytes())
        .args(&["--dialect", "codex"]);
    let out = t.run();
    // Codex runs the hook whatever `if` says, and its stderr is the reason
    // alone (no warning line before it).
    assert_eq!(out.code, 2, "{out:?}");
    assert_eq!(out.stderr.trim(), "no", "{out:?}");
    let check = std::process::Command::new(crate::support::BIN)
        .arg("check")
        .arg(t.path().join("kit/.codex/hooks.json"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&check.stdout);
    assert!(text.contains("W013"), "{text}");
    // The same handler in Claude Code's settings keeps its `if`.
    let t = HookTest::new().raw_config("settings.json", hooks);
    let ev = json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}, "cwd": t.path()});
    let out = t.stdin(ev.to_string().as_bytes()).run();
    assert_eq!(out.code, 0, "{out:?}");
}
