//! Text as one word for `/bin/sh`: the one quoting every writer of shell
//! command lines uses (config placeholders, `install`, `convert`, the
//! guard's reading of argument lists), so that what one writes another
//! reads back unchanged. A leaf: it imports nothing of the crate.

/// `text` as one shell word: as it is when every character is inert, in
/// single quotes otherwise.
#[must_use]
pub fn word(text: &str) -> String {
    let inert = |c: char| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c);
    if !text.is_empty() && text.chars().all(inert) {
        text.to_owned()
    } else {
        quoted(text)
    }
}

/// `text` in single quotes, whatever it holds (`it's` is `'it'\''s'`).
#[must_use]
pub fn quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_quoted_only_when_needed() {
        assert_eq!(word("/usr/bin/x"), "/usr/bin/x");
        assert_eq!(word("a b"), "'a b'");
        assert_eq!(word(""), "''");
        assert_eq!(word("it's"), r"'it'\''s'");
        assert_eq!(quoted("rm"), "'rm'");
    }
}
