//! Claude Code settings JSON (`settings.json`, `settings.local.json`,
//! managed settings, plugin `hooks/hooks.json`), loaded by Claude Code's own
//! rules (spec 1.3) so the outcome is the same:
//!
//! - unknown handler keys are ignored;
//! - an unknown event name drops that event's key;
//! - an invalid group or handler under an ordinary event is dropped;
//! - an invalid entry under a guard event (PreToolUse, PermissionRequest,
//!   PreSkillShellCommand) makes Claude Code ignore the whole file.
//!
//! Unlike Claude Code, nothing is dropped silently: every drop becomes a
//! notice that reaches the user (`systemMessage`) and stderr.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::{
    Action, FailMode, Hook, Layer, LoadOptions, Origin, dedup_key, looks_like_millis,
    timeout_from_secs,
};
use crate::error::{Error, Location};
use crate::matcher::Matcher;

/// Events where one invalid entry invalidates the whole settings file.
const GUARD_EVENTS: &[&str] = &["PreToolUse", "PermissionRequest", "PreSkillShellCommand"];

/// Handler types Claude Code knows; all but `command` are skipped by hookrun.
const OTHER_TYPES: &[&str] = &["prompt", "agent", "http", "mcp_tool"];

pub(super) fn load(path: &Path, text: &str, options: LoadOptions) -> Result<Layer, Error> {
    let root: Value = serde_json::from_str(text).map_err(|e| Error::Config {
        at: Location {
            path: path.to_owned(),
            line: Some(e.line()),
            column: Some(e.column()),
        },
        key: None,
        message: format!("not valid JSON: {e}"),
    })?;
    let mut layer = Layer {
        policy: is_policy_file(path),
        ..Layer::default()
    };
    let Value::Object(root) = root else {
        return Err(Error::Config {
            at: Location {
                path: path.to_owned(),
                line: None,
                column: None,
            },
            key: None,
            message: format!("expected a JSON object, found {}", kind_of(&root)),
        });
    };
    let file = path.display();
    match root.get("disableAllHooks") {
        None => {}
        Some(Value::Bool(b)) => layer.disable_all = Some(*b),
        Some(other) => layer.notices.push(format!(
            "{file}: `disableAllHooks` is {}, not a boolean; ignored",
            kind_of(other)
        )),
    }
    let plugin_root = plugin_root_of(path);
    let hooks = match root.get("hooks") {
        None | Some(Value::Null) => return Ok(layer),
        Some(Value::Object(h)) => h,
        Some(other) => {
            layer.notices.push(format!(
                "{file}: `hooks` is {}, not an object keyed by event name; Claude Code ignores this file, so hookrun does too",
                kind_of(other)
            ));
            layer.disable_all = None;
            return Ok(layer);
        }
    };
    let mut ctx = Ctx {
        path,
        text,
        options,
        plugin_root,
        policy: layer.policy,
        hooks: Vec::new(),
        notices: Vec::new(),
        warnings: Vec::new(),
    };
    for (event, groups) in hooks {
        if crate::events::info(event).is_none() {
            ctx.notices.push(format!(
                "{}: unknown event `hooks.{event}` dropped (Claude Code drops it too)",
                ctx.at(&format!("hooks.{event}"))
            ));
            continue;
        }
        if let Err((key, problem)) = ctx.load_event(event, groups) {
            // A bad entry under a guard event: Claude Code ignores the file.
            layer.notices.push(format!(
                "{}: {problem}; an invalid entry under `{event}` makes Claude Code ignore this whole file, so hookrun ignores it too",
                ctx.at(&key)
            ));
            layer.notices.extend(ctx.notices);
            layer.warnings.extend(ctx.warnings);
            layer.disable_all = None;
            return Ok(layer);
        }
    }
    layer.hooks = ctx.hooks;
    layer.notices.extend(ctx.notices);
    layer.warnings.extend(ctx.warnings);
    Ok(layer)
}

struct Ctx<'a> {
    path: &'a Path,
    text: &'a str,
    options: LoadOptions,
    plugin_root: Option<PathBuf>,
    policy: bool,
    hooks: Vec<Hook>,
    notices: Vec<String>,
    warnings: Vec<String>,
}

impl Ctx<'_> {
    /// Loads one event's groups. `Err` only for a bad entry under a guard
    /// event; under other events bad entries are dropped with a notice.
    fn load_event(&mut self, event: &str, groups: &Value) -> Result<(), (String, String)> {
        let guard = GUARD_EVENTS.contains(&event);
        let Value::Array(groups) = groups else {
            let why = format!("is {}, not a list of matcher groups", kind_of(groups));
            return self.drop_or_fail(guard, &format!("hooks.{event}"), &why);
        };
        for (gi, group) in groups.iter().enumerate() {
            let key = format!("hooks.{event}[{gi}]");
            let (matcher, handlers) = match parse_group(group) {
                Ok(g) => g,
                Err(why) => {
                    self.drop_or_fail(guard, &key, &why)?;
                    continue;
                }
            };
            for (hi, handler) in handlers.iter().enumerate() {
                let hkey = format!("{key}.hooks[{hi}]");
                match self.parse_handler(event, matcher, handler, &hkey) {
                    Ok(hook) => self.hooks.push(hook),
                    Err(why) => self.drop_or_fail(guard, &hkey, &why)?,
                }
            }
        }
        Ok(())
    }

    fn drop_or_fail(&mut self, guard: bool, key: &str, why: &str) -> Result<(), (String, String)> {
        let problem = format!("`{key}` {why}");
        if guard {
            return Err((key.to_owned(), problem));
        }
        self.notices.push(format!(
            "{}: {problem}; entry dropped (Claude Code drops it too)",
            self.at(key)
        ));
        Ok(())
    }

    /// `file:line:column` of an entry, or just the file when it cannot be found.
    fn at(&self, key: &str) -> String {
        match super::json_locate::locate(self.text, key) {
            Some(offset) => {
                let (line, column) = crate::error::line_col(self.text, offset);
                format!("{}:{line}:{column}", self.path.display())
            }
            None => self.path.display().to_string(),
        }
    }

    fn parse_handler(
        &mut self,
        event: &str,
        matcher: Option<&str>,
        handler: &Value,
        key: &str,
    ) -> Result<Hook, String> {
        let Value::Object(h) = handler else {
            return Err(format!("is {}, not a handler object", kind_of(handler)));
        };
        let kind = match h.get("type") {
            Some(Value::String(t)) => t.as_str(),
            Some(other) => {
                return Err(format!(
                    "has a `type` that is {}, not a string",
                    kind_of(other)
                ));
            }
            None => return Err("has no `type`".to_owned()),
        };
        let timeout = match h.get("timeout") {
            None => None,
            Some(Value::Number(n)) => {
                let secs = n.as_f64().unwrap_or(0.0);
                let t = timeout_from_secs(secs).ok_or_else(|| {
                    format!("has `timeout` {n}, which is not a positive number of seconds")
                })?;
                if looks_like_millis(secs) {
                    self.warnings.push(format!(
                        "{}: `{key}.timeout` is {n} seconds; that looks like milliseconds (Claude Code counts seconds)",
                        self.at(&format!("{key}.timeout"))
                    ));
                }
                Some(t)
            }
            Some(other) => {
                return Err(format!(
                    "has a `timeout` that is {}, not a number of seconds",
                    kind_of(other)
                ));
            }
        };
        let if_rule = opt_str(h, "if")?;
        let on_failure = opt_str(h, "onFailure")?;
        let fail_mode = match on_failure.as_deref() {
            None | Some("continue") => None,
            Some("block") => Some(FailMode::Closed),
            Some(other) => {
                return Err(format!(
                    "has `onFailure` \"{other}\", expected \"continue\" or \"block\""
                ));
            }
        };
        let is_async = opt_bool(h, "async")? || opt_bool(h, "asyncRewake")?;
        let shell = opt_str(h, "shell")?;
        let (action, detail) = match kind {
            "command" => {
                let command = match h.get("command") {
                    Some(Value::String(c)) if !c.trim().is_empty() => c.clone(),
                    Some(Value::String(_)) => return Err("has an empty `command`".to_owned()),
                    Some(other) => {
                        return Err(format!(
                            "has a `command` that is {}, not a string",
                            kind_of(other)
                        ));
                    }
                    None => return Err("is a command handler without `command`".to_owned()),
                };
                let args = match h.get("args") {
                    None => None,
                    Some(Value::Array(a)) => Some(
                        a.iter()
                            .map(|v| v.as_str().map(str::to_owned))
                            .collect::<Option<Vec<_>>>()
                            .ok_or_else(|| "has `args` that are not all strings".to_owned())?,
                    ),
                    Some(other) => {
                        return Err(format!(
                            "has `args` that is {}, not a list of strings",
                            kind_of(other)
                        ));
                    }
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
                        return Err(format!(
                            "has `shell` \"{other}\", expected \"bash\" or \"powershell\""
                        ));
                    }
                }
            }
            k if OTHER_TYPES.contains(&k) => {
                let detail = ["prompt", "url", "server", "tool", "input"]
                    .iter()
                    .filter_map(|f| h.get(*f).map(Value::to_string))
                    .collect::<Vec<_>>()
                    .join("\0");
                (
                    Action::Unsupported {
                        kind: format!("{k} handler"),
                    },
                    detail,
                )
            }
            other => return Err(format!("has unknown handler type \"{other}\"")),
        };
        let dedup_key = dedup_key(
            &action,
            shell.as_deref(),
            if_rule.as_deref(),
            self.plugin_root.as_deref(),
            &[],
            &detail,
        );
        let env = self
            .plugin_root
            .as_ref()
            .map(|root| vec![("CLAUDE_PLUGIN_ROOT".to_owned(), root.display().to_string())])
            .unwrap_or_default();
        Ok(Hook {
            name: None,
            events: vec![event.to_owned()],
            matcher: matcher.map(Matcher::new),
            action,
            timeout,
            fail_mode: fail_mode.unwrap_or(self.options.default_fail_mode),
            fail_mode_from_on_failure: fail_mode.is_some(),
            is_async,
            env,
            if_rule,
            origin: Origin {
                file: self.path.to_owned(),
                key: key.to_owned(),
                plugin_root: self.plugin_root.clone(),
                policy: self.policy,
            },
            dedup_key,
        })
    }
}

fn parse_group(group: &Value) -> Result<(Option<&str>, &Vec<Value>), String> {
    let Value::Object(g) = group else {
        return Err(format!("is {}, not a matcher group object", kind_of(group)));
    };
    let matcher = match g.get("matcher") {
        None | Some(Value::Null) => None,
        Some(Value::String(m)) => Some(m.as_str()),
        Some(other) => {
            return Err(format!(
                "has a `matcher` that is {}, not a string",
                kind_of(other)
            ));
        }
    };
    match g.get("hooks") {
        Some(Value::Array(h)) => Ok((matcher, h)),
        Some(other) => Err(format!(
            "has `hooks` that is {}, not a list of handlers",
            kind_of(other)
        )),
        None => Err("has no `hooks` list".to_owned()),
    }
}

fn opt_str(h: &Map<String, Value>, key: &str) -> Result<Option<String>, String> {
    match h.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(format!(
            "has `{key}` that is {}, not a string",
            kind_of(other)
        )),
    }
}

fn opt_bool(h: &Map<String, Value>, key: &str) -> Result<bool, String> {
    match h.get(key) {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(other) => Err(format!(
            "has `{key}` that is {}, not a boolean",
            kind_of(other)
        )),
    }
}

/// A plugin's hooks live in `<plugin root>/hooks/hooks.json`.
fn plugin_root_of(path: &Path) -> Option<PathBuf> {
    let dir = path.parent()?;
    (path.file_name()? == "hooks.json" && dir.file_name()? == "hooks")
        .then(|| dir.parent().map(Path::to_owned))
        .flatten()
}

/// Managed settings, whose hooks only a managed `disableAllHooks` turns off.
fn is_policy_file(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|n| n == "managed-settings.json")
        || path
            .parent()
            .and_then(Path::file_name)
            .is_some_and(|d| d == "managed-settings.d")
}

/// "a string", "an array", ... for messages.
pub(crate) fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
