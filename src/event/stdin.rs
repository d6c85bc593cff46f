//! Reading the event's bytes from stdin: capped in size, and bounded in time
//! for a caller that never closes stdin.

use std::io::Read;

use crate::error::Error;

/// Whether input of these bytes is within the cap: the cap counts the
/// event, not the one newline that ends it. Agents end the event they write
/// with a newline, and `serve` counts a line without its newline
/// (`LineSplitter`), so an event of exactly `cap` bytes is accepted by both,
/// with or without it. A `\r` before the newline counts, in both.
fn within_cap(buf: &[u8], cap: usize) -> bool {
    buf.len() <= cap || (buf.len() == cap.saturating_add(1) && buf.last() == Some(&b'\n'))
}

/// Reads all of stdin, refusing more than `cap` bytes (and a final newline:
/// [`within_cap`]).
///
/// # Errors
/// An I/O error, or input over the cap.
pub(crate) fn read_capped(reader: impl Read, cap: usize) -> Result<Vec<u8>, Error> {
    let mut buf = Vec::new();
    let limit = u64::try_from(cap).unwrap_or(u64::MAX).saturating_add(2);
    reader
        .take(limit)
        .read_to_end(&mut buf)
        .map_err(Error::Stdin)?;
    if !within_cap(&buf, cap) {
        return Err(too_large(cap));
    }
    Ok(buf)
}

/// Reads stdin like [`read_capped`], but gives up when the caller has not
/// closed it within `timeout`: a caller that never closes stdin must not
/// hang a hook runner.
///
/// Waits on the calling thread (`os::wait_stdin_readable`) rather than
/// reading on a helper thread: starting a thread was a measurable share of
/// `hookrun run`'s own cost per event.
///
/// # Errors
/// As [`read_capped`], or the timeout.
pub(crate) fn read_stdin(cap: usize, timeout: std::time::Duration) -> Result<Vec<u8>, Error> {
    /// The smallest read: std's stdin buffer size, so that reads bypass
    /// that buffer and the wait never sleeps while bytes sit in it.
    const MIN_READ: usize = 8 * 1024;
    /// The largest read: the buffer is zeroed ahead of each read, and what
    /// the read does not fill still counts in hookrun's memory.
    const MAX_READ: usize = 1024 * 1024;
    let deadline = std::time::Instant::now() + timeout;
    let mut input = std::io::stdin().lock();
    // The cap, a final newline ([`within_cap`]) and one byte to tell more.
    let limit = cap.saturating_add(2);
    let mut buf = Vec::new();
    let mut filled = 0;
    while filled < limit {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        if left.is_zero() || !crate::os::wait_stdin_readable(left).map_err(Error::Stdin)? {
            return Err(Error::Event(format!(
                "stdin was not closed within {}; the caller must send one event and close stdin (raise `--stdin-timeout`)",
                crate::wording::fmt_secs(timeout.as_secs_f64())
            )));
        }
        // Reads grow with what has arrived: a small event zeroes a few KiB,
        // a large one takes few reads.
        if buf.len() - filled < MIN_READ {
            let grown = filled + filled.clamp(MIN_READ, MAX_READ);
            buf.resize(grown.min(limit), 0);
        }
        match input.read(&mut buf[filled..]) {
            Ok(0) => {
                buf.truncate(filled);
                if !within_cap(&buf, cap) {
                    return Err(too_large(cap));
                }
                return Ok(buf);
            }
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(Error::Stdin(e)),
        }
    }
    Err(too_large(cap))
}

/// The error for an event over the cap of `cap` bytes, however it was read.
#[must_use]
pub(crate) fn too_large(cap: usize) -> Error {
    Error::Event(format!(
        "the event is larger than the limit of {cap} bytes (raise `limits.max_event_bytes` or `--max-event-bytes`)"
    ))
}
