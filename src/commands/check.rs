//! `hookrun check`: validate configs and lint them, for people and for CI.

use std::path::PathBuf;

use crate::cli::CheckArgs;
use crate::config::{self, FailMode, LoadOptions};
use crate::error::{Error, ExitStatus};
use crate::output::{self, findings::Tally};

/// Runs `check` and returns the exit code: 1 when there are errors (or
/// warnings under `--strict`), else 0.
///
/// # Errors
/// None today: every problem with a config is a finding.
pub fn execute(args: &CheckArgs) -> Result<ExitStatus, Error> {
    let paths = config::paths(&config::discover(&args.paths));
    let (loaded, mut findings) = config::load_for_check(
        &paths,
        LoadOptions {
            explicit: false,
            default_fail_mode: FailMode::Open,
            format: args.config_format,
        },
    );
    let project_dir = args
        .project_dir
        .clone()
        .or_else(|| std::env::var_os("CLAUDE_PROJECT_DIR").map(PathBuf::from))
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_else(|| PathBuf::from("."));
    findings.extend(crate::lint::lint(&loaded, &project_dir));
    findings.sort_by(|a, b| (&a.file, a.line, a.column).cmp(&(&b.file, b.line, b.column)));
    findings.dedup();
    let tally = Tally::of(paths.len(), &findings);
    output::print(&output::findings::render(
        &findings,
        tally,
        args.format,
        output::colour_stdout(),
    ));
    if paths.is_empty() {
        output::diagnostic(
            "warning: no config found (no PATH, $HOOKRUN_CONFIG, ./hookrun.toml or Claude Code settings)",
        );
    }
    Ok(u8::from(
        tally.errors > 0 || (args.strict && tally.warnings > 0),
    ))
}
