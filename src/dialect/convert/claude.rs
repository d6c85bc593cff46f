//! Converting between Claude Code settings JSON and hookrun TOML, pure:
//! lossless for everything both can express, and a warning for everything
//! that cannot be carried over (never a silent drop).
//!
//! | Claude Code JSON | hookrun TOML |
//! | --- | --- |
//! | `hooks.<Event>[i].matcher` | `event`, `matcher` |
//! | `command`, `args`, `timeout`, `async`, `if` | the same keys |
//! | `onFailure: "block"` | `on_failure = "block"` (Claude Code's rules: ignored on Stop-like events) |
//! | `statusMessage` | `name` |
//! | `asyncRewake` | `async = true` (the rewake is lost: warned) |
//! | `type: "http"` (`url`, `headers`, `allowedEnvVars`) | `http`, `headers`, `allowed_env_vars` |
//! | `type: "prompt"` (`prompt`, `model`, `continueOnBlock`) | `prompt`, `model`, `continue_on_block` |
//! | `type: "agent"` (`prompt`, `model`) | `agent`, `model` |
//! | `type: "mcp_tool"` (`server`, `tool`, `input`) | `mcp_tool = { server, tool, input }` (the server stays where Claude Code configures it) |
//! | `once`, `shell: "powershell"`, `disableAllHooks` | not carried (warned) |
//! | — | `provider = "openai"`, `[mcp_servers]` (not carried to JSON: warned) |
//! | — | `env`, `[limits]` (not carried to JSON: warned) |

use serde::Serialize;
use serde_json::{Map, Value, json};

use super::builtin_cmd::builtin_of;
use crate::dialect::protocol::Converted;

#[derive(Debug, Serialize)]
struct TomlDoc {
    hooks: Vec<TomlHook>,
}

#[derive(Debug, Serialize)]
struct TomlHook {
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<String>,
    event: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    matcher: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    command: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    builtin: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    http: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    headers: Option<toml::Table>,
    #[serde(skip_serializing_if = "Option::is_none")]
    allowed_env_vars: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    prompt: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    agent: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mcp_tool: Option<toml::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    model: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    continue_on_block: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mode: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    options: Option<toml::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    args: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    timeout: Option<toml::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    on_failure: Option<&'static str>,
    #[serde(rename = "async", skip_serializing_if = "std::ops::Not::not")]
    is_async: bool,
    #[serde(rename = "if", skip_serializing_if = "Option::is_none")]
    if_rule: Option<String>,
}

/// Claude Code settings JSON → hookrun TOML.
///
/// # Errors
/// The text is not a JSON object.
pub(crate) fn claude_to_toml(text: &str) -> Result<Converted, String> {
    let root: Value = serde_json::from_str(text).map_err(|e| format!("not valid JSON: {e}"))?;
    let root = root
        .as_object()
        .ok_or("a Claude Code settings file is a JSON object")?;
    let mut warnings = Vec::new();
    let others: Vec<&String> = root
        .keys()
        .filter(|k| *k != "hooks" && *k != "disableAllHooks")
        .collect();
    if !others.is_empty() {
        warnings.push(format!(
            "settings that are not hooks are not converted: {}",
            list(others.iter().map(|k| k.as_str()))
        ));
    }
    if root.contains_key("disableAllHooks") {
        warnings.push(
            "`disableAllHooks` has no TOML equivalent: not converted (leave out the hooks instead)"
                .into(),
        );
    }
    let mut hooks = Vec::new();
    let empty = Map::new();
    let events = match root.get("hooks") {
        None => &empty,
        Some(Value::Object(m)) => m,
        Some(_) => return Err("`hooks` is not an object keyed by event name".into()),
    };
    for (event, groups) in events {
        if crate::events::info(event).is_none() {
            warnings.push(format!("`hooks.{event}`: not an event Claude Code knows, so it never ran there: not converted"));
            continue;
        }
        for (gi, group) in groups.as_array().into_iter().flatten().enumerate() {
            let matcher = group
                .get("matcher")
                .and_then(Value::as_str)
                .filter(|m| !m.is_empty())
                .map(str::to_owned);
            let names = crate::events::info(event)
                .filter(|i| i.query_field.is_some())
                .map(|i| i.names);
            if let (Some(m), Some(names)) = (&matcher, names) {
                if crate::matcher::Matcher::new(m).regex_error(names).is_some() {
                    warnings.push(format!(
                        "`hooks.{event}[{gi}]`: matcher `{m}` is not a valid regex, so it never matches; hookrun TOML rejects it: group not converted"
                    ));
                    continue;
                }
            }
            for (hi, h) in group
                .get("hooks")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .enumerate()
            {
                let key = format!("hooks.{event}[{gi}].hooks[{hi}]");
                match handler_to_toml(h, event, matcher.clone(), &key, &mut warnings) {
                    Some(hook) => hooks.push(hook),
                    None => continue,
                }
            }
        }
    }
    let text = toml::to_string(&TomlDoc { hooks }).map_err(|e| e.to_string())?;
    Ok(Converted {
        text: format!("# Converted from Claude Code settings by `hookrun convert`.\n\n{text}"),
        warnings,
    })
}

fn handler_to_toml(
    h: &Value,
    event: &str,
    matcher: Option<String>,
    key: &str,
    warnings: &mut Vec<String>,
) -> Option<TomlHook> {
    let kind = h.get("type").and_then(Value::as_str).unwrap_or("");
    let text = |field: &str| {
        h.get(field)
            .and_then(Value::as_str)
            .filter(|c| !c.trim().is_empty())
    };
    let (mut command, mut url, mut prompt, mut agent, mut mcp_tool) =
        (None, None, None, None, None);
    let own: &[&str] = match kind {
        "command" => {
            let Some(c) = text("command") else {
                warnings.push(format!(
                    "`{key}`: a command handler without `command` is invalid: not converted"
                ));
                return None;
            };
            if h.get("shell").and_then(Value::as_str) == Some("powershell") {
                warnings.push(format!("`{key}`: a `shell: \"powershell\"` handler cannot be expressed in hookrun TOML: not converted"));
                return None;
            }
            command = Some(c);
            &["command", "args", "shell"]
        }
        "http" => {
            let Some(u) = h.get("url").and_then(Value::as_str) else {
                warnings.push(format!(
                    "`{key}`: an http handler without `url` is invalid: not converted"
                ));
                return None;
            };
            url = Some(u);
            &["url", "headers", "allowedEnvVars"]
        }
        "prompt" | "agent" => {
            let Some(p) = text("prompt") else {
                warnings.push(format!(
                    "`{key}`: a {kind} handler without `prompt` is invalid: not converted"
                ));
                return None;
            };
            if kind == "prompt" {
                prompt = Some(p);
                &["prompt", "model", "continueOnBlock"]
            } else {
                agent = Some(p);
                &["prompt", "model"]
            }
        }
        "mcp_tool" => {
            let (Some(server), Some(tool)) = (text("server"), text("tool")) else {
                warnings.push(format!(
                    "`{key}`: an mcp_tool handler without `server` and `tool` is invalid: not converted"
                ));
                return None;
            };
            let mut call = toml::Table::new();
            call.insert("server".into(), server.into());
            call.insert("tool".into(), tool.into());
            if let Some(input) = h.get("input").filter(|i| !i.is_null()) {
                match toml::Value::try_from(input) {
                    Ok(v) => {
                        call.insert("input".into(), v);
                    }
                    Err(e) => {
                        warnings.push(format!(
                            "`{key}.input` cannot be written as TOML ({e}): not converted"
                        ));
                        return None;
                    }
                }
            }
            mcp_tool = Some(toml::Value::Table(call));
            &["server", "tool", "input"]
        }
        _ => {
            warnings.push(format!(
                "`{key}`: a `{kind}` handler is not a type Claude Code runs: not converted"
            ));
            return None;
        }
    };
    const KNOWN: &[&str] = &[
        "type",
        "timeout",
        "async",
        "asyncRewake",
        "onFailure",
        "if",
        "statusMessage",
        "once",
    ];
    if let Some(obj) = h.as_object() {
        for k in obj
            .keys()
            .filter(|k| !KNOWN.contains(&k.as_str()) && !own.contains(&k.as_str()))
        {
            warnings.push(format!(
                "`{key}.{k}` has no hookrun equivalent: not converted"
            ));
        }
    }
    if h.get("once").is_some() {
        warnings.push(format!(
            "`{key}`: `once` is not carried (Claude Code ignores it outside skills)"
        ));
    }
    if h.get("asyncRewake") == Some(&Value::Bool(true)) {
        warnings.push(format!(
            "`{key}`: `asyncRewake` becomes `async = true`; waking the model on exit 2 is lost"
        ));
    }
    let timeout = match h.get("timeout") {
        None => None,
        Some(t) => match t.as_f64().filter(|s| *s > 0.0) {
            Some(s) => Some(s),
            None => {
                warnings.push(format!("`{key}`: `timeout` {t} is not a positive number of seconds (Claude Code drops the handler): not converted"));
                return None;
            }
        },
    };
    let args = h.get("args").and_then(Value::as_array).map(|a| {
        a.iter()
            .filter_map(|v| v.as_str().map(str::to_owned))
            .collect()
    });
    let builtin = command.and_then(builtin_of);
    let headers = h.get("headers").and_then(Value::as_object).map(|m| {
        m.iter()
            .filter_map(|(k, v)| Some((k.clone(), toml::Value::String(v.as_str()?.to_owned()))))
            .collect()
    });
    let allowed_env_vars = h.get("allowedEnvVars").and_then(Value::as_array).map(|a| {
        a.iter()
            .filter_map(|v| v.as_str().map(str::to_owned))
            .collect()
    });
    Some(TomlHook {
        prompt: prompt.map(str::to_owned),
        agent: agent.map(str::to_owned),
        mcp_tool,
        model: text("model").map(str::to_owned),
        continue_on_block: (h.get("continueOnBlock") == Some(&Value::Bool(true))).then_some(true),
        http: url.map(str::to_owned),
        headers,
        allowed_env_vars,
        builtin: builtin.as_ref().map(|b| b.0.clone()),
        mode: builtin.as_ref().and_then(|b| b.2.clone()),
        options: builtin.as_ref().and_then(|b| b.1.clone()),
        name: h
            .get("statusMessage")
            .and_then(Value::as_str)
            .map(str::to_owned),
        event: event.to_owned(),
        matcher,
        command: command.filter(|_| builtin.is_none()).map(str::to_owned),
        args,
        timeout: timeout.map(|t| match whole(t) {
            Some(i) => toml::Value::Integer(i),
            None => toml::Value::Float(t),
        }),
        on_failure: (h.get("onFailure").and_then(Value::as_str) == Some("block"))
            .then_some("block"),
        is_async: h.get("async") == Some(&Value::Bool(true))
            || h.get("asyncRewake") == Some(&Value::Bool(true)),
        if_rule: h.get("if").and_then(Value::as_str).map(str::to_owned),
    })
}

/// hookrun TOML → Claude Code settings JSON. The TOML is loaded (and so
/// validated) first; `[defaults]` are written into every hook.
///
/// # Errors
/// The TOML is not a valid hookrun config.
pub(crate) fn toml_to_claude(path: &std::path::Path) -> Result<Converted, String> {
    toml_to_claude_shape(path, &crate::config::ShapeRules::CLAUDE)
}

/// hookrun TOML → a hooks file of Claude Code's shape for an agent that
/// reads it by `rules` (Codex's `hooks.json`): only the events it fires,
/// no handler it skips, no timeout over its cap.
///
/// # Errors
/// The TOML is not a valid hookrun config.
pub(crate) fn toml_to_claude_shape(
    path: &std::path::Path,
    rules: &crate::config::ShapeRules,
) -> Result<Converted, String> {
    let agent = rules.agent;
    let options = crate::config::LoadOptions {
        explicit: false,
        default_fail_mode: crate::config::FailMode::Open,
        format: None,
        foreign: super::readers::HOOKS_FILES,
    };
    let config = crate::config::load(&[path.to_owned()], options).map_err(|e| e.to_string())?;
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let mut warnings = Vec::new();
    if text.lines().any(|l| l.trim_start().starts_with("[limits]")) {
        warnings.push("`[limits]` has no Claude Code equivalent: not converted".into());
    }
    for server in &config.mcp_servers {
        warnings.push(format!(
            "`[mcp_servers.{}]`: Claude Code reads MCP servers from its own MCP config (`.mcp.json`, `claude mcp add`), not its settings: not converted",
            server.name
        ));
    }
    let mut events: Map<String, Value> = Map::new();
    for hook in &config.hooks {
        let mut h = Map::new();
        match &hook.action {
            crate::config::Action::Command { command, args } => {
                h.insert("type".into(), "command".into());
                h.insert("command".into(), command.clone().into());
                if let Some(a) = args {
                    h.insert("args".into(), json!(a));
                }
            }
            // A built-in becomes `hookrun builtin NAME`, which runs the same
            // rules as an ordinary command hook.
            crate::config::Action::Builtin(b) => {
                h.insert("type".into(), "command".into());
                h.insert("command".into(), builtin_line(b).into());
            }
            crate::config::Action::Http {
                url,
                headers,
                allowed_env_vars,
            } => {
                h.insert("type".into(), "http".into());
                h.insert("url".into(), url.clone().into());
                if !headers.is_empty() {
                    let headers: Map<String, Value> = headers
                        .iter()
                        .map(|(k, v)| (k.clone(), Value::String(v.clone())))
                        .collect();
                    h.insert("headers".into(), Value::Object(headers));
                }
                if !allowed_env_vars.is_empty() {
                    h.insert("allowedEnvVars".into(), json!(allowed_env_vars));
                }
            }
            crate::config::Action::Prompt {
                prompt,
                model,
                provider,
                continue_on_block,
            } => {
                h.insert("type".into(), "prompt".into());
                h.insert("prompt".into(), prompt.clone().into());
                if let Some(m) = model {
                    h.insert("model".into(), m.clone().into());
                }
                if *continue_on_block {
                    h.insert("continueOnBlock".into(), Value::Bool(true));
                }
                if *provider != crate::config::Provider::Anthropic {
                    warnings.push(format!(
                        "`{}`: `provider = \"{}\"` cannot be expressed in Claude Code settings (its prompt hooks ask Claude Code's own model): not converted",
                        hook.origin.key,
                        provider.name()
                    ));
                    continue;
                }
            }
            crate::config::Action::Agent { prompt, model } => {
                h.insert("type".into(), "agent".into());
                h.insert("prompt".into(), prompt.clone().into());
                if let Some(m) = model {
                    h.insert("model".into(), m.clone().into());
                }
            }
            crate::config::Action::McpTool {
                server,
                tool,
                input,
            } => {
                h.insert("type".into(), "mcp_tool".into());
                h.insert("server".into(), server.clone().into());
                h.insert("tool".into(), tool.clone().into());
                if !input.is_empty() {
                    h.insert("input".into(), Value::Object(input.clone()));
                }
            }
            crate::config::Action::Unsupported { kind } => {
                warnings.push(format!(
                    "`{}`: a {kind} cannot be expressed: not converted",
                    hook.origin.key
                ));
                continue;
            }
        }
        if !hook.env.is_empty() {
            warnings.push(format!(
                "`{}`: `env` ({}) cannot be expressed in Claude Code settings: not converted",
                hook.origin.key,
                list(hook.env.iter().map(|(k, _)| k.as_str()))
            ));
        }
        if let Some(t) = hook.timeout {
            let secs = t.as_secs_f64();
            h.insert(
                "timeout".into(),
                whole(secs).map_or_else(|| json!(secs), |i| json!(i)),
            );
        }
        let kind = h
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned();
        if hook.is_async {
            h.insert("async".into(), Value::Bool(true));
        }
        if hook.fail_mode == crate::config::FailMode::Closed {
            h.insert("onFailure".into(), "block".into());
        }
        if let Some(r) = &hook.if_rule {
            h.insert("if".into(), r.clone().into());
        }
        if let Some(n) = &hook.name {
            h.insert("statusMessage".into(), n.clone().into());
        }
        for event in &hook.events {
            if !(rules.fires)(event) {
                warnings.push(format!(
                    "`{}`: `{event}` is not an event {agent} knows (it would drop the key): not converted",
                    hook.origin.key
                ));
                continue;
            }
            if (rules.skips)(&kind, event) {
                warnings.push(format!(
                    "`{}`: {agent} skips a `{kind}` hook on {event}: not converted",
                    hook.origin.key
                ));
                continue;
            }
            let mut h = h.clone();
            if let (Some(cap), Some(t)) = ((rules.timeout_cap)(event), hook.timeout)
                && t.as_secs_f64() > cap
            {
                warnings.push(format!(
                    "`{}`: {agent} gives a hook on {event} at most {cap} s: `timeout` written as {cap}",
                    hook.origin.key
                ));
                h.insert(
                    "timeout".into(),
                    whole(cap).map_or_else(|| json!(cap), |i| json!(i)),
                );
            }
            let groups = events
                .entry(event.clone())
                .or_insert_with(|| Value::Array(Vec::new()));
            let Value::Array(groups) = groups else {
                continue;
            };
            let matcher = hook.matcher.as_ref().map(|m| m.pattern().to_owned());
            // Consecutive hooks with the same matcher share a group.
            let same = groups
                .last_mut()
                .filter(|g| g.get("matcher").and_then(Value::as_str) == matcher.as_deref());
            match same {
                Some(Value::Object(g)) => {
                    if let Some(Value::Array(list)) = g.get_mut("hooks") {
                        list.push(Value::Object(h.clone()));
                    }
                }
                _ => {
                    let mut g = Map::new();
                    if let Some(m) = matcher {
                        g.insert("matcher".into(), m.into());
                    }
                    g.insert("hooks".into(), json!([h.clone()]));
                    groups.push(Value::Object(g));
                }
            }
        }
    }
    let doc = json!({ "hooks": events });
    Ok(Converted {
        text: serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n",
        warnings,
    })
}

/// A built-in as the command line that runs the same rules with the same
/// options and mode: `hookrun builtin NAME [--options JSON] [--mode warn]`,
/// for agents whose hooks are shell commands.
#[must_use]
pub(crate) fn builtin_line(b: &crate::builtin::Builtin) -> String {
    let mut line = format!("hookrun builtin {}", b.name);
    if b.options.as_object().is_some_and(|o| !o.is_empty()) {
        line.push_str(&format!(
            " --options {}",
            hookrun_sh::word::quoted(&b.options.to_string())
        ));
    }
    if b.mode == crate::builtin::Mode::Warn {
        line.push_str(" --mode warn");
    }
    line
}

/// An exec-form hook (`command` + `args`, no shell) as one shell command
/// line with the same words: each word quoted where the shell would
/// otherwise split, expand or glob it.
#[must_use]
pub(crate) fn exec_line(command: &str, args: &[String]) -> String {
    std::iter::once(command)
        .chain(args.iter().map(String::as_str))
        .map(hookrun_sh::word::word)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Seconds as an integer when they are whole, so `10` stays `10`, not `10.0`.
fn whole(secs: f64) -> Option<i64> {
    #[allow(clippy::cast_possible_truncation)]
    (secs.fract() == 0.0 && secs.abs() < 1e15).then_some(secs as i64)
}

fn list<'a>(items: impl Iterator<Item = &'a str>) -> String {
    items
        .map(|i| format!("`{i}`"))
        .collect::<Vec<_>>()
        .join(", ")
}
