//! Text from the command line itself that the shell runs as code:
//! `source`/`.` of a process substitution (`source <(echo …)`, `. <(curl
//! …)`) or of stdin from a here-doc or here-string (`source /dev/stdin <<<
//! '…'`), and a command name that is a whole substitution (`$(cat <<EOF
//! …)`, as `bash -c "$(…)"` runs it): checked as `X | sh` and `sh <<<`
//! are.

use crate::command::wrappers::{program, unwrap};
use hookrun_sh::{self as shell, Command, Pipeline, Script};

/// Shells: `… | sh` runs whatever comes in, `sh -c X` runs X.
pub(crate) const SHELLS: &[&str] = &[
    "sh", "bash", "zsh", "ksh", "dash", "fish", "csh", "tcsh", "ash", "mksh", "busybox",
];
/// Interpreters that run a program read from stdin.
pub(crate) const INTERPRETERS: &[&str] = &[
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
    "rscript",
    "r",
];

/// Code that a `source`/`.` runs from the command line itself.
pub(crate) enum Sourced<'a> {
    /// A here-doc or here-string read as the script.
    Text(&'a str),
    /// A process substitution whose output is the script: its last
    /// pipeline is piped into `sh`.
    Piped(Script),
}

/// Paths that name the shell's own stdin.
pub(crate) fn is_stdin(path: &str) -> bool {
    matches!(path, "/dev/stdin" | "-" | "/dev/fd/0" | "/proc/self/fd/0")
}

/// What the `source`/`.` commands of `pipeline`, and the commands named
/// by a substitution, run.
pub(crate) fn sourced(pipeline: &Pipeline) -> Vec<Sourced<'_>> {
    let mut found = Vec::new();
    for cmd in pipeline {
        let argv = unwrap(&cmd.words);
        let Some(first) = argv.first() else {
            continue;
        };
        let named = first
            .strip_prefix("$(")
            .and_then(|f| f.strip_suffix(')'))
            .or_else(|| first.strip_prefix('`').and_then(|f| f.strip_suffix('`')));
        if let Some(body) = named.filter(|b| cmd.substitutions.iter().any(|s| s == b)) {
            found.push(piped(body));
        }
        let prog = program(first);
        if SHELLS.contains(&prog.as_str()) || INTERPRETERS.contains(&prog.as_str()) {
            // `bash <(echo …)`, `sh < <(echo …)`: the substitution's
            // output is the script.
            let operand = argv[1..].iter().find(|a| !a.starts_with('-'));
            let from = cmd
                .redirects
                .iter()
                .filter(|(op, _)| op == "<")
                .map(|(_, t)| t);
            for target in operand.into_iter().chain(from) {
                let body = target.strip_prefix("<(").and_then(|f| f.strip_suffix(')'));
                if let Some(body) = body.filter(|b| cmd.substitutions.iter().any(|s| s == b)) {
                    found.push(piped(body));
                }
            }
        }
        let Some(file) = argv.get(1) else {
            continue;
        };
        if !matches!(first.as_str(), "source" | ".") {
            continue;
        }
        if is_stdin(file) {
            found.extend(cmd.here.iter().map(|h| Sourced::Text(h)));
        }
        let body = file.strip_prefix("<(").and_then(|f| f.strip_suffix(')'));
        if let Some(body) = body.filter(|b| cmd.substitutions.iter().any(|s| s == b)) {
            found.push(piped(body));
        }
    }
    found
}

/// The output of `body` run by a shell: `body | sh`.
fn piped(body: &str) -> Sourced<'static> {
    let mut script = shell::parse_script(body);
    if let Some(last) = script.pipelines.last_mut() {
        last.push(Command {
            words: vec!["sh".to_owned()],
            ..Command::default()
        });
    }
    Sourced::Piped(script)
}
