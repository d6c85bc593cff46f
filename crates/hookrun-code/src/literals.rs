//! The string literals of a program in another language (Python, Perl,
//! Ruby, JavaScript, awk…), with the code around each: enough to tell
//! which ones are handed to a shell or a delete call. Quotes are `'`, `"`
//! and `` ` ``; a backslash escapes the next character. The scan works on
//! bytes (every quote is ASCII) and borrows the code between literals, so
//! a long program costs one pass and about its own size.

/// One literal and where it sits.
pub struct Literal<'a> {
    /// Its quote: `'`, `"` or `` ` ``.
    pub quote: u8,
    /// Its text, escapes removed.
    pub text: String,
    /// The code since the previous literal (or the start).
    pub before: &'a str,
    /// The code up to the next literal (or the end).
    pub after: &'a str,
}

/// Every literal of `code`, in order. An unterminated one runs to the end.
pub fn literals(code: &str) -> Vec<Literal<'_>> {
    let bytes = code.as_bytes();
    // (open quote, end after the close quote, text)
    let mut spans: Vec<(usize, usize, u8, String)> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let quote = bytes[i];
        if !matches!(quote, b'\'' | b'"' | b'`') {
            i += 1;
            continue;
        }
        let open = i;
        let mut text = Vec::new();
        i += 1;
        while let Some(&b) = bytes.get(i) {
            i += 1;
            if b == b'\\' {
                if let Some(&next) = bytes.get(i) {
                    text.push(next);
                    i += 1;
                }
            } else if b == quote {
                break;
            } else {
                text.push(b);
            }
        }
        let text = String::from_utf8_lossy(&text).into_owned();
        spans.push((open, i.min(bytes.len()), quote, text));
    }
    // Slices start and end at quotes (ASCII) or the ends of `code`: always
    // on character boundaries.
    let slice = |from: usize, to: usize| code.get(from..to.max(from)).unwrap_or_default();
    let mut out = Vec::with_capacity(spans.len());
    for k in 0..spans.len() {
        let prev_end = k.checked_sub(1).map_or(0, |p| spans[p].1);
        let next_open = spans.get(k + 1).map_or(bytes.len(), |n| n.0);
        let (open, end, quote, text) = std::mem::take(&mut spans[k]);
        out.push(Literal {
            quote,
            text,
            before: slice(prev_end, open),
            after: slice(end, next_open),
        });
        // `take` left the span's positions zeroed: the next literal's
        // `before` needs this one's end.
        spans[k].1 = end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_with_the_code_around_them() {
        let lits = literals(r#"os.system('rm -rf /'); x = "a\"b" + `c`"#);
        let texts: Vec<&str> = lits.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(texts, ["rm -rf /", "a\"b", "c"]);
        assert_eq!(lits[0].before, "os.system(");
        assert_eq!(lits[0].after, "); x = ");
        assert_eq!(lits[1].before, "); x = ");
        assert_eq!(lits[2].quote, b'`');
        assert_eq!(lits[2].after, "");
    }

    #[test]
    fn unterminated_and_multibyte_text_is_read_without_panic() {
        let lits = literals("print('héllo\\é) «x»");
        assert_eq!(lits.len(), 1);
        assert!(lits[0].text.starts_with("héllo"));
        assert!(literals("'").first().is_some_and(|l| l.text.is_empty()));
    }
}
