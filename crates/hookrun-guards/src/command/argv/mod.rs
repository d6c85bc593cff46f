//! Arguments as a tool's own option parser reads them, so that a rule
//! sees `rm --recur --forc /`, `rm / -rf`, `rm -r -f -- /` and
//! `git -C repo clean -fdx` as the commands they are, not as spellings.
//! Each tool is described by a small table (`Spec`): which short options
//! take a value, its long options (matched by prefix as `getopt_long` and
//! git's parse-options do), and whether options may follow operands.
//! Every rule of the guard, the wrappers and the opt-in categories read
//! arguments through this one module, so that a fix to how options are
//! read reaches all of them.

/// Whether an option takes a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Takes {
    /// A flag (`--force`).
    Nothing,
    /// A value, after `=` or in the next word (`--exclude x`).
    Value,
    /// A value only after `=` (`--track=direct`, `--in-place=.bak`); the
    /// next word is taken too when it is one of these words (how git users
    /// write `--track direct`).
    Optional(&'static [&'static str]),
}

/// How one tool reads its options.
///
/// Long options are listed most dangerous first: an ambiguous
/// abbreviation is read as the first option it could be, so that the guard
/// never reads a destructive option as a harmless one (the tool itself
/// either refuses the ambiguity or picks one; the guard assumes the worse).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Spec {
    /// Short options that take a value, attached (`-n5`) or as the next
    /// word (`-n 5`).
    pub short_value: &'static str,
    /// Short options whose value is optional and only ever attached
    /// (`sed -i.bak`, `xargs -i{}`).
    pub short_optional: &'static str,
    /// Long options and what each takes.
    pub long: &'static [(&'static str, Takes)],
    /// GNU order: options may follow operands (`rm / -rf`). Without it the
    /// first operand ends the options, as for `sudo`, `env`, `timeout`.
    pub permute: bool,
}

/// A spec for a GNU-style tool with no options: the base that tables
/// complete with `..GNU`.
pub(crate) const GNU: Spec = Spec {
    short_value: "",
    short_optional: "",
    long: &[],
    permute: true,
};

/// One option as read: a short letter (`"r"`) or the full long name
/// (`"recursive"`, whatever prefix was written), with its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Opt {
    pub name: String,
    pub value: Option<String>,
}

/// A command's arguments split into options and operands.
#[derive(Debug, Clone, Default)]
pub(crate) struct Args {
    pub opts: Vec<Opt>,
    /// The operands, when the spec permutes; otherwise they are the words
    /// from `rest` on.
    pub operands: Vec<String>,
    /// Where the options end: after `--`, or at the first operand when the
    /// spec does not permute (the command a wrapper runs).
    pub rest: usize,
    /// How many words came after `--` (`git checkout -- file`: paths).
    pub after_dashdash: usize,
}

impl Args {
    /// Whether the short option `short` or the long option `long` was
    /// given (`'\0'` or `""` for a tool without one of the two).
    pub(crate) fn has(&self, short: char, long: &str) -> bool {
        self.opts.iter().any(|o| is(o, short, long))
    }

    /// Whether the long option `name` was given (in any abbreviation).
    pub(crate) fn long(&self, name: &str) -> bool {
        self.has('\0', name)
    }

    /// The last value given to `-short` or `--long`.
    pub(crate) fn value(&self, short: char, long: &str) -> Option<&str> {
        self.opts
            .iter()
            .rev()
            .find(|o| is(o, short, long))
            .and_then(|o| o.value.as_deref())
    }
}

fn is(o: &Opt, short: char, long: &str) -> bool {
    let mut buf = [0u8; 4];
    (short != '\0' && o.name == *short.encode_utf8(&mut buf))
        || (!long.is_empty() && o.name == long)
}

/// The long option `written` names: an exact name, else the first listed
/// it is a prefix of (the lists are ordered most dangerous first). An
/// unknown name is kept as written, taking no value.
fn long_name(spec: &Spec, written: &str) -> (String, Takes) {
    let exact = spec.long.iter().find(|(n, _)| *n == written);
    let prefix = || {
        spec.long
            .iter()
            .find(|(n, _)| !written.is_empty() && n.starts_with(written))
    };
    match exact.or_else(prefix) {
        Some((name, takes)) => ((*name).to_owned(), *takes),
        None => (written.to_owned(), Takes::Nothing),
    }
}

/// Reads `words` (the arguments, without the program) as `spec` says.
pub(crate) fn parse(spec: &Spec, words: &[String]) -> Args {
    let mut args = Args {
        rest: words.len(),
        ..Args::default()
    };
    let mut i = 0;
    while let Some(w) = words.get(i) {
        i += 1;
        if w == "--" {
            let after = words.get(i..).unwrap_or_default();
            args.rest = i;
            args.after_dashdash = after.len();
            if spec.permute {
                args.operands.extend(after.iter().cloned());
            }
            return args;
        }
        if let Some(long) = w.strip_prefix("--") {
            let (written, inline) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v.to_owned())),
                None => (long, None),
            };
            let (name, takes) = long_name(spec, written);
            let next = words.get(i);
            let (value, took_next) = match (inline, takes) {
                (Some(v), _) => (Some(v), false),
                (None, Takes::Value) => (next.cloned(), next.is_some()),
                (None, Takes::Optional(known)) => {
                    let v = next.filter(|n| known.contains(&n.as_str())).cloned();
                    let took = v.is_some();
                    (v, took)
                }
                (None, Takes::Nothing) => (None, false),
            };
            i += usize::from(took_next);
            args.opts.push(Opt { name, value });
        } else if w.len() > 1 && w.starts_with('-') {
            i += cluster(spec, w, words.get(i), &mut args.opts);
        } else if spec.permute {
            args.operands.push(w.clone());
        } else {
            // Not copied: a wrapper reads the command from `rest`, and
            // copying here would make a chain of wrappers quadratic.
            args.rest = i - 1;
            return args;
        }
    }
    args
}

/// `-abc`: flags until one that takes a value, which takes the rest of the
/// word or the next word (`-qbfeature`, `-C repo`). Returns how many
/// following words were taken (0 or 1).
fn cluster(spec: &Spec, w: &str, next: Option<&String>, opts: &mut Vec<Opt>) -> usize {
    for (at, c) in w.char_indices().skip(1) {
        let tail = &w[at + c.len_utf8()..];
        let name = c.to_string();
        if spec.short_optional.contains(c) {
            let value = (!tail.is_empty()).then(|| tail.to_owned());
            opts.push(Opt { name, value });
            return 0;
        }
        if spec.short_value.contains(c) {
            if tail.is_empty() {
                opts.push(Opt {
                    name,
                    value: next.cloned(),
                });
                return usize::from(next.is_some());
            }
            opts.push(Opt {
                name,
                value: Some(tail.to_owned()),
            });
            return 0;
        }
        opts.push(Opt { name, value: None });
    }
    0
}

#[cfg(test)]
mod tests;
