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
                _ => self.set_specific(key, value.clone(), "a hook"),
            }
        }
    }
}
