//! `$IFS` between words: an unquoted `$IFS`, `${IFS}` or `${IFS:0:1}`
//! expands to the separator characters and the expansion is split into
//! fields, so `rm${IFS}-rf${IFS}/` runs `rm -rf /`. Quoted (`"a${IFS}b"`)
//! it stays inside one word. The lexer records where such expansions sit
//! in a word; the grammar splits the word there.

/// How many bytes an unquoted `$IFS` expansion takes at the start of
/// `rest` (which starts with `$`), or `None` when there is none: `$IFS`
/// not followed by a name character, `${IFS}`, or `${IFS` with an
/// operator (`:0:1`, `:-x`, `%?`) up to its `}`.
pub(super) fn ifs_len(rest: &[u8]) -> Option<usize> {
    let name_char = |c: &u8| c.is_ascii_alphanumeric() || *c == b'_';
    if let Some(after) = rest.strip_prefix(b"$IFS") {
        return (!after.first().is_some_and(name_char)).then_some(4);
    }
    let after = rest.strip_prefix(b"${IFS")?;
    match after.first()? {
        b'}' => Some(6),
        c if name_char(c) => None,
        _ => after.iter().position(|&c| c == b'}').map(|end| 5 + end + 1),
    }
}

/// The fields of `text` split at the `(start, end)` ranges of `$IFS`
/// expansions: empty fields disappear, as the shell drops them when IFS
/// is blanks. Lazily: a word of a million fields is not copied whole.
pub(super) fn split<'t>(text: &'t str, at: &'t [(u32, u32)]) -> impl Iterator<Item = &'t str> + 't {
    let starts = std::iter::once(0).chain(at.iter().map(|&(_, end)| end as usize));
    let ends = at
        .iter()
        .map(|&(start, _)| start as usize)
        .chain(std::iter::once(text.len()));
    starts
        .zip(ends)
        .map(|(from, to)| text.get(from..to).unwrap_or(""))
        .filter(|f| !f.is_empty())
}

/// Whether `text` starts as an assignment (`NAME=`): the shell does not
/// split the value of an assignment, so `x=a${IFS}b` stays one word.
pub(super) fn is_assignment(text: &str) -> bool {
    text.split_once('=').is_some_and(|(name, _)| {
        name.bytes()
            .enumerate()
            .all(|(i, c)| c == b'_' || c.is_ascii_alphabetic() || (i > 0 && c.is_ascii_digit()))
            && !name.is_empty()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expansions_of_ifs() {
        assert_eq!(ifs_len(b"$IFS-rf"), Some(4));
        assert_eq!(ifs_len(b"$IFSX"), None);
        assert_eq!(ifs_len(b"${IFS}x"), Some(6));
        assert_eq!(ifs_len(b"${IFS:0:1}x"), Some(10));
        assert_eq!(ifs_len(b"${IFSX}"), None);
        assert_eq!(ifs_len(b"${IFS:0"), None);
        assert_eq!(ifs_len(b"$HOME"), None);
    }

    #[test]
    fn fields_drop_empty_ones() {
        let fields = |text, at| split(text, at).collect::<Vec<_>>();
        assert_eq!(fields("rm$IFS$IFS-rf", &[(2, 6), (6, 10)]), ["rm", "-rf"]);
        assert_eq!(fields("$IFSrm", &[(0, 4)]), ["rm"]);
    }

    #[test]
    fn assignments() {
        assert!(is_assignment("x=a"));
        assert!(!is_assignment("rm"));
        assert!(!is_assignment("1x=a"));
        assert!(!is_assignment("=a"));
    }
}
