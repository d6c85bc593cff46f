//! R source as tokens: strings in every quoting R allows (`'…'`, `"…"`
//! with their escapes decoded, raw strings `r"(…)"`, `R"-[…]-"`), names
//! (backquoted ones too), numbers, operators and brackets; comments are
//! dropped. One pass over the bytes: every step consumes at least one, so
//! any input, however broken, costs its length.

/// One token of R source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Tok {
    /// A string literal, escapes decoded.
    Str(String),
    /// A name (`system`, `.x`, `` `odd name` ``, `TRUE`, `function`).
    Name(String),
    /// A number as written.
    Num(String),
    /// An operator (`<-`, `::`, `|>`, `%>%`, `=`, `$`, `+`, …); an
    /// operator of R's `%…%` family other than the pipes is `%%`.
    Op(&'static str),
    /// `(`, `[` or `{`.
    Open(u8),
    /// `)`, `]` or `}`.
    Close(u8),
    Comma,
    /// A newline or `;`: where a statement may end.
    End,
}

/// Operators, longest first (one character ones after the longer ones
/// they start).
const OPS: &[&str] = &[
    "<<-", "->>", ":::", "<-", "->", "|>", "::", "==", "!=", "<=", ">=", "&&", "||", ":=", "+",
    "-", "*", "/", "^", "<", ">", "!", "&", "|", "~", "?", ":", "=", "$", "@", "\\",
];

/// The tokens of `code`, one at a time (nothing of the code is copied
/// but names, numbers and strings).
pub(super) fn tokens(code: &str) -> Tokens<'_> {
    Tokens { code, i: 0 }
}

/// The tokens still to read in `code` from byte `i`.
pub(super) struct Tokens<'a> {
    code: &'a str,
    i: usize,
}

impl Iterator for Tokens<'_> {
    type Item = Tok;

    fn next(&mut self) -> Option<Tok> {
        let code = self.code;
        let b = code.as_bytes();
        loop {
            let i = self.i;
            let c = *b.get(i)?;
            let (tok, end) = match c {
                b' ' | b'\t' | b'\r' | 0x0c => {
                    self.i += 1;
                    continue;
                }
                b'#' => {
                    self.i = b[i..]
                        .iter()
                        .position(|&x| x == b'\n')
                        .map_or(b.len(), |n| i + n);
                    continue;
                }
                b'\n' | b';' => (Tok::End, i + 1),
                b'(' | b'[' | b'{' => (Tok::Open(c), i + 1),
                b')' | b']' | b'}' => (Tok::Close(c), i + 1),
                b',' => (Tok::Comma, i + 1),
                b'"' | b'\'' => {
                    let (text, end) = quoted(b, i + 1, c);
                    (Tok::Str(text), end)
                }
                b'`' => {
                    let (text, end) = quoted(b, i + 1, c);
                    (Tok::Name(text), end)
                }
                b'r' | b'R' if matches!(b.get(i + 1), Some(b'"' | b'\'')) => {
                    match raw(code, i + 1) {
                        Some((text, end)) => (Tok::Str(text), end),
                        None => (Tok::Name(char::from(c).to_string()), i + 1),
                    }
                }
                b'0'..=b'9' => number(b, i),
                b'.' if b.get(i + 1).is_some_and(u8::is_ascii_digit) => number(b, i),
                b'%' => {
                    let len = b[i + 1..]
                        .iter()
                        .position(|&x| x == b'%' || x == b'\n')
                        .filter(|&n| b.get(i + 1 + n) == Some(&b'%'));
                    let end = len.map_or(i + 1, |n| i + n + 2);
                    let op = match b.get(i..end) {
                        Some(b"%>%") => "%>%",
                        Some(b"%T>%") => "%T>%",
                        _ => "%%",
                    };
                    (Tok::Op(op), end)
                }
                _ if c == b'.' || c == b'_' || c.is_ascii_alphabetic() || c >= 0x80 => {
                    let end = name_end(code, i);
                    (Tok::Name(text(b, i, end)), end)
                }
                _ => match OPS.iter().find(|op| b[i..].starts_with(op.as_bytes())) {
                    Some(op) => (Tok::Op(op), i + op.len()),
                    // Any other byte: an operator R does not have.
                    None => (Tok::Op("?"), i + 1),
                },
            };
            self.i = end.max(i + 1);
            return Some(tok);
        }
    }
}

/// The text of `b[from..to]` (cut on bytes; a cut through a character
/// keeps what decodes).
fn text(b: &[u8], from: usize, to: usize) -> String {
    String::from_utf8_lossy(b.get(from..to.min(b.len())).unwrap_or_default()).into_owned()
}

/// Where a name starting at `at` ends: letters (any script), digits, `.`
/// and `_`; at least one character.
fn name_end(code: &str, at: usize) -> usize {
    let rest = code.get(at..).unwrap_or_default();
    let len = rest
        .char_indices()
        .find(|&(_, ch)| !(ch.is_alphanumeric() || ch == '.' || ch == '_'))
        .map_or(rest.len(), |(n, _)| n);
    if len == 0 {
        // A byte that starts no character here (inside a multibyte one).
        at + rest.chars().next().map_or(1, char::len_utf8)
    } else {
        at + len
    }
}

/// A number from `at`: digits, letters (`0x1F`, `1e5`, `2L`, `3i`), dots,
/// and a sign right after an exponent; and where it ends.
fn number(b: &[u8], at: usize) -> (Tok, usize) {
    let mut i = at;
    while let Some(&c) = b.get(i) {
        let signed = matches!(c, b'+' | b'-') && i > at && matches!(b[i - 1], b'e' | b'E');
        if c.is_ascii_alphanumeric() || c == b'.' || c == b'_' || signed {
            i += 1;
        } else {
            break;
        }
    }
    (Tok::Num(text(b, at, i)), i)
}

/// A quoted string from `at` (just after the opening quote) to its closing
/// `quote`, escapes decoded as R decodes them; an unterminated string runs
/// to the end. Returns the text and where the token ends.
fn quoted(b: &[u8], at: usize, quote: u8) -> (String, usize) {
    let mut out: Vec<u8> = Vec::new();
    let mut i = at;
    while let Some(&c) = b.get(i) {
        i += 1;
        if c == quote {
            return (String::from_utf8_lossy(&out).into_owned(), i);
        }
        if c != b'\\' {
            out.push(c);
            continue;
        }
        let Some(&e) = b.get(i) else { break };
        i += 1;
        let simple = match e {
            b'n' => Some(b'\n'),
            b't' => Some(b'\t'),
            b'r' => Some(b'\r'),
            b'a' => Some(7),
            b'b' => Some(8),
            b'f' => Some(12),
            b'v' => Some(11),
            b'0'..=b'7' | b'x' | b'u' | b'U' => None,
            other => Some(other),
        };
        if let Some(s) = simple {
            out.push(s);
            continue;
        }
        let (radix, max, start) = match e {
            b'x' => (16, 2, i),
            b'u' => (16, 4, i),
            b'U' => (16, 8, i),
            _ => (8, 3, i - 1),
        };
        let braced = matches!(e, b'u' | b'U') && b.get(start) == Some(&b'{');
        let from = start + usize::from(braced);
        let len = b[from.min(b.len())..]
            .iter()
            .take(max)
            .take_while(|d| char::from(**d).is_digit(radix))
            .count();
        let digits = text(b, from, from + len);
        i = from + len + usize::from(braced && b.get(from + len) == Some(&b'}'));
        let ch = u32::from_str_radix(&digits, radix)
            .ok()
            .and_then(char::from_u32)
            .filter(|&ch| ch != '\0');
        if let Some(ch) = ch {
            let mut buf = [0; 4];
            out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
        }
    }
    (String::from_utf8_lossy(&out).into_owned(), b.len())
}

/// A raw string from its opening quote at `at`: `r"(…)"`, `r"[…]"`,
/// `r"{…}"`, with any number of dashes between the quote and the bracket
/// (`r"--(…)--"`). `None` when what follows is not one.
fn raw(code: &str, at: usize) -> Option<(String, usize)> {
    let b = code.as_bytes();
    let quote = *b.get(at)?;
    let dashes = b[at + 1..].iter().take_while(|&&c| c == b'-').count();
    let open = *b.get(at + 1 + dashes)?;
    let close = match open {
        b'(' => b')',
        b'[' => b']',
        b'{' => b'}',
        _ => return None,
    };
    let end_mark = format!(
        "{}{}{}",
        char::from(close),
        "-".repeat(dashes),
        char::from(quote)
    );
    let body = at + 2 + dashes;
    // The body starts after ASCII: a character boundary. `str::find` is
    // linear whatever the mark's length.
    let rest = code.get(body..)?;
    match rest.find(&end_mark) {
        Some(n) => Some((text(b, body, body + n), body + n + end_mark.len())),
        None => Some((text(b, body, b.len()), b.len())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strs(code: &str) -> Vec<String> {
        tokens(code)
            .filter_map(|t| match t {
                Tok::Str(s) => Some(s),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn strings_in_every_quoting() {
        assert_eq!(
            strs(r#"a('x', "y\"z", r"(rm -rf /)", R'-[a]-', r"{b}")"#),
            ["x", "y\"z", "rm -rf /", "a", "b"]
        );
        assert_eq!(strs(r#""\x72m \057 \u{7E} \U0041\n""#), ["rm / ~ A\n"]);
        assert_eq!(strs("'unterminated"), ["unterminated"]);
        assert_eq!(strs(r#"r"(never closed"#), ["never closed"]);
    }

    #[test]
    fn comments_names_and_operators() {
        let t: Vec<Tok> =
            tokens("base::system (`x y`) # rm -rf /\nx <- 1e-3 %>% f %in% g").collect();
        assert_eq!(
            t,
            [
                Tok::Name("base".into()),
                Tok::Op("::"),
                Tok::Name("system".into()),
                Tok::Open(b'('),
                Tok::Name("x y".into()),
                Tok::Close(b')'),
                Tok::End,
                Tok::Name("x".into()),
                Tok::Op("<-"),
                Tok::Num("1e-3".into()),
                Tok::Op("%>%"),
                Tok::Name("f".into()),
                Tok::Op("%%"),
                Tok::Name("g".into()),
            ]
        );
    }

    #[test]
    fn junk_is_read_without_panic() {
        for junk in [
            "\\",
            "\"\\",
            "\"\\x",
            "\"\\u{",
            "r\"-",
            "%",
            "`",
            "é\u{0}\u{ffff}",
            "r'(",
            "1e",
        ] {
            let _ = tokens(junk).count();
        }
    }
}
