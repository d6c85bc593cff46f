//! One config file's contribution before layering, whatever its format.

use std::path::PathBuf;

use serde::Deserialize;

use super::model::{Hook, Limits, Order, PluginSwitch};
use crate::diagnostic::Diagnostic;

/// One file's contribution before layering.
#[derive(Debug, Default)]
pub(super) struct Layer {
    pub(super) hooks: Vec<Hook>,
    pub(super) notices: Vec<Diagnostic>,
    pub(super) warnings: Vec<Diagnostic>,
    pub(super) limits: Option<RawLimits>,
    /// `disableAllHooks` (`disable_all_hooks` in TOML), when the file sets it.
    pub(super) disable_all: Option<bool>,
    /// `[defaults] fail_mode = "closed"`: the file wants its guards closed,
    /// even when it has no hook left to say so.
    pub(super) closed_default: bool,
    pub(super) policy: bool,
    pub(super) audit_log: Option<PathBuf>,
    pub(super) audit_key_file: Option<PathBuf>,
    pub(super) order: Option<Order>,
    pub(super) order_by_event: Vec<(String, Order)>,
    /// Claude Code settings: the `enabledPlugins` entry of hookrun's plugin.
    pub(super) hookrun_plugin: Option<PluginSwitch>,
    /// Claude Code settings: `allowedHttpHookUrls`.
    pub(super) http_urls: Option<Vec<String>>,
    /// Claude Code settings: `httpHookAllowedEnvVars`.
    pub(super) http_env_vars: Option<Vec<String>>,
    /// MCP servers the file declares.
    pub(super) mcp_servers: Vec<super::model::McpServer>,
    /// `[telemetry]`, when the file has the table.
    pub(super) telemetry: Option<super::telemetry_table::TelemetryTable>,
    /// Claude Code settings: which project `.mcp.json` servers it connects.
    pub(super) mcp_approval: Option<super::claude::mcp::Approval>,
}

/// `[limits]`: resource caps. Later files override earlier ones key by key.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawLimits {
    /// Largest event accepted on stdin, in bytes (default 67108864).
    max_event_bytes: Option<usize>,
    /// Bytes of each hook's stdout and of its stderr kept (default 1048576).
    max_output_bytes: Option<usize>,
    /// Seconds a hook's pipes get to close after it exits before its group is killed (default 0.5).
    leak_grace: Option<f64>,
}

impl RawLimits {
    pub(super) fn apply(&self, limits: &mut Limits) {
        if let Some(v) = self.max_event_bytes {
            limits.max_event_bytes = v;
        }
        if let Some(v) = self.max_output_bytes {
            limits.max_output_bytes = v;
        }
        if let Some(v) = self.leak_grace.filter(|v| v.is_finite() && *v >= 0.0) {
            limits.leak_grace = std::time::Duration::from_secs_f64(v.min(60.0));
        }
    }
}
