//! Sequential chains (`order = "sequential"` / `"first-answer"`): hooks
//! run one after another, each seeing the tool input (or output) as
//! rewritten by the hooks before it; a pre-tool deny stops the chain.

use std::sync::Arc;

use super::handler;
use super::hooks::{guard_only, not_run_answer, placeholder_run, stdin_for};
use super::model::{Context, Evaluation};
use crate::config::{Config, Order};
use crate::decision::{self, Decision};
use crate::error::Error;
use crate::event::Event;

/// The state a sequential chain hands from hook to hook.
#[derive(Debug, Clone)]
pub(super) struct Chain {
    input: Option<serde_json::Value>,
    result: Option<serde_json::Value>,
    input_changed: bool,
    result_changed: bool,
}

impl Chain {
    /// The chained values win over the merge's: each hook saw its
    /// predecessor's result, so the last one is the outcome (whole
    /// replacement, as pydantic-deep and Claude Code apply rewrites).
    pub(super) fn apply(&self, event: &str, d: &mut Decision) {
        let dropped = matches!(
            d.permission,
            Some(decision::Permission::Deny | decision::Permission::Defer)
        );
        if self.input_changed && !dropped {
            if let Some(serde_json::Value::Object(m)) = &self.input {
                d.updated_input = Some(m.clone());
            }
        }
        if self.result_changed && event == "PostToolUse" {
            if let Some(r) = &self.result {
                d.specific.insert("updatedToolOutput".into(), r.clone());
            }
        }
    }

    /// Takes what a hook's answer rewrote (a pre-tool input unless it
    /// denied, a post-tool result) for the hooks after it.
    fn take(
        &mut self,
        json: &serde_json::Map<String, serde_json::Value>,
        event: &str,
        denied: bool,
    ) {
        let pre = event == "PreToolUse";
        let hso = json
            .get("hookSpecificOutput")
            .and_then(serde_json::Value::as_object);
        if pre && !denied {
            let rewrite = hso
                .and_then(|h| h.get("updatedInput"))
                .or_else(|| json.get("modified_args"))
                .cloned();
            let merged = json
                .get("merge_input")
                .and_then(serde_json::Value::as_object)
                .map(|partial| {
                    let mut base = self
                        .input
                        .clone()
                        .and_then(|v| v.as_object().cloned())
                        .unwrap_or_default();
                    base.extend(partial.iter().map(|(k, v)| (k.clone(), v.clone())));
                    serde_json::Value::Object(base)
                });
            if let Some(new) = rewrite.or(merged) {
                self.input = Some(new);
                self.input_changed = true;
            }
        }
        if event == "PostToolUse" {
            let new = hso
                .and_then(|h| h.get("updatedToolOutput"))
                .or_else(|| json.get("modified_result"))
                .cloned();
            if let Some(new) = new {
                self.result = Some(new);
                self.result_changed = true;
            }
        }
    }
}

/// One hook after another in config order (`order = "sequential"` or
/// `"first-answer"`).
pub(super) fn run_chain(
    config: &Config,
    event: &Event,
    ctx: &Context,
    order: Order,
    eval: &mut Evaluation,
) -> Result<Chain, Error> {
    let mut chain = Chain {
        input: event.fields.get("tool_input").cloned(),
        result: event.fields.get("tool_response").cloned(),
        input_changed: false,
        result_changed: false,
    };
    let mut current = event.clone();
    let pre = event.name == "PreToolUse";
    for sel in eval.plan.selected.clone() {
        let hook = &config.hooks[sel.hook];
        if let Some(why) = &sel.not_run {
            eval.selected.push(sel.clone());
            eval.runs.push(placeholder_run());
            eval.answers.push(not_run_answer(why));
            continue;
        }
        if hook.is_async {
            // Started with the input as it stands now; never awaited.
            let input = stdin_for(hook, &current);
            if let Some(started) = handler::start_async(hook, &current, ctx, input) {
                eval.started_async.push((sel.position, started));
            }
            continue;
        }
        let job = handler::job_of(hook, None, &current, ctx, config);
        let (run, answer) = handler::run_jobs(vec![job], &current, ctx, config)?
            .pop()
            .unwrap_or_else(|| (placeholder_run(), not_run_answer("not run")));
        // Cut before the next hook is handed a rewrite.
        let (answer, notice) = guard_only(hook, answer, &event.name);
        eval.ignored.extend(notice);
        let denied = pre && answer.blocking_error.is_some();
        let answered = answer.json.is_some() || answer.blocking_error.is_some();
        if let Some(json) = &answer.json {
            chain.take(json, &event.name, denied);
        }
        eval.selected.push(sel.clone());
        eval.runs.push(run);
        eval.answers.push(answer);
        if denied || (order == Order::FirstAnswer && answered) {
            break;
        }
        if chain.input_changed || chain.result_changed {
            current = rewritten(event, chain.input.as_ref(), chain.result.as_ref());
        }
    }
    Ok(chain)
}

/// The event with this tool input and result, as the next hook of a chain
/// (or a guard judging a rewrite) sees it.
pub(super) fn rewritten(
    event: &Event,
    input: Option<&serde_json::Value>,
    result: Option<&serde_json::Value>,
) -> Event {
    let mut e = event.clone();
    if let Some(i) = input {
        e.fields.insert("tool_input".into(), i.clone());
    }
    if let Some(r) = result {
        e.fields.insert("tool_response".into(), r.clone());
    }
    let mut bytes = serde_json::to_vec(&e.fields).unwrap_or_default();
    bytes.push(b'\n');
    e.bytes = bytes.into();
    if let Some(payload) = crate::dialect::protocol(e.dialect).payload(&e) {
        // The caller's own shape of the new state (for pydantic-deep,
        // `json.dumps` style).
        e.raw = payload.into();
    } else if !e.dialect.is_claude_like() {
        e.raw = Arc::clone(&e.bytes);
    }
    e
}
