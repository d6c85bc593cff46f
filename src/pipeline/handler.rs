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

/// How a finished run or response is read.
#[derive(Clone, Copy)]
pub(super) enum Read {
    /// As the hook's output, by the rules of the dialect it speaks.
    Output,
    /// As a judgement's verdict: the Claude Code CLI's JSON result, or a
    /// model API's answer.
    CliVerdict,
    ApiVerdict(crate::config::Provider),
}

/// How one selected hook of an event runs.
pub(super) enum Job<'a> {
    /// A process, run by `exec` at once with the event's other processes
    /// and read as `read` says; without a spec it gets a placeholder run.
    Process {
        hook: &'a Hook,
        spec: Option<ExecSpec>,
        read: Read,
    },
    /// Work done in-process while the processes run (a built-in guard):
    /// its run and answer.
    InProcess(Box<dyn FnOnce() -> (HookRun, Answer) + 'a>),
    /// An HTTP request, made on a thread of its own while the processes
    /// run (`pipeline::http`), and read as the hook's JSON stdout.
    Http {
        hook: &'a Hook,
        request: super::http::Request,
        read: Read,
    },
    /// A tool call to an MCP server, made on the MCP client's thread
    /// (`pipeline::mcp`), its answer read as the hook's JSON stdout; or why
    /// it cannot be made (the server is not configured).
    Mcp {
        hook: &'a Hook,
        call: Result<Box<super::mcp::Call>, String>,
    },
    /// Not run, and why (`select` said it).
    NotRun(String),
    /// Cannot be evaluated on this machine (a judgement with no model to
    /// ask), and why: hookrun's own failure, which the trust rule decides.
    Unavailable(String),
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
            read: Read::Output,
        },
        Action::Prompt {
            prompt,
            model,
            provider,
            ..
        } => {
            let text = super::judge::judged_text(event, prompt);
            let route = super::judge::prompt_route(
                &text,
                model.as_deref(),
                *provider,
                &super::judge::Env::process(),
                timeout_for(hook, event, ctx),
                config.limits.max_output_bytes,
            );
            judge_job(hook, route, text, event, ctx)
        }
        Action::Agent { prompt, model } => {
            let text = super::judge::prompt_text(prompt, &String::from_utf8_lossy(&event.bytes));
            let route = super::judge::agent_route(model.as_deref(), &super::judge::Env::process());
            judge_job(hook, route, text, event, ctx)
        }
        Action::McpTool {
            server,
            tool,
            input,
        } => Job::Mcp {
            hook,
            call: mcp_call(server, tool, input, event, ctx, config).map(Box::new),
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
                timeout: timeout_for(hook, event, ctx),
                cap: config.limits.max_output_bytes,
                refused: (!config.http_policy.allows_url(hook, url)).then(|| {
                    format!(
                        "HTTP hook blocked: {url} does not match any pattern in allowedHttpHookUrls"
                    )
                }),
                public_only: true,
            },
            read: Read::Output,
        },
        // `select` never selects these: it skips them, and the event is
        // not fully evaluated (`Plan::unevaluated`).
        Action::Unsupported { kind } => Job::NotRun(format!("hookrun cannot run {kind}s")),
    }
}

/// The call an mcp_tool hook makes: its server as configured (a stdio
/// server runs in the project directory), `input` filled from the event.
fn mcp_call(
    server: &str,
    tool: &str,
    input: &serde_json::Map<String, serde_json::Value>,
    event: &Event,
    ctx: &Context,
    config: &Config,
) -> Result<super::mcp::Call, String> {
    let Some(configured) = config.mcp_servers.iter().find(|s| s.name == server) else {
        return Err(format!("MCP server '{server}' not connected"));
    };
    let transport = match &configured.transport {
        crate::config::McpTransport::Stdio { command, args, env } => super::mcp::Transport::Stdio {
            command: command.clone(),
            args: args.clone(),
            env: env.clone(),
            cwd: Some(std::path::PathBuf::from(&ctx.project_dir)).filter(|d| d.is_dir()),
        },
        crate::config::McpTransport::Http { url, headers } => super::mcp::Transport::Http {
            url: url.clone(),
            headers: headers.clone(),
        },
    };
    let event_value = serde_json::Value::Object(event.fields.clone());
    let arguments =
        match super::mcp::expand_input(&serde_json::Value::Object(input.clone()), &event_value) {
            serde_json::Value::Object(m) => m,
            _ => serde_json::Map::new(),
        };
    Ok(super::mcp::Call {
        server: super::mcp::Server {
            name: server.to_owned(),
            transport,
        },
        tool: tool.to_owned(),
        arguments,
        timeout: std::time::Duration::ZERO,
        cap: config.limits.max_output_bytes,
    })
}

/// A hook's timeout, cut to the caller's cap.
fn timeout_for(hook: &Hook, event: &Event, ctx: &Context) -> std::time::Duration {
    crate::launch::timeout_of(hook, event).min(ctx.timeout_cap.unwrap_or(std::time::Duration::MAX))
}

/// The job of a judgement: a request, the Claude Code CLI as a process
/// (the prompt on its stdin, killed as a tree on timeout like any hook),
/// or hookrun's own failure.
fn judge_job<'a>(
    hook: &'a Hook,
    route: super::judge::Route,
    text: String,
    event: &Event,
    ctx: &Context,
) -> Job<'a> {
    use super::judge::Route;
    match route {
        Route::Api { request, provider } => Job::Http {
            hook,
            request,
            read: Read::ApiVerdict(provider),
        },
        Route::Cli { program, args } => {
            let cwd = crate::launch::hook_cwd(event);
            let mut env = vec![
                (
                    crate::launch::DEPTH_VAR.to_owned(),
                    (ctx.depth + 1).to_string(),
                ),
                (
                    crate::launch::PARENT_VAR.to_owned(),
                    std::process::id().to_string(),
                ),
            ];
            env.extend(hook.env.iter().cloned());
            Job::Process {
                hook,
                spec: Some(ExecSpec {
                    program: exec::Program::Exec {
                        program: program.display().to_string(),
                        args,
                    },
                    input: std::sync::Arc::new(text.into_bytes()),
                    cwd,
                    env,
                    clear_env: false,
                    timeout: timeout_for(hook, event, ctx),
                }),
                read: Read::CliVerdict,
            }
        }
        Route::Unavailable(why) => Job::Unavailable(why),
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
        Read(&'a Hook, Read),
        TakeInProcess,
        Http(
            &'a Hook,
            Result<std::thread::JoinHandle<super::http::Done>, String>,
            Read,
        ),
        Mcp(
            &'a Hook,
            Result<std::thread::JoinHandle<super::mcp::Done>, String>,
        ),
        NotRun(String),
        Unavailable(String),
    }
    let mut specs = Vec::with_capacity(jobs.len());
    let mut in_process = Vec::new();
    let mut then = Vec::with_capacity(jobs.len());
    for job in jobs {
        match job {
            Job::Process { hook, spec, read } => {
                specs.push(spec);
                then.push(Then::Read(hook, read));
            }
            Job::InProcess(work) => {
                specs.push(None);
                in_process.push(work);
                then.push(Then::TakeInProcess);
            }
            Job::Http {
                hook,
                request,
                read,
            } => {
                specs.push(None);
                then.push(Then::Http(hook, super::http::start(request), read));
            }
            Job::Mcp { hook, call } => {
                specs.push(None);
                let started = call.and_then(|mut c| {
                    c.timeout = timeout_for(hook, event, ctx);
                    super::mcp::start(*c)
                });
                then.push(Then::Mcp(hook, started));
            }
            Job::NotRun(why) => {
                specs.push(None);
                then.push(Then::NotRun(why));
            }
            Job::Unavailable(why) => {
                specs.push(None);
                then.push(Then::Unavailable(why));
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
            Then::Read(hook, Read::CliVerdict) => {
                let answer = cli_verdict_answer(hook, event, &run, ctx);
                (run, answer)
            }
            Then::Read(hook, _) => {
                let answer = read_answer(hook, event, &run, ctx);
                (run, answer)
            }
            Then::TakeInProcess => done
                .next()
                .unwrap_or_else(|| (run, not_run_answer("its in-process run was lost"))),
            Then::Http(hook, started, read) => http_answer(hook, event, ctx, started, read),
            Then::Mcp(hook, started) => mcp_answer(hook, event, ctx, started),
            Then::NotRun(why) => (run, not_run_answer(&why)),
            Then::Unavailable(why) => {
                let mut answer = not_run_answer(&why);
                answer.notice = None;
                answer.failure = Some(crate::answer::Failure::Unavailable { message: why });
                (run, answer)
            }
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
    read: Read,
) -> (HookRun, Answer) {
    let (outcome, took) = joined(started, super::http::Outcome::Failed);
    answer_of(hook, event, ctx, outcome, took, read)
}

/// What a request's thread gave back: its outcome and how long it took,
/// or a failure (`failed`) for a thread that could not start or ended
/// abnormally.
fn joined<T>(
    started: Result<std::thread::JoinHandle<(T, std::time::Duration)>, String>,
    failed: fn(String) -> T,
) -> (T, std::time::Duration) {
    match started.map(std::thread::JoinHandle::join) {
        Ok(Ok(done)) => done,
        Ok(Err(_)) => (
            failed("the request's thread ended abnormally".into()),
            std::time::Duration::ZERO,
        ),
        Err(why) => (failed(why), std::time::Duration::ZERO),
    }
}

/// The run and answer of a request's outcome (an http hook's, a model
/// API's, an MCP call's), read as `read` says.
fn answer_of(
    hook: &Hook,
    event: &Event,
    ctx: &Context,
    outcome: super::http::Outcome,
    took: std::time::Duration,
    read: Read,
) -> (HookRun, Answer) {
    use super::http::Outcome;
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
    match (outcome, read) {
        (Outcome::Answered(body), Read::ApiVerdict(provider)) => {
            let verdict = super::judge::read_api_answer(provider, &body);
            let run = run(exec::RunStatus::Exited(0), Vec::new());
            let answer = verdict_answer(hook, event, &run, verdict);
            (run, answer)
        }
        (Outcome::Answered(body), _) if is_json_object(&body) => {
            let run = run(exec::RunStatus::Exited(0), body);
            let answer = read_answer(hook, event, &run, ctx);
            (run, answer)
        }
        (Outcome::Answered(_), _) => {
            let why = "answered with something other than a JSON object (an http hook's answer must be JSON)";
            (
                run(exec::RunStatus::Exited(0), Vec::new()),
                failed_answer(why),
            )
        }
        (Outcome::TimedOut, _) => {
            let run = run(exec::RunStatus::TimedOut, Vec::new());
            let answer = read_answer(hook, event, &run, ctx);
            (run, answer)
        }
        (Outcome::Failed(why), _) => (
            run(exec::RunStatus::Exited(0), Vec::new()),
            failed_answer(&why),
        ),
    }
}

/// An mcp_tool hook's run and answer: a JSON answer read as the hook's
/// JSON stdout; plain text has no effect (but fails a closed hook, which
/// needs a verdict, as Claude Code's `onFailure: "block"`); the rest is
/// the hook's failure.
fn mcp_answer(
    hook: &Hook,
    event: &Event,
    ctx: &Context,
    started: Result<std::thread::JoinHandle<super::mcp::Done>, String>,
) -> (HookRun, Answer) {
    use super::http::Outcome as Http;
    use super::mcp::Outcome;
    let (outcome, took) = joined(started, Outcome::Failed);
    let closed = hook.fail_mode == crate::config::FailMode::Closed;
    let as_http = match outcome {
        Outcome::Answered(body) => Http::Answered(body),
        Outcome::Dropped if closed => Http::Failed(
            "the MCP tool's answer is not a hook's JSON output, {} or empty".to_owned(),
        ),
        Outcome::Dropped => Http::Answered(b"{}".to_vec()),
        Outcome::TimedOut => Http::TimedOut,
        Outcome::Failed(why) => Http::Failed(why),
    };
    answer_of(hook, event, ctx, as_http, took, Read::Output)
}

/// A judgement run through the Claude Code CLI: its verdict, or its
/// failure (a timeout as any hook's).
fn cli_verdict_answer(hook: &Hook, event: &Event, run: &HookRun, ctx: &Context) -> Answer {
    if !matches!(run.status, exec::RunStatus::Exited(_)) {
        return read_answer(hook, event, run, ctx);
    }
    let verdict = super::judge::read_cli_answer(&run.stdout.bytes).map_err(|why| {
        let stderr = String::from_utf8_lossy(&run.stderr.bytes);
        let stderr = stderr.trim();
        if stderr.is_empty() {
            why
        } else {
            format!("{why} ({})", stderr.chars().take(300).collect::<String>())
        }
    });
    verdict_answer(hook, event, run, verdict)
}

/// A verdict's answer: `ok: false` blocks as Claude Code blocks for the
/// kind (a prompt's `[<prompt>]: <reason>`, ending the turn unless on Stop
/// or with `continue_on_block`; an agent's "Agent hook condition was not
/// met: <reason>"); no verdict is the hook's failure.
fn verdict_answer(
    hook: &Hook,
    event: &Event,
    run: &HookRun,
    verdict: Result<super::judge::Verdict, String>,
) -> Answer {
    let verdict = match verdict {
        Ok(v) => v,
        Err(why) => return failed_answer(&why),
    };
    let label = hook.label();
    let json = if verdict.ok {
        None
    } else {
        let reason = verdict.reason.unwrap_or_default();
        let (text, end_turn) = match &hook.action {
            Action::Prompt {
                continue_on_block, ..
            } => (
                format!("[{label}]: {reason}"),
                !continue_on_block && !matches!(event.name.as_str(), "Stop" | "SubagentStop"),
            ),
            _ => (format!("Agent hook condition was not met: {reason}"), false),
        };
        Some(crate::answer::verdict::judged_json(
            &event.name,
            &text,
            end_turn.then_some(reason.as_str()),
        ))
    };
    let judged = HookRun {
        stdout: exec::Captured {
            bytes: json.map(|j| j.to_string().into_bytes()).unwrap_or_default(),
            dropped: 0,
        },
        stderr: exec::Captured::default(),
        status: exec::RunStatus::Exited(0),
        ..run.clone()
    };
    crate::answer::classify(&event.name, &label, &judged)
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
        Action::Builtin(_)
        | Action::Http { .. }
        | Action::Prompt { .. }
        | Action::Agent { .. }
        | Action::McpTool { .. }
        | Action::Unsupported { .. } => None,
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
        Action::Prompt {
            prompt,
            model,
            provider,
            ..
        } => format!(
            "prompt {prompt:?} judged by a model ({}{})",
            provider.name(),
            model
                .as_deref()
                .map(|m| format!(", {m}"))
                .unwrap_or_default()
        ),
        Action::Agent { prompt, .. } => {
            format!("agent {prompt:?} judged through the Claude Code CLI")
        }
        Action::McpTool { server, tool, .. } => format!("MCP tool `{tool}` of server `{server}`"),
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
