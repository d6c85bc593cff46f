//! hookrun TOML written as the `hooks` block of a settings file whose
//! handlers nest in matcher groups (`hooks.EVENT[].hooks[]`), for agents
//! whose settings are not Claude Code's: `hookrun convert --to gemini`,
//! `--to qwen`. What differs between them is data (`Grouped`).

use serde_json::{Map, Value, json};

use crate::dialect::convert::Converted;

/// How one agent's grouped settings differ.
pub(crate) struct Grouped {
    /// The agent, as its users name it.
    pub agent: &'static str,
    /// Its name for an event of hookrun's model; `None` where it has none.
    pub event_name: fn(&str) -> Option<String>,
    /// Whether a `timeout` counts milliseconds (else seconds).
    pub millis: bool,
    /// The handler key and value that make a hook fail closed, where it
    /// has one.
    pub fail_closed: Option<(&'static str, &'static str)>,
    /// Whether a handler can run in the background (`async`).
    pub async_hooks: bool,
}

/// hookrun TOML → the agent's settings JSON.
///
/// # Errors
/// The TOML is not a valid hookrun config.
pub(crate) fn toml_to_grouped(path: &std::path::Path, to: &Grouped) -> Result<Converted, String> {
    let config = crate::dialect::flat_hooks::load_toml(path)?;
    let mut warnings = Vec::new();
    let mut events: Map<String, Value> = Map::new();
    for hook in &config.hooks {
        // Their hooks are shell commands: exec-form words quoted, a
        // built-in's options and mode carried as `--options` / `--mode`.
        let Some(command) = crate::dialect::flat_hooks::shell_command(hook, &mut warnings) else {
            continue;
        };
        let key = &hook.origin.key;
        if hook.if_rule.is_some() {
            warnings.push(format!(
                "`{key}`: {} has no `if`, so the hook would run on every match: not converted",
                to.agent
            ));
        }
        if hook.is_async && !to.async_hooks {
            warnings.push(format!(
                "`{key}`: {} has no `async` hooks, so the hook would run in the foreground: not converted",
                to.agent
            ));
        }
        let fail_closed = hook.fail_mode == crate::config::FailMode::Closed;
        if fail_closed && to.fail_closed.is_none() {
            warnings.push(format!(
                "`{key}`: {} has no fail-closed hooks: `fail_mode` not converted",
                to.agent
            ));
        }
        for event in &hook.events {
            let Some(name) = (to.event_name)(event) else {
                warnings.push(format!(
                    "`{key}`: {} has no `{event}` event: not converted",
                    to.agent
                ));
                continue;
            };
            let mut h = json!({"type": "command", "command": command});
            if let Some(n) = &hook.name {
                h["name"] = Value::String(n.clone());
            }
            if let Some(t) = hook.timeout {
                h["timeout"] = if to.millis {
                    json!(u64::try_from(t.as_millis()).unwrap_or(u64::MAX))
                } else {
                    json!(t.as_secs_f64())
                };
            }
            if !hook.env.is_empty() {
                h["env"] = Value::Object(
                    hook.env
                        .iter()
                        .map(|(k, v)| (k.clone(), Value::String(v.clone())))
                        .collect(),
                );
            }
            if hook.is_async && to.async_hooks {
                h["async"] = Value::Bool(true);
            }
            if let (true, Some((k, v))) = (fail_closed, to.fail_closed) {
                h[k] = Value::String(v.to_owned());
            }
            let mut group = json!({"hooks": [h]});
            if config.order_of(event) == crate::config::Order::Sequential {
                group["sequential"] = Value::Bool(true);
            }
            if let Some(m) = &hook.matcher {
                group["matcher"] = Value::String(m.pattern().to_owned());
            }
            if let Value::Array(list) = events
                .entry(name)
                .or_insert_with(|| Value::Array(Vec::new()))
            {
                list.push(group);
            }
        }
    }
    let text = serde_json::to_string_pretty(&json!({"hooks": events})).unwrap_or_default() + "\n";
    Ok(Converted { text, warnings })
}
