//! Tokens of a command line: words (quotes removed, substitutions kept as
//! text and as bodies), operators and redirections. Works on bytes: every
//! character the shell treats specially is ASCII, so a word is split only
//! at ASCII bytes and multibyte characters pass through whole.

use super::fields;
use super::quote;

/// How deep `$(…)` inside `$(…)` is followed while lexing; deeper text is
/// skipped to its end with a flat scan and the parse reports it as too
/// deep. A bound on recursion, so no input can overflow the stack.
pub const MAX_SUBSTITUTION_DEPTH: usize = 16;

/// Reads the inside of a substitution up to the `)` that closes it
/// (consumed) and returns where the body ends: the grammar's, handed in
/// so that `case x in a) …` inside `$(…)` is read as the shell reads it.
pub(super) type Nested = fn(&mut Lexer<'_>) -> usize;

/// A word as the shell reads it.
#[derive(Debug, Default)]
pub(super) struct Word {
    /// Quotes and escapes removed; substitutions kept as written (`$(…)`).
    pub text: String,
    /// Bodies of the substitutions in the word.
    pub subs: Vec<String>,
    /// Whether any part was quoted or escaped: `'if'` and `\if` are not
    /// reserved words.
    pub quoted: bool,
    /// Where unquoted `$IFS` expansions sit in `text` (`fields.rs`): the
    /// word is split there into several.
    /// Offsets fit in `u32`: the guards read at most 16 MiB.
    pub splits: Vec<(u32, u32)>,
}

/// What ends a pipeline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Sep {
    /// `;`.
    List,
    /// `&`.
    Background,
    Newline,
    /// `&&` or `||`.
    AndOr,
}

#[derive(Debug)]
pub(super) enum Token {
    Word(Word),
    Sep(Sep),
    Pipe,
    LParen,
    RParen,
    /// `;;`, `;&` or `;;&`: the end of a `case` branch.
    CaseEnd,
    Redirect(String),
}

pub(super) struct Lexer<'a> {
    text: &'a str,
    src: &'a [u8],
    pub(super) i: usize,
    /// Where the here-doc bodies of the current line end: the lexer jumps
    /// there at the line's newline.
    pub(super) after_bodies: Option<usize>,
    /// How many substitutions enclose the current position. Inside one,
    /// the lexer only looks for its end (the body is kept as text and
    /// parsed again when a guard looks into it), so nothing is copied.
    pub(super) level: usize,
    pub(super) nesting: usize,
    pub(super) steps: u64,
    pub(super) nested: Nested,
    /// How many `$((…))` enclose the text this lexer reads.
    pub(super) arithmetic: usize,
}

impl<'a> Lexer<'a> {
    pub(super) fn new(text: &'a str, nested: Nested) -> Self {
        Lexer {
            text,
            src: text.as_bytes(),
            i: 0,
            after_bodies: None,
            level: 0,
            nesting: 0,
            steps: 0,
            nested,
            arithmetic: 0,
        }
    }

    pub(super) fn steps(&self) -> u64 {
        self.steps
    }

    pub(super) fn nesting(&self) -> usize {
        self.nesting
    }

    pub(super) fn len(&self) -> usize {
        self.src.len()
    }

    pub(super) fn byte(&self, at: usize) -> Option<u8> {
        self.src.get(at).copied()
    }

    pub(super) fn peek(&self, off: usize) -> Option<u8> {
        self.byte(self.i + off)
    }

    pub(super) fn adv(&mut self, n: usize) {
        self.i += n;
        self.steps += n as u64;
    }

    /// Counts work done away from the current position (here-doc bodies).
    pub(super) fn count(&mut self, n: usize) {
        self.steps += n as u64;
    }

    /// The text between two byte positions (both at ASCII bytes or ends).
    pub(super) fn slice(&self, from: usize, to: usize) -> &'a str {
        self.text.get(from..to.min(self.src.len())).unwrap_or("")
    }

    pub(super) fn token(&mut self) -> Option<Token> {
        // Blanks, line continuations and comments.
        loop {
            match self.peek(0)? {
                b' ' | b'\t' | b'\r' => self.adv(1),
                b'\\' if self.peek(1) == Some(b'\n') => self.adv(2),
                b'#' => {
                    while self.peek(0).is_some_and(|c| c != b'\n') {
                        self.adv(1);
                    }
                }
                _ => break,
            }
        }
        let c = self.peek(0)?;
        let next = self.peek(1);
        let token = match (c, next) {
            (b'\n', _) => {
                self.adv(1);
                if let Some(end) = self.after_bodies.take() {
                    let skip = end.saturating_sub(self.i);
                    self.adv(skip);
                }
                Token::Sep(Sep::Newline)
            }
            (b';', Some(b';')) => {
                self.adv(if self.peek(2) == Some(b'&') { 3 } else { 2 });
                Token::CaseEnd
            }
            (b';', Some(b'&')) => {
                self.adv(2);
                Token::CaseEnd
            }
            (b';', _) => {
                self.adv(1);
                Token::Sep(Sep::List)
            }
            (b'(', _) => {
                self.adv(1);
                Token::LParen
            }
            (b')', _) => {
                self.adv(1);
                Token::RParen
            }
            (b'&', Some(b'&')) | (b'|', Some(b'|')) => {
                self.adv(2);
                Token::Sep(Sep::AndOr)
            }
            (b'&', Some(b'>')) => {
                self.adv(if self.peek(2) == Some(b'>') { 3 } else { 2 });
                Token::Redirect("&>".into())
            }
            (b'&', _) => {
                self.adv(1);
                Token::Sep(Sep::Background)
            }
            (b'|', _) => {
                self.adv(if next == Some(b'&') { 2 } else { 1 });
                Token::Pipe
            }
            (b'<' | b'>', Some(b'(')) => Token::Word(self.word()),
            (b'<' | b'>', _) => Token::Redirect(self.redirect_op(String::new())),
            (d, Some(b'<' | b'>')) if d.is_ascii_digit() && self.peek(2) != Some(b'(') => {
                self.adv(1);
                Token::Redirect(self.redirect_op(char::from(d).to_string()))
            }
            _ => Token::Word(self.word()),
        };
        Some(token)
    }

    fn redirect_op(&mut self, mut op: String) -> String {
        let first = self.peek(0).unwrap_or(b'>');
        op.push(char::from(first));
        self.adv(1);
        while let Some(c) = self.peek(0) {
            let repeat = c == first && op.len() < 3;
            // `<<-` strips leading tabs from the here-doc body.
            let dash = c == b'-' && op.ends_with("<<") && !op.ends_with("<<<");
            if repeat || dash || c == b'|' || c == b'&' {
                op.push(char::from(c));
                self.adv(1);
            } else {
                break;
            }
        }
        op
    }

    fn word(&mut self) -> Word {
        let mut out = Vec::new();
        let mut word = Word::default();
        while let Some(c) = self.peek(0) {
            match c {
                b' ' | b'\t' | b'\r' | b'\n' | b';' | b'|' | b'&' | b')' | b'(' => break,
                b'>' | b'<' if self.peek(1) != Some(b'(') => break,
                b'\'' => {
                    word.quoted = true;
                    self.adv(1);
                    while let Some(q) = self.peek(0) {
                        self.adv(1);
                        if q == b'\'' {
                            break;
                        }
                        out.push(q);
                    }
                }
                b'"' => {
                    word.quoted = true;
                    self.adv(1);
                    self.double_quoted(&mut out, &mut word);
                }
                b'\\' => {
                    word.quoted = true;
                    match self.peek(1) {
                        // A line continuation disappears, even inside a word.
                        Some(b'\n') => {}
                        Some(n) => out.push(n),
                        None => {}
                    }
                    self.adv(2.min(self.len() - self.i));
                }
                b'$' if self.peek(1) == Some(b'\'') => {
                    word.quoted = true;
                    self.adv(2);
                    let used = quote::ansi_c(self.src.get(self.i..).unwrap_or_default(), &mut out);
                    self.adv(used);
                }
                // `$"…"`: a translated string, quoted as `"…"` is.
                b'$' if self.peek(1) == Some(b'"') => {
                    word.quoted = true;
                    self.adv(2);
                    self.double_quoted(&mut out, &mut word);
                }
                b'$' | b'<' | b'>' if self.peek(1) == Some(b'(') => {
                    self.adv(2);
                    self.substitution(c, &mut out, &mut word);
                }
                b'`' => {
                    self.adv(1);
                    self.backticks(&mut out, &mut word);
                }
                b'$' if fields::ifs_len(self.src.get(self.i..).unwrap_or_default()).is_some() => {
                    let rest = self.src.get(self.i..).unwrap_or_default();
                    let len = fields::ifs_len(rest).unwrap_or(1);
                    let start = out.len();
                    out.extend_from_slice(rest.get(..len).unwrap_or_default());
                    word.splits.push((offset(start), offset(out.len())));
                    self.adv(len);
                }
                other => {
                    out.push(other);
                    self.adv(1);
                }
            }
        }
        word.text = into_string(out);
        word
    }

    /// The inside of `"…"` (the opening quote read), up to and including
    /// the closing quote or the end of the input.
    fn double_quoted(&mut self, out: &mut Vec<u8>, word: &mut Word) {
        while let Some(q) = self.peek(0) {
            match (q, self.peek(1)) {
                (b'"', _) => {
                    self.adv(1);
                    return;
                }
                (b'\\', Some(b'\n')) => self.adv(2),
                (b'\\', Some(n @ (b'"' | b'\\' | b'$' | b'`'))) => {
                    out.push(n);
                    self.adv(2);
                }
                (b'$', Some(b'(')) => {
                    self.adv(2);
                    self.substitution(b'$', out, word);
                }
                (b'`', _) => {
                    self.adv(1);
                    self.backticks(out, word);
                }
                _ => {
                    out.push(q);
                    self.adv(1);
                }
            }
        }
    }
}

/// Bytes taken from a `&str` at ASCII boundaries are UTF-8; bytes written
/// by `$'\xHH'` may not be, and are replaced, never refused.
pub(super) fn into_string(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// A byte offset into a word, which the input limit keeps far below
/// `u32::MAX` (saturating rather than wrapping, should it not).
fn offset(at: usize) -> u32 {
    u32::try_from(at).unwrap_or(u32::MAX)
}
