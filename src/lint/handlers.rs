//! Lints of the handlers that are not processes: a prompt or agent hook
//! with no model to ask on this machine, an mcp_tool hook whose server is
//! not configured. `run` would answer both as hookrun's own failure (the
//! trust rule), so `check` says so first.

use crate::config::{Action, Code, Config, Diagnostic};

pub(super) fn lint_handlers(config: &Config, out: &mut Vec<Diagnostic>) {
    for hook in &config.hooks {
        let guards = hook
            .events
            .iter()
            .any(|e| crate::decision::event_can_block(e));
        match &hook.action {
            Action::Prompt { .. } | Action::Agent { .. } => {
                let Some(why) = crate::pipeline::judge_unavailable(&hook.action) else {
                    continue;
                };
                let (code, then) = if guards {
                    (
                        Code::GuardJudgeUnavailable,
                        "`run` blocks the events it matches (hookrun's own failure)",
                    )
                } else {
                    (
                        Code::JudgeUnavailable,
                        "`run` reports it on every event it matches",
                    )
                };
                let d = hook.diagnostic(code, format!("cannot be evaluated here: {why}; {then}"));
                out.push(d.fix(if matches!(hook.action, Action::Agent { .. }) {
                    "install the Claude Code CLI, or name it in HOOKRUN_CLAUDE"
                } else {
                    "set the model API's key in the agent's environment, or install the Claude Code CLI"
                }));
            }
            Action::McpTool { server, .. } => {
                if config.mcp_servers.iter().any(|s| &s.name == server) {
                    continue;
                }
                let known = config
                    .mcp_servers
                    .iter()
                    .map(|s| format!("`{}`", s.name))
                    .collect::<Vec<_>>();
                let known = if known.is_empty() {
                    "none is".to_owned()
                } else {
                    format!("{} are", known.join(", "))
                };
                let d = hook.diagnostic(
                    Code::McpServerMissing,
                    format!("calls MCP server `{server}`, which is not configured ({known}); the hook fails on every event it matches"),
                );
                out.push(d.fix(format!("declare it: `[mcp_servers.{server}]` in a trusted hookrun config, or in the agent's MCP config (`.mcp.json`)")));
            }
            _ => {}
        }
    }
}
