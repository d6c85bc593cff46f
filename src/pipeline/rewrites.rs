//! Built-in guards judge the input that will actually run. Hooks run at
//! once, each on the original event, so a guard never sees another hook's
//! rewrite: a rewrite to `rm -rf /` would be allowed by a guard that judged
//! only `ls`, or skipped by a guard whose matcher or `if` admitted only the
//! rewritten call. When the merged decision rewrites the tool input
//! (PreToolUse `updatedInput`, a PermissionRequest allow's
//! `decision.updatedInput`, and what each dialect reads into them), the
//! hooks are selected again on the rewritten event, and every built-in guard
//! that judges input and is admitted there judges it, whether or not it ran
//! on the original; a deny there is merged in (which drops the rewrite).
//! Command hooks cannot be asked again without running them twice;
//! `order = "sequential"` has each hook see the input as rewritten before it
//! (docs/semantics.md, "Merging").

use std::path::Path;

use serde_json::Value;

use super::chain::rewritten;
use super::hooks::{guard_only, run_builtin};
use super::model::Evaluation;
use crate::config::{Action, Config};
use crate::decision::{self, Input, Permission};
use crate::event::Event;

/// Adds the built-in guards' denials of the rewritten input to `eval`;
/// whether any of them blocks (the decision must then be merged again).
pub(super) fn judge_rewritten_input(
    config: &Config,
    event: &Event,
    project: &Path,
    eval: &mut Evaluation,
) -> bool {
    let Some(input) = eval.decision.rewritten_input().cloned() else {
        return false;
    };
    if eval.decision.blocked || eval.decision.permission == Some(Permission::Deny) {
        return false;
    }
    // Rewrites replace the input only; no dialect lets a hook rename the
    // tool, so the tool name (and the matcher) stays the original's.
    let rewritten = rewritten(event, Some(&Value::Object(input)), None);
    let plan = crate::select::select(config, &rewritten);
    let mut blocked = false;
    for sel in plan.selected.into_iter().filter(|s| s.not_run.is_none()) {
        let hook = &config.hooks[sel.hook];
        let Action::Builtin(b) = &hook.action else {
            continue;
        };
        if hook.is_async || !b.judges_input() {
            continue;
        }
        let label = format!("{} (on the rewritten input)", hook.display_name());
        let (run, answer) = run_builtin(b, &label, &rewritten, &config.guard_context(project));
        let (answer, notice) = guard_only(hook, answer, &event.name);
        eval.ignored.extend(notice);
        let alone = Input {
            name: label,
            label: hook.label(),
            fail_mode: hook.fail_mode,
            answer: &answer,
            on_failure_note: None,
        };
        let denies = decision::merge(
            &event.name,
            eval.family,
            &event.fields,
            &[alone],
            &[hook.fail_mode_from_on_failure],
        )
        .blocked;
        if denies {
            blocked = true;
            eval.selected.push(sel);
            eval.runs.push(run);
            eval.answers.push(answer);
        }
    }
    blocked
}
