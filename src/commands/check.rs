//! `hookrun check`: validate configs and lint them, for people and for CI.

use std::path::{Path, PathBuf};

use crate::cli::CheckArgs;
use crate::config::{self, Code, Diagnostic, FailMode, LoadOptions, STDIN_NAME};
use crate::error::{Error, ExitStatus};
use crate::lint::suites;
use crate::output::{
    self,
    findings::{Checked, Tally},
};

/// Runs `check` and returns the exit code: 1 when there are errors (or
/// warnings under `--strict`), else 0.
///
/// # Errors
/// None today: every problem with a config is a finding.
pub(crate) fn execute(args: &CheckArgs) -> Result<ExitStatus, Error> {
    let mut findings = Vec::new();
    let (mut paths, stdin) = if args.paths.is_empty() {
        (config::paths(&config::discover(&[])), None)
    } else {
        expand(&args.paths, &mut findings)
    };
    // Test files are checked as test files; the rest are configs.
    let (suites, configs): (Vec<PathBuf>, Vec<PathBuf>) =
        paths.drain(..).partition(|p| suites::is_suite(p));
    paths = configs;
    for s in &suites {
        findings.extend(suites::check(s));
    }
    let (loaded, loaded_findings) = config::load_for_check(
        &paths,
        stdin.as_deref(),
        LoadOptions {
            explicit: false,
            default_fail_mode: FailMode::Open,
            format: args.config_format,
            foreign: crate::dialect::convert::HOOKS_FILES,
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
    findings.extend(untrusted(&paths, &project_dir, args));
    findings.sort_by(|a, b| (&a.file, a.line, a.column).cmp(&(&b.file, b.line, b.column)));
    findings.dedup();
    let checked_files: Vec<PathBuf> = paths.iter().chain(&suites).cloned().collect();
    let tally = Tally::of(checked_files.len(), &findings);
    let checked = Checked {
        files: &checked_files,
        tally,
        strict: args.strict,
    };
    output::print(&output::findings::render(
        &findings,
        checked,
        args.format,
        output::colour_stdout(),
    ));
    if args.paths.is_empty() && checked_files.is_empty() {
        output::diagnostic(
            "warning: no config found (no PATH, $HOOKRUN_CONFIG, ./hookrun.toml or Claude Code settings)",
        );
    }
    Ok(u8::from(
        tally.errors > 0 || (args.strict && tally.warnings > 0),
    ))
}

/// W015 for the checked file that `run` reads as the project's
/// `hookrun.toml` in `project_dir`, when its content is not trusted.
fn untrusted(paths: &[PathBuf], project_dir: &Path, args: &CheckArgs) -> Vec<Diagnostic> {
    let discovered = config::discover_for(&[], Some(project_dir));
    let Some(project) = discovered
        .iter()
        .find(|f| f.source == config::Source::Project)
    else {
        return Vec::new();
    };
    let options = LoadOptions {
        explicit: false,
        default_fail_mode: FailMode::Open,
        format: args.config_format,
        foreign: crate::dialect::convert::HOOKS_FILES,
    };
    paths
        .iter()
        .filter(|p| config::same_file(p, &project.path))
        .take(1)
        .flat_map(|p| {
            config::untrusted_findings(&project.path, options)
                .into_iter()
                .map(move |mut d| {
                    // Named as the user named it, so that it sorts and
                    // dedups with the file's other findings.
                    d.file = p.clone();
                    d
                })
        })
        .collect()
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
            let mut found = config::in_directory(arg);
            found.extend(suites_in(arg));
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

/// The test files directly in `dir`, sorted by name.
fn suites_in(dir: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file() && suites::is_suite(p))
        .collect();
    found.sort();
    found
}

fn no_config_in(dir: &Path) -> String {
    format!(
        "warning: {} holds no config file hookrun recognises (docs/check.md)",
        dir.display()
    )
}
