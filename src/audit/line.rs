//! One audit line's seal: how its `hash` is computed (plain SHA-256, or
//! HMAC-SHA256 with a secret key) and how an intact line is told apart from
//! a torn one. The writer and the verifier share these functions, so they
//! cannot disagree on which line the chain continues from.

use std::path::Path;

use hmac::{Hmac, KeyInit, Mac};
use sha2::{Digest, Sha256};

/// `prev` of the first line.
pub(crate) const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// What precedes the hash at the end of every line.
pub(super) const HASH_KEY: &str = ",\"hash\":\"";

/// The field a keyed line carries (`"keyed":true`), so that a verifier
/// without the key can say it needs one instead of calling every line
/// edited.
pub(crate) const KEYED_FIELD: &str = "keyed";

/// The field of a line written without the lock (`"unchained":true`, just
/// before `prev`): outside the hash chain, see [`is_unchained`].
pub(crate) const UNCHAINED_FIELD: &str = "unchained";

/// Whether an intact line's body (as `split` gives it) is unchained: its
/// last keys are `"unchained":true,"prev":"<64 hex>"`. Writers step over
/// such lines when they look for the hash to chain from, and `verify` does
/// not link them, so both agree on where the chain goes.
#[must_use]
pub(super) fn is_unchained(body: &[u8]) -> bool {
    let mark = format!("\"{UNCHAINED_FIELD}\":true,\"prev\":\"");
    body.len()
        .checked_sub(GENESIS.len() + 1)
        .is_some_and(|at| body[..at].ends_with(mark.as_bytes()))
}

/// Shortest key accepted: a guessable key would make the HMAC no better
/// than the plain hash.
const MIN_KEY_BYTES: usize = 16;

/// The secret of a keyed chain, ready to seal lines. Its bytes are never
/// printed.
#[derive(Clone)]
pub(crate) struct Key(Hmac<Sha256>);

impl std::fmt::Debug for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Key(..)")
    }
}

impl Key {
    /// Reads a key file: its bytes, less one trailing newline so that
    /// `openssl rand -hex 32 > FILE` and an editor's saved file give the
    /// same key.
    ///
    /// # Errors
    /// The file cannot be read, or holds fewer than 16 bytes.
    pub(crate) fn read(path: &Path) -> Result<Key, String> {
        let mut bytes = std::fs::read(path)
            .map_err(|e| format!("cannot read audit key file `{}`: {e}", path.display()))?;
        if bytes.ends_with(b"\n") {
            bytes.pop();
            if bytes.ends_with(b"\r") {
                bytes.pop();
            }
        }
        Key::from_bytes(&bytes).map_err(|why| format!("audit key file `{}` {why}", path.display()))
    }

    /// A key from its bytes.
    ///
    /// # Errors
    /// Fewer than 16 bytes.
    pub(crate) fn from_bytes(bytes: &[u8]) -> Result<Key, String> {
        if bytes.len() < MIN_KEY_BYTES {
            return Err(format!(
                "holds {} bytes; a key needs at least {MIN_KEY_BYTES} (e.g. `openssl rand -hex 32 > FILE`)",
                bytes.len()
            ));
        }
        <Hmac<Sha256> as KeyInit>::new_from_slice(bytes)
            .map(Key)
            .map_err(|e| format!("cannot be used as an HMAC key: {e}"))
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The hash of a line's body: HMAC-SHA256 under `key`, SHA-256 without.
#[must_use]
pub(super) fn seal(body: &[u8], key: Option<&Key>) -> String {
    match key {
        None => hex(&Sha256::digest(body)),
        Some(Key(mac)) => {
            let mut mac = mac.clone();
            mac.update(body);
            hex(&mac.finalize().into_bytes())
        }
    }
}

/// An intact line's body (its bytes up to `,"hash":`) and stated hash; `None`
/// for a torn or foreign line. Intact means the line ends with the `hash`
/// key, 64 lowercase hex digits and `"}`, which a write cut short at any
/// byte cannot produce; it says nothing yet about whether the hash matches.
#[must_use]
pub(super) fn split(line: &[u8]) -> Option<(&[u8], &str)> {
    let rest = line.strip_suffix(b"\"}")?;
    let at = rest.len().checked_sub(HASH_KEY.len() + GENESIS.len())?;
    let (body, tail) = rest.split_at(at);
    let hash = tail.strip_prefix(HASH_KEY.as_bytes())?;
    if !hash
        .iter()
        .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(b))
    {
        return None;
    }
    Some((body, std::str::from_utf8(hash).ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_whole_line_is_intact() {
        let body = br#"{"n":1,"prev":"0"#;
        let line = format!(
            "{}{HASH_KEY}{}\"}}",
            String::from_utf8_lossy(body),
            seal(body, None)
        );
        assert!(split(line.as_bytes()).is_some());
        for cut in 0..line.len() {
            assert!(split(&line.as_bytes()[..cut]).is_none(), "cut at {cut}");
        }
    }

    #[test]
    fn a_keyed_seal_depends_on_the_key() {
        let a = Key::from_bytes(b"0123456789abcdef").unwrap();
        let b = Key::from_bytes(b"0123456789abcdeF").unwrap();
        assert!(Key::from_bytes(b"short").is_err());
        assert_ne!(seal(b"x", Some(&a)), seal(b"x", Some(&b)));
        assert_ne!(seal(b"x", Some(&a)), seal(b"x", None));
        assert_eq!(seal(b"x", Some(&a)).len(), 64);
    }
}
