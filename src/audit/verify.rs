//! Verification of a whole log: every problem found, not just the first,
//! so that one torn line does not hide an edit further down.

use serde_json::Value;

use super::line::{GENESIS, KEYED_FIELD, Key, is_unchained, seal, split};

/// A head recorded elsewhere (`HASH:LINES`, as `audit verify` prints it):
/// line `lines` of the log had hash `hash`. The only defence of an unkeyed
/// chain against lines cut from its end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Expect {
    pub hash: String,
    pub lines: usize,
}

impl std::str::FromStr for Expect {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let usage = || format!("`{s}` is not HASH:LINES (the `head:` that `audit verify` prints)");
        let (hash, lines) = s.rsplit_once(':').ok_or_else(usage)?;
        let hash = hash.to_ascii_lowercase();
        let lines: usize = lines.parse().map_err(|_| usage())?;
        if lines == 0
            || split(format!("{{{}{hash}\"}}", super::line::HASH_KEY).as_bytes()).is_none()
        {
            return Err(usage());
        }
        Ok(Expect { hash, lines })
    }
}

/// One thing wrong with a log: a line (1-based), or the log as a whole.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Problem {
    pub line: Option<usize>,
    pub what: String,
}

/// What `verify` found.
#[derive(Debug, Default)]
pub(crate) struct Verdict {
    /// Lines in the file, torn ones included.
    pub lines: usize,
    /// The last line's hash, when that line is intact: with `lines`, the
    /// head to record elsewhere.
    pub head: Option<String>,
    /// Lines sealed with a key.
    pub keyed: usize,
    /// Lines written without the lock (`"unchained":true`), 1-based: each
    /// is also a problem, as the chain cannot vouch for them.
    pub unchained: Vec<usize>,
    /// In line order; problems of the whole log last.
    pub problems: Vec<Problem>,
}

/// Checks every line: whole, JSON, sealed (plain or keyed), linked to the
/// last intact line before it, and the recorded heads in `expects`.
#[must_use]
pub(crate) fn verify(bytes: &[u8], key: Option<&Key>, expects: &[Expect]) -> Verdict {
    let ends_whole = bytes.is_empty() || bytes.ends_with(b"\n");
    let text = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let lines: Vec<&[u8]> = if bytes.is_empty() {
        Vec::new()
    } else {
        text.split(|&b| b == b'\n').collect()
    };
    let mut problems: Vec<Problem> = Vec::new();
    let mut keyed_lines = 0;
    let mut stated: Vec<Option<&str>> = Vec::with_capacity(lines.len());
    let mut prev = (GENESIS, None::<usize>);
    let (mut keyed_unchecked, mut keyed_bad) = (0usize, 0usize);
    let mut unchained: Vec<usize> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let n = i + 1;
        let mut problem = |what: String| {
            problems.push(Problem {
                line: Some(n),
                what,
            });
        };
        let Some((body, hash)) = split(line) else {
            stated.push(None);
            problem(if line.is_empty() {
                "is empty: not an audit line".into()
            } else if n == lines.len() && !ends_whole {
                "is torn: the file ends inside it (a write cut short by a crash or a full disk); the next line chains from the last intact one".into()
            } else {
                "is torn or unparseable: it does not end with its `hash` (a write cut short, or not an audit line)".into()
            });
            continue;
        };
        stated.push(Some(hash));
        let value: Value = match serde_json::from_slice(line) {
            Ok(v) => v,
            Err(e) => {
                problem(format!("is not valid JSON: {e}"));
                prev = (hash, Some(n));
                continue;
            }
        };
        let keyed = value.get(KEYED_FIELD) == Some(&Value::Bool(true));
        keyed_lines += usize::from(keyed);
        match (keyed, key) {
            (true, None) => keyed_unchecked += 1,
            (true, Some(_)) if seal(body, key) != hash => {
                keyed_bad += 1;
                problem("was edited, or the key is wrong: its HMAC does not match".into());
            }
            (false, Some(_)) => problem(
                "is not keyed, but a key was given: written without the key, or rewritten by someone without it"
                    .into(),
            ),
            (false, None) if seal(body, None) != hash => {
                problem("was edited: its content does not match its hash".into());
            }
            _ => {}
        }
        if is_unchained(body) {
            // Sealed but outside the chain: its `prev` was read without the
            // lock, and the next chained line links past it.
            unchained.push(n);
            problem("was written without the lock (\"unchained\": true): its own hash is checked, but the chain does not vouch for it (it could have been inserted) and its `prev` is not checked".into());
            continue;
        }
        if value.get("prev").and_then(Value::as_str) != Some(prev.0) {
            problem(match prev.1 {
                None => "does not start the chain (its `prev` is not the genesis hash): lines were removed from the start, inserted or reordered".into(),
                Some(k) if k + 1 == n => "does not follow the line before it (a line was removed, inserted or reordered)".into(),
                Some(k) => format!("does not follow line {k}, the last intact line before it (a line was removed, inserted or reordered)"),
            });
        }
        prev = (hash, Some(n));
    }
    let mut verdict = Verdict {
        lines: lines.len(),
        head: stated.last().copied().flatten().map(str::to_owned),
        keyed: keyed_lines,
        unchained,
        problems,
    };
    if !verdict.unchained.is_empty() {
        let at: Vec<String> = verdict.unchained.iter().map(ToString::to_string).collect();
        verdict.problems.push(Problem {
            line: None,
            what: format!(
                "{} unchained lines (written while another process held the lock), at lines {}: the chain does not vouch for them",
                verdict.unchained.len(),
                at.join(", ")
            ),
        });
    }
    for e in expects {
        let problem = match e.lines.checked_sub(1).and_then(|i| stated.get(i)) {
            None => Problem {
                line: None,
                what: format!(
                    "has {} lines, but --expect recorded line {} with hash {}: lines were cut from its end, or the log was replaced",
                    verdict.lines, e.lines, e.hash
                ),
            },
            Some(Some(h)) if *h == e.hash => continue,
            Some(h) => Problem {
                line: Some(e.lines),
                what: format!(
                    "has hash {}, not {} as recorded with --expect: the log was rewritten at or before this line",
                    h.unwrap_or("(none: torn)"),
                    e.hash
                ),
            },
        };
        verdict.problems.push(problem);
    }
    if keyed_unchecked > 0 {
        verdict.problems.push(Problem {
            line: None,
            what: format!(
                "{keyed_unchecked} keyed lines (HMAC-SHA256) cannot be verified without the key: pass --key-file with the key they were written with"
            ),
        });
    }
    if key.is_some() && keyed_bad > 0 && keyed_bad == verdict.keyed {
        verdict.problems.push(Problem {
            line: None,
            what: "no keyed line matches the key given: most likely the wrong key file".into(),
        });
    }
    verdict
        .problems
        .sort_by_key(|p| p.line.unwrap_or(usize::MAX));
    verdict
}
