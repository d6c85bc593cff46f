//! Arguments as a tool's own option parser reads them, so that a rule
//! sees `rm --recur --forc /`, `rm / -rf` and `rm -r -f -- /` as the one
//! command they are. Each tool is described by a small table (`Spec`):
//! which short options take a value, and its long options, matched by
//! unique prefix as `getopt_long` does.

/// How one tool reads its options.
#[derive(Debug, Clone, Copy)]
pub(super) struct Spec {
    /// Short options that take a value, attached (`-n5`) or as the next
    /// word (`-n 5`).
    pub short_value: &'static str,
    /// Short options whose value is optional and only ever attached
    /// (`sed -i.bak`, `xargs -i{}`).
    pub short_optional: &'static str,
    /// Long options and whether each takes a value (as the next word when
    /// not given with `=`).
    pub long: &'static [(&'static str, bool)],
    /// GNU order: options may follow operands (`rm / -rf`). Without it the
    /// first operand ends the options, as for `sudo`, `env`, `timeout`.
    pub permute: bool,
}

/// One option as read: a short letter (`"r"`) or the full long name
/// (`"recursive"`, whatever prefix was written), with its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Opt {
    pub name: String,
    pub value: Option<String>,
}

/// A command's arguments split into options and operands.
#[derive(Debug, Clone, Default)]
pub(super) struct Args {
    pub opts: Vec<Opt>,
    /// The operands, when the spec permutes; otherwise they are the words
    /// from `rest` on.
    pub operands: Vec<String>,
    /// Where the options end: after `--`, or at the first operand when the
    /// spec does not permute (the command a wrapper runs).
    pub rest: usize,
}

impl Args {
    /// Whether the short option `short` or the long option `long` was given.
    pub(super) fn has(&self, short: char, long: &str) -> bool {
        self.opts.iter().any(|o| is(o, short, long))
    }

    /// The last value given to `-short` or `--long`.
    pub(super) fn value(&self, short: char, long: &str) -> Option<&str> {
        self.opts
            .iter()
            .rev()
            .find(|o| is(o, short, long))
            .and_then(|o| o.value.as_deref())
    }
}

fn is(o: &Opt, short: char, long: &str) -> bool {
    let mut buf = [0u8; 4];
    o.name == *short.encode_utf8(&mut buf) || (!long.is_empty() && o.name == long)
}

/// The long option `written` names: an exact name, or the only one it is
/// a prefix of. An ambiguous or unknown prefix is kept as written.
fn long_name(spec: &Spec, written: &str) -> (String, bool) {
    if let Some((name, v)) = spec.long.iter().find(|(n, _)| *n == written) {
        return ((*name).to_owned(), *v);
    }
    let mut hits = spec.long.iter().filter(|(n, _)| n.starts_with(written));
    match (hits.next(), hits.next()) {
        (Some((name, v)), None) if !written.is_empty() => ((*name).to_owned(), *v),
        _ => (written.to_owned(), false),
    }
}

/// Reads `words` (the arguments, without the program) as `spec` says.
pub(super) fn parse(spec: &Spec, words: &[String]) -> Args {
    let mut args = Args {
        rest: words.len(),
        ..Args::default()
    };
    let mut i = 0;
    while let Some(w) = words.get(i) {
        i += 1;
        if w == "--" {
            args.rest = i;
            if spec.permute {
                args.operands.extend(words[i..].iter().cloned());
            }
            return args;
        }
        if let Some(long) = w.strip_prefix("--") {
            let (written, inline) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v.to_owned())),
                None => (long, None),
            };
            let (name, takes) = long_name(spec, written);
            let value = match inline {
                Some(v) => Some(v),
                None if takes => {
                    i += 1;
                    words.get(i - 1).cloned()
                }
                None => None,
            };
            args.opts.push(Opt { name, value });
        } else if w.len() > 1 && w.starts_with('-') {
            for (at, c) in w.char_indices().skip(1) {
                let tail = &w[at + c.len_utf8()..];
                if spec.short_optional.contains(c) {
                    let value = (!tail.is_empty()).then(|| tail.to_owned());
                    args.opts.push(Opt {
                        name: c.to_string(),
                        value,
                    });
                    break;
                }
                if spec.short_value.contains(c) {
                    let value = if tail.is_empty() {
                        i += 1;
                        words.get(i - 1).cloned()
                    } else {
                        Some(tail.to_owned())
                    };
                    args.opts.push(Opt {
                        name: c.to_string(),
                        value,
                    });
                    break;
                }
                args.opts.push(Opt {
                    name: c.to_string(),
                    value: None,
                });
            }
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

#[cfg(test)]
#[path = "tests/argv.rs"]
mod tests;
