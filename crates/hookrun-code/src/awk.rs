//! Programs given to awk (`awk`, `gawk`, `mawk`, `nawk`): the commands
//! they hand to a shell (`system("…")`, `print … | "cmd"`, `"cmd" |
//! getline`) and the files they print into (`print > "file"`). A best
//! effort over the program's literals: commands built at run time are not
//! seen.

use crate::literals::literals;

/// The names `awk` goes by.
pub fn is_awk(prog: &str) -> bool {
    matches!(prog, "awk" | "gawk" | "mawk" | "nawk" | "busybox-awk")
}

/// The program text of `awk [-F fs] [-v a=b] [--] 'PROGRAM' file…` (none
/// with `-f progfile`: the file is not read).
pub fn awk_program(args: &[String]) -> Option<&str> {
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--" => return it.next().map(String::as_str),
            "-f" | "--file" => return None,
            "-F" | "-v" | "--field-separator" | "--assign" => {
                it.next();
            }
            _ if a.starts_with("-f") || a.starts_with("--file=") => return None,
            _ if a.starts_with('-') && a.len() > 1 => {}
            _ => return Some(a),
        }
    }
    None
}

/// What an awk program hands to a shell: the literal of `system("…")`,
/// the command of `print … | "cmd"` and of `"cmd" | getline`; and when
/// output is piped into a shell (`print "…" | "sh"`), every literal it
/// prints, which that shell runs.
pub fn awk_commands(code: &str) -> Vec<String> {
    let lits = literals(code);
    let mut out = Vec::new();
    let mut to_shell = false;
    for lit in &lits {
        let before = lit.before.trim_end();
        let piped_to = before.ends_with('|') && !before.ends_with("||");
        let getline = lit
            .after
            .trim_start()
            .strip_prefix('|')
            .is_some_and(|rest| {
                rest.trim_start_matches('&')
                    .trim_start()
                    .starts_with("getline")
            });
        if piped_to || getline || before.ends_with("system(") || before.ends_with("system (") {
            to_shell |= piped_to && is_shell_command(&lit.text);
            out.push(lit.text.clone());
        }
    }
    if to_shell {
        out.extend(lits.into_iter().map(|l| l.text));
    }
    out
}

/// The files an awk program writes with `print … > "file"` or `>>`.
pub fn awk_written(code: &str) -> Vec<String> {
    literals(code)
        .into_iter()
        .filter(|l| l.before.trim_end().ends_with('>'))
        .map(|l| l.text)
        .collect()
}

/// Whether a command line starts a shell reading its stdin (`sh`,
/// `bash -s`, `/bin/sh`).
fn is_shell_command(line: &str) -> bool {
    let first = line.split_whitespace().next().unwrap_or_default();
    let name = first.rsplit('/').next().unwrap_or(first);
    matches!(
        name,
        "sh" | "bash" | "zsh" | "dash" | "ksh" | "ash" | "mksh"
    ) && !line.split_whitespace().any(|w| w == "-c")
}

/// Every quoted literal of an awk program: what it prints, when its
/// output is piped into a shell.
pub fn awk_literals(code: &str) -> Vec<String> {
    literals(code).into_iter().map(|l| l.text).collect()
}
