//! Claude Code settings JSON (`settings.json`, `settings.local.json`,
//! managed settings, plugin `hooks/hooks.json`), loaded by Claude Code's own
//! rules so the outcome is the same:
//!
//! - unknown handler keys are ignored;
//! - an unknown event name drops that event's key;
//! - an invalid group or handler under an ordinary event is dropped;
//! - an invalid entry under a guard event (PreToolUse, PermissionRequest,
//!   PreSkillShellCommand) makes Claude Code ignore the whole file.
//!
//! Unlike Claude Code, nothing is dropped silently: every drop becomes a
//! coded diagnostic, which `run` shows the user (`systemMessage`, stderr)
//! and `check` reports as an error.

use std::path::{Path, PathBuf};

use serde_json::Value;

mod entry;
mod handler;
pub(crate) mod mcp;

use entry::{Ctx, Problem, wrong_type};

use super::layer::Layer;
use super::model::{LoadOptions, PluginSwitch};
use crate::diagnostic::{Code, Diagnostic};
use crate::error::{ConfigProblem, Error, Location, line_col};
use crate::wording::kind_of;

/// Events where one invalid entry invalidates the whole settings file.
pub(crate) const GUARD_EVENTS: &[&str] =
    &["PreToolUse", "PermissionRequest", "PreSkillShellCommand"];

pub(super) fn load(
    path: &Path,
    text: &str,
    options: LoadOptions,
    rules: crate::config::readers::ShapeRules,
) -> Result<Layer, Error> {
    let root: Value = serde_json::from_str(text).map_err(|e| {
        Error::Config(Box::new(ConfigProblem {
            code: Code::Syntax,
            at: Location {
                path: path.to_owned(),
                line: Some(e.line()),
                column: Some(e.column()),
            },
            key: None,
            message: format!("not valid JSON: {}", strip_position(&e)),
            fix: None,
        }))
    })?;
    let Value::Object(root) = root else {
        return Err(Error::Config(Box::new(ConfigProblem {
            code: Code::WrongShape,
            at: Location {
                path: path.to_owned(),
                line: None,
                column: None,
            },
            key: None,
            message: format!("expected a JSON object, found {}", kind_of(&root)),
            fix: None,
        })));
    };
    let mut ctx = Ctx {
        path,
        text,
        options,
        rules,
        plugin_root: plugin_root_of(path),
        policy: is_policy_file(path),
        hooks: Vec::new(),
        notices: Vec::new(),
        warnings: Vec::new(),
        guard_problem: None,
        sequential: Vec::new(),
    };
    let mut layer = Layer {
        policy: ctx.policy,
        ..Layer::default()
    };
    match root.get("disableAllHooks") {
        None => {}
        Some(Value::Bool(b)) => layer.disable_all = Some(*b),
        Some(other) => {
            let d = ctx.diag(
                Code::NotBoolean,
                "disableAllHooks",
                format!(
                    "`disableAllHooks` is {}, not a boolean; ignored",
                    kind_of(other)
                ),
            );
            ctx.notices.push(d.fix("write `true` or `false`"));
        }
    }
    layer.hookrun_plugin = hookrun_plugin(&ctx, &root);
    layer.mcp_approval = Some(mcp::Approval::of(&root));
    layer.http_urls = string_list(
        &mut ctx,
        &root,
        "allowedHttpHookUrls",
        "no http hook may run",
    );
    layer.http_env_vars = string_list(
        &mut ctx,
        &root,
        "httpHookAllowedEnvVars",
        "no variable may be filled into an http hook's headers",
    );
    match root.get("hooks") {
        None | Some(Value::Null) => {}
        Some(Value::Object(hooks)) => {
            for (event, groups) in hooks {
                ctx.load_event(event, groups);
            }
        }
        Some(other) => {
            let d = ctx.diag(
                Code::WrongShape,
                "hooks",
                format!(
                    "`hooks` is {}, not an object keyed by event name; Claude Code ignores this file, so hookrun does too",
                    kind_of(other)
                ),
            );
            ctx.notices.push(d.fix(
                "write `\"hooks\": {\"PreToolUse\": [{\"matcher\": \"Bash\", \"hooks\": [...]}]}`",
            ));
            ctx.guard_problem.get_or_insert_with(|| "hooks".to_owned());
        }
    }
    layer.mcp_servers = agent_mcp_servers(&ctx);
    if let Some(key) = ctx.guard_problem.take() {
        // Claude Code ignores the whole file: its hooks and its switches.
        if key != "hooks" {
            let d = ctx.diag(
                Code::GuardFileIgnored,
                &key,
                format!(
                    "`{key}` is invalid, and one invalid entry under a guard event (PreToolUse, PermissionRequest) makes Claude Code ignore this whole file, so hookrun ignores it too"
                ),
            );
            ctx.notices.push(
                d.fix("fix the entry: until then no hook and no setting of this file applies"),
            );
        }
        ctx.hooks.clear();
        layer.disable_all = None;
        layer.hookrun_plugin = None;
    }
    layer.order_by_event = ctx
        .sequential
        .into_iter()
        .map(|e| (e, crate::config::model::Order::Sequential))
        .collect();
    layer.hooks = ctx.hooks;
    layer.notices = ctx.notices;
    layer.warnings = ctx.warnings;
    Ok(layer)
}

/// The `enabledPlugins` entry of hookrun's Claude Code plugin, whatever
/// marketplace it came from: `check` warns when hookrun is also registered
/// in settings (each event would run it twice).
fn hookrun_plugin(ctx: &Ctx, root: &serde_json::Map<String, Value>) -> Option<PluginSwitch> {
    let Some(Value::Object(plugins)) = root.get("enabledPlugins") else {
        return None;
    };
    let (id, value) = plugins.iter().rfind(|(id, _)| {
        id.split_once('@')
            .is_some_and(|(name, _)| name == "hookrun")
    })?;
    let key = format!("enabledPlugins.{id}");
    let at = crate::config::json_locate::locate(ctx.text, &key).map(|o| line_col(ctx.text, o));
    Some(PluginSwitch {
        enabled: value == &Value::Bool(true),
        file: ctx.path.to_owned(),
        key,
        line_col: at,
    })
}

/// serde_json's message without its trailing " at line L column C".
fn strip_position(e: &serde_json::Error) -> String {
    let full = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    full.strip_suffix(&suffix).unwrap_or(&full).to_owned()
}

impl Ctx<'_> {
    /// A diagnostic for the entry at `key`, with its line and column.
    fn diag(&self, code: Code, key: &str, message: impl Into<String>) -> Diagnostic {
        let at = crate::config::json_locate::locate(self.text, key).map(|o| line_col(self.text, o));
        Diagnostic::new(code, self.path, message).at(at).key(key)
    }

    fn load_event(&mut self, event: &str, groups: &Value) {
        let key = format!("hooks.{event}");
        if !(self.rules.fires)(event) {
            let mut d = self.diag(
                Code::UnknownEvent,
                &key,
                format!(
                    "unknown event `{event}`; {} drops it, so hookrun does too",
                    self.rules.agent
                ),
            );
            if let Some(near) = crate::events::nearest(event) {
                d = d.fix(format!("did you mean `{near}`?"));
            }
            self.notices.push(d);
            return;
        }
        let guard = self.rules.guard_voids_file && GUARD_EVENTS.contains(&event);
        let Value::Array(groups) = groups else {
            let why = format!("is {}, not a list of matcher groups", kind_of(groups));
            self.drop_entry(guard, &key, (Code::WrongShape, why));
            return;
        };
        for (gi, group) in groups.iter().enumerate() {
            let gkey = format!("{key}[{gi}]");
            let (matcher, handlers) = match parse_group(group) {
                Ok(g) => g,
                Err(problem) => {
                    self.drop_entry(guard, &gkey, problem);
                    continue;
                }
            };
            // One sequential group makes the whole event sequential.
            if self.rules.sequential_groups
                && group.get("sequential") == Some(&Value::Bool(true))
                && !self.sequential.iter().any(|e| e == event)
            {
                self.sequential.push(event.to_owned());
            }
            for (hi, handler) in handlers.iter().enumerate() {
                let hkey = format!("{gkey}.hooks[{hi}]");
                if let Some(kind) = handler.get("type").and_then(Value::as_str)
                    && (self.rules.skips)(kind, event)
                {
                    let d = self.diag(
                        Code::Unsupported,
                        &hkey,
                        format!(
                            "a `{kind}` hook, which {} skips on {event}; so does hookrun",
                            self.rules.agent
                        ),
                    );
                    self.notices.push(d);
                    continue;
                }
                match self.parse_handler(event, matcher, handler, &hkey) {
                    Ok(hook) => self.hooks.push(hook),
                    Err(problem) => self.drop_entry(guard, &hkey, problem),
                }
            }
        }
    }

    /// Records an invalid entry: dropped under an ordinary event, the whole
    /// file ignored under a guard event.
    fn drop_entry(&mut self, guard: bool, key: &str, (code, why): Problem) {
        let consequence = if guard {
            String::new()
        } else {
            format!("; entry dropped ({} drops it too)", self.rules.agent)
        };
        let d = self.diag(code, key, format!("`{key}` {why}{consequence}"));
        let d = match code {
            Code::BadTimeout => {
                d.fix("`timeout` is a positive number of seconds, e.g. `\"timeout\": 30`")
            }
            Code::MissingCommand => d.fix("add `\"command\": \"...\"`"),
            Code::UnknownHandlerType => d.fix(format!(
                "`type` is one of {}",
                self.rules
                    .kinds
                    .iter()
                    .map(|k| format!("\"{k}\""))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            _ => d,
        };
        self.notices.push(d);
        if guard {
            self.guard_problem.get_or_insert_with(|| key.to_owned());
        }
    }
}

fn parse_group(group: &Value) -> Result<(Option<&str>, &Vec<Value>), Problem> {
    let Value::Object(g) = group else {
        let hint = if group.get("type").is_some() {
            " (a handler must sit in a group's `hooks` list)"
        } else {
            ""
        };
        return Err((
            Code::WrongShape,
            format!("is {}, not a matcher group object{hint}", kind_of(group)),
        ));
    };
    let matcher = match g.get("matcher") {
        None | Some(Value::Null) => None,
        Some(Value::String(m)) => Some(m.as_str()),
        Some(other) => return Err(wrong_type("matcher", other, "a string")),
    };
    match g.get("hooks") {
        Some(Value::Array(h)) => Ok((matcher, h)),
        Some(other) => Err(wrong_type("hooks", other, "a list of handlers")),
        None if g.contains_key("type") || g.contains_key("command") => Err((
            Code::WrongShape,
            "is a handler outside a group's `hooks` list; Claude Code expects `{\"matcher\": ..., \"hooks\": [handler]}`".to_owned(),
        )),
        None => Err((Code::WrongShape, "has no `hooks` list".to_owned())),
    }
}

/// A plugin's hooks live in `<plugin root>/hooks/hooks.json`.
fn plugin_root_of(path: &Path) -> Option<PathBuf> {
    let dir = path.parent()?;
    (path.file_name()? == "hooks.json" && dir.file_name()? == "hooks")
        .then(|| dir.parent().map(Path::to_owned))
        .flatten()
}

/// The agent's own MCP servers that the file's `mcp_tool` hooks name
/// (none read for a file without such hooks).
fn agent_mcp_servers(ctx: &Ctx<'_>) -> Vec<crate::config::model::McpServer> {
    let named: Vec<&str> = ctx
        .hooks
        .iter()
        .filter_map(|h| match &h.action {
            super::model::Action::McpTool { server, .. } => Some(server.as_str()),
            _ => None,
        })
        .collect();
    if named.is_empty() {
        return Vec::new();
    }
    let Some(project) = super::discover::project_dir() else {
        return Vec::new();
    };
    (ctx.rules.mcp_servers)(&project, &crate::dirs::Homes::from_env())
        .into_iter()
        .filter(|s| named.contains(&s.name.as_str()))
        .collect()
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

/// A settings list of strings (`allowedHttpHookUrls`, ...); one that is not
/// a list of strings is read as Claude Code reads it, as an empty list
/// (`empty_means`), and said.
fn string_list(
    ctx: &mut Ctx<'_>,
    root: &serde_json::Map<String, Value>,
    key: &str,
    empty_means: &str,
) -> Option<Vec<String>> {
    let value = root.get(key)?;
    let list = value.as_array().and_then(|a| {
        a.iter()
            .map(|v| v.as_str().map(str::to_owned))
            .collect::<Option<Vec<_>>>()
    });
    if list.is_none() {
        let d = ctx.diag(
            Code::WrongType,
            key,
            format!(
                "`{key}` is {}, not a list of strings; read as an empty list: {empty_means}",
                kind_of(value)
            ),
        );
        ctx.notices.push(d.fix("write a list of strings"));
    }
    Some(list.unwrap_or_default())
}
