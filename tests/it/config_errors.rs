//! Config problems name the file, the line and column, and the key.

use serde_json::json;

use crate::support::{HookTest, cmd, settings};

/// hookrun's answer to a broken config when the user chose to let such
/// events through: exit 1 and the error on stderr (`on_error.rs` has the
/// default, a block).
fn run_with(name: &str, text: &str) -> crate::support::Out {
    HookTest::new()
        .env("HOOKRUN_ON_ERROR", "allow")
        .raw_config(name, text)
        .pre_tool_use("ls")
        .run()
}

#[test]
fn toml_unknown_key() {
    let out = run_with(
        "hooks.toml",
        "[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"true\"\ntimout = 5\n",
    );
    assert_eq!(out.code, 1, "{out:?}");
    assert!(
        out.stderr.contains("hooks.toml:4:1") && out.stderr.contains("at `hooks[0].timout`"),
        "{}",
        out.stderr
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn toml_bad_regex_wrong_type_and_missing_command() {
    let out = run_with(
        "h.toml",
        "[[hooks]]\nevent = \"PreToolUse\"\nmatcher = \"Bash(\"\ncommand = \"true\"\n",
    );
    assert!(
        out.code == 1
            && out.stderr.contains("h.toml:3:11")
            && out.stderr.contains("hooks[0].matcher"),
        "{}",
        out.stderr
    );
    let out = run_with(
        "h.toml",
        "[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"true\"\ntimeout = \"10\"\n",
    );
    assert!(
        out.code == 1
            && out.stderr.contains("h.toml:4:11")
            && out.stderr.contains("hooks[0].timeout"),
        "{}",
        out.stderr
    );
    let out = run_with(
        "h.toml",
        "[defaults]\ntimeout = 5\n\n[[hooks]]\nevent = \"PreToolUse\"\n",
    );
    assert!(
        out.code == 1
            && out.stderr.contains("hooks[0].command")
            && out.stderr.contains("h.toml:4:1"),
        "{}",
        out.stderr
    );
}

#[test]
fn toml_millisecond_timeout_warns() {
    let out = run_with(
        "h.toml",
        "[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"true\"\ntimeout = 30000\n",
    );
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stderr.contains("h.toml:4:11") && out.stderr.contains("looks like milliseconds"),
        "{}",
        out.stderr
    );
}

#[test]
fn json_syntax_error_names_line_and_column() {
    let out = run_with(
        "settings.json",
        "{\n  \"hooks\": {\n    \"PreToolUse\": [,]\n  }\n}\n",
    );
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("settings.json:3:20"), "{}", out.stderr);
}

#[test]
fn missing_config_file() {
    let out = HookTest::new()
        .env("HOOKRUN_ON_ERROR", "allow")
        .arg("--config")
        .arg("nope.toml")
        .pre_tool_use("ls")
        .run();
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("`nope.toml`"), "{}", out.stderr);
}

#[test]
fn closed_default_turns_a_config_error_into_a_block() {
    let out = HookTest::new()
        .raw_config("bad.json", "{")
        .pre_tool_use("ls")
        .arg("--fail-mode")
        .arg("closed")
        .run();
    assert_eq!(out.code, 2, "{out:?}");
    // The event is read to answer in its shape: a PreToolUse deny.
    assert_eq!(out.hso()["permissionDecision"], "deny", "{out:?}");
    assert!(
        out.hso()["permissionDecisionReason"]
            .as_str()
            .unwrap_or("")
            .contains("bad.json"),
        "{out:?}"
    );
}

#[test]
fn claude_json_drops_are_reported_with_their_key() {
    let out = HookTest::new()
        .json(json!({"hooks": {
            "SessionStart": [{"hooks": [{"type": "command", "command": "true", "timeout": "10"}, cmd("touch ok")]}],
            "NoSuchEvent": [],
        }}))
        .event(json!({"hook_event_name": "SessionStart", "source": "startup"}))
        .run();
    assert_eq!(out.code, 0);
    let msg = out.system_message();
    assert!(
        msg.contains("hooks.SessionStart[0].hooks[0]") && msg.contains("timeout"),
        "{msg}"
    );
    assert!(msg.contains("hooks.NoSuchEvent"), "{msg}");
}

#[test]
fn invalid_guard_entry_ignores_the_file_and_says_why() {
    let bad = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [cmd("touch l1"), {"type": "command"}]}]}});
    let t = HookTest::new()
        .json(bad)
        .json(settings("PreToolUse", "Bash", json!([cmd("touch l2")])))
        .pre_tool_use("ls");
    let out = t.run();
    assert!(!t.path().join("l1").exists() && t.path().join("l2").exists());
    assert!(
        out.system_message().contains("ignore this whole file"),
        "{out:?}"
    );
}

#[test]
fn unsupported_handler_types_are_reported_and_skipped() {
    let out = HookTest::new()
        .json(settings(
            "PreToolUse",
            "Bash",
            json!([{"type": "command", "command": "Get-Date", "shell": "powershell"}]),
        ))
        .pre_tool_use("ls")
        .env("HOOKRUN_ON_ERROR", "allow")
        .run();
    assert_eq!(out.code, 0);
    let msg = out.system_message();
    assert!(msg.contains("powershell command"), "{msg}");
}

#[test]
fn toml_matcher_on_an_event_without_matcher_field_is_not_an_error() {
    let t = HookTest::new()
        .toml("[[hooks]]\nevent = \"UserPromptSubmit\"\nmatcher = \"[\"\ncommand = \"touch ran\"\n")
        .event(json!({"hook_event_name": "UserPromptSubmit", "prompt": "hi"}));
    assert_eq!(t.run().code, 0);
    assert!(t.path().join("ran").exists());
}

#[test]
fn claude_json_drops_name_line_and_column() {
    let text = "{\n  \"hooks\": {\n    \"SessionStart\": [\n      {\"hooks\": [{\"type\": \"command\", \"command\": \"true\", \"timeout\": 0}]}\n    ]\n  }\n}\n";
    let out = HookTest::new()
        .raw_config("settings.json", text)
        .event(json!({"hook_event_name": "SessionStart", "source": "startup"}))
        .run();
    assert!(
        out.system_message()
            .contains("settings.json:4:18: `hooks.SessionStart[0].hooks[0]`"),
        "{out:?}"
    );
}

/// A closed first layer, a second that is missing or broken: the readable
/// layer's deny and `fail_mode = "closed"` hold, and the block names the
/// layer that failed.
#[test]
fn a_missing_or_broken_later_layer_blocks_under_a_closed_first_layer() {
    let closed = "[defaults]\nfail_mode = \"closed\"\n[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"true\"\n";
    let t = HookTest::new().toml(closed);
    let missing = t.path().join("missing.toml");
    let out = t
        .args(&["--config", &missing.display().to_string()])
        .pre_tool_use("ls")
        .run();
    assert_eq!(out.code, 2, "{out:?}");
    let reason = out.hso()["permissionDecisionReason"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(
        reason.contains("missing.toml") && reason.contains("could not be fully evaluated"),
        "{out:?}"
    );

    let out = HookTest::new()
        .toml(closed)
        .raw_config("b.toml", "[[hooks]]\nevent = \"Stop\"\ncomand = \"true\"\n")
        .pre_tool_use("ls")
        .run();
    assert_eq!(out.code, 2, "{out:?}");
    let reason = out.hso()["permissionDecisionReason"].to_string();
    assert!(
        reason.contains("b.toml:3:1") && reason.contains("hooks[0].comand"),
        "{reason}"
    );
}

/// Without a closed guard the broken layer is hookrun's error (exit 1, as
/// when no layer loads), but a deny of the readable layers still holds.
#[test]
fn a_broken_later_layer_keeps_the_readable_layers_deny() {
    let deny = "[[hooks]]\nevent = \"PreToolUse\"\nbuiltin = \"dangerous-commands\"\n";
    let t = HookTest::new().toml(deny);
    let missing = t.path().join("missing.toml");
    let t = t.args(&["--config", &missing.display().to_string()]);
    let out = t.pre_tool_use("rm -rf /").run();
    assert_eq!(out.code, 2, "{out:?}");
    assert_eq!(out.hso()["permissionDecision"], "deny", "{out:?}");
    assert!(out.stderr.contains("missing.toml"), "{}", out.stderr);

    let t = HookTest::new().toml(deny);
    let missing = t.path().join("missing.toml");
    let out = t
        .args(&["--config", &missing.display().to_string()])
        .args(&["--on-error", "allow"])
        .pre_tool_use("ls")
        .run();
    assert_eq!(out.code, 1, "{out:?}");
    assert!(
        out.stdout.is_empty() && out.stderr.contains("missing.toml"),
        "{out:?}"
    );
}

/// What the `config_layers` fuzz target checks, on fixed inputs: a layer
/// that fails on its own is listed in `Config::unreadable`, the others load.
#[test]
fn every_layer_that_fails_alone_is_listed_when_layered() {
    use hookrun::internals::config::{self, FailMode, Found, LoadOptions, Source};
    let dir = tempfile::tempdir().expect("tempdir");
    let good = dir.path().join("good.toml");
    let broken = dir.path().join("broken.toml");
    let missing = dir.path().join("missing.toml");
    std::fs::write(
        &good,
        "[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"true\"\n",
    )
    .expect("write");
    std::fs::write(&broken, "[[hooks]\n").expect("write");
    let files: Vec<Found> = [&good, &broken, &missing]
        .iter()
        .map(|p| Found {
            path: (*p).clone(),
            source: Source::Explicit,
        })
        .collect();
    let options = LoadOptions {
        explicit: false,
        default_fail_mode: FailMode::Open,
        format: None,
        foreign: hookrun::internals::convert::HOOKS_FILES,
    };
    let all = config::load_found(&files, options).expect("layered");
    for f in &files {
        let alone = config::load(std::slice::from_ref(&f.path), options);
        let listed = all.unreadable.iter().any(|u| u.path == f.path);
        assert_eq!(alone.is_err(), listed, "{}", f.path.display());
    }
    assert_eq!((all.hooks.len(), all.unreadable.len()), (1, 2));
}
