//! `dangerous-commands`: blocks shell commands that destroy a system, by
//! looking at the commands a command line runs (see `shell.rs`), through
//! `sudo`/`env`/`command` wrappers, `bash -c '…'`, `eval`, `$(…)` and
//! pipelines — not by one regex over the raw text.

use serde::Deserialize;

use super::guard::{Entry, Guard, Verdict, options};
use super::shell::{self, Command, Pipeline};
use super::inline_code;

use super::tools::SHELL_TOOLS;
use super::wrappers::{program, unwrap, unwrap_fed};
use crate::event::Event;

mod checked;
mod sourced;

use sourced::Sourced;

/// How deep the guard follows shells in shells, `eval` and substitutions.
/// Deeper text is denied, never allowed unseen.
const MAX_NESTING: usize = 8;

/// The longest command line analysed: far above any real one (Linux caps
/// one argument at 128 KiB and a whole command line at 2 MiB), so only
/// text crafted to exhaust the guard is denied for its size.
pub const MAX_INPUT: usize = 16 << 20;

fn too_long(len: usize) -> Option<String> {
    (len > MAX_INPUT).then(|| {
        format!(
            "a command of {len} bytes is longer than the {} MiB the guard analyses",
            MAX_INPUT >> 20
        )
    })
}

fn too_deep() -> String {
    format!(
        "commands nested more than {MAX_NESTING} levels deep (shells, `eval`, substitutions) are more than the guard analyses"
    )
}

/// Shells: `… | sh` runs whatever comes in, `sh -c X` runs X.
const SHELLS: &[&str] = &[
    "sh", "bash", "zsh", "ksh", "dash", "fish", "csh", "tcsh", "ash", "mksh", "busybox",
];
/// Interpreters that run a program read from stdin.
const INTERPRETERS: &[&str] = &[
    "python",
    "python2",
    "python3",
    "perl",
    "ruby",
    "node",
    "nodejs",
    "php",
    "lua",
    "deno",
    "bun",
    "pwsh",
    "osascript",
];
/// Programs that fetch from the network.
const DOWNLOADERS: &[&str] = &["curl", "wget", "fetch", "aria2c", "http", "https", "xh"];
/// `/dev` targets that are not devices worth protecting.
const HARMLESS_DEVICES: &[&str] = &[
    "null", "zero", "random", "urandom", "full", "tty", "stdout", "stderr", "stdin",
];
/// Files whose overwrite or truncation locks users out of a system.
const ACCOUNT_FILES: &[&str] = &[
    "/etc/passwd",
    "/etc/shadow",
    "/etc/sudoers",
    "/etc/group",
    "/etc/gshadow",
];
/// Top-level system directories: deleting one recursively wrecks a system.
const SYSTEM_DIRS: &[&str] = &[
    "/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib64", "/opt", "/proc", "/root", "/sbin",
    "/srv", "/sys", "/usr", "/var",
];

/// Options of `dangerous-commands`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// Regexes that replace the built-in rules (tested on each command the
    /// line runs, as `program arg…`).
    pub patterns: Option<Vec<String>>,
    /// Regexes added to the built-in rules.
    #[serde(default)]
    pub extra_patterns: Vec<String>,
}

/// The compiled rule set.
#[derive(Debug)]
pub struct DangerousCommands {
    builtin_rules: bool,
    patterns: Vec<regex::Regex>,
}

impl DangerousCommands {
    /// # Errors
    /// A pattern that does not compile.
    pub fn new(options: Options) -> Result<Self, String> {
        let builtin_rules = options.patterns.is_none();
        let patterns = options
            .patterns
            .unwrap_or_default()
            .into_iter()
            .chain(options.extra_patterns)
            .map(|p| {
                regex::Regex::new(&p)
                    .map_err(|e| format!("pattern `{p}` is not a valid regex: {e}"))
            })
            .collect::<Result<_, _>>()?;
        Ok(DangerousCommands {
            builtin_rules,
            patterns,
        })
    }

    /// Why the command line is dangerous, or `None`.
    #[must_use]
    pub fn check(&self, line: &str) -> Option<String> {
        if let Some(why) = too_long(line.len()) {
            return Some(why);
        }
        if self.builtin_rules {
            if let Some(why) = fork_bomb(line) {
                return Some(why);
            }
        }
        checked::reset();
        let why = self.parsed(line, 0);
        checked::reset();
        why
    }

    /// Checks a command given as argv (Codex's `["bash", "-lc", "…"]`).
    #[must_use]
    pub fn check_argv(&self, argv: &[String]) -> Option<String> {
        if let Some(why) = too_long(argv.iter().map(|a| a.len() + 1).sum()) {
            return Some(why);
        }
        checked::reset();
        let cmd = Command {
            words: argv.to_vec(),
            ..Command::default()
        };
        let why = self.script(&[vec![cmd]], 0);
        checked::reset();
        why
    }

    /// Parses `text` found at `depth` and checks it, refusing what nests
    /// deeper than the guard follows before looking into any of it.
    /// Pipelines are checked as they are parsed, so memory holds one at
    /// a time.
    fn parsed(&self, text: &str, depth: usize) -> Option<String> {
        let too_deep_at = |nesting: usize| depth.saturating_add(nesting) > MAX_NESTING;
        let (found, nesting) = shell::each_pipeline(text, |pipeline, nesting| {
            if too_deep_at(nesting) {
                return Some(too_deep());
            }
            self.script(&[pipeline], depth)
        });
        // Text without a whole pipeline can still nest too deep (`$($(…`).
        found.or_else(|| too_deep_at(nesting).then(too_deep))
    }

    fn script(&self, pipelines: &[Pipeline], depth: usize) -> Option<String> {
        if depth > MAX_NESTING {
            return Some(too_deep());
        }
        for pipeline in pipelines {
            for code in sourced::sourced(pipeline) {
                let why = match code {
                    Sourced::Text(text) => self.check_nested(text, depth),
                    Sourced::Piped(s) if depth + 1 + s.nesting > MAX_NESTING => Some(too_deep()),
                    Sourced::Piped(s) => self.script(&s.pipelines, depth + 1),
                };
                if why.is_some() {
                    return why;
                }
            }
            if let Some(why) = self.pipeline(pipeline, depth) {
                return Some(why);
            }
        }
        None
    }

    fn pipeline(&self, pipeline: &Pipeline, depth: usize) -> Option<String> {
        // Upstream commands already looked at for an earlier stage that
        // runs its stdin: each is looked at once (`… | sh | sh | sh` would
        // otherwise check the same text once per stage).
        let mut seen = 0;
        for (i, cmd) in pipeline.iter().enumerate() {
            for sub in &cmd.substitutions {
                if let Some(why) = self.check_nested(sub, depth) {
                    return Some(why);
                }
            }
            let (argv, fed) = unwrap_fed(&cmd.words);
            if let Some(why) = self.command(&argv, cmd, depth) {
                return Some(why);
            }
            if self.builtin_rules
                && fed
                && let Some(why) = fed_destructive(&argv)
            {
                return Some(why);
            }
            if self.builtin_rules && i > 0 && runs_stdin(&argv) {
                let upstream = pipeline.get(seen..i).unwrap_or_default();
                seen = i;
                if let Some(d) = upstream.iter().map(|c| unwrap(&c.words)).find(|a| {
                    a.first()
                        .is_some_and(|p| DOWNLOADERS.contains(&program(p).as_str()))
                }) {
                    return Some(format!(
                        "a download (`{}`) piped into `{}` runs code from the network unseen",
                        program(&d[0]),
                        program(&argv[0])
                    ));
                }
                // `echo 'rm -rf /' | sh` runs the echoed text, and
                // `cat <<EOF | sh` the here-doc.
                for up in upstream {
                    for body in &up.here {
                        if let Some(why) = self.check_nested(body, depth) {
                            return Some(why);
                        }
                    }
                    let a = unwrap(&up.words);
                    if a.first()
                        .is_some_and(|p| matches!(program(p).as_str(), "echo" | "printf"))
                    {
                        if let Some(why) = self.check_nested(&a[1..].join(" "), depth) {
                            return Some(why);
                        }
                    }
                }
            }
        }
        None
    }

    /// An interpreter's inline program or here-doc (`inline_code`): the
    /// strings it hands to a shell are checked as shell commands, and the
    /// paths handed to its delete calls as `rm -r` targets.
    fn inline_code(
        &self,
        prog: &str,
        args: &[String],
        cmd: &Command,
        depth: usize,
    ) -> Option<String> {
        let codes: Vec<String> = match inline_code::code_of(prog, args) {
            Some(code) => vec![code],
            None => cmd.here.clone(),
        };
        for code in &codes {
            for path in inline_code::deleted_paths(code) {
                if catastrophic(&path) || ACCOUNT_FILES.contains(&normal(&path).as_str()) {
                    return Some(format!("inline `{prog}` code deletes `{path}`"));
                }
            }
            for literal in inline_code::executed_literals(code) {
                if let Some(why) = self.check_nested(&literal, depth) {
                    return Some(format!("inline `{prog}` code runs a command: {why}"));
                }
            }
        }
        None
    }

    fn check_nested(&self, text: &str, depth: usize) -> Option<String> {
        if checked::is_clean(text, depth + 1) {
            return None;
        }
        let why = self.parsed(text, depth + 1);
        if why.is_none() {
            checked::mark_clean(text, depth + 1);
        }
        why
    }

    fn command(&self, argv: &[String], cmd: &Command, depth: usize) -> Option<String> {
        let line = argv.join(" ");
        if let Some(re) = self.patterns.iter().find(|re| re.is_match(&line)) {
            return Some(format!(
                "`{line}` matches the blocked pattern `{}`",
                re.as_str()
            ));
        }
        let Some(first) = argv.first() else {
            return self.builtin_rules.then(|| redirects(cmd)).flatten();
        };
        let prog = program(first);
        let args = &argv[1..];
        // `bash <(curl …)`, `sh -c "$(curl …)"`: a download fed to a shell.
        if self.builtin_rules
            && (SHELLS.contains(&prog.as_str())
                || INTERPRETERS.contains(&prog.as_str())
                || prog == "eval")
        {
            for sub in &cmd.substitutions {
                let downloads = shell::parse(sub).iter().flatten().any(|c| {
                    unwrap(&c.words)
                        .first()
                        .is_some_and(|p| DOWNLOADERS.contains(&program(p).as_str()))
                });
                if downloads {
                    return Some(format!(
                        "a download (`{}`) run by `{prog}` runs code from the network unseen",
                        sub.trim()
                    ));
                }
            }
        }
        // Code run by a shell or `eval`: look inside.
        if SHELLS.contains(&prog.as_str()) || prog == "eval" {
            let script = if prog == "eval" {
                Some(args.join(" "))
            } else {
                dash_c_script(args)
            };
            if let Some(s) = script {
                if let Some(why) = self.check_nested(&s, depth) {
                    return Some(why);
                }
            } else if prog != "eval" {
                // `sh <<EOF … EOF`, `bash <<< "…"`: the shell runs its stdin.
                for body in &cmd.here {
                    if let Some(why) = self.check_nested(body, depth) {
                        return Some(why);
                    }
                }
            }
        }
        if self.builtin_rules
            && INTERPRETERS.contains(&prog.as_str())
            && let Some(why) = self.inline_code(&prog, args, cmd, depth)
        {
            return Some(why);
        }
        if !self.builtin_rules {
            return None;
        }
        if let Some(why) = redirects(cmd) {
            return Some(why);
        }
        match prog.as_str() {
            "rm" => rm(args),
            p if p.starts_with("mkfs") || p == "mke2fs" || p == "mkswap" || p == "wipefs" => {
                Some(format!("`{p}` formats a file system"))
            }
            "dd" => dd(args),
            "chmod" | "chown" | "chgrp" => recursive_permissions(&prog, args),
            "shred" | "truncate" | "tee" | "cp" | "mv" | "install" | "ln" | "sed" | "unlink" => {
                account_file_write(&prog, args)
            }
            _ => None,
        }
    }
}

/// The script of `sh -c SCRIPT`: options may come before and after `-c`,
/// be clustered (`-lc`, `-euc`), take a value (`-o pipefail`, `+O
/// extglob`, `--rcfile F`), and `--` ends them.
fn dash_c_script(args: &[String]) -> Option<String> {
    let (mut saw_c, mut skip_value) = (false, false);
    let mut operands = args.iter();
    for a in operands.by_ref() {
        if skip_value {
            skip_value = false;
        } else if a == "--" || a == "-" {
            break;
        } else if let Some(long) = a.strip_prefix("--") {
            skip_value = matches!(long, "rcfile" | "init-file");
        } else if let Some(flags) = a.strip_prefix('-').or_else(|| a.strip_prefix('+')) {
            saw_c |= a.starts_with('-') && flags.contains('c');
            skip_value = flags.contains(['o', 'O']);
        } else {
            return saw_c.then(|| a.clone());
        }
    }
    operands.next().filter(|_| saw_c).cloned()
}

/// Whether a command runs code read from its stdin (`sh`, `sudo bash -s`,
/// `python3`, `python3 -`, `source /dev/stdin`), as the last stage of a
/// pipeline does.
fn runs_stdin(argv: &[String]) -> bool {
    let Some(first) = argv.first() else {
        return false;
    };
    let prog = program(first);
    if SHELLS.contains(&prog.as_str()) {
        return dash_c_script(&argv[1..]).is_none();
    }
    if matches!(first.as_str(), "source" | ".") {
        return argv.get(1).is_some_and(|f| sourced::is_stdin(f));
    }
    INTERPRETERS.contains(&prog.as_str())
        && argv[1..]
            .iter()
            .all(|a| a.starts_with('-') && a != "-c" && a != "-e")
}

/// Normalises a path operand for target checks: `//`, `/./`, trailing `/`.
fn normal(target: &str) -> String {
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
fn without_dot_dot(t: &str) -> String {
    let (root, rest) = if let Some(r) = t.strip_prefix('/') {
        ("", r)
    } else if let Some(r) = t.strip_prefix("~/") {
        ("~", r)
    } else if let Some(r) = t.strip_prefix("$HOME/") {
        ("$HOME", r)
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

/// Targets whose recursive deletion wrecks a system or a home.
fn catastrophic(target: &str) -> bool {
    let t = normal(target);
    let base = t.strip_suffix("/*").unwrap_or(&t);
    if matches!(base, "/" | "~" | "$HOME" | "." | ".." | "*" | "/.." | "")
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
                || matches!(parent, "~" | "$HOME")
                || (SYSTEM_DIRS.contains(&parent) && base != "/var/tmp")
        }
        _ => false,
    }
}

fn rm(args: &[String]) -> Option<String> {
    let (mut recursive, mut no_preserve) = (false, false);
    let mut operands = Vec::new();
    let mut options_done = false;
    for a in args {
        if options_done || !a.starts_with('-') || a == "-" {
            operands.push(a);
        } else if a == "--" {
            options_done = true;
        } else if let Some(long) = a.strip_prefix("--") {
            match long {
                "recursive" => recursive = true,
                "no-preserve-root" => no_preserve = true,
                _ => {}
            }
        } else if a.chars().skip(1).any(|c| c == 'r' || c == 'R') {
            recursive = true;
        }
    }
    if no_preserve {
        return Some("`rm --no-preserve-root` deletes the root file system".into());
    }
    let target = operands.iter().find(|o| catastrophic(o))?;
    recursive.then(|| format!("`rm` recursively deletes `{target}`"))
}

fn dd(args: &[String]) -> Option<String> {
    let of = args.iter().find_map(|a| a.strip_prefix("of="))?;
    if let Some(why) = device_target(of, "`dd`") {
        return Some(why);
    }
    ACCOUNT_FILES
        .contains(&normal(of).as_str())
        .then(|| format!("`dd` overwrites `{of}`"))
}

fn device_target(path: &str, who: &str) -> Option<String> {
    let dev = normal(path);
    let name = dev.strip_prefix("/dev/")?;
    if HARMLESS_DEVICES.contains(&name)
        || name.starts_with("fd/")
        || name.starts_with("pts/")
        || name.starts_with("shm/")
    {
        return None;
    }
    Some(format!("{who} writes to the device `{dev}`"))
}

fn redirects(cmd: &Command) -> Option<String> {
    for (op, target) in &cmd.redirects {
        if !op.contains('>') || target.chars().all(|c| c.is_ascii_digit() || c == '-') {
            continue;
        }
        if let Some(why) = device_target(target, "a redirection") {
            return Some(why);
        }
        if ACCOUNT_FILES.contains(&normal(target).as_str())
            || normal(target).starts_with("/etc/sudoers.d/")
        {
            return Some(format!(
                "a redirection (`{op} {target}`) overwrites `{target}`"
            ));
        }
    }
    None
}

fn recursive_permissions(prog: &str, args: &[String]) -> Option<String> {
    let recursive = args.iter().any(|a| {
        a == "--recursive" || (a.starts_with('-') && !a.starts_with("--") && a.contains('R'))
    });
    let operands: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    if prog == "chmod" {
        let world = operands.first().is_some_and(|m| {
            matches!(
                m.as_str(),
                "777" | "0777" | "a+rwx" | "ugo+rwx" | "a=rwx" | "ugo=rwx" | "o+w" | "a+w"
            )
        });
        if let Some(t) = operands
            .iter()
            .skip(1)
            .find(|t| ACCOUNT_FILES.contains(&normal(t).as_str()))
        {
            return Some(format!("`chmod` changes the permissions of `{t}`"));
        }
        if recursive && world {
            if let Some(t) = operands.iter().skip(1).find(|t| catastrophic(t)) {
                return Some(format!(
                    "`chmod -R {}` makes `{t}` writable by everyone",
                    operands[0]
                ));
            }
        }
        return None;
    }
    let target = operands
        .iter()
        .skip(1)
        .find(|t| catastrophic(t) || ACCOUNT_FILES.contains(&normal(t).as_str()))?;
    (recursive || ACCOUNT_FILES.contains(&normal(target).as_str()))
        .then(|| format!("`{prog}` changes the owner of `{target}`"))
}

/// Overwriting, truncating or replacing an account file.
fn account_file_write(prog: &str, args: &[String]) -> Option<String> {
    let operands: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    let hits = |t: &&String| {
        let n = normal(t);
        ACCOUNT_FILES.contains(&n.as_str()) || n.starts_with("/etc/sudoers.d/")
    };
    let target = match prog {
        // Only the destination matters: copying *from* /etc/passwd is fine.
        "cp" | "mv" | "install" | "ln" => operands
            .last()
            .filter(|t| hits(t) && operands.len() > 1)
            .copied(),
        "sed"
            if args
                .iter()
                .any(|a| a.starts_with("-i") || a.starts_with("--in-place")) =>
        {
            operands.iter().skip(1).find(|t| hits(t)).copied()
        }
        "sed" => None,
        _ => operands.iter().find(|t| hits(t)).copied(),
    }?;
    Some(format!("`{prog}` overwrites `{target}`"))
}

/// `:(){ :|:& };:` and renamed variants: a function whose body pipes
/// itself into itself in the background. Checked on the text without
/// blanks, so spacing does not matter; no regex, so no start-up cost.
fn fork_bomb(line: &str) -> Option<String> {
    if !line.contains('(') {
        return None;
    }
    let s: String = line.chars().filter(|c| !c.is_whitespace()).collect();
    let is_name = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | ':' | '.' | '-');
    let mut from = 0;
    while let Some(i) = s[from..].find("(){").map(|i| i + from) {
        let name_start = s[..i]
            .char_indices()
            .rev()
            .take_while(|(_, c)| is_name(*c))
            .last()
            .map_or(i, |(j, _)| j);
        let name = &s[name_start..i];
        let body = &s[i + 3..];
        if !name.is_empty()
            && (body.starts_with(&format!("{name}|{name}&"))
                || body.starts_with(&format!("{name}|&{name}&")))
        {
            return Some("a fork bomb".to_owned());
        }
        from = i + 3;
    }
    None
}

/// The registry entry of `dangerous-commands`.
pub const ENTRY: Entry = Entry {
    name: "dangerous-commands",
    summary: "denies shell commands that destroy a system",
    build: |o| {
        Ok(Box::new(DangerousCommands::new(options(
            "dangerous-commands",
            o,
        )?)?))
    },
};

impl Guard for DangerousCommands {
    fn evaluate(&self, event: &Event, _project: &std::path::Path) -> Verdict {
        let tool = event.str_field("tool_name").to_ascii_lowercase();
        let guard_event = matches!(event.name.as_str(), "PreToolUse" | "PermissionRequest");
        let empty = serde_json::Map::new();
        let input = event.tool_input().unwrap_or(&empty);
        let top = event.fields.get("command");
        if !guard_event && top.is_none() {
            return Verdict::Pass;
        }
        if top.is_none() && !SHELL_TOOLS.contains(&tool.as_str()) {
            return Verdict::Pass;
        }
        let command = input.get("command").or_else(|| input.get("cmd")).or(top);
        let why = match command {
            Some(serde_json::Value::String(line)) => self.check(line),
            Some(serde_json::Value::Array(argv)) => {
                let argv: Vec<String> = argv
                    .iter()
                    .filter_map(|a| a.as_str().map(str::to_owned))
                    .collect();
                self.check_argv(&argv)
            }
            _ => None,
        };
        why.map_or(Verdict::Pass, |w| {
            Verdict::Deny(format!("dangerous command: {w}"))
        })
    }
}

/// A destructive command whose operands come from `xargs`' or `parallel`'s
/// input: they cannot be checked, so the command is not trusted.
fn fed_destructive(argv: &[String]) -> Option<String> {
    let prog = program(argv.first()?);
    let args = &argv[1..];
    let recursive = args.iter().any(|a| {
        a == "--recursive" || (a.starts_with('-') && !a.starts_with("--") && a.contains(['r', 'R']))
    });
    let what = match prog.as_str() {
        "rm" if recursive => "`rm -r`",
        "shred" | "wipefs" | "dd" => "a wiping tool",
        p if p.starts_with("mkfs") => "a file-system formatter",
        "find" if args.iter().any(|a| a == "-delete" || a == "-exec" || a == "-execdir") => {
            "`find` that deletes or runs commands"
        }
        _ => return None,
    };
    Some(format!(
        "`xargs`/`parallel` runs {what} on arguments read from its input, which cannot be checked"
    ))
}
