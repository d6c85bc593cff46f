//! Substitutions inside words: `$(…)`, `<(…)`, `>(…)`, backticks and
//! `$((…))`. Their bodies are kept as text for a guard to parse when it
//! looks into them; here they are only read to their end.

use super::lexer::{Lexer, MAX_SUBSTITUTION_DEPTH, Token, Word, into_string};

impl Lexer<'_> {
    /// `$(…)`, `<(…)` or `>(…)` (the opening read): its body is found by
    /// parsing it (so `case x in a) …` inside is understood), and kept.
    pub(super) fn substitution(&mut self, opener: u8, out: &mut Vec<u8>, word: &mut Word) {
        let start = self.i;
        let depth = self.level + 1;
        self.nesting = self.nesting.max(depth);
        let end = if depth > MAX_SUBSTITUTION_DEPTH {
            self.skip_balanced()
        } else {
            self.level = depth;
            let end = (self.nested)(self);
            self.level = depth - 1;
            end
        };
        if self.level == 0 {
            let body = self.slice(start, end);
            out.push(opener);
            out.push(b'(');
            out.extend_from_slice(body.as_bytes());
            out.push(b')');
            match arithmetic(opener, body).filter(|_| self.arithmetic < MAX_SUBSTITUTION_DEPTH) {
                Some(expr) => self.substitutions_in(expr, word),
                None => word.subs.push(body.to_owned()),
            }
        }
    }

    /// The substitutions inside an arithmetic expression (`$(( $(x) + 1 ))`
    /// runs `x`; its other words are numbers and names, not commands).
    fn substitutions_in(&mut self, expr: &str, word: &mut Word) {
        let mut lx = Lexer::new(expr, self.nested);
        lx.arithmetic = self.arithmetic + 1;
        while let Some(token) = lx.token() {
            if let Token::Word(w) = token {
                word.subs.extend(w.subs);
            }
        }
        self.steps += lx.steps;
        self.nesting = self.nesting.max(lx.nesting);
    }

    /// Skips to the parenthesis that closes an opened one, minding quotes
    /// but nothing else: for substitutions nested deeper than the lexer
    /// follows. Returns where the body ends; marks the text as too deep.
    fn skip_balanced(&mut self) -> usize {
        self.nesting = MAX_SUBSTITUTION_DEPTH + 1;
        let mut depth = 0usize;
        let (mut single, mut double) = (false, false);
        while let Some(c) = self.peek(0) {
            self.adv(1);
            match c {
                b'\'' if !double => single = !single,
                b'"' if !single => double = !double,
                b'\\' if !single && self.i < self.len() => self.adv(1),
                b'(' if !single && !double => depth += 1,
                b')' if !single && !double => {
                    if depth == 0 {
                        return self.i - 1;
                    }
                    depth -= 1;
                }
                _ => {}
            }
        }
        self.i
    }

    /// `` `…` `` (the opening backtick read): its body, with `` \` ``
    /// unescaped, is kept.
    pub(super) fn backticks(&mut self, out: &mut Vec<u8>, word: &mut Word) {
        let mut body = Vec::new();
        self.nesting = self.nesting.max(self.level + 1);
        while let Some(c) = self.peek(0) {
            self.adv(1);
            match c {
                b'`' => break,
                b'\\' if matches!(self.peek(0), Some(b'`' | b'\\' | b'$')) => {
                    body.extend(self.peek(0));
                    self.adv(1);
                }
                other => body.push(other),
            }
        }
        if self.level == 0 {
            out.push(b'`');
            out.extend_from_slice(&body);
            out.push(b'`');
            word.subs.push(into_string(body));
        }
    }
}

/// The expression of `$((…))`: a body in parentheses whose inside is
/// balanced (`$((a) ; (b))` is a command substitution running two
/// subshells, not arithmetic).
fn arithmetic(opener: u8, body: &str) -> Option<&str> {
    let inner = body.strip_prefix('(')?.strip_suffix(')')?;
    let mut depth = 0usize;
    for c in inner.bytes().filter(|c| matches!(c, b'(' | b')')) {
        if c == b'(' {
            depth += 1;
        } else {
            depth = depth.checked_sub(1)?;
        }
    }
    (opener == b'$' && depth == 0).then_some(inner)
}
