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

#[cfg(test)]
mod tests {
    use super::*;

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
