//! Programs given to interpreters on their command line or in a here-doc
//! (`python -c`, `perl -e`, `node -e`, `lua -e`, an awk program): what
//! `inline_code` recognises in them is checked as the guard checks any
//! command — the strings they hand to a shell as shell commands, the
//! paths they delete as `rm -r` targets, the files awk writes as writes.

use crate::command::targets::{account_file, catastrophic, device_target};
use crate::dangerous::piped::Check;
use crate::dangerous::r_uses;
use crate::dangerous::sourced::INTERPRETERS;
use hookrun_code::awk;
use hookrun_code::inline as inline_code;
use hookrun_code::r as r_code;
use hookrun_sh::Command;

/// The inline program of `prog` (a name as `program` gives it), if it has
/// one the guard reads; `check` reads the text it runs as commands.
pub(crate) fn inline_program(
    prog: &str,
    args: &[String],
    cmd: &Command,
    check: Check<'_>,
) -> Option<String> {
    if r_code::is_r(prog) {
        return r_program(prog, args, cmd, check);
    }
    if INTERPRETERS.contains(&prog) {
        return interpreter_code(prog, args, cmd, check);
    }
    if awk::is_awk(prog) {
        return awk_code(prog, awk::awk_program(args)?, check);
    }
    None
}

/// R's `-e` code (`Rscript -e`, `R --vanilla -e`), or else its
/// here-doc (`R --no-save <<EOF`), read as R (`r_code`).
fn r_program(prog: &str, args: &[String], cmd: &Command, check: Check<'_>) -> Option<String> {
    let codes = r_code::code_of(args).map_or_else(|| cmd.here.clone(), |c| vec![c]);
    codes.iter().find_map(|code| {
        r_uses::judged(code, check).map(|why| format!("inline `{prog}` code: {why}"))
    })
}

/// An interpreter's `-c`/`-e` program, or else its here-doc.
fn interpreter_code(
    prog: &str,
    args: &[String],
    cmd: &Command,
    check: Check<'_>,
) -> Option<String> {
    let codes: Vec<String> = match inline_code::code_of(prog, args) {
        Some(code) => vec![code],
        None => cmd.here.clone(),
    };
    for code in &codes {
        for path in inline_code::deleted_paths(code) {
            if catastrophic(&path) || account_file(&path) {
                return Some(format!("inline `{prog}` code deletes `{path}`"));
            }
        }
        for literal in inline_code::executed_literals(code) {
            if let Some(why) = check(&literal) {
                return Some(format!("inline `{prog}` code runs a command: {why}"));
            }
        }
    }
    None
}

/// An awk program: the files it prints into and the commands it runs.
fn awk_code(prog: &str, code: &str, check: Check<'_>) -> Option<String> {
    for file in awk::awk_written(code) {
        if let Some(why) = device_target(&file, &format!("inline `{prog}` code")) {
            return Some(why);
        }
        if account_file(&file) {
            return Some(format!("inline `{prog}` code overwrites `{file}`"));
        }
    }
    for command in awk::awk_commands(code) {
        if let Some(why) = check(&command) {
            return Some(format!("inline `{prog}` code runs a command: {why}"));
        }
    }
    None
}
