//! What a failing hook means: under `fail_mode = "closed"` a block, under
//! `"open"` a notice that names the hook and the kind of failure.

use super::merger::Merger;
use super::model::{ClosedBy, Input};
use crate::answer::{Failure, js_trim};
use crate::config::FailMode;

/// Whether a failing hook blocks, and by which setting: `fail_mode =
/// "closed"`, except where it came from Claude Code's `onFailure`, which
/// Claude Code ignores on these.
pub(super) fn closed(input: &Input<'_>, event: &str, from_on_failure: bool) -> Option<ClosedBy> {
    if input.fail_mode != FailMode::Closed {
        return None;
    }
    if !from_on_failure {
        return Some(ClosedBy::FailMode);
    }
    (!matches!(
        event,
        "Stop" | "SubagentStop" | "TaskCompleted" | "TeammateIdle"
    ))
    .then_some(ClosedBy::OnFailure)
}

impl Merger<'_> {
    pub(super) fn failure_notice(&mut self, input: &Input<'_>, failure: &Failure) {
        let a = input.answer;
        // Claude Code's own text where it has one (non-blocking status code,
        // JSON problems); hookrun's, naming the failure kind, elsewhere.
        let text = match failure {
            Failure::TimedOut { .. } => {
                format!(
                    "hook `{}` {}; its answer was discarded",
                    input.name,
                    failure.describe()
                )
            }
            Failure::ExitCode { .. }
            | Failure::InvalidJson { .. }
            | Failure::WrongEventName { .. } => {
                // The notice already carries the failure's details; the
                // kind is named once, without repeating them.
                let head = format!("{} hook error: `{}`", self.event, input.name);
                match &a.notice {
                    Some(notice) => format!("{head} {}: {notice}", failure.headline()),
                    None => format!("{head} {}", failure.describe()),
                }
            }
            _ => {
                let err = js_trim(&a.stderr);
                let mut text = format!(
                    "{} hook error: `{}` {}",
                    self.event,
                    input.name,
                    failure.describe()
                );
                if !err.is_empty() {
                    text.push_str(": ");
                    text.push_str(err.lines().next().unwrap_or(err));
                }
                text
            }
        };
        // A hook that printed valid JSON on a non-0/2 exit is honoured and
        // not shown as an error by Claude Code; keep it out of the notices.
        if a.json.is_some() && matches!(failure, Failure::ExitCode { .. }) {
            self.d.diagnostics.push(text);
        } else if self.event == "SessionEnd" {
            self.d.diagnostics.push(format!(
                "SessionEnd hook [{}] failed: {}",
                input.label,
                failure.describe()
            ));
        } else {
            self.d.failure_notices.push(text.clone());
            self.d.system_messages.push(text);
        }
    }
}
