//! "Did you mean …?": the nearest known word to a typo.

/// The candidate closest to `word` by edit distance (case-insensitive), if
/// it is close enough to be a plausible typo.
#[must_use]
pub(crate) fn nearest<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let lower = word.to_lowercase();
    let limit = (word.chars().count() / 3).max(2);
    candidates
        .into_iter()
        .map(|c| (distance(&lower, &c.to_lowercase()), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// Levenshtein distance over chars.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != *cb))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_plausible_typos_only() {
        assert_eq!(
            nearest("PreToolUs", ["PreToolUse", "PostToolUse"]),
            Some("PreToolUse")
        );
        assert_eq!(nearest("pretooluse", ["PreToolUse"]), Some("PreToolUse"));
        assert_eq!(nearest("timout", ["timeout", "name"]), Some("timeout"));
        assert_eq!(nearest("Banana", ["PreToolUse"]), None);
    }
}
