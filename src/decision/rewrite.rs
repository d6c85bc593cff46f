//! Merging several rewrites of the tool input, deterministically.

use serde_json::{Map, Value};

/// Applies each rewrite's differences from `original` in order. Returns the
/// merged input and a message per key that two hooks changed differently.
#[must_use]
pub(crate) fn merge_rewrites(
    original: &Map<String, Value>,
    rewrites: &[(String, Map<String, Value>)],
) -> (Map<String, Value>, Vec<String>) {
    let mut merged = original.clone();
    let mut changed_by: Map<String, Value> = Map::new();
    let mut conflicts = Vec::new();
    for (hook, rewrite) in rewrites {
        let mut changes: Vec<(String, Option<Value>)> = rewrite
            .iter()
            .filter(|(k, v)| original.get(k.as_str()) != Some(v))
            .map(|(k, v)| (k.clone(), Some(v.clone())))
            .collect();
        changes.extend(
            original
                .keys()
                .filter(|k| !rewrite.contains_key(k.as_str()))
                .map(|k| (k.clone(), None)),
        );
        for (key, value) in changes {
            let current = merged.get(&key).cloned();
            if let Some(Value::String(earlier)) = changed_by.get(&key)
                && current != value
            {
                conflicts.push(format!(
                        "hooks `{earlier}` and `{hook}` both rewrite `tool_input.{key}`; `{hook}`, later in config order, wins"
                    ));
            }
            changed_by.insert(key.clone(), Value::String(hook.clone()));
            match value {
                Some(v) => {
                    merged.insert(key, v);
                }
                None => {
                    merged.shift_remove(&key);
                }
            }
        }
    }
    (merged, conflicts)
}
