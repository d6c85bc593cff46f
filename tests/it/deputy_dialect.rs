//! The deputy dialect through the CLI: policy tests with deputy cases,
//! `check` on those test files, and `config events`, which the R adapter
//! reads to register exactly the events a config uses.

use crate::support::hookrun_in as hookrun;

const CONFIG: &str = concat!(
    "[[hooks]]\nname = \"guard\"\nevent = \"PreToolUse\"\nbuiltin = \"dangerous-commands\"\n",
    "[[hooks]]\nname = \"sources\"\nevent = \"Stop\"\n",
    "command = \"grep -q '\\\"stop_hook_active\\\":true' || { echo 'cite sources' >&2; exit 2; }\"\n",
    "[[hooks]]\nname = \"usage\"\nevent = \"PostModelRequest\"\ncommand = \"true\"\n",
    "[[hooks]]\nname = \"denied\"\nevent = \"PermissionDenied\"\ncommand = \"true\"\n",
);

const SUITE: &str = concat!(
    "config = \"hooks.toml\"\n",
    "[[case]]\nname = \"run_bash rm is denied\"\n",
    "dialect = \"deputy\"\n",
    "event = \"PreToolUse\"\n",
    "fields = { tool_name = \"run_bash\", tool_input = { command = \"rm -rf ~\" }, context = { working_dir = \"{tmp}\", run_id = \"r1\" } }\n",
    "expect = { decision = \"deny\", ran = [\"guard\"], exit_code = 0 }\n",
    "[[case]]\nname = \"an answered run is sent on once\"\n",
    "dialect = \"deputy\"\n",
    "event = { deputy_event = \"Stop\", reason = \"complete\", context = { stop_hook_active = false } }\n",
    "expect = { decision = \"block\", reason = \"cite sources\", ran = [\"sources\"] }\n",
    "[[case]]\nname = \"and not twice\"\n",
    "dialect = \"deputy\"\n",
    "event = { deputy_event = \"Stop\", reason = \"complete\", context = { stop_hook_active = true } }\n",
    "expect = { decision = \"none\", ran = [\"sources\"] }\n",
);

fn setup(suite: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("hooks.toml"), CONFIG).expect("config");
    std::fs::write(dir.path().join("deputy.test.toml"), suite).expect("suite");
    dir
}

#[test]
fn policy_tests_take_deputy_cases() {
    let dir = setup(SUITE);
    let (code, out, err) = hookrun(dir.path(), &["test", "deputy.test.toml"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.ends_with("3 passed, 0 failed\n"), "{out}");
    // The dialect is what answers: read as Claude Code's, the denial
    // exits 2 where deputy's adapter reads JSON on exit 0.
    let claude = SUITE
        .replace("dialect = \"deputy\"\n", "dialect = \"claude\"\n")
        .replace("deputy_event", "hook_event_name");
    std::fs::write(dir.path().join("deputy.test.toml"), claude).expect("suite");
    let (code, out, _) = hookrun(dir.path(), &["test", "deputy.test.toml"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("FAIL deputy.test.toml: run_bash rm is denied")
            && out.contains("exit_code: expected 0, got 2"),
        "{out}"
    );
}

#[test]
fn check_reads_test_files_in_every_dialect() {
    let dir = setup(SUITE);
    let (code, out, err) = hookrun(dir.path(), &["check", "--strict", "deputy.test.toml"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("checked 1 file: 0 errors, 0 warnings"),
        "{out}"
    );
    // A directory holds its test files too.
    let (code, out, _) = hookrun(dir.path(), &["check", "."]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("checked 1 file"), "{out}");

    let bad = concat!(
        "config = [\"hooks.toml\", \"gone.toml\"]\n",
        "[[case]]\nname = \"a Gemini name\"\ndialect = \"deputy\"\nevent = \"BeforeTool\"\n",
        "[[case]]\nname = \"not deputy's\"\ndialect = \"deputy\"\nevent = \"PermissionDenied\"\n",
        "[[case]]\nname = \"fine\"\ndialect = \"deputy\"\nevent = \"SessionEnd\"\nfields = { reason = \"complete\" }\n",
    );
    std::fs::write(dir.path().join("deputy.test.toml"), bad).expect("suite");
    let (code, out, _) = hookrun(dir.path(), &["check", "deputy.test.toml"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("error[E010]: the config `./gone.toml` does not exist"),
        "{out}"
    );
    assert!(
        out.contains("`BeforeTool` is not an event of the deputy dialect"),
        "{out}"
    );
    assert!(
        out.contains("deputy.test.toml:5:1 at `case[0].event`"),
        "{out}"
    );
    assert!(
        out.contains("deputy never fires `PermissionDenied`"),
        "{out}"
    );
    assert!(out.contains("1 error, 2 warnings"), "{out}");

    std::fs::write(
        dir.path().join("deputy.test.toml"),
        "config = 1\n[[case]]\n",
    )
    .expect("x");
    let (code, out, _) = hookrun(dir.path(), &["check", "deputy.test.toml"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("error[E001]: missing field `name`") && out.contains("deputy.test.toml:2:1"),
        "{out}"
    );
}

#[test]
fn config_events_lists_what_deputy_registers() {
    let dir = setup(SUITE);
    let (code, out, err) = hookrun(
        dir.path(),
        &[
            "config",
            "events",
            "--dialect",
            "deputy",
            "-c",
            "hooks.toml",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "PreToolUse\nStop\nPostModelRequest\n");
    assert_eq!(
        err.trim(),
        "hookrun: warning: deputy has no `PermissionDenied` event: the hooks on it never run there"
    );
    // With the seconds to give hookrun: the longest hook's timeout and a
    // margin; a hook without one gets deputy's 60 s, a built-in 10 s.
    let (_, out, _) = hookrun(
        dir.path(),
        &[
            "config",
            "events",
            "--dialect",
            "deputy",
            "--timeouts",
            "-c",
            "hooks.toml",
        ],
    );
    assert_eq!(out, "PreToolUse\t15\nStop\t65\nPostModelRequest\t65\n");
    // Other agents name their own events (Gemini's BeforeTool, AfterAgent).
    let (_, out, err) = hookrun(
        dir.path(),
        &[
            "config",
            "events",
            "--dialect",
            "gemini",
            "-c",
            "hooks.toml",
        ],
    );
    assert_eq!(out, "BeforeTool\nAfterAgent\n", "{err}");
    let (_, out, _) = hookrun(
        dir.path(),
        &[
            "config",
            "events",
            "--dialect",
            "pydantic-deep",
            "-c",
            "hooks.toml",
        ],
    );
    assert_eq!(
        out, "pre_tool_use\nStop\nPostModelRequest\nPermissionDenied\n",
        "pydantic-deep's snake_case tool events"
    );
}

/// An event hookrun cannot read still gets a block in the caller's shape
/// when the command line names both the event and the dialect, as the
/// deputy adapter's does: a closed guard then denies in deputy's terms.
#[test]
fn an_unreadable_event_named_on_the_command_line_is_blocked_in_its_dialect() {
    let config = concat!(
        "[limits]\nmax_event_bytes = 100\n",
        "[[hooks]]\nevent = \"PreToolUse\"\nbuiltin = \"dangerous-commands\"\nfail_mode = \"closed\"\n",
    );
    let big = format!(
        r#"{{"deputy_event":"PreToolUse","tool_name":"run_bash","tool_input":{{"command":"{}"}},"context":{{}}}}"#,
        "x".repeat(500)
    );
    let test = || {
        crate::support::HookTest::new()
            .toml(config)
            .stdin(big.as_bytes())
    };
    let named = test()
        .args(&["--dialect", "deputy", "--event", "PreToolUse"])
        .run();
    assert_eq!(named.code, 0, "{named:?}");
    let answer: serde_json::Value = serde_json::from_str(&named.stdout).expect("JSON");
    assert_eq!(answer["result"], "HookResultPreToolUse", "{named:?}");
    assert_eq!(answer["args"]["permission"], "deny");
    assert!(
        answer["args"]["reason"]
            .as_str()
            .is_some_and(|r| r.contains("larger than the limit of 100 bytes")),
        "{named:?}"
    );
    // Without the event's name no deputy result fits: the block is named
    // in `unsupported`, which the adapter warns with and denies on under
    // its closed mode, still in deputy's answer at exit 0.
    let unnamed = test().args(&["--dialect", "deputy"]).run();
    assert_eq!(unnamed.code, 0, "{unnamed:?}");
    let answer: serde_json::Value = serde_json::from_str(&unnamed.stdout).expect("JSON");
    assert_eq!(answer["result"], serde_json::Value::Null, "{unnamed:?}");
    assert!(
        answer["unsupported"][0]
            .as_str()
            .is_some_and(|u| u.contains("larger than the limit of 100 bytes")),
        "{unnamed:?}"
    );
}
