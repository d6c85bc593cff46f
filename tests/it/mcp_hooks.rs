//! `mcp_tool` hooks through the binary, against a small MCP server
//! (tests/fixtures/mcp_server.py) started by hookrun: what each answer
//! and failure means under open and closed fail modes, where servers are
//! found (hookrun TOML, Claude Code's `.mcp.json` only when approved), and
//! that no server outlives hookrun.

use std::time::Duration;

use serde_json::json;

use crate::support::{HookTest, settings};

fn fixture() -> String {
    format!(
        "{}/tests/fixtures/mcp_server.py",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// A TOML config with the fixture as server `policy` and one mcp_tool
/// hook on PreToolUse calling `tool`.
fn toml(tool: &str, extra: &str) -> String {
    format!(
        "[[hooks]]\nevent = \"PreToolUse\"\nmcp_tool = {{ server = \"policy\", tool = \"{tool}\", input = {{ command = \"${{tool_input.command}}\" }} }}\n{extra}\n[mcp_servers.policy]\ncommand = \"python3\"\nargs = [{:?}, \"--pidfile\", \"server.pid\"]\n",
        fixture()
    )
}

#[test]
fn a_json_answer_denies_with_the_input_filled_from_the_event() {
    let out = HookTest::new()
        .toml(&toml("deny", ""))
        .pre_tool_use("rm -rf build")
        .run();
    assert_eq!(out.hso()["permissionDecision"], "deny", "{out:?}");
    // The fixture's reason is the `command` argument it was given.
    assert_eq!(out.hso()["permissionDecisionReason"], "rm -rf build");
}

#[test]
fn plain_text_has_no_effect_unless_closed_and_errors_follow_the_fail_mode() {
    for (tool, says) in [
        ("plain", ""),
        ("error", "error"),
        ("crash", "policy"),
        ("garbage", "policy"),
    ] {
        let open = HookTest::new()
            .toml(&toml(tool, ""))
            .pre_tool_use("ls")
            .run();
        assert_eq!(open.code, 0, "{tool}: {open:?}");
        assert!(
            open.hso().get("permissionDecision").is_none(),
            "{tool}: {open:?}"
        );
        if says.is_empty() {
            assert_eq!(open.system_message(), "", "{tool}: {open:?}");
        } else {
            assert!(open.system_message().contains(says), "{tool}: {open:?}");
        }
        let closed = HookTest::new()
            .toml(&toml(tool, "fail_mode = \"closed\""))
            .pre_tool_use("ls")
            .run();
        assert_eq!(
            closed.hso()["permissionDecision"],
            "deny",
            "{tool}: {closed:?}"
        );
    }
}

#[test]
fn a_hung_server_times_out_and_is_killed_with_hookrun() {
    let t = HookTest::new()
        .toml(&toml("sleep", "timeout = 1\nfail_mode = \"closed\""))
        .pre_tool_use("ls");
    let out = t.run();
    assert_eq!(out.hso()["permissionDecision"], "deny", "{out:?}");
    assert!(
        out.hso()["permissionDecisionReason"]
            .as_str()
            .unwrap_or("")
            .contains("timed out"),
        "{out:?}"
    );
    assert!(out.elapsed < Duration::from_secs(20), "{out:?}");
    let pid = crate::support::pid_in(&t, "server.pid");
    assert!(
        crate::support::wait_for(Duration::from_secs(10), || !crate::support::alive(pid)),
        "the MCP server {pid} outlived hookrun"
    );
}

#[test]
fn an_unconfigured_server_is_the_hooks_failure() {
    let t = HookTest::new()
        .toml("[[hooks]]\nevent = \"PreToolUse\"\nmcp_tool = { server = \"nosuch\", tool = \"deny\" }\non_failure = \"block\"\n");
    let out = t.pre_tool_use("ls").run();
    assert_eq!(out.hso()["permissionDecision"], "deny", "{out:?}");
    assert!(
        out.hso()["permissionDecisionReason"]
            .as_str()
            .unwrap_or("")
            .contains("MCP server 'nosuch' not connected"),
        "{out:?}"
    );
}

/// Claude Code settings with an mcp_tool hook, and the fixture in the
/// project's `.mcp.json`.
fn claude_project(approve: bool) -> HookTest {
    let mut s = settings(
        "PreToolUse",
        "Bash",
        json!([{"type": "mcp_tool", "server": "policy", "tool": "deny",
            "input": {"command": "${tool_input.command}"}, "onFailure": "block"}]),
    );
    if approve {
        s["enabledMcpjsonServers"] = json!(["policy"]);
    }
    let mcp = json!({"mcpServers": {"policy": {"type": "stdio", "command": "python3", "args": [fixture()]}}});
    HookTest::new().json(s).file(".mcp.json", &mcp.to_string())
}

#[test]
fn a_project_mcp_json_server_is_used_only_when_approved() {
    let out = claude_project(true).pre_tool_use("rm -rf /").run();
    assert_eq!(out.hso()["permissionDecisionReason"], "rm -rf /", "{out:?}");
    // Not approved: never started; the closed hook fails and blocks.
    let out = claude_project(false).pre_tool_use("rm -rf /").run();
    assert!(
        out.hso()["permissionDecisionReason"]
            .as_str()
            .unwrap_or("")
            .contains("not connected"),
        "{out:?}"
    );
}

#[test]
fn serve_starts_a_server_once_for_many_events_and_ends_it_on_exit() {
    use std::io::{BufRead, BufReader, Write};
    let t = HookTest::new().toml(&format!(
        "[[hooks]]\nevent = \"PreToolUse\"\nmcp_tool = {{ server = \"policy\", tool = \"deny\", input = {{ command = \"${{tool_input.command}}\" }} }}\n\n[mcp_servers.policy]\ncommand = \"python3\"\nargs = [{:?}, \"--count\", \"inits.txt\", \"--pidfile\", \"server.pid\"]\n",
        fixture()
    ));
    let mut serve = std::process::Command::new(crate::support::BIN)
        .args(["serve", "--stdio", "--config"])
        .arg(t.path().join("config-1.toml"))
        .current_dir(t.path())
        .env("HOME", t.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("serve");
    let mut stdin = serve.stdin.take().expect("stdin");
    let mut lines = BufReader::new(serve.stdout.take().expect("stdout")).lines();
    for command in ["rm -rf a", "rm -rf b", "rm -rf c"] {
        let event = json!({"hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": command}, "cwd": t.path()});
        writeln!(stdin, "{event}").expect("write");
        let line = lines.next().expect("an answer").expect("read");
        assert!(line.contains(command), "{line}");
    }
    let pid = crate::support::pid_in(&t, "server.pid");
    drop(stdin);
    let _ = serve.wait();
    assert_eq!(
        t.read("inits.txt").lines().count(),
        1,
        "one initialize for three events"
    );
    assert!(
        crate::support::wait_for(Duration::from_secs(10), || !crate::support::alive(pid)),
        "the MCP server {pid} outlived serve"
    );
}
