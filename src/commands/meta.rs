//! Commands about hookrun itself: the config schema, completions, the man page.

use clap::CommandFactory;

use crate::cli::Cli;
use crate::error::{Error, ExitStatus};
use crate::output;

/// `hookrun schema`: the JSON Schema of the TOML config.
///
/// # Errors
/// None: the schema is generated.
pub fn schema() -> Result<ExitStatus, Error> {
    output::print(
        &(serde_json::to_string_pretty(&crate::config::toml_schema()).unwrap_or_default() + "\n"),
    );
    Ok(0)
}

/// `hookrun completions SHELL`.
///
/// # Errors
/// None: completions are generated.
pub fn completions(shell: clap_complete::Shell) -> Result<ExitStatus, Error> {
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "hookrun", &mut buf);
    output::print(&String::from_utf8_lossy(&buf));
    Ok(0)
}

/// `hookrun man`: the man page, generated from the CLI definition.
///
/// # Errors
/// The page cannot be rendered.
pub fn man() -> Result<ExitStatus, Error> {
    let mut buf = Vec::new();
    clap_mangen::Man::new(Cli::command())
        .render(&mut buf)
        .map_err(|e| Error::Internal(format!("cannot render the man page: {e}")))?;
    output::print(&String::from_utf8_lossy(&buf));
    Ok(0)
}
