//! The directory a command line has moved to with `cd` or `pushd`, so
//! that `cd / && rm -rf bin` is read as `rm -rf /bin`, and a redirection
//! to `shadow` after `cd /etc` as a write to `/etc/shadow`. Only what the
//! text itself says is followed: the event's own working directory is not assumed (a
//! relative target is judged as written until a `cd`), and a `cd` the guard
//! cannot read (`cd "$dir"`, `cd -`) forgets the directory rather than
//! guess.
//!
//! A `cd` inside a subshell or a group is followed as if it were not: the
//! guard may then judge a later command against a directory the shell has
//! already left, which can only make it stricter. A nested script
//! (`bash -c`, `eval`, a substitution) starts with no known directory, so
//! that what the guard found it to be holds wherever it is reached; it
//! follows its own `cd`s.

use std::cell::RefCell;

use crate::command::targets::normal;

thread_local! {
    static CWD: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Forgets the directory: each check starts where the event does.
pub(crate) fn reset() {
    CWD.with(|c| *c.borrow_mut() = None);
}

/// Leaves the directory unknown, returning what it was (a nested script
/// starts afresh: see `restore`).
pub(crate) fn take() -> Option<String> {
    CWD.with(|c| c.borrow_mut().take())
}

/// Puts back what `take` returned, once a nested script is checked.
pub(crate) fn restore(dir: Option<String>) {
    CWD.with(|c| *c.borrow_mut() = dir);
}

/// Follows `cd DIR` / `pushd DIR` (`argv` unwrapped).
pub(crate) fn follow(argv: &[String]) {
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
            // A fresh temporary directory (`cd "$(mktemp -d)"`, `cd $TMPDIR`).
            Some(d) if d.contains("mktemp") || matches!(d, "$TMPDIR" | "${TMPDIR}") => {
                Some("/tmp/mktemp.XXXXXX".to_owned())
            }
            Some(d) if d.contains(['$', '`', '*', '?', '[']) || d == "-" => None,
            Some(d) => match cwd.as_deref() {
                Some(base) => Some(normal(&format!("{base}/{d}"))),
                // From where the line starts: a subdirectory stays one
                // (`cd dist && rm -rf *` deletes inside `dist`); climbing
                // out of it leads somewhere unknown.
                None if !d.split('/').any(|c| c == "..") => Some(normal(d)),
                None => None,
            },
        };
    });
}

/// A path against the directory moved to, when it is relative.
pub(crate) fn resolve_path(path: &str) -> Option<String> {
    let base = CWD.with(|c| c.borrow().clone())?;
    (!path.starts_with(['/', '~', '$']) && !path.is_empty())
        .then(|| normal(&format!("{base}/{path}")))
}

/// The operands of a file tool against the directory moved to (`rm`, `cp`,
/// `tee`, `shred`, …; `chmod`'s mode and `chown`'s owner, the first
/// operand, are not paths; `dd`'s `if=`/`of=` are). `None` when no `cd` is
/// known or `prog` is not such a tool.
pub(crate) fn resolve_operands(prog: &str, args: &[String]) -> Option<Vec<String>> {
    CWD.with(|c| c.borrow().is_some()).then_some(())?;
    let skip_first = matches!(prog, "chmod" | "chown" | "chgrp");
    let files = matches!(
        prog,
        "rm" | "cp"
            | "mv"
            | "tee"
            | "install"
            | "ln"
            | "rsync"
            | "shred"
            | "truncate"
            | "unlink"
            | "sed"
    );
    if prog == "dd" {
        let resolved = args.iter().map(|a| match a.split_once('=') {
            Some((k @ ("if" | "of"), v)) => {
                resolve_path(v).map_or_else(|| a.clone(), |p| format!("{k}={p}"))
            }
            _ => a.clone(),
        });
        return Some(resolved.collect());
    }
    if !(files || skip_first) {
        return None;
    }
    let (mut after_dashdash, mut first) = (false, skip_first);
    let resolved = args
        .iter()
        .map(|a| {
            if a == "--" && !after_dashdash {
                after_dashdash = true;
                return a.clone();
            }
            if !after_dashdash && a.starts_with('-') {
                return a.clone();
            }
            if std::mem::take(&mut first) {
                return a.clone();
            }
            resolve_path(a).unwrap_or_else(|| a.clone())
        })
        .collect();
    Some(resolved)
}

/// The directory a wrapper runs its command in: `env -C DIR`,
/// `env --chdir=DIR`, `sudo -D DIR`, `sudo --chdir=DIR` (words as
/// written, wrappers not yet stripped).
pub(crate) fn wrapper_dir(words: &[String]) -> Option<String> {
    let mut i = 0;
    while let Some(w) = words.get(i) {
        i += 1;
        let name = w.rsplit('/').next().unwrap_or(w);
        let short = match name {
            "env" => "-C",
            "sudo" => "-D",
            _ => continue,
        };
        while let Some(opt) = words.get(i) {
            i += 1;
            if !opt.starts_with('-') || opt == "--" {
                break;
            }
            if opt == short || opt == "--chdir" {
                return words.get(i).cloned();
            }
            if let Some(dir) = opt.strip_prefix("--chdir=") {
                return Some(dir.to_owned());
            }
            if let Some(dir) = opt.strip_prefix(short).filter(|d| !d.is_empty()) {
                return Some(dir.to_owned());
            }
        }
    }
    None
}

/// Moves to `dir` for one command, returning where the line was (give it
/// back to `restore` after the command).
pub(crate) fn enter(dir: &str) -> Option<String> {
    let before = CWD.with(|c| c.borrow().clone());
    follow(&["cd".to_owned(), dir.to_owned()]);
    before
}
