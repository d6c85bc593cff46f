//! The validated hook configuration: what every wire format loads into and
//! what the rest of hookrun reads.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::diagnostic::Diagnostic;
use crate::matcher::Matcher;

/// What a failing hook (timeout, crash, bad answer) means for the decision.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    serde::Deserialize,
    serde::Serialize,
    clap::ValueEnum,
    schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum FailMode {
    /// The failure is reported and gives no decision (Claude Code's default).
    Open,
    /// The failure blocks, with a reason naming the hook and what went wrong.
    Closed,
}

/// What a hook runs: its handler kind, which `pipeline::handler` turns
/// into how it runs.
#[derive(Debug, Clone)]
pub enum Action {
    /// `/bin/sh -c command`, or, with `args`, `command` exec'd with `args`.
    Command {
        command: String,
        args: Option<Vec<String>>,
    },
    /// The event POSTed to `url` (`pipeline::http`); `headers` with their
    /// `$VAR`s filled in only from `allowed_env_vars`.
    Http {
        url: String,
        headers: Vec<(String, String)>,
        allowed_env_vars: Vec<String>,
    },
    /// A model judges the event (`pipeline::judge`): one request with
    /// `prompt` (its `$ARGUMENTS` replaced by the event), answered by a
    /// verdict `{ok, reason}`.
    Prompt {
        prompt: String,
        model: Option<String>,
        provider: Provider,
        /// Claude Code's `continueOnBlock`: a block does not end the turn.
        continue_on_block: bool,
    },
    /// A sub-agent with read-only tools judges the event, through the
    /// Claude Code CLI (`pipeline::judge`), answered by a verdict.
    Agent {
        prompt: String,
        model: Option<String>,
    },
    /// A tool of an MCP server (`pipeline::mcp`), with `input`'s
    /// `${path}` strings filled from the event; a JSON answer reads as a
    /// command's JSON stdout.
    McpTool {
        server: String,
        tool: String,
        input: serde_json::Map<String, serde_json::Value>,
    },
    /// A handler hookrun does not run (a PowerShell command): reported and
    /// skipped.
    Unsupported { kind: String },
    /// A built-in hook, run in-process.
    Builtin(std::sync::Arc<crate::builtin::Builtin>),
}

impl Action {
    /// The handler type, as configs name it (`command`, `builtin`,
    /// `http`, `prompt`, `agent`, `mcp_tool`; `unsupported` for one
    /// hookrun does not run).
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            Action::Command { .. } => "command",
            Action::Http { .. } => "http",
            Action::Prompt { .. } => "prompt",
            Action::Agent { .. } => "agent",
            Action::McpTool { .. } => "mcp_tool",
            Action::Unsupported { .. } => "unsupported",
            Action::Builtin(_) => "builtin",
        }
    }

    /// What Claude Code adds to an `onFailure: "block"` reason of this kind
    /// (the model reads it): for an MCP tool, that nobody in the session
    /// should work around the server.
    #[must_use]
    pub fn on_failure_note(&self) -> Option<&'static str> {
        match self {
            Action::McpTool { .. } => Some(
                " and the hook got no usable answer from its MCP server. The user needs to fix the cause (in a session, /mcp shows the server's state) or ask whoever manages the hook; Claude should not change the hook or work around it.",
            ),
            _ => None,
        }
    }

    /// The kind of handler in a sentence's words ("an http hook").
    #[must_use]
    pub fn kind_phrase(&self) -> &'static str {
        match self {
            Action::Command { .. } => "a command hook",
            Action::Builtin(_) => "a built-in hook",
            Action::Http { .. } => "an http hook",
            Action::Prompt { .. } => "a prompt hook",
            Action::Agent { .. } => "an agent hook",
            Action::McpTool { .. } => "an mcp_tool hook",
            Action::Unsupported { .. } => "a handler hookrun does not run",
        }
    }
}

pub(crate) use super::provider::Provider;

/// An http hook's header value with each `$VAR` and `${VAR}` replaced by
/// `fill(VAR)`; a `$` that names nothing stays. The one reading of the
/// header syntax: the request fills the allowed variables in, `check`
/// names the others.
pub(crate) fn fill_header_vars(value: &str, fill: &mut dyn FnMut(&str) -> String) -> String {
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let (name, tail) = if let Some(braced) = after.strip_prefix('{') {
            match braced.find('}') {
                Some(end) => (&braced[..end], &braced[end + 1..]),
                None => ("", after),
            }
        } else if after.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
            let end = after
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(after.len());
            (&after[..end], &after[end..])
        } else {
            ("", after)
        };
        if name.is_empty() {
            out.push('$');
            rest = after;
            continue;
        }
        out.push_str(&fill(name));
        rest = tail;
    }
    out.push_str(rest);
    out
}

/// Claude Code's settings on http hooks, merged across its settings files:
/// `allowedHttpHookUrls` (URL patterns, `*` a wildcard) and
/// `httpHookAllowedEnvVars` (the variables any http hook's headers may
/// read). A list no file sets restricts nothing; lists merge. Where
/// managed settings set none, the others' do not apply to managed hooks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HttpPolicy {
    pub urls: Option<Vec<String>>,
    pub urls_managed: bool,
    pub env_vars: Option<Vec<String>>,
    pub env_vars_managed: bool,
}

impl HttpPolicy {
    /// Whether `hook` may POST to `url`.
    #[must_use]
    pub fn allows_url(&self, hook: &Hook, url: &str) -> bool {
        match &self.urls {
            Some(patterns) if self.urls_managed || !hook.origin.policy => {
                patterns.iter().any(|p| url_matches(p, url))
            }
            _ => true,
        }
    }

    /// The variables `hook`'s headers may read: its own list, cut to the
    /// settings' where they apply.
    #[must_use]
    pub fn env_vars(&self, hook: &Hook, own: &[String]) -> Vec<String> {
        match &self.env_vars {
            Some(allowed) if self.env_vars_managed || !hook.origin.policy => own
                .iter()
                .filter(|v| allowed.contains(v))
                .cloned()
                .collect(),
            _ => own.to_vec(),
        }
    }
}

/// Whether `url` matches `pattern`, whole, `*` standing for any text.
fn url_matches(pattern: &str, url: &str) -> bool {
    let mut parts = pattern.split('*');
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = url.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    let Some((last, middle)) = parts.split_last() else {
        return rest.is_empty();
    };
    for part in middle {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

pub(crate) use super::mcp_server::{McpServer, McpTransport};

/// Where a hook was configured, for reports and messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    pub file: PathBuf,
    /// The entry's path inside the file, e.g. `hooks.PreToolUse[0].hooks[1]`.
    pub key: String,
    /// The entry's line and column, where known.
    pub line_col: Option<(usize, usize)>,
    /// Set for hooks of a plugin's `hooks/hooks.json`.
    pub plugin_root: Option<PathBuf>,
    /// Hooks from managed (policy) settings survive a non-policy `disableAllHooks`.
    pub policy: bool,
    /// From a project file found by discovery and not on the user's trust
    /// list: its answers may only add guards (`config::untrusted`).
    pub untrusted: bool,
}

/// One validated hook.
#[derive(Debug, Clone)]
pub struct Hook {
    pub name: Option<String>,
    /// Canonical event names (`pre_tool_use` is stored as `PreToolUse`).
    pub events: Vec<String>,
    pub matcher: Option<Matcher>,
    pub action: Action,
    /// `None`: the event's default timeout.
    pub timeout: Option<Duration>,
    pub fail_mode: FailMode,
    /// The fail mode came from Claude Code's `onFailure`, which Claude Code
    /// ignores on Stop, SubagentStop, TaskCompleted and TeammateIdle.
    pub fail_mode_from_on_failure: bool,
    /// The fail mode was set (hook, `[defaults]`, `onFailure` or
    /// `--fail-mode`), so it overrides a dialect's own failure rules.
    pub fail_mode_explicit: bool,
    /// The dialect this hook speaks; `None`: the caller's.
    pub input: Option<crate::agent::Dialect>,
    pub is_async: bool,
    pub env: Vec<(String, String)>,
    pub if_rule: Option<String>,
    pub origin: Origin,
    /// Claude Code's dedup key: identical keys run once, at the first one's
    /// position with the last one's settings.
    pub dedup_key: String,
}

impl Hook {
    /// A finding about this hook, at its place in its file.
    #[must_use]
    pub fn diagnostic(
        &self,
        code: crate::diagnostic::Code,
        message: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic::new(code, &self.origin.file, message)
            .at(self.origin.line_col)
            .key(&self.origin.key)
    }

    /// The label Claude Code prints for a hook: the command as written (exec
    /// form: command and args joined with spaces), or the handler type.
    #[must_use]
    pub fn label(&self) -> String {
        match &self.action {
            Action::Command {
                command,
                args: None,
            } => command.clone(),
            Action::Command {
                command,
                args: Some(args),
            } => std::iter::once(command.as_str())
                .chain(args.iter().map(String::as_str))
                .collect::<Vec<_>>()
                .join(" "),
            Action::Http { url, .. } => url.clone(),
            Action::Prompt { prompt, .. } | Action::Agent { prompt, .. } => prompt.clone(),
            Action::McpTool { server, tool, .. } => format!("{server}/{tool}"),
            Action::Unsupported { kind } => format!("{kind} hook"),
            Action::Builtin(b) => b.name.to_owned(),
        }
    }

    /// The name shown in reports and failure reasons: `name` when set, else
    /// the label.
    #[must_use]
    pub fn display_name(&self) -> String {
        self.name.clone().unwrap_or_else(|| self.label())
    }

    /// Whether this hook runs `hookrun run` itself: a registration of
    /// hookrun in an agent's settings (`run` skips those it finds in
    /// Claude Code's layers; running one would recurse).
    #[must_use]
    pub fn runs_hookrun(&self) -> bool {
        let label = self.label();
        let mut words = label.split_whitespace();
        let program = words.next().unwrap_or("");
        program.rsplit('/').next() == Some("hookrun") && words.next() == Some("run")
    }

    /// Whether this hook is configured for an event (canonical name).
    #[must_use]
    pub fn listens_to(&self, event: &str) -> bool {
        self.events.iter().any(|e| e == event)
    }
}

/// Resource limits, settable in TOML `[limits]` and on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest event accepted on stdin.
    pub max_event_bytes: usize,
    /// Bytes of each hook's stdout and stderr kept; the rest is drained.
    pub max_output_bytes: usize,
    /// How long to wait for a hook's pipes to close after it exits, before
    /// its process group is killed as a leak.
    pub leak_grace: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_event_bytes: 64 * 1024 * 1024,
            max_output_bytes: 1024 * 1024,
            leak_grace: Duration::from_millis(500),
        }
    }
}

/// The loaded, layered configuration.
#[derive(Debug, Clone, Default)]
pub struct Config {
    /// Every hook of every layer, in merge order.
    pub hooks: Vec<Hook>,
    /// Load-time problems that change what runs (dropped entries, ignored
    /// files): shown to the user in `systemMessage` and on stderr.
    pub notices: Vec<Diagnostic>,
    /// Lints that change nothing (e.g. a timeout that looks like
    /// milliseconds): stderr only.
    pub warnings: Vec<Diagnostic>,
    pub limits: Limits,
    /// The files read, in order.
    pub files: Vec<PathBuf>,
    /// Those of `files` read as untrusted project files.
    pub untrusted_files: Vec<PathBuf>,
    /// Whether any hook, or the default, fails closed (a broken event then
    /// blocks instead of erroring).
    pub any_closed: bool,
    /// Every hook was turned off on purpose (`disableAllHooks` /
    /// `disable_all_hooks`); an empty config is otherwise reported.
    pub off: bool,
    /// `[defaults] audit_log` of the last file that sets it.
    pub audit_log: Option<PathBuf>,
    /// `[defaults] audit_key_file` of the last file that sets it: audit
    /// lines are then sealed with HMAC-SHA256 under its key.
    pub audit_key_file: Option<PathBuf>,
    /// `[telemetry]` as the trusted layers set it, key by key.
    pub(crate) telemetry: Option<super::telemetry_table::TelemetryTable>,
    /// hookrun's own files (config, trust list, audit files, agent
    /// settings), which `protect-paths` keeps the tool from writing.
    pub own_files: super::own_files::OwnFiles,
    /// `[defaults] order`, and `[events.NAME] order` per event.
    pub order: Order,
    pub order_by_event: Vec<(String, Order)>,
    /// Claude Code's settings on http hooks.
    pub http_policy: HttpPolicy,
    /// The MCP servers `mcp_tool` hooks may call, by name (a later layer's
    /// server of the same name replaces an earlier one's).
    pub mcp_servers: Vec<McpServer>,
    /// hookrun's Claude Code plugin in `enabledPlugins`, as the last
    /// settings file that names it sets it (Claude Code's precedence is the
    /// layering order).
    pub hookrun_plugin: Option<PluginSwitch>,
    /// hookrun's own failures: the config could not be fully evaluated.
    /// The layers (the user's own files, or a trusted project file) that
    /// were missing or invalid; the other layers are loaded all the same,
    /// so that what they say (their denies, their `fail_mode = "closed"`)
    /// holds, and `run` answers these on top (`session::handle`).
    pub unreadable: Vec<Unreadable>,
    /// The files whose hooks were left out because the event's agent runs
    /// them itself (`install::agent_own`): a config left without hooks by
    /// that still guards the event, through the agent.
    pub left_to_agent: Vec<PathBuf>,
    /// What was said about `left_to_agent`: on hookrun's stderr and in
    /// `explain`, never in the agent's answer (a `systemMessage` on every
    /// event would be something the agent, running its hooks alone, never
    /// shows).
    pub quiet_notices: Vec<crate::diagnostic::Diagnostic>,
}

/// A layer that could not be loaded, and why.
#[derive(Debug, Clone)]
pub struct Unreadable {
    pub path: PathBuf,
    /// Shared so that the config stays cheap to clone (`serve` keeps one).
    pub error: std::sync::Arc<crate::error::Error>,
}

impl Config {
    /// The config, or the first layer's error when a layer could not be
    /// loaded: for the commands that show or convert a config, where a
    /// partial one would mislead.
    ///
    /// # Errors
    /// The error of the first layer that could not be loaded.
    pub fn complete(mut self) -> Result<Config, crate::error::Error> {
        if self.unreadable.is_empty() {
            return Ok(self);
        }
        let first = self.unreadable.swap_remove(0);
        Err(std::sync::Arc::try_unwrap(first.error)
            .unwrap_or_else(|shared| crate::error::Error::Internal(shared.to_string())))
    }
}

/// A settings file's `enabledPlugins` entry for hookrun's Claude Code
/// plugin (`hookrun@<marketplace>`): where it is and whether it enables it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PluginSwitch {
    /// Only `true` enables a plugin (a list of versions leaves it off).
    pub enabled: bool,
    pub file: PathBuf,
    /// e.g. `enabledPlugins.hookrun@hookrun`.
    pub key: String,
    pub line_col: Option<(usize, usize)>,
}

/// How the hooks of one event run.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Default,
    serde::Deserialize,
    serde::Serialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Order {
    /// All at once; answers merged in config order (Claude Code).
    #[default]
    Parallel,
    /// One after another in config order; a pre-tool deny stops the chain;
    /// each hook sees the input (or output) as rewritten before it
    /// (pydantic-deep).
    Sequential,
    /// One after another; the first hook that answers anything decides
    /// (deputy).
    FirstAnswer,
}

impl Config {
    /// What the built-in guards are told besides the event: the project
    /// directory and hookrun's own files.
    #[must_use]
    pub fn guard_context<'a>(&'a self, project: &'a Path) -> hookrun_guards::Context<'a> {
        hookrun_guards::Context::new(project, crate::clock::now_rfc3339).with_own(&self.own_files)
    }

    /// The order of an event's hooks.
    #[must_use]
    pub fn order_of(&self, event: &str) -> Order {
        self.order_by_event
            .iter()
            .rev()
            .find(|(e, _)| e == event)
            .map_or(self.order, |(_, o)| *o)
    }
}

/// Options that come from the command line rather than from a file.
#[derive(Debug, Clone, Copy)]
pub struct LoadOptions {
    /// `--fail-mode` was given.
    pub explicit: bool,
    /// The fail mode of hooks whose file cannot say it (Claude JSON), and the
    /// default of TOML files without `[defaults] fail_mode`.
    pub default_fail_mode: FailMode,
    /// `--config-format`: the agent whose format the JSON config files are
    /// in, where path and content cannot say it; `None`: detected.
    pub format: Option<crate::agent::Dialect>,
    /// The readers of other agents' hooks files (`dialect::HOOKS_FILES`):
    /// each agent's format is its dialect's knowledge, above config.
    pub foreign: &'static dyn super::readers::ForeignFiles,
}

/// Validates a timeout in seconds: positive and finite, capped like Claude
/// Code's `min(timeout * 1000, 2^31 - 1)` ms.
pub(super) fn timeout_from_secs(secs: f64) -> Option<Duration> {
    if !secs.is_finite() || secs <= 0.0 {
        return None;
    }
    Some(Duration::from_secs_f64(secs.min(2_147_483.647)))
}

/// Why a timeout is refused.
pub(super) fn positive_msg(secs: f64) -> String {
    format!("timeout {secs} is not a positive number of seconds")
}

/// A seconds value this large was most likely meant as milliseconds.
pub(super) fn looks_like_millis(secs: f64) -> bool {
    secs >= 1000.0
}

/// Whether `url` is one an http hook can POST to: absolute, `http` or
/// `https`, with a host; `Err` says what is wrong.
///
/// # Errors
/// The URL is not one hookrun can send a request to.
pub(crate) fn check_url(url: &str) -> Result<(), String> {
    let Some((scheme, rest)) = url.split_once("://") else {
        return Err("not an absolute URL (`https://host/path`)".to_owned());
    };
    if !matches!(scheme.to_ascii_lowercase().as_str(), "http" | "https") {
        return Err(format!("the scheme `{scheme}` is not http or https"));
    }
    let host = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host = host.rsplit_once('@').map_or(host, |(_, h)| h);
    if host.is_empty() || host.starts_with(':') {
        return Err("no host".to_owned());
    }
    if url.chars().any(char::is_whitespace) {
        return Err("it contains whitespace".to_owned());
    }
    Ok(())
}

/// Claude Code's dedup key (plugin root, shell, command, args, `if`), plus
/// the environment, which changes what a TOML hook does.
pub(super) fn dedup_key(
    action: &Action,
    shell: Option<&str>,
    if_rule: Option<&str>,
    plugin_root: Option<&Path>,
    env: &[(String, String)],
    detail: &str,
) -> String {
    let root = plugin_root
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    match action {
        Action::Command { command, args } => {
            let args = serde_json::to_string(args).unwrap_or_default();
            let env = serde_json::to_string(env).unwrap_or_default();
            format!(
                "hook{root}\0command\0{}\0{command}\0{args}\0{}\0{env}",
                shell.unwrap_or("bash"),
                if_rule.unwrap_or("")
            )
        }
        // Claude Code's: the URL and `if`.
        Action::Http { url, .. } => format!("http\0{url}\0{}", if_rule.unwrap_or("")),
        // Claude Code's: the prompt and `if` (kept apart by kind).
        Action::Prompt { prompt, .. } => format!("prompt\0{prompt}\0{}", if_rule.unwrap_or("")),
        Action::Agent { prompt, .. } => format!("agent\0{prompt}\0{}", if_rule.unwrap_or("")),
        // Claude Code's: server, tool, the input as JSON, and `if`.
        Action::McpTool {
            server,
            tool,
            input,
        } => format!(
            "mcp_tool\0{server}\0{tool}\0{}\0{}",
            serde_json::Value::Object(input.clone()),
            if_rule.unwrap_or("")
        ),
        Action::Unsupported { kind } => {
            format!("{kind}{root}\0{detail}\0{}", if_rule.unwrap_or(""))
        }
        Action::Builtin(b) => format!(
            "builtin\0{}\0{}\0{:?}\0{}",
            b.name,
            b.options,
            b.mode,
            if_rule.unwrap_or("")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::url_matches;

    #[test]
    fn url_patterns_match_whole_urls_with_star_for_any_text() {
        assert!(url_matches(
            "https://hooks.example.com/*",
            "https://hooks.example.com/a/b"
        ));
        assert!(url_matches(
            "https://hooks.example.com/*",
            "https://hooks.example.com/"
        ));
        assert!(!url_matches(
            "https://hooks.example.com/*",
            "https://hooks.example.com.evil/x"
        ));
        assert!(url_matches(
            "http://127.0.0.1:*/allow",
            "http://127.0.0.1:8080/allow"
        ));
        assert!(!url_matches(
            "http://127.0.0.1:*/allow",
            "http://127.0.0.1:8080/allow/more"
        ));
        assert!(url_matches("https://a.example/x", "https://a.example/x"));
        assert!(!url_matches("https://a.example/x", "https://a.example/xy"));
        assert!(url_matches("*", "anything"));
    }
}
