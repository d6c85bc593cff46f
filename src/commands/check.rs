//! `hookrun check`: validate configs and lint them, for people and for CI.

use std::path::{Path, PathBuf};

use crate::cli::CheckArgs;
use crate::config::{self, Code, Diagnostic, FailMode, LoadOptions, STDIN_NAME};
use crate::error::{Error, ExitStatus};
use crate::output::{
    self,
    findings::{Checked, Tally},
};

/// Runs `check` and returns the exit code: 1 when there are errors (or
/// warnings under `--strict`), else 0.
///
/// # Errors
/// None today: every problem with a config is a finding.
pub fn execute(args: &CheckArgs) -> Result<ExitStatus, Error> {
    let mut findings = Vec::new();
    let (paths, stdin) = if args.paths.is_empty() {
        (config::paths(&config::discover(&[])), None)
    } else {
        expand(&args.paths, &mut findings)
    };
    let (loaded, loaded_findings) = config::load_for_check(
        &paths,
        stdin.as_deref(),
        LoadOptions {
            explicit: false,
            default_fail_mode: FailMode::Open,
            format: args.config_format,
        },
    );
    findings.extend(loaded_findings);
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
    let checked = Checked {
        files: &paths,
        tally,
        strict: args.strict,
    };
    output::print(&output::findings::render(
        &findings,
        checked,
        args.format,
        output::colour_stdout(),
    ));
    if args.paths.is_empty() && paths.is_empty() {
        output::diagnostic(
            "warning: no config found (no PATH, $HOOKRUN_CONFIG, ./hookrun.toml or Claude Code settings)",
        );
    }
    Ok(u8::from(
        tally.errors > 0 || (args.strict && tally.warnings > 0),
    ))
}

/// The files the PATH arguments name: a directory stands for the config
/// files hookrun recognises in it (`config::in_directory`), `-` for one
/// config on stdin, read here once and named `<stdin>`.
fn expand(args: &[PathBuf], findings: &mut Vec<Diagnostic>) -> (Vec<PathBuf>, Option<String>) {
    let mut paths = Vec::new();
    let mut stdin = None;
    for arg in args {
        if arg.as_os_str() == "-" {
            if stdin.is_none() {
                match std::io::read_to_string(std::io::stdin()) {
                    Ok(text) => {
                        stdin = Some(text);
                        paths.push(PathBuf::from(STDIN_NAME));
                    }
                    Err(e) => findings.push(Diagnostic::new(
                        Code::Unreadable,
                        STDIN_NAME,
                        format!("stdin cannot be read: {e}"),
                    )),
                }
            }
        } else if arg.is_dir() {
            let found = config::in_directory(arg);
            if found.is_empty() {
                output::diagnostic(&no_config_in(arg));
            }
            paths.extend(found);
        } else {
            paths.push(arg.clone());
        }
    }
    (paths, stdin)
}

fn no_config_in(dir: &Path) -> String {
    format!(
        "warning: {} holds no config file hookrun recognises (docs/check.md)",
        dir.display()
    )
}
