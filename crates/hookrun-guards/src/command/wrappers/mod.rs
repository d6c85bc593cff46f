//! Commands that run other commands: assignments, privilege and scheduling
//! wrappers, `xargs`/`parallel` (which feed their input in as arguments),
//! multiplexers (`busybox rm`) and those that hand a string to a shell
//! (`su -c`, `watch`, `ssh host …`), stripped to what really runs. The
//! wrappers and their options are data: one row each (`row.rs`), in
//! `privilege.rs` and `runners.rs`.

use crate::command::argv;
use crate::command::wrappers::privilege::WRAPPERS;
use crate::command::wrappers::row::{Then, Wrapper};
use crate::command::wrappers::runners::RUNNERS;

/// What a command line runs once its wrappers are stripped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Runs {
    /// A command and its arguments (empty: nothing runs).
    Argv(Vec<String>),
    /// A shell command line, to be parsed and checked as a script.
    Script(String),
}

/// The program name: basename, lowercased (`/bin/RM` is `rm`).
pub(crate) fn program(word: &str) -> String {
    let name = word.rsplit('/').next().unwrap_or(word).to_ascii_lowercase();
    versioned(&name).unwrap_or(name)
}

/// An interpreter or shell named with its version (`python3.12`,
/// `python2.7`, `pypy3`, `perl5.36`, `ruby3.2`, `lua5.4`, `luajit`,
/// `php8.2`, `node20`, `bash5`): the name the rules know it by.
fn versioned(name: &str) -> Option<String> {
    const FAMILIES: &[(&str, &str)] = &[
        ("python", "python"),
        ("pypy", "python3"),
        ("perl", "perl"),
        ("ruby", "ruby"),
        ("luajit", "lua"),
        ("lua", "lua"),
        ("php", "php"),
        ("nodejs", "node"),
        ("node", "node"),
        ("bash", "bash"),
        ("zsh", "zsh"),
    ];
    let (family, known) = FAMILIES.iter().find(|(f, _)| name.starts_with(f))?;
    let version = &name[family.len()..];
    if version.is_empty() || !version.chars().all(|c| c.is_ascii_digit() || c == '.') {
        return (*family == "luajit" || *family == "pypy").then(|| (*known).to_owned());
    }
    // `python3.12` is `python3`, `python2.7` is `python2`.
    if *known == "python" {
        return Some(format!("python{}", &version[..1]));
    }
    Some((*known).to_owned())
}

/// Strips leading assignments and wrappers to the command that really
/// runs; empty when what runs is a shell command line or nothing.
pub(crate) fn unwrap(words: &[String]) -> Vec<String> {
    match unwrap_fed(words).0 {
        Runs::Argv(argv) => argv,
        Runs::Script(_) => Vec::new(),
    }
}

/// As `unwrap`, keeping a shell command line handed on by a wrapper, and
/// whether a wrapper on the way feeds the command arguments read from its
/// input (`xargs`, GNU `parallel` without `:::`): those arguments cannot
/// be checked.
pub(crate) fn unwrap_fed(words: &[String]) -> (Runs, bool) {
    let mut fed = false;
    let mut w: Vec<String> = words.to_vec();
    // Where the command starts in `w`. Every wrapper read moves it on by
    // at least its own name, and a rebuilt argv (`parallel … ::: …`) is
    // shorter than the words it came from, so the walk ends, in time
    // linear in the words for any number of wrappers.
    let mut at = 0;
    // Whether a `:::` is left to look for: scanned for once, and none is
    // left once `parallel` has put its arguments in.
    let mut separators = w.iter().any(|a| is_separator(a));
    loop {
        at += w[at..].iter().take_while(|x| is_assignment(x)).count();
        let Some(first) = w.get(at) else {
            return (Runs::Argv(Vec::new()), fed);
        };
        let prog = program(first);
        let Some(row) = wrapper(&prog) else {
            return (Runs::Argv(w.split_off(at)), fed);
        };
        let args = &w[at + 1..];
        match step(&prog, row, args, separators) {
            Step::Done(runs) => return (runs, fed),
            Step::Skip(rest, feeds) => {
                fed |= feeds;
                at = w.len() - rest;
            }
            Step::Next(next, feeds) => {
                fed |= feeds;
                w = next;
                at = 0;
                separators = false;
            }
        }
    }
}

enum Step {
    Done(Runs),
    /// The command is the last `n` words, and whether its arguments come
    /// from the input.
    Skip(usize, bool),
    /// The words that run next, rebuilt (`parallel`'s `:::` arguments put
    /// in), and whether their arguments come from the input.
    Next(Vec<String>, bool),
}

/// One wrapper, read: its options, its leading operands, what it runs.
fn step(prog: &str, row: &Wrapper, args: &[String], separators: bool) -> Step {
    let mut parsed = argv::parse(&row.spec, args);
    let mut rest = args.get(parsed.rest..).unwrap_or_default();
    // `env -` is `env -i`.
    if prog == "env" && rest.first().is_some_and(|a| a == "-") {
        rest = &rest[1..];
    }
    // `runuser -u USER CMD…` runs a command; otherwise it is `su`.
    let (skip, then) = if prog == "runuser" && !parsed.has('u', "user") {
        (1, Then::ShellArgs)
    } else {
        (row.skip, row.then)
    };
    for _ in 0..skip {
        if then == Then::ShellArgs && rest.first().is_some_and(|a| a == "-") {
            // `su - -c CMD`: `-` is `--login`, and options may follow it.
            rest = &rest[1..];
            let more = argv::parse(&row.spec, rest);
            rest = rest.get(more.rest..).unwrap_or_default();
            parsed.opts.extend(more.opts);
        }
        let Some((_, after)) = rest.split_first() else {
            break;
        };
        // Options may follow the operand (`flock FILE -c CMD`,
        // `ssh host -p 22 cmd`, `su root -c CMD`).
        let more = argv::parse(&row.spec, after);
        rest = after.get(more.rest..).unwrap_or_default();
        parsed.opts.extend(more.opts);
    }
    if parsed
        .opts
        .iter()
        .any(|o| row.lookup.contains(&o.name.as_str()))
    {
        return Step::Done(Runs::Argv(Vec::new()));
    }
    if let Some(script) = parsed
        .opts
        .iter()
        .rev()
        .find(|o| row.script.contains(&o.name.as_str()))
        .and_then(|o| o.value.clone())
    {
        // `env -S 'rm -rf' /`: the string is split and put before the rest.
        let text = if rest.is_empty() || then == Then::ShellArgs {
            script
        } else {
            format!("{script} {}", rest.join(" "))
        };
        return Step::Done(Runs::Script(text));
    }
    let shell = parsed
        .opts
        .iter()
        .any(|o| row.shell.contains(&o.name.as_str()));
    if rest.is_empty() {
        let starts_shell = row.shell_default || shell;
        return Step::Done(Runs::Argv(if starts_shell {
            vec!["sh".to_owned()]
        } else {
            Vec::new()
        }));
    }
    match then {
        _ if shell => Step::Done(Runs::Script(rest.join(" "))),
        Then::Joined => Step::Done(Runs::Script(rest.join(" "))),
        Then::ShellArgs => {
            let mut argv = vec!["sh".to_owned()];
            argv.extend(rest.iter().cloned());
            Step::Done(Runs::Argv(argv))
        }
        Then::Fed if prog == "xargs" || !separators => Step::Skip(rest.len(), true),
        Then::Fed => fed_by(rest),
        Then::Command => Step::Skip(rest.len(), false),
        Then::Nothing => Step::Done(Runs::Argv(Vec::new())),
    }
}

/// `xargs CMD…` and `parallel CMD… ::: ARGS…`: with `:::` the arguments
/// are in the words (`parallel rm -rf ::: /` is `rm -rf /`, `{}` replaced
/// where it is written); otherwise they come from the input.
fn fed_by(rest: &[String]) -> Step {
    let Some(at) = rest.iter().position(|a| is_separator(a)) else {
        return Step::Skip(rest.len(), true);
    };
    let (cmd, tail) = rest.split_at(at);
    let from_files = tail.iter().any(|a| a.starts_with("::::"));
    let values: Vec<String> = tail
        .iter()
        .filter(|a| !a.starts_with(":::"))
        .cloned()
        .collect();
    if cmd.is_empty() {
        // `parallel ::: 'rm -rf /'`: each argument is a command line.
        return Step::Done(Runs::Script(values.join("\n")));
    }
    let mut argv = Vec::new();
    let mut replaced = false;
    // The first `{}` only: the argv stays shorter than the words it comes
    // from (the separators are gone), so a chain of wrappers stays linear.
    for word in cmd {
        if !replaced && word == "{}" {
            argv.extend(values.iter().cloned());
            replaced = true;
        } else if !replaced && word.contains("{}") {
            argv.push(word.replacen("{}", &values.join(" "), 1));
            replaced = true;
        } else {
            argv.push(word.clone());
        }
    }
    if !replaced {
        argv.extend(values);
    }
    Step::Next(argv, from_files)
}

/// The table row for `prog`, a program name as `program` gives it.
fn wrapper(prog: &str) -> Option<&'static Wrapper> {
    WRAPPERS
        .iter()
        .chain(RUNNERS)
        .find(|w| w.names.contains(&prog))
}

/// GNU `parallel`'s argument separators.
fn is_separator(word: &str) -> bool {
    matches!(word, ":::" | ":::+" | "::::" | "::::+")
}

pub(crate) fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty()
            && !name.starts_with(|c: char| c.is_ascii_digit())
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

mod privilege;
mod row;
mod runners;
#[cfg(test)]
mod tests;
