//! Event-specific answer fields that pass through the merge (session title,
//! watch paths, tool output rewrites, ...), with their combining rules.

use serde_json::{Map, Value};

use super::merger::Merger;

impl Merger<'_> {
    /// Event-specific fields other than decisions and contexts.
    pub(super) fn pass_through(&mut self, hso: Option<&Map<String, Value>>) {
        let Some(hso) = hso else { return };
        for (key, value) in hso {
            match key.as_str() {
                "hookEventName"
                | "additionalContext"
                | "permissionDecision"
                | "permissionDecisionReason"
                | "updatedInput"
                | "decision" => {}
                "watchPaths" => {
                    let list = self
                        .d
                        .specific
                        .entry("watchPaths")
                        .or_insert_with(|| Value::Array(Vec::new()));
                    if let (Value::Array(l), Value::Array(new)) = (list, value) {
                        for p in new {
                            if !l.contains(p) {
                                l.push(p.clone());
                            }
                        }
                    }
                }
                "reloadSkills" | "suppressOriginalPrompt" | "retry" => {
                    let any = self
                        .d
                        .specific
                        .get(key)
                        .and_then(Value::as_bool)
                        .unwrap_or(false);
                    self.d.specific.insert(
                        key.clone(),
                        Value::Bool(any || value.as_bool().unwrap_or(false)),
                    );
                }
                "initialUserMessage" | "classifierContext" => {
                    if let Some(text) = value.as_str().filter(|s| !s.is_empty()) {
                        let joined = match self.d.specific.get(key).and_then(Value::as_str) {
                            Some(prev) => format!("{prev}\n{text}"),
                            None => text.to_owned(),
                        };
                        self.d.specific.insert(key.clone(), Value::String(joined));
                    }
                }
                "toolConfig" => {
                    let merged = merge_tool_config(self.d.specific.get(key), value);
                    self.d.specific.insert(key.clone(), merged);
                }
                _ => self.set_specific(key, value.clone(), "a hook"),
            }
        }
    }
}

/// Gemini CLI's BeforeToolSelection rule (its `mergeToolSelectionOutputs`):
/// the allowed function names are the union of every hook's, sorted; the
/// mode is `NONE` if any hook says so (and then no names), else `ANY` if any
/// hook says so, else `AUTO`. A hook that answered without a `toolConfig`
/// (an empty object here) still makes the merged config `AUTO`, as Gemini
/// applies one as soon as any hook answers.
fn merge_tool_config(prev: Option<&Value>, new: &Value) -> Value {
    /// Modes from the least to the most restrictive.
    const MODES: [&str; 3] = ["AUTO", "ANY", "NONE"];
    let both = [prev, Some(new)];
    let rank = both
        .iter()
        .flatten()
        .filter_map(|v| v.get("mode").and_then(Value::as_str))
        .filter_map(|m| MODES.iter().position(|known| *known == m))
        .max()
        .unwrap_or(0);
    let mut names: Vec<&str> = both
        .iter()
        .flatten()
        .filter_map(|v| v.get("allowedFunctionNames").and_then(Value::as_array))
        .flatten()
        .filter_map(Value::as_str)
        .filter(|_| MODES[rank] != "NONE")
        .collect();
    names.sort_unstable();
    names.dedup();
    serde_json::json!({"mode": MODES[rank], "allowedFunctionNames": names})
}
