//! hookrun registered twice: by `hookrun install` in Claude Code's settings
//! and by its Claude Code plugin. Claude Code keys plugin hooks apart from
//! settings hooks, so it runs both for every event: every guard runs twice,
//! every audit line is written twice, and a slow hook costs double.

use std::path::Path;

use crate::config::{Code, Config, Diagnostic};

/// One warning per settings file that registers `hookrun run` while the
/// checked settings enable hookrun's plugin.
pub(super) fn lint_twice(config: &Config, out: &mut Vec<Diagnostic>) {
    let Some(switch) = config.hookrun_plugin.as_ref().filter(|s| s.enabled) else {
        return;
    };
    let mut seen: Vec<&Path> = Vec::new();
    for hook in &config.hooks {
        let file = hook.origin.file.as_path();
        if hook.origin.plugin_root.is_some() || !hook.runs_hookrun() || seen.contains(&file) {
            continue;
        }
        seen.push(file);
        let count = config
            .hooks
            .iter()
            .filter(|h| h.origin.file == file && h.origin.plugin_root.is_none() && h.runs_hookrun())
            .count();
        let at = match switch.line_col {
            Some((l, c)) => format!("{}:{l}:{c}", switch.file.display()),
            None => switch.file.display().to_string(),
        };
        let d = hook.diagnostic(
            Code::RunsTwice,
            format!(
                "this file registers `hookrun run` ({count} handler{}) and `{}` ({at}) enables hookrun's Claude Code plugin: Claude Code runs both, so hookrun runs twice for each event",
                if count == 1 { "" } else { "s" },
                switch.key,
            ),
        );
        out.push(d.fix(
            "keep one: `hookrun install --agent claude --uninstall`, or `/plugin uninstall hookrun@hookrun`",
        ));
    }
}
