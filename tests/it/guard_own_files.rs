//! protect-paths keeps the tool from writing hookrun's own files: its
//! config layers, trust list, audit log and key, and the agent settings
//! that register it. Real `hookrun run` processes over a temporary home
//! and project.

use std::path::PathBuf;
use std::process::Command;

use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_hookrun");

/// A temporary home whose user config runs protect-paths (with `options`)
/// and writes an audit log sealed with a key, and a project with Claude
/// Code settings.
struct World {
    _dir: tempfile::TempDir,
    home: PathBuf,
    project: PathBuf,
    env: Vec<(String, PathBuf)>,
}

impl World {
    fn new(options: &str) -> World {
        let dir = tempfile::tempdir().expect("tempdir");
        let home = dir.path().join("home");
        let project = dir.path().join("project");
        for d in [
            home.join(".config/hookrun"),
            home.join(".claude"),
            home.join("logs"),
            project.join(".claude"),
        ] {
            std::fs::create_dir_all(d).expect("mkdir");
        }
        let config = format!(
            "[defaults]\naudit_log = \"{log}\"\naudit_key_file = \"{key}\"\n\n\
             [[hooks]]\nevent = \"PreToolUse\"\nbuiltin = \"protect-paths\"\n{options}\n",
            log = home.join("logs/audit.jsonl").display(),
            key = home.join("logs/audit.key").display(),
        );
        std::fs::write(home.join(".config/hookrun/hookrun.toml"), config).expect("config");
        std::fs::write(
            home.join("logs/audit.key"),
            "0123456789abcdef0123456789abcdef\n",
        )
        .expect("key");
        let settings = json!({"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [
            {"type": "command", "command": "hookrun run"}]}]}});
        for f in [
            home.join(".claude/settings.json"),
            project.join(".claude/settings.json"),
        ] {
            std::fs::write(f, settings.to_string()).expect("settings");
        }
        World {
            _dir: dir,
            home,
            project,
            env: Vec::new(),
        }
    }

    /// `hookrun run` on a PreToolUse of `tool` with `input`: the decision
    /// and its reason.
    fn run(&self, tool: &str, input: Value) -> (String, String) {
        let ev = json!({"hook_event_name": "PreToolUse", "tool_name": tool,
            "tool_input": input, "cwd": self.project});
        let mut cmd = Command::new(BIN);
        cmd.arg("run")
            .current_dir(&self.project)
            .env("HOME", &self.home)
            .env_remove("XDG_CONFIG_HOME")
            .env_remove("HOOKRUN_CONFIG")
            .env_remove("CLAUDE_CONFIG_DIR")
            .env("CLAUDE_PROJECT_DIR", &self.project)
            .envs(self.env.iter().map(|(k, v)| (k, v)));
        let out = crate::support::output_with_stdin(&mut cmd, ev.to_string().as_bytes());
        let stdout = String::from_utf8_lossy(&out.stdout);
        let v: Value = serde_json::from_str(&stdout).unwrap_or(Value::Null);
        let hso = &v["hookSpecificOutput"];
        (
            hso["permissionDecision"]
                .as_str()
                .unwrap_or("allow")
                .to_owned(),
            hso["permissionDecisionReason"]
                .as_str()
                .unwrap_or_default()
                .to_owned(),
        )
    }

    fn path(&self, rel: &str) -> String {
        if let Some(rest) = rel.strip_prefix("~/") {
            self.home.join(rest).display().to_string()
        } else {
            self.project.join(rel).display().to_string()
        }
    }
}

fn assert_denied(got: &(String, String), wants: &str, case: &str) {
    assert_eq!(got.0, "deny", "{case}: {got:?}");
    assert!(got.1.contains("hookrun's own file"), "{case}: {got:?}");
    assert!(got.1.contains(wants), "{case}: wants `{wants}` in {got:?}");
}

#[test]
fn file_tools_cannot_write_hookruns_own_files() {
    let w = World::new("");
    let cases = [
        ("Write", "~/.config/hookrun/trusted.toml", "hookrun trust"),
        (
            "Write",
            "~/.config/hookrun/hookrun.toml",
            "outside the agent",
        ),
        (
            "Edit",
            ".claude/settings.json",
            "hookrun install --uninstall",
        ),
        ("MultiEdit", ".claude/settings.local.json", "agent settings"),
        ("Write", "~/.claude/settings.json", "agent settings"),
        ("Write", ".codex/hooks.json", "agent settings"),
        ("Write", "~/.gemini/settings.json", "agent settings"),
        ("Write", ".cursor/hooks.json", "agent settings"),
        ("Write", ".github/hooks/hookrun.json", "agent settings"),
        // Every file an agent reads hooks from, not only those `install` writes.
        ("Write", ".github/hooks/mine.json", "agent settings"),
        ("Write", "~/.copilot/hooks/mine.json", "agent settings"),
        ("Write", ".codex/config.toml", "agent settings"),
        ("Write", "~/.cursor/hooks.json", "agent settings"),
        ("Write", "~/logs/audit.jsonl", "audit log"),
        ("Write", "~/logs/audit.key", "audit key"),
    ];
    for (tool, rel, wants) in cases {
        let got = w.run(tool, json!({"file_path": w.path(rel), "content": "x"}));
        assert_denied(&got, wants, rel);
    }
    // As written by the model: relative to cwd, `~`, `..`.
    let got = w.run(
        "Write",
        json!({"file_path": ".claude/../.claude/settings.json"}),
    );
    assert_denied(&got, "agent settings", "dotdot");
    let got = w.run(
        "Write",
        json!({"file_path": "~/.config/hookrun/trusted.toml"}),
    );
    assert_denied(&got, "hookrun trust", "tilde");
    // Gemini's and Codex's write tools are the same family.
    let got = w.run(
        "write_file",
        json!({"file_path": w.path(".gemini/settings.json")}),
    );
    assert_denied(&got, "agent settings", "write_file");
}

#[test]
fn shell_commands_cannot_write_hookruns_own_files() {
    let w = World::new("");
    let cases = [
        ("echo x > ~/.config/hookrun/trusted.toml", "hookrun trust"),
        ("sed -i s/run/nop/ .claude/settings.json", "agent settings"),
        ("rm $HOME/.config/hookrun/hookrun.toml", "hookrun's config"),
        ("mv /tmp/x ~/.claude/settings.json", "agent settings"),
        ("cp /tmp/x .claude/settings.local.json", "agent settings"),
        ("echo '{}' | tee .claude/settings.json", "agent settings"),
        ("rm -rf .claude", "holds"),
        ("rm -r ~/.config/hookrun", "holds"),
        ("cat ~/logs/audit.key", "audit key"),
        (": > ~/logs/audit.jsonl", "audit log"),
    ];
    for (command, wants) in cases {
        let got = w.run("Bash", json!({"command": command}));
        assert_denied(&got, wants, command);
    }
}

#[test]
fn r_code_cannot_write_hookruns_own_files() {
    let w = World::new("");
    let code = format!(
        "writeLines('[]', '{}')",
        w.path("~/.config/hookrun/trusted.toml")
    );
    let got = w.run("run_r_code", json!({"code": code}));
    assert_denied(&got, "hookrun trust", "R writeLines");
    let got = w.run(
        "run_r_code",
        json!({"code": "unlink('.claude', recursive = TRUE)"}),
    );
    assert_denied(&got, "agent settings", "R unlink");
    let got = w.run(
        "run_r_code",
        json!({"code": "x <- readLines('.claude/settings.json')"}),
    );
    assert_eq!(got.0, "allow", "R read: {got:?}");
}

#[test]
fn a_link_to_an_own_file_is_judged_where_it_leads() {
    let w = World::new("");
    let link = w.project.join("innocent.json");
    std::os::unix::fs::symlink(w.project.join(".claude/settings.json"), &link).expect("link");
    let got = w.run("Write", json!({"file_path": link}));
    assert_denied(&got, "agent settings", "symlink");
    let got = w.run("Bash", json!({"command": "echo {} > innocent.json"}));
    assert_denied(&got, "agent settings", "symlink in shell");
}

#[test]
fn neighbours_and_reads_stay_allowed() {
    let w = World::new("");
    for rel in [
        ".claude/other.json",
        ".claude/agents/reviewer.md",
        "src/main.rs",
    ] {
        let got = w.run("Write", json!({"file_path": w.path(rel), "content": "x"}));
        assert_eq!(got.0, "allow", "{rel}: {got:?}");
    }
    for rel in [
        ".claude/settings.json",
        "~/.config/hookrun/hookrun.toml",
        "~/.config/hookrun/trusted.toml",
        "~/logs/audit.jsonl",
    ] {
        let got = w.run("Read", json!({"file_path": w.path(rel)}));
        assert_eq!(got.0, "allow", "read {rel}: {got:?}");
    }
    for command in [
        "cat .claude/settings.json",
        "echo x > .claude/other.json",
        "cp .claude/settings.json /tmp/copy.json",
        "rm -rf build",
    ] {
        let got = w.run("Bash", json!({"command": command}));
        assert_eq!(got.0, "allow", "{command}: {got:?}");
    }
}

#[test]
fn own_files_false_turns_it_off() {
    let w = World::new("options = { own_files = false }");
    let got = w.run(
        "Edit",
        json!({"file_path": w.path(".claude/settings.json")}),
    );
    assert_eq!(got.0, "allow", "{got:?}");
    // The rest of protect-paths still holds.
    let got = w.run("Write", json!({"file_path": w.path(".env")}));
    assert_eq!(got.0, "deny", "{got:?}");
}

#[test]
fn the_project_config_and_hookrun_config_files_are_protected() {
    let mut w = World::new("");
    std::fs::write(w.project.join("hookrun.toml"), "").expect("project config");
    let named = w.home.join("extra.toml");
    std::fs::write(&named, "").expect("named");
    w.env.push(("HOOKRUN_CONFIG".into(), named.clone()));
    let got = w.run("Write", json!({"file_path": w.path("hookrun.toml")}));
    assert_denied(&got, "hookrun's config", "project hookrun.toml");
    let got = w.run(
        "Bash",
        json!({"command": format!("echo > {}", named.display())}),
    );
    assert_denied(&got, "hookrun's config", "$HOOKRUN_CONFIG file");
    // Another TOML file in the project is no config of hookrun's.
    let got = w.run("Write", json!({"file_path": w.path("Cargo.toml")}));
    assert_eq!(got.0, "allow", "{got:?}");
}
