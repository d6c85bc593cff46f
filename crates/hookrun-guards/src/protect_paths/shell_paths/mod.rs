//! `protect-paths` over shell text: the paths a command line reads or
//! writes through its redirections and the file tools it runs (`cat`,
//! `cp`, `mv`, `tee`, `sed -i`, `dd`, `apply_patch`, …), read with the same
//! shell lexer as `dangerous-commands`. A best-effort layer: a program the
//! table does not know, a path computed at run time (`$(…)`, variables
//! other than `$HOME`) or a script the shell reads from a file is not seen.
//! The agents' sandboxes, not a guard over text, contain a shell.

use crate::command::tools::{Access, patch_paths};
use crate::command::wrappers::{Runs, program, unwrap_fed};
use hookrun_code::r::{self as r_code, Act};
use hookrun_sh::{self as shell, Command};

/// How deep `sh -c`, `eval` and substitutions are followed.
const MAX_DEPTH: usize = 8;

/// One path a command line names, and whether it is read or written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Touched {
    pub text: String,
    pub access: Access,
    /// The path holds glob characters the shell expands (`~/.ssh/*`).
    pub pattern: bool,
}

/// What a program does with its operands.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Every operand is read.
    Reads,
    /// Every operand is written (created, truncated, removed, changed).
    Writes,
    /// The first operand is not a path (a mode, an owner, a pattern, a
    /// program), unless an option gave it; the rest are read.
    ReadsAfterFirst,
    /// As `ReadsAfterFirst`, but the operands are written (`chmod MODE F`).
    WritesAfterFirst,
    /// Sources are read, the last operand (or `-t DIR`) is written.
    Copies,
    /// `sed`: a script first (unless `-e`/`-f`), files written with `-i`.
    Sed,
    /// `dd`: `if=` read, `of=` written.
    Dd,
}

/// Programs whose operands are paths, with the options that take a value
/// (whose value is not an operand). The first entry naming a program wins;
/// a value option missing from a list only adds a harmless extra path,
/// while a flag listed as taking a value would hide one, so the lists name
/// only options known to take one.
const PROGRAMS: &[(&[&str], Kind, &[&str])] = &[
    (
        &[
            "cat",
            "tac",
            "nl",
            "less",
            "more",
            "most",
            "strings",
            "wc",
            "uniq",
            "paste",
            "diff",
            "cmp",
            "comm",
            "md5sum",
            "sha1sum",
            "sha256sum",
            "sha512sum",
            "b2sum",
            "cksum",
            "file",
            "bat",
            "batcat",
            "zcat",
            "zless",
            "bzcat",
            "tar",
            "zip",
            "gzip",
            "bzip2",
            "xz",
            "zstd",
            "7z",
            "gpg",
            "age",
            "xzcat",
            "source",
            ".",
            "expand",
            "unexpand",
            "view",
            "look",
            "split",
            "csplit",
        ],
        Kind::Reads,
        &[],
    ),
    (
        &["fold", "fmt", "base64", "base32", "column"],
        Kind::Reads,
        &["-w", "--width"],
    ),
    (
        &["iconv"],
        Kind::Reads,
        &["-f", "-t", "--from-code", "--to-code"],
    ),
    (
        &["od", "hexdump", "xxd"],
        Kind::Reads,
        &["-A", "-t", "-j", "-N", "-s", "-l", "-c", "-g", "-n"],
    ),
    (
        &["head", "tail"],
        Kind::Reads,
        &["-n", "-c", "--lines", "--bytes", "-s"],
    ),
    (
        &["sort"],
        Kind::Reads,
        &["-k", "-t", "-S", "-T", "--key", "-o"],
    ),
    (&["cut"], Kind::Reads, &["-d", "-f", "-c", "-b"]),
    (
        &["grep", "egrep", "fgrep", "rg", "ag", "ack", "zgrep"],
        Kind::ReadsAfterFirst,
        &[
            "-m",
            "-A",
            "-B",
            "-C",
            "-d",
            "-D",
            "--max-count",
            "-g",
            "-t",
            "--type",
        ],
    ),
    (
        &["awk", "gawk", "mawk", "nawk"],
        Kind::ReadsAfterFirst,
        &["-F", "-v"],
    ),
    (
        &["jq", "yq"],
        Kind::ReadsAfterFirst,
        &["--arg", "--argjson", "--indent"],
    ),
    // `rm -r DIR`: no option of theirs takes a value (`-r` is `touch`'s).
    (&["rm", "unlink", "rmdir"], Kind::Writes, &[]),
    (
        &[
            "tee", "touch", "truncate", "shred", "mkdir", "vi", "vim", "nvim", "nano", "emacs",
            "pico", "ed", "code", "mkfifo",
        ],
        Kind::Writes,
        &[
            "-s",
            "--size",
            "-r",
            "--reference",
            "-m",
            "--mode",
            "-n",
            "-d",
            "-t",
        ],
    ),
    (
        &["chmod", "chown", "chgrp", "chattr", "setfacl"],
        Kind::WritesAfterFirst,
        &["--reference"],
    ),
    (
        &["cp", "mv", "install", "ln", "rsync", "scp", "link"],
        Kind::Copies,
        &[
            "-S", "--suffix", "-m", "--mode", "-o", "--owner", "-g", "--group", "-e", "-P",
        ],
    ),
    (&["sed", "gsed"], Kind::Sed, &["-l", "--line-length"]),
    (&["dd"], Kind::Dd, &[]),
];

/// Descriptors and devices every shell command writes to harmlessly.
const HARMLESS: &[&str] = &["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "-"];

/// Every path a shell command line names; with `r`, also those of the R
/// code `Rscript -e`/`R -e` run.
pub(crate) fn touched(line: &str, r: bool) -> Vec<Touched> {
    let mut out = Vec::new();
    walk(line, 0, r, &mut out);
    out
}

/// Every path a command given as argv names (Codex's `["bash", "-lc", …]`
/// or `["apply_patch", PATCH]`).
pub(crate) fn touched_argv(argv: &[String], r: bool) -> Vec<Touched> {
    let mut out = Vec::new();
    let cmd = Command {
        words: argv.to_vec(),
        ..Command::default()
    };
    command(&cmd, 0, r, &mut out);
    out
}

fn walk(text: &str, depth: usize, r: bool, out: &mut Vec<Touched>) {
    if depth > MAX_DEPTH {
        return;
    }
    for pipeline in shell::parse(text) {
        for cmd in &pipeline {
            command(cmd, depth, r, out);
        }
    }
}

fn command(cmd: &Command, depth: usize, r: bool, out: &mut Vec<Touched>) {
    for sub in &cmd.substitutions {
        walk(sub, depth + 1, r, out);
    }
    for (op, target) in &cmd.redirects {
        if op.ends_with('&') || op.contains("<<") {
            continue; // `2>&1` duplicates a descriptor
        }
        let access = if op.ends_with('<') {
            Access::Read
        } else {
            Access::Write
        };
        push(out, target, access);
    }
    let argv = match unwrap_fed(&cmd.words).0 {
        Runs::Argv(argv) => argv,
        // `sudo -s '…'`, `su -c '…'`, `ssh host '…'`: a command line.
        Runs::Script(script) => return walk(&script, depth + 1, r, out),
    };
    let Some(first) = argv.first() else {
        return;
    };
    let prog = program(first);
    let args = &argv[1..];
    if matches!(
        prog.as_str(),
        "sh" | "bash" | "zsh" | "dash" | "ksh" | "ash" | "eval"
    ) {
        let script = if prog == "eval" {
            Some(args.join(" "))
        } else {
            dash_c(args)
        };
        match script {
            Some(s) => walk(&s, depth + 1, r, out),
            None if prog != "eval" => {
                cmd.here.iter().for_each(|h| walk(h, depth + 1, r, out));
                if let Some(file) = args.iter().find(|a| !a.starts_with('-')) {
                    push(out, file, Access::Read);
                }
            }
            None => {}
        }
        return;
    }
    if r && r_code::is_r(&prog) {
        // The files R code reads and writes, and the commands it runs.
        for u in r_code::inline_uses(args, &cmd.here) {
            match u.act {
                Act::Reads => push(out, &u.text, Access::Read),
                Act::Writes => push(out, &u.text, Access::Write),
                Act::Runs | Act::Does => walk(&u.text, depth + 1, r, out),
                Act::RunsDecoded | Act::RunsDownloaded => {}
            }
        }
        return;
    }
    if matches!(prog.as_str(), "apply_patch" | "applypatch") {
        let patches = args.iter().chain(cmd.here.iter());
        for p in patches.flat_map(|p| patch_paths(p)) {
            push(out, &p, Access::Write);
        }
        return;
    }
    if let Some((_, kind, with_value)) =
        PROGRAMS.iter().find(|(n, _, _)| n.contains(&prog.as_str()))
    {
        operands(*kind, with_value, args, out);
    }
}

/// The script of `sh [opts] -c SCRIPT`.
fn dash_c(args: &[String]) -> Option<String> {
    let at = args
        .iter()
        .position(|a| a.starts_with('-') && !a.starts_with("--") && a.contains('c'))?;
    args[at + 1..].iter().find(|a| a.as_str() != "--").cloned()
}

/// Reads a program's operands as its `kind` says.
fn operands(kind: Kind, with_value: &[&str], args: &[String], out: &mut Vec<Touched>) {
    let mut ops: Vec<&String> = Vec::new();
    let mut target_dir: Option<String> = None;
    let mut script_given = false;
    let mut in_place = false;
    let mut ended = false;
    let mut i = 0;
    while let Some(a) = args.get(i) {
        i += 1;
        if ended || a == "-" || !a.starts_with('-') {
            ops.push(a);
            continue;
        }
        if a == "--" {
            ended = true;
            continue;
        }
        let (name, inline) = match a.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v)),
            _ => (a.as_str(), None),
        };
        let value = || inline.map(str::to_owned).or_else(|| args.get(i).cloned());
        match (kind, name) {
            (Kind::Copies, "-t" | "--target-directory") => {
                target_dir = value();
                if inline.is_none() {
                    i += 1;
                }
                continue;
            }
            (Kind::Copies, _) if a.len() > 2 && a.starts_with("-t") && !a.starts_with("--") => {
                target_dir = Some(a[2..].to_owned());
                continue;
            }
            (Kind::Sed | Kind::ReadsAfterFirst, "-e" | "--expression" | "--regexp") => {
                script_given = true;
            }
            (Kind::Sed | Kind::ReadsAfterFirst, "-f" | "--file") => {
                script_given = true;
                if let Some(v) = value() {
                    push(out, &v, Access::Read);
                }
            }
            (Kind::Reads, "-o" | "--output") => {
                if let Some(v) = value() {
                    push(out, &v, Access::Write);
                }
            }
            _ => {}
        }
        if kind == Kind::Sed
            && (name.starts_with("--in-place")
                || (!name.starts_with("--") && name.trim_start_matches('-').contains('i')))
        {
            in_place = true;
        }
        let takes_value = with_value.contains(&name)
            || match kind {
                Kind::Sed | Kind::ReadsAfterFirst => {
                    matches!(name, "-e" | "--expression" | "--regexp" | "-f" | "--file")
                }
                Kind::Reads => matches!(name, "-o" | "--output"),
                _ => false,
            };
        if takes_value && inline.is_none() && a.len() == name.len() {
            i += 1;
        }
    }
    match kind {
        Kind::Reads => ops.iter().for_each(|p| push(out, p, Access::Read)),
        Kind::Writes => ops.iter().for_each(|p| push(out, p, Access::Write)),
        Kind::ReadsAfterFirst | Kind::WritesAfterFirst => {
            let skip = usize::from(!script_given);
            let access = if kind == Kind::ReadsAfterFirst {
                Access::Read
            } else {
                Access::Write
            };
            ops.iter().skip(skip).for_each(|p| push(out, p, access));
        }
        Kind::Sed => {
            let access = if in_place {
                Access::Write
            } else {
                Access::Read
            };
            let skip = usize::from(!script_given);
            ops.iter().skip(skip).for_each(|p| push(out, p, access));
        }
        Kind::Dd => {
            for a in args {
                if let Some(p) = a.strip_prefix("if=") {
                    push(out, p, Access::Read);
                } else if let Some(p) = a.strip_prefix("of=") {
                    push(out, p, Access::Write);
                }
            }
        }
        Kind::Copies => copies(&ops, target_dir.as_deref(), out),
    }
}

/// `cp SRC… DEST` and `cp -t DIR SRC…`: the sources are read; the
/// destination is written, and so is `DEST/name` for each source, since the
/// destination may be a directory (`cp passwd /etc` writes `/etc/passwd`).
fn copies(ops: &[&String], target_dir: Option<&str>, out: &mut Vec<Touched>) {
    let (sources, dir): (&[&String], Option<&str>) = match target_dir {
        Some(d) => (ops, Some(d)),
        None => match ops.split_last() {
            Some((dest, sources)) if !sources.is_empty() => (sources, Some(dest.as_str())),
            _ => (ops, None),
        },
    };
    if let Some(d) = dir {
        push(out, d, Access::Write);
    }
    for s in sources {
        push(out, s, Access::Read);
        if let Some(d) = dir {
            let name = s.trim_end_matches('/').rsplit('/').next().unwrap_or(s);
            if !name.is_empty() && name != "." && name != ".." {
                push(
                    out,
                    &format!("{}/{name}", d.trim_end_matches('/')),
                    Access::Write,
                );
            }
        }
    }
}

fn push(out: &mut Vec<Touched>, text: &str, access: Access) {
    if text.is_empty() || HARMLESS.contains(&text) || text.starts_with("/dev/fd/") {
        return;
    }
    let pattern = text.contains(['*', '?', '[']);
    out.push(Touched {
        text: text.to_owned(),
        access,
        pattern,
    });
}

#[cfg(test)]
mod tests;
