//! Commands about hookrun itself: the config schema, completions, the man page.

use clap::CommandFactory;

use crate::cli::Cli;
use crate::output;

/// `hookrun schema`: the JSON Schema of the TOML config.
#[must_use]
pub fn schema() -> u8 {
    output::print(
        &(serde_json::to_string_pretty(&crate::config::toml_schema()).unwrap_or_default() + "\n"),
    );
    0
}

/// `hookrun completions SHELL`.
#[must_use]
pub fn completions(shell: clap_complete::Shell) -> u8 {
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "hookrun", &mut buf);
    output::print(&String::from_utf8_lossy(&buf));
    0
}

/// `hookrun man`: the man page, generated from the CLI definition.
#[must_use]
pub fn man() -> u8 {
    let mut buf = Vec::new();
    if clap_mangen::Man::new(Cli::command())
        .render(&mut buf)
        .is_err()
    {
        output::error("cannot render the man page", false);
        return 1;
    }
    output::print(&String::from_utf8_lossy(&buf));
    0
}
