//! Options of the commands that set hookrun up: `init`, `install`, `config`.

use std::path::PathBuf;

use clap::{Args, Subcommand};

// Options of `hookrun init`. (A plain comment: see `Command`.)
#[derive(Debug, Args, Clone)]
pub(crate) struct InitArgs {
    /// Where to write `hookrun.toml` and `hookrun.test.toml` [default: the current directory].
    #[arg(value_name = "DIR")]
    pub dir: Option<PathBuf>,

    /// Overwrite files that exist.
    #[arg(long)]
    pub force: bool,

    /// Do not add the written `hookrun.toml` to the trust list: as a
    /// project file it may then only add guards (`redact-secrets` is off)
    /// until `hookrun trust` is run on it.
    #[arg(long)]
    pub no_trust: bool,
}

// Options of `hookrun install`.
#[derive(Debug, Args, Clone)]
pub(crate) struct InstallArgs {
    /// The agent whose settings file to edit.
    #[arg(long, value_enum)]
    pub agent: crate::install::Agent,

    /// The user's settings file; the project's (the current directory),
    /// shared, so it may hold no path of this machine's; or the project's
    /// local file, this machine's only (Claude Code's
    /// .claude/settings.local.json; the other agents have none).
    #[arg(long, value_enum, default_value = "user")]
    pub scope: crate::install::Scope,

    /// The hookrun config whose events to register; the command written
    /// then names it, relative to the project directory when it is in the
    /// project [default: the one discovery finds for the scope:
    /// $XDG_CONFIG_HOME/hookrun/hookrun.toml, or ./hookrun.toml].
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,

    /// What the agent does when hookrun cannot answer: `block` asks the
    /// agent to block the events that can block when hookrun is missing,
    /// killed or times out, where it can (Claude Code's `onFailure:
    /// "block"`, Cursor's `failClosed`); `allow` writes no such key and
    /// registers `run --on-error allow`, so hookrun lets its own errors
    /// through too.
    #[arg(
        long = "on-error",
        value_enum,
        value_name = "WHAT",
        default_value = "block"
    )]
    pub on_error: super::on_error::OnError,

    /// Register a `hookrun serve --http` server at URL instead of `hookrun
    /// run`: Claude Code's `http` handler posting to `URL/hooks/claude`
    /// (a `hookrun forward` command on SessionStart and Setup, where it runs
    /// no `http` handler); for the other agents, `hookrun forward --url
    /// URL`. The config still says which events and timeouts to register.
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,

    /// With --url: the environment variable holding the server's bearer
    /// token, sent as `Authorization: Bearer $VAR` (Claude Code's
    /// `allowedEnvVars`; `hookrun forward --token-env`).
    #[arg(long, value_name = "VAR", requires = "url")]
    pub token_env: Option<String>,

    /// Print the change and write nothing.
    #[arg(long)]
    pub dry_run: bool,

    /// First move the agent's own hooks from the settings file into the
    /// hookrun config (as `hookrun convert` writes them), so that hookrun
    /// runs them and the agent runs only hookrun; both files are backed up
    /// first.
    #[arg(long = "move")]
    pub move_hooks: bool,

    /// Remove what `install` added (restoring the original file when
    /// nothing else changed since).
    #[arg(long)]
    pub uninstall: bool,
}

/// `hookrun config …`.
#[derive(Debug, Subcommand, Clone, Copy)]
pub(crate) enum ConfigCommand {
    /// Print the effective layered config: each file in discovery order,
    /// and each hook with the file and line it came from.
    Show,
    /// Print the events the config has hooks for, one per line, in an
    /// agent's own names: what an integration registers (the deputy R
    /// adapter's `hookrun_hooks(events = NULL)`). Events the agent does not
    /// fire are named on stderr.
    Events {
        /// The agent whose event names are printed.
        #[arg(long, value_enum, default_value_t)]
        dialect: crate::agent::Dialect,
        /// Print each event with the seconds to give hookrun on it (its
        /// longest hook's timeout and a margin), tab-separated.
        #[arg(long)]
        timeouts: bool,
    },
}
