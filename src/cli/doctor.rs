//! Options of `hookrun doctor`.

use clap::{Args, ValueEnum};

// Options of `hookrun doctor`. (A plain comment: see `Command`.)
#[derive(Debug, Args, Clone)]
pub(crate) struct DoctorArgs {
    /// Only this agent's registrations (repeatable) [default: every agent
    /// `install` knows].
    #[arg(long, value_enum, value_name = "AGENT")]
    pub agent: Vec<crate::install::Agent>,

    /// Only the user's settings files, or only the project's (its shared
    /// file and Claude Code's local one) [default: both].
    #[arg(long, value_enum, value_name = "SCOPE")]
    pub scope: Option<DoctorScope>,

    /// Fire the canaries at the built-in guards only: `run` is started
    /// with HOOKRUN_BUILTINS_ONLY=1, so none of the config's command hooks
    /// runs.
    #[arg(long)]
    pub no_hooks: bool,

    /// Text for people, or one JSON object.
    #[arg(long, value_enum, default_value = "text")]
    pub format: DoctorFormat,
}

/// Which settings files `doctor` looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum DoctorScope {
    User,
    Project,
}

/// How `doctor` prints its findings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum DoctorFormat {
    Text,
    Json,
}
