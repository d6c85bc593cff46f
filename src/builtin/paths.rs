//! `protect-paths`: denies reads and writes of sensitive files, path
//! traversal out of the project, and (with `allowed_write_roots`) writes
//! outside given roots. Paths are resolved the way the file system will:
//! `~` expanded, relative to the event's `cwd`, `..` applied, symlinks
//! followed (for the part of the path that exists), and roots compared
//! component by component, so `/out` never admits `/out-other`.

use std::path::{Component, Path, PathBuf};

use super::guard::{Entry, Guard, Verdict, options};
use super::tools::{READ_TOOLS, WRITE_TOOLS, paths_of};
use crate::event::Event;
use serde::Deserialize;

/// Sensitive to read and to write.
const READ_DENY: &[&str] = &[
    "**/.ssh",
    "**/.ssh/**",
    "**/.env",
    "**/.env.*",
    "**/.aws/credentials",
    "**/.config/gcloud",
    "**/.config/gcloud/**",
    "**/application_default_credentials.json",
    "/etc/shadow",
    "/etc/gshadow",
];

/// Sensitive to write (on top of `READ_DENY`).
const WRITE_DENY: &[&str] = &[
    "/etc/passwd",
    "/etc/group",
    "/etc/sudoers",
    "/etc/sudoers.d/**",
    "/etc/cron*",
    "/etc/cron*/**",
    "/var/spool/cron/**",
    "**/.bashrc",
    "**/.bash_profile",
    "**/.bash_login",
    "**/.bash_logout",
    "**/.profile",
    "**/.zshrc",
    "**/.zprofile",
    "**/.zshenv",
    "**/.zlogin",
    "**/.config/fish/config.fish",
];

/// Options of `protect-paths`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// Globs (`*`, `**`, `?`; `~/` expanded) that replace the default
    /// read-and-write deny list.
    pub deny: Option<Vec<String>>,
    #[serde(default)]
    pub extra_deny: Vec<String>,
    /// Globs that replace the default write-only deny list.
    pub write_deny: Option<Vec<String>>,
    #[serde(default)]
    pub extra_write_deny: Vec<String>,
    /// When set, writes must resolve inside one of these directories
    /// (relative ones are resolved against the project directory).
    pub allowed_write_roots: Option<Vec<String>>,
    /// Deny paths that use `..` to leave the project (default true).
    pub deny_traversal: Option<bool>,
}

/// The compiled rules: globs expanded (`~/`) and split once, at load.
#[derive(Debug)]
pub struct ProtectPaths {
    deny: Vec<(String, crate::glob::PathGlob)>,
    write_deny: Vec<(String, crate::glob::PathGlob)>,
    roots: Option<Vec<String>>,
    deny_traversal: bool,
}

/// Whether a file tool reads or writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
}

impl ProtectPaths {
    #[must_use]
    pub fn new(o: Options) -> Self {
        let owned = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        let mut deny = o.deny.unwrap_or_else(|| owned(READ_DENY));
        deny.extend(o.extra_deny);
        let mut write_deny = o.write_deny.unwrap_or_else(|| owned(WRITE_DENY));
        write_deny.extend(o.extra_write_deny);
        let home = home();
        let compile = |v: Vec<String>| -> Vec<(String, crate::glob::PathGlob)> {
            v.into_iter()
                .map(|g| {
                    let compiled = crate::glob::PathGlob::new(&expand(&g, &home));
                    (g, compiled)
                })
                .collect()
        };
        ProtectPaths {
            deny: compile(deny),
            write_deny: compile(write_deny),
            roots: o.allowed_write_roots,
            deny_traversal: o.deny_traversal.unwrap_or(true),
        }
    }

    /// Why an access is denied, or `None`. `cwd` resolves relative paths;
    /// `project` bounds traversal and relative roots.
    #[must_use]
    pub fn check(&self, raw: &str, access: Access, cwd: &Path, project: &Path) -> Option<String> {
        let home = home();
        let resolved = resolve(raw, cwd, &home);
        let shown = resolved.display().to_string();
        let comps: Vec<&str> = shown.split('/').filter(|c| !c.is_empty()).collect();
        let verb = if access == Access::Read {
            "read"
        } else {
            "write"
        };
        if let Some((g, _)) = self.deny.iter().find(|(_, glob)| glob.matches(&comps)) {
            return Some(format!(
                "{verb} of a sensitive path: `{raw}` (matches `{g}`)"
            ));
        }
        if access == Access::Write {
            if let Some((g, _)) = self
                .write_deny
                .iter()
                .find(|(_, glob)| glob.matches(&comps))
            {
                return Some(format!(
                    "write to a sensitive path: `{raw}` (matches `{g}`)"
                ));
            }
        }
        let uses_dotdot = Path::new(raw)
            .components()
            .any(|c| c == Component::ParentDir);
        let project = resolve(&project.display().to_string(), cwd, &home);
        if self.deny_traversal && uses_dotdot && !resolved.starts_with(&project) {
            return Some(format!(
                "path traversal out of the project: `{raw}` resolves to `{shown}`, outside `{}`",
                project.display()
            ));
        }
        if access == Access::Write {
            if let Some(roots) = &self.roots {
                let inside = roots
                    .iter()
                    .any(|r| resolved.starts_with(resolve(r, &project, &home)));
                if !inside {
                    return Some(format!(
                        "write outside the allowed roots: `{raw}` resolves to `{shown}` (allowed: {})",
                        roots.join(", ")
                    ));
                }
            }
        }
        None
    }
}

fn home() -> PathBuf {
    std::env::var_os("HOME").map_or_else(|| PathBuf::from("/root"), PathBuf::from)
}

fn expand(pattern: &str, home: &Path) -> String {
    match pattern.strip_prefix("~/") {
        Some(rest) => format!("{}/{rest}", home.display()),
        None => pattern.to_owned(),
    }
}

/// Makes a path absolute (`~`, relative to `cwd`), applies `.` and `..`
/// lexically, then follows the symlinks of its longest existing prefix.
#[must_use]
pub fn resolve(raw: &str, cwd: &Path, home: &Path) -> PathBuf {
    let p = if raw == "~" {
        home.to_path_buf()
    } else if let Some(rest) = raw.strip_prefix("~/") {
        home.join(rest)
    } else {
        cwd.join(raw)
    };
    let mut lexical = PathBuf::from("/");
    for c in p.components() {
        match c {
            Component::ParentDir => {
                lexical.pop();
            }
            Component::Normal(n) => lexical.push(n),
            _ => {}
        }
    }
    // Follow symlinks on the part that exists (one `lstat` per existing
    // component); the rest cannot be a symlink and is kept as written.
    let mut out = PathBuf::from("/");
    let mut comps = lexical.components().skip(1).peekable();
    let mut hops = 0;
    while let Some(c) = comps.next() {
        out.push(c);
        match std::fs::symlink_metadata(&out) {
            Ok(m) if m.file_type().is_symlink() && hops < 40 => {
                hops += 1;
                if let Ok(target) = std::fs::read_link(&out) {
                    out.pop();
                    let joined = out.join(target);
                    let rest: PathBuf = comps.collect();
                    return resolve_hops(&joined.join(rest), home, hops);
                }
            }
            Ok(_) => {}
            Err(_) => {
                out.extend(comps);
                return out;
            }
        }
    }
    out
}

/// Re-resolves after a symlink, bounding the number of hops (loops).
fn resolve_hops(p: &Path, home: &Path, hops: usize) -> PathBuf {
    if hops >= 40 {
        return p.to_path_buf();
    }
    resolve(&p.display().to_string(), Path::new("/"), home)
}

/// The registry entry of `protect-paths`.
pub const ENTRY: Entry = Entry {
    name: "protect-paths",
    summary: "denies reads/writes of sensitive files, traversal, writes outside roots",
    build: |o| Ok(Box::new(ProtectPaths::new(options("protect-paths", o)?))),
};

impl Guard for ProtectPaths {
    fn evaluate(&self, event: &Event, project: &Path) -> Verdict {
        if !matches!(event.name.as_str(), "PreToolUse" | "PermissionRequest") {
            return Verdict::Pass;
        }
        let tool = event.str_field("tool_name").to_ascii_lowercase();
        let access = if READ_TOOLS.contains(&tool.as_str()) {
            Access::Read
        } else if WRITE_TOOLS.contains(&tool.as_str()) {
            Access::Write
        } else {
            return Verdict::Pass;
        };
        let empty = serde_json::Map::new();
        let input = event.tool_input().unwrap_or(&empty);
        let cwd = Path::new(event.str_field("cwd"));
        let cwd = if cwd.is_absolute() {
            cwd.to_path_buf()
        } else {
            project.join(cwd)
        };
        for p in paths_of(&tool, input) {
            if let Some(why) = self.check(&p, access, &cwd, project) {
                return Verdict::Deny(why);
            }
        }
        Verdict::Pass
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolution() {
        let home = Path::new("/home/u");
        assert_eq!(
            resolve("a/../b", Path::new("/p"), home),
            PathBuf::from("/p/b")
        );
        assert_eq!(
            resolve("~/.ssh/id", Path::new("/p"), home),
            PathBuf::from("/home/u/.ssh/id")
        );
        assert_eq!(
            resolve("/x/./y/..", Path::new("/p"), home),
            PathBuf::from("/x")
        );
    }
}
