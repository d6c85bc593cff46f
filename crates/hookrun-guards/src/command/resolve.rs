//! Path resolution for `protect-paths`, the way the kernel walks a path:
//! symlinks are followed component by component as they are met, so a
//! `..` applies to where the link led, not to the text before it.

use std::collections::VecDeque;
use std::ffi::OsString;
use std::path::{Component, Path, PathBuf};

/// Symlinks followed in one walk before giving up (Linux's `ELOOP` limit).
pub(crate) const MAX_LINKS: usize = 40;

/// A path walked on the file system.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Walked {
    /// Where the walk led: the deepest existing prefix with its symlinks
    /// followed, then the components that do not exist, applied lexically.
    pub path: PathBuf,
    /// False when the walk met a symlink loop, more than [`MAX_LINKS`]
    /// links, or a component it could not read: `path` is then a best
    /// effort and the caller must judge the lexical path as well.
    pub complete: bool,
}

/// Makes `raw` absolute: `~`, `~/`, `$HOME` and `${HOME}` expanded to
/// `home`, a relative path joined to `cwd`. Nothing is normalised.
#[must_use]
pub(crate) fn absolute(raw: &str, cwd: &Path, home: &Path) -> PathBuf {
    let home_rest = ["~", "$HOME", "${HOME}"].iter().find_map(|h| {
        let rest = raw.strip_prefix(h)?;
        (rest.is_empty() || rest.starts_with('/')).then_some(rest)
    });
    match home_rest {
        Some(rest) => home.join(rest.trim_start_matches('/')),
        None => cwd.join(raw),
    }
}

/// Applies `.` and `..` as text (what the path says, not where it leads).
#[must_use]
pub(crate) fn lexical(p: &Path) -> PathBuf {
    let mut out = PathBuf::from("/");
    for c in p.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::Normal(n) => out.push(n),
            _ => {}
        }
    }
    out
}

/// Walks an absolute path from the root as the kernel does: each existing
/// component is `lstat`ed, a symlink is replaced by its target (absolute
/// targets restart from `/`, relative ones continue from the link's
/// directory), and `..` pops the resolved prefix. From the first component
/// that does not exist, the rest is applied lexically.
#[must_use]
pub(crate) fn walk(p: &Path) -> Walked {
    let mut todo: VecDeque<OsString> = names(p);
    let mut out = PathBuf::from("/");
    let mut links = 0;
    while let Some(name) = todo.pop_front() {
        if name == ".." {
            out.pop();
            continue;
        }
        let next = out.join(&name);
        let meta = match std::fs::symlink_metadata(&next) {
            Ok(m) => m,
            Err(e) => {
                let missing = matches!(
                    e.kind(),
                    std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
                );
                let rest: PathBuf = std::iter::once(name).chain(todo).collect();
                return Walked {
                    path: lexical(&out.join(rest)),
                    complete: missing,
                };
            }
        };
        if !meta.file_type().is_symlink() {
            out = next;
            continue;
        }
        links += 1;
        let target = match std::fs::read_link(&next) {
            Ok(t) if links <= MAX_LINKS => t,
            _ => {
                let rest: PathBuf = std::iter::once(name).chain(todo).collect();
                return Walked {
                    path: lexical(&out.join(rest)),
                    complete: false,
                };
            }
        };
        if target.is_absolute() {
            out = PathBuf::from("/");
        }
        for n in names(&target).into_iter().rev() {
            todo.push_front(n);
        }
    }
    Walked {
        path: out,
        complete: true,
    }
}

/// The components of a path as names, `.` dropped, `..` kept.
fn names(p: &Path) -> VecDeque<OsString> {
    p.components()
        .filter_map(|c| match c {
            Component::Normal(n) => Some(n.to_os_string()),
            Component::ParentDir => Some(OsString::from("..")),
            _ => None,
        })
        .collect()
}

/// The part of a glob pattern before the first component holding a glob
/// metacharacter (`*`, `?`, `[`, `{`): the directory the pattern searches.
#[must_use]
pub(crate) fn literal_prefix(pattern: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    for c in pattern.split('/') {
        if c.contains(['*', '?', '[', '{']) {
            break;
        }
        out.push(c);
    }
    let joined = out.join("/");
    if joined.is_empty() && pattern.starts_with('/') {
        "/".to_owned()
    } else if joined.is_empty() {
        ".".to_owned()
    } else {
        joined
    }
}
