//! A hook that runs twice: the same command in a hookrun config and in an
//! agent's own hooks file, where that agent also runs hookrun. The agent
//! runs its copy itself, and hookrun, registered there, runs the config's
//! copy: every event runs it twice. (A hook hookrun reads from the agent's
//! own file is another matter: `run` leaves it to the agent,
//! `install::agent_own`.)

use std::path::{Path, PathBuf};

use crate::config::{Code, Config, Diagnostic, FailMode, LoadOptions};
use crate::install::agent::Agent;
use crate::install::agent_own::{agent_name, registers};
use crate::install::location::{Homes, hook_files};

/// One warning per hook of `config` whose command an agent that runs
/// hookrun also runs itself from its own files.
pub(super) fn lint_agent_twice(config: &Config, project_dir: &Path, out: &mut Vec<Diagnostic>) {
    let homes = Homes::from_env();
    for agent in Agent::ALL {
        let files: Vec<PathBuf> = hook_files(agent, project_dir, &homes)
            .into_iter()
            .filter(|f| f.extension().is_some_and(|e| e == "json"))
            .collect();
        let registered = files.iter().any(|f| {
            std::fs::read(f)
                .ok()
                .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
                .is_some_and(|v| registers(&v, agent))
        });
        if !registered {
            continue;
        }
        let canonical: Vec<PathBuf> = files
            .iter()
            .filter_map(|f| std::fs::canonicalize(f).ok())
            .collect();
        let is_agents = |f: &Path| {
            std::fs::canonicalize(f)
                .ok()
                .is_some_and(|f| canonical.contains(&f))
        };
        let found: Vec<crate::config::Found> = files
            .iter()
            .map(|f| crate::config::Found {
                path: f.clone(),
                source: crate::config::Source::Explicit,
            })
            .collect();
        let options = LoadOptions {
            explicit: false,
            default_fail_mode: FailMode::Open,
            format: None,
            foreign: crate::dialect::convert::HOOKS_FILES,
        };
        // A file the agent reads that hookrun cannot: `check` reports it
        // where it is checked; here it only has no commands to compare.
        let Ok(agents) = crate::config::load_found(&found, options) else {
            continue;
        };
        for hook in &config.hooks {
            if is_agents(&hook.origin.file) || hook.runs_hookrun() {
                continue;
            }
            let label = hook.label();
            let Some(twin) = agents.hooks.iter().find(|h| {
                !h.runs_hookrun()
                    && h.label() == label
                    && h.events.iter().any(|e| hook.listens_to(e))
            }) else {
                continue;
            };
            let at = match twin.origin.line_col {
                Some((l, c)) => format!("{}:{l}:{c}", twin.origin.file.display()),
                None => twin.origin.file.display().to_string(),
            };
            let name = agent_name(agent);
            out.push(
                hook.diagnostic(
                    Code::AgentRunsTwice,
                    format!(
                        "`{label}` is also a hook at {at} (`{}`), which {name} runs itself, and {name} runs hookrun too: it runs twice for each event",
                        twin.origin.key
                    ),
                )
                .fix(format!(
                    "keep one copy: remove it from {name}'s file, or from this config"
                )),
            );
        }
    }
}
