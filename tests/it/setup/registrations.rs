//! What `install` writes keeps working: at project scope no path of this
//! machine's (the config named from the project directory the agent gives
//! its hooks; a path only this machine has refused, with the local or
//! user file offered); Copilot CLI, whose payloads name no event, gets one
//! registration per event with its own `--event`; Claude Code and Cursor
//! are asked to block when hookrun itself cannot answer. Every registered
//! command is run as the agent runs it: `sh -c`, the agent's payload on
//! stdin, the agent's project variable set.

use std::path::Path;

use serde_json::{Value, json};

use super::{Setup, bytes, json};
use crate::support::Out;

/// Each agent: name, project file, pre-tool event, the variable naming
/// the project directory (if the agent sets one), whether handlers nest
/// in matcher groups, and the handler's command key.
type AgentRow = (
    &'static str,
    &'static str,
    &'static str,
    Option<&'static str>,
    bool,
    &'static str,
);

const AGENTS: &[AgentRow] = &[
    (
        "claude",
        ".claude/settings.json",
        "PreToolUse",
        Some("CLAUDE_PROJECT_DIR"),
        true,
        "command",
    ),
    (
        "codex",
        ".codex/hooks.json",
        "PreToolUse",
        None,
        true,
        "command",
    ),
    (
        "gemini",
        ".gemini/settings.json",
        "BeforeTool",
        Some("GEMINI_PROJECT_DIR"),
        true,
        "command",
    ),
    (
        "cursor",
        ".cursor/hooks.json",
        "preToolUse",
        None,
        false,
        "command",
    ),
    (
        "copilot",
        ".github/hooks/hookrun.json",
        "preToolUse",
        None,
        false,
        "bash",
    ),
];

/// hookrun's handlers on an event of the agent's file.
fn handlers(root: &Value, event: &str, nested: bool) -> Vec<Value> {
    let list = root["hooks"][event].as_array().cloned().unwrap_or_default();
    if nested {
        list.iter()
            .filter_map(|g| g["hooks"].as_array())
            .flatten()
            .cloned()
            .collect()
    } else {
        list
    }
}

/// A shell-tool call in the agent's own payload shape.
fn shell_call(agent: &str, project: &Path, command: &str) -> Value {
    match agent {
        "claude" | "codex" => json!({
            "session_id": "s1", "transcript_path": "", "cwd": project,
            "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": command},
        }),
        "gemini" => json!({
            "session_id": "s1", "transcript_path": "", "cwd": project,
            "hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
            "tool_input": {"command": command},
        }),
        "cursor" => json!({
            "conversation_id": "c1", "generation_id": "g1", "hook_event_name": "preToolUse",
            "workspace_roots": [project], "tool_name": "Shell",
            "tool_input": {"command": command},
        }),
        _ => json!({
            "sessionId": "s1", "timestamp": 1, "cwd": project, "toolName": "bash",
            "toolArgs": json!({"command": command}).to_string(),
        }),
    }
}

/// Runs a registered command as the agent does: `sh -c`, in `cwd`, with
/// the agent's project variable (if any) naming the project.
fn run_as(s: &Setup, var: Option<&str>, cwd: &Path, command: &str, payload: &Value) -> Out {
    let mut cmd = s.command("sh");
    cmd.arg("-c").arg(command).current_dir(cwd);
    if let Some(var) = var {
        cmd.env(var, s.project());
    }
    s.pipe(cmd, payload.to_string().as_bytes())
}

/// Whether the agent reads this answer as a deny.
fn denies(agent: &str, out: &Out) -> bool {
    let answer: Value = serde_json::from_str(&out.stdout).unwrap_or(Value::Null);
    match agent {
        // Gemini reads the JSON on exit 0.
        "gemini" => out.code == 0 && answer["decision"] == "deny",
        "cursor" => out.code == 2 && answer["permission"] == "deny",
        // Codex reads only stderr on exit 2.
        "codex" => out.code == 2 && !out.stderr.trim().is_empty(),
        "claude" => out.code == 2 && answer["hookSpecificOutput"]["permissionDecision"] == "deny",
        _ => out.code == 2 && answer["permissionDecision"] == "deny",
    }
}

#[test]
fn a_project_config_is_named_from_the_project_dir_and_blocks_rm_rf_for_every_agent() {
    for &(agent, file, pre, var, nested, key) in AGENTS {
        let s = Setup::new().on_path();
        s.ok(&["init", "policies"]);
        s.ok(&[
            "install",
            "--agent",
            agent,
            "--scope",
            "project",
            "--config",
            "policies/hookrun.toml",
        ]);
        let text =
            String::from_utf8(bytes(&s.project().join(file)).expect("written")).expect("utf-8");
        let project = std::fs::canonicalize(s.project()).expect("project");
        for machine in [
            project.display().to_string(),
            s.home().display().to_string(),
            "/tmp/".to_owned(),
        ] {
            assert!(
                !text.contains(&machine),
                "{agent}: a path of this machine in {text}"
            );
        }
        let command = handlers(&json(&s.project().join(file)), pre, nested)
            .first()
            .and_then(|h| h[key].as_str().map(str::to_owned))
            .unwrap_or_else(|| panic!("{agent}: no handler on {pre}: {text}"));
        assert!(
            command.contains("policies/hookrun.toml"),
            "{agent}: {command}"
        );

        // Where the agent names the project, the command works from any
        // directory; the others run hooks in the project.
        let cwd = if var.is_some() {
            s.home().to_owned()
        } else {
            s.project().to_owned()
        };
        let denied = run_as(
            &s,
            var,
            &cwd,
            &command,
            &shell_call(agent, s.project(), "rm -rf /"),
        );
        assert!(
            denies(agent, &denied),
            "{agent}: `{command}` did not deny: {denied:?}"
        );
        let allowed = run_as(
            &s,
            var,
            &cwd,
            &command,
            &shell_call(agent, s.project(), "ls"),
        );
        assert_eq!(allowed.code, 0, "{agent}: `{command}`: {allowed:?}");
        assert!(!denies(agent, &allowed), "{agent}: {allowed:?}");
    }
}

#[test]
fn a_path_of_this_machine_at_project_scope_is_refused_and_the_local_file_offered() {
    for &(agent, file, ..) in AGENTS {
        let s = Setup::new().on_path();
        s.ok(&["init"]);
        let elsewhere = s.home().join("policies");
        s.ok(&["init", &elsewhere.display().to_string()]);
        let outside = elsewhere.join("hookrun.toml").display().to_string();
        let out = s.run(&[
            "install", "--agent", agent, "--scope", "project", "--config", &outside,
        ]);
        assert_ne!(out.code, 0, "{agent}: {out:?}");
        assert!(
            out.stderr.contains("outside the project"),
            "{agent}: {out:?}"
        );
        assert!(out.stderr.contains("--scope user"), "{agent}: {out:?}");
        assert!(!s.project().join(file).exists(), "{agent}: written anyway");

        // Not on PATH: the command would name this binary's path.
        let bare = Setup::new();
        bare.ok(&["init"]);
        let out = bare.run(&["install", "--agent", agent, "--scope", "project"]);
        assert_ne!(out.code, 0, "{agent}: {out:?}");
        assert!(
            out.stderr.contains("a path on this machine only"),
            "{agent}: {out:?}"
        );
        assert!(
            !bare.project().join(file).exists(),
            "{agent}: written anyway"
        );

        let local = bare.run(&["install", "--agent", agent, "--scope", "local"]);
        if agent == "claude" {
            assert!(out.stderr.contains("--scope local"), "{out:?}");
            assert_eq!(local.code, 0, "{local:?}");
        } else {
            assert_ne!(local.code, 0, "{agent}: {local:?}");
            assert!(
                local.stderr.contains("no local settings file"),
                "{agent}: {local:?}"
            );
            assert!(local.stderr.contains("--scope user"), "{agent}: {local:?}");
        }
    }
}

#[test]
fn the_local_file_takes_this_machines_paths_and_its_command_blocks_rm_rf() {
    let s = Setup::new();
    s.ok(&["init"]);
    let elsewhere = s.home().join("policies");
    s.ok(&["init", &elsewhere.display().to_string()]);
    let config = elsewhere.join("hookrun.toml").display().to_string();
    s.ok(&[
        "install", "--agent", "claude", "--scope", "local", "--config", &config,
    ]);
    assert!(!s.project().join(".claude/settings.json").exists());
    let local = json(&s.project().join(".claude/settings.local.json"));
    let command = local["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .expect("a command")
        .to_owned();
    let config = std::fs::canonicalize(&config).expect("config");
    assert!(
        command.ends_with(&format!("--config {}", config.display())),
        "{command}"
    );
    let denied = run_as(
        &s,
        Some("CLAUDE_PROJECT_DIR"),
        s.project(),
        &command,
        &shell_call("claude", s.project(), "rm -rf /"),
    );
    assert!(denies("claude", &denied), "{denied:?}");
    s.ok(&[
        "install",
        "--agent",
        "claude",
        "--scope",
        "local",
        "--uninstall",
    ]);
    assert!(!s.project().join(".claude/settings.local.json").exists());
}

/// The reference's camelCase payload of every Copilot CLI event hookrun
/// registers for, with `{project}` for the working directory.
fn copilot_payloads(project: &Path) -> Vec<Value> {
    let text =
        include_str!("copilot-payloads.json").replace("{project}", &project.display().to_string());
    serde_json::from_str(&text).expect("copilot-payloads.json")
}

#[test]
fn copilot_gets_one_registration_per_event_and_every_event_reaches_its_hooks() {
    let s = Setup::new().on_path();
    let cases = copilot_payloads(s.project());
    let mut models: Vec<&str> = cases.iter().filter_map(|c| c["model"].as_str()).collect();
    models.dedup();
    // The starter's guards, and a hook on each event that logs the event
    // it was run for.
    s.ok(&["init"]);
    let mut config = std::fs::read_to_string(s.project().join("hookrun.toml")).expect("starter");
    for model in &models {
        config.push_str(&format!(
            "\n[[hooks]]\nevent = \"{model}\"\ncommand = \"echo {model} >> ${{HOOKRUN_CONFIG_DIR}}/events.log\"\n"
        ));
    }
    std::fs::write(s.project().join("hookrun.toml"), config).expect("write config");
    s.ok(&[
        "install",
        "--agent",
        "copilot",
        "--scope",
        "project",
        "--config",
        "hookrun.toml",
    ]);
    let root = json(&s.project().join(".github/hooks/hookrun.json"));
    let log = s.project().join("events.log");
    for case in &cases {
        let event = case["event"].as_str().expect("event");
        let model = case["model"].as_str().expect("model");
        let registered = handlers(&root, event, false);
        assert_eq!(registered.len(), 1, "{event}: {root}");
        let command = registered[0]["bash"].as_str().expect("bash");
        assert!(command.contains(&format!("--event {event}")), "{command}");
        let _ = std::fs::remove_file(&log);
        let out = run_as(&s, None, s.project(), command, &case["payload"]);
        if case["denied"] == true {
            assert!(denies("copilot", &out), "{event}: {out:?}");
        } else {
            assert_eq!(out.code, 0, "{event}: `{command}`: {out:?}");
            assert!(!out.stdout.contains("\"deny\""), "{event}: {out:?}");
        }
        let seen = std::fs::read_to_string(&log).unwrap_or_default();
        assert_eq!(
            seen,
            format!("{model}\n"),
            "{event}: the hooks run: {out:?}"
        );
    }
    // A registration an older install wrote (no --event) is still found,
    // and replaced in place.
    let old = json!({"version": 1, "hooks": {"preToolUse": [
        {"type": "command", "bash": "hookrun run --dialect copilot --config hookrun.toml", "timeoutSec": 15}
    ]}});
    std::fs::write(
        s.project().join(".github/hooks/hookrun.json"),
        old.to_string(),
    )
    .expect("write");
    s.ok(&[
        "install",
        "--agent",
        "copilot",
        "--scope",
        "project",
        "--config",
        "hookrun.toml",
    ]);
    let root = json(&s.project().join(".github/hooks/hookrun.json"));
    let pre = handlers(&root, "preToolUse", false);
    assert_eq!(pre.len(), 1, "{root}");
    assert!(
        pre[0]["bash"]
            .as_str()
            .is_some_and(|c| c.contains("--event preToolUse")),
        "{root}"
    );
    s.ok(&[
        "install",
        "--agent",
        "copilot",
        "--scope",
        "project",
        "--uninstall",
    ]);
    let left = bytes(&s.project().join(".github/hooks/hookrun.json"));
    assert!(
        left.as_deref()
            .is_none_or(|b| !String::from_utf8_lossy(b).contains("hookrun run")),
        "{left:?}"
    );
}

/// A config with a hook on PreToolUse, PostToolUse, Stop and SessionStart.
fn four_events(s: &Setup) {
    std::fs::write(
        s.project().join("hookrun.toml"),
        "[[hooks]]\nevent = \"PreToolUse\"\nbuiltin = \"dangerous-commands\"\n\n\
         [[hooks]]\nevent = [\"PostToolUse\", \"Stop\", \"SessionStart\"]\ncommand = \"true\"\n",
    )
    .expect("write config");
}

#[test]
fn claude_and_cursor_are_asked_to_block_when_hookrun_cannot_answer() {
    // (agent, file, event names for PreToolUse, PostToolUse, Stop,
    // SessionStart, the key, its value, on which of those events)
    let cases = [
        (
            "claude",
            ".claude/settings.json",
            ["PreToolUse", "PostToolUse", "Stop", "SessionStart"],
            "onFailure",
            json!("block"),
            [true, true, false, false],
        ),
        (
            "cursor",
            ".cursor/hooks.json",
            ["preToolUse", "postToolUse", "stop", "sessionStart"],
            "failClosed",
            json!(true),
            [true, false, false, false],
        ),
    ];
    for (agent, file, events, key, value, on) in cases {
        let s = Setup::new().on_path();
        four_events(&s);
        let install = ["install", "--agent", agent, "--scope", "project"];
        s.ok(&install);
        let nested = agent == "claude";
        let check = |root: &Value, blocking: bool| {
            for (event, want) in events.iter().zip(on) {
                let h = handlers(root, event, nested);
                assert_eq!(h.len(), 1, "{agent} {event}: {root}");
                let want = (blocking && want).then(|| value.clone());
                assert_eq!(h[0].get(key).cloned(), want, "{agent} {event}: {root}");
                let allows = h[0]["command"]
                    .as_str()
                    .is_some_and(|c| c.ends_with(" --on-error allow"));
                assert_eq!(allows, !blocking, "{agent} {event}: {root}");
            }
        };
        check(&json(&s.project().join(file)), true);

        // Opting out takes the key off in place, and hookrun lets its own
        // errors through as well; opting back in puts it back.
        s.ok(&[&install[..], &["--on-error", "allow"]].concat());
        check(&json(&s.project().join(file)), false);
        let again = s.ok(&[&install[..], &["--on-error", "allow"]].concat());
        assert!(again.stdout.contains("nothing changed"), "{again:?}");
        s.ok(&install);
        check(&json(&s.project().join(file)), true);
    }
    // The agents without such a switch get no key of it.
    for (agent, file) in [
        ("codex", ".codex/hooks.json"),
        ("gemini", ".gemini/settings.json"),
        ("copilot", ".github/hooks/hookrun.json"),
    ] {
        let s = Setup::new().on_path();
        four_events(&s);
        s.ok(&["install", "--agent", agent, "--scope", "project"]);
        let text =
            String::from_utf8(bytes(&s.project().join(file)).expect("written")).expect("utf-8");
        assert!(
            !text.contains("onFailure") && !text.contains("failClosed"),
            "{agent}: {text}"
        );
    }
}

#[test]
fn with_on_error_allow_a_broken_config_lets_the_call_through_and_without_it_blocks() {
    let s = Setup::new().on_path();
    four_events(&s);
    s.ok(&[
        "install",
        "--agent",
        "claude",
        "--scope",
        "project",
        "--config",
        "hookrun.toml",
    ]);
    let command_of = |s: &Setup| {
        json(&s.project().join(".claude/settings.json"))["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
            .as_str()
            .expect("command")
            .to_owned()
    };
    let blocking = command_of(&s);
    s.ok(&[
        "install",
        "--agent",
        "claude",
        "--scope",
        "project",
        "--config",
        "hookrun.toml",
        "--on-error",
        "allow",
    ]);
    let allowing = command_of(&s);
    std::fs::write(s.project().join("hookrun.toml"), "[[hooks]\nbroken").expect("break it");
    let ls = shell_call("claude", s.project(), "ls");
    let blocked = run_as(&s, Some("CLAUDE_PROJECT_DIR"), s.project(), &blocking, &ls);
    assert_eq!(blocked.code, 2, "{blocked:?}");
    let through = run_as(&s, Some("CLAUDE_PROJECT_DIR"), s.project(), &allowing, &ls);
    // hookrun's own error, exit 1: Claude Code's non-blocking error, the
    // call goes ahead.
    assert_eq!(through.code, 1, "{through:?}");
    assert!(through.stdout.is_empty(), "{through:?}");
}

#[test]
fn a_project_dir_with_spaces_stays_one_word_as_claude_and_gemini_fill_it_in() {
    let s = Setup::new().on_path();
    let project = s.project().join("my app");
    std::fs::create_dir_all(&project).expect("mkdir");
    let in_project = |args: &[&str]| {
        let mut cmd = s.command(crate::support::BIN);
        cmd.args(args).current_dir(&project);
        let out = crate::support::finish(cmd.spawn().expect("spawn"), std::time::Instant::now());
        assert_eq!(out.code, 0, "{args:?}: {out:?}");
    };
    in_project(&["init"]);
    for (agent, file, event) in [
        ("claude", ".claude/settings.json", "PreToolUse"),
        ("gemini", ".gemini/settings.json", "BeforeTool"),
    ] {
        in_project(&[
            "install",
            "--agent",
            agent,
            "--scope",
            "project",
            "--config",
            "hookrun.toml",
        ]);
        let root = json(&project.join(file));
        let command = handlers(&root, event, true)[0]["command"]
            .as_str()
            .expect("command")
            .to_owned();
        // Claude Code exports the variable; Gemini CLI puts the directory,
        // shell-quoted, into the command text (and exports it too).
        let (command, var) = if agent == "gemini" {
            let quoted = format!("'{}'", project.display());
            (
                command.replace("$GEMINI_PROJECT_DIR", &quoted),
                "GEMINI_PROJECT_DIR",
            )
        } else {
            (command, "CLAUDE_PROJECT_DIR")
        };
        let mut cmd = s.command("sh");
        cmd.arg("-c")
            .arg(&command)
            .current_dir(s.home())
            .env(var, &project);
        let denied = s.pipe(
            cmd,
            shell_call(agent, &project, "rm -rf /")
                .to_string()
                .as_bytes(),
        );
        assert!(denies(agent, &denied), "{agent}: `{command}`: {denied:?}");
    }
}
