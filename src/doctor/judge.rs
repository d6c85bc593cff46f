//! `doctor`'s judgement, pure: the problems of one registration's wiring
//! from what was found about it, which canaries a config promises, and
//! whether they held.

use crate::config::{Action, Config};
use crate::install::agent::{Agent, Scope};
use crate::install::fail_safe::fail_closed;
use hookrun_guards::Canary;

use super::agents::AgentVersion;
use super::report::{CanaryResult, Problem};

/// The program word of a command (quotes removed): what the shell looks
/// for on PATH, or a path.
#[must_use]
pub(crate) fn program_of(command: &str) -> String {
    if let Some(quoted) = command.strip_prefix('\'') {
        return quoted.split('\'').next().unwrap_or("").to_owned();
    }
    crate::lint::installed::unquote(command.split(' ').next().unwrap_or(""))
}

/// The `--config` word of a command, as written.
fn config_word(command: &str) -> Option<&str> {
    command.split_once(" --config ").map(|(_, w)| w.trim())
}

/// What was found about one registration, beyond its command.
#[derive(Debug, Clone)]
pub(crate) struct Facts<'a> {
    pub agent: Agent,
    pub scope: Scope,
    pub command: &'a str,
    /// hookrun's names of the events it is registered for.
    pub model_events: &'a [String],
    /// The agent's events whose handler lacks the fail-safe key `install`
    /// writes there (`install::fail_safe`).
    pub fail_safe_missing_on: Vec<String>,
    /// Whether the program word resolves to an executable.
    pub program_found: bool,
    /// The `install` command that rewrites this registration.
    pub reinstall: String,
}

/// The problems of one registration's own wiring (D001–D004).
#[must_use]
pub(crate) fn wiring(f: &Facts<'_>) -> Vec<Problem> {
    let mut out = Vec::new();
    let program = program_of(f.command);
    let agent = f.agent.as_str();
    if !f.program_found {
        out.push(Problem::new(
            "D001",
            format!(
                "`{program}` is not found where {} runs this command{}: {}",
                crate::install::agent_own::agent_name(f.agent),
                if program.contains('/') {
                    ""
                } else {
                    " (not on PATH)"
                },
                if fail_closed(f.agent, "PreToolUse").is_some() {
                    "every event fails; the agent's fail-safe blocks what it covers, and the rest goes through unguarded"
                } else {
                    "every event fails and the guard is off"
                }
            ),
            if f.scope == Scope::Project {
                "put hookrun on PATH as `hookrun` (docs/packaging.md), then run hookrun doctor again".to_owned()
            } else {
                format!(
                    "put hookrun on PATH, or run {} from the hookrun you mean to use",
                    f.reinstall
                )
            },
        ));
    }
    if f.scope == Scope::Project {
        let local = if crate::install::location::has_local(f.agent) {
            "local"
        } else {
            "user"
        };
        let fix = format!(
            "run `hookrun install --agent {agent} --scope project` with hookrun on PATH and the config inside the project, or register this machine's paths with `--scope {local}`"
        );
        if let Err(why) = crate::install::portable::check_program(f.agent, f.scope, &program, None)
        {
            out.push(Problem::new("D002", why, fix.clone()));
        }
        if let Some(word) = config_word(f.command) {
            let path = crate::lint::installed::unquote(word);
            if path.starts_with('/') || path.starts_with('~') {
                out.push(Problem::new(
                    "D002",
                    format!(
                        "the project's shared settings name the config as `{path}`, a path on this machine only: on any other machine hookrun cannot read it"
                    ),
                    fix,
                ));
            }
        }
    }
    if crate::install::agent::names_event(f.agent) && !f.command.contains(" --event ") {
        out.push(Problem::new(
            "D003",
            "Copilot CLI's payloads name no event and this command gives none (`--event`): every event fails with exit 1",
            format!("run {}", f.reinstall),
        ));
    }
    if !f.fail_safe_missing_on.is_empty() && !f.command.contains("--on-error allow") {
        let key = f
            .model_events
            .iter()
            .find_map(|e| fail_closed(f.agent, e))
            .map_or("onFailure", |(k, _)| k);
        out.push(Problem::new(
            "D004",
            format!(
                "the handler for {} has no `{key}`: if hookrun cannot start, is killed or times out, {} lets the call through",
                f.fail_safe_missing_on.join(", "),
                crate::install::agent_own::agent_name(f.agent)
            ),
            format!("run {}", f.reinstall),
        ));
    }
    out
}

/// The canaries of each guard `config` promises on `model_event`: an
/// enforcing built-in listening to the event whose matcher admits the
/// canary's tool. Hooks that run hookrun itself are not guards.
#[must_use]
pub(crate) fn promised(config: &Config, model_event: &str) -> Vec<(&'static str, Canary)> {
    let mut out: Vec<(&'static str, Canary)> = Vec::new();
    let Some(info) = crate::events::known(model_event) else {
        return out;
    };
    for hook in &config.hooks {
        let Action::Builtin(b) = &hook.action else {
            continue;
        };
        if b.mode != crate::builtin::Mode::Enforce || !hook.listens_to(model_event) {
            continue;
        }
        let Some(entry) = hookrun_guards::REGISTRY.iter().find(|e| e.name == b.name) else {
            continue;
        };
        for c in entry.canaries.iter().filter(|c| c.event == model_event) {
            let tool = match c.tool {
                hookrun_guards::CanaryTool::Shell => "Bash",
                hookrun_guards::CanaryTool::Read => "Read",
            };
            let admits = hook
                .matcher
                .as_ref()
                .is_none_or(|m| m.matches(info.names, tool).0);
            let dup = out
                .iter()
                .any(|(n, o)| *n == entry.name && o.input == c.input);
            if admits && !dup {
                out.push((entry.name, *c));
            }
        }
    }
    out
}

/// D009 when a canary did not hold through a registration: each one that
/// did not, what it should have been and what it was.
#[must_use]
pub(crate) fn canaries_failed(results: &[CanaryResult]) -> Option<Problem> {
    let failed: Vec<String> = results
        .iter()
        .filter(|c| !c.holds)
        .map(|c| format!("{} `{}` ({}, got {})", c.guard, c.canary, c.expected, c.got))
        .collect();
    (!failed.is_empty()).then(|| {
        Problem::new(
            "D009",
            format!("the guards do not hold through this command: {}", failed.join("; ")),
            "fix the problems above, then run `hookrun doctor` again; `hookrun explain --run` shows what each hook answers",
        )
    })
}

/// D012 for each agent whose installed version hookrun is not tested
/// with, or whose version cannot be read: the agent's, not one
/// registration's, so reported once at the top level.
#[must_use]
pub(crate) fn version_problems(found: &[AgentVersion]) -> Vec<Problem> {
    found
        .iter()
        .filter_map(|a| a.untested.as_ref())
        .map(|(message, fix)| Problem::new("D012", message.clone(), fix.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(agent: Agent, scope: Scope, command: &str) -> Facts<'_> {
        Facts {
            agent,
            scope,
            command,
            model_events: &[],
            fail_safe_missing_on: Vec::new(),
            program_found: true,
            reinstall: "`hookrun install`".to_owned(),
        }
    }

    #[test]
    fn wiring_problems_each_have_their_code() {
        let codes = |f: &Facts<'_>| wiring(f).iter().map(|p| p.code).collect::<Vec<_>>();
        assert!(
            codes(&facts(
                Agent::Claude,
                Scope::Project,
                "hookrun run --dialect claude"
            ))
            .is_empty()
        );
        assert_eq!(
            codes(&facts(
                Agent::Claude,
                Scope::Project,
                "/home/u/.npm/bin/hookrun run --dialect claude"
            )),
            ["D002"]
        );
        assert_eq!(
            codes(&facts(
                Agent::Codex,
                Scope::Project,
                "hookrun run --dialect codex --config /home/u/h.toml"
            )),
            ["D002"]
        );
        assert!(
            codes(&facts(
                Agent::Codex,
                Scope::User,
                "/opt/hookrun run --dialect codex --config /home/u/h.toml"
            ))
            .is_empty()
        );
        assert_eq!(
            codes(&facts(
                Agent::Copilot,
                Scope::User,
                "hookrun run --dialect copilot"
            )),
            ["D003"]
        );
        let mut missing = facts(Agent::Claude, Scope::User, "hookrun run --dialect claude");
        missing.fail_safe_missing_on = vec!["PreToolUse".to_owned()];
        assert_eq!(codes(&missing), ["D004"]);
        missing.program_found = false;
        assert_eq!(codes(&missing), ["D001", "D004"]);
        assert_eq!(
            program_of("'/opt/my tools/hookrun' run"),
            "/opt/my tools/hookrun"
        );
        assert_eq!(program_of("hookrun run"), "hookrun");
    }
}
