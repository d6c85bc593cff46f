//! Variables a command line assigns itself, so that `X=/; rm -rf $X` and
//! `TMPDIR=/etc; rm -rf $TMPDIR/x` are read as the commands they run.
//! Only plain values written in the text are followed (`NAME=VALUE`, also
//! after `export`, `declare`, `local`, `readonly`, `typeset` and `env`);
//! a variable the text does not assign stays as written, and the rules
//! judge it as they judge any unresolved word.
//!
//! A prefix assignment (`TMPDIR=/x rm -rf $TMPDIR/y`) is followed too,
//! although bash expands `$TMPDIR` there before the assignment applies:
//! the guard reads the stricter way. Like the directory (`cwd.rs`), what a
//! script assigns is not carried into nested scripts, so a check's result
//! never depends on where its text was reached.

use std::cell::RefCell;
use std::collections::HashMap;

use crate::command::wrappers::is_assignment;
use hookrun_sh::Command;

/// The longest word an expansion may make: past it the word is left as
/// written, so that `$X$X$X…` cannot multiply a long value.
const MAX_EXPANDED: usize = 4096;

thread_local! {
    static VARS: RefCell<HashMap<String, String>> = RefCell::new(HashMap::new());
}

/// Forgets every variable (and frees the memory they took).
pub(crate) fn reset() {
    VARS.with(|v| *v.borrow_mut() = HashMap::new());
}

/// Leaves no variable known, returning what was (see `restore`).
pub(crate) fn take() -> HashMap<String, String> {
    VARS.with(|v| std::mem::take(&mut *v.borrow_mut()))
}

/// Puts back what `take` returned, once a nested script is checked.
pub(crate) fn restore(vars: HashMap<String, String>) {
    VARS.with(|v| *v.borrow_mut() = vars);
}

/// Records the assignments of one command's words (as written, before
/// wrappers are stripped): those that start it, those after `export`,
/// `declare`, `local`, `readonly` or `typeset`, and those after an `env`
/// anywhere among its wrappers (`sudo env X=/ rm -rf $X`).
pub(crate) fn follow(words: &[String]) {
    let declares = words.first().is_some_and(|w| {
        matches!(
            w.as_str(),
            "export" | "declare" | "local" | "readonly" | "typeset"
        )
    });
    let after_env = words
        .iter()
        .position(|w| w == "env" || w.ends_with("/env"))
        .map_or(&[][..], |at| &words[at + 1..]);
    let leading = words
        .iter()
        .skip(usize::from(declares))
        .take_while(|w| is_assignment(w) || (declares && w.starts_with('-')));
    let through_env = after_env
        .iter()
        .take_while(|w| is_assignment(w) || w.starts_with('-'));
    VARS.with(|v| {
        let mut vars = v.borrow_mut();
        for (name, value) in leading.chain(through_env).filter_map(|w| w.split_once('=')) {
            // `Y=$X`: the value as the shell makes it, from what is known.
            let value = if value.contains('$') {
                expand_word(value, &vars)
            } else {
                value.to_owned()
            };
            vars.insert(name.to_owned(), value);
        }
    });
}

/// `argv` with the variables the line assigned expanded (`$X`, `${X}`,
/// `${X:-default}`, `${X%/}`), or `None` when nothing changed. When
/// `split`, a word that is only a variable is split at blanks as the shell
/// splits an unquoted expansion (`x="rm -rf /"; $x` runs `rm -rf /`;
/// quoting is not known here, so the guard splits either way); a shell's
/// script and `eval`'s words are read whole.
pub(crate) fn expand_words(argv: &[String], split: bool) -> Option<Vec<String>> {
    if !argv.iter().any(|a| a.contains('$')) {
        return None;
    }
    VARS.with(|v| {
        let vars = v.borrow();
        let mut changed = false;
        let mut out = Vec::with_capacity(argv.len());
        for a in argv {
            let e = expand_word(a, &vars);
            if e == *a {
                out.push(e);
                continue;
            }
            changed = true;
            if split && is_reference(a) {
                out.extend(e.split_whitespace().map(str::to_owned));
            } else {
                out.push(e);
            }
        }
        changed.then_some(out)
    })
}

/// One word (a redirection's target) with the variables expanded.
pub(crate) fn expand_one(word: &str) -> String {
    if !word.contains('$') {
        return word.to_owned();
    }
    VARS.with(|v| expand_word(word, &v.borrow()))
}

/// Whether a word is one variable reference and nothing else.
fn is_reference(word: &str) -> bool {
    let Some(rest) = word.strip_prefix('$') else {
        return false;
    };
    match rest.strip_prefix('{') {
        Some(inner) => inner.ends_with('}') && !inner[..inner.len() - 1].contains('}'),
        None => !rest.is_empty() && rest.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'),
    }
}

/// `$NAME`, `${NAME}` and `${NAME<op>word}` (`:-`, `-`, `:=`, `=`, `:?`,
/// `?`, `:+`, `+`) with what the line assigned: a known variable gives its
/// value (or, for `+`, the word); an unknown one with a default gives the
/// default; anything else stays as written.
fn expand_word(word: &str, vars: &HashMap<String, String>) -> String {
    let mut out = String::with_capacity(word.len());
    let mut rest = word;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let (value, len) = match after.strip_prefix('{') {
            Some(inner) => match inner.find('}') {
                Some(end) => (braced(&inner[..end], vars), end + 2),
                None => (None, 0),
            },
            None => {
                let end = after
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(after.len());
                (vars.get(&after[..end]).cloned().filter(|_| end > 0), end)
            }
        };
        match value {
            Some(v) => out.push_str(&v),
            None => out.push_str(&rest[at..at + 1 + len]),
        }
        rest = &after[len..];
        if out.len() > MAX_EXPANDED {
            return word.to_owned();
        }
    }
    out.push_str(rest);
    out
}

/// The value of `${…}`'s inside, when the line tells it.
fn braced(inner: &str, vars: &HashMap<String, String>) -> Option<String> {
    let name_end = inner
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(inner.len());
    let (name, op) = inner.split_at(name_end);
    let known = vars.get(name);
    if known.is_none() && name == "HOME" {
        // Set in every environment: the default would not apply.
        return Some("$HOME".to_owned());
    }
    if op.is_empty() {
        return known.cloned();
    }
    if let Some(v) = known
        && let Some(trimmed) = trimmed(v, op)
    {
        return Some(trimmed);
    }
    let (kind, word) = [":-", ":=", ":?", ":+", "-", "=", "?", "+"]
        .iter()
        .find_map(|k| op.strip_prefix(k).map(|w| (*k, w)))?;
    match (kind, known) {
        (":+" | "+", Some(_)) => Some(word.to_owned()),
        (":+" | "+", None) => Some(String::new()),
        (_, Some(v)) => Some(v.clone()),
        (":-" | "-" | ":=" | "=", None) => Some(word.to_owned()),
        _ => None,
    }
}

/// `${X%suffix}`, `${X%%suffix}`, `${X#prefix}`, `${X##prefix}` with a
/// literal pattern (no glob characters): the value with it removed.
fn trimmed(value: &str, op: &str) -> Option<String> {
    let (pattern, suffix) = if let Some(p) = op.strip_prefix("%%").or_else(|| op.strip_prefix('%'))
    {
        (p, true)
    } else {
        (
            op.strip_prefix("##").or_else(|| op.strip_prefix('#'))?,
            false,
        )
    };
    if pattern.contains(['*', '?', '[']) {
        return None;
    }
    let out = if suffix {
        value.strip_suffix(pattern)
    } else {
        value.strip_prefix(pattern)
    };
    Some(out.unwrap_or(value).to_owned())
}

/// The commands of a pipeline's upstream with their words as they are
/// echoed (`x="rm -rf /"; echo "$x" | sh`), quoted words kept whole.
pub(crate) fn as_echoed(upstream: &[Command]) -> Vec<Command> {
    upstream
        .iter()
        .map(|c| match expand_words(&c.words, false) {
            Some(words) => Command { words, ..c.clone() },
            None => c.clone(),
        })
        .collect()
}
