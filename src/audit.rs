//! The audit trail: one JSON line per event handled by `run`, hash-chained
//! and appended under an advisory lock, and its verification.
//!
//! Each line is a JSON object whose second-to-last key is `prev`, the hash
//! of the previous line (64 zeros for the first), and whose last key is
//! `hash`: the SHA-256 of the line's bytes up to (not including) `,"hash":`.
//! So editing any byte of a line breaks its own hash, and removing or
//! reordering lines breaks the `prev` links. Writers take an exclusive
//! `flock` on the file, read the last line's hash, and append the new line
//! with one `write` on an `O_APPEND` descriptor: concurrent hookrun
//! processes never interleave, never lose a line, never fork the chain.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;

use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

/// `prev` of the first line.
pub const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

const HASH_KEY: &str = ",\"hash\":\"";

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn sha256(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// Appends one record (secrets already redacted) to the log at `path`.
///
/// # Errors
/// The file cannot be opened, locked, read or written (disk full, no
/// permission); the message names the file.
pub fn append(path: &Path, mut record: Map<String, Value>) -> Result<(), String> {
    let err = |what: &str, e: &dyn std::fmt::Display| {
        format!("audit log `{}`: {what}: {e}", path.display())
    };
    let file = OpenOptions::new()
        .create(true)
        .read(true)
        .append(true)
        .open(path)
        .map_err(|e| err("cannot open", &e))?;
    let mut file = crate::os::lock_exclusive(file).map_err(|e| err("cannot lock", &e))?;
    let prev = last_hash(&mut file).map_err(|e| err("cannot read the last line", &e))?;
    record.remove("prev");
    record.remove("hash");
    record.insert("prev".into(), Value::String(prev));
    let body =
        serde_json::to_string(&Value::Object(record)).map_err(|e| err("cannot serialise", &e))?;
    let body = body.strip_suffix('}').unwrap_or(&body);
    let hash = sha256(body.as_bytes());
    let line = format!("{body}{HASH_KEY}{hash}\"}}\n");
    // One write on an O_APPEND descriptor, under the lock: atomic w.r.t.
    // other hookrun writers.
    let written = file
        .write(line.as_bytes())
        .map_err(|e| err("cannot write", &e))?;
    if written != line.len() {
        return Err(err(
            "short write",
            &format!("{written} of {} bytes (disk full?)", line.len()),
        ));
    }
    file.flush().map_err(|e| err("cannot flush", &e))?;
    Ok(())
}

/// The `hash` of the last line of the file, or the genesis hash.
fn last_hash(file: &mut File) -> std::io::Result<String> {
    let len = file.seek(SeekFrom::End(0))?;
    if len == 0 {
        return Ok(GENESIS.to_owned());
    }
    // Read backwards until the start of the last line.
    let mut tail = Vec::new();
    let mut pos = len;
    let mut chunk = 4096u64;
    loop {
        let start = pos.saturating_sub(chunk);
        file.seek(SeekFrom::Start(start))?;
        let mut buf = vec![0u8; usize::try_from(pos - start).unwrap_or(0)];
        file.read_exact(&mut buf)?;
        buf.extend_from_slice(&tail);
        tail = buf;
        pos = start;
        let body = tail.strip_suffix(b"\n").unwrap_or(&tail);
        if let Some(nl) = body.iter().rposition(|&b| b == b'\n') {
            return Ok(hash_of(&body[nl + 1..]));
        }
        if pos == 0 {
            return Ok(hash_of(body));
        }
        chunk = chunk.saturating_mul(2);
    }
}

fn hash_of(line: &[u8]) -> String {
    let text = String::from_utf8_lossy(line);
    text.rfind(HASH_KEY)
        .map(|i| {
            text[i + HASH_KEY.len()..]
                .trim_end_matches(['}', '"', '\n'])
                .to_owned()
        })
        .unwrap_or_else(|| sha256(line))
}

/// The audit record of one event: time, event, tool, session, the
/// per-hook outcome, the merged decision and the total duration, with
/// secrets redacted.
#[must_use]
pub fn record(
    config: &crate::config::Config,
    event: &crate::event::Event,
    eval: &crate::pipeline::Evaluation,
    took: std::time::Duration,
) -> Map<String, Value> {
    let report = eval.report(config, event);
    let hooks: Vec<Value> = report["hooks"]
        .as_array()
        .map(|rows| {
            rows.iter()
                .map(|r| {
                    let answer = &r["answer"];
                    serde_json::json!({
                        "index": r["index"], "name": r["name"].as_str().unwrap_or_else(|| r["command"].as_str().unwrap_or("")),
                        "matched": r["matched"], "skipped": r["skipped"], "ran": r["ran"],
                        "exit_code": r["run"]["exit_code"], "signal": r["run"]["signal"], "timed_out": r["run"]["timed_out"],
                        "duration_ms": r["run"]["duration_ms"], "outcome": answer["outcome"],
                        "reason": answer["blocking_error"], "failure": answer["failure"],
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    let mut m = Map::new();
    m.insert("time".into(), now_rfc3339().into());
    m.insert("event".into(), event.name.clone().into());
    m.insert(
        "tool".into(),
        event
            .fields
            .get("tool_name")
            .cloned()
            .unwrap_or(Value::Null),
    );
    m.insert(
        "session_id".into(),
        event
            .fields
            .get("session_id")
            .cloned()
            .unwrap_or(Value::Null),
    );
    m.insert("hooks".into(), Value::Array(hooks));
    m.insert(
        "decision".into(),
        serde_json::to_value(&eval.decision).unwrap_or(Value::Null),
    );
    m.insert("exit_code".into(), eval.rendered.exit_code.into());
    m.insert(
        "duration_ms".into(),
        ((took.as_secs_f64() * 1e6).round() / 1e3).into(),
    );
    let mut v = Value::Object(m);
    crate::builtin::redact::Redactor::default_set().value(&mut v);
    match v {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

/// A line that breaks the chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Broken {
    /// 1-based line number.
    pub line: usize,
    pub why: String,
}

/// Verifies a whole log; returns the number of lines.
///
/// # Errors
/// The first line that was edited, removed, inserted or reordered.
pub fn verify(text: &str) -> Result<usize, Broken> {
    let mut prev = GENESIS.to_owned();
    let mut count = 0;
    for (i, line) in text.split_terminator('\n').enumerate() {
        let n = i + 1;
        let broken = |why: String| Broken { line: n, why };
        let Some(at) = line.rfind(HASH_KEY) else {
            return Err(broken("has no `hash`".into()));
        };
        let (body, tail) = line.split_at(at);
        let stated = tail[HASH_KEY.len()..]
            .strip_suffix("\"}")
            .ok_or_else(|| broken("does not end with its `hash`".into()))?;
        if sha256(body.as_bytes()) != stated {
            return Err(broken(
                "was edited: its content does not match its hash".into(),
            ));
        }
        let value: Value =
            serde_json::from_str(line).map_err(|e| broken(format!("is not valid JSON: {e}")))?;
        let link = value.get("prev").and_then(Value::as_str).unwrap_or("");
        if link != prev {
            return Err(broken(
                "does not follow the line before it (a line was removed, inserted or reordered)"
                    .into(),
            ));
        }
        prev = stated.to_owned();
        count += 1;
    }
    Ok(count)
}

/// The current UTC time as RFC 3339 with milliseconds.
#[must_use]
pub fn now_rfc3339() -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    let secs = now.as_secs();
    let (days, rem) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(i64::try_from(days).unwrap_or(0));
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        now.subsec_millis()
    )
}

/// Days since 1970-01-01 to (year, month, day), proleptic Gregorian
/// (Howard Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = u32::try_from(doy - (153 * mp + 2) / 5 + 1).unwrap_or(1);
    let m = u32::try_from(if mp < 10 { mp + 3 } else { mp - 9 }).unwrap_or(1);
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_786), (2026, 11, 29));
    }

    #[test]
    fn chain_detects_edits_removals_and_reorders() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("audit.jsonl");
        for i in 0..3 {
            let mut m = Map::new();
            m.insert("n".into(), Value::from(i));
            append(&path, m).unwrap();
        }
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(verify(&text), Ok(3));
        let lines: Vec<&str> = text.lines().collect();
        let edited = text.replacen("\"n\":1", "\"n\":7", 1);
        assert_eq!(verify(&edited).unwrap_err().line, 2);
        let removed = format!("{}\n{}\n", lines[0], lines[2]);
        assert_eq!(verify(&removed).unwrap_err().line, 2);
        let reordered = format!("{}\n{}\n{}\n", lines[1], lines[0], lines[2]);
        assert_eq!(verify(&reordered).unwrap_err().line, 1);
        let last_edited = text.replacen("\"n\":2", "\"n\":9", 1);
        assert_eq!(verify(&last_edited).unwrap_err().line, 3);
    }
}
