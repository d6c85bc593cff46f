//! The agents' newer events and handler kinds through the binary, from
//! payloads in each agent's own shape (`tests/fixtures/surface`): Codex's
//! Interrupt and SessionEnd (their 1 s default and 3 s cap, the handler
//! kinds Codex skips, `mcp_tool` servers from Codex's `config.toml`),
//! Cursor's agent-thought, agent-response and Tab events and its `prompt`
//! hooks, and Copilot CLI's preCompact.

use serde_json::{Value, json};

use crate::support::{HookTest, Out};

/// A payload fixture, its `cwd` and workspace root set to the test's
/// directory and any `/project` path moved under it.
fn payload(t: &HookTest, name: &str) -> Vec<u8> {
    let path = format!(
        "{}/tests/fixtures/surface/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let dir = t.path().display().to_string();
    let text = text.replace("/project", &dir);
    let v: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::to_vec(&v).expect("payload")
}

fn command(c: &str) -> Value {
    json!({"type": "command", "command": c})
}

/// Codex's hooks.json with these handlers on `event`, read by Codex's rules.
fn codex(event: &str, handlers: Value) -> HookTest {
    HookTest::new()
        .raw_config(
            "codex-hooks.json",
            &json!({"hooks": {event: [{"hooks": handlers}]}}).to_string(),
        )
        .args(&["--dialect", "codex", "--config-format", "codex"])
}

fn run_fixture(t: &HookTest, fixture: &str) -> Out {
    let stdin = payload(t, fixture);
    t.run_stdin(&stdin)
}

#[test]
fn codex_interrupt_runs_its_hooks_and_passes_only_a_message_on() {
    let t = codex(
        "Interrupt",
        json!([
            command("cat > seen.json; echo '{\"systemMessage\":\"turn interrupted\"}'"),
            command("echo refused >&2; exit 2"),
        ]),
    );
    let out = run_fixture(&t, "codex-interrupt");
    // Interrupt cannot be blocked: exit 0, the exit 2 reported, not a block.
    assert_eq!(out.code, 0, "{out:?}");
    let json = out.json();
    let keys: Vec<&String> = json.as_object().expect("object").keys().collect();
    assert_eq!(keys, ["systemMessage"], "{out:?}");
    let msg = out.system_message();
    assert!(msg.contains("turn interrupted"), "{msg}");
    assert!(msg.contains("Interrupt hook error: refused"), "{msg}");
    let seen: Value = serde_json::from_str(&t.read("seen.json")).expect("payload seen");
    assert_eq!(seen["hook_event_name"], "Interrupt");
    assert!(seen["turn_id"].is_string(), "{seen}");
}

#[test]
fn codex_gives_interrupt_hooks_a_second_and_caps_them_at_three() {
    // No timeout: Codex's 1 s default.
    let t = codex("Interrupt", json!([command("sleep 30")]));
    let out = run_fixture(&t, "codex-interrupt");
    assert!(out.stderr.contains("timed out after 1s"), "{out:?}");
    // A longer timeout is cut to Codex's 3 s, and `check` says so.
    let t = codex(
        "SessionEnd",
        json!([{"type": "command", "command": "sleep 30", "timeout": 20}]),
    );
    let out = run_fixture(&t, "codex-session-end");
    assert!(out.stderr.contains("timed out after 3s"), "{out:?}");
    let (code, stdout, _) = crate::support::hookrun_in(
        t.path(),
        &["check", "--config-format", "codex", "codex-hooks.json"],
    );
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("W024"), "{stdout}");
    assert!(stdout.contains("at most 3 s"), "{stdout}");
    // `convert` writes what Codex runs: the 3 s, said.
    let (code, toml, stderr) = crate::support::hookrun_in(
        t.path(),
        &["convert", "--config-format", "codex", "codex-hooks.json"],
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(toml.contains("timeout = 3\n"), "{toml}");
    assert!(stderr.contains("at most 3 s"), "{stderr}");
}

#[test]
fn codex_skips_prompt_and_agent_hooks_and_an_mcp_tool_on_session_end() {
    let t = codex(
        "PreToolUse",
        json!([
            {"type": "prompt", "prompt": "judge $ARGUMENTS"},
            {"type": "agent", "prompt": "judge $ARGUMENTS"},
            command("echo ran > ran.txt"),
        ]),
    );
    let t = t.event(json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}, "turn_id": "t", "model": "gpt-5", "permission_mode": "default", "tool_use_id": "c1"}));
    let out = t.run();
    // The skipped ones are not "unevaluated": Codex would not run them either.
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(t.read("ran.txt").trim(), "ran");
    assert!(
        out.stderr
            .contains("a `prompt` hook, which Codex skips on PreToolUse"),
        "{out:?}"
    );
    assert!(out.stderr.contains("a `agent` hook"), "{out:?}");
    let t = codex(
        "SessionEnd",
        json!([{"type": "mcp_tool", "server": "s", "tool": "t"}]),
    );
    let out = run_fixture(&t, "codex-session-end");
    assert!(
        out.stderr.contains("which Codex skips on SessionEnd"),
        "{out:?}"
    );
    assert!(!out.stderr.contains("not connected"), "{out:?}");
}

#[test]
fn a_codex_mcp_tool_hook_reaches_the_server_of_codexs_config() {
    let server = format!(
        "{}/tests/fixtures/mcp_server.py",
        env!("CARGO_MANIFEST_DIR")
    );
    let t = codex(
        "PreToolUse",
        json!([{"type": "mcp_tool", "server": "policy", "tool": "deny", "input": {"command": "${tool_input.command}"}}]),
    );
    let home = t.path().join("codex-home");
    std::fs::create_dir_all(&home).expect("mkdir");
    std::fs::write(
        home.join("config.toml"),
        format!("[mcp_servers.policy]\ncommand = \"python3\"\nargs = [{server:?}]\n"),
    )
    .expect("config.toml");
    let t = t
        .env("CODEX_HOME", &home.display().to_string())
        .event(json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "rm -rf /"}, "turn_id": "t", "model": "gpt-5", "permission_mode": "default", "tool_use_id": "c1"}));
    let out = t.run();
    assert_eq!(out.hso()["permissionDecision"], "deny", "{out:?}");
    assert_eq!(out.hso()["permissionDecisionReason"], "rm -rf /", "{out:?}");
    // `convert` carries the server along, so the TOML reaches the same one.
    let mut convert = std::process::Command::new(crate::support::BIN);
    convert
        .args(["convert", "--config-format", "codex", "codex-hooks.json"])
        .current_dir(t.path())
        .env("CODEX_HOME", &home)
        .env("HOME", t.path());
    let converted = convert.output().expect("convert");
    let toml = String::from_utf8_lossy(&converted.stdout);
    assert!(toml.contains("[mcp_servers.policy]"), "{toml}");
    assert!(toml.contains("command = \"python3\""), "{toml}");
    // A project's own `.codex/config.toml` names no server Codex would not
    // load: the project is not trusted, so its server is never started.
    let t = codex(
        "PreToolUse",
        json!([{"type": "mcp_tool", "server": "evil", "tool": "deny"}]),
    )
    .file(
        ".codex/config.toml",
        "[mcp_servers.evil]\ncommand = \"sh\"\nargs = [\"-c\", \"touch started\"]\n",
    )
    .env("CODEX_HOME", &home.display().to_string())
    .event(json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}, "turn_id": "t", "model": "gpt-5", "permission_mode": "default", "tool_use_id": "c1"}));
    let out = t.run();
    assert!(!t.path().join("started").exists(), "{out:?}");
    assert!(out.stderr.contains("evil"), "{out:?}");
}

/// Cursor's hooks.json with these entries on `event`, read by Cursor's
/// rules.
fn cursor(event: &str, entries: Value) -> HookTest {
    HookTest::new()
        .raw_config(
            "cursor-hooks.json",
            &json!({"version": 1, "hooks": {event: entries}}).to_string(),
        )
        .args(&["--config-format", "cursor"])
}

#[test]
fn cursor_thought_and_response_events_reach_their_hooks() {
    for (event, fixture) in [
        ("afterAgentThought", "cursor-after-agent-thought"),
        ("afterAgentResponse", "cursor-after-agent-response"),
    ] {
        let t = cursor(event, json!([{"command": "cat > seen.json"}]));
        let out = run_fixture(&t, fixture);
        assert_eq!(out.code, 0, "{event}: {out:?}");
        assert_eq!(out.json(), json!({}), "{event}: {out:?}");
        let seen: Value = serde_json::from_str(&t.read("seen.json")).expect("seen");
        assert_eq!(seen["hook_event_name"], event, "{seen}");
        assert!(seen["text"].is_string(), "{seen}");
    }
}

#[test]
fn a_tab_read_of_a_secret_is_refused_and_other_reads_pass() {
    let t = cursor(
        "beforeTabFileRead",
        json!([{"command": format!("{} builtin protect-paths", crate::support::BIN)}]),
    );
    let out = run_fixture(&t, "cursor-before-tab-file-read");
    assert_eq!(out.code, 2, "{out:?}");
    assert_eq!(out.json()["permission"], "deny", "{out:?}");
    assert!(
        out.json()["user_message"]
            .as_str()
            .is_some_and(|m| m.contains(".env")),
        "{out:?}"
    );
    let stdin = String::from_utf8(payload(&t, "cursor-before-tab-file-read"))
        .expect("utf-8")
        .replace("/.env", "/notes.txt");
    let out = t.run_stdin(stdin.as_bytes());
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.json().get("permission").is_none(), "{out:?}");
}

#[test]
fn a_tab_read_hook_denies_by_cursors_rules_and_a_tab_edit_is_seen() {
    let t = cursor(
        "beforeTabFileRead",
        json!([{"command": "echo '{\"permission\":\"deny\",\"user_message\":\"not for Tab\"}'"}]),
    );
    let out = run_fixture(&t, "cursor-before-tab-file-read");
    assert_eq!(out.json()["permission"], "deny", "{out:?}");
    assert_eq!(out.json()["user_message"], "not for Tab", "{out:?}");
    let t = cursor("afterTabFileEdit", json!([{"command": "cat > seen.json"}]));
    let out = run_fixture(&t, "cursor-after-tab-file-edit");
    assert_eq!(out.code, 0, "{out:?}");
    let seen: Value = serde_json::from_str(&t.read("seen.json")).expect("seen");
    assert_eq!(seen["edits"][0]["new_string"], "def run() -> None:");
}

#[test]
fn a_cursor_prompt_hook_hookrun_cannot_run_blocks_the_prompt() {
    let t = cursor(
        "beforeSubmitPrompt",
        json!([{"type": "prompt", "prompt": "Is this prompt safe?"}]),
    )
    .event(json!({"hook_event_name": "beforeSubmitPrompt", "conversation_id": "c", "generation_id": "g", "workspace_roots": ["/tmp"], "prompt": "hello"}));
    let out = t.run();
    assert_eq!(out.code, 2, "{out:?}");
    assert_eq!(out.json()["continue"], false, "{out:?}");
    let msg = out.json()["user_message"].as_str().unwrap_or("").to_owned();
    assert!(
        msg.contains("cursor-hooks.json") && msg.contains("beforeSubmitPrompt[0]"),
        "{msg}"
    );
}

#[test]
fn copilot_pre_compact_reaches_its_hooks_and_cannot_block() {
    let t = HookTest::new()
        .raw_config(
            "copilot-hooks.json",
            &json!({"version": 1, "hooks": {"preCompact": [{"type": "command", "bash": "cat > seen.json; exit 2"}]}})
                .to_string(),
        )
        .args(&["--config-format", "copilot", "--dialect", "copilot", "--event", "preCompact"]);
    let out = run_fixture(&t, "copilot-pre-compact");
    let seen: Value = serde_json::from_str(&t.read("seen.json")).expect("seen");
    assert_eq!(seen["trigger"], "auto", "{seen}");
    assert_eq!(out.code, 0, "{out:?}");
}

#[test]
fn convert_to_codex_writes_what_codex_runs() {
    let t = HookTest::new().file(
        "hooks.toml",
        "[[hooks]]\nevent = \"Interrupt\"\ncommand = \"true\"\n\n[[hooks]]\nevent = \"SessionEnd\"\ncommand = \"sleep 1\"\ntimeout = 10\n\n[[hooks]]\nevent = \"PreToolUse\"\nprompt = \"judge $ARGUMENTS\"\n\n[[hooks]]\nevent = \"BeforeTabFileRead\"\ncommand = \"true\"\n",
    );
    let (code, json_text, stderr) =
        crate::support::hookrun_in(t.path(), &["convert", "--to", "codex", "hooks.toml"]);
    assert_eq!(code, 0, "{stderr}");
    let v: Value = serde_json::from_str(&json_text).expect("json");
    assert_eq!(
        v["hooks"]["Interrupt"][0]["hooks"][0]["command"], "true",
        "{v}"
    );
    assert_eq!(v["hooks"]["SessionEnd"][0]["hooks"][0]["timeout"], 3, "{v}");
    assert!(v["hooks"].get("PreToolUse").is_none(), "{v}");
    assert!(v["hooks"].get("BeforeTabFileRead").is_none(), "{v}");
    assert!(stderr.contains("Codex skips a `prompt` hook"), "{stderr}");
    assert!(
        stderr.contains("`BeforeTabFileRead` is not an event Codex knows"),
        "{stderr}"
    );
}

#[test]
fn the_machines_managed_hook_files_are_protected_like_every_agent_file() {
    for file in [
        "/etc/cursor/hooks.json",
        "/etc/github-copilot/policy.d/team.json",
        "/etc/codex/requirements.toml",
        "/etc/codex/managed_config.toml",
    ] {
        let t = HookTest::new()
            .toml("[[hooks]]\nevent = \"PreToolUse\"\nbuiltin = \"protect-paths\"\n")
            .event(json!({"hook_event_name": "PreToolUse", "tool_name": "Write", "tool_input": {"file_path": file, "content": "{}"}}));
        let out = t.run();
        assert_eq!(out.hso()["permissionDecision"], "deny", "{file}: {out:?}");
        let t = HookTest::new()
            .toml("[[hooks]]\nevent = \"PreToolUse\"\nbuiltin = \"protect-paths\"\n")
            .pre_tool_use(&format!("echo '{{}}' > {file}"));
        let out = t.run();
        assert_eq!(out.hso()["permissionDecision"], "deny", "{file}: {out:?}");
    }
}

#[test]
fn config_events_names_the_new_events_in_each_agents_words() {
    let t = HookTest::new().file(
        "hooks.toml",
        "[[hooks]]\nevent = \"BeforeTabFileRead\"\nbuiltin = \"protect-paths\"\n\n[[hooks]]\nevent = \"Interrupt\"\ncommand = \"true\"\n\n[[hooks]]\nevent = \"PreCompact\"\ncommand = \"true\"\n",
    );
    let events = |dialect: &str| {
        let (code, stdout, stderr) = crate::support::hookrun_in(
            t.path(),
            &[
                "config",
                "events",
                "--config",
                "hooks.toml",
                "--dialect",
                dialect,
                "--timeouts",
            ],
        );
        assert_eq!(code, 0, "{stderr}");
        stdout
    };
    let cursor = events("cursor");
    assert!(cursor.contains("beforeTabFileRead\t"), "{cursor}");
    assert!(cursor.contains("preCompact\t"), "{cursor}");
    let codex = events("codex");
    // Codex gives hookrun 3 s at most on Interrupt.
    assert!(codex.contains("Interrupt\t3\n"), "{codex}");
    let copilot = events("copilot");
    assert!(copilot.contains("preCompact\t"), "{copilot}");
    assert!(!copilot.contains("Interrupt"), "{copilot}");
}
