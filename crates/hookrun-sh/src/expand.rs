//! The shell's expansions of a word that the guards judge by what they
//! produce: brace alternatives (`{/,/tmp}` is `/` and `/tmp`) and globs in
//! targets (`/e*` is `/etc`). Globs are expanded against the file system as
//! bash would (`glob`), and also matched against the paths the rules
//! protect, which may not exist where the guard runs (a device, a crontab)
//! but would where the command does.

use std::path::Path;

use crate::glob::{self, component_regex};

/// The most words one word's braces may make: past it the word is kept
/// as written (`{a,b}{c,d}…` cannot multiply).
const MAX_BRACE_WORDS: usize = 64;

/// Paths the rules protect, as examples of what a glob in a target could
/// name: the root's system directories and common entries directly inside
/// them, account files, devices and the kernel's control files.
const PROTECTED: &[&str] = &[
    "/bin",
    "/boot",
    "/dev",
    "/etc",
    "/home",
    "/lib",
    "/lib64",
    "/opt",
    "/proc",
    "/root",
    "/sbin",
    "/srv",
    "/sys",
    "/usr",
    "/var",
    "/usr/bin",
    "/usr/lib",
    "/usr/local",
    "/usr/share",
    "/usr/sbin",
    "/etc/ssh",
    "/etc/ssl",
    "/etc/default",
    "/var/lib",
    "/var/log",
    "/var/www",
    "/boot/grub",
    "/home/user",
    "/root/.ssh",
    "/etc/passwd",
    "/etc/shadow",
    "/etc/group",
    "/etc/gshadow",
    "/etc/sudoers",
    "/etc/crontab",
    "/etc/sudoers.d/x",
    "/etc/cron.d/x",
    "/var/spool/cron/crontabs/root",
    "/dev/sda",
    "/dev/sdb",
    "/dev/hda",
    "/dev/vda",
    "/dev/xvda",
    "/dev/nvme0n1",
    "/dev/mmcblk0",
    "/dev/md0",
    "/dev/dm-0",
    "/dev/mapper/root",
    "/proc/sysrq-trigger",
    "/proc/sys/kernel/panic",
    "/sys/block/sda",
    "/home/user/Documents",
    "/home/user/.ssh",
    "/home/user/.config",
    "/root/.config",
    "~/Documents",
    "~/Desktop",
    "~/Downloads",
    "~/Pictures",
    "~/Music",
    "~/Videos",
    "~/.ssh",
    "~/.config",
    "~/.local",
    "~/.gnupg",
    "~/projects",
    "~/src",
    "~/work",
    "~/code",
];

/// `word` with its brace alternatives expanded as bash does (`a{b,c}d` is
/// `abd acd`, nested braces too); a word without a `{…,…}` is itself. Empty
/// results are dropped, as the shell drops empty unquoted words.
pub fn braces(word: &str) -> Vec<String> {
    let mut out = Vec::new();
    expand_braces(word, &mut out);
    if out.len() > MAX_BRACE_WORDS {
        return vec![word.to_owned()];
    }
    out.retain(|w| !w.is_empty());
    out
}

fn expand_braces(word: &str, out: &mut Vec<String>) {
    if out.len() > MAX_BRACE_WORDS {
        return;
    }
    let Some((open, close, alternatives)) = first_brace(word) else {
        out.push(word.to_owned());
        return;
    };
    let (head, tail) = (&word[..open], &word[close + 1..]);
    for alt in alternatives {
        expand_braces(&format!("{head}{alt}{tail}"), out);
    }
}

/// The first `{…}` holding a top-level comma: its bounds and alternatives.
fn first_brace(word: &str) -> Option<(usize, usize, Vec<&str>)> {
    let bytes = word.as_bytes();
    let mut from = 0;
    while let Some(open) = word[from..].find('{').map(|i| i + from) {
        let mut depth = 0;
        let mut commas = Vec::new();
        for (i, &b) in bytes.iter().enumerate().skip(open) {
            match b {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        if commas.is_empty() {
                            break;
                        }
                        let mut parts = Vec::new();
                        let mut start = open + 1;
                        for &c in &commas {
                            parts.push(&word[start..c]);
                            start = c + 1;
                        }
                        parts.push(&word[start..i]);
                        return Some((open, i, parts));
                    }
                }
                b',' if depth == 1 => commas.push(i),
                _ => {}
            }
        }
        from = open + 1;
    }
    None
}

/// Whether a word holds a glob character the shell expands.
pub fn has_glob(word: &str) -> bool {
    word.contains(['*', '?', '['])
}

/// What a target may name once its globs are expanded: the existing paths
/// it matches (absolute targets only), the protected paths it could match,
/// and the target itself. A target without glob characters is itself.
pub fn targets(target: &str) -> Vec<String> {
    if !has_glob(target) {
        return vec![target.to_owned()];
    }
    let mut out = vec![target.to_owned()];
    if target.starts_with("~/") {
        out.extend(
            PROTECTED
                .iter()
                .filter(|p| glob_matches(target, p))
                .map(|p| (*p).to_owned()),
        );
    }
    if target.starts_with('/') {
        for p in glob::expand(Path::new(target)).unwrap_or_default() {
            out.push(p.to_string_lossy().into_owned());
        }
        out.extend(
            PROTECTED
                .iter()
                .filter(|p| glob_matches(target, p))
                .map(|p| (*p).to_owned()),
        );
    }
    out
}

/// Whether the glob `pattern` matches the whole of `path`, component by
/// component (`*` never crosses a `/`).
fn glob_matches(pattern: &str, path: &str) -> bool {
    let pattern = pattern.trim_end_matches('/');
    let (mut pats, mut names) = (pattern.split('/'), path.split('/'));
    loop {
        match (pats.next(), names.next()) {
            (None, None) => return true,
            (Some(p), Some(n)) => {
                let hit = match component_regex(p) {
                    Some(re) => (p.starts_with('.') || !n.starts_with('.')) && re.is_match(n),
                    None => p == n,
                };
                if !hit {
                    return false;
                }
            }
            _ => return false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn braces_expand_as_bash_does() {
        assert_eq!(braces("{/,/tmp}"), ["/", "/tmp"]);
        assert_eq!(braces("a{b,c}d"), ["abd", "acd"]);
        assert_eq!(braces("{/etc/passwd,}"), ["/etc/passwd"]);
        assert_eq!(braces("/{e{t,x}c,usr}"), ["/etc", "/exc", "/usr"]);
        assert_eq!(braces("{}"), ["{}"]);
        assert_eq!(braces("x{a}"), ["x{a}"]);
        assert_eq!(braces("{unclosed,"), ["{unclosed,"]);
        let many = "{a,b}".repeat(10);
        assert_eq!(braces(&many), std::slice::from_ref(&many));
    }

    #[test]
    fn globs_in_targets_name_what_they_could_match() {
        assert!(targets("/e*").iter().any(|t| t == "/etc"));
        assert!(targets("/*/*").iter().any(|t| t == "/usr/bin"));
        assert!(targets("/etc/passw?").iter().any(|t| t == "/etc/passwd"));
        assert!(targets("/dev/sd[a-z]").iter().any(|t| t == "/dev/sda"));
        assert!(
            targets("/proc/sysrq-tr[i]gger")
                .iter()
                .any(|t| t == "/proc/sysrq-trigger")
        );
        assert_eq!(targets("./build"), ["./build"]);
        assert_eq!(targets("*.o"), ["*.o"]);
        assert!(
            !targets("/tmp/x*")
                .iter()
                .any(|t| PROTECTED.contains(&t.as_str()))
        );
    }
}
