//! Shell globs in command lines, expanded as bash expands them: against
//! the file system, component by component, `*`/`?`/`[…]` within one
//! component, no match for a leading `.` unless the pattern spells it (no
//! `dotglob`), `**` as `*` (no `globstar`). The guard runs where the command
//! would run, so `cat .e*` is judged by the files it would really read.

use std::path::{Component, Path, PathBuf};

/// Directory entries looked at for one pattern before giving up: past it
/// the caller judges the pattern as text instead.
const MAX_ENTRIES: usize = 10_000;

/// The existing paths an absolute glob expands to, or `None` when the
/// expansion would look at more than [`MAX_ENTRIES`] entries.
pub fn expand(pattern: &Path) -> Option<Vec<PathBuf>> {
    let mut current = vec![PathBuf::from("/")];
    let mut seen = 0usize;
    for c in pattern.components() {
        let Component::Normal(name) = c else {
            if c == Component::ParentDir {
                current.iter_mut().for_each(|p| p.push(".."));
            }
            continue;
        };
        let name = name.to_string_lossy();
        let Some(re) = component_regex(&name) else {
            current.iter_mut().for_each(|p| p.push(name.as_ref()));
            continue;
        };
        let mut next = Vec::new();
        for dir in &current {
            let Ok(entries) = std::fs::read_dir(dir) else {
                continue;
            };
            for e in entries.flatten() {
                seen += 1;
                if seen > MAX_ENTRIES {
                    return None;
                }
                let file = e.file_name();
                let file = file.to_string_lossy();
                if file.starts_with('.') && !name.starts_with('.') {
                    continue;
                }
                if re.is_match(&file) {
                    next.push(dir.join(file.as_ref()));
                }
            }
        }
        next.sort();
        current = next;
    }
    current.retain(|p| std::fs::symlink_metadata(p).is_ok());
    Some(current)
}

/// A regex for one component, or `None` when it holds no glob character.
pub fn component_regex(glob: &str) -> Option<regex::Regex> {
    if !glob.contains(['*', '?', '[']) {
        return None;
    }
    let mut re = String::from("^");
    let mut chars = glob.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '*' => re.push_str(".*"),
            '?' => re.push('.'),
            '[' => {
                let mut class = String::new();
                let mut closed = false;
                if let Some(&n) = chars.peek()
                    && (n == '!' || n == '^')
                {
                    class.push('^');
                    chars.next();
                }
                let mut first = true;
                for d in chars.by_ref() {
                    if d == ']' && !first {
                        closed = true;
                        break;
                    }
                    first = false;
                    if d == '\\' || d == '[' || d == '&' || d == '~' || d == '-' && class.is_empty()
                    {
                        class.push('\\');
                    }
                    class.push(d);
                }
                if closed {
                    re.push('[');
                    re.push_str(&class);
                    re.push(']');
                } else {
                    re.push_str(&regex::escape(&format!("[{class}")));
                }
            }
            other => re.push_str(&regex::escape(&other.to_string())),
        }
    }
    re.push('$');
    regex::Regex::new(&re).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_expand_like_bash() {
        let dir = tempfile::tempdir().expect("tempdir");
        let d = std::fs::canonicalize(dir.path()).expect("canonical");
        for f in [
            ".env",
            ".env.local",
            "a.txt",
            "b.txt",
            "sub/.secret",
            "sub/c.rs",
        ] {
            let p = d.join(f);
            std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
            std::fs::write(&p, "x").expect("write");
        }
        let names = |pat: &str| -> Vec<String> {
            expand(&d.join(pat))
                .expect("bounded")
                .iter()
                .map(|p| p.strip_prefix(&d).expect("inside").display().to_string())
                .collect()
        };
        assert_eq!(names(".e*"), [".env", ".env.local"]);
        assert_eq!(names(".en?"), [".env"]);
        assert_eq!(
            names("[.]env"),
            Vec::<String>::new(),
            "bash: a class never matches a leading dot"
        );
        assert_eq!(names("*"), ["a.txt", "b.txt", "sub"]);
        assert_eq!(names("[ab].txt"), ["a.txt", "b.txt"]);
        assert_eq!(names("[!a].txt"), ["b.txt"]);
        assert_eq!(names("s*/.s*"), ["sub/.secret"]);
        assert_eq!(names("**/*.rs"), ["sub/c.rs"]);
        assert_eq!(names("nothing*"), Vec::<String>::new());
        assert_eq!(names("[unclosed"), Vec::<String>::new());
    }
}
