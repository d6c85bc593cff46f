//! Unit tests of answer classification.

use super::*;
use crate::exec::Captured;
use std::time::Duration;

fn run(code: i32, stdout: &str, stderr: &str) -> HookRun {
    HookRun {
        status: RunStatus::Exited(code),
        stdout: Captured {
            bytes: stdout.as_bytes().to_vec(),
            dropped: 0,
        },
        stderr: Captured {
            bytes: stderr.as_bytes().to_vec(),
            dropped: 0,
        },
        leaked: false,
        duration: Duration::from_millis(5),
        started: std::time::Instant::now(),
        pid: None,
        in_process: false,
    }
}

fn classify_pre(code: i32, stdout: &str, stderr: &str) -> Answer {
    classify("PreToolUse", "cmd", &run(code, stdout, stderr))
}

#[test]
fn exit_codes() {
    assert_eq!(
        classify_pre(0, "hello", "").plain_stdout.as_deref(),
        Some("hello")
    );
    let a = classify_pre(2, "", "why\n");
    assert_eq!(a.blocking_error.as_deref(), Some("[cmd]: why\n"));
    assert_eq!(
        classify_pre(2, "", "").blocking_error.as_deref(),
        Some("[cmd]: No stderr output")
    );
    let a = classify_pre(3, "", " oops ");
    assert_eq!(a.outcome, Outcome::NonBlockingError);
    assert_eq!(
        a.notice.as_deref(),
        Some("Failed with non-blocking status code: oops")
    );
    assert_eq!(a.failure, Some(Failure::ExitCode { code: 3 }));
}

#[test]
fn json_edge_cases() {
    for plain in [
        "[1,2]",
        "banner\n{\"decision\":\"block\"}",
        "{\"a\":1}\n{\"b\":2}\n",
        "\"deny\"",
        "{not json",
    ] {
        let a = classify_pre(0, plain, "");
        assert_eq!(a.outcome, Outcome::Success, "{plain}");
        assert!(a.json.is_none(), "{plain}");
    }
    for invalid in [
        "{not json}",
        "{\"decision\":\"allow\"}",
        "{\"continue\": \"no\"}",
    ] {
        let a = classify_pre(0, invalid, "");
        assert_eq!(a.outcome, Outcome::NonBlockingError, "{invalid}");
        assert!(matches!(a.failure, Some(Failure::InvalidJson { .. })));
    }
    let a = classify_pre(2, "{not json}", "e");
    assert_eq!(a.blocking_error.as_deref(), Some("[cmd]: e"));
    let bom = "\u{feff}{\"decision\":\"block\",\"reason\":\"r\"}";
    assert_eq!(
        classify_pre(0, bom, "").blocking_error.as_deref(),
        Some("r")
    );
}

#[test]
fn json_honoured_on_any_exit_code() {
    let deny = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"R"}}"#;
    let a = classify_pre(1, deny, "");
    assert_eq!(a.blocking_error.as_deref(), Some("R"));
    assert_eq!(a.failure, Some(Failure::ExitCode { code: 1 }));
    let allow =
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}"#;
    assert_eq!(
        classify_pre(2, allow, "no").blocking_error.as_deref(),
        Some("[cmd]: no")
    );
}

#[test]
fn wrong_event_name() {
    let wrong = r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"x"}}"#;
    let a = classify_pre(0, wrong, "");
    assert_eq!(a.outcome, Outcome::NonBlockingError);
    assert!(a.notice.unwrap().contains("incorrect event name"));
    assert_eq!(classify_pre(2, wrong, "").outcome, Outcome::Blocking);
    let block =
        r#"{"decision":"block","reason":"b","hookSpecificOutput":{"hookEventName":"PostToolUse"}}"#;
    let a = classify_pre(0, block, "");
    assert_eq!(a.blocking_error.as_deref(), Some("b"));
    assert!(!a.json.unwrap().contains_key("hookSpecificOutput"));
}

#[test]
fn missing_script_on_stop() {
    let a = classify(
        "Stop",
        "python3 x.py",
        &run(
            2,
            "",
            "python3: can't open file 'x.py': [Errno 2] No such file or directory",
        ),
    );
    assert_eq!(a.outcome, Outcome::NonBlockingError);
    assert_eq!(a.failure, Some(Failure::MissingScript));
    let a = classify("PreToolUse", "python3 x.py", &run(2, "", "No such file"));
    assert_eq!(a.outcome, Outcome::Blocking);
}

#[test]
fn seconds_format() {
    assert_eq!(fmt_secs(1.0), "1s");
    assert_eq!(fmt_secs(0.5), "0.5s");
    assert_eq!(fmt_secs(1.5004), "1.5s");
}
