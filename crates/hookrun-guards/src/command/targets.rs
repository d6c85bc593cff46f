//! Targets as the kernel reads them, and which ones matter: the root,
//! system directories, homes, devices and the account files. Shared by the
//! per-program rules (`destructive.rs`) and the inline-code check.

use hookrun_sh::expand;

/// `/dev` targets that are not devices worth protecting.
pub(crate) const HARMLESS_DEVICES: &[&str] = &[
    "null", "zero", "random", "urandom", "full", "tty", "stdout", "stderr", "stdin",
];
/// Files whose overwrite or truncation locks users out of a system.
pub(crate) const ACCOUNT_FILES: &[&str] = &[
    "/etc/passwd",
    "/etc/shadow",
    "/etc/sudoers",
    "/etc/group",
    "/etc/gshadow",
    "/etc/crontab",
];
/// Directories every file of which is an account or scheduling file:
/// sudoers drop-ins and crontabs run as root.
const ACCOUNT_DIRS: &[&str] = &[
    "/etc/sudoers.d",
    "/etc/cron.d",
    "/etc/cron.hourly",
    "/etc/cron.daily",
    "/etc/cron.weekly",
    "/etc/cron.monthly",
    "/var/spool/cron",
    "/var/spool/cron/crontabs",
];
/// Directories in a home that are emptied as routine (caches, the trash).
const ROUTINE_IN_HOME: &[&str] = &[".cache", ".Trash", ".npm"];
/// Top-level system directories: deleting one recursively wrecks a system.
pub(crate) const SYSTEM_DIRS: &[&str] = &[
    "/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib64", "/opt", "/proc", "/root", "/sbin",
    "/srv", "/sys", "/usr", "/var",
];

/// Normalises a path operand for target checks: `//`, `/./`, trailing `/`.
pub(crate) fn normal(target: &str) -> String {
    let mut t = target.replace("${HOME}", "$HOME");
    while t.contains("//") {
        t = t.replace("//", "/");
    }
    while t.contains("/./") {
        t = t.replace("/./", "/");
    }
    if t.len() > 1 {
        t = t.trim_end_matches('/').to_owned();
        if let Some(stripped) = t.strip_suffix("/.") {
            t = if stripped.is_empty() {
                "/".to_owned()
            } else {
                stripped.to_owned()
            };
        }
    }
    if t.is_empty() {
        return "/".to_owned();
    }
    without_dot_dot(&t)
}

/// `..` applied lexically where the start is known (`/`, `~`, `$HOME`):
/// `/tmp/../etc` is `/etc`, `/usr/..` is `/`. Other paths are kept as
/// written.
pub(crate) fn without_dot_dot(t: &str) -> String {
    let (root, rest) = if let Some(r) = t.strip_prefix('/') {
        ("", r)
    } else if let Some(r) = t.strip_prefix("~/") {
        ("~", r)
    } else if let Some(r) = t.strip_prefix("$HOME/") {
        ("$HOME", r)
    } else if let Some((home, r)) = t.split_once('/').filter(|(h, _)| is_home(h)) {
        (home, r)
    } else {
        return t.to_owned();
    };
    if !rest.split('/').any(|c| c == "..") {
        return t.to_owned();
    }
    let mut parts: Vec<&str> = Vec::new();
    for c in rest.split('/') {
        match c {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            other => parts.push(other),
        }
    }
    match (root, parts.is_empty()) {
        ("", true) => "/".to_owned(),
        (r, true) => r.to_owned(),
        (r, false) => format!("{r}/{}", parts.join("/")),
    }
}

/// Targets whose recursive deletion wrecks a system or a home; a glob
/// (`/e*`, `/*/*`) is judged by what it could expand to (`expand.rs`).
pub(crate) fn catastrophic(target: &str) -> bool {
    any_expansion(target, catastrophic_path)
}

fn catastrophic_path(target: &str) -> bool {
    let t = normal(target);
    // `DIR/*` and `DIR/.*` (every dot file: `~/.*` is `.ssh`, `.config`, …)
    // delete what DIR holds.
    let base = t
        .strip_suffix("/*")
        .or_else(|| t.strip_suffix("/.*"))
        .unwrap_or(&t);
    if matches!(base, "/" | "." | ".." | "*" | ".*" | "/.." | "")
        || is_home(base)
        || (t == "/*")
        || SYSTEM_DIRS.contains(&base)
    {
        return true;
    }
    // A path that climbs out of a variable or a substitution cannot be
    // resolved (`$TMPDIR/../etc`): not trusted.
    if base.contains(['$', '`']) && base.split('/').any(|c| c == "..") {
        return true;
    }
    // A directory directly inside a home, a system directory or the root
    // (`/home/user`, `/var/log`, `~/Documents`, `/data`), but not the
    // temporary directories.
    match base.rsplit_once('/') {
        Some((parent, name)) if !name.is_empty() && !name.contains('*') => {
            (parent.is_empty() && !matches!(name, "tmp" | "mnt" | "media"))
                || (is_home(parent) && !ROUTINE_IN_HOME.contains(&name))
                || (SYSTEM_DIRS.contains(&parent) && base != "/var/tmp" && parent != "/opt")
        }
        _ => false,
    }
}

/// A write destination that is a device (`/dev/sda`, not `/dev/null`) or
/// one of the kernel's control files (`/proc/sysrq-trigger` reboots or
/// crashes the machine on one letter; `/proc/sys/…` and `/sys/…` change
/// the running kernel and its devices).
pub(crate) fn device_target(path: &str, who: &str) -> Option<String> {
    if !expand::has_glob(path) {
        return device_path(path, who);
    }
    expand::targets(path)
        .iter()
        .find_map(|p| device_path(p, who))
}

fn device_path(path: &str, who: &str) -> Option<String> {
    let dev = normal(path);
    if dev == "/proc/sysrq-trigger" || dev.starts_with("/proc/sys/") || dev.starts_with("/sys/") {
        return Some(format!(
            "{who} writes to `{dev}`, which controls the running kernel"
        ));
    }
    let name = dev.strip_prefix("/dev/")?;
    if HARMLESS_DEVICES.contains(&name)
        || name == "shm"
        || name.starts_with("tty")
        || name.starts_with("fd/")
        || name.starts_with("pts/")
        || name.starts_with("shm/")
    {
        return None;
    }
    Some(format!("{who} writes to the device `{dev}`"))
}

/// A home directory as written: `~`, `~root`, `$HOME`, `/root`,
/// `/home/NAME`.
fn is_home(word: &str) -> bool {
    word == "$HOME"
        || word == "/root"
        || word
            .strip_prefix("/home/")
            .is_some_and(|user| !user.is_empty() && !user.contains('/') && !user.contains('*'))
        || word.strip_prefix('~').is_some_and(|user| {
            user.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
        })
}

/// An account or scheduling file (`/etc/passwd`, `/etc/sudoers.d/x`, a
/// crontab), after normalisation: overwriting one locks users out or runs
/// code as root.
pub(crate) fn account_file(path: &str) -> bool {
    any_expansion(path, account_path)
}

fn account_path(path: &str) -> bool {
    let n = normal(path);
    ACCOUNT_FILES.contains(&n.as_str())
        || n.rsplit_once('/')
            .is_some_and(|(dir, name)| !name.is_empty() && ACCOUNT_DIRS.contains(&dir))
}

/// The root, a system directory or a home itself (`/`, `/usr/`, `~`,
/// `/etc/..`): what even a harmless-looking tool must not be pointed at
/// recursively by a name the guard cannot read.
pub(crate) fn root_like(path: &str) -> bool {
    any_expansion(path, root_like_path)
}

fn root_like_path(path: &str) -> bool {
    let n = normal(path);
    let base = n.strip_suffix("/*").unwrap_or(&n);
    matches!(base, "/" | "") || is_home(base) || SYSTEM_DIRS.contains(&base)
}

/// Whether `test` holds for a target or for anything its globs could
/// expand to; a target without glob characters is tested as it is, with
/// no allocation (these checks run on every operand of every command).
fn any_expansion(target: &str, test: fn(&str) -> bool) -> bool {
    if !expand::has_glob(target) {
        return test(target);
    }
    expand::targets(target).iter().any(|t| test(t))
}
