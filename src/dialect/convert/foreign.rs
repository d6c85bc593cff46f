//! Gemini CLI's, Cursor's and Copilot's hook files read into the hooks of
//! hookrun's model (`config::Foreign`, which config validates as it does a
//! TOML file's), each with the JSON key it came from; and those hooks
//! written as hookrun TOML for `convert`.
//!
//! Units are converted, not copied: Gemini counts timeouts in
//! **milliseconds** (copying Claude Code's seconds into Gemini's field is a
//! known bug of converters elsewhere), Cursor, Copilot and hookrun in
//! seconds. A hook without a timeout gets its agent's default (Gemini 60 s,
//! Copilot 30 s), not Claude Code's 600 s.

use serde_json::Value;

use crate::agent::Dialect;
use crate::config::{Foreign, ForeignAction, ForeignHook, Skipped};

fn toml_string(s: &str) -> String {
    toml::Value::String(s.to_owned()).to_string()
}

fn secs(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v}")
    }
}

/// An agent's event names, its own → hookrun's.
fn events_of(agent: Dialect) -> &'static [(&'static str, &'static str)] {
    match agent {
        Dialect::Gemini => crate::dialect::gemini::events::EVENTS,
        Dialect::Copilot => crate::dialect::copilot::events::EVENTS,
        _ => crate::dialect::cursor::events::EVENTS,
    }
}

/// The matcher a Cursor event implies (its tool-specific events).
fn implied_matcher(agent: Dialect, event: &str) -> Option<&'static str> {
    if agent != Dialect::Cursor {
        return None;
    }
    match event {
        "beforeShellExecution" | "afterShellExecution" => Some("Shell"),
        "beforeReadFile" => Some("Read"),
        "afterFileEdit" => Some("Edit"),
        _ => None,
    }
}

/// Whether the agent runs a handler of this non-command `type`: Cursor's
/// and Copilot CLI's `prompt` hooks, which ask the agent's own model (out
/// of hookrun's reach).
fn runs_kind(agent: Dialect, kind: &str) -> bool {
    matches!(agent, Dialect::Cursor | Dialect::Copilot) && kind == "prompt"
}

/// The agent as its users name it ("Copilot CLI").
fn display_name(agent: Dialect) -> &'static str {
    crate::agent::Agent::of(agent).map_or(agent.as_str(), |a| crate::dialect::setup(a).name)
}

/// The shell command of one handler: Gemini's and Cursor's `command`,
/// Copilot's `bash` (run in its `cwd` when it names one); `Err` says why
/// there is none.
fn command_of(agent: Dialect, h: &Value) -> Result<String, String> {
    if agent != Dialect::Copilot {
        return h
            .get("command")
            .and_then(Value::as_str)
            .map(str::to_owned)
            .ok_or_else(|| "no `command`: not converted".to_owned());
    }
    let Some(bash) = h.get("bash").and_then(Value::as_str) else {
        return Err(if h.get("powershell").is_some() {
            "only a `powershell` command, and hookrun runs hooks' `bash` commands here: not converted".to_owned()
        } else {
            "no `bash` command: not converted".to_owned()
        });
    };
    Ok(match h.get("cwd").and_then(Value::as_str) {
        Some(dir) if !dir.is_empty() => {
            format!("cd {} && {bash}", hookrun_sh::word::quoted(dir))
        }
        _ => bash.to_owned(),
    })
}

/// The hooks of an agent's file, with the JSON key of each.
pub(super) fn read_hooks(root: &Value, agent: Dialect) -> Result<Foreign, String> {
    let empty = serde_json::Map::new();
    let hooks = match root.get("hooks") {
        None | Some(Value::Null) => &empty,
        Some(Value::Object(hooks)) => hooks,
        Some(_) => return Err("`hooks` is not an object keyed by event name".to_owned()),
    };
    let gemini = agent == Dialect::Gemini;
    let mut file = Foreign {
        agent,
        // Gemini matches tool names with an unanchored regex.
        regex_matchers: gemini,
        sequential: Vec::new(),
        hooks: Vec::new(),
        skipped: Vec::new(),
    };
    let mut skip = |key: String, why: String, unknown_event: bool| {
        file.skipped.push(Skipped {
            key,
            why,
            unknown_event,
        });
    };
    let table = events_of(agent);
    for (event, entries) in hooks {
        let mapped = table.iter().find(|(theirs, _)| theirs == event);
        if mapped.is_none() && crate::events::info(event).is_none() {
            skip(
                format!("hooks.{event}"),
                format!(
                    "unknown {} event `{event}`: skipped, as {} skips it",
                    agent.as_str(),
                    agent.as_str()
                ),
                true,
            );
            continue;
        }
        let model = mapped.map_or(event.as_str(), |(_, m)| m);
        for (gi, group) in entries.as_array().into_iter().flatten().enumerate() {
            // Gemini nests handlers in groups; Cursor and Copilot list
            // handlers directly.
            let (matcher, handlers): (Option<&str>, Vec<&Value>) = if gemini {
                if group.get("sequential") == Some(&Value::Bool(true)) {
                    file.sequential.push(model.to_owned());
                }
                (
                    group.get("matcher").and_then(Value::as_str),
                    group
                        .get("hooks")
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                        .collect(),
                )
            } else {
                (group.get("matcher").and_then(Value::as_str), vec![group])
            };
            for (hi, h) in handlers.into_iter().enumerate() {
                let key = if gemini {
                    format!("hooks.{event}[{gi}].hooks[{hi}]")
                } else {
                    format!("hooks.{event}[{gi}]")
                };
                let kind = h.get("type").and_then(Value::as_str);
                let action = match kind.filter(|t| *t != "command") {
                    Some(t) if runs_kind(agent, t) => {
                        ForeignAction::Unsupported(format!("{} {t} hook", display_name(agent)))
                    }
                    Some(t) => {
                        skip(
                            key,
                            format!(
                                "a `{t}` hook cannot be expressed in hookrun TOML: not converted"
                            ),
                            false,
                        );
                        continue;
                    }
                    None => match command_of(agent, h) {
                        // `hookrun builtin NAME --options …` is the built-in again.
                        Ok(command) => match super::builtin_cmd::builtin_of(&command) {
                            Some((name, options, mode)) => ForeignAction::Builtin {
                                name,
                                options,
                                mode,
                            },
                            None => ForeignAction::Command(command),
                        },
                        Err(why) => {
                            skip(key, why, false);
                            continue;
                        }
                    },
                };
                let timeout = match agent {
                    Dialect::Gemini => h
                        .get("timeout")
                        .and_then(Value::as_f64)
                        .map(|ms| ms / 1000.0)
                        .or(Some(60.0)),
                    Dialect::Copilot => h.get("timeoutSec").and_then(Value::as_f64).or(Some(30.0)),
                    _ => h.get("timeout").and_then(Value::as_f64),
                };
                let env = h
                    .get("env")
                    .and_then(Value::as_object)
                    .into_iter()
                    .flatten()
                    .filter_map(|(k, v)| v.as_str().map(|v| (k.clone(), v.to_owned())))
                    .collect();
                file.hooks.push(ForeignHook {
                    key,
                    name: h.get("name").and_then(Value::as_str).map(str::to_owned),
                    event: model.to_owned(),
                    matcher: matcher
                        .filter(|m| !m.is_empty())
                        .or(implied_matcher(agent, event))
                        .map(str::to_owned),
                    action,
                    timeout,
                    fail_closed: h.get("failClosed") == Some(&Value::Bool(true)),
                    env,
                });
            }
        }
    }
    file.sequential.dedup();
    Ok(file)
}

/// The hooks of an agent's file written as hookrun TOML (`convert`).
pub(super) fn to_toml(file: &Foreign) -> String {
    let mut out = format!(
        "# Converted from a {} hooks config by `hookrun convert`.\n",
        file.agent.as_str()
    );
    if file.regex_matchers {
        out.push_str("\n[defaults]\nmatcher_syntax = \"regex\"\n");
    }
    for e in &file.sequential {
        out.push_str(&format!("\n[events.{e}]\norder = \"sequential\"\n"));
    }
    for h in &file.hooks {
        if matches!(h.action, ForeignAction::Unsupported(_)) {
            continue;
        }
        out.push_str("\n[[hooks]]\n");
        if let Some(n) = &h.name {
            out.push_str(&format!("name = {}\n", toml_string(n)));
        }
        out.push_str(&format!("event = {}\n", toml_string(&h.event)));
        if let Some(m) = &h.matcher {
            out.push_str(&format!("matcher = {}\n", toml_string(m)));
        }
        match &h.action {
            ForeignAction::Builtin {
                name,
                options,
                mode,
            } => {
                out.push_str(&format!("builtin = {}\n", toml_string(name)));
                if let Some(m) = mode {
                    out.push_str(&format!("mode = {}\n", toml_string(m)));
                }
                if let Some(o) = options {
                    out.push_str(&format!("options = {o}\n"));
                }
            }
            ForeignAction::Command(command) => {
                out.push_str(&format!("command = {}\n", toml_string(command)));
            }
            ForeignAction::Unsupported(_) => {}
        }
        if let Some(t) = h.timeout {
            out.push_str(&format!("timeout = {}\n", secs(t)));
        }
        if h.fail_closed {
            out.push_str("fail_mode = \"closed\"\n");
        }
        if !h.env.is_empty() {
            let pairs: Vec<String> = h
                .env
                .iter()
                .map(|(k, v)| format!("{} = {}", toml_string(k), toml_string(v)))
                .collect();
            out.push_str(&format!("env = {{ {} }}\n", pairs.join(", ")));
        }
        // The script expects its own agent's payload and answers (a
        // built-in reads hookrun's model).
        if matches!(h.action, ForeignAction::Command(_)) {
            out.push_str(&format!("input = \"{}\"\n", file.agent.as_str()));
        }
    }
    out
}
