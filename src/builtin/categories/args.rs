//! Reads a program's arguments as the program does: clustered short flags
//! (`-fdx`, `-qbfeature`), a short flag's value glued or in the next word
//! (`-Crepo`, `-C repo`), long options with `=` or a separate value, GNU
//! and git abbreviations (`--forc`, `--har`), and `--` ending the options.
//! The rules then ask about what the program sees, not about the spelling.

/// Whether a long option takes a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Takes {
    /// A flag (`--force`).
    Nothing,
    /// A value, after `=` or in the next word (`--exclude x`).
    Value,
    /// A value only after `=` (`--track=direct`); the next word is taken
    /// too when it is one of these words (how git users write it).
    Optional(&'static [&'static str]),
}

/// What a program accepts: its short flags that take a value, and its long
/// options. Long options are listed most dangerous first: an ambiguous
/// abbreviation is read as the first option it could be, so that a guard
/// never reads a destructive option as a harmless one.
#[derive(Debug)]
pub(super) struct Spec {
    pub short_values: &'static str,
    pub long: &'static [(&'static str, Takes)],
}

/// The arguments as the program reads them.
#[derive(Debug, Default)]
pub(super) struct Parsed {
    /// Short flags in order (`-fdx` gives `f`, `d`, `x`).
    pub shorts: Vec<char>,
    /// Long options by their full name, with the value given.
    pub longs: Vec<(String, Option<String>)>,
    /// Values of short flags that take one (`-b x`: `('b', "x")`).
    pub short_values: Vec<(char, String)>,
    /// Operands, in order.
    pub operands: Vec<String>,
    /// How many operands came after `--`.
    pub after_dashdash: usize,
}

impl Parsed {
    pub fn short(&self, c: char) -> bool {
        self.shorts.contains(&c) || self.short_values.iter().any(|(s, _)| *s == c)
    }

    pub fn long(&self, name: &str) -> bool {
        self.longs.iter().any(|(n, _)| n == name)
    }

    /// The value of a long option (the last one given).
    pub fn long_value(&self, name: &str) -> Option<&str> {
        self.longs
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.as_deref())
    }

    /// Whether the short flag or the long option is given.
    pub fn either(&self, short: char, long: &str) -> bool {
        self.short(short) || self.long(long)
    }
}

impl Spec {
    /// The full name of a long option as written (exact, or the first
    /// option the abbreviation could be), or the word itself when unknown.
    fn resolve(&self, written: &str) -> (String, Takes) {
        if let Some((name, takes)) = self.long.iter().find(|(n, _)| *n == written) {
            return ((*name).to_owned(), *takes);
        }
        if written.len() >= 2 {
            if let Some((name, takes)) = self.long.iter().find(|(n, _)| n.starts_with(written)) {
                return ((*name).to_owned(), *takes);
            }
        }
        (written.to_owned(), Takes::Nothing)
    }

    /// Parses `args`; options and operands may be mixed in any order.
    pub fn parse(&self, args: &[String]) -> Parsed {
        let mut p = Parsed::default();
        let mut words = args.iter();
        let mut options_done = false;
        while let Some(a) = words.next() {
            if options_done || a == "-" || !a.starts_with('-') {
                if options_done {
                    p.after_dashdash += 1;
                }
                p.operands.push(a.clone());
            } else if a == "--" {
                options_done = true;
            } else if let Some(long) = a.strip_prefix("--") {
                let (written, value) = match long.split_once('=') {
                    Some((n, v)) => (n, Some(v.to_owned())),
                    None => (long, None),
                };
                let (name, takes) = self.resolve(written);
                let value = match (value, takes) {
                    (Some(v), _) => Some(v),
                    (None, Takes::Value) => words.next().cloned(),
                    (None, Takes::Optional(known)) => {
                        let next = words.as_slice().first();
                        match next.filter(|n| known.contains(&n.as_str())) {
                            Some(n) => {
                                words.next();
                                Some(n.clone())
                            }
                            None => None,
                        }
                    }
                    (None, Takes::Nothing) => None,
                };
                p.longs.push((name, value));
            } else {
                self.cluster(&a[1..], &mut words, &mut p);
            }
        }
        p
    }

    /// `-abc`: flags until one that takes a value, which takes the rest of
    /// the word or the next word.
    fn cluster(&self, flags: &str, words: &mut std::slice::Iter<'_, String>, p: &mut Parsed) {
        for (i, c) in flags.char_indices() {
            if self.short_values.contains(c) {
                let rest = &flags[i + c.len_utf8()..];
                let value = if rest.is_empty() {
                    words.next().cloned().unwrap_or_default()
                } else {
                    rest.to_owned()
                };
                p.short_values.push((c, value));
                return;
            }
            p.shorts.push(c);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC: Spec = Spec {
        short_values: "bC",
        long: &[
            ("force", Takes::Nothing),
            ("force-with-lease", Takes::Optional(&[])),
            ("exclude", Takes::Value),
            ("track", Takes::Optional(&["direct"])),
        ],
    };

    fn parse(line: &str) -> Parsed {
        let words: Vec<String> = line.split_whitespace().map(str::to_owned).collect();
        SPEC.parse(&words)
    }

    #[test]
    fn clusters_glued_values_and_abbreviations() {
        let p = parse("-qbfeature --forc -C repo x -- -f");
        assert_eq!(p.shorts, vec!['q']);
        assert_eq!(
            p.short_values,
            vec![('b', "feature".to_owned()), ('C', "repo".to_owned())]
        );
        assert!(p.long("force"));
        assert_eq!(p.operands, vec!["x".to_owned(), "-f".to_owned()]);
        assert_eq!(p.after_dashdash, 1);
    }

    #[test]
    fn values_after_equals_or_in_the_next_word() {
        let p = parse("--exclude x --track direct main --force-with-lease=a");
        assert_eq!(p.long_value("exclude"), Some("x"));
        assert_eq!(p.long_value("track"), Some("direct"));
        assert_eq!(p.long_value("force-with-lease"), Some("a"));
        assert!(!p.long("force"));
        assert_eq!(p.operands, vec!["main".to_owned()]);
    }

    #[test]
    fn a_trailing_value_flag_without_its_value_does_not_panic() {
        let p = parse("-b");
        assert_eq!(p.short_values, vec![('b', String::new())]);
    }
}
