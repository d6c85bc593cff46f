//! Code that reaches a shell or an interpreter as data: what comes down a
//! pipe into `sh`/`python3`/`source /dev/stdin`, and what a substitution
//! hands to `bash <(…)` or `eval "$(…)"`. Downloads and decoded text are
//! not trusted (the guard cannot read them); echoed text, here-doc bodies
//! and what an awk program prints are read as the commands they become.

use crate::command::wrappers::{program, unwrap};
use crate::dangerous::obscured::{decoded_in, decoder};
use crate::dangerous::sourced::{self, INTERPRETERS, SHELLS};
use hookrun_code::awk;
use hookrun_sh::{self as shell, Command};

/// Programs that fetch from the network.
const DOWNLOADERS: &[&str] = &["curl", "wget", "fetch", "aria2c", "http", "https", "xh"];

fn downloads(argv: &[String]) -> bool {
    argv.first()
        .is_some_and(|p| DOWNLOADERS.contains(&program(p).as_str()))
}

/// A nested script's check: why text run as shell code is dangerous.
pub(crate) type Check<'a> = &'a dyn Fn(&str) -> Option<String>;

/// What the `upstream` stages of a pipeline feed to `runner`, a command
/// that runs its stdin as code; `check` reads text that becomes commands.
pub(crate) fn piped_into(upstream: &[Command], runner: &str, check: Check<'_>) -> Option<String> {
    let runner = program(runner);
    if let Some(d) = upstream
        .iter()
        .map(|c| unwrap(&c.words))
        .find(|a| downloads(a))
    {
        return Some(format!(
            "a download (`{}`) piped into `{runner}` runs code from the network unseen",
            program(&d[0]),
        ));
    }
    if let Some(d) = upstream.iter().find_map(|c| decoder(&unwrap(&c.words))) {
        return Some(format!(
            "decoded text ({d}) piped into `{runner}` runs code the guard cannot read"
        ));
    }
    // `echo 'rm -rf /' | sh` runs the echoed text, and `cat <<EOF | sh`
    // the here-doc.
    for up in upstream {
        for body in &up.here {
            if let Some(why) = check(body) {
                return Some(why);
            }
        }
        let a = unwrap(&up.words);
        let up_prog = a.first().map(|p| program(p)).unwrap_or_default();
        if matches!(up_prog.as_str(), "echo" | "printf") {
            // The words as one line (`echo rm -rf /`), and each alone
            // (`printf '%s\n' 'rm -rf /'`: the format is not code).
            let line = a[1..].join(" ");
            let after_format = a.get(2..).unwrap_or_default().join(" ");
            let lines = [line.as_str(), after_format.as_str()];
            let words = a[1..].iter().map(String::as_str);
            if let Some(why) = lines.into_iter().chain(words).find_map(check) {
                return Some(why);
            }
        }
        // `awk 'BEGIN{print "rm -rf /"}' | sh`: what it prints.
        if awk::is_awk(&up_prog)
            && let Some(code) = awk::awk_program(&a[1..])
        {
            for printed in awk::awk_literals(code) {
                if let Some(why) = check(&printed) {
                    return Some(why);
                }
            }
        }
    }
    None
}

/// `bash <(curl …)`, `sh -c "$(curl …)"`, `eval "$(echo … | base64
/// -d)"`: a download or decoded text handed to a shell, an interpreter or
/// `eval` by a substitution.
pub(crate) fn substituted_code(prog: &str, cmd: &Command) -> Option<String> {
    let runs_code = SHELLS.contains(&prog) || INTERPRETERS.contains(&prog) || prog == "eval";
    if !runs_code {
        return None;
    }
    for sub in &cmd.substitutions {
        if shell::parse(sub)
            .iter()
            .flatten()
            .any(|c| downloads(&unwrap(&c.words)))
        {
            return Some(format!(
                "a download (`{}`) run by `{prog}` runs code from the network unseen",
                sub.trim()
            ));
        }
        if !INTERPRETERS.contains(&prog)
            && let Some(d) = decoded_in(sub)
        {
            return Some(format!(
                "decoded text ({d}) run by `{prog}` is code the guard cannot read"
            ));
        }
    }
    None
}

/// The script of `sh -c SCRIPT`: options may come before and after `-c`,
/// be clustered (`-lc`, `-euc`), take a value (`-o pipefail`, `+O
/// extglob`, `--rcfile F`), and `--` ends them.
pub(crate) fn dash_c_script(args: &[String]) -> Option<String> {
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
pub(crate) fn runs_stdin(argv: &[String]) -> bool {
    let Some(first) = argv.first() else {
        return false;
    };
    let prog = program(first);
    if SHELLS.contains(&prog.as_str()) {
        // `bash -n` reads without running.
        let no_exec = argv[1..]
            .iter()
            .any(|a| a.starts_with('-') && !a.starts_with("--") && a.contains('n'));
        return dash_c_script(&argv[1..]).is_none() && !no_exec;
    }
    if matches!(first.as_str(), "source" | ".") {
        return argv.get(1).is_some_and(|f| sourced::is_stdin(f));
    }
    INTERPRETERS.contains(&prog.as_str())
        && argv[1..]
            .iter()
            .all(|a| a.starts_with('-') && a != "-c" && a != "-e")
}
