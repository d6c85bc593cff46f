//! One handler object of Claude Code settings: validated by Claude Code's
//! rules into a hook, or a coded problem.

use serde_json::Value;

use super::entry::{Ctx, Problem, opt_bool, opt_str, wrong_type};
use crate::config::model::{
    Action, FailMode, Hook, Origin, dedup_key, looks_like_millis, timeout_from_secs,
};
use crate::diagnostic::Code;
use crate::error::line_col;
use crate::matcher::Matcher;
use crate::wording::kind_of;

impl Ctx<'_> {
    pub(super) fn parse_handler(
        &mut self,
        event: &str,
        matcher: Option<&str>,
        handler: &Value,
        key: &str,
    ) -> Result<Hook, Problem> {
        let Value::Object(h) = handler else {
            return Err((
                Code::WrongShape,
                format!("is {}, not a handler object", kind_of(handler)),
            ));
        };
        let kind = match h.get("type") {
            Some(Value::String(t)) => t.as_str(),
            Some(other) => return Err(wrong_type("type", other, "a string")),
            None => return Err((Code::UnknownHandlerType, "has no `type`".to_owned())),
        };
        let known = crate::config::readers::ShapeRules::CLAUDE
            .kinds
            .contains(&kind);
        if known && !self.rules.kinds.contains(&kind) {
            return Err((
                Code::UnknownHandlerType,
                format!(
                    "has handler type \"{kind}\", which {} does not run",
                    self.rules.agent
                ),
            ));
        }
        let timeout = match h.get("timeout") {
            None => None,
            Some(t) if self.rules.legacy_millis => self.legacy_timeout(t, key),
            Some(Value::Number(n)) => {
                let secs = n.as_f64().unwrap_or(0.0);
                let t = timeout_from_secs(secs).ok_or_else(|| {
                    (
                        Code::BadTimeout,
                        format!("has `timeout` {n}, which is not a positive number of seconds"),
                    )
                })?;
                if looks_like_millis(secs) {
                    let d = self.diag(
                        Code::MillisTimeout,
                        &format!("{key}.timeout"),
                        format!("`timeout` is {n} seconds; that looks like milliseconds (Claude Code counts seconds)"),
                    );
                    self.warnings.push(d.fix(format!(
                        "write `{}` for {} seconds",
                        secs / 1000.0,
                        secs / 1000.0
                    )));
                }
                Some(t)
            }
            Some(other) => {
                return Err((
                    Code::BadTimeout,
                    format!(
                        "has a `timeout` that is {}, not a number of seconds",
                        kind_of(other)
                    ),
                ));
            }
        };
        let timeout = self.capped_timeout(event, timeout, key);
        let if_rule = opt_str(h, "if")?;
        let fail_mode = if self.rules.fail_mode_key {
            match opt_str(h, "failMode")?.as_deref() {
                None | Some("open") => None,
                Some("closed") => Some(FailMode::Closed),
                Some(other) => {
                    return Err((
                        Code::WrongType,
                        format!("has `failMode` \"{other}\", expected \"open\" or \"closed\""),
                    ));
                }
            }
        } else {
            match opt_str(h, "onFailure")?.as_deref() {
                None | Some("continue") => None,
                Some("block") => Some(FailMode::Closed),
                Some(other) => {
                    return Err((
                        Code::WrongType,
                        format!("has `onFailure` \"{other}\", expected \"continue\" or \"block\""),
                    ));
                }
            }
        };
        let is_async = opt_bool(h, "async")? || opt_bool(h, "asyncRewake")?;
        let shell = opt_str(h, "shell")?;
        let (action, detail) = match kind {
            "command" => {
                let command = match h.get("command") {
                    Some(Value::String(c)) if !c.trim().is_empty() => c.clone(),
                    Some(Value::String(_)) => {
                        return Err((Code::MissingCommand, "has an empty `command`".to_owned()));
                    }
                    Some(other) => return Err(wrong_type("command", other, "a string")),
                    None => {
                        return Err((
                            Code::MissingCommand,
                            "is a command handler without `command`".to_owned(),
                        ));
                    }
                };
                let args = match h.get("args") {
                    None => None,
                    Some(Value::Array(a)) => Some(
                        a.iter()
                            .map(|v| v.as_str().map(str::to_owned))
                            .collect::<Option<Vec<_>>>()
                            .ok_or_else(|| {
                                (
                                    Code::WrongType,
                                    "has `args` that are not all strings".to_owned(),
                                )
                            })?,
                    ),
                    Some(other) => return Err(wrong_type("args", other, "a list of strings")),
                };
                match shell.as_deref() {
                    None | Some("bash") => (Action::Command { command, args }, String::new()),
                    Some("powershell") => (
                        Action::Unsupported {
                            kind: "powershell command".to_owned(),
                        },
                        command,
                    ),
                    Some(other) => {
                        return Err((
                            Code::WrongType,
                            format!("has `shell` \"{other}\", expected \"bash\" or \"powershell\""),
                        ));
                    }
                }
            }
            "http" => (http_action(h)?, String::new()),
            "prompt" => (
                Action::Prompt {
                    prompt: prompt_of(h, kind)?,
                    model: opt_str(h, "model")?,
                    provider: self.rules.prompt_provider,
                    continue_on_block: opt_bool(h, "continueOnBlock")?,
                },
                String::new(),
            ),
            "agent" => (
                Action::Agent {
                    prompt: prompt_of(h, kind)?,
                    model: opt_str(h, "model")?,
                },
                String::new(),
            ),
            "mcp_tool" => (mcp_tool_action(h)?, String::new()),
            other => {
                return Err((
                    Code::UnknownHandlerType,
                    format!("has unknown handler type \"{other}\""),
                ));
            }
        };
        let dedup_key = dedup_key(
            &action,
            shell.as_deref(),
            if_rule.as_deref(),
            self.plugin_root.as_deref(),
            &[],
            &detail,
        );
        let mut env = self
            .plugin_root
            .as_ref()
            .map(|root| vec![("CLAUDE_PLUGIN_ROOT".to_owned(), root.display().to_string())])
            .unwrap_or_default();
        if self.rules.handler_env {
            env.extend(handler_env(h)?);
        }
        let at = crate::config::json_locate::locate(self.text, key).map(|o| line_col(self.text, o));
        Ok(Hook {
            name: None,
            events: vec![event.to_owned()],
            matcher: self.matcher_of(event, matcher),
            action,
            timeout,
            fail_mode: fail_mode.unwrap_or(self.options.default_fail_mode),
            fail_mode_from_on_failure: fail_mode.is_some(),
            fail_mode_explicit: fail_mode.is_some() || self.options.explicit,
            input: None,
            is_async,
            env,
            if_rule,
            origin: Origin {
                file: self.path.to_owned(),
                key: key.to_owned(),
                line_col: at,
                plugin_root: self.plugin_root.clone(),
                policy: self.policy,
                untrusted: false,
            },
            dedup_key,
        })
    }
}

/// A handler's `env`: an object of strings, set for its command.
fn handler_env(h: &serde_json::Map<String, Value>) -> Result<Vec<(String, String)>, Problem> {
    match h.get("env") {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Object(m)) => m
            .iter()
            .map(|(k, v)| v.as_str().map(|v| (k.clone(), v.to_owned())))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| {
                (
                    Code::WrongType,
                    "has `env` whose values are not all strings".to_owned(),
                )
            }),
        Some(other) => Err(wrong_type("env", other, "an object of strings")),
    }
}

impl Ctx<'_> {
    /// A group's matcher, read as the file's agent reads it.
    fn matcher_of(&self, event: &str, matcher: Option<&str>) -> Option<Matcher> {
        let m = matcher?;
        match self.rules.matcher {
            None => Some(Matcher::new(m)),
            Some(translate) => {
                let tool_event = crate::events::known(event).is_some_and(|i| i.tool_event);
                let regex = translate(tool_event, m);
                (!regex.is_empty())
                    .then(|| Matcher::with_syntax(&regex, crate::matcher::Syntax::Regex))
            }
        }
    }

    /// A `timeout` read the legacy way (Qwen Code's): a number, or a
    /// numeric string, of seconds, and of milliseconds from 1000 on; one
    /// that is not positive gives the agent's default, with a warning.
    fn legacy_timeout(&mut self, t: &Value, key: &str) -> Option<std::time::Duration> {
        let n = match t {
            Value::Number(n) => n.as_f64(),
            Value::String(s) => s.trim().parse::<f64>().ok(),
            _ => None,
        };
        match n {
            Some(n) if n.is_finite() && n >= 1000.0 => Some(std::time::Duration::from_secs_f64(
                n.min(2_147_483_647.0) / 1000.0,
            )),
            Some(n) if n.is_finite() && n > 0.0 => timeout_from_secs(n),
            _ => {
                let d = self.diag(
                    Code::BadTimeout,
                    &format!("{key}.timeout"),
                    format!(
                        "`timeout` {t} is not a positive number; {} gives the hook its default timeout, and so does hookrun",
                        self.rules.agent
                    ),
                );
                self.warnings
                    .push(d.fix("`timeout` counts seconds (from 1000 on, milliseconds)"));
                None
            }
        }
    }
}

/// An `http` handler's action: `url` (http or https), `headers` (strings),
/// `allowedEnvVars` (names).
fn http_action(h: &serde_json::Map<String, Value>) -> Result<Action, Problem> {
    let url = match h.get("url") {
        Some(Value::String(u)) => u.clone(),
        Some(other) => return Err(wrong_type("url", other, "a string")),
        None => {
            return Err((
                Code::MissingCommand,
                "is an http handler without `url`".to_owned(),
            ));
        }
    };
    if let Err(why) = crate::config::model::check_url(&url) {
        return Err((Code::WrongType, format!("has `url` {url:?}: {why}")));
    }
    let headers = match h.get("headers") {
        None => Vec::new(),
        Some(Value::Object(m)) => m
            .iter()
            .map(|(k, v)| v.as_str().map(|v| (k.clone(), v.to_owned())))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| {
                (
                    Code::WrongType,
                    "has `headers` whose values are not all strings".to_owned(),
                )
            })?,
        Some(other) => return Err(wrong_type("headers", other, "an object of strings")),
    };
    let allowed_env_vars = match h.get("allowedEnvVars") {
        None => Vec::new(),
        Some(Value::Array(a)) => a
            .iter()
            .map(|v| v.as_str().map(str::to_owned))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| {
                (
                    Code::WrongType,
                    "has `allowedEnvVars` that are not all strings".to_owned(),
                )
            })?,
        Some(other) => return Err(wrong_type("allowedEnvVars", other, "a list of strings")),
    };
    Ok(Action::Http {
        url,
        headers,
        allowed_env_vars,
    })
}

/// A `prompt` or `agent` handler's `prompt`: a string with text in it.
fn prompt_of(h: &serde_json::Map<String, Value>, kind: &str) -> Result<String, Problem> {
    match h.get("prompt") {
        Some(Value::String(p)) if !p.trim().is_empty() => Ok(p.clone()),
        Some(Value::String(_)) => Err((Code::MissingCommand, "has an empty `prompt`".to_owned())),
        Some(other) => Err(wrong_type("prompt", other, "a string")),
        None => Err((
            Code::MissingCommand,
            format!("is a {kind} handler without `prompt`"),
        )),
    }
}

/// An `mcp_tool` handler's action: `server` and `tool` (strings), `input`
/// (an object).
fn mcp_tool_action(h: &serde_json::Map<String, Value>) -> Result<Action, Problem> {
    let name = |key: &str| match h.get(key) {
        Some(Value::String(v)) if !v.trim().is_empty() => Ok(v.clone()),
        Some(Value::String(_)) => Err((Code::MissingCommand, format!("has an empty `{key}`"))),
        Some(other) => Err(wrong_type(key, other, "a string")),
        None => Err((
            Code::MissingCommand,
            format!("is an mcp_tool handler without `{key}`"),
        )),
    };
    let server = name("server")?;
    let tool = name("tool")?;
    let input = match h.get("input") {
        None | Some(Value::Null) => serde_json::Map::new(),
        Some(Value::Object(m)) => m.clone(),
        Some(other) => return Err(wrong_type("input", other, "an object")),
    };
    Ok(Action::McpTool {
        server,
        tool,
        input,
    })
}

impl Ctx<'_> {
    /// A timeout cut to what the agent gives a hook on `event` (Codex's
    /// 3 s on SessionEnd and Interrupt), said as the agent says it.
    fn capped_timeout(
        &mut self,
        event: &str,
        timeout: Option<std::time::Duration>,
        key: &str,
    ) -> Option<std::time::Duration> {
        let Some(cap) = (self.rules.timeout_cap)(event) else {
            return timeout;
        };
        let cap_d = std::time::Duration::from_secs_f64(cap);
        match timeout {
            Some(t) if t > cap_d => {
                let d = self.diag(
                    Code::TimeoutCapped,
                    &format!("{key}.timeout"),
                    format!(
                        "`timeout` is {} s, and {} gives a hook on {event} at most {cap} s: read as {cap} s, as {} does",
                        t.as_secs_f64(),
                        self.rules.agent,
                        self.rules.agent
                    ),
                );
                self.warnings
                    .push(d.fix(format!("write `\"timeout\": {cap}` or less")));
                Some(cap_d)
            }
            t => t,
        }
    }
}
