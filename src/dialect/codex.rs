//! OpenAI Codex CLI (landscape section 2): Claude Code's events and wire
//! format, with strict output schemas. On PreToolUse Codex rejects (and so
//! ignores) `ask`, `continue`, `stopReason` and `suppressOutput`, applies
//! `updatedInput` only with `allow`, and blocks on exit 2 only with a
//! non-empty stderr. hookrun renders within those limits and says what it
//! had to leave out.

use serde_json::Value;

use super::protocol::Reading;
use crate::answer::Answer;
use crate::decision::{Decision, Permission};
use crate::event::Event;
use crate::events::Family;
use crate::exec::HookRun;
use crate::rendered::Rendered;

/// Codex's reading of one hook: as Claude Code's, except that an exit 2
/// with an empty stderr does not block ("exited with code 2 but did not
/// write a blocking reason"): the hook failed.
#[must_use]
pub fn classify(event: &str, label: &str, run: &crate::exec::HookRun) -> crate::answer::Answer {
    if run.status == crate::exec::RunStatus::Exited(2)
        && String::from_utf8_lossy(&run.stderr.bytes).trim().is_empty()
    {
        let mut failed = run.clone();
        failed.status = crate::exec::RunStatus::Exited(1);
        let mut a = crate::answer::classify(event, label, &failed);
        a.notice = Some("exited with code 2 but did not write a blocking reason".into());
        return a;
    }
    crate::answer::classify(event, label, run)
}

#[must_use]
pub fn render(
    event: &crate::event::Event,
    family: Family,
    d: &Decision,
    notices: &[String],
) -> Rendered {
    let mut d = d.clone();
    let mut notes: Vec<String> = notices.to_vec();
    if family == Family::PreTool {
        if matches!(d.permission, Some(Permission::Ask | Permission::Defer)) {
            notes.push(format!("Codex does not accept `{}` from a PreToolUse hook; left to Codex's own permission flow", d.permission.map_or("", Permission::as_str)));
            d.permission = None;
            d.reasons.clear();
        }
        if d.updated_input.is_some() && d.permission != Some(Permission::Allow) {
            notes.push(
                "Codex applies a rewritten tool input only with `allow`; the rewrite was left out"
                    .into(),
            );
            d.updated_input = None;
        }
        if d.prevent_continuation {
            notes.push(
                "Codex does not accept `continue: false` from a PreToolUse hook; left out".into(),
            );
            d.prevent_continuation = false;
            d.stop_reasons.clear();
        }
    }
    let mut r = crate::dialect::claude::render(&event.name, family, &d, &notes);
    if r.exit_code == 2 && r.stderr.first().is_none_or(|l| l.trim().is_empty()) {
        r.stderr.insert(0, "blocked by hook".into());
    }
    if let Ok(Value::Object(mut o)) = serde_json::from_str::<Value>(&r.stdout) {
        o.remove("suppressOutput");
        r.stdout = Value::Object(o).to_string();
    }
    r
}

/// Codex CLI: recognised only with `--dialect codex` (its events are Claude Code's).
pub struct Codex;

impl super::protocol::Protocol for Codex {
    fn id(&self) -> super::id::Dialect {
        super::id::Dialect::Codex
    }

    fn hooks_file_writer(&self) -> Option<super::protocol::HooksFileWriter> {
        Some(crate::convert::toml_to_claude)
    }

    fn classify(&self, event: &str, label: &str, run: &HookRun, _: &Reading) -> Answer {
        classify(event, label, run)
    }

    fn render(&self, event: &Event, family: Family, d: &Decision, notices: &[String]) -> Rendered {
        render(event, family, d, notices)
    }
}

#[cfg(test)]
#[path = "tests/codex.rs"]
mod tests;
