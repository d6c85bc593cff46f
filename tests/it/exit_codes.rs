//! Every exit-code path of a hook, and hookrun's own exit codes.

use serde_json::json;

use crate::support::{HookTest, cmd, settings};

#[test]
fn exit_0_plain_stdout_gives_no_decision() {
    let out = HookTest::new()
        .json(settings("PreToolUse", "Bash", json!([cmd("printf hello")])))
        .pre_tool_use("ls")
        .run();
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(out.json(), json!({}));
}

#[test]
fn exit_2_denies_with_stderr_as_reason() {
    let out = HookTest::new()
        .json(settings(
            "PreToolUse",
            "Bash",
            json!([cmd("cat why.txt >&2; exit 2")]),
        ))
        .file("why.txt", "no rm please\n")
        .pre_tool_use("rm -rf /")
        .run();
    assert_eq!(out.code, 2, "{out:?}");
    let hso = out.hso();
    assert_eq!(hso["permissionDecision"], "deny");
    assert_eq!(
        hso["permissionDecisionReason"],
        "[cat why.txt >&2; exit 2]: no rm please\n"
    );
    assert!(out.stderr.contains("no rm please"), "{}", out.stderr);
}

#[test]
fn exit_2_without_stderr_says_so() {
    let out = HookTest::new()
        .json(settings("PreToolUse", "Bash", json!([cmd("exit 2")])))
        .pre_tool_use("ls")
        .run();
    assert_eq!(out.code, 2);
    assert_eq!(
        out.hso()["permissionDecisionReason"],
        "[exit 2]: No stderr output"
    );
}

#[test]
fn other_exit_codes_are_non_blocking_notices() {
    for (command, expect) in [
        ("echo oops >&2; exit 1", "oops"),
        ("exit 3", "exited 3"),
        (
            "nosuchcommand_hookrun_test",
            "exited 127 (command not found)",
        ),
        ("kill -9 $$", "killed by SIGKILL"),
    ] {
        let out = HookTest::new()
            .json(settings("PreToolUse", "Bash", json!([cmd(command)])))
            .pre_tool_use("ls")
            .run();
        assert_eq!(out.code, 0, "{command}: {out:?}");
        assert!(
            out.json().get("hookSpecificOutput").is_none(),
            "{command}: {out:?}"
        );
        assert!(
            out.system_message().contains(expect),
            "{command}: {:?}",
            out.system_message()
        );
        assert!(out.stderr.contains(expect), "{command}: {}", out.stderr);
    }
}

#[test]
fn exec_form_missing_program_is_a_spawn_failure() {
    let hook = json!({"type": "command", "command": "no-such-program-hookrun", "args": []});
    let out = HookTest::new()
        .json(settings("PreToolUse", "Bash", json!([hook])))
        .pre_tool_use("ls")
        .run();
    assert_eq!(out.code, 0);
    assert!(
        out.system_message()
            .contains("could not start: executable `no-such-program-hookrun` not found in $PATH"),
        "{out:?}"
    );
}

#[test]
fn fail_closed_turns_each_failure_kind_into_a_deny() {
    for (command, expect) in [
        ("exit 1", "exited 1"),
        ("kill -TERM $$", "killed by SIGTERM"),
        ("printf '{bad json}'", "printed invalid JSON"),
        ("./missing-script.sh", "exited 127"),
    ] {
        let out = HookTest::new()
            .toml(&format!("[[hooks]]\nname = \"guard\"\nevent = \"PreToolUse\"\nfail_mode = \"closed\"\ncommand = \"{command}\"\n"))
            .pre_tool_use("ls")
            .run();
        assert_eq!(out.code, 2, "{command}: {out:?}");
        let reason = out.hso()["permissionDecisionReason"]
            .as_str()
            .unwrap_or("")
            .to_owned();
        assert!(
            reason.contains("[guard]")
                && reason.contains(expect)
                && reason.contains("fail_mode is \"closed\""),
            "{command}: {reason}"
        );
    }
}

#[test]
fn fail_mode_flag_closes_claude_json_hooks() {
    let out = HookTest::new()
        .json(settings("PreToolUse", "Bash", json!([cmd("exit 1")])))
        .pre_tool_use("ls")
        .arg("--fail-mode")
        .arg("closed")
        .run();
    assert_eq!(out.code, 2, "{out:?}");
}

#[test]
fn on_failure_block_maps_to_closed() {
    let hook = json!({"type": "command", "command": "exit 5", "onFailure": "block"});
    let out = HookTest::new()
        .json(settings("PreToolUse", "Bash", json!([hook])))
        .pre_tool_use("ls")
        .run();
    assert_eq!(out.code, 2, "{out:?}");
    assert_eq!(out.hso()["permissionDecision"], "deny");
}

/// The model reads the reason: worded as Claude Code words an `onFailure`
/// block (seen live), hookrun's own wording for `fail_mode = "closed"`.
#[test]
fn an_on_failure_block_is_worded_as_claude_code_words_it() {
    let hook = json!({"type": "command", "command": "echo 'guard crashed' >&2; exit 1", "onFailure": "block"});
    let out = HookTest::new()
        .json(settings("PreToolUse", "Bash", json!([hook])))
        .pre_tool_use("ls")
        .run();
    assert_eq!(out.code, 2, "{out:?}");
    assert_eq!(
        out.hso()["permissionDecisionReason"],
        "[echo 'guard crashed' >&2; exit 1]: failed; blocking because onFailure is \"block\"\nguard crashed"
    );
    let hook =
        json!({"type": "command", "command": "sleep 5", "timeout": 0.3, "onFailure": "block"});
    let out = HookTest::new()
        .json(settings("PreToolUse", "Bash", json!([hook])))
        .pre_tool_use("ls")
        .run();
    assert_eq!(
        out.hso()["permissionDecisionReason"],
        "[sleep 5]: timed out; blocking because onFailure is \"block\""
    );
    let out = HookTest::new()
        .json(settings("PreToolUse", "Bash", json!([cmd("exit 1")])))
        .pre_tool_use("ls")
        .arg("--fail-mode")
        .arg("closed")
        .run();
    assert_eq!(
        out.hso()["permissionDecisionReason"],
        "[exit 1]: exited 1; blocking because fail_mode is \"closed\""
    );
}

#[test]
fn stop_exit_2_blocks_and_session_start_exit_2_does_not() {
    let stop = HookTest::new()
        .json(settings(
            "Stop",
            "",
            json!([cmd("echo keep going >&2; exit 2")]),
        ))
        .event(json!({"hook_event_name": "Stop", "stop_hook_active": false}))
        .run();
    assert_eq!(stop.code, 2, "{stop:?}");
    assert_eq!(stop.json()["decision"], "block");
    assert!(
        stop.json()["reason"]
            .as_str()
            .unwrap_or("")
            .contains("keep going")
    );

    let start = HookTest::new()
        .json(settings(
            "SessionStart",
            "",
            json!([cmd("echo cannot start >&2; exit 2")]),
        ))
        .event(json!({"hook_event_name": "SessionStart", "source": "startup"}))
        .run();
    assert_eq!(start.code, 0, "{start:?}");
    assert!(start.json().get("decision").is_none());
    assert!(start.system_message().contains("cannot start"));
}

#[test]
fn permission_request_ignores_exit_2() {
    let out = HookTest::new()
        .json(settings("PermissionRequest", "Bash", json!([cmd("echo no >&2; exit 2")])))
        .event(json!({"hook_event_name": "PermissionRequest", "tool_name": "Bash", "tool_input": {"command": "ls"}}))
        .run();
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(out.json(), json!({}));
}

#[test]
fn stop_missing_script_is_not_a_block() {
    let out = HookTest::new()
        .json(settings(
            "Stop",
            "",
            json!([cmd("python3 ./no-such-script.py")]),
        ))
        .event(json!({"hook_event_name": "Stop", "stop_hook_active": false}))
        .run();
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.system_message().contains("missing"), "{out:?}");
}
