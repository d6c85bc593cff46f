//! Each configured hook runs exactly once: run as an agent's hook, hookrun
//! leaves out the hooks that agent runs itself from its own files, whether
//! the file was discovered or named with `--config`, and `explain`,
//! `test` and `config events` show the same. Hooks count their runs by
//! appending to a marker file.

use std::path::Path;

use serde_json::{Value, json};

use super::Setup;
use crate::support::{BIN, Out};

/// How many times the marker hooks ran.
fn runs(marker: &Path) -> usize {
    std::fs::read_to_string(marker).map_or(0, |s| s.lines().count())
}

/// A hook command that reads the event and appends a line to `marker`.
fn marking(marker: &Path) -> String {
    format!("cat >/dev/null; echo ran >> '{}'", marker.display())
}

/// Runs a command as the agents do: `sh -c`, the event on stdin, in the
/// project.
fn as_agent(s: &Setup, command: &str, event: &Value) -> Out {
    let mut cmd = s.command("sh");
    cmd.arg("-c").arg(command);
    s.pipe(cmd, event.to_string().as_bytes())
}

/// Runs `hookrun ARGS` with an event on stdin.
fn hookrun_with(s: &Setup, args: &[&str], event: &Value) -> Out {
    let mut cmd = s.command(BIN);
    cmd.args(args);
    s.pipe(cmd, event.to_string().as_bytes())
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

/// A Claude Code settings file with one command hook on every PreToolUse.
fn claude_settings(command: &str) -> String {
    json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": command}]}]}})
        .to_string()
}

fn bash_event(s: &Setup, command: &str) -> Value {
    json!({"session_id": "s", "transcript_path": "", "cwd": s.project(),
           "hook_event_name": "PreToolUse", "tool_name": "Bash",
           "tool_input": {"command": command}})
}

fn cursor_event(s: &Setup, command: &str) -> Value {
    json!({"hook_event_name": "preToolUse", "conversation_id": "c", "generation_id": "g",
           "cursor_version": "2.0", "tool_name": "Shell", "tool_input": {"command": command},
           "workspace_roots": [s.project()]})
}

#[test]
fn a_hook_in_the_projects_claude_settings_runs_once_after_init_and_install() {
    let s = Setup::new().on_path();
    let marker = s.home().join("marker");
    write(
        &s.project().join(".claude/settings.json"),
        &claude_settings(&marking(&marker)),
    );
    s.ok(&["init"]);
    s.ok(&["install", "--agent", "claude", "--scope", "project"]);
    // Claude Code runs the project's hook itself, once...
    let mine = as_agent(&s, &marking(&marker), &bash_event(&s, "ls"));
    assert_eq!(mine.code, 0, "{mine:?}");
    // ...and hookrun, registered in the same file, does not run it again.
    let out = as_agent(&s, "hookrun run --dialect claude", &bash_event(&s, "ls"));
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(runs(&marker), 1, "{out:?}");
    // Said on hookrun's stderr (Claude Code's debug log), not in a
    // `systemMessage`: Claude Code running its hooks alone shows none.
    assert!(out.stderr.contains(".claude/settings.json"), "{out:?}");
    assert!(
        out.stderr.contains("Claude Code, which runs them itself"),
        "{out:?}"
    );
    assert!(
        !out.system_message().contains("runs them itself"),
        "{out:?}"
    );
    // hookrun's own guards still judge the event.
    let denied = as_agent(
        &s,
        "hookrun run --dialect claude",
        &bash_event(&s, "rm -rf /"),
    );
    assert_eq!(denied.code, 2, "{denied:?}");
    assert_eq!(runs(&marker), 1, "{denied:?}");
}

/// Each agent: name, its project hooks file, that file holding `command`
/// on its pre-tool event, the `run` arguments, and a shell event of it.
type Row = (
    &'static str,
    &'static str,
    fn(&str) -> String,
    Vec<&'static str>,
    Value,
);

fn agents(s: &Setup) -> Vec<Row> {
    let p = s.project().display().to_string();
    vec![
        (
            "claude",
            ".claude/settings.json",
            claude_settings,
            vec!["--dialect", "claude"],
            bash_event(s, "ls"),
        ),
        (
            "codex",
            ".codex/hooks.json",
            claude_settings,
            vec!["--dialect", "codex"],
            bash_event(s, "ls"),
        ),
        (
            "gemini",
            ".gemini/settings.json",
            |c| {
                json!({"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": c}]}]}})
                    .to_string()
            },
            vec!["--dialect", "gemini"],
            json!({"hook_event_name": "BeforeTool", "session_id": "s", "cwd": p,
                   "tool_name": "run_shell_command", "tool_input": {"command": "ls"}}),
        ),
        (
            "cursor",
            ".cursor/hooks.json",
            |c| json!({"version": 1, "hooks": {"preToolUse": [{"command": c}]}}).to_string(),
            vec!["--dialect", "cursor"],
            cursor_event(s, "ls"),
        ),
        (
            "copilot",
            ".github/hooks/mine.json",
            |c| {
                json!({"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": c}]}})
                    .to_string()
            },
            vec!["--dialect", "copilot", "--event", "preToolUse"],
            json!({"timestamp": 1, "cwd": p, "toolName": "bash", "toolArgs": "{\"command\":\"ls\"}"}),
        ),
    ]
}

#[test]
fn each_agents_own_file_named_with_config_is_left_to_that_agent() {
    let s = Setup::new();
    let marker = s.home().join("marker");
    for (agent, rel, file, args, event) in agents(&s) {
        let own = s.project().join(rel);
        write(&own, &file(&marking(&marker)));
        let before = runs(&marker);
        let own_arg = own.display().to_string();
        let mut run: Vec<&str> = vec!["run", "--config", &own_arg];
        run.extend(&args);
        let out = hookrun_with(&s, &run, &event);
        // Nothing to run is an allow, not the no-config block.
        assert_eq!(out.code, 0, "{agent}: {out:?}");
        assert_eq!(
            runs(&marker),
            before,
            "{agent}: hookrun ran the agent's own hook: {out:?}"
        );
        assert!(out.stderr.contains(rel), "{agent}: {out:?}");
        assert!(out.stderr.contains("runs them itself"), "{agent}: {out:?}");
        std::fs::remove_file(&own).expect("rm");
        // The same file anywhere the agent does not read is hookrun's to run.
        let elsewhere = s.home().join("kit").join(rel);
        write(&elsewhere, &file(&marking(&marker)));
        let elsewhere_arg = elsewhere.display().to_string();
        let mut run: Vec<&str> = vec!["run", "--config", &elsewhere_arg];
        run.extend(&args);
        let out = hookrun_with(&s, &run, &event);
        assert_eq!(out.code, 0, "{agent}: {out:?}");
        assert_eq!(runs(&marker), before + 1, "{agent}: {out:?}");
        assert!(!out.stderr.contains("runs them itself"), "{agent}: {out:?}");
    }
}

#[test]
fn a_claude_file_is_left_to_claude_but_run_for_an_agent_that_does_not_read_it() {
    let s = Setup::new();
    let marker = s.home().join("marker");
    write(
        &s.home().join(".claude/settings.json"),
        &claude_settings(&marking(&marker)),
    );
    // Discovered (no hookrun config of the user's): Claude Code's layers.
    let claude = hookrun_with(&s, &["run", "--dialect", "claude"], &bash_event(&s, "ls"));
    assert_eq!((claude.code, runs(&marker)), (0, 0), "{claude:?}");
    assert!(
        claude.stderr.contains(".claude/settings.json"),
        "{claude:?}"
    );
    // Codex does not read Claude Code's files: hookrun runs the hook for it.
    let codex = hookrun_with(&s, &["run", "--dialect", "codex"], &bash_event(&s, "ls"));
    assert_eq!((codex.code, runs(&marker)), (0, 1), "{codex:?}");
}

#[test]
fn cursor_running_the_claude_registration_is_answered_as_cursor_and_only_once() {
    let s = Setup::new().on_path();
    let marker = s.home().join("marker");
    write(
        &s.project().join(".claude/settings.json"),
        &claude_settings(&marking(&marker)),
    );
    s.ok(&["init"]);
    s.ok(&["install", "--agent", "claude", "--scope", "project"]);
    let claude_registration = "hookrun run --dialect claude";
    // Cursor loads Claude Code's settings: it runs the project's hook and
    // hookrun's Claude Code registration with its own events. The answer
    // is Cursor's, and the hook Cursor runs itself is not run again.
    let out = as_agent(&s, claude_registration, &cursor_event(&s, "rm -rf /"));
    assert_eq!(out.code, 2, "{out:?}");
    assert_eq!(out.json()["permission"], "deny", "{out:?}");
    // Beside a block, stderr carries the reason only.
    assert!(!out.stderr.contains("runs them itself"), "{out:?}");
    assert_eq!(runs(&marker), 0, "{out:?}");
    let allowed = as_agent(&s, claude_registration, &cursor_event(&s, "ls"));
    assert_eq!(allowed.code, 0, "{allowed:?}");
    assert!(
        allowed.stderr.contains("to Cursor, which runs them itself"),
        "{allowed:?}"
    );
    assert_eq!(runs(&marker), 0, "{allowed:?}");
    // With hookrun registered in Cursor's own file too, that registration
    // judges the event and the Claude Code one runs nothing.
    s.ok(&["install", "--agent", "cursor", "--scope", "project"]);
    let stood_aside = as_agent(&s, claude_registration, &cursor_event(&s, "rm -rf /"));
    assert_eq!(stood_aside.code, 0, "{stood_aside:?}");
    assert_ne!(stood_aside.json()["permission"], "deny", "{stood_aside:?}");
    assert!(
        stood_aside.stderr.contains(".cursor/hooks.json"),
        "{stood_aside:?}"
    );
    let judged = as_agent(
        &s,
        "hookrun run --dialect cursor",
        &cursor_event(&s, "rm -rf /"),
    );
    assert_eq!(judged.code, 2, "{judged:?}");
    assert_eq!(judged.json()["permission"], "deny", "{judged:?}");
    assert_eq!(runs(&marker), 0);
}

#[test]
fn explain_run_and_config_events_skip_what_run_skips_in_an_installed_project() {
    let s = Setup::new().on_path();
    s.ok(&["init"]);
    let before = s.ok(&["config", "events", "--dialect", "claude", "--timeouts"]);
    s.ok(&["install", "--agent", "claude", "--scope", "project"]);
    let after = s.ok(&["config", "events", "--dialect", "claude", "--timeouts"]);
    assert_eq!(after.stdout, before.stdout, "{after:?}");
    let explained = s.ok(&[
        "explain",
        "--run",
        "--format",
        "json",
        "--event",
        "PreToolUse",
        "--tool",
        "Bash",
        "--input",
        r#"{"command":"rm -rf /"}"#,
    ]);
    let run = as_agent(
        &s,
        "hookrun run --dialect claude",
        &bash_event(&s, "rm -rf /"),
    );
    let reason = run.hso()["permissionDecisionReason"].clone();
    assert!(
        reason.as_str().is_some_and(|r| !r.contains('\n')),
        "{run:?}"
    );
    let e: Value = serde_json::from_str(&explained.stdout).expect("explain json");
    let stdout = e["result"]["stdout"].as_str().unwrap_or_default();
    let answer: Value = serde_json::from_str(stdout).unwrap_or_else(|_| panic!("{e:#}"));
    assert_eq!(
        answer["hookSpecificOutput"]["permissionDecisionReason"], reason,
        "{e:#}"
    );
}

#[test]
fn test_leaves_a_cases_agent_hooks_to_it() {
    let s = Setup::new();
    let deny = r#"echo no >&2; exit 2"#;
    write(
        &s.project().join(".claude/settings.json"),
        &claude_settings(deny),
    );
    let suite = r#"config = [".claude/settings.json"]
project_dir = "."

[[case]]
name = "Claude Code runs its own deny hook: hookrun does not"
event = { hook_event_name = "PreToolUse", tool_name = "Bash", tool_input = { command = "ls" } }
expect = { decision = "none" }

[[case]]
name = "Codex does not read Claude Code's file: hookrun runs it"
dialect = "codex"
event = { hook_event_name = "PreToolUse", tool_name = "Bash", tool_input = { command = "ls" } }
expect = { decision = "deny" }
"#;
    write(&s.project().join("once.test.toml"), suite);
    let out = s.run(&["test", "once.test.toml"]);
    assert_eq!(out.code, 0, "{out:?}");
}

#[test]
fn check_warns_about_a_command_both_hookrun_and_the_agent_run() {
    for (agent, rel) in [
        ("claude", ".claude/settings.json"),
        ("codex", ".codex/hooks.json"),
    ] {
        let s = Setup::new().on_path();
        let marker = s.home().join("marker");
        let command = marking(&marker);
        write(&s.project().join(rel), &claude_settings(&command));
        s.ok(&["init"]);
        s.ok(&["install", "--agent", agent, "--scope", "project"]);
        let clean = s.ok(&["check", "--format", "json"]);
        assert!(!clean.stdout.contains("W018"), "{agent}: {clean:?}");
        let toml = std::fs::read_to_string(s.project().join("hookrun.toml")).expect("toml");
        let twice = format!(
            "{toml}\n[[hooks]]\nevent = \"PreToolUse\"\ncommand = {}\n",
            toml_string(&command)
        );
        std::fs::write(s.project().join("hookrun.toml"), twice).expect("write");
        let out = s.run(&["check", "--format", "json"]);
        let report: Value = serde_json::from_str(&out.stdout).expect("json");
        let found: Vec<&Value> = report["findings"]
            .as_array()
            .expect("findings")
            .iter()
            .filter(|f| f["code"] == "W018")
            .collect();
        assert_eq!(found.len(), 1, "{agent}: {out:?}");
        let w = found[0];
        assert!(
            w["file"]
                .as_str()
                .is_some_and(|f| f.ends_with("hookrun.toml")),
            "{w}"
        );
        assert!(w["line"].as_u64().is_some(), "{w}");
        assert_eq!(w["key"], "hooks[3]", "{w}");
        assert!(
            w["message"].as_str().is_some_and(|m| m.contains(rel)),
            "{w}"
        );
    }
}

/// A TOML basic string: JSON's escapes are TOML's for this text.
fn toml_string(s: &str) -> String {
    Value::String(s.to_owned()).to_string()
}

#[test]
fn install_move_hands_the_agents_hooks_to_hookrun_which_runs_them_once() {
    let s = Setup::new().on_path();
    let marker = s.home().join("marker");
    let deny = format!("{}; echo not here >&2; exit 2", marking(&marker));
    let settings = s.project().join(".claude/settings.json");
    let original = json!({"model": "m", "hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": deny}]}]}});
    write(&settings, &original.to_string());
    s.ok(&["init"]);
    let toml_before = std::fs::read_to_string(s.project().join("hookrun.toml")).expect("toml");
    // A dry run writes nothing.
    let dry = s.ok(&[
        "install",
        "--agent",
        "claude",
        "--scope",
        "project",
        "--move",
        "--dry-run",
    ]);
    assert!(dry.stdout.contains("would move"), "{dry:?}");
    assert_eq!(super::json(&settings), original);
    s.ok(&[
        "install", "--agent", "claude", "--scope", "project", "--move",
    ]);
    // The settings file keeps its other keys and only hookrun's registrations.
    let after = super::json(&settings);
    assert_eq!(after["model"], "m");
    let text = after.to_string();
    assert!(!text.contains("not here"), "{after:#}");
    assert!(text.contains("hookrun run --dialect claude"), "{after:#}");
    // Both files were backed up before their first edit.
    let backup = |p: &Path| {
        let mut name = p.file_name().expect("name").to_os_string();
        name.push(".hookrun-backup");
        std::fs::read_to_string(p.with_file_name(name)).expect("backup")
    };
    assert_eq!(
        serde_json::from_str::<Value>(&backup(&settings)).expect("json"),
        original
    );
    assert_eq!(backup(&s.project().join("hookrun.toml")), toml_before);
    // The moved hook still denies, through hookrun, and runs once.
    let command = after["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .expect("command")
        .to_owned();
    let out = as_agent(&s, &command, &bash_event(&s, "ls"));
    assert_eq!(out.code, 2, "{out:?}");
    assert_eq!(out.hso()["permissionDecision"], "deny", "{out:?}");
    assert!(
        out.hso()["permissionDecisionReason"]
            .as_str()
            .is_some_and(|r| r.contains("not here")),
        "{out:?}"
    );
    assert_eq!(runs(&marker), 1, "{out:?}");
}
