//! Other agents' hook files read natively by `run` and `check`: Gemini CLI's
//! settings, Cursor's `hooks.json`, Codex's `hooks.json` (Claude Code's shape).

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
        .file(".gemini/.keep", "")
        .raw_config(".gemini/settings.json", GEMINI_SETTINGS);
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
        .file(".gemini/.keep", "")
        .raw_config(".gemini/settings.json", GEMINI_SETTINGS);
    let out = std::process::Command::new(crate::support::BIN)
        .arg("check")
        .arg(t.path().join(".gemini/settings.json"))
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
    let t = HookTest::new().file(".gemini/.keep", "").raw_config(
        ".gemini/settings.json",
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
    let t = HookTest::new().file(".cursor/.keep", "").raw_config(
        ".cursor/hooks.json",
        r#"{"version": 1, "hooks": {"beforeShellExecution": [{"command": "echo '{\"permission\":\"deny\",\"user_message\":\"not here\"}'"}]}}"#,
    );
    let ev = json!({"hook_event_name": "beforeShellExecution", "command": "rm -rf build", "cwd": t.path()});
    let out = t.stdin(ev.to_string().as_bytes()).run();
    assert_eq!(out.code, 2, "{out:?}");
    assert!(out.stdout.contains("not here"), "{out:?}");
}

#[test]
fn codex_hooks_json_is_read_as_claude_codes_shape() {
    let t = HookTest::new().file(".codex/.keep", "").raw_config(
        ".codex/hooks.json",
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
        ".gemini/settings.json",
        r#"{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "echo hi", "timeout": 3000}]}]}}"#,
    );
    let out = std::process::Command::new(crate::support::BIN)
        .arg("convert")
        .arg(t.path().join(".gemini/settings.json"))
        .output()
        .unwrap();
    let toml = String::from_utf8_lossy(&out.stdout);
    assert!(toml.contains("timeout = 3\n"), "3000 ms is 3 s: {toml}");
    assert!(toml.contains("input = \"gemini\""), "{toml}");
}
