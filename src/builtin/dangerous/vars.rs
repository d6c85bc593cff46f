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

use crate::builtin::wrappers::is_assignment;

/// The longest word an expansion may make: past it the word is left as
/// written, so that `$X$X$X…` cannot multiply a long value.
const MAX_EXPANDED: usize = 4096;

thread_local! {
    static VARS: RefCell<HashMap<String, String>> = RefCell::new(HashMap::new());
}

/// Forgets every variable (and frees the memory they took).
pub(super) fn reset() {
    VARS.with(|v| *v.borrow_mut() = HashMap::new());
}

/// Leaves no variable known, returning what was (see `restore`).
pub(super) fn take() -> HashMap<String, String> {
    VARS.with(|v| std::mem::take(&mut *v.borrow_mut()))
}

/// Puts back what `take` returned, once a nested script is checked.
pub(super) fn restore(vars: HashMap<String, String>) {
    VARS.with(|v| *v.borrow_mut() = vars);
}

/// Records the assignments of one command's words (as written, before
/// wrappers are stripped): those that start it, those after `export`,
/// `declare`, `local`, `readonly` or `typeset`, and those after an `env`
/// anywhere among its wrappers (`sudo env X=/ rm -rf $X`).
pub(super) fn follow(words: &[String]) {
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
            vars.insert(name.to_owned(), value.to_owned());
        }
    });
}

/// `args` with the variables the line assigned expanded (`$X`, `${X}`),
/// or `None` when nothing changed.
pub(super) fn expand(args: &[String]) -> Option<Vec<String>> {
    VARS.with(|v| {
        let vars = v.borrow();
        if vars.is_empty() || !args.iter().any(|a| a.contains('$')) {
            return None;
        }
        Some(args.iter().map(|a| expand_word(a, &vars)).collect())
    })
}

fn expand_word(word: &str, vars: &HashMap<String, String>) -> String {
    let mut out = String::with_capacity(word.len());
    let mut rest = word;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let (name, len) = match after.strip_prefix('{') {
            Some(inner) => match inner.find('}') {
                Some(end) => (&inner[..end], end + 2),
                None => ("", 0),
            },
            None => {
                let end = after
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(after.len());
                (&after[..end], end)
            }
        };
        match vars.get(name) {
            Some(value) if !name.is_empty() => out.push_str(value),
            _ => out.push_str(&rest[at..at + 1 + len]),
        }
        rest = &after[len..];
        if out.len() > MAX_EXPANDED {
            return word.to_owned();
        }
    }
    out.push_str(rest);
    out
}
