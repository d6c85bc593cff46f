//! `hookrun install` end to end and its edges: the command Claude Code
//! would run denies `rm -rf /`; how hookrun is named; dry runs, broken
//! files, edits made since install.

use serde_json::json;

use super::{Setup, bytes, json};
use crate::support::BIN;

/// The PreToolUse command hookrun registered in the project's Claude Code
/// settings.
fn pre_tool_use_command(s: &Setup) -> String {
    let settings = json(&s.project().join(".claude/settings.json"));
    settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .expect("a command")
        .to_owned()
}

/// Runs a registered command as Claude Code does: `sh -c`, the event on
/// stdin, in the project, `CLAUDE_PROJECT_DIR` naming it.
fn run_as_agent(s: &Setup, command: &str, bash: &str) -> crate::support::Out {
    let mut cmd = s.command("sh");
    cmd.arg("-c")
        .arg(command)
        .env("CLAUDE_PROJECT_DIR", s.project());
    s.pipe(cmd, &s.bash_event(bash))
}

/// The registered PreToolUse command is `want`, and denies `rm -rf /`.
fn assert_registered(s: &Setup, want: &str) {
    let command = pre_tool_use_command(s);
    assert_eq!(command, want);
    let denied = run_as_agent(s, &command, "rm -rf /");
    assert_eq!(denied.code, 2, "{denied:?}");
    assert_eq!(denied.hso()["permissionDecision"], "deny", "{denied:?}");
}

#[test]
fn init_install_then_the_registered_command_denies_rm_rf_and_allows_ls() {
    let s = Setup::new().on_path();
    s.ok(&["init"]);
    let out = s.ok(&["install", "--agent", "claude", "--scope", "project"]);
    assert!(!out.stderr.contains("warning"), "{out:?}");
    assert_registered(&s, "hookrun run --dialect claude");
    let allowed = run_as_agent(&s, "hookrun run --dialect claude", "ls");
    assert_eq!(allowed.code, 0, "{allowed:?}");
    assert_ne!(allowed.hso()["permissionDecision"], "deny", "{allowed:?}");
}

#[test]
fn hookrun_not_on_path_is_named_by_its_absolute_path_in_the_local_file_with_a_warning() {
    let s = Setup::new();
    s.ok(&["init"]);
    let out = s.ok(&["install", "--agent", "claude", "--scope", "local"]);
    assert!(out.stderr.contains("warning"), "{out:?}");
    assert!(out.stderr.contains("not on PATH"), "{out:?}");
    let exe = std::fs::canonicalize(BIN).expect("bin");
    // The absolute command works from anywhere.
    let settings = json(&s.project().join(".claude/settings.local.json"));
    let command = settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .expect("a command");
    assert_eq!(command, format!("{} run --dialect claude", exe.display()));
    let denied = run_as_agent(&s, command, "rm -rf /");
    assert_eq!(denied.code, 2, "{denied:?}");
}

#[test]
fn a_named_config_is_named_in_the_command() {
    let s = Setup::new().on_path();
    let elsewhere = s.project().join("my policies");
    s.ok(&["init", &elsewhere.display().to_string()]);
    let config = elsewhere.join("hookrun.toml");
    s.ok(&[
        "install",
        "--agent",
        "claude",
        "--scope",
        "project",
        "--config",
        &config.display().to_string(),
    ]);
    assert_registered(
        &s,
        "hookrun run --dialect claude --config \"$CLAUDE_PROJECT_DIR\"/'my policies/hookrun.toml'",
    );
}

#[test]
fn dry_run_prints_the_change_and_writes_nothing() {
    let s = Setup::new().on_path();
    s.ok(&["init"]);
    let gemini = ["install", "--agent", "gemini", "--scope", "project"];
    let out = s.ok(&[&gemini[..], &["--dry-run"]].concat());
    assert!(out.stdout.contains("+    \"BeforeTool\": ["), "{out:?}");
    assert!(out.stdout.contains("\"timeout\": 15000"), "{out:?}");
    assert!(!s.project().join(".gemini").exists());

    s.ok(&gemini);
    let before = bytes(&s.project().join(".gemini/settings.json"));
    let out = s.ok(&[&gemini[..], &["--uninstall", "--dry-run"]].concat());
    assert!(out.stdout.contains("would have removed"), "{out:?}");
    assert_eq!(bytes(&s.project().join(".gemini/settings.json")), before);
}

/// An initialised project whose Claude Code settings hold `text`.
fn claude_settings(text: &str) -> (Setup, std::path::PathBuf) {
    let s = Setup::new().on_path();
    s.ok(&["init"]);
    let file = s.project().join(".claude/settings.json");
    std::fs::create_dir_all(file.parent().expect("dir")).expect("mkdir");
    std::fs::write(&file, text).expect("write");
    (s, file)
}

#[test]
fn a_broken_settings_file_is_named_with_its_line_and_left_alone() {
    let (s, file) = claude_settings("{\n  \"model\": \"x\",\n}\n");
    let out = s.run(&["install", "--agent", "claude", "--scope", "project"]);
    assert_eq!(out.code, 1, "{out:?}");
    assert!(out.stderr.contains(".claude/settings.json"), "{out:?}");
    assert!(out.stderr.contains("line 3"), "{out:?}");
    assert_eq!(bytes(&file), Some(b"{\n  \"model\": \"x\",\n}\n".to_vec()));
    assert!(
        !s.project()
            .join(".claude/settings.json.hookrun-backup")
            .exists()
    );
}

#[test]
fn no_config_to_register_says_how_to_make_one() {
    let s = Setup::new();
    let out = s.run(&["install", "--agent", "cursor", "--scope", "project"]);
    assert_eq!(out.code, 1, "{out:?}");
    assert!(out.stderr.contains("hookrun init"), "{out:?}");
    assert!(!s.project().join(".cursor").exists());
}

#[test]
fn uninstall_after_other_edits_keeps_them_and_the_backup() {
    let (s, file) = claude_settings("{\"model\": \"x\"}\n");
    s.ok(&["install", "--agent", "claude", "--scope", "project"]);
    let mut settings = json(&file);
    settings["permissions"] = json!({"allow": ["Bash(ls)"]});
    std::fs::write(
        &file,
        serde_json::to_string_pretty(&settings).expect("json"),
    )
    .expect("write");

    let out = s.ok(&[
        "install",
        "--agent",
        "claude",
        "--scope",
        "project",
        "--uninstall",
    ]);
    assert!(out.stdout.contains("is kept"), "{out:?}");
    assert_eq!(
        json(&file),
        json!({"model": "x", "permissions": {"allow": ["Bash(ls)"]}})
    );
    assert!(
        s.project()
            .join(".claude/settings.json.hookrun-backup")
            .exists()
    );
}

#[test]
fn check_reports_a_registration_whose_config_is_gone() {
    let s = Setup::new().on_path();
    let elsewhere = s.project().join("policies");
    s.ok(&["init", &elsewhere.display().to_string()]);
    let config = elsewhere.join("hookrun.toml");
    let install = [
        "install", "--agent", "claude", "--scope", "project", "--config",
    ];
    s.ok(&[&install[..], &[config.to_str().expect("utf-8")]].concat());
    let settings = ".claude/settings.json";
    let clean = s.ok(&["check", "--strict", settings]);
    assert!(clean.stdout.contains("0 errors, 0 warnings"), "{clean:?}");

    std::fs::remove_file(&config).expect("remove config");
    let out = s.run(&["check", "--strict", settings]);
    assert_eq!(out.code, 1, "{out:?}");
    assert!(out.stdout.contains("names the config"), "{out:?}");
    assert!(out.stdout.contains("policies/hookrun.toml"), "{out:?}");
}
