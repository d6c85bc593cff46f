//! `hookrun install` for each of the five agents: the file written has the
//! agent's shape, event names and timeout unit; a second install changes
//! nothing; an existing file is backed up first; `--uninstall` restores it
//! byte for byte, or removes the file when install created it.

use std::path::PathBuf;

use serde_json::Value;

use super::{Setup, bytes, json};

struct Agent {
    name: &'static str,
    /// The user's file, relative to HOME, and the project's.
    user_file: &'static str,
    project_file: &'static str,
    pre: &'static str,
    post: &'static str,
    /// Handlers nested in matcher groups (Claude Code, Codex, Gemini).
    nested: bool,
    command_key: &'static str,
    timeout_key: &'static str,
    /// The timeout the starter config's events get, in the agent's unit.
    timeout: u64,
}

/// Each agent: name, user file, project file, pre- and post-tool event,
/// command key, timeout key; whether handlers nest in groups; the timeout
/// the starter config's events get, in the agent's unit.
fn agents() -> Vec<Agent> {
    [
        ("claude .claude/settings.json .claude/settings.json PreToolUse PostToolUse command timeout", true, 15),
        ("codex .codex/hooks.json .codex/hooks.json PreToolUse PostToolUse command timeout", true, 15),
        ("gemini .gemini/settings.json .gemini/settings.json BeforeTool AfterTool command timeout", true, 15_000),
        ("cursor .cursor/hooks.json .cursor/hooks.json preToolUse postToolUse command timeout", false, 15),
        ("copilot .copilot/hooks/hookrun.json .github/hooks/hookrun.json preToolUse postToolUse bash timeoutSec", false, 15),
    ]
    .into_iter()
    .map(|(row, nested, timeout)| {
        let f: Vec<&'static str> = row.split(' ').collect();
        Agent {
            name: f[0],
            user_file: f[1],
            project_file: f[2],
            pre: f[3],
            post: f[4],
            nested,
            command_key: f[5],
            timeout_key: f[6],
            timeout,
        }
    })
    .collect()
}

/// hookrun's handler on an event: the last one listed.
fn handler<'a>(a: &Agent, root: &'a Value, event: &str) -> &'a Value {
    let list = root["hooks"][event]
        .as_array()
        .unwrap_or_else(|| panic!("{}: no `hooks.{event}` in {root}", a.name));
    let last = list.last().expect("a handler");
    if a.nested {
        assert!(last.get("matcher").is_none(), "{last}");
        &last["hooks"][0]
    } else {
        last
    }
}

fn assert_shape(a: &Agent, root: &Value) {
    for event in [a.pre, a.post] {
        let h = handler(a, root, event);
        let command = h[a.command_key].as_str().unwrap_or_default();
        let want = if a.name == "copilot" {
            format!("hookrun run --dialect copilot --event {event}")
        } else {
            format!("hookrun run --dialect {}", a.name)
        };
        assert_eq!(command, want, "{}: {h}", a.name);
        assert_eq!(h[a.timeout_key], a.timeout, "{}: {h}", a.name);
    }
    if !a.nested {
        assert_eq!(root["version"], 1, "{}: {root}", a.name);
    }
}

fn setup(scope: &str) -> (Setup, PathBuf) {
    let s = Setup::new().on_path();
    if scope == "user" {
        s.ok(&["init", &s.user_config_dir().display().to_string()]);
    } else {
        s.ok(&["init"]);
    }
    let dir = if scope == "user" {
        s.home().to_owned()
    } else {
        s.project().to_owned()
    };
    (s, dir)
}

#[test]
fn a_new_file_is_written_in_each_agents_shape_and_removed_on_uninstall() {
    for scope in ["project", "user"] {
        for a in &agents() {
            let (s, dir) = setup(scope);
            let file = dir.join(if scope == "user" {
                a.user_file
            } else {
                a.project_file
            });
            let args = ["install", "--agent", a.name, "--scope", scope];
            s.ok(&args);
            assert_shape(a, &json(&file));
            let first = bytes(&file);
            let again = s.ok(&args);
            assert!(again.stdout.contains("nothing changed"), "{again:?}");
            assert_eq!(bytes(&file), first, "{} {scope}: not idempotent", a.name);
            let backup = PathBuf::from(format!("{}.hookrun-backup", file.display()));
            assert!(!backup.exists(), "no backup of a file that did not exist");

            s.ok(&[
                "install",
                "--agent",
                a.name,
                "--scope",
                scope,
                "--uninstall",
            ]);
            assert!(
                !file.exists(),
                "{} {scope}: file install created is left",
                a.name
            );
        }
    }
}

/// A file of the agent's with a hook of the user's, in its own layout
/// (four-space indent, no final newline).
fn existing(a: &Agent) -> String {
    let mine = if a.nested {
        format!(
            "[\n            {{\n                \"matcher\": \"Bash\",\n                \"hooks\": [\n                    {{\n                        \"type\": \"command\",\n                        \"{}\": \"./mine.sh\"\n                    }}\n                ]\n            }}\n        ]",
            a.command_key
        )
    } else {
        format!(
            "[\n            {{\n                \"{}\": \"./mine.sh\"\n            }}\n        ]",
            a.command_key
        )
    };
    let version = if a.nested {
        ""
    } else {
        "    \"version\": 1,\n"
    };
    format!(
        "{{\n{version}    \"model\": \"keep-me\",\n    \"hooks\": {{\n        \"{}\": {mine}\n    }}\n}}",
        a.pre
    )
}

#[test]
fn an_existing_file_is_backed_up_kept_and_restored_byte_for_byte() {
    for a in &agents() {
        let (s, dir) = setup("project");
        let file = dir.join(a.project_file);
        std::fs::create_dir_all(file.parent().expect("dir")).expect("mkdir");
        let original = existing(a);
        std::fs::write(&file, &original).expect("write");

        s.ok(&["install", "--agent", a.name, "--scope", "project"]);
        let backup = PathBuf::from(format!("{}.hookrun-backup", file.display()));
        assert_eq!(
            bytes(&backup),
            Some(original.clone().into_bytes()),
            "{}: backup",
            a.name
        );
        let root = json(&file);
        assert_shape(a, &root);
        assert_eq!(root["model"], "keep-me", "{}", a.name);
        // The user's own hook is still first, untouched.
        let mine = &root["hooks"][a.pre][0];
        let mine = if a.nested { &mine["hooks"][0] } else { mine };
        assert_eq!(mine[a.command_key], "./mine.sh", "{}: {root}", a.name);
        let text = std::fs::read_to_string(&file).expect("read");
        assert!(
            text.contains("\n    \"model\""),
            "{}: indent kept: {text}",
            a.name
        );
        assert!(!text.ends_with('\n'), "{}: no final newline added", a.name);

        let first = bytes(&file);
        s.ok(&["install", "--agent", a.name, "--scope", "project"]);
        assert_eq!(bytes(&file), first, "{}: second install changed it", a.name);

        s.ok(&[
            "install",
            "--agent",
            a.name,
            "--scope",
            "project",
            "--uninstall",
        ]);
        assert_eq!(
            bytes(&file),
            Some(original.into_bytes()),
            "{}: not restored byte for byte",
            a.name
        );
        assert!(!backup.exists(), "{}: backup left after a restore", a.name);
    }
}

#[test]
fn codex_home_and_claude_config_dir_are_honoured() {
    let (s, _) = setup("user");
    let codex_home = s.home().join("codex-home");
    let mut cmd = s.command(crate::support::BIN);
    cmd.args(["install", "--agent", "codex"])
        .env("CODEX_HOME", &codex_home);
    let out = crate::support::finish(cmd.spawn().expect("spawn"), std::time::Instant::now());
    assert_eq!(out.code, 0, "{out:?}");
    assert!(codex_home.join("hooks.json").is_file(), "{out:?}");

    let claude_dir = s.home().join("claude-dir");
    let mut cmd = s.command(crate::support::BIN);
    cmd.args(["install", "--agent", "claude"])
        .env("CLAUDE_CONFIG_DIR", &claude_dir);
    let out = crate::support::finish(cmd.spawn().expect("spawn"), std::time::Instant::now());
    assert_eq!(out.code, 0, "{out:?}");
    assert!(claude_dir.join("settings.json").is_file(), "{out:?}");
}
