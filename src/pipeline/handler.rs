//! What runs a hook: the one place where a hook's kind (`config::Action`)
//! turns into how it runs (a process `exec` runs, or a built-in guard
//! evaluated in-process) and then into the run and answer that the merge,
//! the report, the audit line and `explain` read. Nothing past this file
//! asks which kind a hook is to run it.
//!
//! Adding a kind of handler is a variant of `config::Action` (its label
//! and dedup key beside it), its runner in a file of `pipeline`, and one arm
//! in [`job_of`] (and [`describe`]); ARCHITECTURE.md says how.

use std::path::Path;

use super::hooks::{not_run_answer, read_answer, run_builtin, run_specs};
use super::hooks::{spec_of, stdin_for};
use super::model::Context;
use crate::answer::Answer;
use crate::config::{Action, Config, Hook};
use crate::error::Error;
use crate::event::Event;
use crate::exec::{self, ExecSpec, HookRun};

/// How one selected hook of an event runs.
pub(super) enum Job<'a> {
    /// A process, run by `exec` at once with the event's other processes
    /// and read by the dialect the hook speaks; without a spec it gets a
    /// placeholder run.
    Process {
        hook: &'a Hook,
        spec: Option<ExecSpec>,
    },
    /// Work done in-process while the processes run (a built-in guard):
    /// its run and answer.
    InProcess(Box<dyn FnOnce() -> (HookRun, Answer) + 'a>),
    /// An HTTP request, made on a thread of its own while the processes
    /// run (`pipeline::http`), and read as the hook's JSON stdout.
    Http {
        hook: &'a Hook,
        request: super::http::Request,
    },
    /// Not run, and why (`select` said it).
    NotRun(String),
}

/// How `hook` runs for `event`; `not_run` is why `select` holds it back.
pub(super) fn job_of<'a>(
    hook: &'a Hook,
    not_run: Option<&str>,
    event: &'a Event,
    ctx: &'a Context,
    config: &'a Config,
) -> Job<'a> {
    if let Some(why) = not_run {
        return Job::NotRun(why.to_owned());
    }
    match &hook.action {
        Action::Command { .. } => Job::Process {
            hook,
            spec: spec_of(hook, event, ctx, stdin_for(hook, event)),
        },
        Action::Builtin(b) => Job::InProcess(Box::new(move || {
            let guard_ctx = config.guard_context(Path::new(&ctx.project_dir));
            run_builtin(b, &hook.display_name(), event, &guard_ctx)
        })),
        Action::Http {
            url,
            headers,
            allowed_env_vars,
        } => Job::Http {
            hook,
            request: super::http::Request {
                url: url.clone(),
                headers: super::http::expand_headers(
                    headers,
                    &config.http_policy.env_vars(hook, allowed_env_vars),
                    &|name| std::env::var(name).ok(),
                ),
                body: stdin_for(hook, event),
                timeout: crate::launch::timeout_of(hook, event)
                    .min(ctx.timeout_cap.unwrap_or(std::time::Duration::MAX)),
                cap: config.limits.max_output_bytes,
                refused: (!config.http_policy.allows_url(hook, url)).then(|| {
                    format!(
                        "HTTP hook blocked: {url} does not match any pattern in allowedHttpHookUrls"
                    )
                }),
            },
        },
        // `select` never selects these: it skips them, and the event is
        // not fully evaluated (`Plan::unevaluated`).
        Action::Unsupported { kind } => Job::NotRun(format!("hookrun cannot run {kind}s")),
    }
}

/// Runs an event's jobs at once: every process through `exec`, the
/// in-process work while they run. Each job's run and answer come back in
/// the order given.
///
/// # Errors
/// Only hookrun's own failures: the runtime cannot start, or hookrun was
/// interrupted (every running hook is then killed).
pub(super) fn run_jobs(
    jobs: Vec<Job<'_>>,
    event: &Event,
    ctx: &Context,
    config: &Config,
) -> Result<Vec<(HookRun, Answer)>, Error> {
    /// What is left to do for a job once the processes ran.
    enum Then<'a> {
        Read(&'a Hook),
        TakeInProcess,
        Http(
            &'a Hook,
            Result<std::thread::JoinHandle<super::http::Done>, String>,
        ),
        NotRun(String),
    }
    let mut specs = Vec::with_capacity(jobs.len());
    let mut in_process = Vec::new();
    let mut then = Vec::with_capacity(jobs.len());
    for job in jobs {
        match job {
            Job::Process { hook, spec } => {
                specs.push(spec);
                then.push(Then::Read(hook));
            }
            Job::InProcess(work) => {
                specs.push(None);
                in_process.push(work);
                then.push(Then::TakeInProcess);
            }
            Job::Http { hook, request } => {
                specs.push(None);
                then.push(Then::Http(hook, super::http::start(request)));
            }
            Job::NotRun(why) => {
                specs.push(None);
                then.push(Then::NotRun(why));
            }
        }
    }
    let meanwhile = || -> Vec<(HookRun, Answer)> { in_process.into_iter().map(|w| w()).collect() };
    let (runs, done) = run_specs(&specs, config, meanwhile)?;
    let mut done = done.into_iter();
    Ok(runs
        .into_iter()
        .zip(then)
        .map(|(run, then)| match then {
            Then::Read(hook) => {
                let answer = read_answer(hook, event, &run, ctx);
                (run, answer)
            }
            Then::TakeInProcess => done
                .next()
                .unwrap_or_else(|| (run, not_run_answer("its in-process run was lost"))),
            Then::Http(hook, started) => http_answer(hook, event, ctx, started),
            Then::NotRun(why) => (run, not_run_answer(&why)),
        })
        .collect())
}

/// An http hook's run and answer: the response's body read as the hook's
/// JSON stdout, or its failure.
fn http_answer(
    hook: &Hook,
    event: &Event,
    ctx: &Context,
    started: Result<std::thread::JoinHandle<super::http::Done>, String>,
) -> (HookRun, Answer) {
    use super::http::Outcome;
    let (outcome, took) = match started.map(std::thread::JoinHandle::join) {
        Ok(Ok(done)) => done,
        Ok(Err(_)) => (
            Outcome::Failed("the request's thread ended abnormally".into()),
            std::time::Duration::ZERO,
        ),
        Err(why) => (Outcome::Failed(why), std::time::Duration::ZERO),
    };
    let run = |status, stdout: Vec<u8>| HookRun {
        status,
        stdout: exec::Captured {
            bytes: stdout,
            dropped: 0,
        },
        stderr: exec::Captured::default(),
        leaked: false,
        duration: took,
        pid: None,
        in_process: false,
    };
    match outcome {
        Outcome::Answered(body) if is_json_object(&body) => {
            let run = run(exec::RunStatus::Exited(0), body);
            let answer = read_answer(hook, event, &run, ctx);
            (run, answer)
        }
        Outcome::Answered(_) => {
            let why = "answered with something other than a JSON object (an http hook's answer must be JSON)";
            (
                run(exec::RunStatus::Exited(0), Vec::new()),
                failed_answer(why),
            )
        }
        Outcome::TimedOut => {
            let run = run(exec::RunStatus::TimedOut, Vec::new());
            let answer = read_answer(hook, event, &run, ctx);
            (run, answer)
        }
        Outcome::Failed(why) => (
            run(exec::RunStatus::Exited(0), Vec::new()),
            failed_answer(&why),
        ),
    }
}

/// Whether a body is one JSON object (after a BOM and whitespace).
fn is_json_object(body: &[u8]) -> bool {
    let body = body.strip_prefix(b"\xef\xbb\xbf").unwrap_or(body);
    matches!(
        serde_json::from_slice::<serde_json::Value>(body),
        Ok(serde_json::Value::Object(_))
    )
}

/// The answer of a handler that gave none its rules accept: a failure,
/// which the hook's fail mode makes a notice or a block.
fn failed_answer(why: &str) -> Answer {
    let mut a = not_run_answer(why);
    a.notice = None;
    a.failure = Some(crate::answer::Failure::Handler {
        message: why.to_owned(),
    });
    a
}

/// Starts an async hook, never waited for: its pid, or why it could not
/// start; `None` for a kind with nothing to start (only a command runs
/// async).
pub(super) fn start_async(
    hook: &Hook,
    event: &Event,
    ctx: &Context,
    input: std::sync::Arc<Vec<u8>>,
) -> Option<Result<u32, String>> {
    match &hook.action {
        Action::Command { .. } => {
            spec_of(hook, event, ctx, input).map(|s| exec::spawn_async(&s, &s.input))
        }
        Action::Builtin(_) | Action::Http { .. } | Action::Unsupported { .. } => None,
    }
}

/// What runs, in `explain`'s words: the shell or exec line, the built-in,
/// or the kind hookrun does not run.
#[must_use]
pub(crate) fn describe(action: &Action) -> String {
    match action {
        Action::Command {
            command,
            args: None,
        } => format!("/bin/sh -c {command:?}"),
        Action::Command {
            command,
            args: Some(args),
        } => format!("exec {command:?} {args:?}"),
        Action::Http { url, .. } => format!("POST {url}"),
        Action::Unsupported { kind } => kind.clone(),
        Action::Builtin(b) => {
            let mode = if b.mode == crate::builtin::Mode::Warn {
                ", mode warn"
            } else {
                ""
            };
            format!("built-in `{}` (in-process{mode})", b.name)
        }
    }
}
