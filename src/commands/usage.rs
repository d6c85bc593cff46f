//! A command line that does not parse. For the commands an agent runs as a
//! hook (`run`, `builtin`), a mistyped flag in the agent's settings means
//! hookrun cannot evaluate the event: it answers with a block in the
//! caller's shape (on Stop only while `stop_hook_active` is false), unless
//! `--on-error allow` is among the arguments or `HOOKRUN_ON_ERROR=allow`
//! (then exit 1, a non-blocking error to every agent). `serve` cannot
//! answer a stream it never started: exit 1. `check`, `test` and the
//! others keep clap's 2 for usage errors, as ruff and grep do.

use std::ffi::OsString;

use crate::error::{Error, ExitStatus};

/// The subcommands agents run as hooks.
const HOOK_COMMANDS: &[&str] = &["run", "serve", "builtin"];

/// Prints clap's message and picks the exit status.
pub(crate) fn answer(err: &clap::Error, raw: &[OsString]) -> ExitStatus {
    use clap::error::ErrorKind;
    let _ = err.print();
    if matches!(
        err.kind(),
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion
    ) {
        return 0;
    }
    let words: Vec<String> = raw
        .iter()
        .skip(1)
        .map(|w| w.to_string_lossy().into_owned())
        .collect();
    let Some(command) = words.iter().find(|w| !w.starts_with('-')) else {
        return exit_code(err);
    };
    if !HOOK_COMMANDS.contains(&command.as_str()) {
        return exit_code(err);
    }
    let said = |flag: &str, value: &str| {
        words.windows(2).any(|w| w[0] == flag && w[1] == value)
            || words.iter().any(|w| *w == format!("{flag}={value}"))
    };
    let allowed = said("--on-error", "allow")
        || std::env::var("HOOKRUN_ON_ERROR").is_ok_and(|v| v == "allow");
    let blocks = !allowed || said("--fail-mode", "closed");
    if blocks && command != "serve" {
        let message = err
            .to_string()
            .lines()
            .next()
            .unwrap_or("invalid command line")
            .trim_start_matches("error: ")
            .to_owned();
        return crate::session::block_unread_event(
            &Error::Usage(message).closed_if(true),
            None,
            None,
            std::time::Duration::from_secs(30),
        );
    }
    1
}

fn exit_code(err: &clap::Error) -> ExitStatus {
    u8::try_from(err.exit_code()).unwrap_or(2)
}
