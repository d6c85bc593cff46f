//! The permission families: PreToolUse-like decisions and PermissionRequest.

use serde_json::{Map, Value};

use super::merger::{Merger, nonempty};
use super::model::{Input, Permission};
use crate::events::Family;

impl Merger<'_> {
    pub(super) fn pre_tool(
        &mut self,
        input: &Input<'_>,
        json: Option<&Map<String, Value>>,
        hso: Option<&Map<String, Value>>,
    ) {
        let a = input.answer;
        let reason = hso.and_then(|h| nonempty(h.get("permissionDecisionReason")));
        let decision = if let Some(b) = &a.blocking_error {
            self.perm_reasons.push((Permission::Deny, b.clone()));
            Some(Permission::Deny)
        } else {
            let p = hso
                .and_then(|h| h.get("permissionDecision"))
                .and_then(Value::as_str)
                .or_else(|| json.and_then(|j| j.get("decision")).and_then(Value::as_str))
                .and_then(Permission::parse);
            if let Some(p) = p {
                self.perm_reasons.push((p, reason.unwrap_or_default()));
            }
            p
        };
        if self.family != Family::PreTool
            || matches!(decision, Some(Permission::Deny | Permission::Defer))
        {
            return;
        }
        let rewrite = hso
            .and_then(|h| h.get("updatedInput"))
            .or_else(|| json.and_then(|j| j.get("modified_args")))
            .and_then(Value::as_object);
        if let Some(r) = rewrite {
            self.rewrites.push((input.name.clone(), r.clone()));
        } else if let Some(partial) = json
            .and_then(|j| j.get("merge_input"))
            .and_then(Value::as_object)
        {
            // Gemini's `tool_input`: merged over the original input.
            let mut merged = self
                .fields
                .get("tool_input")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default();
            merged.extend(partial.iter().map(|(k, v)| (k.clone(), v.clone())));
            self.rewrites.push((input.name.clone(), merged));
        }
    }

    pub(super) fn permission_request(
        &mut self,
        input: &Input<'_>,
        hso: Option<&Map<String, Value>>,
    ) {
        let Some(decision) = hso
            .and_then(|h| h.get("decision"))
            .and_then(Value::as_object)
        else {
            return;
        };
        match decision.get("behavior").and_then(Value::as_str) {
            Some("deny") => {
                let message = nonempty(decision.get("message"))
                    .unwrap_or_else(|| "Permission denied by hook".into());
                self.block(Permission::Deny, message);
                if decision.get("interrupt") == Some(&Value::Bool(true))
                    && let Some(r) = self.d.request.as_mut()
                {
                    r.insert("interrupt".into(), Value::Bool(true));
                }
            }
            Some("allow") => {
                let request = self.d.request.get_or_insert_with(Map::new);
                if request.get("behavior").and_then(Value::as_str) == Some("deny") {
                    return;
                }
                request.insert("behavior".into(), "allow".into());
                if let Some(perms) = decision.get("updatedPermissions").and_then(Value::as_array) {
                    let list = request
                        .entry("updatedPermissions")
                        .or_insert_with(|| Value::Array(Vec::new()));
                    if let Value::Array(l) = list {
                        l.extend(perms.iter().cloned());
                    }
                }
                if let Some(r) = decision.get("updatedInput").and_then(Value::as_object) {
                    self.rewrites.push((input.name.clone(), r.clone()));
                }
            }
            _ => {}
        }
    }
}
