//! The shape of hookrun's TOML file as serde reads it and the JSON Schema
//! describes it (every key documented); `toml_file` turns it into hooks.

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

use super::layer::RawLimits;
use super::model::FailMode;

/// A hookrun hooks config (TOML). Unknown keys are errors.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "hookrun config")]
pub(super) struct RawFile {
    /// The off switch, as Claude Code's `disableAllHooks`: `true` turns
    /// every hook off on purpose (a config without hooks is otherwise
    /// reported, and blocks under `fail_mode = "closed"`).
    pub(super) disable_all_hooks: Option<bool>,
    /// Defaults for every hook of this file.
    #[serde(default)]
    pub(super) defaults: RawDefaults,
    /// Resource limits.
    pub(super) limits: Option<RawLimits>,
    /// Per-event settings, by event name.
    #[serde(default)]
    pub(super) events: std::collections::BTreeMap<String, RawEvent>,
    /// The hooks, merged in this order.
    #[serde(default)]
    #[schemars(with = "Vec<RawHook>")]
    pub(super) hooks: Vec<Spanned<RawHook>>,
    /// MCP servers the `mcp_tool` hooks of this file call, by name (a
    /// server an agent configures is found where the agent keeps it).
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, RawMcpServer>")]
    pub(super) mcp_servers: BTreeMap<String, Spanned<RawMcpServer>>,
    /// OpenTelemetry export of every event (docs/telemetry.md).
    #[schemars(with = "Option<super::telemetry_table::RawTelemetry>")]
    pub(super) telemetry: Option<Spanned<super::telemetry_table::RawTelemetry>>,
}

/// `[mcp_servers.NAME]`: a stdio server (`command`, `args`, `env`) or a
/// streamable-HTTP one (`url`, `headers`).
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawMcpServer {
    /// The program to start (stdio transport).
    pub(super) command: Option<String>,
    /// Its arguments.
    pub(super) args: Option<Vec<String>>,
    /// Extra environment variables of the server's process.
    pub(super) env: Option<BTreeMap<String, String>>,
    /// The server's URL (streamable-HTTP transport).
    pub(super) url: Option<String>,
    /// Headers sent to a streamable-HTTP server.
    pub(super) headers: Option<BTreeMap<String, String>>,
}

/// `mcp_tool = { server, tool, input }`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawMcpTool {
    /// The server's name: `[mcp_servers.NAME]`, or one the agent configures.
    pub(super) server: String,
    /// The tool to call.
    pub(super) tool: String,
    /// The tool's arguments; `${path}` in a string is filled from the
    /// event (`${tool_input.command}`).
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, serde_json::Value>")]
    pub(super) input: serde_json::Map<String, serde_json::Value>,
}

#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawDefaults {
    /// Timeout in seconds (fractions allowed) of hooks that set none; without
    /// it each event's Claude Code default applies (600 s, UserPromptSubmit 30 s, SessionEnd 1.5 s).
    #[schemars(with = "Option<f64>", range(min = 0.001))]
    pub(super) timeout: Option<Spanned<f64>>,
    /// What a failing hook means: "open" (reported, no decision) or "closed" (a block).
    pub(super) fail_mode: Option<FailMode>,
    /// Append one hash-chained JSON line per event to this file (relative
    /// to this config file).
    pub(super) audit_log: Option<String>,
    /// Seal each audit line with HMAC-SHA256 under the key in this file
    /// (relative to this config file) instead of a plain SHA-256, so that
    /// whoever cannot read the key cannot rewrite the log unnoticed.
    /// `$HOOKRUN_AUDIT_KEY_FILE` and `run --audit-key-file` override it.
    pub(super) audit_key_file: Option<String>,
    /// "parallel" (default), "sequential" or "first-answer".
    pub(super) order: Option<super::model::Order>,
    /// How matchers are read: "claude" (exact names, else a regex) or
    /// "regex" (always an unanchored regex search).
    pub(super) matcher_syntax: Option<crate::matcher::Syntax>,
}

/// `[events.NAME]`: settings of one event.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawEvent {
    /// "parallel", "sequential" or "first-answer" for this event.
    pub(super) order: Option<super::model::Order>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
pub(super) enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

/// Claude Code's `onFailure` values.
#[derive(Debug, Clone, Copy, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(super) enum OnFailure {
    Block,
    Continue,
}

/// One hook.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawHook {
    /// Shown in reports and failure reasons instead of the command.
    pub(super) name: Option<String>,
    /// One event name or a list: Claude Code names (PreToolUse, Stop, ...) or
    /// pydantic-deep's (pre_tool_use, post_tool_use, post_tool_use_failure).
    #[schemars(with = "OneOrMany")]
    pub(super) event: Spanned<OneOrMany>,
    /// Claude Code matcher: "*", "" or absent match all; names like
    /// "Bash|Edit" match exactly; anything else is an unanchored regex.
    #[schemars(with = "Option<String>")]
    pub(super) matcher: Option<Spanned<String>>,
    /// Run by /bin/sh -c; with `args`, the program to exec. Exactly one of
    /// `command`, `builtin`, `http`, `prompt`, `agent` and `mcp_tool`.
    /// ${HOOKRUN_CONFIG_DIR} is this file's absolute directory.
    #[schemars(with = "Option<String>")]
    pub(super) command: Option<Spanned<String>>,
    /// A built-in hook run in-process, by name.
    #[schemars(with = "Option<BuiltinName>")]
    pub(super) builtin: Option<Spanned<String>>,
    /// The URL the event is POSTed to as JSON; a 2xx JSON answer is read
    /// as a command's JSON stdout, anything else is the hook's failure.
    #[schemars(with = "Option<String>")]
    pub(super) http: Option<Spanned<String>>,
    /// Headers of an `http` hook; `$VAR` and `${VAR}` are filled in only
    /// for the names in `allowed_env_vars` (others become empty).
    pub(super) headers: Option<BTreeMap<String, String>>,
    /// The variables an `http` hook's headers may read.
    pub(super) allowed_env_vars: Option<Vec<String>>,
    /// A model judges the event with this prompt (`$ARGUMENTS` is the
    /// event JSON, else it is appended) and answers `{ok, reason}`;
    /// `ok = false` blocks.
    #[schemars(with = "Option<String>")]
    pub(super) prompt: Option<Spanned<String>>,
    /// A sub-agent with read-only tools (the Claude Code CLI) checks this
    /// condition and answers `{ok, reason}`; `ok = false` blocks.
    #[schemars(with = "Option<String>")]
    pub(super) agent: Option<Spanned<String>>,
    /// A tool of an MCP server; its JSON answer is read as a command's
    /// JSON stdout.
    #[schemars(with = "Option<RawMcpTool>")]
    pub(super) mcp_tool: Option<Spanned<RawMcpTool>>,
    /// The model of a `prompt` or `agent` hook; default: the agent's
    /// (`ANTHROPIC_MODEL`, `OPENAI_MODEL`).
    pub(super) model: Option<String>,
    /// Whose API a `prompt` hook asks: "anthropic" (default) or "openai".
    pub(super) provider: Option<super::model::Provider>,
    /// A `prompt` hook's block does not end the turn.
    pub(super) continue_on_block: Option<bool>,
    /// The built-in's options (`[hooks.options]`).
    #[schemars(with = "Option<std::collections::BTreeMap<String, serde_json::Value>>")]
    pub(super) options: Option<Spanned<toml::Table>>,
    /// "enforce" (default) or "warn": report what the built-in would do, and allow.
    pub(super) mode: Option<crate::builtin::Mode>,
    /// Exec form: arguments, no shell; ${CLAUDE_PROJECT_DIR} and
    /// ${HOOKRUN_CONFIG_DIR} are substituted.
    pub(super) args: Option<Vec<String>>,
    /// Timeout in seconds (fractions allowed).
    #[schemars(with = "Option<f64>", range(min = 0.001))]
    pub(super) timeout: Option<Spanned<f64>>,
    /// "open" or "closed"; default: [defaults] fail_mode.
    pub(super) fail_mode: Option<FailMode>,
    /// Claude Code's `onFailure`: "block" is `fail_mode = "closed"` with
    /// Claude Code's rules (ignored on Stop, SubagentStop, TaskCompleted and
    /// TeammateIdle; its block reason worded as Claude Code words it).
    pub(super) on_failure: Option<OnFailure>,
    /// Fire and forget: started, never waited for, never merged.
    #[serde(rename = "async", default)]
    pub(super) is_async: bool,
    /// Extra environment variables.
    #[serde(default)]
    pub(super) env: BTreeMap<String, String>,
    /// A Claude Code permission rule, tested on tool events: "Bash(git *)".
    #[serde(rename = "if")]
    pub(super) if_rule: Option<String>,
    /// How this hook's matcher is read; default: `[defaults] matcher_syntax`.
    pub(super) matcher_syntax: Option<crate::matcher::Syntax>,
    /// The dialect this hook speaks (claude, codex, pydantic-deep, gemini,
    /// cursor, copilot): it gets the event in that shape and is read by
    /// that dialect's rules. Default: the caller's.
    pub(super) input: Option<crate::agent::Dialect>,
}

/// The JSON Schema of this format.
pub(super) fn schema() -> serde_json::Value {
    serde_json::to_value(schemars::schema_for!(RawFile)).unwrap_or_default()
}

/// A built-in guard's name: in the schema, the registry's names, so that
/// an editor offers them.
struct BuiltinName;

impl schemars::JsonSchema for BuiltinName {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "BuiltinName".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let names: Vec<&str> = hookrun_guards::names().collect();
        schemars::json_schema!({"type": "string", "enum": names})
    }
}
