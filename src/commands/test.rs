//! `hookrun test`: run policy test files against the real hooks, through
//! the same pipeline as `run`, one temporary working directory per case.

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::cli::{TestArgs, TestFormat};
use crate::config::{self, FailMode, Found, LoadOptions, Source};
use crate::error::{Error, ExitStatus};
use crate::event;
use crate::output::{self, suite::CaseResult};
use crate::pipeline::{self, Context};
use crate::suite::{self, Observed, Suite};

/// Runs the suites; exit 0 only when every selected case passes.
///
/// # Errors
/// None today: a broken test file is a failed case.
pub(crate) fn execute(args: &TestArgs) -> Result<ExitStatus, Error> {
    let files = if args.paths.is_empty() {
        find_suites(Path::new("."))
    } else {
        expand(&args.paths)
    };
    let mut results = Vec::new();
    for file in &files {
        match suite::load(file) {
            Ok(s) => results.extend(run_suite(&s, args)),
            Err(e) => results.push(CaseResult::broken(file, "(test file)", &e.to_string())),
        }
    }
    let failed = results.iter().filter(|r| !r.passed).count();
    match args.format {
        TestFormat::Text => output::print(&output::suite::text(
            &results,
            output::colour::Paint {
                on: output::colour_stdout(),
            },
        )),
        TestFormat::Github => output::print(&output::suite::github(&results)),
        TestFormat::Junit | TestFormat::Json => {
            output::print(&if args.format == TestFormat::Json {
                output::suite::json(&results)
            } else {
                output::suite::junit(&results)
            });
            output::diagnostic(&output::suite::summary(&results));
        }
    }
    if results.is_empty() {
        output::diagnostic("no test case found (test files end in `.test.toml`)");
        return Ok(1);
    }
    Ok(u8::from(failed > 0))
}

fn run_suite(s: &Suite, args: &TestArgs) -> Vec<CaseResult> {
    let filter = args.filter.as_deref();
    let cases: Vec<_> = s
        .case_lines
        .iter()
        .copied()
        .zip(&s.cases)
        .filter(|(_, c)| filter.is_none_or(|f| c.name.contains(f)))
        .collect();
    let found = layers(s);
    let config = match config::load_found(
        &found,
        LoadOptions {
            explicit: false,
            default_fail_mode: FailMode::Open,
            format: args.config_format,
            foreign: crate::dialect::convert::HOOKS_FILES,
        },
    )
    .map(|mut c| {
        crate::session::drop_registrations(&mut c, &found);
        c
    })
    .and_then(config::Config::complete)
    {
        Ok(c) => c,
        Err(e) => {
            return cases
                .iter()
                .map(|(line, c)| CaseResult {
                    line: *line,
                    ..CaseResult::broken(&s.path, &c.name, &e.to_string())
                })
                .collect();
        }
    };
    for file in &config.untrusted_files {
        output::diagnostic(&format!(
            "note: {}: cases run as `run` would in {}, where {} is not on the trust list: it may only add guards, so rewrites, allows and file-wide settings are ignored (review it, then `hookrun trust {}`)",
            s.path.display(),
            s.project_dir.display(),
            file.display(),
            file.display()
        ));
    }
    cases
        .into_iter()
        .map(|(line, case)| {
            let started = Instant::now();
            let (diffs, why) = match run_case(s, &config, case) {
                Ok(d) => d,
                Err(e) => (vec![e.to_string()], Vec::new()),
            };
            CaseResult {
                suite: s.path.clone(),
                name: case.name.clone(),
                passed: diffs.is_empty(),
                diffs,
                why,
                line,
                duration: started.elapsed(),
            }
        })
        .collect()
}

/// The config layers a suite's cases run with. A suite that names the
/// project's own `hookrun.toml` (the file `run` reads when the agent names
/// the suite's `project_dir`) tests what the installed setup does: the
/// layers `run` reads there (user config, `$HOOKRUN_CONFIG` or Claude
/// Code's settings, the project file) with the same trust, the suite's
/// other files added before the project file. Any other suite tests the
/// files it names, as `--config` would run them.
fn layers(s: &Suite) -> Vec<Found> {
    let explicit = |path: &PathBuf| Found {
        path: path.clone(),
        source: Source::Explicit,
    };
    let names_project = config::project_file(&s.project_dir)
        .is_some_and(|p| s.configs.iter().any(|c| config::same_file(c, &p)));
    if !names_project {
        return s.configs.iter().map(explicit).collect();
    }
    let mut found = config::discover_for(&[], Some(&s.project_dir));
    let extra: Vec<Found> = s
        .configs
        .iter()
        .filter(|c| !found.iter().any(|f| config::same_file(&f.path, c)))
        .map(explicit)
        .collect();
    let at = found
        .iter()
        .position(|f| f.source == Source::Project)
        .unwrap_or(found.len());
    found.splice(at..at, extra);
    found
}

/// Runs one case: its differences from what it expects and, when there are
/// any, why the hooks answered as they did.
fn run_case(
    s: &Suite,
    config: &config::Config,
    case: &suite::Case,
) -> Result<(Vec<String>, Vec<String>), Error> {
    let io = |what: &str| {
        let what = what.to_owned();
        move |source| Error::Io { what, source }
    };
    let dir = tempfile::tempdir().map_err(io("cannot make the case's working directory"))?;
    let tmp = dir.path().display().to_string();
    for (rel, content) in &case.files {
        let path = dir.path().join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(io(&format!("cannot create `{}`", parent.display())))?;
        }
        std::fs::write(&path, content).map_err(io(&format!("cannot write fixture `{rel}`")))?;
    }
    let project = s.project_dir.display().to_string();
    let partial = suite::event_of(case, &tmp, &project);
    let bytes = serde_json::to_vec(&event::complete(&partial, &tmp))
        .map_err(|e| Error::Event(e.to_string()))?;
    let ev = crate::dialect::read_event_as(bytes, None, case.dialect)?;
    // The case's agent runs the hooks in its own files itself: `run` leaves
    // them out, so the case does too.
    let config = &*crate::install::agent_own::for_agent(
        config,
        ev.dialect,
        &s.project_dir,
        &crate::install::location::Homes::from_env(),
    );
    let ctx = Context {
        project_dir: project,
        depth: 0,
        timeout_cap: Some(s.timeout),
        own_errors_block: true,
    };
    let eval = pipeline::evaluate(config, &ev, &ctx)?;
    let mut ran: Vec<(String, String)> = eval
        .selected
        .iter()
        .filter(|sel| sel.not_run.is_none())
        .map(|sel| {
            (
                config.hooks[sel.hook].display_name(),
                config.hooks[sel.hook].label(),
            )
        })
        .collect();
    ran.extend(
        eval.started_async
            .iter()
            .map(|(p, _)| (config.hooks[*p].display_name(), config.hooks[*p].label())),
    );
    let system_message = serde_json::from_str::<serde_json::Value>(&eval.rendered.stdout)
        .ok()
        .and_then(|v| {
            v.get("systemMessage")
                .and_then(|m| m.as_str())
                .map(str::to_owned)
        })
        .unwrap_or_default();
    let seen = Observed {
        family: eval.family,
        decision: &eval.decision,
        exit_code: eval.rendered.exit_code,
        system_message,
        ran,
    };
    let diffs = suite::compare(&case.expect, &seen);
    let why = if diffs.is_empty() {
        Vec::new()
    } else {
        why(config, &eval)
    };
    Ok((diffs, why))
}

/// Which hooks decided a failed case and what each said, in config order,
/// then what was dropped from an untrusted file's answers: so that a failure
/// names its cause, not only its symptom.
fn why(config: &config::Config, eval: &pipeline::Evaluation) -> Vec<String> {
    let mut out: Vec<String> = eval
        .selected
        .iter()
        .zip(&eval.answers)
        .filter_map(|(sel, answer)| {
            let said = suite::said(answer)?;
            Some(format!(
                "why: `{}` {said}",
                config.hooks[sel.hook].display_name()
            ))
        })
        .collect();
    out.extend(eval.ignored.iter().map(|n| format!("why: {n}")));
    if out.is_empty() {
        let ran: Vec<String> = eval
            .selected
            .iter()
            .map(|sel| config.hooks[sel.hook].display_name())
            .collect();
        out.push(if ran.is_empty() {
            "why: no hook matched the event".to_owned()
        } else {
            format!(
                "why: none of the hooks that ran ({ran:?}) blocked, answered or rewrote anything"
            )
        });
    }
    out
}

/// Files as given; directories expand to the `*.test.toml` files below them.
fn expand(paths: &[PathBuf]) -> Vec<PathBuf> {
    paths
        .iter()
        .flat_map(|p| {
            if p.is_dir() {
                find_suites(p)
            } else {
                vec![p.clone()]
            }
        })
        .collect()
}

/// Every `*.test.toml` below `dir`, skipping hidden directories and `target`.
fn find_suites(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![(dir.to_path_buf(), 0)];
    while let Some((d, depth)) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if path.is_dir() {
                if depth < 6 && !name.starts_with('.') && name != "target" && name != "node_modules"
                {
                    stack.push((path, depth + 1));
                }
            } else if name.ends_with(".test.toml") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}
