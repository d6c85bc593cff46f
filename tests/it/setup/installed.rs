//! `check` reads the agents' settings to see what the installed setup
//! does with a config: a hook on an event that no registration reading
//! its file receives never runs (W019), and a matcher naming one agent's
//! shell tool never matches in another agent registered to read the file
//! (W020). Each test installs with the real binary in a temporary HOME
//! and project, then runs `check --format json` there.

use serde_json::Value;

use super::Setup;

const PRE_TOOL: &str = r#"[[hooks]]
event = "PreToolUse"
matcher = "@shell"
builtin = "dangerous-commands"
"#;

const STOP: &str = r#"
[[hooks]]
event = "Stop"
command = "true"
"#;

fn write_config(s: &Setup, text: &str) {
    std::fs::write(s.project().join("hookrun.toml"), text).expect("write hookrun.toml");
    s.ok(&["trust", "hookrun.toml"]);
}

/// The findings of `check --format json` with this code.
fn findings(s: &Setup, code: &str) -> Vec<Value> {
    let out = s.run(&["check", "--format", "json"]);
    let v = out.json();
    v["findings"]
        .as_array()
        .unwrap_or_else(|| panic!("no findings array: {out:?}"))
        .iter()
        .filter(|f| f["code"] == code)
        .cloned()
        .collect()
}

#[test]
fn a_hook_on_an_event_no_agent_registers_is_reported_for_every_agent() {
    for agent in ["claude", "codex", "gemini", "cursor", "copilot"] {
        let s = Setup::new().on_path();
        write_config(&s, PRE_TOOL);
        // Not installed yet: nothing is inert, `install` registers it all.
        assert!(findings(&s, "W019").is_empty(), "{agent}");
        s.ok(&["install", "--agent", agent, "--scope", "project"]);
        write_config(&s, &format!("{PRE_TOOL}{STOP}"));
        let found = findings(&s, "W019");
        assert_eq!(found.len(), 1, "{agent}: {found:?}");
        let f = &found[0];
        assert_eq!(f["key"], "hooks[1]", "{agent}: {f}");
        assert!(
            f["message"].as_str().unwrap_or("").contains("`Stop`"),
            "{agent}: {f}"
        );
        let fix = format!("hookrun install --agent {agent} --scope project");
        assert!(
            f["fix"].as_str().unwrap_or("").contains(&fix),
            "{agent}: {f}"
        );
        // Installing again registers the new event: nothing to report.
        s.ok(&["install", "--agent", agent, "--scope", "project"]);
        assert!(findings(&s, "W019").is_empty(), "{agent}");
    }
}

#[test]
fn a_registration_reads_only_the_config_it_names() {
    let s = Setup::new().on_path();
    std::fs::create_dir_all(s.project().join("ci")).expect("mkdir");
    std::fs::write(s.project().join("ci/h.toml"), PRE_TOOL).expect("write");
    s.ok(&[
        "install",
        "--agent",
        "codex",
        "--scope",
        "project",
        "--config",
        "ci/h.toml",
    ]);
    std::fs::write(s.project().join("ci/h.toml"), format!("{PRE_TOOL}{STOP}")).expect("write");
    // The project's hookrun.toml is read by no registration: not reported.
    write_config(&s, &format!("{PRE_TOOL}{STOP}"));
    let out = s.run(&["check", "--format", "json", "hookrun.toml", "ci/h.toml"]);
    let v = out.json();
    let w019: Vec<&Value> = v["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["code"] == "W019")
        .collect();
    assert_eq!(w019.len(), 1, "{out:?}");
    assert!(
        w019[0]["file"]
            .as_str()
            .unwrap_or("")
            .ends_with("ci/h.toml"),
        "{out:?}"
    );
    assert!(
        w019[0]["fix"]
            .as_str()
            .unwrap_or("")
            .contains("hookrun install --agent codex --scope project --config ci/h.toml"),
        "{out:?}"
    );
}

const BASH: &str = r#"[[hooks]]
event = "PreToolUse"
matcher = "Bash"
builtin = "dangerous-commands"
"#;

#[test]
fn a_matcher_naming_one_agents_shell_tool_is_reported_where_another_reads_it() {
    // Claude Code alone: `Bash` is its shell tool's name.
    let s = Setup::new().on_path();
    write_config(&s, BASH);
    assert!(findings(&s, "W020").is_empty(), "not installed");
    s.ok(&["install", "--agent", "claude", "--scope", "project"]);
    assert!(findings(&s, "W020").is_empty(), "claude only");
    // Gemini CLI reads it too, and calls its shell tool run_shell_command.
    s.ok(&["install", "--agent", "gemini", "--scope", "project"]);
    let found = findings(&s, "W020");
    assert_eq!(found.len(), 1, "{found:?}");
    let message = found[0]["message"].as_str().unwrap_or("");
    assert!(
        message.contains("Gemini CLI calls it `run_shell_command`"),
        "{message}"
    );
    assert!(!message.contains("Claude Code"), "{message}");
    assert!(
        found[0]["fix"].as_str().unwrap_or("").contains("`@shell`"),
        "{found:?}"
    );
    write_config(&s, PRE_TOOL);
    assert!(findings(&s, "W020").is_empty(), "@shell matches both");
}

#[test]
fn cursor_and_copilot_name_their_shell_tools_otherwise() {
    for (agent, name, tool) in [
        ("cursor", "Cursor", "`Shell`"),
        ("copilot", "Copilot CLI", "`bash`"),
    ] {
        let s = Setup::new().on_path();
        write_config(&s, BASH);
        s.ok(&["install", "--agent", agent, "--scope", "project"]);
        let found = findings(&s, "W020");
        assert_eq!(found.len(), 1, "{agent}: {found:?}");
        let message = found[0]["message"].as_str().unwrap_or("");
        assert!(
            message.contains(&format!("{name} calls it {tool}")),
            "{agent}: {message}"
        );
    }
}

#[test]
fn a_matcher_in_an_agents_own_settings_is_that_agents_name() {
    let s = Setup::new().on_path();
    write_config(&s, BASH);
    s.ok(&["install", "--agent", "claude", "--scope", "project"]);
    s.ok(&["install", "--agent", "gemini", "--scope", "project"]);
    // A Bash hook of Claude Code's own, beside hookrun's registration.
    let path = s.project().join(".claude/settings.json");
    let mut settings = super::json(&path);
    settings["hooks"]["PreToolUse"]
        .as_array_mut()
        .expect("PreToolUse groups")
        .push(serde_json::json!({
            "matcher": "Bash",
            "hooks": [{"type": "command", "command": "true"}],
        }));
    std::fs::write(&path, settings.to_string()).expect("write settings");
    let out = s.run(&[
        "check",
        "--format",
        "json",
        "hookrun.toml",
        ".claude/settings.json",
    ]);
    assert_eq!(out.json()["files"], 2, "{out:?}");
    let w020: Vec<String> = out.json()["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["code"] == "W020")
        .map(|f| f["file"].as_str().unwrap_or("").to_owned())
        .collect();
    // The same matcher in hookrun's config, which Gemini CLI reads, is
    // reported; Claude Code's own is not.
    assert_eq!(w020, ["hookrun.toml"], "{out:?}");
}

#[test]
fn at_user_scope_an_event_the_agent_lacks_is_said_with_no_install_to_run() {
    let s = Setup::new().on_path();
    let dir = s.user_config_dir();
    std::fs::create_dir_all(&dir).expect("mkdir");
    let config = dir.join("hookrun.toml");
    std::fs::write(&config, PRE_TOOL).expect("write");
    s.ok(&["install", "--agent", "codex"]);
    let notification = "\n[[hooks]]\nevent = \"Notification\"\ncommand = \"true\"\n";
    std::fs::write(&config, format!("{PRE_TOOL}{STOP}{notification}")).expect("write");
    let found = findings(&s, "W019");
    assert_eq!(found.len(), 2, "{found:?}");
    // Codex has Stop: installing again registers it, at user scope.
    assert!(
        found[0]["fix"]
            .as_str()
            .unwrap_or("")
            .contains("`hookrun install --agent codex`"),
        "{found:?}"
    );
    // Codex has no Notification: no install can register it.
    let fix = found[1]["fix"].as_str().unwrap_or("");
    assert!(fix.contains("Codex has no `Notification`"), "{fix}");
    assert!(!fix.contains("hookrun install"), "{fix}");
}
