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
//!
//! Non-goals: a library for other programs. hookrun's interface is its
//! command line and what it prints (docs/), and this crate is what the
//! binary is built from; its only public items are [`main`] and a hidden
//! `internals` module the benches, fuzz targets and integration tests
//! drive, which may change in any release. The parts that are libraries
//! in their own right are crates of their own: `hookrun-sh` (the bash
//! reader), `hookrun-code` (other languages' inline code) and
//! `hookrun-guards` (the built-in guards).
//!
//! ```
//! // What the benches and fuzz targets do: one stage at a time.
//! use hookrun::internals::dialect::{Dialect, read_event};
//!
//! let raw = br#"{"hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
//!               "tool_input": {"command": "ls"}, "session_id": "s", "cwd": "/w"}"#;
//! let event = read_event(raw, None).expect("an event");
//! // Gemini CLI's event, in hookrun's model (Claude Code's names).
//! assert_eq!(event.dialect, Dialect::Gemini);
//! assert_eq!(event.name, "PreToolUse");
//! ```

#![forbid(unsafe_code)]

pub(crate) mod agent;
pub(crate) mod answer;
pub(crate) mod audit;
pub(crate) mod builtin;
pub(crate) mod cli;
pub(crate) mod clock;
pub(crate) mod commands;
pub(crate) mod config;

pub(crate) mod decision;
pub(crate) mod diagnostic;
pub(crate) mod dialect;
pub(crate) mod dirs;
pub(crate) mod doctor;
pub(crate) mod error;
pub(crate) mod event;
pub(crate) mod events;
pub(crate) mod exec;
pub(crate) mod explain;
pub(crate) mod if_rule;
pub(crate) mod install;
pub(crate) mod launch;
pub(crate) mod lint;
pub(crate) mod matcher;
pub(crate) mod os;
pub(crate) mod output;
pub(crate) mod pipeline;
pub(crate) mod rendered;
pub(crate) mod report;
pub(crate) mod schema;
pub(crate) mod select;
pub(crate) mod server_client;
pub(crate) mod session;
pub(crate) mod suggest;
pub(crate) mod suite;
pub(crate) mod telemetry;
pub(crate) mod wording;

/// What the benches, fuzz targets and integration tests drive directly.
/// Not a stable interface: hookrun is a command-line program, and its
/// library is only what the binary is built from.
#[doc(hidden)]
pub mod internals {
    pub mod answer {
        pub use crate::answer::{Answer, classify, verdict::verdict_json};
    }
    pub mod builtin {
        pub use crate::builtin::{Builtin, Mode};
    }
    pub mod config {
        pub use crate::config::{
            Action, Config, FailMode, Found, LoadOptions, Source, load, load_for_check, load_found,
        };
        pub use crate::diagnostic::Severity;
    }
    pub mod convert {
        pub use crate::dialect::convert::{HOOKS_FILES, builtin_of};
    }
    pub mod decision {
        pub use crate::decision::{Decision, Input, Permission, merge};
    }
    pub mod dialect {
        pub use crate::dialect::{Dialect, read_event, read_event_as};
    }
    pub mod event {
        pub use crate::event::{Event, Line, split_all};
    }
    pub mod events {
        pub use crate::events::{Family, NameSet, info};
    }
    pub mod exec {
        pub use crate::exec::{Captured, HookRun, RunStatus};
    }
    pub mod lint {
        pub use crate::lint::lint;
    }
    pub mod matcher {
        pub use crate::matcher::{Matcher, Syntax};
    }
    pub mod select {
        pub use crate::select::select;
    }
}

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
pub(crate) fn run(cli: &cli::Cli) -> ExitCode {
    let outcome = match &cli.command {
        cli::Command::Run(args) => commands::run::execute(args),
        cli::Command::Check(args) => commands::check::execute(args),
        cli::Command::Explain(args) => commands::explain::execute(args),
        cli::Command::Test(args) => commands::test::execute(args),
        cli::Command::Convert(args) => commands::convert::execute(args),
        cli::Command::Serve(args) => commands::serve::execute(args),
        cli::Command::Forward(args) => commands::forward::execute(args),
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
    // The MCP servers `mcp_tool` hooks started (none for most processes)
    // end with the process, after its answer is out.
    pipeline::mcp_shutdown();
    ExitCode::from(match outcome {
        Ok(status) => status,
        Err(e) => {
            let answer = output::error_answer(&e);
            output::emit(&answer);
            answer.exit_code
        }
    })
}
