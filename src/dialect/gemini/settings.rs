//! hookrun TOML written as Gemini CLI's settings `hooks` block: `hookrun
//! convert --to gemini`. Gemini counts timeouts in **milliseconds**.

use serde_json::{Map, Value, json};

use crate::dialect::convert::Converted;

/// hookrun TOML → Gemini settings JSON, timeouts in milliseconds.
///
/// # Errors
/// The TOML is not a valid hookrun config.
pub(crate) fn toml_to_gemini(path: &std::path::Path) -> Result<Converted, String> {
    let config = crate::dialect::flat_hooks::load_toml(path)?;
    let mut warnings = Vec::new();
    let mut events: Map<String, Value> = Map::new();
    for hook in &config.hooks {
        // Gemini hooks are shell commands: exec-form words quoted, a
        // built-in's options and mode carried as `--options` / `--mode`.
        let Some(command) = crate::dialect::flat_hooks::shell_command(hook, &mut warnings) else {
            continue;
        };
        if hook.if_rule.is_some() {
            warnings.push(format!(
                "`{}`: Gemini has no `if`, so the hook would run on every match: not converted",
                hook.origin.key
            ));
        }
        if hook.is_async {
            warnings.push(format!(
                "`{}`: Gemini has no `async` hooks, so the hook would run in the foreground: not converted",
                hook.origin.key
            ));
        }
        if hook.fail_mode == crate::config::FailMode::Closed {
            warnings.push(format!(
                "`{}`: Gemini has no fail-closed hooks: `fail_mode` not converted",
                hook.origin.key
            ));
        }
        for event in &hook.events {
            let name = super::events::EVENTS
                .iter()
                .find(|(_, m)| m == event)
                .map_or(event.as_str(), |(g, _)| g);
            let mut h = json!({"type": "command", "command": command});
            if let Some(n) = &hook.name {
                h["name"] = Value::String(n.clone());
            }
            if let Some(t) = hook.timeout {
                h["timeout"] = json!(u64::try_from(t.as_millis()).unwrap_or(u64::MAX));
            }
            if !hook.env.is_empty() {
                h["env"] = Value::Object(
                    hook.env
                        .iter()
                        .map(|(k, v)| (k.clone(), Value::String(v.clone())))
                        .collect(),
                );
            }
            let mut group = json!({"hooks": [h]});
            if config.order_of(event) == crate::config::Order::Sequential {
                group["sequential"] = Value::Bool(true);
            }
            if let Some(m) = &hook.matcher {
                group["matcher"] = Value::String(m.pattern().to_owned());
            }
            if let Value::Array(list) = events
                .entry(name.to_owned())
                .or_insert_with(|| Value::Array(Vec::new()))
            {
                list.push(group);
            }
        }
    }
    let text = serde_json::to_string_pretty(&json!({"hooks": events})).unwrap_or_default() + "\n";
    Ok(Converted { text, warnings })
}
