//! What an event's telemetry carries (`telemetry::Observed`), the one
//! builder of it: from the evaluation, with secrets redacted as the
//! audit line redacts them, so that the exporter knows nothing of the
//! pipeline.

use std::time::{Instant, SystemTime};

use crate::config::Config;
use crate::error::Error;
use crate::event::Event;
use crate::exec::RunStatus;
use crate::pipeline::Evaluation;
use crate::rendered::Rendered;
use crate::telemetry::{Observed, ObservedHook};

/// An event evaluated by its hooks; `audit` builds the audit record too
/// (for the log record) when logs are exported.
pub(crate) fn of_evaluation(
    config: &Config,
    event: &Event,
    eval: &Evaluation,
    rendered: &Rendered,
    started: Instant,
    audit: bool,
) -> Observed {
    let took = started.elapsed();
    let at = |when: Instant| wall_time(when);
    let redactor = hookrun_guards::Redactor::default_set();
    let hooks = eval
        .selected
        .iter()
        .zip(&eval.runs)
        .zip(&eval.answers)
        .map(|((sel, run), answer)| {
            let hook = &config.hooks[sel.hook];
            // A built-in's exit status is only how its answer is read.
            let (exit_code, signal, timed_out) = match &run.status {
                RunStatus::Exited(_) if run.in_process => (None, None, false),
                RunStatus::Exited(code) => (Some(*code), None, false),
                RunStatus::Signaled(sig) => (None, Some(*sig), false),
                RunStatus::TimedOut => (None, None, true),
                RunStatus::SpawnFailed(_) => (None, None, false),
            };
            ObservedHook {
                name: redactor.text(&hook.display_name()).0,
                kind: hook.action.kind(),
                exit_code,
                signal,
                timed_out,
                outcome: serde_json::to_value(answer.outcome)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_default(),
                started: at(run.started),
                took: run.duration,
            }
        })
        .collect();
    let reasons = eval.decision.reasons.join("\n\n");
    Observed {
        reason: (!reasons.is_empty()).then(|| redactor.text(&reasons).0),
        decision: eval.decision.outcome(),
        hooks,
        audit: audit.then(|| super::audit_line::of_evaluation(eval, config, event, took)),
        ..common(event, rendered, started)
    }
}

/// An event answered by hookrun's own failure instead of its hooks (an
/// interruption, a runtime that could not start): `decision` is `block`
/// where the answer is hookrun's block, else `none`.
pub(crate) fn of_failure(
    event: &Event,
    e: &Error,
    rendered: &Rendered,
    started: Instant,
    audit: bool,
) -> Observed {
    Observed {
        decision: if e.blocks() { "block" } else { "none" },
        error: Some(format!("{:?}", e.kind()).to_lowercase()),
        reason: Some(
            hookrun_guards::Redactor::default_set()
                .text(&e.to_string())
                .0,
        ),
        audit: audit.then(|| super::audit_line::of_unfinished(Some(&event.name), e)),
        ..common(event, rendered, started)
    }
}

fn common(event: &Event, rendered: &Rendered, started: Instant) -> Observed {
    let redactor = hookrun_guards::Redactor::default_set();
    let text = |key: &str| {
        event
            .fields
            .get(key)
            .and_then(serde_json::Value::as_str)
            .map(|s| redactor.text(s).0)
    };
    Observed {
        event: event.name.clone(),
        dialect: event.dialect.as_str(),
        tool: text("tool_name"),
        session: text("session_id"),
        exit_code: i32::from(rendered.exit_code),
        started: Some(wall_time(started)),
        took: started.elapsed(),
        ..Observed::default()
    }
}

/// The wall-clock time of an instant of this process.
fn wall_time(when: Instant) -> SystemTime {
    let now = SystemTime::now();
    let ago = when.elapsed();
    now.checked_sub(ago).unwrap_or(now)
}
