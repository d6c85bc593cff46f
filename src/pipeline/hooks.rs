//! Running the hooks of one event: their process specs and stdin, handing
//! them to `exec` (which owns the runtime and the signals that would end
//! hookrun), built-ins in-process, and reading each run into an answer;
//! `handler` picks which of these a hook's kind goes through.

use std::sync::Arc;
use std::time::Duration;

use super::model::Context;
use crate::answer::{self, Answer, Failure};
use crate::builtin::Builtin;
use crate::config::{Config, Hook};
use crate::error::Error;
use crate::event::Event;
use crate::exec::{self, ExecLimits, ExecSpec, HookRun, RunStatus};
use crate::launch::{hook_cwd, spec_for, timeout_of};
use hookrun_guards::Verdict;

/// The spec of a command hook, with its stdin and the context's cap.
pub(super) fn spec_of(
    hook: &Hook,
    event: &Event,
    ctx: &Context,
    input: Arc<Vec<u8>>,
) -> Option<ExecSpec> {
    let cwd = hook_cwd(event);
    spec_for(hook, event, &cwd, &ctx.project_dir, ctx.depth).map(|mut s| {
        if let Some(cap) = ctx.timeout_cap {
            s.timeout = s.timeout.min(cap);
        }
        s.input = input;
        s
    })
}

/// What a hook reads on stdin: the caller's bytes when it speaks the
/// caller's dialect, else the event as its own dialect wants it.
pub(super) fn stdin_for(hook: &Hook, event: &Event) -> Arc<Vec<u8>> {
    let wanted = hook.input.unwrap_or(event.dialect);
    let protocol = crate::dialect::protocol(wanted);
    if wanted == event.dialect
        && !event.dialect.is_claude_like()
        && protocol.hooks_read_caller_bytes()
    {
        return Arc::clone(&event.raw);
    }
    protocol
        .payload(event)
        .map_or_else(|| Arc::clone(&event.bytes), Arc::new)
}

/// Reads a run by the rules of the dialect the hook speaks.
pub(super) fn read_answer(hook: &Hook, event: &Event, run: &HookRun, ctx: &Context) -> Answer {
    let timeout = timeout_of(hook, event).min(ctx.timeout_cap.unwrap_or(Duration::MAX));
    let reading = crate::dialect::Reading {
        timeout_secs: timeout.as_secs_f64(),
        fail_mode_explicit: hook.fail_mode_explicit,
    };
    let mut a = crate::dialect::protocol(hook.input.unwrap_or(event.dialect)).classify(
        &event.name,
        &hook.label(),
        run,
        &reading,
    );
    if hook.fail_mode == crate::config::FailMode::Closed && a.failure.is_none() {
        // The dialect's reading may have made an answer of a failure (see
        // `failure_of_run`); failing closed means it blocks all the same.
        a.failure = crate::answer::failure_of_run(run);
    }
    if let Some(Failure::TimedOut { seconds }) = &mut a.failure {
        *seconds = timeout.as_secs_f64();
    }
    a
}

/// A hook's answer as the merge may take it: an untrusted project hook's
/// cut down to what adds a guard (`pipeline::restrict`), with the notice that
/// says what was dropped.
pub(super) fn guard_only(hook: &Hook, mut a: Answer, event: &str) -> (Answer, Option<String>) {
    if !hook.origin.untrusted {
        return (a, None);
    }
    let dropped = super::restrict::restrict(&mut a, event);
    let file = hook.origin.file.display();
    let notice = (!dropped.is_empty()).then(|| {
        format!(
            "hook `{}` of untrusted project config {file}: {} ignored, as it may only add guards (review it, then `hookrun trust {file}`)",
            hook.display_name(),
            dropped.join(", "),
        )
    });
    (a, notice)
}

/// Runs the specs' commands at once through `exec` (which owns the runtime
/// and the signals that would end hookrun), with `meanwhile` done while
/// they run; a hook without a spec gets a placeholder run.
pub(super) fn run_specs<T>(
    specs: &[Option<ExecSpec>],
    config: &Config,
    meanwhile: impl FnOnce() -> T,
) -> Result<(Vec<HookRun>, T), Error> {
    let to_run: Vec<ExecSpec> = specs.iter().flatten().cloned().collect();
    let limits = ExecLimits {
        max_output_bytes: config.limits.max_output_bytes,
        leak_grace: config.limits.leak_grace,
    };
    let (results, extra) = exec::run_blocking_with(to_run, limits, meanwhile)?;
    let mut results = results.into_iter();
    let runs = specs
        .iter()
        .map(|spec| match spec {
            Some(_) => results.next().unwrap_or_else(placeholder_run),
            None => placeholder_run(),
        })
        .collect();
    Ok((runs, extra))
}

/// Runs a built-in in-process. Its answer is written as the JSON a command
/// hook would print and read by the same classifier, so a built-in merges
/// exactly like the equivalent script.
pub(super) fn run_builtin(
    b: &Builtin,
    label: &str,
    event: &Event,
    ctx: &hookrun_guards::Context<'_>,
) -> (HookRun, Answer) {
    let started = std::time::Instant::now();
    let verdict = b.evaluate(event, ctx);
    let json = answer::verdict::verdict_json(
        b,
        label,
        &event.name,
        event.str_field("tool_name"),
        &verdict,
    );
    let stdout = json
        .map(|j| serde_json::Value::Object(j).to_string())
        .unwrap_or_default();
    let run = HookRun {
        status: RunStatus::Exited(0),
        stdout: exec::Captured {
            bytes: stdout.into_bytes(),
            dropped: 0,
        },
        stderr: exec::Captured::default(),
        leaked: false,
        duration: started.elapsed(),
        started,
        pid: None,
        in_process: true,
    };
    let mut a = answer::classify(&event.name, label, &run);
    if let Verdict::Failed(message) = verdict {
        a.outcome = answer::Outcome::NonBlockingError;
        a.notice = Some(message.clone());
        a.failure = Some(Failure::Builtin { message });
    }
    (run, a)
}

pub(super) fn placeholder_run() -> HookRun {
    HookRun {
        status: RunStatus::SpawnFailed("not run".into()),
        stdout: exec::Captured::default(),
        stderr: exec::Captured::default(),
        leaked: false,
        duration: Duration::ZERO,
        started: std::time::Instant::now(),
        pid: None,
        in_process: false,
    }
}

pub(super) fn not_run_answer(why: &str) -> Answer {
    let mut a = answer::classify("", "", &placeholder_run());
    a.notice = Some(format!("Failed to run: {why}"));
    a.failure = Some(Failure::NotRun {
        message: why.to_owned(),
    });
    a
}

/// Notices about how a hook ran that do not change its answer.
pub(super) fn run_notices(hook: &Hook, run: &HookRun, config: &Config) -> Vec<String> {
    let mut notices = Vec::new();
    let name = hook.display_name();
    if run.leaked {
        notices.push(format!(
            "hook `{name}` exited but a background process kept its output open; its process group was killed after {}, and the output read until then was used",
            crate::wording::fmt_secs(config.limits.leak_grace.as_secs_f64())
        ));
    }
    for (stream, captured) in [("stdout", &run.stdout), ("stderr", &run.stderr)] {
        if captured.dropped > 0 {
            notices.push(format!(
                "hook `{name}` wrote {} bytes to {stream}; only the first {} were kept",
                captured.bytes.len() as u64 + captured.dropped,
                captured.bytes.len()
            ));
        }
    }
    notices
}
