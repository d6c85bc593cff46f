//! Golden cases per dialect (event in, decision out), and pydantic-deep's
//! transparency: with `order = "sequential"`, hookrun gives the outcome
//! pydantic-deep would give running the hooks itself.

use std::io::Write;
use std::process::Stdio;
use std::time::Instant;

use serde_json::{Value, json};

use crate::support::{HookTest, Out, finish};

const SEQ: &str = "[defaults]\norder = \"sequential\"\n";

fn pydantic(cmd: &str, args: Value) -> Vec<u8> {
    // pydantic-deep's json.dumps: ", " and ": " separators, no newline.
    let input = serde_json::to_string(&args)
        .unwrap()
        .replace("\":", "\": ")
        .replace(",\"", ", \"");
    format!(r#"{{"event": "{cmd}", "tool_name": "execute", "tool_input": {input}, "tool_result": null, "tool_error": null}}"#).into_bytes()
}

fn hooks(list: &[(&str, &str)]) -> String {
    let mut s = SEQ.to_owned();
    for (event, command) in list {
        s.push_str(&format!(
            "\n[[hooks]]\nevent = \"{event}\"\ncommand = '''{command}'''\n"
        ));
    }
    s
}

fn run_pd(config: &str, stdin: &[u8]) -> (HookTest, Out) {
    let t = HookTest::new().toml(config).stdin(stdin);
    let out = t.run();
    (t, out)
}

#[test]
fn pydantic_exit_2_denies_with_stdout_then_stderr() {
    let (_, out) = run_pd(
        &hooks(&[(
            "pre_tool_use",
            "printf 'err-part' >&2; printf 'out-part '; exit 2",
        )]),
        &pydantic("pre_tool_use", json!({"command": "ls"})),
    );
    assert_eq!(out.code, 2, "{out:?}");
    assert_eq!(out.stdout, "out-part err-part");
    assert!(
        out.stderr.is_empty(),
        "nothing on stderr: pydantic-deep appends it to the reason: {:?}",
        out.stderr
    );
    let (_, out) = run_pd(
        &hooks(&[("pre_tool_use", "exit 2")]),
        &pydantic("pre_tool_use", json!({"command": "ls"})),
    );
    assert_eq!((out.code, out.stdout.as_str()), (2, "Denied by hook"));
}

#[test]
fn pydantic_other_exits_allow_and_claude_json_is_ignored() {
    for cmd in [
        "exit 1",
        "nosuchcommand_x",
        "kill -9 $$",
        r#"printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}'"#,
        "echo not json",
    ] {
        let (_, out) = run_pd(
            &hooks(&[("pre_tool_use", cmd)]),
            &pydantic("pre_tool_use", json!({"command": "ls"})),
        );
        assert_eq!(out.code, 0, "{cmd}: {out:?}");
        assert_eq!(out.stdout, "{}", "{cmd}");
    }
}

#[test]
fn pydantic_modified_args_chain_and_the_child_payload() {
    let config = hooks(&[
        (
            "pre_tool_use",
            "cat > first.json; printf '{\"modified_args\": {\"command\": \"ls -la\", \"note\": \"\\u00fc\"}}'",
        ),
        ("pre_tool_use", "cat > second.json"),
    ]);
    let stdin = pydantic("pre_tool_use", json!({"command": "ls"}));
    let (t, out) = run_pd(&config, &stdin);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(
        serde_json::from_str::<Value>(&out.stdout).unwrap(),
        json!({"modified_args": {"command": "ls -la", "note": "ü"}})
    );
    // The first hook got the caller's bytes exactly; the second, the
    // rewritten args in json.dumps style.
    assert_eq!(t.read("first.json").as_bytes(), &stdin[..]);
    assert_eq!(
        t.read("second.json"),
        r#"{"event": "pre_tool_use", "tool_name": "execute", "tool_input": {"command": "ls -la", "note": "\u00fc"}, "tool_result": null, "tool_error": null}"#
    );
}

#[test]
fn pydantic_first_deny_stops_the_chain_and_drops_edits() {
    let config = hooks(&[
        (
            "pre_tool_use",
            "printf '{\"modified_args\": {\"command\": \"x\"}}'",
        ),
        ("pre_tool_use", "echo stop >&2; exit 2"),
        ("pre_tool_use", "touch third_ran"),
    ]);
    let (t, out) = run_pd(&config, &pydantic("pre_tool_use", json!({"command": "ls"})));
    assert_eq!((out.code, out.stdout.as_str()), (2, "stop"));
    assert!(!t.path().join("third_ran").exists());
}

#[test]
fn pydantic_modified_result_chain_with_python_str() {
    let stdin = br#"{"event": "post_tool_use", "tool_name": "execute", "tool_input": {"command": "ls"}, "tool_result": "abc", "tool_error": null}"#;
    let config = hooks(&[
        (
            "post_tool_use",
            "printf '{\"modified_result\": {\"a\": [true, null]}}'",
        ),
        ("post_tool_use", "cat > seen.json; echo ignored >&2; exit 2"),
        ("post_tool_use", "printf '{\"modified_result\": 42}'"),
    ]);
    let (t, out) = run_pd(&config, stdin);
    assert_eq!(
        out.code, 0,
        "an exit 2 on post_tool_use never denies: {out:?}"
    );
    assert_eq!(out.stdout, r#"{"modified_result":42}"#);
    let seen: Value = serde_json::from_str(&t.read("seen.json")).unwrap();
    assert_eq!(seen["tool_result"], "{'a': [True, None]}");
}

#[test]
fn pydantic_timeouts_deny_before_and_are_ignored_after() {
    let pre = format!(
        "{SEQ}\n[[hooks]]\nevent = \"pre_tool_use\"\ncommand = \"sleep 5\"\ntimeout = 0.5\n"
    );
    let (_, out) = run_pd(&pre, &pydantic("pre_tool_use", json!({"command": "ls"})));
    assert_eq!(out.code, 2, "{out:?}");
    assert_eq!(
        out.stdout,
        "A hook could not decide: command timed out after 0.5s and was killed"
    );
    let post = format!(
        "{SEQ}\n[[hooks]]\nevent = \"post_tool_use\"\ncommand = \"sleep 5\"\ntimeout = 0.5\n"
    );
    let stdin = br#"{"event": "post_tool_use", "tool_name": "execute", "tool_input": {}, "tool_result": "r", "tool_error": null}"#;
    let (_, out) = run_pd(&post, stdin);
    assert_eq!((out.code, out.stdout.as_str()), (0, "{}"));
    // An explicit fail_mode wins over the dialect's rules.
    let open = format!(
        "{SEQ}fail_mode = \"open\"\n\n[[hooks]]\nevent = \"pre_tool_use\"\ncommand = \"sleep 5\"\ntimeout = 0.5\n"
    );
    let (_, out) = run_pd(&open, &pydantic("pre_tool_use", json!({"command": "ls"})));
    assert_eq!(out.code, 0, "{out:?}");
}

#[test]
fn pydantic_bugs_hookrun_fixes() {
    // pydantic-deep pipes the payload into the command: `exit 2 || true`
    // becomes `printf … | exit 2 || true` and allows. hookrun runs the
    // command as written: it denies.
    let (_, out) = run_pd(
        &hooks(&[("pre_tool_use", "exit 2 || true")]),
        &pydantic("pre_tool_use", json!({"command": "ls"})),
    );
    assert_eq!(out.code, 2);
    // A non-object modified_args crashes pydantic-deep; hookrun denies.
    let (_, out) = run_pd(
        &hooks(&[("pre_tool_use", "printf '{\"modified_args\": \"x\"}'")]),
        &pydantic("pre_tool_use", json!({"command": "ls"})),
    );
    assert_eq!(out.code, 2);
    assert!(
        out.stdout.contains("`modified_args` is a string"),
        "{out:?}"
    );
}

#[test]
fn pydantic_lifecycle_events_run_their_hooks() {
    let (t, out) = run_pd(&hooks(&[("before_run", "touch ran; exit 2")]), br#"{"event": "before_run", "tool_name": "", "tool_input": {}, "tool_result": null, "tool_error": null}"#);
    assert_eq!((out.code, out.stdout.as_str()), (0, "{}"));
    assert!(t.path().join("ran").exists());
}

fn gemini(hook: &str, event: Value) -> Out {
    HookTest::new().toml(&format!("[[hooks]]\nevent = \"PreToolUse\"\ncommand = '''{hook}'''\n[[hooks]]\nevent = \"PostToolUse\"\ncommand = '''{hook}'''\n")).stdin(event.to_string().as_bytes()).run()
}

fn before_tool() -> Value {
    json!({"hook_event_name": "BeforeTool", "session_id": "s", "cwd": "/tmp", "tool_name": "run_shell_command", "tool_input": {"command": "ls", "description": "d"}})
}

#[test]
fn gemini_golden_cases_and_observed_quirks() {
    let deny = gemini(
        r#"printf '{"decision":"deny","reason":"no shell"}'"#,
        before_tool(),
    );
    // The JSON carries the deny; exit 0 because no hook failed (Gemini
    // counts a non-zero exit as a failed hook).
    assert_eq!(deny.code, 0, "{deny:?}");
    assert_eq!(deny.json()["decision"], "deny");
    assert_eq!(deny.json()["reason"], "no shell");
    // The JSON on stdout carries Gemini's reading; the exit status is the
    // hook's, so that Gemini counts and warns as it would alone.
    // Observed: stdout JSON wins over exit 2.
    let json_wins = gemini("echo '{}'; echo blocked >&2; exit 2", before_tool());
    assert_eq!(json_wins.code, 2, "{json_wins:?}");
    assert_eq!(json_wins.json().get("decision"), None);
    // Observed: exit 2 without output allows.
    let silent = gemini("exit 2", before_tool());
    assert_eq!((silent.code, silent.json()), (2, json!({})));
    // Observed: exit 1 warns and allows.
    let warn = gemini("echo careful >&2; exit 1", before_tool());
    assert_eq!(warn.code, 1);
    assert_eq!(warn.json().get("decision"), None);
    assert!(
        warn.json()["systemMessage"]
            .as_str()
            .unwrap()
            .contains("Warning: careful")
    );
    // Observed (documented as a warning): exit 3 with text denies.
    let three = gemini("echo warn text; exit 3", before_tool());
    assert_eq!(
        (
            three.code,
            three.json()["decision"].as_str(),
            three.json()["reason"].as_str()
        ),
        (3, Some("deny"), Some("warn text"))
    );
    // tool_input is merged over the input.
    let merged = gemini(
        r#"printf '{"hookSpecificOutput":{"tool_input":{"command":"ls -la"}}}'"#,
        before_tool(),
    );
    assert_eq!(
        merged.json()["hookSpecificOutput"]["tool_input"],
        json!({"command": "ls -la", "description": "d"})
    );
    // Hooks get Gemini's own payload.
    let t = HookTest::new()
        .toml("[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"cat > {dir}/in.json\"\n")
        .stdin(before_tool().to_string().as_bytes());
    t.run();
    assert_eq!(
        serde_json::from_str::<Value>(&t.read("in.json")).unwrap()["hook_event_name"],
        "BeforeTool"
    );
}

fn cursor(config: &str, event: Value) -> Out {
    HookTest::new()
        .toml(config)
        .stdin(event.to_string().as_bytes())
        .run()
}

#[test]
fn cursor_golden_cases() {
    let shell = json!({"hook_event_name": "beforeShellExecution", "conversation_id": "c", "command": "rm -rf /", "cwd": "/tmp", "workspace_roots": ["/tmp"]});
    let out = cursor(
        "[[hooks]]\nevent = \"PreToolUse\"\nmatcher = \"Shell\"\nbuiltin = \"dangerous-commands\"\n",
        shell.clone(),
    );
    assert_eq!(out.code, 2, "{out:?}");
    assert_eq!(out.json()["permission"], "deny");
    assert!(
        out.json()["agent_message"]
            .as_str()
            .unwrap()
            .contains("recursively deletes")
    );
    let pre = json!({"hook_event_name": "preToolUse", "conversation_id": "c", "tool_name": "Write", "tool_input": {"file_path": "a"}});
    let out = cursor(
        "[[hooks]]\nevent = \"PreToolUse\"\ncommand = '''printf '{\"permission\":\"allow\",\"updated_input\":{\"file_path\":\"b\"}}' '''\n",
        pre,
    );
    assert_eq!(
        out.json(),
        json!({"permission": "allow", "updated_input": {"file_path": "b"}}),
        "{out:?}"
    );
    let stop = json!({"hook_event_name": "stop", "conversation_id": "c", "status": "completed", "loop_count": 0});
    let out = cursor(
        "[[hooks]]\nevent = \"Stop\"\ncommand = '''printf '{\"followup_message\":\"run the tests\"}' '''\n",
        stop,
    );
    assert_eq!(
        (out.code, out.json()),
        (0, json!({"followup_message": "run the tests"}))
    );
    let prompt = json!({"hook_event_name": "beforeSubmitPrompt", "conversation_id": "c", "prompt": "deploy"});
    let out = cursor(
        "[[hooks]]\nevent = \"UserPromptSubmit\"\ncommand = \"echo frozen >&2; exit 2\"\n",
        prompt,
    );
    assert_eq!(
        out.json(),
        json!({"continue": false, "user_message": "frozen"})
    );
}

#[test]
fn codex_renders_only_what_its_schemas_accept() {
    let ev = json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}});
    let ask = r#"printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","updatedInput":{"command":"ls -a"}}}'"#;
    let out = HookTest::new()
        .toml(&format!(
            "[[hooks]]\nevent = \"PreToolUse\"\ncommand = '''{ask}'''\n"
        ))
        .stdin(ev.to_string().as_bytes())
        .args(&["--dialect", "codex"])
        .run();
    assert_eq!(out.code, 0, "{out:?}");
    let hso = out
        .json()
        .get("hookSpecificOutput")
        .cloned()
        .unwrap_or(Value::Null);
    assert!(
        hso.get("permissionDecision").is_none() && hso.get("updatedInput").is_none(),
        "{out:?}"
    );
    let allow = r#"printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls -a"}}}'"#;
    let out = HookTest::new()
        .toml(&format!(
            "[[hooks]]\nevent = \"PreToolUse\"\ncommand = '''{allow}'''\n"
        ))
        .stdin(ev.to_string().as_bytes())
        .args(&["--dialect", "codex"])
        .run();
    assert_eq!(out.hso()["updatedInput"], json!({"command": "ls -a"}));
}

#[test]
fn copilot_golden_case() {
    let ev = json!({"hook_event_name": "preToolUse", "timestamp": 1, "cwd": "/tmp", "toolName": "bash", "toolArgs": "{\"command\":\"curl -s x | sh\"}"});
    let out = HookTest::new()
        .toml("[[hooks]]\nevent = \"PreToolUse\"\nbuiltin = \"dangerous-commands\"\n")
        .stdin(ev.to_string().as_bytes())
        .run();
    assert_eq!(out.code, 2, "{out:?}");
    assert_eq!(out.json()["permissionDecision"], "deny");
}

#[test]
fn hooks_can_speak_another_dialect() {
    // A pydantic-deep script under Claude Code: `input = "pydantic-deep"`.
    let config = "[[hooks]]\nevent = \"PreToolUse\"\ninput = \"pydantic-deep\"\ncommand = \"cat > in.json; echo 'no' ; exit 2\"\n";
    let t = HookTest::new().toml(config).pre_tool_use("rm -rf /tmp/x");
    let out = t.run();
    assert_eq!(out.code, 2, "{out:?}");
    assert_eq!(out.hso()["permissionDecisionReason"], "no");
    assert!(
        t.read("in.json")
            .starts_with(r#"{"event": "pre_tool_use", "tool_name": "Bash", "tool_input": {"#),
        "{}",
        t.read("in.json")
    );
}

#[test]
fn convert_gemini_and_cursor_configs_with_their_units() {
    let t = HookTest::new();
    let gemini = t.path().join("settings.json");
    std::fs::write(&gemini, r#"{"hooks": {"BeforeTool": [{"matcher": "shell", "sequential": true, "hooks": [{"type": "command", "command": "./check.sh", "name": "check", "timeout": 5000}]}]}}"#).unwrap();
    let convert = |args: &[&str]| {
        let o = std::process::Command::new(crate::support::BIN)
            .arg("convert")
            .args(args)
            .output()
            .unwrap();
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let toml = convert(&[gemini.to_str().unwrap()]);
    assert!(toml.contains("timeout = 5\n"), "5000 ms is 5 s: {toml}");
    assert!(
        toml.contains("matcher_syntax = \"regex\"")
            && toml.contains("order = \"sequential\"")
            && toml.contains("input = \"gemini\""),
        "{toml}"
    );
    let toml_path = t.path().join("h.toml");
    std::fs::write(&toml_path, &toml).unwrap();
    let back: Value =
        serde_json::from_str(&convert(&["--to", "gemini", toml_path.to_str().unwrap()])).unwrap();
    assert_eq!(back["hooks"]["BeforeTool"][0]["hooks"][0]["timeout"], 5000);
    assert_eq!(back["hooks"]["BeforeTool"][0]["sequential"], true);
    // Gemini's regex matcher `shell` matches `run_shell_command` after conversion.
    let ev = json!({"hook_event_name": "BeforeTool", "tool_name": "run_shell_command", "tool_input": {"command": "ls"}, "cwd": t.path()});
    let run = HookTest::new()
        .raw_config("h.toml", &toml.replace("./check.sh", "touch ran"))
        .stdin(ev.to_string().as_bytes());
    let out = run.run();
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        t.path().join("ran").exists(),
        "the converted hook did not run"
    );
    let cursor = t.path().join("hooks.json");
    std::fs::write(&cursor, r#"{"version": 1, "hooks": {"beforeShellExecution": [{"command": "./guard.sh", "timeout": 10, "failClosed": true}]}}"#).unwrap();
    let toml = convert(&[cursor.to_str().unwrap()]);
    assert!(
        toml.contains("matcher = \"Shell\"")
            && toml.contains("timeout = 10\n")
            && toml.contains("fail_mode = \"closed\""),
        "{toml}"
    );
}

#[test]
fn codex_exit_2_needs_a_reason_on_stderr() {
    let ev = json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}});
    let run = |cmd: &str| {
        HookTest::new()
            .toml(&format!(
                "[[hooks]]\nevent = \"PreToolUse\"\ncommand = '''{cmd}'''\n"
            ))
            .stdin(ev.to_string().as_bytes())
            .args(&["--dialect", "codex"])
            .run()
    };
    assert_eq!(
        run("exit 2").code,
        0,
        "no reason: Codex marks the hook failed"
    );
    let out = run("echo stop >&2; exit 2");
    assert_eq!(out.code, 2);
    assert!(!out.stderr.trim().is_empty());
}

/// Codex's reason reaches the model verbatim, its hooks run in the user's
/// login shell (bash syntax works), without `CLAUDE_PROJECT_DIR`, and read
/// the event without a trailing newline.
#[test]
fn codex_hooks_run_and_answer_as_under_codex() {
    let t = HookTest::new().toml(concat!(
        "[[hooks]]\nevent = \"PreToolUse\"\n",
        "command = '''cat > stdin.json; printf %s \"${CLAUDE_PROJECT_DIR-unset}\" > pd.txt; ",
        "if [[ -n x ]]; then echo 'read-only tree' >&2; exit 2; fi'''\n",
    ));
    let ev = json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}, "cwd": t.path()});
    let t = t.args(&["--dialect", "codex"]);
    let mut cmd = t.command();
    cmd.env_remove("CLAUDE_PROJECT_DIR")
        .env("SHELL", "/bin/bash")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(ev.to_string().as_bytes()).unwrap();
    drop(stdin);
    let out = finish(child, Instant::now());
    assert_eq!(out.code, 2, "{out:?}");
    assert_eq!(out.stderr.lines().next(), Some("read-only tree"), "{out:?}");
    assert_eq!(out.hso()["permissionDecisionReason"], "read-only tree");
    let dir = std::path::PathBuf::from(ev["cwd"].as_str().unwrap());
    assert_eq!(
        std::fs::read_to_string(dir.join("pd.txt")).unwrap(),
        "unset"
    );
    let stdin = std::fs::read_to_string(dir.join("stdin.json")).unwrap();
    assert!(stdin.ends_with('}'), "{stdin:?}");
}

#[test]
fn gemini_hooks_get_their_project_dir_variable() {
    let t = HookTest::new().toml("[[hooks]]\nevent = \"PreToolUse\"\ncommand = 'printf %s \"$GEMINI_PROJECT_DIR\" > {dir}/g.txt'\n");
    let ev = json!({"hook_event_name": "BeforeTool", "tool_name": "run_shell_command", "tool_input": {"command": "ls"}, "cwd": t.path()});
    let t = t.stdin(ev.to_string().as_bytes());
    assert_eq!(t.run().code, 0);
    assert_eq!(t.read("g.txt"), t.path().display().to_string());
}

/// `--event` takes every agent's own names and maps them as the event's own
/// field would be: a guard sees the mapped event whoever sent it.
#[test]
fn forced_event_names_of_every_agent_are_mapped() {
    let guard = "[[hooks]]\nevent = \"PreToolUse\"\nbuiltin = \"dangerous-commands\"\nfail_mode = \"closed\"\n";
    let cases = [
        (
            "preToolUse",
            json!({"toolName": "bash", "toolArgs": "{\"command\":\"rm -rf ~\"}", "cwd": "/tmp", "timestamp": 1}),
        ),
        (
            "BeforeTool",
            json!({"tool_name": "run_shell_command", "tool_input": {"command": "rm -rf ~"}, "cwd": "/tmp"}),
        ),
        (
            "beforeShellExecution",
            json!({"command": "rm -rf ~", "cwd": "/tmp"}),
        ),
        (
            "pre_tool_use",
            json!({"tool_name": "Bash", "tool_input": {"command": "rm -rf ~"}, "cwd": "/tmp"}),
        ),
        (
            "PreToolUse",
            json!({"hook_event_name": "Stop", "tool_name": "Bash", "tool_input": {"command": "rm -rf ~"}, "cwd": "/tmp"}),
        ),
    ];
    for (name, event) in cases {
        let out = HookTest::new()
            .toml(guard)
            .stdin(event.to_string().as_bytes())
            .args(&["--event", name])
            .run();
        // Gemini reads the deny from the JSON (exit 0: no hook failed).
        let code = if name == "BeforeTool" { 0 } else { 2 };
        assert_eq!(out.code, code, "--event {name}: {out:?}");
        assert!(out.stdout.contains("deny"), "--event {name}: {out:?}");
        assert!(out.stdout.contains("dangerous"), "--event {name}: {out:?}");
    }
}

/// An `--event` that names nothing is an error (a block when closed), unless
/// hooks are configured under that exact name.
#[test]
fn an_unknown_forced_event_is_an_error() {
    let ev = json!({"tool_name": "Bash", "tool_input": {"command": "ls"}}).to_string();
    let open = HookTest::new()
        .env("HOOKRUN_ON_ERROR", "allow")
        .toml("[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"true\"\n")
        .stdin(ev.as_bytes())
        .args(&["--event", "PreToolUs"])
        .run();
    assert_eq!(open.code, 1, "{open:?}");
    assert!(
        open.stderr.contains("did you mean `PreToolUse`"),
        "{open:?}"
    );
    let closed = HookTest::new()
        .toml("[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"true\"\nfail_mode = \"closed\"\n")
        .stdin(ev.as_bytes())
        .args(&["--event", "PreToolUs"])
        .run();
    assert_eq!(closed.code, 2, "{closed:?}");
    // A name no agent sends cannot be configured either: its hooks would
    // never run under an agent.
    let custom = HookTest::new()
        .toml("[[hooks]]\nevent = \"MyCheckpoint\"\ncommand = \"echo mark > ran.txt\"\n")
        .stdin(ev.as_bytes())
        .args(&["--event", "MyCheckpoint"]);
    let out = custom.run();
    assert_eq!(out.code, 2, "a config error blocks by default: {out:?}");
    assert!(
        out.stderr.contains("`MyCheckpoint` is no agent's event"),
        "{out:?}"
    );
    assert!(!custom.path().join("ran.txt").exists());
}

/// Seen live: pydantic-deep runs identical hooks once each and sets no
/// project-directory variable; under Claude Code's dialect identical
/// handlers run once.
#[test]
fn pydantic_runs_identical_hooks_each_and_sets_no_project_dir() {
    let cmd = "printf '%s\\n' \"${CLAUDE_PROJECT_DIR-unset}\" >> runs.txt";
    let config = hooks(&[("pre_tool_use", cmd), ("pre_tool_use", cmd)]);
    let (t, out) = run_pd(&config, &pydantic("pre_tool_use", json!({"command": "ls"})));
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(t.read("runs.txt"), "unset\nunset\n");
    let t = HookTest::new().toml(&config).stdin(
        json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}})
            .to_string()
            .as_bytes(),
    );
    let out = t.run();
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(t.read("runs.txt").lines().count(), 1, "{out:?}");
}
