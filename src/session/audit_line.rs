//! The audit line of one event, the one builder of it: what the audit trail
//! (`crate::audit`) appends for an evaluated event, and for one that ended
//! before the hooks' decision, built here so that the trail itself knows
//! nothing of the pipeline.

use serde_json::{Map, Value};

use crate::config::Config;
use crate::error::Error;
use crate::event::Event;
use crate::output;
use crate::pipeline::Evaluation;

/// What every line starts with: when, and the event's name where known.
fn line(event: Option<&str>) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("time".into(), crate::clock::now_rfc3339().into());
    if let Some(name) = event {
        m.insert("event".into(), name.into());
    }
    m
}

/// The audit record of one evaluated event: time, event, tool, session,
/// the per-hook outcome, the merged decision and the total duration, with
/// secrets redacted.
pub(super) fn of_evaluation(
    eval: &Evaluation,
    config: &Config,
    event: &Event,
    took: std::time::Duration,
) -> Map<String, Value> {
    let report = eval.report(config, event);
    let hooks: Vec<Value> = report["hooks"]
        .as_array()
        .map(|rows| rows.iter().map(hook_entry).collect())
        .unwrap_or_default();
    let mut m = line(Some(&event.name));
    m.insert(
        "tool".into(),
        event
            .fields
            .get("tool_name")
            .cloned()
            .unwrap_or(Value::Null),
    );
    m.insert(
        "session_id".into(),
        event
            .fields
            .get("session_id")
            .cloned()
            .unwrap_or(Value::Null),
    );
    m.insert("hooks".into(), Value::Array(hooks));
    m.insert(
        "decision".into(),
        serde_json::to_value(&eval.decision).unwrap_or(Value::Null),
    );
    m.insert("exit_code".into(), eval.rendered.exit_code.into());
    m.insert(
        "duration_ms".into(),
        ((took.as_secs_f64() * 1e6).round() / 1e3).into(),
    );
    let mut v = Value::Object(m);
    hookrun_guards::Redactor::default_set().value(&mut v);
    match v {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

/// One hook's entry in the line, from its row of the per-hook report.
fn hook_entry(r: &Value) -> Value {
    let answer = &r["answer"];
    serde_json::json!({
        "index": r["index"], "name": r["name"].as_str().unwrap_or_else(|| r["command"].as_str().unwrap_or("")),
        "matched": r["matched"], "skipped": r["skipped"], "ran": r["ran"],
        "in_process": r["run"]["in_process"], "exit_code": r["run"]["exit_code"], "signal": r["run"]["signal"], "timed_out": r["run"]["timed_out"],
        "duration_ms": r["run"]["duration_ms"], "outcome": answer["outcome"],
        "reason": answer["blocking_error"], "failure": answer["failure"],
    })
}

/// The audit record of an event that ended before the hooks' decision (a
/// refusal, an interruption, hookrun's own failure): the error, the event
/// name when known and, for a signal, `"interrupted": "SIGTERM"` (or the
/// signal's name).
pub(super) fn of_unfinished(event: Option<&str>, e: &Error) -> Map<String, Value> {
    let mut m = line(event);
    if let Error::Interrupted { name, .. } = e {
        m.insert("interrupted".into(), (*name).into());
    }
    m.insert("error".into(), e.to_string().into());
    m
}

/// Appends the line of an unfinished event ([`of_unfinished`]) where the
/// config keeps an audit log. A line that cannot be written is said on
/// stderr: the event's own error is what its answer reports.
pub(super) fn write_unfinished(config: &Config, event: Option<&str>, e: &Error) {
    let Some(path) = &config.audit_log else {
        return;
    };
    match crate::audit::append(
        path,
        config.audit_key_file.as_deref(),
        of_unfinished(event, e),
    ) {
        Ok(None) => {}
        Ok(Some(why)) | Err(why) => output::diagnostic(&why),
    }
}
