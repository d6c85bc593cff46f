//! What the chain tests share: a logged config, lines appended by a real
//! process, `audit verify` runs, and a forger that re-seals lines.

use std::io::Write;
use std::process::{Command, Stdio};

use sha2::{Digest, Sha256};

use crate::support::{BIN, HookTest};

// Each with a hook that changes nothing: a config without any is reported
// on every event, which would show on stderr here.
pub(super) const LOG: &str = "[defaults]\naudit_log = \"audit.jsonl\"\n[[hooks]]\nevent = \"Notification\"\ncommand = \"true\"\n";
pub(super) const KEYED: &str = "[defaults]\naudit_log = \"audit.jsonl\"\naudit_key_file = \"audit.key\"\n[[hooks]]\nevent = \"Notification\"\ncommand = \"true\"\n";
pub(super) const KEY: &str = "0123456789abcdef0123456789abcdef\n";
pub(super) const HASH_KEY: &str = ",\"hash\":\"";

/// A config writing `audit.jsonl` (and `audit.key`, for keyed configs).
pub(super) fn logged(config: &str) -> HookTest {
    HookTest::new()
        .toml(config)
        .file("audit.key", KEY)
        .file("other.key", "fedcba9876543210fedcba9876543210\n")
        .file(
            "event.json",
            r#"{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Bash","tool_input":{"command":"ls"}}"#,
        )
        .pre_tool_use("ls")
}

/// Appends `n` audit lines: one `hookrun serve` process handles them all,
/// which keeps these tests fast (`run` appends the same way, see the torn
/// line test).
pub(super) fn events(t: &HookTest, n: usize) {
    let event = std::fs::read_to_string(t.path().join("event.json")).unwrap();
    let mut child = Command::new(BIN)
        .args(["serve", "--stdio", "--config"])
        .arg(t.path().join("config-1.toml"))
        .current_dir(t.path())
        .env_remove("HOOKRUN_AUDIT_KEY_FILE")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdin = child.stdin.take().unwrap();
    std::thread::spawn(move || {
        let mut stdin = stdin;
        let _ = stdin.write_all(format!("{event}\n").repeat(n).as_bytes());
    });
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), n);
}

/// `hookrun audit verify ARGS… audit.jsonl`: exit code, stdout and stderr.
pub(super) fn verify(t: &HookTest, args: &[&str]) -> (i32, String) {
    let o = Command::new(BIN)
        .args(["audit", "verify"])
        .args(args)
        .arg("audit.jsonl")
        .current_dir(t.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    (
        o.status.code().unwrap_or(-1),
        text + &String::from_utf8_lossy(&o.stderr),
    )
}

/// Verifies, expecting an intact log; returns the output.
pub(super) fn intact(t: &HookTest, args: &[&str]) -> String {
    let (code, out) = verify(t, args);
    assert_eq!(code, 0, "{out}");
    out
}

/// Verifies, expecting exit 1 and an output naming each of `needles`.
pub(super) fn refused(t: &HookTest, args: &[&str], needles: &[&str]) -> String {
    let (code, out) = verify(t, args);
    assert_eq!(code, 1, "{out}");
    for n in needles {
        assert!(out.contains(n), "`{n}` not in:\n{out}");
    }
    out
}

pub(super) fn stated_hash(line: &str) -> &str {
    let at = line.rfind(HASH_KEY).unwrap() + HASH_KEY.len();
    &line[at..line.len() - 2]
}

/// Rewrites line `n` (1-based) with `edit` and re-seals it and every later
/// line as a forger would: `seal` turns a body into its hash.
pub(super) fn forge(
    text: &str,
    n: usize,
    edit: impl Fn(&str) -> String,
    seal: impl Fn(&[u8]) -> String,
) -> String {
    let mut prev: Option<String> = None;
    let mut out = String::new();
    for (i, line) in text.lines().enumerate() {
        if i + 1 < n {
            out.push_str(line);
            out.push('\n');
            prev = Some(stated_hash(line).to_owned());
            continue;
        }
        let body = &line[..line.rfind(HASH_KEY).unwrap()];
        let mut body = if i + 1 == n {
            edit(body)
        } else {
            body.to_owned()
        };
        if let Some(p) = &prev {
            let at = body.rfind(",\"prev\":\"").unwrap();
            body = format!("{},\"prev\":\"{p}\"", &body[..at]);
        }
        let hash = seal(body.as_bytes());
        out.push_str(&format!("{body}{HASH_KEY}{hash}\"}}\n"));
        prev = Some(hash);
    }
    out
}

pub(super) fn sha256(body: &[u8]) -> String {
    Sha256::digest(body)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

pub(super) fn write(t: &HookTest, text: &str) {
    std::fs::write(t.path().join("audit.jsonl"), text).unwrap();
}
