//! Bad events: exit 1 with one clear line, or a block where a guard is closed.

use serde_json::json;

use crate::support::{HookTest, cmd, settings};

fn base() -> HookTest {
    HookTest::new()
        .json(settings("PreToolUse", "Bash", json!([cmd("touch ran")])))
        .env("HOOKRUN_ON_ERROR", "allow")
}

#[test]
fn each_bad_input_has_its_message() {
    for (input, expect) in [
        (&b""[..], "stdin is empty"),
        (b"  \n", "stdin is empty"),
        (
            b"{\"hook_event_name\": \"PreToolUse\",",
            "not valid JSON at byte offset",
        ),
        (b"[1, 2]", "expected a JSON object, found an array"),
        (b"{\"tool_name\": \"Bash\"}", "has no `hook_event_name`"),
        (b"\xff\xfe{}", "not valid JSON"),
    ] {
        let t = base().stdin(input);
        let out = t.run();
        assert_eq!(out.code, 1, "{input:?}: {out:?}");
        assert!(out.stderr.contains(expect), "{input:?}: {}", out.stderr);
        assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
        assert!(out.stdout.is_empty());
        assert!(!t.path().join("ran").exists());
    }
}

#[test]
fn oversized_event() {
    let out = base()
        .pre_tool_use("ls")
        .arg("--max-event-bytes")
        .arg("64")
        .run();
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("larger than the limit of 64 bytes"),
        "{}",
        out.stderr
    );
}

#[test]
fn deeply_nested_event_is_refused_not_crashed() {
    let deep = "[".repeat(100_000);
    let out = base().stdin(deep.as_bytes()).run();
    assert_eq!(out.code, 1, "{out:?}");
}

#[test]
fn closed_guard_blocks_on_bad_input() {
    let out = HookTest::new()
        .toml("[defaults]\nfail_mode = \"closed\"\n[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"true\"\n")
        .stdin(b"{not json")
        .run();
    assert_eq!(out.code, 2, "{out:?}");
    assert_eq!(out.json()["decision"], "block");
    assert!(
        out.json()["reason"]
            .as_str()
            .unwrap_or("")
            .contains("not valid JSON")
    );
}

#[test]
fn event_flag_names_the_event() {
    let t = base()
        .stdin(br#"{"tool_name":"Bash","tool_input":{"command":"ls"}}"#)
        .arg("--event")
        .arg("PreToolUse");
    let out = t.run();
    assert_eq!(out.code, 0, "{out:?}");
    assert!(t.path().join("ran").exists());
}

#[test]
fn an_event_name_no_agent_has_is_a_config_error_with_the_nearest_name() {
    for (name, near) in [("PreToolUs", "PreToolUse"), ("pretooluse", "PreToolUse")] {
        let t = HookTest::new()
            .toml(&format!(
                "[[hooks]]\nevent = \"{name}\"\ncommand = \"touch ran\"\n"
            ))
            .pre_tool_use("ls");
        let out = t.run();
        assert_eq!(out.code, 2, "a config error blocks by default: {out:?}");
        assert!(!t.path().join("ran").exists());
        assert!(
            out.stderr.contains("E013") || out.stderr.contains("no agent's event"),
            "{out:?}"
        );
        assert!(
            out.stderr.contains(":2:9 at `hooks[0].event`")
                && out.stderr.contains(&format!("did you mean `{near}`?")),
            "{out:?}"
        );
    }
    // Another agent's own name: the error says the name TOML uses.
    for name in ["BeforeTool", "preToolUse", "beforeShellExecution"] {
        let out = HookTest::new()
            .toml(&format!(
                "[[hooks]]\nevent = \"{name}\"\ncommand = \"true\"\n"
            ))
            .pre_tool_use("ls")
            .run();
        assert_eq!(out.code, 2, "{out:?}");
        assert!(
            out.stderr.contains(&format!("`{name}` is "))
                && out.stderr.contains("write `event = \"PreToolUse\"`"),
            "{out:?}"
        );
    }
    // Under a closed guard the broken file blocks.
    let out = HookTest::new()
        .toml("[[hooks]]\nevent = \"PreToolUs\"\ncommand = \"true\"\n")
        .args(&["--fail-mode", "closed"])
        .pre_tool_use("ls")
        .run();
    assert_eq!(out.code, 2, "{out:?}");
    assert!(out.stdout.contains("PreToolUs"), "{out:?}");
}

#[test]
fn pydantic_event_names_in_toml() {
    let t = HookTest::new()
        .toml("[[hooks]]\nevent = \"pre_tool_use\"\nmatcher = \"Bash\"\ncommand = \"touch ran\"\n")
        .pre_tool_use("ls");
    assert_eq!(t.run().code, 0);
    assert!(t.path().join("ran").exists());
}

/// A duration no `Duration` can hold is a usage error naming the flag, on
/// `run` and `serve` alike: never a panic (exit 101).
#[test]
fn stdin_timeout_out_of_range_is_a_usage_error() {
    for value in ["1e20", "NaN", "inf", "-inf", "-1"] {
        for args in [&["run"][..], &["serve", "--stdio"][..]] {
            let out = std::process::Command::new(crate::support::BIN)
                .args(args)
                .arg(format!("--stdin-timeout={value}"))
                .stdin(std::process::Stdio::null())
                .output()
                .expect("run hookrun");
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_ne!(out.status.code(), Some(101), "{args:?} {value}: {stderr}");
            assert!(
                stderr.contains("--stdin-timeout"),
                "{args:?} {value}: {stderr}"
            );
            assert!(
                stderr.contains("out of range"),
                "{args:?} {value}: {stderr}"
            );
            assert!(!stderr.contains("panicked"), "{args:?} {value}: {stderr}");
        }
    }
}

/// A malformed event under an explicit `--dialect`: no event name to shape
/// the block by, yet each agent gets a block it reads on whichever event it
/// sent; under `--on-error allow` it is hookrun's error (exit 1), as in every
/// dialect.
#[test]
fn a_malformed_event_blocks_in_the_dialect_named() {
    let malformed = &b"{\"hook_event_name\": \"PreToolUse\", \"tool_name\": "[..];
    let t = || {
        HookTest::new()
            .toml("[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"touch ran\"\n")
            .stdin(malformed)
    };
    for (dialect, code, key, value) in [
        ("claude", 2, "decision", "block"),
        ("codex", 2, "decision", "block"),
        ("copilot", 2, "permissionDecision", "deny"),
        ("gemini", 0, "decision", "deny"),
        ("cursor", 2, "permission", "deny"),
    ] {
        let out = t().args(&["--dialect", dialect]).run();
        assert_eq!(out.code, code, "{dialect}: {out:?}");
        let answer: serde_json::Value = serde_json::from_str(&out.stdout).expect("JSON");
        assert_eq!(answer[key], value, "{dialect}: {out:?}");
        assert_eq!(out.stderr.lines().count(), 1, "{dialect}: {out:?}");
        assert!(out.stderr.contains("not valid JSON"), "{dialect}: {out:?}");
    }
    // pydantic-deep appends stderr to a deny's reason: the reason alone.
    let out = t().args(&["--dialect", "pydantic-deep"]).run();
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.stdout.starts_with("hookrun: invalid event on stdin"),
        "{out:?}"
    );
    assert!(out.stderr.is_empty(), "{out:?}");
    // Fail open on request, whatever the dialect.
    for dialect in ["claude", "cursor", "pydantic-deep", "deputy"] {
        let t = t().env("HOOKRUN_ON_ERROR", "allow");
        let out = t.args(&["--dialect", dialect]).run();
        assert_eq!(out.code, 1, "{dialect}: {out:?}");
        assert!(out.stdout.is_empty(), "{dialect}: {out:?}");
    }
}

/// hookrun's own failure is both a block's reason and a message for the
/// user: on stderr it is said once, in every dialect that puts the reason
/// there.
#[test]
fn a_bad_config_is_said_once_on_stderr() {
    for (dialect, event) in [
        (
            "claude",
            r#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}"#,
        ),
        (
            "codex",
            r#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}"#,
        ),
        (
            "copilot",
            r#"{"hook_event_name":"preToolUse","toolName":"bash","toolArgs":"{\"command\":\"ls\"}"}"#,
        ),
        (
            "cursor",
            r#"{"hook_event_name":"beforeShellExecution","conversation_id":"c","command":"ls"}"#,
        ),
    ] {
        let out = HookTest::new()
            .toml("[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"true\"\ntimout = 1\n")
            .stdin(event.as_bytes())
            .args(&["--dialect", dialect])
            .run();
        // Codex gets the block at exit 0, as its JSON carries a message too.
        assert_ne!(out.code, 1, "{dialect}: {out:?}");
        assert_eq!(
            out.stderr.matches("unknown field `timout`").count(),
            1,
            "{dialect}: {}",
            out.stderr
        );
    }
}
