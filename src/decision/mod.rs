//! Merging every hook's answer into one decision (spec section 7), pure.
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
pub use rewrite::merge_rewrites;

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

/// A block hookrun makes itself (a closed guard whose input, config or audit
/// log failed), as the decision a blocking hook would have produced, so that
/// every caller's dialect renders it in its own shape. On events that cannot
/// block it is a notice, as any hook's block there.
#[must_use]
pub fn own_block(
    event: &str,
    family: Family,
    fields: &Map<String, Value>,
    reason: String,
) -> Decision {
    let mut m = Merger::new(event, family, fields);
    m.block(Permission::Deny, reason);
    m.finish()
}
