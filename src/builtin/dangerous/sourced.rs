//! `source`/`.` run a file's text in the current shell: when that text is
//! in the command line itself — a process substitution (`source <(echo …)`,
//! `. <(curl …)`) or stdin from a here-doc or here-string (`source
//! /dev/stdin <<< '…'`) — it is code to check, as `X | sh` and `sh <<<`
//! are.

use crate::builtin::shell::{self, Command, Pipeline, Script};
use crate::builtin::wrappers::unwrap;

/// Code that a `source`/`.` runs from the command line itself.
pub(super) enum Sourced<'a> {
    /// A here-doc or here-string read as the script.
    Text(&'a str),
    /// A process substitution whose output is the script: its last
    /// pipeline is piped into `sh`.
    Piped(Script),
}

/// Paths that name the shell's own stdin.
pub(super) fn is_stdin(path: &str) -> bool {
    matches!(path, "/dev/stdin" | "-" | "/dev/fd/0" | "/proc/self/fd/0")
}

/// What the `source`/`.` commands of `pipeline` run.
pub(super) fn sourced(pipeline: &Pipeline) -> Vec<Sourced<'_>> {
    let mut found = Vec::new();
    for cmd in pipeline {
        let argv = unwrap(&cmd.words);
        let (Some(first), Some(file)) = (argv.first(), argv.get(1)) else {
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
            let mut script = shell::parse_script(body);
            if let Some(last) = script.pipelines.last_mut() {
                last.push(Command {
                    words: vec!["sh".to_owned()],
                    ..Command::default()
                });
            }
            found.push(Sourced::Piped(script));
        }
    }
    found
}
