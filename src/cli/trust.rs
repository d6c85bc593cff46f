//! Options of `hookrun trust`.

use std::path::PathBuf;

use clap::Args;

// Options of `hookrun trust`. (A plain comment: see `Command`.)
#[derive(Debug, Args, Clone)]
pub(crate) struct TrustArgs {
    /// The project config file (a project's `hookrun.toml`).
    #[arg(value_name = "PATH", required_unless_present = "list")]
    pub path: Option<PathBuf>,

    /// List the trusted files, each marked `trusted`, `changed` (edited
    /// since: not trusted) or `missing`.
    #[arg(long, conflicts_with_all = ["path", "remove"])]
    pub list: bool,

    /// Take PATH's trust away instead.
    #[arg(long)]
    pub remove: bool,
}
