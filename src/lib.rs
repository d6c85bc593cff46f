//! hookrun: one hook runner for every coding agent.
//!
//! The pipeline of `hookrun run`, one module per stage, in data-flow order:
//!
//! 1. `config` — load and layer hook configs (hookrun TOML, Claude Code JSON);
//! 2. `event` — read the event on stdin (capped) and keep its exact bytes;
//! 3. `select` — match (`matcher`, `if_rule`), deduplicate, plan;
//! 4. `exec` — run the selected hooks concurrently as process groups;
//! 5. `answer` — read each run as Claude Code reads a hook's result;
//! 6. `decision` — merge the answers in config order;
//! 7. `output` — print one decision (the only writer of stdout).
//!
//! Pure stages (`matcher`, `select`, `answer`, `decision`, the dialects' renderers)
//! never touch processes or the clock; `exec` is the only part that does.
//! What differs between platforms (process groups, signals, file locks)
//! lives behind `os`, the only platform code.

#![forbid(unsafe_code)]

pub mod agent;
pub mod answer;
pub mod audit;
pub mod builtin;
pub mod cli;
pub mod clock;
pub mod commands;
pub mod config;

pub mod decision;
pub mod diagnostic;
pub mod dialect;
pub mod dirs;
pub mod doctor;
pub mod error;
pub mod event;
pub mod events;
pub mod exec;
pub mod explain;
pub mod if_rule;
pub mod install;
pub mod launch;
pub mod lint;
pub mod matcher;
pub(crate) mod os;
pub mod output;
pub mod pipeline;
pub mod rendered;
pub mod report;
pub mod schema;
pub mod select;
pub mod session;
pub mod suggest;
pub mod suite;
pub mod wording;

/// Conversions between hooks files, under the name the library has always
/// given them.
pub use dialect::convert;

use std::process::ExitCode;

/// The binary's entry: parses the command line and runs it. A command line
/// that does not parse is answered by `commands::usage`.
#[must_use]
pub fn main() -> ExitCode {
    use clap::{CommandFactory, FromArgMatches};
    let raw: Vec<std::ffi::OsString> = std::env::args_os().collect();
    // `--color` is read before parsing too, so clap's own help and errors
    // honour it.
    let early = output::colour::ColorWhen::from_words(&raw).unwrap_or_default();
    output::colour::set(early);
    let parsed = cli::Cli::command()
        .color(early.for_clap())
        .try_get_matches_from(&raw)
        .and_then(|mut m| cli::Cli::from_arg_matches_mut(&mut m));
    match parsed {
        Ok(cli) => {
            output::colour::set(cli.color);
            run(&cli)
        }
        Err(err) => ExitCode::from(commands::usage::answer(&err, &raw)),
    }
}

/// Runs a parsed command line and returns the process exit code. This is the
/// one place that prints hookrun's own errors: every command returns its exit
/// status, or an `Error` whose kind picks the code (`error::Error::exit_code`).
#[must_use]
pub fn run(cli: &cli::Cli) -> ExitCode {
    let outcome = match &cli.command {
        cli::Command::Run(args) => commands::run::execute(args),
        cli::Command::Check(args) => commands::check::execute(args),
        cli::Command::Explain(args) => commands::explain::execute(args),
        cli::Command::Test(args) => commands::test::execute(args),
        cli::Command::Convert(args) => commands::convert::execute(args),
        cli::Command::Serve(args) => commands::serve::execute(args),
        cli::Command::Builtin(args) => commands::builtin::execute(args),
        cli::Command::Audit(cli::AuditCommand::Verify {
            path,
            key_file,
            expect,
        }) => commands::audit::verify(path, key_file.as_deref(), expect),
        cli::Command::Trust(args) => commands::trust::execute(args),
        cli::Command::Init(args) => commands::init::execute(args),
        cli::Command::Install(args) => commands::install::execute(args),
        cli::Command::Doctor(args) => commands::doctor::execute(args),
        cli::Command::Config(args) => commands::config::execute(args),
        cli::Command::Schema => commands::meta::schema(),
        cli::Command::Completions { shell } => commands::meta::completions(*shell),
        cli::Command::Man(args) => commands::meta::man(args),
    };
    ExitCode::from(match outcome {
        Ok(status) => status,
        Err(e) => {
            let answer = output::error_answer(&e);
            output::emit(&answer);
            answer.exit_code
        }
    })
}
