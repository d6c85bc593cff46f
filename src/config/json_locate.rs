//! Finds where an entry sits in a JSON text, so that messages about Claude
//! Code settings can name a line and column: `serde_json::Value` keeps no
//! positions, and the settings are small, so a second light scan is cheap.

/// The byte offset of the value at `key` (`hooks.PreToolUse[0].hooks[1]`).
#[must_use]
pub(crate) fn locate(text: &str, key: &str) -> Option<usize> {
    let mut s = Scanner {
        b: text.as_bytes(),
        i: 0,
    };
    for seg in segments(key) {
        s.ws();
        match seg {
            Seg::Key(k) => s.enter_key(k)?,
            Seg::Index(n) => s.enter_index(n)?,
        }
    }
    s.ws();
    Some(s.i)
}

enum Seg<'a> {
    Key(&'a str),
    Index(usize),
}

fn segments(key: &str) -> Vec<Seg<'_>> {
    let mut out = Vec::new();
    for part in key.split('.') {
        let (name, rest) = part.split_once('[').map_or((part, ""), |(n, r)| (n, r));
        if !name.is_empty() {
            out.push(Seg::Key(name));
        }
        for idx in rest.split('[') {
            if let Ok(n) = idx.trim_end_matches(']').parse() {
                out.push(Seg::Index(n));
            }
        }
    }
    out
}

struct Scanner<'a> {
    b: &'a [u8],
    i: usize,
}

impl Scanner<'_> {
    fn ws(&mut self) {
        while self.i < self.b.len() && matches!(self.b[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) -> Option<()> {
        self.ws();
        (self.b.get(self.i) == Some(&c)).then(|| self.i += 1)
    }

    /// Reads a string at the cursor and returns it decoded.
    fn string(&mut self) -> Option<String> {
        let start = self.i;
        self.eat(b'"')?;
        while self.i < self.b.len() {
            match self.b[self.i] {
                b'\\' => self.i += 2,
                b'"' => {
                    self.i += 1;
                    let raw = std::str::from_utf8(&self.b[start..self.i]).ok()?;
                    return serde_json::from_str(raw).ok();
                }
                _ => self.i += 1,
            }
        }
        None
    }

    /// Skips one value of any kind.
    fn skip(&mut self) -> Option<()> {
        self.ws();
        match self.b.get(self.i)? {
            b'"' => self.string().map(|_| ()),
            b'{' | b'[' => {
                let mut depth = 0usize;
                while self.i < self.b.len() {
                    match self.b[self.i] {
                        b'"' => {
                            self.string()?;
                            continue;
                        }
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth -= 1;
                            if depth == 0 {
                                self.i += 1;
                                return Some(());
                            }
                        }
                        _ => {}
                    }
                    self.i += 1;
                }
                None
            }
            _ => {
                while self.i < self.b.len() && !matches!(self.b[self.i], b',' | b'}' | b']') {
                    self.i += 1;
                }
                Some(())
            }
        }
    }

    fn enter_key(&mut self, key: &str) -> Option<()> {
        self.eat(b'{')?;
        loop {
            self.ws();
            let name = self.string()?;
            self.eat(b':')?;
            if name == key {
                return Some(());
            }
            self.skip()?;
            self.eat(b',')?;
        }
    }

    fn enter_index(&mut self, n: usize) -> Option<()> {
        self.eat(b'[')?;
        for _ in 0..n {
            self.skip()?;
            self.eat(b',')?;
        }
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_nested_entries() {
        let text = "{\n  \"a\": \"x\\\"}\",\n  \"hooks\": {\n    \"Stop\": [\n      {\"hooks\": [1, {\"t\": [2]}]}\n    ]\n  }\n}";
        let at = locate(text, "hooks.Stop[0].hooks[1]").unwrap();
        assert_eq!(crate::error::line_col(text, at), (5, 21));
        assert_eq!(
            crate::error::line_col(text, locate(text, "hooks.Stop").unwrap()),
            (4, 13)
        );
        assert!(locate(text, "hooks.Nope").is_none());
    }
}
