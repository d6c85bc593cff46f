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

/// Reads `stream` to end-of-file into `out`, keeping at most `cap` bytes.
/// Writing into a caller-owned buffer means that what was read is kept even
/// when the read is abandoned (a pipe held open by an escaped process).
pub async fn capture(mut stream: impl AsyncRead + Unpin, cap: usize, out: &mut Captured) {
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = match stream.read(&mut buf).await {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        let room = cap.saturating_sub(out.bytes.len());
        let keep = n.min(room);
        out.bytes.extend_from_slice(&buf[..keep]);
        out.dropped += (n - keep) as u64;
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
}
