//! The audit chain against damage and forgery, with the real binary: a torn
//! last line, a keyed chain, a rewritten middle, lines cut from the end.

mod tools;

use hmac::{Hmac, KeyInit, Mac};
use serde_json::Value;
use sha2::Sha256;

use tools::{
    KEY, KEYED, LOG, events, forge, intact, logged, refused, sha256, stated_hash, verify, write,
};

#[test]
fn a_torn_last_line_is_stepped_over_and_reported_and_lines_after_it_are_checked() {
    let t = logged(LOG);
    assert_eq!(t.run().code, 0);
    let first = t.read("audit.jsonl");
    // A write cut short: half a line, no newline.
    let torn = &first[..first.len() / 2];
    write(&t, &format!("{first}{torn}"));
    refused(
        &t,
        &[],
        &["audit.jsonl:2: this line is torn: the file ends inside it"],
    );

    for _ in 0..2 {
        let out = t.run();
        assert!(out.code == 0 && out.stderr.is_empty(), "{out:?}");
    }
    let text = t.read("audit.jsonl");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert_eq!(lines[1], torn, "the torn line is left as it was");
    let third: Value = serde_json::from_str(lines[2]).expect("a line of its own");
    assert_eq!(third["prev"], stated_hash(lines[0]), "chained to line 1");
    let out = refused(&t, &[], &[]);
    assert_eq!(
        out,
        "audit.jsonl:2: this line is torn or unparseable: it does not end with its `hash` (a write cut short, or not an audit line)\naudit.jsonl: 4 lines, 1 problem: NOT intact\n"
    );

    // An edit after the torn line is still found, and both are reported.
    let mut edited: Vec<String> = lines.iter().map(|l| (*l).to_owned()).collect();
    edited[3] = edited[3].replacen("\"tool\":\"Bash\"", "\"tool\":\"Bish\"", 1);
    write(&t, &(edited.join("\n") + "\n"));
    let out = refused(&t, &[], &["\naudit.jsonl:4: this line was edited"]);
    assert!(out.starts_with("audit.jsonl:2: this line is torn"), "{out}");
    assert!(
        out.ends_with("audit.jsonl: 4 lines, 2 problems: NOT intact\n"),
        "{out}"
    );
}

#[test]
fn a_keyed_chain_verifies_with_its_key_only() {
    let t = logged(KEYED);
    events(&t, 2);
    let text = t.read("audit.jsonl");
    assert_eq!(text.lines().count(), 2, "{text}");
    assert!(
        text.lines().all(|l| l.contains("\"keyed\":true,\"prev\":")),
        "{text}"
    );
    let with_key = ["--key-file", "audit.key"];
    let out = intact(&t, &with_key);
    assert!(
        out.contains("audit.jsonl: 2 lines, hash chain intact (keyed)"),
        "{out}"
    );

    refused(
        &t,
        &[],
        &["2 keyed lines (HMAC-SHA256) cannot be verified without the key: pass --key-file"],
    );
    refused(
        &t,
        &["--key-file", "other.key"],
        &[
            "audit.jsonl:1: this line was edited, or the key is wrong",
            "most likely the wrong key file",
        ],
    );
    refused(
        &t,
        &["--key-file", "no-such.key"],
        &["cannot read audit key file `no-such.key`"],
    );

    // `$HOOKRUN_AUDIT_KEY_FILE` overrides the config's key: a line sealed
    // with the other key is the only one the config's key rejects.
    let mut by_env = t.command();
    by_env
        .env("HOOKRUN_AUDIT_KEY_FILE", t.path().join("other.key"))
        .stdin(std::fs::File::open(t.path().join("event.json")).unwrap());
    assert_eq!(by_env.output().unwrap().status.code(), Some(0));
    let out = refused(
        &t,
        &with_key,
        &["audit.jsonl: 3 lines, 1 problem: NOT intact"],
    );
    assert!(
        out.starts_with("audit.jsonl:3: this line was edited, or the key is wrong"),
        "{out}"
    );

    // A key that cannot be read writes no line (an unkeyed one would pass
    // for a forgery) and is reported like a log that cannot be written.
    let out = t
        .command()
        .env("HOOKRUN_AUDIT_KEY_FILE", "missing.key")
        .stdin(std::fs::File::open(t.path().join("event.json")).unwrap())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("cannot read audit key file `missing.key`"),
        "{stderr}"
    );
    assert_eq!(t.read("audit.jsonl").lines().count(), 3);
}

#[test]
fn a_rewritten_middle_line_is_caught_by_the_keyed_chain_but_not_the_unkeyed_one() {
    let redact = |body: &str| body.replacen("\"tool\":\"Bash\"", "\"tool\":\"Read\"", 1);
    // Unkeyed: whoever can write the file can re-seal it. This is the
    // documented limit of the unkeyed chain (docs/audit.md), kept here so
    // that a change to it is noticed.
    let plain = logged(LOG);
    events(&plain, 3);
    let forged = forge(&plain.read("audit.jsonl"), 2, redact, sha256);
    assert_ne!(forged, plain.read("audit.jsonl"));
    write(&plain, &forged);
    intact(&plain, &[]);

    // Keyed: without the key the forger's seals do not match.
    let keyed = logged(KEYED);
    events(&keyed, 3);
    let original = keyed.read("audit.jsonl");
    let with_key = ["--key-file", "audit.key"];
    write(&keyed, &forge(&original, 2, redact, sha256));
    let out = refused(
        &keyed,
        &with_key,
        &[
            "audit.jsonl:2: this line was edited, or the key is wrong",
            "audit.jsonl:3: this line was edited, or the key is wrong",
        ],
    );
    assert!(!out.contains("audit.jsonl:1:"), "{out}");
    // Nor can the forger drop the key: unkeyed lines are refused under one.
    let downgrade = |b: &str| redact(b).replacen("\"keyed\":true,", "", 1);
    write(&keyed, &forge(&original, 2, downgrade, sha256));
    refused(
        &keyed,
        &with_key,
        &["audit.jsonl:2: this line is not keyed, but a key was given"],
    );
    // The same forgery with the real key passes: the key is what protects.
    let real_key = |b: &[u8]| {
        let mut mac = Hmac::<Sha256>::new_from_slice(KEY.trim_end().as_bytes()).unwrap();
        mac.update(b);
        mac.finalize()
            .into_bytes()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    };
    write(&keyed, &forge(&original, 2, redact, real_key));
    intact(&keyed, &with_key);
}

#[test]
fn a_recorded_head_catches_lines_cut_from_the_end() {
    let t = logged(LOG);
    events(&t, 3);
    let out = intact(&t, &[]);
    let head = out
        .lines()
        .find_map(|l| l.strip_prefix("head: "))
        .expect("an intact log prints its head")
        .to_owned();
    let text = t.read("audit.jsonl");
    let last = text.lines().last().unwrap();
    assert_eq!(head, format!("{}:3", stated_hash(last)));
    let expect = ["--expect", head.as_str()];

    // More lines since: still fine.
    events(&t, 1);
    intact(&t, &expect);

    // The last two lines cut: the chain alone is intact, the head is not.
    let kept: String = text.lines().take(2).map(|l| format!("{l}\n")).collect();
    write(&t, &kept);
    intact(&t, &[]);
    refused(
        &t,
        &expect,
        &["audit.jsonl: has 2 lines, but --expect recorded line 3"],
    );

    // Line 3 rewritten and every hash recomputed: the head differs.
    let rewrite = |b: &str| b.replacen("\"tool\":\"Bash\"", "\"tool\":\"Read\"", 1);
    write(&t, &forge(&text, 3, rewrite, sha256));
    refused(
        &t,
        &expect,
        &[
            "audit.jsonl:3: this line has hash",
            "as recorded with --expect",
        ],
    );

    let (code, out) = verify(&t, &["--expect", "nonsense"]);
    assert_ne!(code, 0);
    assert!(out.contains("HASH:LINES"), "{out}");
}
