//! The per-program rules of `dangerous-commands`: what `rm`, `dd`,
//! `chmod`, `cp`… destroy, judged on their arguments as the tool reads
//! them (`argv.rs`), once wrappers are stripped (`wrappers.rs`) and
//! targets normalised (`targets.rs`).
//!
//! `rm` and `--preserve-root`: GNU `rm` refuses `rm -rf /` by default, but
//! not `rm -rf /*`, `/usr/..` spelled otherwise, or another `rm`
//! (busybox, BSD, an old coreutils); the guard does not rely on it and
//! denies a recursive delete of the root whatever the flags, and any
//! `--no-preserve-root` (its only use is to delete `/`).

use crate::command::argv::{self, Spec, Takes};
use crate::command::targets::{
    SYSTEM_DIRS, account_file, catastrophic, device_target, normal, root_like,
};
use crate::command::wrappers::{program, unwrap};
use crate::command::writes::{account_file_write, dd};
use hookrun_sh as shell;

pub(crate) const RM: Spec = Spec {
    short_value: "",
    short_optional: "",
    long: &[
        ("recursive", Takes::Nothing),
        ("force", Takes::Nothing),
        ("interactive", Takes::Nothing),
        ("one-file-system", Takes::Nothing),
        ("no-preserve-root", Takes::Nothing),
        ("preserve-root", Takes::Nothing),
        ("dir", Takes::Nothing),
        ("verbose", Takes::Nothing),
    ],
    permute: true,
};

const PERMISSIONS: Spec = Spec {
    short_value: "",
    short_optional: "",
    long: &[
        ("recursive", Takes::Nothing),
        ("reference", Takes::Value),
        ("from", Takes::Value),
        ("changes", Takes::Nothing),
        ("silent", Takes::Nothing),
        ("quiet", Takes::Nothing),
        ("verbose", Takes::Nothing),
        ("no-preserve-root", Takes::Nothing),
        ("dereference", Takes::Nothing),
        ("no-dereference", Takes::Nothing),
        ("preserve-root", Takes::Nothing),
    ],
    permute: true,
};

/// The rule for the command `first args…` (`first` as written), if any.
pub(crate) fn rules(first: &str, args: &[String]) -> Option<String> {
    if let Some(words) = brace_words(first) {
        // `{rm,-rf,/}`: the shell expands the braces into the command.
        let mut argv = unwrap(&words);
        argv.extend(args.iter().cloned());
        let (head, tail) = argv.split_first()?;
        return rules(head, tail);
    }
    if let Some(why) = computed_name(first, args) {
        return Some(why);
    }
    let prog = program(first);
    match prog.as_str() {
        "rm" => rm(args).or_else(|| account_file_write("rm", args)),
        "perl" | "ruby" => in_place_edit(&prog, args),
        p if p.starts_with("mkfs") || p == "mke2fs" || p == "mkswap" || p == "wipefs" => {
            formats(p, args)
        }
        "dd" => dd(args),
        "chmod" | "chown" | "chgrp" => recursive_permissions(&prog, args),
        "shred" | "truncate" | "tee" | "cp" | "mv" | "install" | "ln" | "rsync" | "sed"
        | "unlink" => account_file_write(&prog, args),
        _ => None,
    }
}

/// A formatter (`mkfs.*`, `mke2fs`, `mkswap`, `wipefs`) pointed at a
/// device, or at a target the guard cannot read (`$DISK`); a disk image or
/// a swap file (`mkfs.ext4 disk.img`, `mkswap /swapfile`) is ordinary work.
fn formats(prog: &str, args: &[String]) -> Option<String> {
    let device = args
        .iter()
        .filter(|a| !a.starts_with('-'))
        .find(|a| device_target(a, "").is_some() || a.contains(['$', '`']))?;
    Some(format!("`{prog}` formats a file system on `{device}`"))
}

/// `{a,b,c}` as one word: the words it expands to.
fn brace_words(word: &str) -> Option<Vec<String>> {
    let inner = word.strip_prefix('{')?.strip_suffix('}')?;
    (inner.contains(',') && !inner.contains(['{', '}']))
        .then(|| inner.split(',').map(str::to_owned).collect())
}

/// A command name the guard cannot read (`$x`, `${cmd}`, `$(echo rm)`,
/// a backquote, `r${IFS}m`) run with arguments that look destructive:
/// recursive and forced, the root, a system directory, a home, a device.
/// With ordinary arguments (`$EDITOR notes.txt`) it is let through.
fn computed_name(first: &str, args: &[String]) -> Option<String> {
    // `$HOME/bin/tool` names `tool`; `$(echo /bin/rm)` leaves `rm)`.
    if !program(first).contains(['$', '`', ')', '}']) {
        return None;
    }
    let a = argv::parse(&RM, args);
    let recursive = a.has('r', "recursive") || a.has('R', "");
    let force = a.has('f', "force");
    let target = a
        .operands
        .iter()
        .map(|t| t.strip_prefix("of=").unwrap_or(t))
        .find(|t| root_like(t) || device_target(t, "").is_some() || account_file(t));
    let what = match target {
        Some(t) => format!("`{t}`"),
        None if recursive && force => "recursive, forced options".to_owned(),
        None => return None,
    };
    Some(format!(
        "the command name `{first}` is computed, so the guard cannot tell what runs with {what}"
    ))
}

fn rm(args: &[String]) -> Option<String> {
    let a = argv::parse(&RM, args);
    if a.has('\0', "no-preserve-root") {
        return Some("`rm --no-preserve-root` deletes the root file system".into());
    }
    let recursive = a.has('r', "recursive") || a.has('R', "");
    let target = a.operands.iter().find(|o| catastrophic(o))?;
    recursive.then(|| format!("`rm` recursively deletes `{target}`"))
}

/// `perl -pi -e CODE FILE…`, `ruby -i -pe CODE FILE…`: the files are
/// edited in place, so an account file among them is overwritten.
fn in_place_edit(prog: &str, args: &[String]) -> Option<String> {
    let mut in_place = false;
    let mut files = Vec::new();
    let mut i = 0;
    while let Some(a) = args.get(i) {
        i += 1;
        match a.strip_prefix('-') {
            Some("-") => {
                files.extend(args[i..].iter().cloned());
                break;
            }
            Some(flags) if !flags.is_empty() => {
                // A cluster: `-pi.bak`, `-i`, `-pie CODE`. The value of
                // `-e`/`-E`/`-I`/`-M`/`-r` is glued or the next word.
                for (at, c) in flags.char_indices() {
                    match c {
                        'i' => {
                            in_place = true;
                            break; // the rest is the backup suffix
                        }
                        'e' | 'E' | 'I' | 'M' | 'm' | 'r' | 'C' | 'x' | 'l' | '0' => {
                            if at + c.len_utf8() == flags.len()
                                && matches!(c, 'e' | 'E' | 'I' | 'r' | 'C')
                            {
                                i += 1;
                            }
                            break;
                        }
                        _ => {}
                    }
                }
            }
            _ => files.push(a.clone()),
        }
    }
    if !in_place {
        return None;
    }
    let target = files.iter().find(|f| account_file(f))?;
    Some(format!("`{prog} -i` overwrites `{}`", normal(target)))
}

/// `chmod -w`, `chmod -rwx`: a mode, not options.
fn is_dash_mode(word: &str) -> bool {
    word.strip_prefix('-')
        .is_some_and(|m| !m.is_empty() && m.chars().all(|c| "rwxXst".contains(c)))
}

fn recursive_permissions(prog: &str, args: &[String]) -> Option<String> {
    let (modes, rest): (Vec<String>, Vec<String>) = args
        .iter()
        .cloned()
        .partition(|a| prog == "chmod" && is_dash_mode(a));
    let a = argv::parse(&PERMISSIONS, &rest);
    let recursive = a.has('R', "recursive");
    let mut operands = a.operands.clone();
    operands.splice(0..0, modes);
    // With `--reference=FILE` there is no mode or owner operand.
    let skip = usize::from(a.value('\0', "reference").is_none());
    let spec = operands.first().cloned().unwrap_or_default();
    let targets = operands.get(skip..).unwrap_or_default();
    if let Some(t) = targets.iter().find(|t| account_file(t)) {
        return Some(format!(
            "`{prog}` changes the permissions or owner of `{t}`"
        ));
    }
    if !recursive {
        return None;
    }
    if let Some(t) = targets.iter().find(|t| root_like(t)) {
        return Some(format!("`{prog} -R {spec}` changes everything under `{t}`"));
    }
    // A system directory's own subdirectories (`/usr/bin`, `/var/lib`):
    // any mode breaks them (setuid programs, private keys), any owner too,
    // except the trees users own by custom (`/usr/local`, `/opt/…`).
    if let Some(t) = targets.iter().find(|t| in_system_dir(t)) {
        if prog == "chmod" || !user_owned_tree(t) {
            return Some(format!("`{prog} -R {spec}` changes everything under `{t}`"));
        }
    }
    // Elsewhere among the protected targets (`~/.ssh`, `.`, `/data`), a
    // mode that opens files to everyone or sets set-user-ID bits.
    let t = targets.iter().find(|t| catastrophic(t))?;
    (prog == "chmod" && opens_up(&spec))
        .then(|| format!("`chmod -R {spec}` makes `{t}` writable by everyone or set-user-ID"))
}

/// A directory directly inside a system directory (`/usr/bin`, `/etc/ssl`).
fn in_system_dir(target: &str) -> bool {
    let t = normal(target);
    t.rsplit_once('/')
        .is_some_and(|(parent, name)| !name.is_empty() && SYSTEM_DIRS.contains(&parent))
        && t != "/var/tmp"
}

/// Trees that users take ownership of on purpose.
fn user_owned_tree(target: &str) -> bool {
    let t = normal(target);
    t == "/usr/local" || t.starts_with("/opt/")
}

/// A chmod mode that gives everyone write access or sets the set-user-ID
/// or set-group-ID bit: octal with `2` in the last digit or a 4/2 thousands
/// digit, or symbolic `o+w`, `a+w`, `+w`, `=rwx`, `+s`.
fn opens_up(mode: &str) -> bool {
    if !mode.is_empty() && mode.chars().all(|c| c.is_digit(8)) {
        let bits = u32::from_str_radix(mode, 8).unwrap_or(0);
        return bits & 0o002 != 0 || bits & 0o6000 != 0;
    }
    mode.split(',').any(|clause| {
        let (who, perms) = match clause.find(['+', '=']) {
            Some(at) => (&clause[..at], &clause[at + 1..]),
            None => return false,
        };
        let everyone = who.is_empty() || who.contains(['o', 'a']);
        (everyone && perms.contains('w')) || perms.contains('s')
    })
}

/// A destructive command whose operands come from `xargs`' or `parallel`'s
/// input: they cannot be checked, so the command is not trusted. A shell
/// fed so runs its input as code (`xargs sh -c`), or the command lines of
/// its script with input in them (`xargs -I{} sh -c 'rm -rf {}'`).
pub(crate) fn fed_destructive(argv: &[String]) -> Option<String> {
    let prog = program(argv.first()?);
    let args = &argv[1..];
    let a = argv::parse(&RM, args);
    let recursive = a.has('r', "recursive") || a.has('R', "");
    let what = match prog.as_str() {
        "rm" if recursive => "`rm -r`",
        "shred" | "wipefs" | "dd" => "a wiping tool",
        p if p.starts_with("mkfs") => "a file-system formatter",
        "find"
            if args
                .iter()
                .any(|a| a == "-delete" || a == "-exec" || a == "-execdir") =>
        {
            "`find` that deletes or runs commands"
        }
        "sh" | "bash" | "zsh" | "dash" | "ksh" | "ash" => return fed_shell(&prog, args),
        _ => return None,
    };
    Some(format!(
        "`xargs`/`parallel` runs {what} on arguments read from its input, which cannot be checked"
    ))
}

fn fed_shell(prog: &str, args: &[String]) -> Option<String> {
    let script = args
        .iter()
        .position(|a| a.starts_with('-') && !a.starts_with("--") && a.contains('c'))
        .and_then(|i| args.get(i + 1));
    let Some(script) = script.filter(|s| !s.trim().is_empty() && s.trim() != "{}") else {
        return Some(format!(
            "`xargs`/`parallel` hands `{prog}` a script read from its input, which cannot be checked"
        ));
    };
    shell::parse(script)
        .iter()
        .flatten()
        .find_map(|c| fed_destructive(&unwrap(&c.words)))
}
