//! The audit trail: one JSON line per event handled by `run`, hash-chained
//! and appended under an advisory lock, and its verification.
//!
//! Each line is a JSON object whose second-to-last key is `prev`, the hash
//! of the previous intact line (64 zeros for the first), and whose last key
//! is `hash`: the SHA-256 of the line's bytes up to (not including)
//! `,"hash":`, or, when a key is configured, their HMAC-SHA256 under that
//! key (such lines also carry `"keyed":true`). So editing any byte of a line
//! breaks its own hash, and removing or reordering lines breaks the `prev`
//! links. Writers take an exclusive `flock` on the file, read the last
//! intact line's hash, and append the new line with one `write` on an
//! `O_APPEND` descriptor: concurrent hookrun processes never interleave,
//! never lose a line, never fork the chain.
//!
//! A writer waits at most [`LOCK_WAIT`] for the lock: past it, the line is
//! appended without the lock, marked `"unchained":true`, and stays outside
//! the chain (`line::is_unchained`): the next chained line links to the last
//! chained line, and `verify` reports every unchained line.
//!
//! A line cut short (a crash or a full disk mid-write) is stepped over: the
//! next line starts on a line of its own and chains from the last intact
//! line (`line::split` says which lines are intact), and `verify` reports
//! the torn line and goes on checking the lines after it.
//!
//! What an unkeyed chain cannot show: lines cut from its end, or a line
//! edited with every later hash recomputed (anyone who can write the file
//! can do that). A recorded head (`verify::Expect`) catches the first, a
//! key the agent cannot read catches the second. docs/audit.md says more.

mod line;
mod tail;
mod verify;

use std::io::Write;
use std::path::Path;

use serde_json::{Map, Value};

pub(crate) use line::{KEYED_FIELD, Key, UNCHAINED_FIELD};
pub(crate) use verify::{Expect, Verdict, verify};

/// How long a writer waits for the lock before it appends without it.
pub(crate) const LOCK_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// Appends one record (secrets already redacted) to the log at `path`,
/// sealed with the key in `key_file` when one is given. When another
/// process holds the lock past [`LOCK_WAIT`], the line is still appended
/// (one `O_APPEND` write) but marked `"unchained":true`, outside the chain;
/// the `Ok` then carries the notice to print on stderr.
///
/// # Errors
/// The key file or the log cannot be opened, locked, read or written (disk
/// full, no permission); the message names the file.
pub(crate) fn append(
    path: &Path,
    key_file: Option<&Path>,
    mut record: Map<String, Value>,
) -> Result<Option<String>, String> {
    let err = |what: &str, e: &dyn std::fmt::Display| {
        format!("audit log `{}`: {what}: {e}", path.display())
    };
    // Read before the log is locked: a missing key costs no lock.
    let key = key_file.map(Key::read).transpose()?;
    let file = std::fs::OpenOptions::new()
        .create(true)
        .read(true)
        .append(true)
        .open(path)
        .map_err(|e| err("cannot open", &e))?;
    let lock =
        crate::os::lock_exclusive_within(file, LOCK_WAIT).map_err(|e| err("cannot lock", &e))?;
    let unchained = lock.is_err();
    let (mut locked, mut bare);
    let file: &mut std::fs::File = match lock {
        Ok(l) => {
            locked = l;
            &mut locked
        }
        Err(f) => {
            bare = f;
            &mut bare
        }
    };
    // Without the lock this read may race another writer: the `prev` it
    // gives an unchained line is not trusted by `verify`.
    let tail = tail::read(file).map_err(|e| err("cannot read the last line", &e))?;
    for field in [KEYED_FIELD, UNCHAINED_FIELD, "prev", "hash"] {
        record.shift_remove(field);
    }
    if key.is_some() {
        record.insert(KEYED_FIELD.into(), Value::Bool(true));
    }
    if unchained {
        record.insert(UNCHAINED_FIELD.into(), Value::Bool(true));
    }
    record.insert("prev".into(), Value::String(tail.prev));
    let body =
        serde_json::to_string(&Value::Object(record)).map_err(|e| err("cannot serialise", &e))?;
    let body = body.strip_suffix('}').unwrap_or(&body);
    let hash = line::seal(body.as_bytes(), key.as_ref());
    // After a torn line, start a line of our own rather than finish it.
    let start = if tail.at_line_start { "" } else { "\n" };
    let line = format!("{start}{body}{}{hash}\"}}\n", line::HASH_KEY);
    // One write on an O_APPEND descriptor, under the lock (or, unchained,
    // without it): never interleaved with other hookrun writers.
    // Past a file-size limit the write fails instead of ending hookrun.
    let written = crate::os::with_file_size_errors(|| file.write(line.as_bytes()))
        .map_err(|e| err("cannot write", &e))?;
    if written != line.len() {
        return Err(err(
            "short write",
            &format!("{written} of {} bytes (disk full?)", line.len()),
        ));
    }
    file.flush().map_err(|e| err("cannot flush", &e))?;
    Ok(unchained.then(|| {
        format!(
            "audit log `{}`: another process held its lock for over {} s: the line was appended without the lock, marked \"unchained\": true (outside the hash chain)",
            path.display(),
            LOCK_WAIT.as_secs()
        )
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lines named by problems, in order.
    fn broken(bytes: &[u8], key: Option<&Key>) -> Vec<Option<usize>> {
        verify(bytes, key, &[])
            .problems
            .iter()
            .map(|p| p.line)
            .collect()
    }

    fn log_of(key: Option<&Path>, n: i64) -> (tempfile::TempDir, String) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("audit.jsonl");
        for i in 0..n {
            let mut m = Map::new();
            m.insert("n".into(), Value::from(i));
            assert_eq!(append(&path, key, m).unwrap(), None);
        }
        let text = std::fs::read_to_string(&path).unwrap();
        (dir, text)
    }

    #[test]
    fn chain_detects_edits_removals_and_reorders() {
        let (_dir, text) = log_of(None, 3);
        let v = verify(text.as_bytes(), None, &[]);
        assert_eq!((v.lines, v.problems.len()), (3, 0));
        let lines: Vec<&str> = text.lines().collect();
        let edited = text.replacen("\"n\":1", "\"n\":7", 1);
        assert_eq!(broken(edited.as_bytes(), None), [Some(2)]);
        let removed = format!("{}\n{}\n", lines[0], lines[2]);
        assert_eq!(broken(removed.as_bytes(), None), [Some(2)]);
        let reordered = format!("{}\n{}\n{}\n", lines[1], lines[0], lines[2]);
        assert_eq!(
            broken(reordered.as_bytes(), None),
            [Some(1), Some(2), Some(3)]
        );
        let last_edited = text.replacen("\"n\":2", "\"n\":9", 1);
        assert_eq!(broken(last_edited.as_bytes(), None), [Some(3)]);
    }

    #[test]
    fn a_keyed_chain_needs_its_key() {
        let dir = tempfile::tempdir().unwrap();
        let key_file = dir.path().join("key");
        std::fs::write(&key_file, "0123456789abcdef0123456789abcdef\n").unwrap();
        let (_d, text) = log_of(Some(&key_file), 2);
        assert!(text.lines().all(|l| l.contains("\"keyed\":true,\"prev\":")));
        let key = Key::read(&key_file).unwrap();
        assert_eq!(broken(text.as_bytes(), Some(&key)), []);
        // Without the key: one problem for the whole log, naming the need.
        let v = verify(text.as_bytes(), None, &[]);
        assert_eq!(v.problems.len(), 1);
        assert!(
            v.problems[0].what.contains("--key-file"),
            "{:?}",
            v.problems
        );
        let wrong = Key::from_bytes(b"fedcba9876543210fedcba9876543210").unwrap();
        assert_eq!(
            broken(text.as_bytes(), Some(&wrong)),
            [Some(1), Some(2), None]
        );
    }
}
