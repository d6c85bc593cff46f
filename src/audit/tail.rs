//! The end of a log, as the next append needs it: the hash the chain
//! continues from, and whether the file ends inside a line.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};

use super::line::{GENESIS, is_unchained, split};

/// Where the next line goes.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Tail {
    /// The stated `hash` of the last intact chained line (`GENESIS` when
    /// none is): unchained lines are stepped over.
    pub(super) prev: String,
    /// The file is empty or ends with a newline. When not, the last line was
    /// cut short (a crash, a full disk), and the next line must start with a
    /// newline so that it is never glued onto the torn one.
    pub(super) at_line_start: bool,
}

/// Reads the end of the log, backwards in growing chunks, until it finds an
/// intact line (see `line::split`): torn and foreign lines are stepped over,
/// so one cut-short write does not break the chain for every later line.
pub(super) fn read(file: &mut File) -> std::io::Result<Tail> {
    let len = file.seek(SeekFrom::End(0))?;
    if len == 0 {
        return Ok(Tail {
            prev: GENESIS.to_owned(),
            at_line_start: true,
        });
    }
    let mut tail: Vec<u8> = Vec::new();
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
        let at_line_start = tail.last() == Some(&b'\n');
        // Before the first newline of the chunk may be the end of a longer
        // line: only what follows it is whole, unless the file starts here.
        let whole = if pos == 0 {
            Some(0)
        } else {
            tail.iter().position(|&b| b == b'\n').map(|i| i + 1)
        };
        if let Some(from) = whole {
            let found = tail[from..]
                .split(|&b| b == b'\n')
                .rev()
                .filter_map(split)
                .find(|(body, _)| !is_unchained(body))
                .map(|(_, hash)| hash.to_owned());
            if found.is_some() || pos == 0 {
                return Ok(Tail {
                    prev: found.unwrap_or_else(|| GENESIS.to_owned()),
                    at_line_start,
                });
            }
        }
        chunk = chunk.saturating_mul(2);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn tail_of(bytes: &[u8]) -> Tail {
        let mut f = tempfile::tempfile().unwrap();
        f.write_all(bytes).unwrap();
        read(&mut f).unwrap()
    }

    #[test]
    fn steps_over_torn_and_foreign_lines_to_the_last_intact_one() {
        let a = format!(
            "{{\"n\":1{}{}\"}}",
            super::super::line::HASH_KEY,
            "a".repeat(64)
        );
        let b = format!(
            "{{\"n\":2{}{}\"}}",
            super::super::line::HASH_KEY,
            "b".repeat(64)
        );
        let t = tail_of(format!("{a}\n{b}\n").as_bytes());
        assert_eq!((t.prev, t.at_line_start), ("b".repeat(64), true));
        let t = tail_of(format!("{a}\n{}", &b[..20]).as_bytes());
        assert_eq!((t.prev, t.at_line_start), ("a".repeat(64), false));
        // A long run of junk after the intact line: found across chunks.
        let junk = "x".repeat(10_000);
        let t = tail_of(format!("{a}\n{junk}\n{junk}").as_bytes());
        assert_eq!(t.prev, "a".repeat(64));
        let t = tail_of(junk.as_bytes());
        assert_eq!((t.prev.as_str(), t.at_line_start), (GENESIS, false));
        // An intact last line whose newline never made it still counts.
        let t = tail_of(a.as_bytes());
        assert_eq!((t.prev, t.at_line_start), ("a".repeat(64), false));
    }
}
