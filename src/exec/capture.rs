//! Bounded capture of a hook's stdout or stderr.
//!
//! The first `cap` bytes are kept; the rest is read and dropped, so a hook
//! that prints 50 MiB neither blocks on a full pipe nor grows hookrun's
//! memory. The count of dropped bytes is reported as truncation.

use tokio::io::{AsyncRead, AsyncReadExt};

/// What was read from one stream.
#[derive(Debug, Default, Clone)]
pub struct Captured {
    pub bytes: Vec<u8>,
    /// Bytes read past the cap and dropped.
    pub dropped: u64,
}

/// The most one read asks for: a Linux pipe's default capacity.
const CHUNK: usize = 64 * 1024;

/// Reads `stream` to end-of-file into `out`, keeping at most `cap` bytes.
/// Writing into a caller-owned buffer means that what was read is kept even
/// when the read is abandoned (a pipe held open by an escaped process).
///
/// Kept bytes are read straight into `out`'s spare capacity, which is never
/// zeroed: a hook that prints little (the common case) touches no more
/// memory than it printed, where a zeroed 64 KiB scratch buffer per stream
/// cost every hook 32 page faults. Past the cap, a scratch buffer, made on
/// first need, takes what is dropped.
pub(super) async fn capture(mut stream: impl AsyncRead + Unpin, cap: usize, out: &mut Captured) {
    let mut scratch = Vec::new();
    loop {
        let room = cap.saturating_sub(out.bytes.len());
        let read = if room > 0 {
            out.bytes.reserve(room.min(CHUNK));
            let limit = u64::try_from(room).unwrap_or(u64::MAX);
            (&mut stream).take(limit).read_buf(&mut out.bytes).await
        } else {
            if scratch.is_empty() {
                scratch = vec![0u8; CHUNK];
            }
            stream.read(&mut scratch).await
        };
        match read {
            Ok(0) => break,
            Ok(n) if room == 0 => out.dropped += n as u64,
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn keeps_the_head_and_counts_the_rest() {
        let data = vec![7u8; 200_000];
        let mut got = Captured::default();
        capture(&data[..], 1000, &mut got).await;
        assert_eq!(got.bytes.len(), 1000);
        assert_eq!(got.dropped, 199_000);
    }

    #[tokio::test]
    async fn the_cap_splits_the_stream_exactly() {
        let data: Vec<u8> = (0..=255u8).cycle().take(150_000).collect();
        for (cap, kept) in [
            (0, 0),
            (1, 1),
            (65_536, 65_536),
            (150_000, 150_000),
            (1 << 20, 150_000),
        ] {
            let mut got = Captured::default();
            capture(&data[..], cap, &mut got).await;
            assert_eq!(got.bytes, data[..kept], "cap {cap}");
            assert_eq!(got.dropped, (150_000 - kept) as u64, "cap {cap}");
        }
    }
}
