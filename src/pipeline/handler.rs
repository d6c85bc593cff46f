//! What runs a hook: the one place where a hook's kind (`config::Action`)
//! turns into how it runs (a process `exec` runs, a built-in guard
//! evaluated in-process, a request on a thread of its own, or hookrun's
//! own failure) and then, with `replies` reading what a request answered,
//! into the run and answer that the merge, the report, the audit line and
//! `explain` read. Nothing past this file asks which kind a hook is to run
//! it.
//!
//! Adding a kind of handler is a variant of `config::Action` (its label
//! and dedup key beside it), its runner in a file of `pipeline`, and one arm
//! in [`job_of`] (and [`describe`]); ARCHITECTURE.md says how.

use std::path::Path;

use super::hooks::{not_run_answer, read_answer, run_builtin, run_specs};
use super::hooks::{spec_of, stdin_for};
use super::model::Context;
use super::replies::{Read, cli_verdict_answer, failure_answer, http_answer, mcp_answer};
use crate::answer::Answer;
use crate::config::{Action, Config, Hook};
use crate::error::Error;
use crate::event::Event;
use crate::exec::{self, ExecSpec, HookRun};

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
            call: mcp_call(hook, server, tool, input, event, ctx, config).map(Box::new),
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
    hook: &Hook,
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
        timeout: timeout_for(hook, event, ctx),
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
            let mut env = crate::launch::nesting_env(ctx.depth).to_vec();
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
                then.push(Then::Mcp(hook, call.and_then(|c| super::mcp::start(*c))));
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
            Then::Unavailable(why) => (
                run,
                failure_answer(crate::answer::Failure::Unavailable { message: why }),
            ),
        })
        .collect())
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
