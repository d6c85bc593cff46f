//! Splitting a stream of events (one per line, `serve`) into lines with a
//! size cap that holds while reading: a line over the cap is dropped as it
//! arrives, so a caller sending a huge line costs about the cap in memory,
//! not the line's length.
//!
//! The splitter is fed chunks and never reads by itself: the same code
//! serves tokio's reader in `serve`, plain readers in tests and the fuzzer.

/// One line of the stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// The line's bytes, without its `\n` (nor a `\r` before it). Not
    /// checked for UTF-8: a bad byte is the event parser's error to report.
    Complete(Vec<u8>),
    /// The line was longer than the cap; its bytes were discarded.
    TooLarge,
}

/// Cuts chunks of a stream into [`Line`]s, holding at most `cap` bytes of
/// the current line.
#[derive(Debug)]
pub(crate) struct LineSplitter {
    cap: usize,
    line: Vec<u8>,
    over: bool,
}

impl LineSplitter {
    /// A splitter whose lines (without their newline) hold at most `cap`
    /// bytes.
    #[must_use]
    pub(crate) fn new(cap: usize) -> Self {
        LineSplitter {
            cap,
            line: Vec::new(),
            over: false,
        }
    }

    /// Changes the cap for the lines still to come (a reloaded config may
    /// raise or lower it).
    pub(crate) fn set_cap(&mut self, cap: usize) {
        self.cap = cap;
    }

    /// Takes bytes of `chunk` up to and including the first newline: returns
    /// how many it took and, when a newline ended a line, that line. The
    /// caller feeds the rest of the chunk again.
    pub(crate) fn feed(&mut self, chunk: &[u8]) -> (usize, Option<Line>) {
        let newline = chunk.iter().position(|&b| b == b'\n');
        let piece = &chunk[..newline.unwrap_or(chunk.len())];
        if !self.over {
            let needed = self.line.len().saturating_add(piece.len());
            if needed > self.cap {
                // Dropped now, not at the newline: memory stays at the cap.
                self.over = true;
                self.line = Vec::new();
            } else {
                if needed > self.line.capacity() {
                    // Doubling, but never past the cap: a line near the cap
                    // must not reserve twice the cap.
                    let target = needed.max(self.line.capacity() * 2).min(self.cap);
                    self.line.reserve_exact(target - self.line.len());
                }
                self.line.extend_from_slice(piece);
            }
        }
        match newline {
            Some(i) => (i + 1, Some(self.take())),
            None => (chunk.len(), None),
        }
    }

    /// The stream ended: the last line when it had no newline.
    pub(crate) fn finish(&mut self) -> Option<Line> {
        (self.over || !self.line.is_empty()).then(|| self.take())
    }

    fn take(&mut self) -> Line {
        let line = std::mem::take(&mut self.line);
        if std::mem::take(&mut self.over) {
            return Line::TooLarge;
        }
        let mut line = line;
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        Line::Complete(line)
    }
}

/// Splits a whole input fed in chunks of `chunk` bytes: what a reader of
/// that buffer size gets. For tests and the fuzzer.
#[must_use]
pub fn split_all(input: &[u8], cap: usize, chunk: usize) -> Vec<Line> {
    let mut splitter = LineSplitter::new(cap);
    let mut lines = Vec::new();
    for mut piece in input.chunks(chunk.max(1)) {
        while !piece.is_empty() {
            let (used, line) = splitter.feed(piece);
            lines.extend(line);
            piece = &piece[used..];
        }
    }
    lines.extend(splitter.finish());
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// What the splitter must give: the naive split of the whole input.
    fn naive(input: &[u8], cap: usize) -> Vec<Line> {
        let mut parts: Vec<&[u8]> = input.split(|&b| b == b'\n').collect();
        if parts.last().is_some_and(|p| p.is_empty()) {
            parts.pop();
        }
        parts
            .into_iter()
            .map(|p| {
                if p.len() > cap {
                    Line::TooLarge
                } else {
                    Line::Complete(p.strip_suffix(b"\r").unwrap_or(p).to_vec())
                }
            })
            .collect()
    }

    #[test]
    fn over_long_lines_are_dropped_and_the_next_line_is_whole() {
        let mut input = vec![b'x'; 100];
        input.extend_from_slice(b"\n{}\r\nab");
        assert_eq!(
            split_all(&input, 10, 7),
            vec![
                Line::TooLarge,
                Line::Complete(b"{}".to_vec()),
                Line::Complete(b"ab".to_vec())
            ]
        );
    }

    #[test]
    fn memory_stays_at_the_cap_however_long_the_line() {
        let mut s = LineSplitter::new(1024);
        let chunk = vec![b'a'; 8192];
        for _ in 0..1000 {
            assert_eq!(s.feed(&chunk), (chunk.len(), None));
            assert!(s.line.capacity() <= 1024);
        }
        assert_eq!(s.feed(b"\n"), (1, Some(Line::TooLarge)));
    }

    proptest! {
        #[test]
        fn chunking_never_changes_the_lines(
            input in proptest::collection::vec(prop_oneof![Just(b'\n'), Just(b'\r'), Just(0xff), any::<u8>()], 0..200),
            cap in 0usize..40,
            chunk in 1usize..50,
        ) {
            prop_assert_eq!(split_all(&input, cap, chunk), naive(&input, cap));
        }
    }
}
