//! `convert --to cursor|copilot|gemini` and back: each hook keeps its event,
//! matcher, command (a built-in with its options and mode) and timeout, or
//! stderr names the hook and the key that is lost.

use std::path::Path;
use std::process::Command;

use hookrun::internals::config::{self, Action, FailMode, LoadOptions};

use crate::support::BIN;

/// A hook of every kind the writers meet: a built-in with options and
/// mode, an exec-form command that fails closed with `env`, a Stop hook
/// with `if` and `async`, and an event Cursor lacks.
const CONFIG: &str = r#"
[limits]
leak_grace = 1
[[hooks]]
name = "guard"
event = "PreToolUse"
matcher = "Bash"
builtin = "dangerous-commands"
mode = "warn"
options = { extra_patterns = ["curl .*\\| sh", "it's"] }
timeout = 5

[[hooks]]
event = "PreToolUse"
matcher = "Edit|Write"
command = "printf"
args = ["%s|", "a b", "$HOME", "it's"]
timeout = 2.5
fail_mode = "closed"
env = { A = "1" }

[[hooks]]
event = "Stop"
command = "./stop.sh"
if = "Bash(git *)"
async = true
timeout = 7

[[hooks]]
event = "PermissionRequest"
matcher = "Bash"
command = "./ask.sh"
timeout = 9
"#;

/// Runs `hookrun convert ARGS… PATH`: (exit code, stdout, stderr).
fn convert(args: &[&str], path: &Path) -> (Option<i32>, String, String) {
    let o = Command::new(BIN)
        .arg("convert")
        .args(args)
        .arg(path)
        .output()
        .expect("run convert");
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Each hook as `event matcher action timeout`, a built-in and the
/// `hookrun builtin …` line that runs it reading the same.
fn rows(path: &Path) -> Vec<String> {
    let c = config::load(
        &[path.to_owned()],
        LoadOptions {
            explicit: false,
            default_fail_mode: FailMode::Open,
            format: None,
            foreign: hookrun::internals::convert::HOOKS_FILES,
        },
    )
    .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    c.hooks
        .iter()
        .flat_map(|h| {
            let action = match &h.action {
                Action::Builtin(b) => format!("builtin {} {} {:?}", b.name, b.options, b.mode),
                Action::Command { command, args } => format!("{command} {args:?}"),
                other => format!("{other:?}"),
            };
            h.events.iter().map(move |e| {
                format!(
                    "{e} {:?} {action} {:?}",
                    h.matcher.as_ref().map(|m| m.pattern()),
                    h.timeout
                )
            })
        })
        .collect()
}

/// TOML → AGENT → TOML: the agent's JSON, the TOML back, and the warnings.
fn round_trip(agent: &str) -> (serde_json::Value, Vec<String>, Vec<String>, String) {
    let dir = tempfile::tempdir().expect("tempdir");
    let toml = dir.path().join("hooks.toml");
    std::fs::write(&toml, CONFIG).expect("write");
    let (code, json, there) = convert(&["--to", agent], &toml);
    assert_eq!(code, Some(0), "{there}");
    let path = dir.path().join("hooks.json");
    std::fs::write(&path, &json).expect("write");
    let (code, back, again) = convert(&["--config-format", agent], &path);
    assert_eq!(code, Some(0), "{again}");
    let back_path = dir.path().join("back.toml");
    std::fs::write(&back_path, &back).expect("write");
    let v = serde_json::from_str(&json).expect("JSON");
    (v, rows(&toml), rows(&back_path), there)
}

/// Each of `lost` is said on stderr.
fn assert_warned(warnings: &str, lost: &[&str]) {
    for l in lost {
        assert!(warnings.contains(l), "{l}: {warnings}");
    }
}

#[test]
fn cursor_round_trip_keeps_hooks_and_names_what_it_drops() {
    let (json, before, after, warnings) = round_trip("cursor");
    assert_eq!(json["version"], 1);
    assert_eq!(json["hooks"]["preToolUse"][1]["failClosed"], true);
    // Exec-form words reach the program unchanged through the shell.
    assert_eq!(
        json["hooks"]["preToolUse"][1]["command"],
        "printf '%s|' 'a b' '$HOME' 'it'\\''s'"
    );
    // Cursor lacks PermissionRequest: the other three hooks survive; the
    // exec-form command comes back as its one shell line.
    let expected: Vec<String> = before
        .iter()
        .filter(|r| !r.starts_with("PermissionRequest"))
        .map(|r| {
            r.replace(
                "printf Some([\"%s|\", \"a b\", \"$HOME\", \"it's\"])",
                "printf '%s|' 'a b' '$HOME' 'it'\\''s' None",
            )
        })
        .collect();
    assert_eq!(after, expected);
    assert_warned(
        &warnings,
        &[
            "`hooks[1]`: Cursor has no per-hook `env`",
            "`hooks[2]`: Cursor has no `if` (`Bash(git *)`)",
            "`hooks[2]`: Cursor has no `async` hooks",
            "`hooks[3]`: Cursor has no `PermissionRequest` event",
            "`[limits]` has no Cursor equivalent",
            // Claude Code's tool names are kept, but said to be foreign.
            "`hooks[0]`: matcher `Bash` names Claude Code's `Bash` tool",
            "`hooks[1]`: matcher `Edit|Write` names Claude Code's `Edit` tool",
        ],
    );
}

#[test]
fn copilot_round_trip_keeps_hooks_and_names_what_it_drops() {
    let (json, before, after, warnings) = round_trip("copilot");
    let h = &json["hooks"]["preToolUse"][1];
    assert_eq!(h["type"], "command");
    assert_eq!(h["timeoutSec"], 3, "2.5 s rounded up");
    assert_eq!(h["env"]["A"], "1");
    assert_eq!(json["hooks"]["agentStop"][0]["timeoutSec"], 7);
    assert_eq!(json["hooks"]["permissionRequest"][0]["matcher"], "Bash");
    // preToolUse takes no matcher in Copilot (warned), 2.5 s became 3 s.
    let expected: Vec<String> = before
        .iter()
        .map(|r| {
            let r = r.replace(
                "printf Some([\"%s|\", \"a b\", \"$HOME\", \"it's\"])",
                "printf '%s|' 'a b' '$HOME' 'it'\\''s' None",
            );
            let r = r.replace("2.5s", "3s");
            if r.starts_with("PreToolUse") {
                r.replace("Some(\"Bash\")", "None")
                    .replace("Some(\"Edit|Write\")", "None")
            } else {
                r
            }
        })
        .collect();
    assert_eq!(after, expected);
    assert_warned(
        &warnings,
        &[
            "`hooks[0]`: Copilot's `preToolUse` takes no matcher: `matcher` (`Bash`)",
            "`hooks[1]`: Copilot has no fail-closed hooks",
            "`hooks[1]`: Copilot counts whole seconds",
            "`hooks[2]`: Copilot has no `if`",
            "`hooks[2]`: Copilot has no `async` hooks",
            "`[limits]` has no Copilot equivalent",
        ],
    );
}

#[test]
fn gemini_json_reads_builtin_lines_back_as_builtins() {
    let (_, before, after, warnings) = round_trip("gemini");
    assert_eq!(before[0], after[0]);
    assert!(after[0].starts_with("PreToolUse Some(\"Bash\") builtin dangerous-commands"));
    assert!(
        warnings.contains("`hooks[2]`: Gemini has no `if`"),
        "{warnings}"
    );
}

#[test]
fn strict_fails_when_something_is_dropped() {
    let dir = tempfile::tempdir().expect("tempdir");
    let toml = dir.path().join("hooks.toml");
    std::fs::write(&toml, CONFIG).expect("write");
    for agent in ["cursor", "copilot"] {
        let (code, _, _) = convert(&["--strict", "--to", agent], &toml);
        assert_eq!(code, Some(1), "{agent}");
    }
    std::fs::write(
        &toml,
        "[[hooks]]\nevent = \"Stop\"\ncommand = \"./s.sh\"\ntimeout = 4\n",
    )
    .expect("write");
    for agent in ["cursor", "copilot"] {
        let (code, _, warnings) = convert(&["--strict", "--to", agent], &toml);
        assert_eq!(code, Some(0), "{agent}: {warnings}");
    }
}
