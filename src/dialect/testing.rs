//! What the dialects' unit tests share. Each dialect is tested through the
//! `Protocol` trait, the seam the pipeline uses, so the tables keep holding
//! when the code behind the trait moves. Runs are built from their exit
//! status and output (no process is spawned), events are read the way
//! hookrun reads the caller's stdin, and answers and renderings are turned
//! into values that compare whole: a table row names every field it
//! expects, and a field nobody expected fails the row.

use serde_json::{Map, Value};

use super::protocol::{Protocol, Reading};
use crate::agent::Dialect;
use crate::answer::Answer;
use crate::decision::{Decision, Permission};
use crate::event::Event;
use crate::events::Family;
use crate::exec::{Captured, HookRun, RunStatus};

/// The label hooks get in these tests: Claude Code quotes it in exit-2
/// block texts (`[cmd]: …`).
pub(crate) const LABEL: &str = "cmd";

/// A hook without an explicit `fail_mode`, with a 10 s timeout: the agent's
/// own failure rules apply.
pub(crate) const READING: Reading = Reading {
    timeout_secs: 10.0,
    fail_mode_explicit: false,
};

/// A run that ended with `status` after printing `stdout` and `stderr`.
pub(crate) fn finished(status: RunStatus, stdout: &str, stderr: &str) -> HookRun {
    HookRun {
        status,
        stdout: Captured {
            bytes: stdout.as_bytes().to_vec(),
            dropped: 0,
        },
        stderr: Captured {
            bytes: stderr.as_bytes().to_vec(),
            dropped: 0,
        },
        leaked: false,
        duration: std::time::Duration::from_millis(5),
        started: std::time::Instant::now(),
        pid: None,
        in_process: false,
    }
}

/// A run that exited with `code`.
pub(crate) fn exited(code: i32, stdout: &str, stderr: &str) -> HookRun {
    finished(RunStatus::Exited(code), stdout, stderr)
}

/// An answer as one value: the serialised answer (outcome, blocking error,
/// JSON, plain stdout, notice, failure) plus the exit status the merge reads.
/// The output it carries is left to [`carried`], so that rows stay short.
pub(crate) fn view(a: &Answer) -> Value {
    let mut v = serde_json::to_value(a).expect("an answer serialises");
    v["status"] = a.status.into();
    v
}

/// The stdout and stderr an answer carries forward: the outside-REPL events
/// (PreCompact, ConfigChange, ...) read them instead of the JSON.
pub(crate) fn carried(a: &Answer) -> (&str, &str) {
    (&a.raw_stdout, &a.stderr)
}

/// `p`'s reading of `run` on `event` (hookrun's name), with [`READING`].
pub(crate) fn classify(p: &dyn Protocol, event: &str, run: &HookRun) -> Value {
    view(&p.classify(event, LABEL, run, &READING))
}

/// The caller's event as hookrun reads it from stdin, with the dialect
/// forced (as `--dialect` does), so a row tests one dialect's mapping even
/// where detection would pick another.
pub(crate) fn event(dialect: Dialect, json: &Value) -> Event {
    super::read_event_as(json.to_string().into_bytes(), None, Some(dialect))
        .expect("a test event is a valid event")
}

/// An event object, for `detects` and `normalize`.
pub(crate) fn object(json: &Value) -> Map<String, Value> {
    json.as_object()
        .cloned()
        .expect("a test event is an object")
}

/// What `p` prints for `d` on `event`, with the event's family taken as the
/// pipeline takes it: stdout (as JSON when it is JSON, else as a string),
/// the stderr lines and the exit code.
pub(crate) fn render(
    p: &dyn Protocol,
    event: &Event,
    d: &Decision,
    notices: &[&str],
) -> (Value, Vec<String>, u8) {
    let family = event.info.map_or(Family::Generic, |i| i.family);
    let notices: Vec<String> = notices.iter().map(|n| (*n).to_owned()).collect();
    let r = p.render(event, family, d, &notices);
    let stdout = serde_json::from_str(&r.stdout).unwrap_or(Value::String(r.stdout));
    (stdout, r.stderr, r.exit_code)
}

/// A merged permission on a tool event, as the merge leaves it: `deny`
/// also blocks.
pub(crate) fn permission(p: Permission, reason: &str) -> Decision {
    Decision {
        permission: Some(p),
        blocked: p == Permission::Deny,
        reasons: if reason.is_empty() {
            Vec::new()
        } else {
            vec![reason.to_owned()]
        },
        ..Decision::default()
    }
}

/// A merged block on an event without permissions (prompt, stop, post-tool).
pub(crate) fn block(reason: &str) -> Decision {
    Decision {
        blocked: true,
        reasons: vec![reason.to_owned()],
        ..Decision::default()
    }
}

/// A tool input rewritten to `input` (an object), with `p` when given.
pub(crate) fn rewrite(p: Option<Permission>, input: &Value) -> Decision {
    Decision {
        permission: p,
        updated_input: input.as_object().cloned(),
        ..Decision::default()
    }
}

/// Contexts for the agent, nothing else.
pub(crate) fn context(text: &str) -> Decision {
    Decision {
        contexts: vec![text.to_owned()],
        ..Decision::default()
    }
}

/// `continue: false`, with a stop reason.
pub(crate) fn stop(reason: &str) -> Decision {
    Decision {
        prevent_continuation: true,
        stop_reasons: vec![reason.to_owned()],
        ..Decision::default()
    }
}

/// Checks detection rows `(what the row checks, event, whether `p` itself
/// claims the event, the dialect the registry picks)`: both, because the
/// registry's order decides between dialects that claim the same event.
pub(crate) fn check_detects(p: &dyn Protocol, rows: &[(&str, Value, bool, Dialect)]) {
    for (rule, event, own, dialect) in rows {
        let obj = object(event);
        assert_eq!(p.detects(&obj), *own, "{rule}: the dialect's own test");
        assert_eq!(super::detect(&obj), *dialect, "{rule}: the registry");
    }
}

/// Checks rendering rows `(what the row checks, event, decision, stdout,
/// stderr lines, exit code)`, without notices.
pub(crate) fn check_renders<'a, S: Into<String>>(
    p: &dyn Protocol,
    rows: impl IntoIterator<Item = (&'a str, Event, Decision, Value, Vec<S>, u8)>,
) {
    for (rule, event, d, stdout, stderr, code) in rows {
        let stderr: Vec<String> = stderr.into_iter().map(Into::into).collect();
        assert_eq!(render(p, &event, &d, &[]), (stdout, stderr, code), "{rule}");
    }
}
