//! The per-hook report of one event (`run --report`): every configured hook
//! for the event, matched or skipped and why, deduplicated, how it ran and
//! what it answered, and the merged decision. Pure: built from data the
//! pipeline already has.

use serde_json::{Value, json};

use crate::answer::Answer;
use crate::config::{Action, Config};
use crate::decision::Decision;
use crate::exec::{HookRun, RunStatus};
use crate::select::Plan;

/// What happened to one selected hook.
#[derive(Debug, Clone)]
pub(crate) struct Ran<'a> {
    /// Index into `Config::hooks` of the first copy (the report row).
    pub position: usize,
    /// Index of the hook whose settings were used.
    pub hook: usize,
    pub run: Option<&'a HookRun>,
    pub answer: Option<&'a Answer>,
    pub is_async: bool,
    pub async_pid: Option<u32>,
}

/// Builds the report.
#[must_use]
pub(crate) fn build(
    config: &Config,
    event: &str,
    plan: &Plan,
    ran: &[Ran<'_>],
    decision: &Decision,
    notices: &[String],
    exit_code: u8,
) -> Value {
    let hooks: Vec<Value> = plan
        .considered
        .iter()
        .map(|c| {
            let hook = &config.hooks[c.hook];
            let mut row = json!({
                "index": c.hook,
                "name": hook.name,
                "file": hook.origin.file.display().to_string(),
                "key": hook.origin.key,
                "command": hook.label(),
                "exec_form": matches!(hook.action, Action::Command { args: Some(_), .. }),
                "matched": c.matched,
                "match_path": serde_json::to_value(c).ok().and_then(|v| v.get("match_path").cloned()),
                "skipped": c.skip,
                "fail_mode": hook.fail_mode,
                "async": hook.is_async,
                "timeout_seconds": hook.timeout.map(|t| t.as_secs_f64()),
            });
            if let Some(r) = ran.iter().find(|r| r.position == c.hook) {
                row["ran"] = Value::Bool(true);
                row["settings_from"] = json!(r.hook);
                if r.is_async {
                    row["async_pid"] = json!(r.async_pid);
                }
                if let Some(run) = r.run {
                    row["run"] = run_facts(run);
                }
                if let Some(a) = r.answer {
                    row["answer"] = serde_json::to_value(a).unwrap_or(Value::Null);
                }
            } else {
                row["ran"] = Value::Bool(false);
            }
            row
        })
        .collect();
    json!({
        "event": event,
        "query": plan.query,
        "config_files": config.files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>(),
        "untrusted_config_files": config.untrusted_files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>(),
        "hooks": hooks,
        "decision": decision,
        "notices": notices,
        "exit_code": exit_code,
    })
}

/// How a hook ran. A built-in ran in-process: no pid, no exit status.
fn run_facts(run: &HookRun) -> Value {
    let in_process = run.in_process;
    let (exit_code, signal, timed_out, spawn_error) = match &run.status {
        _ if in_process => (None, None, false, None),
        RunStatus::Exited(c) => (Some(*c), None, false, None),
        RunStatus::Signaled(s) => (None, Some(crate::os::signal_name(*s)), false, None),
        RunStatus::TimedOut => (None, None, true, None),
        RunStatus::SpawnFailed(m) => (None, None, false, Some(m.clone())),
    };
    json!({
        "in_process": in_process,
        "pid": run.pid,
        "exit_code": exit_code,
        "signal": signal,
        "timed_out": timed_out,
        "spawn_error": spawn_error,
        "duration_ms": (run.duration.as_secs_f64() * 1000.0 * 1000.0).round() / 1000.0,
        "leaked": run.leaked,
        "stdout_bytes": run.stdout.bytes.len(),
        "stdout_truncated_bytes": run.stdout.dropped,
        "stderr_bytes": run.stderr.bytes.len(),
        "stderr_truncated_bytes": run.stderr.dropped,
    })
}
