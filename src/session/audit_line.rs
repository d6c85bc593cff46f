//! The audit line of one evaluated event: what the audit trail
//! (`crate::audit`) appends, built from the evaluation so that the trail
//! itself knows nothing of the pipeline.

use serde_json::{Map, Value};

use crate::config::Config;
use crate::event::Event;
use crate::pipeline::Evaluation;

impl Evaluation {
    /// The audit record of one event: time, event, tool, session, the
    /// per-hook outcome, the merged decision and the total duration, with
    /// secrets redacted.
    #[must_use]
    pub fn audit_record(
        &self,
        config: &Config,
        event: &Event,
        took: std::time::Duration,
    ) -> Map<String, Value> {
        let report = self.report(config, event);
        let hooks: Vec<Value> = report["hooks"]
            .as_array()
            .map(|rows| {
                rows.iter()
                    .map(|r| {
                        let answer = &r["answer"];
                        serde_json::json!({
                            "index": r["index"], "name": r["name"].as_str().unwrap_or_else(|| r["command"].as_str().unwrap_or("")),
                            "matched": r["matched"], "skipped": r["skipped"], "ran": r["ran"],
                            "in_process": r["run"]["in_process"], "exit_code": r["run"]["exit_code"], "signal": r["run"]["signal"], "timed_out": r["run"]["timed_out"],
                            "duration_ms": r["run"]["duration_ms"], "outcome": answer["outcome"],
                            "reason": answer["blocking_error"], "failure": answer["failure"],
                        })
                    })
                    .collect()
            })
            .unwrap_or_default();
        let mut m = Map::new();
        m.insert("time".into(), crate::clock::now_rfc3339().into());
        m.insert("event".into(), event.name.clone().into());
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
            serde_json::to_value(&self.decision).unwrap_or(Value::Null),
        );
        m.insert("exit_code".into(), self.rendered.exit_code.into());
        m.insert(
            "duration_ms".into(),
            ((took.as_secs_f64() * 1e6).round() / 1e3).into(),
        );
        let mut v = Value::Object(m);
        crate::builtin::redact::Redactor::default_set().value(&mut v);
        match v {
            Value::Object(m) => m,
            _ => Map::new(),
        }
    }
}
