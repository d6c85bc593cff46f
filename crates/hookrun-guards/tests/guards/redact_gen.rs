//! Deterministic strings for the `redact-secrets` tests: secrets are built
//! at run time, never written out.

/// A deterministic pseudo-random string of `n` characters from `alphabet`.
pub(crate) fn chars(alphabet: &str, n: usize, seed: u64) -> String {
    let a: Vec<char> = alphabet.chars().collect();
    let mut x = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
    (0..n)
        .map(|_| {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            a[usize::try_from(x >> 33).unwrap() % a.len()]
        })
        .collect()
}

const ALNUM: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

pub(crate) fn an(n: usize, seed: u64) -> String {
    chars(ALNUM, n, seed)
}
pub(crate) fn upper32(n: usize, seed: u64) -> String {
    chars("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", n, seed)
}
pub(crate) fn hex(n: usize, seed: u64) -> String {
    chars("0123456789abcdef", n, seed)
}
pub(crate) fn b64(n: usize, seed: u64) -> String {
    chars(&format!("{ALNUM}+/"), n, seed)
}
pub(crate) fn digits(n: usize, seed: u64) -> String {
    chars("0123456789", n, seed)
}
pub(crate) fn url(n: usize, seed: u64) -> String {
    chars(&format!("{ALNUM}_-"), n, seed)
}
