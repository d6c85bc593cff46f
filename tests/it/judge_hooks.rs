//! `prompt` and `agent` hooks against a local mock model API and a stand-in
//! Claude Code CLI: what each verdict and each failure means, under open
//! and closed fail modes, and what happens where no model can be asked.

use std::time::Duration;

use serde_json::{Value, json};

use crate::http_hooks::Server;
use crate::support::{HookTest, settings};

/// A Messages API (and chat completions API) answering by the base path
/// the test gives it: `/deny`, `/allow`, `/text`, `/500`, `/slow`.
fn model_reply(path: &str) -> (&'static str, String) {
    let anthropic = |verdict: Value| {
        json!({"type": "message", "role": "assistant",
            "content": [{"type": "text", "text": verdict.to_string()}]})
        .to_string()
    };
    let (base, api) = path.split_at(path[1..].find('/').map_or(path.len(), |i| i + 1));
    let openai = api.ends_with("/chat/completions");
    let verdict = |v: Value| {
        if openai {
            json!({"choices": [{"message": {"role": "assistant", "content": v.to_string()}}]})
                .to_string()
        } else {
            anthropic(v)
        }
    };
    match base {
        "/deny" => (
            "200 OK",
            verdict(json!({"ok": false, "reason": "the tests were not run"})),
        ),
        "/allow" => ("200 OK", verdict(json!({"ok": true, "reason": "fine"}))),
        "/text" => ("200 OK", anthropic(json!("I think it is fine"))),
        "/500" => ("500 Internal Server Error", "{}".to_owned()),
        "/slow" => {
            std::thread::sleep(Duration::from_secs(5));
            ("200 OK", verdict(json!({"ok": true, "reason": "late"})))
        }
        _ => ("404 Not Found", String::new()),
    }
}

fn prompt_hook(extra: Value) -> Value {
    let mut h = json!({"type": "prompt", "prompt": "Is this safe? $ARGUMENTS"});
    if let (Some(h), Some(extra)) = (h.as_object_mut(), extra.as_object()) {
        h.extend(extra.clone());
    }
    h
}

fn with_model(t: HookTest, server: &Server, base: &str) -> HookTest {
    t.env("ANTHROPIC_BASE_URL", &server.url(base))
        .env("ANTHROPIC_API_KEY", "test-key")
}

#[test]
fn a_prompt_hooks_ok_false_denies_and_ends_the_turn() {
    let server = Server::answering(model_reply);
    let out = with_model(HookTest::new(), &server, "/deny")
        .json(settings(
            "PreToolUse",
            "Bash",
            json!([prompt_hook(json!({}))]),
        ))
        .pre_tool_use("rm -rf build")
        .run();
    assert_eq!(out.hso()["permissionDecision"], "deny", "{out:?}");
    assert_eq!(
        out.hso()["permissionDecisionReason"],
        "[Is this safe? $ARGUMENTS]: the tests were not run"
    );
    assert_eq!(out.json()["continue"], false, "{out:?}");
    assert_eq!(out.json()["stopReason"], "the tests were not run");
    // One structured-output request with the event in the prompt.
    let seen = server.seen();
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert_eq!(seen[0].path, "/deny/v1/messages");
    let body = &seen[0].body;
    assert_eq!(body["tools"], json!([]));
    assert_eq!(body["output_config"]["format"]["type"], "json_schema");
    let text = body["messages"][0]["content"][0]["text"]
        .as_str()
        .unwrap_or("");
    assert!(text.starts_with("Is this safe? {"), "{text}");
    assert!(text.contains("\"rm -rf build\""), "{text}");
    assert!(
        seen[0]
            .headers
            .contains(&("x-api-key".into(), "test-key".into())),
        "{seen:?}"
    );
}

#[test]
fn continue_on_block_denies_without_ending_the_turn_and_ok_true_allows() {
    let server = Server::answering(model_reply);
    let out = with_model(HookTest::new(), &server, "/deny")
        .json(settings(
            "PreToolUse",
            "Bash",
            json!([prompt_hook(json!({"continueOnBlock": true}))]),
        ))
        .pre_tool_use("ls")
        .run();
    assert_eq!(out.hso()["permissionDecision"], "deny", "{out:?}");
    assert!(out.json().get("continue").is_none(), "{out:?}");
    let out = with_model(HookTest::new(), &server, "/allow")
        .json(settings(
            "PreToolUse",
            "Bash",
            json!([prompt_hook(json!({}))]),
        ))
        .pre_tool_use("ls")
        .run();
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.hso().get("permissionDecision").is_none(), "{out:?}");
    assert_eq!(out.system_message(), "", "{out:?}");
}

#[test]
fn a_stop_prompt_blocks_the_stop_and_the_turn_goes_on() {
    let server = Server::answering(model_reply);
    let t = HookTest::new().file(
        "t.jsonl",
        "{\"message\":{\"role\":\"user\",\"content\":\"fix the bug\"}}\n{\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"Done, no tests run.\"}]}}\n",
    );
    let transcript = t.path().join("t.jsonl").display().to_string();
    let out = with_model(t, &server, "/deny")
        .toml("[[hooks]]\nevent = \"Stop\"\nprompt = \"Did the assistant run the tests?\"\n")
        .event(json!({"hook_event_name": "Stop", "stop_hook_active": false,
            "transcript_path": transcript}))
        .run();
    assert_eq!(out.json()["decision"], "block", "{out:?}");
    assert_eq!(
        out.json()["reason"],
        "[Did the assistant run the tests?]: the tests were not run"
    );
    assert!(out.json().get("continue").is_none(), "{out:?}");
    let text = server.seen()[0].body["messages"][0]["content"][0]["text"]
        .as_str()
        .unwrap_or("")
        .to_owned();
    assert!(text.contains("assistant: Done, no tests run."), "{text}");
    assert!(
        text.contains("Condition: Did the assistant run the tests?\n\nARGUMENTS: {"),
        "{text}"
    );
}

#[test]
fn model_failures_are_notices_when_open_and_blocks_when_closed() {
    let server = Server::answering(model_reply);
    for (base, says) in [
        ("/500", "status 500"),
        ("/text", "verdict"),
        ("/missing", "status 404"),
        ("/slow", "timed out"),
    ] {
        let open = with_model(HookTest::new(), &server, base)
            .toml("[[hooks]]\nevent = \"PreToolUse\"\nprompt = \"Safe?\"\ntimeout = 1\n")
            .pre_tool_use("ls")
            .run();
        assert_eq!(open.code, 0, "{base}: {open:?}");
        assert!(
            open.hso().get("permissionDecision").is_none(),
            "{base}: {open:?}"
        );
        assert!(open.system_message().contains(says), "{base}: {open:?}");
        let closed = with_model(HookTest::new(), &server, base)
            .toml("[[hooks]]\nevent = \"PreToolUse\"\nprompt = \"Safe?\"\ntimeout = 1\nfail_mode = \"closed\"\n")
            .pre_tool_use("ls")
            .run();
        assert_eq!(
            closed.hso()["permissionDecision"],
            "deny",
            "{base}: {closed:?}"
        );
    }
}

#[test]
fn an_openai_compatible_api_is_asked_with_its_key_and_model() {
    let server = Server::answering(model_reply);
    let toml = "[[hooks]]\nevent = \"PreToolUse\"\nprompt = \"Safe?\"\nprovider = \"openai\"\nmodel = \"gpt-test\"\n";
    let out = HookTest::new()
        .env("OPENAI_BASE_URL", &server.url("/deny/v1"))
        .env("OPENAI_API_KEY", "sk-test")
        .toml(toml)
        .pre_tool_use("ls")
        .run();
    assert_eq!(out.hso()["permissionDecision"], "deny", "{out:?}");
    let seen = server.seen();
    assert_eq!(seen[0].path, "/deny/v1/chat/completions");
    assert_eq!(seen[0].body["model"], "gpt-test");
    assert!(
        seen[0]
            .headers
            .contains(&("authorization".into(), "Bearer sk-test".into())),
        "{seen:?}"
    );
}

#[test]
fn without_a_key_or_the_cli_the_event_blocks_and_says_why() {
    let t = HookTest::new().toml("[[hooks]]\nevent = \"PreToolUse\"\nprompt = \"Safe?\"\n");
    let out = t.pre_tool_use("ls").run();
    assert_eq!(out.hso()["permissionDecision"], "deny", "{out:?}");
    let reason = out.hso()["permissionDecisionReason"]
        .as_str()
        .unwrap_or("")
        .to_owned();
    assert!(reason.contains("ANTHROPIC_API_KEY"), "{reason}");
    assert!(reason.contains("hooks[0]"), "{reason}");
    // `--on-error allow` is the user's explicit choice to let it through.
    let out = HookTest::new()
        .toml("[[hooks]]\nevent = \"PreToolUse\"\nprompt = \"Safe?\"\n")
        .args(&["--on-error", "allow"])
        .pre_tool_use("ls")
        .run();
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.hso().get("permissionDecision").is_none(), "{out:?}");
    assert!(out.system_message().contains("--on-error allow"), "{out:?}");
}

/// A stand-in Claude Code CLI: records its arguments and stdin, and
/// answers by what the prompt asks (`DENY`, `SLOW`, `BROKEN`).
const FAKE_CLAUDE: &str = r#"#!/bin/sh
printf '%s\n' "$@" > "$(dirname "$0")/args.txt"
input=$(cat)
printf '%s' "$input" > "$(dirname "$0")/stdin.txt"
case "$input" in
  *SLOW*) sleep 30 ;;
  *BROKEN*) echo 'Error: not signed in' >&2; exit 1 ;;
  *DENY*) echo '{"type":"result","is_error":false,"result":"","structured_output":{"ok":false,"reason":"unsafe"}}' ;;
  *) echo '{"type":"result","is_error":false,"result":"","structured_output":{"ok":true,"reason":"fine"}}' ;;
esac
"#;

fn with_cli(t: HookTest) -> HookTest {
    let t = t.file("bin/claude", FAKE_CLAUDE);
    let cli = t.path().join("bin/claude");
    crate::support::make_executable(&cli);
    t.env("HOOKRUN_CLAUDE", &cli.display().to_string())
}

#[test]
fn an_agent_hook_runs_through_the_cli_with_read_only_tools() {
    let t = with_cli(HookTest::new());
    let out = t
        .json(settings(
            "PreToolUse",
            "Bash",
            json!([{"type": "agent", "prompt": "DENY this? $ARGUMENTS", "model": "claude-haiku-4-5"}]),
        ))
        .pre_tool_use("rm -rf build")
        .run();
    assert_eq!(out.hso()["permissionDecision"], "deny", "{out:?}");
    assert_eq!(
        out.hso()["permissionDecisionReason"],
        "Agent hook condition was not met: unsafe"
    );
    // The turn goes on after an agent's block.
    assert!(out.json().get("continue").is_none(), "{out:?}");
}

#[test]
fn the_cli_gets_no_hooks_no_settings_and_the_verdict_schema() {
    let t = with_cli(HookTest::new()).toml(
        "[[hooks]]\nevent = \"PreToolUse\"\nagent = \"Check $ARGUMENTS\"\n\n[[hooks]]\nevent = \"PreToolUse\"\nprompt = \"DENY $ARGUMENTS\"\n",
    ).pre_tool_use("ls");
    let out = t.run();
    assert_eq!(out.hso()["permissionDecision"], "deny", "{out:?}");
    let args = t.read("bin/args.txt");
    let args: Vec<&str> = args.lines().collect();
    for flag in [
        "-p",
        "--json-schema",
        "--strict-mcp-config",
        "--no-session-persistence",
    ] {
        assert!(args.contains(&flag), "{flag}: {args:?}");
    }
    let tools = args
        .iter()
        .position(|a| *a == "--tools")
        .map(|i| args[i + 1]);
    // The prompt hook ran last (prompt before agent in Claude Code's order,
    // both read the same file): a prompt has no tools.
    assert!(
        tools == Some("") || tools == Some("Read,Grep,Glob"),
        "{args:?}"
    );
    let settings_at = args.iter().position(|a| *a == "--settings");
    assert_eq!(
        settings_at.map(|i| args[i + 1]),
        Some(r#"{"disableAllHooks":true}"#)
    );
    assert!(
        t.read("bin/stdin.txt")
            .contains("\"hook_event_name\":\"PreToolUse\"")
    );
}

#[test]
fn cli_failures_follow_the_fail_mode_and_a_hung_cli_is_killed() {
    for (prompt, says) in [("BROKEN", "not signed in"), ("SLOW", "timed out")] {
        let toml =
            format!("[[hooks]]\nevent = \"PreToolUse\"\nprompt = \"{prompt}\"\ntimeout = 1\n");
        let out = with_cli(HookTest::new())
            .toml(&toml)
            .pre_tool_use("ls")
            .run();
        assert_eq!(out.code, 0, "{prompt}: {out:?}");
        assert!(out.system_message().contains(says), "{prompt}: {out:?}");
        assert!(out.elapsed < Duration::from_secs(20), "{prompt}: {out:?}");
        let closed = with_cli(HookTest::new())
            .toml(&format!("{toml}fail_mode = \"closed\"\n"))
            .pre_tool_use("ls")
            .run();
        assert_eq!(closed.hso()["permissionDecision"], "deny", "{closed:?}");
    }
}

#[test]
fn prompt_hooks_fail_on_session_start() {
    let server = Server::answering(model_reply);
    let out = with_model(HookTest::new(), &server, "/deny")
        .toml("[[hooks]]\nevent = \"SessionStart\"\nprompt = \"Hello?\"\n")
        .event(json!({"hook_event_name": "SessionStart", "source": "startup"}))
        .run();
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.system_message()
            .contains("prompt hooks are not supported on SessionStart"),
        "{out:?}"
    );
    assert!(server.seen().is_empty());
}
