//! Merging every hook's answer into one decision (docs/semantics.md, "Merging"), pure.
//!
//! Claude Code consumes answers in completion order, so where several hooks
//! compete its result can differ from run to run; hookrun merges in config
//! order, so the same answers always give the same decision:
//!
//! | what | rule |
//! | --- | --- |
//! | permission (PreToolUse) | deny > defer > ask > allow; the reasons of every hook that chose the winner, in config order |
//! | block (Stop, PostToolUse, prompts, ...) | any block blocks; every reason kept, in config order |
//! | PermissionRequest | any deny wins (messages joined, `interrupt` if any asks); else the first allow, with every allow's rewrite |
//! | `continue: false` | wins, with every `stopReason` |
//! | contexts, system messages | all kept, in config order |
//! | rewritten tool input | each hook's keys that differ from the original are applied in config order; a later hook wins a key two hooks change (reported); dropped on deny and defer |
//! | rewritten tool output | the last hook in config order wins (reported when several) |
//! | failures | `fail_mode = "open"`: a notice, no decision; `"closed"`: a block naming the hook and the failure |

use serde_json::{Map, Value};

mod failure;
mod fields;
mod merger;
mod model;
mod outside;
mod rewrite;
#[cfg(test)]
mod tests;
mod tool;

use crate::events::Family;
use merger::Merger;
pub use model::{Decision, Input, Permission};

/// Merges the answers of one event, in config order.
#[must_use]
pub fn merge(
    event: &str,
    family: Family,
    fields: &Map<String, Value>,
    inputs: &[Input<'_>],
    on_failure_flags: &[bool],
) -> Decision {
    let mut m = Merger::new(event, family, fields);
    for (i, input) in inputs.iter().enumerate() {
        let from_on_failure = on_failure_flags.get(i).copied().unwrap_or(false);
        m.one(input, failure::closed(input, event, from_on_failure));
    }
    m.finish()
}

/// hookrun's own failure on an event (a config it cannot read, a handler
/// it cannot run, a limit it hit), as a fresh decision: see [`own_failure`].
#[must_use]
pub(crate) fn own_block(
    event: &str,
    family: Family,
    fields: &Map<String, Value>,
    reason: String,
) -> Decision {
    let mut d = Decision::default();
    own_failure(&mut d, event, family, fields, reason);
    d
}

/// Whether a block on this event (hookrun's model name, or an event only
/// another agent has) does anything: what `install` asks the agent's own
/// fail-safe for, and where a guard that never runs leaves the action
/// unguarded (`check`'s errors).
#[must_use]
pub(crate) fn event_can_block(event: &str) -> bool {
    crate::events::known(event).is_some_and(|info| merger::can_block(info.family, event))
}

/// Applies hookrun's own failure to a decision, so that an event hookrun
/// could not fully evaluate is never let through by what it did evaluate:
///
/// - where the event can block, it blocks with `reason` (a deny wins over
///   every allow, and a rewrite is dropped, as a hook's deny would);
/// - on Stop and SubagentStop a block means "keep working": it blocks only
///   while `stop_hook_active` is false, so a broken config cannot keep an
///   agent working for ever; after that it is a notice;
/// - on PostToolUse the tool already ran: the block is feedback, and the
///   output the model would see is withheld (replaced by the reason);
/// - on events that cannot block it is a notice.
///
/// The reason is also a system message, so the user sees it as well as the
/// model.
pub(crate) fn own_failure(
    d: &mut Decision,
    event: &str,
    family: Family,
    fields: &Map<String, Value>,
    reason: String,
) {
    let stop_active = fields.get("stop_hook_active") == Some(&Value::Bool(true));
    if family == Family::Stop && stop_active {
        d.system_messages.push(format!(
            "{reason} (not blocked again: the agent already kept working once for a hook of this stop)"
        ));
        return;
    }
    let blocks = merger::can_block(family, event);
    let reason = if blocks {
        let reason = format!(
            "{reason} (blocked because hookrun could not evaluate every configured hook; unless a guard fails closed, `--on-error allow` lets such events through)"
        );
        // A block carries its reason to the model; the user sees it too.
        d.system_messages.push(reason.clone());
        reason
    } else {
        format!("{reason} (not blocked: {event} cannot be blocked)")
    };
    match family {
        Family::PreTool => deny_permission(d, reason),
        Family::Generic if event == "PreModelSwitch" => deny_permission(d, reason),
        _ => {
            let mut m = Merger::new(event, family, fields);
            m.d = std::mem::take(d);
            m.block(Permission::Deny, reason.clone());
            *d = m.d;
            if family == Family::PermissionRequest {
                d.blocked = true;
                d.permission = Some(Permission::Deny);
            }
            if event == "PostToolUse" {
                let field = if fields
                    .get("tool_name")
                    .and_then(Value::as_str)
                    .is_some_and(|t| t.to_ascii_lowercase().starts_with("mcp__"))
                {
                    "updatedMCPToolOutput"
                } else {
                    "updatedToolOutput"
                };
                d.specific.remove("updatedToolOutput");
                d.specific.remove("updatedMCPToolOutput");
                d.specific.insert(
                    field.into(),
                    Value::String(format!("[output withheld] {reason}")),
                );
            }
        }
    }
}

/// A deny that wins over every other permission: the reasons of a weaker
/// permission are dropped with it, and so is any rewrite.
fn deny_permission(d: &mut Decision, reason: String) {
    if d.permission != Some(Permission::Deny) {
        d.reasons.clear();
    }
    d.permission = Some(Permission::Deny);
    d.blocked = true;
    d.updated_input = None;
    d.reasons.push(reason);
}
