//! What a handler that is not a process answered, read into the run and
//! answer the merge takes: an http hook's response (a command's JSON
//! stdout, or its failure), a model's verdict (from its API or the Claude
//! Code CLI's result, as the answer JSON a command would print for it),
//! and an MCP tool's result. `handler` says how each kind runs; this file
//! says what came back means.

use super::hooks::{not_run_answer, read_answer};
use super::model::Context;
use crate::answer::Answer;
use crate::config::{Action, Hook};
use crate::event::Event;
use crate::exec::{self, HookRun};

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

/// An http hook's run and answer: the response's body read as the hook's
/// JSON stdout, or its failure.
pub(super) fn http_answer(
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
        started: std::time::Instant::now()
            .checked_sub(took)
            .unwrap_or_else(std::time::Instant::now),
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
pub(super) fn mcp_answer(
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
pub(super) fn cli_verdict_answer(
    hook: &Hook,
    event: &Event,
    run: &HookRun,
    ctx: &Context,
) -> Answer {
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
    failure_answer(crate::answer::Failure::Handler {
        message: why.to_owned(),
    })
}

/// An answer that is only `failure`, said by the merge (its notice or
/// block), not by a notice of its own.
pub(super) fn failure_answer(failure: crate::answer::Failure) -> Answer {
    let mut a = not_run_answer("");
    a.notice = None;
    a.failure = Some(failure);
    a
}
