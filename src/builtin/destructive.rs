//! The per-program rules of `dangerous-commands`: what `rm`, `dd`,
//! `chmod`, `cp`… destroy, judged on their arguments once wrappers are
//! stripped (`wrappers.rs`) and targets normalised (`targets.rs`).

use super::shell::Command;
use super::targets::{ACCOUNT_FILES, catastrophic, device_target, normal};
use super::wrappers::program;

/// The rule for the program `prog` run with `args`, if it has one.
pub(super) fn rules(prog: &str, args: &[String]) -> Option<String> {
    match prog {
        "rm" => rm(args),
        p if p.starts_with("mkfs") || p == "mke2fs" || p == "mkswap" || p == "wipefs" => {
            Some(format!("`{p}` formats a file system"))
        }
        "dd" => dd(args),
        "chmod" | "chown" | "chgrp" => recursive_permissions(prog, args),
        "shred" | "truncate" | "tee" | "cp" | "mv" | "install" | "ln" | "sed" | "unlink" => {
            account_file_write(prog, args)
        }
        _ => None,
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

pub(super) fn redirects(cmd: &Command) -> Option<String> {
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

/// A destructive command whose operands come from `xargs`' or `parallel`'s
/// input: they cannot be checked, so the command is not trusted.
pub(super) fn fed_destructive(argv: &[String]) -> Option<String> {
    let prog = program(argv.first()?);
    let args = &argv[1..];
    let recursive = args.iter().any(|a| {
        a == "--recursive" || (a.starts_with('-') && !a.starts_with("--") && a.contains(['r', 'R']))
    });
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
        _ => return None,
    };
    Some(format!(
        "`xargs`/`parallel` runs {what} on arguments read from its input, which cannot be checked"
    ))
}
