//! Gitignore-style path globs and `*`/`?` wildcards: the pattern language
//! of protect-paths' lists, which hookrun's `if` rules (`Read(src/**)`,
//! `Bash(git *)`) share, so that one pattern means the same in both. Not
//! bash's globs (`hookrun_sh::glob`): there `**` is `*` and the file system
//! decides.

/// Matches `text` against a pattern where `*` is any run of characters (not
/// `/` unless `star_slash`) and `?` one character. Iterative, backtracking
/// only to the last star: linear in practice, never recursive.
#[must_use]
pub fn wildcard(pattern: &[u8], text: &[u8], star_slash: bool) -> bool {
    let (mut p, mut t) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        if p < pattern.len() && pattern[p] == b'*' {
            while p < pattern.len() && pattern[p] == b'*' {
                p += 1;
            }
            star = Some((p, t));
        } else if p < pattern.len() && (pattern[p] == b'?' || pattern[p] == text[t]) {
            p += 1;
            t += 1;
        } else if let Some((sp, st)) = star {
            if !star_slash && text[st] == b'/' {
                return false;
            }
            star = Some((sp, st + 1));
            p = sp;
            t = st + 1;
        } else {
            return false;
        }
    }
    while p < pattern.len() && pattern[p] == b'*' {
        p += 1;
    }
    p == pattern.len()
}

/// Matches a path against a gitignore-style glob: a `**` component matches
/// any number of whole components (so `**/.env` matches `/p/.env` but not
/// `/p/x.env`); other components use [`wildcard`] within one component.
#[must_use]
pub fn path_glob(pattern: &str, path: &str) -> bool {
    let pat: Vec<&str> = pattern.split('/').filter(|c| !c.is_empty()).collect();
    let comps: Vec<&str> = path.split('/').filter(|c| !c.is_empty()).collect();
    let anchored = pattern.starts_with('/') || pat.first() == Some(&"**");
    if anchored {
        components(&pat, &comps)
    } else {
        // A relative pattern may match at any depth.
        (0..=comps.len()).any(|i| components(&pat, &comps[i..]))
    }
}

/// A path glob split into components once, for repeated matching.
#[derive(Debug, Clone)]
pub struct PathGlob {
    anchored: bool,
    comps: Vec<String>,
}

impl PathGlob {
    #[must_use]
    pub fn new(pattern: &str) -> Self {
        let comps: Vec<String> = pattern
            .split('/')
            .filter(|c| !c.is_empty())
            .map(str::to_owned)
            .collect();
        let anchored = pattern.starts_with('/') || comps.first().is_some_and(|c| c == "**");
        PathGlob { anchored, comps }
    }

    /// Matches a path already split into components.
    #[must_use]
    pub fn matches(&self, path: &[&str]) -> bool {
        let pat: Vec<&str> = self.comps.iter().map(String::as_str).collect();
        if self.anchored {
            components(&pat, path)
        } else {
            (0..=path.len()).any(|i| components(&pat, &path[i..]))
        }
    }
}

fn components(pat: &[&str], comps: &[&str]) -> bool {
    match pat.split_first() {
        None => comps.is_empty(),
        Some((&"**", rest)) => (0..=comps.len()).any(|i| components(rest, &comps[i..])),
        Some((p, rest)) => comps.split_first().is_some_and(|(c, more)| {
            wildcard(p.as_bytes(), c.as_bytes(), false) && components(rest, more)
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_globs_respect_components() {
        assert!(path_glob("**/.env", "/p/.env"));
        assert!(path_glob("**/.env", "/.env"));
        assert!(!path_glob("**/.env", "/p/x.env"));
        assert!(path_glob("**/.env.*", "/p/.env.local"));
        assert!(!path_glob("**/.env.*", "/p/.envrc"));
        assert!(path_glob("**/.ssh/**", "/home/u/.ssh/id_rsa"));
        assert!(path_glob("/etc/cron*", "/etc/crontab"));
        assert!(path_glob("/etc/cron*/**", "/etc/cron.d/job"));
        assert!(!path_glob("/etc/cron*", "/etc/crontab/x"));
        assert!(path_glob("src/**", "src/a/b.rs"));
        assert!(path_glob("*.ts", "a/b/c.ts"));
    }

    #[test]
    fn wildcards() {
        assert!(wildcard(b"git *", b"git status", true));
        assert!(!wildcard(b"*.ts", b"a/b.ts", false));
        assert!(wildcard(b"a*b*c", b"aXbYc", false));
    }
}
