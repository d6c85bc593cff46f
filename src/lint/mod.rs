//! `check`'s lints: suspicious things in a loaded config that `run` would
//! carry out without complaint, but that rarely mean what their authors
//! think (hooks that never fire, matchers that match nothing). Reads hook scripts; runs nothing.

mod agent_twice;
mod handlers;
pub(crate) mod installed;
mod invocation;
mod plugin;
mod scripts;
pub(crate) mod suites;
mod words;

use std::path::Path;

use crate::config::{Code, Config, Diagnostic, Hook};
use crate::events::{self, NameSet};
use crate::matcher::Matcher;

/// Built-in Claude Code tool names, for prefix and family hints.
const TOOLS: &[&str] = &[
    "Agent",
    "AskUserQuestion",
    "Bash",
    "BashOutput",
    "Edit",
    "ExitPlanMode",
    "Glob",
    "Grep",
    "KillShell",
    "LS",
    "MultiEdit",
    "NotebookEdit",
    "NotebookRead",
    "Read",
    "SlashCommand",
    "Skill",
    "Task",
    "TaskStop",
    "TodoWrite",
    "WebFetch",
    "WebSearch",
    "Write",
];

/// Known matcher values of Claude Code's non-tool events.
fn known_values(event: &str) -> &'static [&'static str] {
    match event {
        "SessionStart" => &["startup", "resume", "clear", "compact", "fork"],
        "Setup" => &["init", "maintenance"],
        "PreCompact" | "PostCompact" => &["manual", "auto"],
        "SessionEnd" => &["clear", "resume", "logout", "prompt_input_exit", "other"],
        "Notification" => &[
            "permission_prompt",
            "idle_prompt",
            "auth_success",
            "elicitation_dialog",
            "elicitation_url_dialog",
            "elicitation_complete",
            "elicitation_response",
            "agent_needs_input",
            "agent_completed",
        ],
        "ConfigChange" => &[
            "user_settings",
            "project_settings",
            "local_settings",
            "policy_settings",
            "skills",
        ],
        "InstructionsLoaded" => &[
            "session_start",
            "nested_traversal",
            "path_glob_match",
            "include",
            "compact",
        ],
        _ => &[],
    }
}

/// Lints every hook of a config. `project_dir` resolves relative script
/// paths, as Claude Code's `$CLAUDE_PROJECT_DIR` does.
#[must_use]
pub fn lint(config: &Config, project_dir: &Path) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (i, hook) in config.hooks.iter().enumerate() {
        for event in &hook.events {
            lint_event(hook, event, &mut out);
        }
        scripts::lint_action(hook, project_dir, &mut out);
        if let Some(first) = config.hooks[..i]
            .iter()
            .find(|h| h.dedup_key == hook.dedup_key && h.events.iter().any(|e| hook.listens_to(e)))
        {
            let d = hook.diagnostic(
                Code::Duplicate,
                format!(
                    "duplicates `{}` ({}); where both match it runs once, at the first position, with this copy's settings",
                    first.origin.key,
                    location(first)
                ),
            );
            out.push(d.fix("remove one copy"));
        }
    }
    handlers::lint_handlers(config, &mut out);
    plugin::lint_twice(config, &mut out);
    agent_twice::lint_agent_twice(config, project_dir, &mut out);
    installed::lint_installed(config, project_dir, &mut out);
    out
}

fn location(hook: &Hook) -> String {
    match hook.origin.line_col {
        Some((l, c)) => format!("{}:{l}:{c}", hook.origin.file.display()),
        None => hook.origin.file.display().to_string(),
    }
}

fn lint_event(hook: &Hook, event: &str, out: &mut Vec<Diagnostic>) {
    let Some(info) = events::known(event) else {
        let mut d = hook.diagnostic(
            Code::UnknownEvent,
            format!(
                "unknown event `{event}`: its hooks run only if an agent sends that exact name"
            ),
        );
        if let Some(near) = events::nearest(event) {
            d = d.fix(format!("did you mean `{near}`?"));
        }
        out.push(d);
        return;
    };
    let Some(matcher) = hook
        .matcher
        .as_ref()
        .filter(|m| !m.pattern().is_empty() && m.pattern() != "*")
    else {
        return;
    };
    if info.query_field.is_none() {
        let d = hook.diagnostic(
            Code::MatcherIgnored,
            format!(
                "`{event}` has no matcher field, so matcher `{}` is ignored and the hook runs on every `{event}`",
                matcher.pattern()
            ),
        );
        out.push(d.fix("remove the matcher"));
        return;
    }
    if let Some(why) = matcher.regex_error(info.names) {
        let d = hook.diagnostic(
            Code::BadRegex,
            format!(
                "matcher `{}` is not a list of names and not a valid regex, so it never matches: {why}",
                matcher.pattern()
            ),
        );
        out.push(
            d.fix("escape the special characters, or write a list of names like `Edit|Write`"),
        );
        return;
    }
    if let Some(d) = prefix_lint(hook, info.name, info.names, info.tool_event, matcher) {
        out.push(d);
    }
}

/// An exact-name matcher that looks like a prefix, or misses a tool that is
/// probably meant too.
fn prefix_lint(
    hook: &Hook,
    event: &str,
    names: NameSet,
    tool_event: bool,
    matcher: &Matcher,
) -> Option<Diagnostic> {
    let pattern = matcher.pattern();
    let listed = matcher.listed_names(names)?;
    let known: &[&str] = if tool_event {
        TOOLS
    } else {
        known_values(event)
    };
    for name in &listed {
        if tool_event && name.starts_with("mcp__") && !name["mcp__".len()..].contains("__") {
            let d = hook.diagnostic(
                Code::PrefixMatcher,
                format!(
                    "matcher `{pattern}` names `{name}`, an MCP server, as an exact tool name; MCP tools are named `mcp__<server>__<tool>`, so it matches no tool"
                ),
            );
            return Some(d.fix(format!(
                "write `{name}__.*` to match every tool of that server"
            )));
        }
        if known.is_empty() || known.contains(name) {
            continue;
        }
        let longer: Vec<&str> = known
            .iter()
            .copied()
            .filter(|k| k.starts_with(name))
            .collect();
        if !longer.is_empty() {
            let d = hook.diagnostic(
                Code::PrefixMatcher,
                format!(
                    "matcher `{pattern}` is a list of exact names, so `{name}` matches only a value that is exactly `{name}`, not {}",
                    quote_list(&longer)
                ),
            );
            return Some(d.fix(format!("write `{}` or `{name}.*`", longer.join("|"))));
        }
    }
    if tool_event && listed.contains(&"Edit") {
        let missing: Vec<&str> = ["MultiEdit", "NotebookEdit"]
            .into_iter()
            .filter(|t| !listed.contains(t))
            .collect();
        if !missing.is_empty() {
            let d = hook.diagnostic(
                Code::PrefixMatcher,
                format!(
                    "matcher `{pattern}` matches the `Edit` tool exactly, not {}, which also edit files",
                    quote_list(&missing)
                ),
            );
            return Some(d.fix(format!(
                "write `{}|{}` if those are meant too",
                listed.join("|"),
                missing.join("|")
            )));
        }
    }
    None
}

fn quote_list(items: &[&str]) -> String {
    items
        .iter()
        .map(|i| format!("`{i}`"))
        .collect::<Vec<_>>()
        .join(" or ")
}
