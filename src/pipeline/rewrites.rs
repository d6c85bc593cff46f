//! Built-in guards judge the input that will actually run. Hooks run at
//! once, each on the original event, so a guard never sees another hook's
//! `updatedInput`: a rewrite to `rm -rf /` would be allowed by a guard that
//! judged only `ls`. When the merged decision rewrites the tool input, every
//! built-in guard that ran judges the rewritten input too, and a deny there
//! is merged in (which drops the rewrite). Command hooks cannot be asked
//! again without running them twice; `order = "sequential"` has each hook
//! see the input as rewritten before it (docs/semantics.md, "Merging").

use std::path::Path;

use serde_json::Value;

use super::hooks::run_builtin;
use super::model::Evaluation;
use crate::answer::Outcome;
use crate::config::{Action, Config};
use crate::decision::Permission;
use crate::event::Event;

/// Adds the built-in guards' judgments of the rewritten input to `eval`;
/// whether any of them blocks (the decision must then be merged again).
pub(super) fn judge_rewritten_input(
    config: &Config,
    event: &Event,
    project: &Path,
    eval: &mut Evaluation,
) -> bool {
    let Some(input) = eval.decision.updated_input.clone() else {
        return false;
    };
    if eval.decision.permission == Some(Permission::Deny) {
        return false;
    }
    let guards: Vec<_> = eval
        .selected
        .iter()
        .filter(|sel| sel.not_run.is_none())
        .filter_map(|sel| match &config.hooks[sel.hook].action {
            Action::Builtin(b) => Some((sel.clone(), b)),
            _ => None,
        })
        .collect();
    if guards.is_empty() {
        return false;
    }
    let mut rewritten = event.clone();
    rewritten
        .fields
        .insert("tool_input".into(), Value::Object(input));
    let mut blocked = false;
    for (sel, b) in guards {
        let label = format!(
            "{} (on the rewritten input)",
            config.hooks[sel.hook].display_name()
        );
        let (run, answer) = run_builtin(b, &label, &rewritten, &config.guard_context(project));
        if answer.outcome == Outcome::Blocking {
            blocked = true;
            eval.selected.push(sel);
            eval.runs.push(run);
            eval.answers.push(answer);
        }
    }
    blocked
}
