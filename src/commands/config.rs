//! `hookrun config show`: the effective layered config, as `run` would
//! read it here, with the file (and line) each hook came from: the answer
//! to "which of my files is this guard in, and is it even read?".

use std::fmt::Write as _;

use crate::agent::Dialect;
use crate::cli::{ConfigArgs, ConfigCommand};
use crate::config::{self, Action, Config, FailMode, Found, LoadOptions, Source};
use crate::error::{Error, ExitStatus};
use crate::install::agent::Agent;
use crate::output;

/// Runs `config show`.
///
/// # Errors
/// A config file that cannot be read or used, as for `run`.
pub(crate) fn execute(args: &ConfigArgs) -> Result<ExitStatus, Error> {
    let found = config::discover(&args.configs);
    let config = config::load_found(
        &found,
        LoadOptions {
            explicit: !args.configs.is_empty(),
            default_fail_mode: FailMode::Open,
            format: None,
            foreign: crate::dialect::convert::HOOKS_FILES,
        },
    )?
    .complete()?;
    match args.action {
        Some(ConfigCommand::Events { dialect, timeouts }) => {
            // The events `run` answers for this agent: without hookrun's
            // own registrations, nor the hooks the agent runs itself from
            // its own files.
            let mut config = config.clone();
            crate::session::drop_registrations(&mut config, &found);
            let config = crate::session::for_dialect(&config, dialect);
            let (names, missing) = events_for(&config, dialect);
            for m in missing {
                output::diagnostic(&format!(
                    "warning: {} has no `{m}` event: the hooks on it never run there",
                    dialect.as_str()
                ));
            }
            let lines: Vec<String> = names
                .into_iter()
                .map(|(name, secs)| {
                    if timeouts {
                        format!("{name}\t{secs}")
                    } else {
                        name
                    }
                })
                .collect();
            let mut text = lines.join("\n");
            if !text.is_empty() {
                text.push('\n');
            }
            output::print(&text);
        }
        Some(ConfigCommand::Show) | None => output::print(&render(&found, &config)),
    }
    Ok(0)
}

/// The events the config's hooks use, in first-use order and in the
/// agent's names, each with the seconds to give hookrun on it; and the ones
/// the agent does not fire.
fn events_for(config: &Config, dialect: Dialect) -> (Vec<(String, u64)>, Vec<String>) {
    use crate::install::events::{agent_event, registrations, timeout_secs};
    if let Some(agent) = Agent::of(dialect) {
        let (regs, _) = registrations(config, agent);
        let missing = used_events(config)
            .into_iter()
            .filter(|e| agent_event(agent, e).is_none())
            .collect();
        let names = regs
            .into_iter()
            .map(|r| (r.event, r.timeout_secs))
            .collect();
        return (names, missing);
    }
    // A hook that sets no timeout gets the caller's default.
    let default = |e: &str| {
        crate::dialect::protocol(dialect)
            .default_timeout(e)
            .unwrap_or_else(|| crate::events::default_timeout(e))
    };
    let mut names = Vec::new();
    let mut missing = Vec::new();
    for model in used_events(config) {
        match crate::dialect::event_name(dialect, &model) {
            Some(name) => names.push((name, timeout_secs(config, &model, &default))),
            None => missing.push(model),
        }
    }
    (names, missing)
}

/// Every event a hook of the config listens to, in first-use order.
fn used_events(config: &Config) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for e in config.hooks.iter().flat_map(|h| h.events.iter()) {
        if !out.contains(e) {
            out.push(e.clone());
        }
    }
    out
}

fn source_name(source: Source) -> &'static str {
    match source {
        Source::Explicit => "--config",
        Source::User => "user config",
        Source::Env => "$HOOKRUN_CONFIG",
        Source::ClaudeLayers => "Claude Code settings",
        Source::Project => "project config",
    }
}

/// The text: files lowest layer first, then hooks in merge order.
fn render(found: &[Found], config: &Config) -> String {
    let mut out = String::from("# files, lowest layer first\n");
    if found.is_empty() {
        out.push_str("(none found: no --config, user config, $HOOKRUN_CONFIG, Claude Code settings or ./hookrun.toml)\n");
    }
    for (i, f) in found.iter().enumerate() {
        let untrusted = if config.untrusted_files.contains(&f.path) {
            " [untrusted: may only add guards; `hookrun trust` it after review]"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "{}. {} ({}){untrusted}",
            i + 1,
            f.path.display(),
            source_name(f.source)
        );
    }
    let _ = writeln!(out, "\n# hooks, in merge order");
    if config.hooks.is_empty() {
        out.push_str("(none)\n");
    }
    let claude_layers: Vec<&std::path::Path> = found
        .iter()
        .filter(|f| f.source == Source::ClaudeLayers)
        .map(|f| f.path.as_path())
        .collect();
    let project = config::project_dir().unwrap_or_default();
    let homes = crate::install::location::Homes::from_env();
    for h in &config.hooks {
        let what = match &h.action {
            Action::Builtin(b) => format!("builtin {}", b.name),
            Action::Command { .. } => format!("command {}", h.label()),
            Action::Http { url, .. } => format!("http {url}"),
            Action::Prompt { provider, .. } => {
                format!("prompt ({}) {}", provider.name(), h.label())
            }
            Action::Agent { .. } => format!("agent {}", h.label()),
            Action::McpTool { server, tool, .. } => format!("mcp_tool {server} {tool}"),
            Action::Unsupported { kind } => format!("{kind} (not run by hookrun)"),
        };
        let at = match h.origin.line_col {
            Some((line, _)) => format!("{}:{line}", h.origin.file.display()),
            None => h.origin.file.display().to_string(),
        };
        let mut notes = String::new();
        if let Some(m) = &h.matcher {
            let _ = write!(notes, " matcher={}", m.pattern());
        }
        if h.fail_mode == FailMode::Closed {
            notes.push_str(" fail_mode=closed");
        }
        let agents = crate::install::agent_own::agents_running(&h.origin.file, &project, &homes);
        if claude_layers.contains(&h.origin.file.as_path()) && h.runs_hookrun() {
            notes.push_str(" (hookrun's own registration: `run` skips it)");
        } else if !agents.is_empty() {
            let names: Vec<&str> = agents
                .iter()
                .map(|a| crate::install::agent_own::agent_name(*a))
                .collect();
            let _ = write!(
                notes,
                " (run by {} itself: `run` for {} leaves it out)",
                names.join(", "),
                if agents.len() == 1 { "it" } else { "them" }
            );
        }
        let _ = writeln!(
            out,
            "{}  {}  {what}{notes}\n    from {at} `{}`",
            h.events.join(","),
            h.name.as_deref().unwrap_or("-"),
            h.origin.key
        );
    }
    if config.off {
        out.push_str("\nhooks are turned off (disable_all_hooks)\n");
    }
    out
}
