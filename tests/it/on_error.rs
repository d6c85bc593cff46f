//! When hookrun cannot evaluate everything configured, events that can
//! block are blocked, saying where and why, unless the user chose
//! `--on-error allow` / `HOOKRUN_ON_ERROR=allow` (docs/guarantees.md).

use serde_json::{Value, json};

use crate::support::{HookTest, Out, cmd, settings};

/// A user config with a typo: the guard it holds cannot be read.
const TYPO: &str = "[[hooks]]\nevent = \"PreToolUse\"\nbuiltin = \"dangerous-commands\"\ntimout = 10\n\n[[hooks]]\nevent = [\"Stop\", \"PostToolUse\", \"PermissionRequest\", \"SessionStart\", \"UserPromptSubmit\"]\ncommand = \"true\"\n";

fn typo() -> HookTest {
    HookTest::new().raw_config("hookrun.toml", TYPO)
}

fn says_where(text: &str) {
    assert!(
        text.contains("hookrun.toml:4:1")
            && text.contains("hooks[0].timout")
            && text.contains("did you mean `timeout`"),
        "{text}"
    );
}

#[test]
fn a_typo_in_the_config_blocks_a_tool_call_and_says_where() {
    let out = typo().pre_tool_use("rm -rf /").run();
    assert_eq!(out.code, 2, "{out:?}");
    assert_eq!(out.hso()["permissionDecision"], "deny", "{out:?}");
    let hso = out.hso();
    says_where(hso["permissionDecisionReason"].as_str().unwrap_or(""));
    says_where(&out.system_message());
    assert!(out.system_message().contains("--on-error allow"), "{out:?}");
}

#[test]
fn on_error_allow_by_flag_or_environment_lets_the_event_through() {
    for t in [
        typo().arg("--on-error").arg("allow"),
        typo().env("HOOKRUN_ON_ERROR", "allow"),
    ] {
        let out = t.pre_tool_use("ls").run();
        assert_eq!(out.code, 1, "{out:?}");
        assert!(out.stdout.is_empty(), "{out:?}");
        says_where(&out.stderr);
    }
    // A value that is neither is a mistake, not an opt-out.
    let out = typo()
        .env("HOOKRUN_ON_ERROR", "alow")
        .pre_tool_use("ls")
        .run();
    assert_eq!(out.code, 2, "{out:?}");
}

#[test]
fn fail_mode_open_is_not_an_opt_out() {
    let out = typo()
        .args(&["--fail-mode", "open"])
        .pre_tool_use("ls")
        .run();
    assert_eq!(out.code, 2, "{out:?}");
}

fn stop(active: bool) -> Out {
    typo()
        .event(json!({"hook_event_name": "Stop", "stop_hook_active": active}))
        .run()
}

#[test]
fn on_stop_it_blocks_once_then_only_says_so() {
    let first = stop(false);
    assert_eq!(first.code, 2, "{first:?}");
    assert_eq!(first.json()["decision"], "block", "{first:?}");
    says_where(first.json()["reason"].as_str().unwrap_or(""));
    // The agent kept working once: a second block could loop it for ever.
    let again = stop(true);
    assert_eq!(again.code, 0, "{again:?}");
    assert_eq!(again.json().get("decision"), None, "{again:?}");
    says_where(&again.system_message());
}

#[test]
fn after_a_tool_ran_its_output_is_withheld() {
    let out = typo()
        .event(json!({"hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_input": {"command": "cat .env"}, "tool_response": {"stdout": "SECRET=1"}}))
        .run();
    assert_eq!(out.code, 2, "{out:?}");
    let hso = out.hso();
    let withheld = hso["updatedToolOutput"].as_str().unwrap_or("");
    assert!(withheld.starts_with("[output withheld]"), "{out:?}");
    assert!(!out.stdout.contains("SECRET=1"), "{out:?}");
    says_where(withheld);
}

#[test]
fn a_permission_request_is_denied_and_a_session_start_only_told() {
    let out = typo()
        .event(json!({"hook_event_name": "PermissionRequest", "tool_name": "Bash", "tool_input": {"command": "ls"}}))
        .run();
    assert_eq!(out.code, 2, "{out:?}");
    assert_eq!(out.hso()["decision"]["behavior"], "deny", "{out:?}");
    let out = typo()
        .event(json!({"hook_event_name": "SessionStart", "source": "startup"}))
        .run();
    assert_eq!(out.code, 0, "{out:?}");
    says_where(&out.system_message());
    let out = typo()
        .event(json!({"hook_event_name": "UserPromptSubmit", "prompt": "hi"}))
        .run();
    assert_eq!(out.code, 2, "{out:?}");
    assert_eq!(out.json()["decision"], "block", "{out:?}");
}

/// An agent hook where no Claude Code CLI is installed to run it.
fn unsupported() -> HookTest {
    HookTest::new().json(settings(
        "PreToolUse",
        "Bash",
        json!([cmd("true"), {"type": "agent", "prompt": "is this safe?"}]),
    ))
}

#[test]
fn a_handler_hookrun_cannot_run_blocks_where_it_would_have_run() {
    let out = unsupported().pre_tool_use("ls").run();
    assert_eq!(out.code, 2, "{out:?}");
    let reason = out.hso()["permissionDecisionReason"]
        .as_str()
        .unwrap_or("")
        .to_owned();
    assert!(
        reason.contains("settings-1.json")
            && reason.contains("Claude Code CLI, which is not installed"),
        "{reason}"
    );
    // Let through on request, and said.
    let out = unsupported()
        .args(&["--on-error", "allow"])
        .pre_tool_use("ls")
        .run();
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.system_message().contains("agent"), "{out:?}");
    // Where its matcher does not match, nothing is missing.
    let out = unsupported()
        .event(json!({"hook_event_name": "PreToolUse", "tool_name": "Read", "tool_input": {"file_path": "x"}}))
        .run();
    assert_eq!(out.code, 0, "{out:?}");
}

#[test]
fn a_closed_guard_keeps_blocking_under_on_error_allow() {
    let out = HookTest::new()
        .toml("[defaults]\nfail_mode = \"closed\"\n[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"true\"\n")
        .args(&["--on-error", "allow"])
        .stdin(b"{not json")
        .run();
    assert_eq!(out.code, 2, "{out:?}");
}

#[test]
fn every_own_block_is_in_the_callers_shape() {
    // Codex, Gemini CLI and pydantic-deep read their own shapes; an error
    // answered as Claude Code's would be misread.
    let ev = |dialect: &str| -> Value {
        match dialect {
            "gemini" => {
                json!({"hook_event_name": "BeforeTool", "tool_name": "run_shell_command", "tool_input": {"command": "ls"}})
            }
            "pydantic-deep" => {
                json!({"event": "pre_tool_use", "tool_name": "execute", "tool_input": {"command": "ls"}, "tool_result": null, "tool_error": null})
            }
            _ => {
                json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}})
            }
        }
    };
    for dialect in ["claude", "codex", "gemini", "pydantic-deep"] {
        let out = typo()
            .args(&["--dialect", dialect])
            .event(ev(dialect))
            .run();
        assert!(
            out.stdout.contains("hookrun.toml:4:1"),
            "{dialect}: {out:?}"
        );
        assert_ne!(out.code, 1, "{dialect}: {out:?}");
    }
}
