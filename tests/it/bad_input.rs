//! Bad events: exit 1 with one clear line, or a block where a guard is closed.

use serde_json::json;

use crate::support::{HookTest, cmd, settings};

fn base() -> HookTest {
    HookTest::new().json(settings("PreToolUse", "Bash", json!([cmd("touch ran")])))
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
fn unknown_event_runs_its_hooks_with_a_notice() {
    let t = HookTest::new()
        .toml(
            "[[hooks]]\nevent = \"FutureEvent\"\nmatcher = \"ignored\"\ncommand = \"touch ran\"\n",
        )
        .event(json!({"hook_event_name": "FutureEvent"}));
    let out = t.run();
    assert_eq!(out.code, 0, "{out:?}");
    assert!(t.path().join("ran").exists());
    assert!(
        out.system_message().contains("not an event hookrun knows"),
        "{out:?}"
    );
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
