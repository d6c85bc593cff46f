//! The directory a command line has moved to with `cd` or `pushd`, so
//! that `cd / && rm -rf bin` is read as `rm -rf /bin`. Only what the text
//! itself says is followed: the event's own working directory is not
//! assumed (a relative target is judged as written until a `cd` names an
//! absolute place), and a `cd` the guard cannot read (`cd "$dir"`, `cd -`)
//! forgets the directory rather than guess.
//!
//! A `cd` inside a subshell or a group is followed as if it were not: the
//! guard may then judge a later command against a directory the shell has
//! already left, which can only make it stricter. A nested script
//! (`bash -c`, `eval`, a substitution) starts with no known directory, so
//! that what the guard found it to be holds wherever it is reached; it
//! follows its own `cd`s.

use std::cell::RefCell;

use crate::builtin::targets::normal;

thread_local! {
    static CWD: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Forgets the directory: each check starts where the event does.
pub(super) fn reset() {
    CWD.with(|c| *c.borrow_mut() = None);
}

/// Leaves the directory unknown, returning what it was (a nested script
/// starts afresh: see `restore`).
pub(super) fn take() -> Option<String> {
    CWD.with(|c| c.borrow_mut().take())
}

/// Puts back what `take` returned, once a nested script is checked.
pub(super) fn restore(dir: Option<String>) {
    CWD.with(|c| *c.borrow_mut() = dir);
}

/// Follows `cd DIR` / `pushd DIR` (`argv` unwrapped).
pub(super) fn follow(argv: &[String]) {
    let Some(prog) = argv.first() else {
        return;
    };
    if !matches!(prog.as_str(), "cd" | "pushd" | "chdir") {
        return;
    }
    let dir = argv[1..]
        .iter()
        .find(|a| !matches!(a.as_str(), "-L" | "-P" | "-e" | "-@" | "--"));
    CWD.with(|c| {
        let mut cwd = c.borrow_mut();
        *cwd = match dir.map(String::as_str) {
            None | Some("~") => Some("~".to_owned()),
            Some(d) if d.starts_with(['/', '~']) || d.starts_with("$HOME") => Some(normal(d)),
            Some(d) if !d.contains(['$', '`', '*', '?', '[']) && d != "-" => cwd
                .as_deref()
                .map(|base| normal(&format!("{base}/{d}"))),
            Some(_) => None,
        };
    });
}

/// `rm`'s operands against the directory moved to: relative targets
/// joined to it (`bin` after `cd /` is `/bin`). Options and absolute or
/// home-relative targets are kept as written.
pub(super) fn resolve(args: &[String]) -> Option<Vec<String>> {
    let base = CWD.with(|c| c.borrow().clone())?;
    let mut after_dashdash = false;
    let resolved = args
        .iter()
        .map(|a| {
            if a == "--" {
                after_dashdash = true;
                return a.clone();
            }
            let option = !after_dashdash && a.starts_with('-');
            if option || a.starts_with(['/', '~', '$']) {
                a.clone()
            } else {
                normal(&format!("{base}/{a}"))
            }
        })
        .collect();
    Some(resolved)
}
