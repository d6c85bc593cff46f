//! A hooks file of Claude Code's shape that its agent reads by rules of its
//! own (Qwen Code's millisecond timeouts, handler `env`, `failMode`,
//! sequential groups and tool aliases; Codex's skipped handler kinds and
//! capped timeouts) → hookrun TOML, by way of the model: the file is
//! loaded exactly as `run` loads it (`--config-format`), and the hooks it
//! gives are written out, so that the TOML means what the agent's own
//! reading meant. What the model keeps and TOML cannot say is warned.

use std::path::Path;

use serde::Serialize;

use crate::agent::Dialect;
use crate::config::{Action, Config, FailMode};
use crate::dialect::protocol::Converted;

#[derive(Debug, Serialize)]
struct Doc {
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    events: std::collections::BTreeMap<String, toml::Table>,
    hooks: Vec<toml::Table>,
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    mcp_servers: std::collections::BTreeMap<String, toml::Table>,
}

/// The hooks of `path`, read as `agent` reads it, as hookrun TOML.
///
/// # Errors
/// The file cannot be loaded as `agent`'s.
pub(crate) fn to_toml(path: &Path, agent: Dialect) -> Result<Converted, String> {
    let options = crate::config::LoadOptions {
        explicit: false,
        default_fail_mode: FailMode::Open,
        format: Some(agent),
        foreign: super::readers::HOOKS_FILES,
    };
    let config = crate::config::load(&[path.to_owned()], options).map_err(|e| e.to_string())?;
    let mut warnings: Vec<String> = config
        .notices
        .iter()
        .chain(&config.warnings)
        .map(|d| match &d.key {
            Some(key) => format!("`{key}`: {}", d.message),
            None => d.message.clone(),
        })
        .collect();
    let doc = Doc {
        events: config
            .order_by_event
            .iter()
            .filter(|(_, o)| *o == crate::config::Order::Sequential)
            .map(|(e, _)| {
                let mut t = toml::Table::new();
                t.insert("order".into(), "sequential".into());
                (e.clone(), t)
            })
            .collect(),
        hooks: hooks(&config, &mut warnings),
        mcp_servers: servers(&config, &mut warnings),
    };
    let text = toml::to_string(&doc).map_err(|e| e.to_string())?;
    let name = crate::dialect::protocol(agent).shape_rules().agent;
    Ok(Converted {
        text: format!("# Converted from {name} settings by `hookrun convert`.\n\n{text}"),
        warnings,
    })
}

fn hooks(config: &Config, warnings: &mut Vec<String>) -> Vec<toml::Table> {
    let mut out = Vec::new();
    for h in &config.hooks {
        let mut t = toml::Table::new();
        if let Some(n) = &h.name {
            t.insert("name".into(), n.clone().into());
        }
        match h.events.as_slice() {
            [one] => t.insert("event".into(), one.clone().into()),
            many => t.insert("event".into(), many.to_vec().into()),
        };
        if let Some(m) = &h.matcher {
            t.insert("matcher".into(), m.pattern().into());
            if m.syntax() == crate::matcher::Syntax::Regex {
                t.insert("matcher_syntax".into(), "regex".into());
            }
        }
        if !action(&h.action, &mut t) {
            warnings.push(format!(
                "`{}`: {} cannot be written in hookrun TOML: not converted",
                h.origin.key,
                h.action.kind_phrase()
            ));
            continue;
        }
        if let Some(d) = h.timeout {
            let secs = d.as_secs_f64();
            t.insert(
                "timeout".into(),
                if secs.fract() == 0.0 {
                    toml::Value::Integer(secs as i64)
                } else {
                    toml::Value::Float(secs)
                },
            );
        }
        if h.fail_mode == FailMode::Closed {
            t.insert("fail_mode".into(), "closed".into());
        }
        if h.is_async {
            t.insert("async".into(), true.into());
        }
        if let Some(rule) = &h.if_rule {
            t.insert("if".into(), rule.clone().into());
        }
        if !h.env.is_empty() {
            let env: toml::Table = h
                .env
                .iter()
                .map(|(k, v)| (k.clone(), v.clone().into()))
                .collect();
            t.insert("env".into(), env.into());
        }
        out.push(t);
    }
    out
}

/// The agent's own MCP servers that the hooks name (Codex's
/// `[mcp_servers]`), so that the TOML reaches the same ones: how to start
/// or reach each. Their `env` and headers are not copied (they often hold
/// credentials, and the TOML may be shared): each left out is warned.
fn servers(
    config: &Config,
    warnings: &mut Vec<String>,
) -> std::collections::BTreeMap<String, toml::Table> {
    let named: Vec<&str> = config
        .hooks
        .iter()
        .filter_map(|h| match &h.action {
            Action::McpTool { server, .. } => Some(server.as_str()),
            _ => None,
        })
        .collect();
    let mut out = std::collections::BTreeMap::new();
    for s in config
        .mcp_servers
        .iter()
        .filter(|s| named.contains(&s.name.as_str()))
    {
        let mut t = toml::Table::new();
        let kept_out: Vec<&str> = match &s.transport {
            crate::config::McpTransport::Stdio { command, args, env } => {
                t.insert("command".into(), command.clone().into());
                if !args.is_empty() {
                    let args = args.iter().map(|a| toml::Value::from(a.clone())).collect();
                    t.insert("args".into(), toml::Value::Array(args));
                }
                env.iter().map(|(k, _)| k.as_str()).collect()
            }
            crate::config::McpTransport::Http { url, headers } => {
                t.insert("url".into(), url.clone().into());
                headers.iter().map(|(k, _)| k.as_str()).collect()
            }
        };
        if !kept_out.is_empty() {
            warnings.push(format!(
                "MCP server `{}` (from `{}`): {} not copied (they may hold credentials): add them to `[mcp_servers.{}]` by hand",
                s.name,
                s.file.display(),
                kept_out.join(", "),
                s.name
            ));
        }
        out.insert(s.name.clone(), t);
    }
    out
}

/// The keys of one action; `false` for one TOML cannot write.
fn action(a: &Action, t: &mut toml::Table) -> bool {
    let strings = |v: &[String]| toml::Value::Array(v.iter().map(|s| s.clone().into()).collect());
    match a {
        Action::Command { command, args } => {
            t.insert("command".into(), command.clone().into());
            if let Some(args) = args {
                t.insert("args".into(), strings(args));
            }
        }
        Action::Builtin(b) => {
            t.insert("command".into(), super::claude::builtin_line(b).into());
        }
        Action::Http {
            url,
            headers,
            allowed_env_vars,
        } => {
            t.insert("http".into(), url.clone().into());
            if !headers.is_empty() {
                let h: toml::Table = headers
                    .iter()
                    .map(|(k, v)| (k.clone(), v.clone().into()))
                    .collect();
                t.insert("headers".into(), h.into());
            }
            if !allowed_env_vars.is_empty() {
                t.insert("allowed_env_vars".into(), strings(allowed_env_vars));
            }
        }
        Action::Prompt {
            prompt,
            model,
            provider,
            continue_on_block,
        } => {
            t.insert("prompt".into(), prompt.clone().into());
            if let Some(m) = model {
                t.insert("model".into(), m.clone().into());
            }
            t.insert("provider".into(), provider.name().into());
            if *continue_on_block {
                t.insert("continue_on_block".into(), true.into());
            }
        }
        Action::Agent { prompt, model } => {
            t.insert("agent".into(), prompt.clone().into());
            if let Some(m) = model {
                t.insert("model".into(), m.clone().into());
            }
        }
        Action::McpTool {
            server,
            tool,
            input,
        } => {
            let mut call = toml::Table::new();
            call.insert("server".into(), server.clone().into());
            call.insert("tool".into(), tool.clone().into());
            if !input.is_empty() {
                match toml::Value::try_from(input) {
                    Ok(v) => {
                        call.insert("input".into(), v);
                    }
                    Err(_) => return false,
                }
            }
            t.insert("mcp_tool".into(), call.into());
        }
        Action::Unsupported { .. } => return false,
    }
    true
}
