//! The events a hookrun config uses, in an agent's own names, each with
//! the timeout the agent must give hookrun: longer than any of the event's
//! hooks, so that hookrun, not the agent, ends a slow hook and answers
//! (an agent that kills hookrun lets the call through).

use std::time::Duration;

use super::agent::Agent;
use crate::config::{Action, Config};

/// What a built-in hook is given: it runs in-process, in milliseconds.
const BUILTIN_TIMEOUT: Duration = Duration::from_secs(10);

/// Added to the longest hook: hookrun's own start, merge and answer.
const MARGIN: Duration = Duration::from_secs(5);

/// One event to register: the agent's name for it, hookrun's (the model's)
/// name, and the timeout in whole seconds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Registration {
    pub event: String,
    pub model: String,
    pub timeout_secs: u64,
}

/// The agent's name for an event of hookrun's model, if the agent has it.
/// Where several agent events map to one (Cursor's `preToolUse` and
/// `beforeShellExecution`), the general one is taken, so hookrun runs once
/// per call.
#[must_use]
pub(crate) fn agent_event(agent: Agent, event: &str) -> Option<String> {
    crate::dialect::setup(agent).events.theirs(event)
}

/// The seconds an agent (or adapter) must give hookrun on `event`: the
/// longest of its hooks' timeouts and a margin, so that hookrun ends a slow
/// hook itself and answers.
#[must_use]
pub(crate) fn timeout_secs(
    config: &Config,
    event: &str,
    default: &dyn Fn(&str) -> Duration,
) -> u64 {
    let longest = config
        .hooks
        .iter()
        .filter(|h| h.listens_to(event))
        .map(|h| match h.action {
            Action::Builtin(_) => h.timeout.unwrap_or(BUILTIN_TIMEOUT),
            _ => h.timeout.unwrap_or_else(|| default(event)),
        })
        .max()
        .unwrap_or(BUILTIN_TIMEOUT);
    (longest + MARGIN).as_secs_f64().ceil() as u64
}

/// Every event the config's hooks use, in first-use order, as the agent
/// names it; and a warning for each event the agent does not have.
#[must_use]
pub(crate) fn registrations(config: &Config, agent: Agent) -> (Vec<Registration>, Vec<String>) {
    let mut regs: Vec<Registration> = Vec::new();
    let mut warnings = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for hook in &config.hooks {
        for event in &hook.events {
            if seen.contains(&event.as_str()) {
                continue;
            }
            seen.push(event);
            let Some(name) = agent_event(agent, event) else {
                warnings.push(format!(
                    "{} has no `{event}` event: the hooks on it are not registered",
                    agent.as_str()
                ));
                continue;
            };
            if regs.iter().any(|r| r.event == name) {
                continue;
            }
            let protocol = crate::dialect::protocol(agent.dialect());
            let default = |e: &str| {
                protocol
                    .default_timeout(e)
                    .unwrap_or_else(|| crate::events::default_timeout(e))
            };
            let mut secs = timeout_secs(config, event, &default);
            // An agent that cuts a hook short on this event (Codex: 3 s on
            // SessionEnd and Interrupt) is given no longer: it would cut the
            // registration and warn at every start.
            if let Some(cap) = (protocol.shape_rules().timeout_cap)(event) {
                let cap_secs = cap.floor() as u64;
                if secs - MARGIN.as_secs() > cap_secs.saturating_sub(1) {
                    warnings.push(format!(
                        "{} gives a hook on `{name}` at most {cap} s, and a hook here may take {} s: {} stops waiting for hookrun first",
                        agent.as_str(),
                        secs - MARGIN.as_secs(),
                        agent.as_str()
                    ));
                }
                secs = secs.min(cap_secs);
            }
            regs.push(Registration {
                event: name,
                model: event.clone(),
                timeout_secs: secs,
            });
        }
    }
    (regs, warnings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_agent_names_the_tool_events() {
        let names: Vec<Option<String>> = [
            Agent::Claude,
            Agent::Codex,
            Agent::Gemini,
            Agent::Cursor,
            Agent::Copilot,
        ]
        .iter()
        .map(|a| agent_event(*a, "PreToolUse"))
        .collect();
        let want = [
            "PreToolUse",
            "PreToolUse",
            "BeforeTool",
            "preToolUse",
            "preToolUse",
        ];
        assert_eq!(
            names,
            want.iter()
                .map(|w| Some((*w).to_owned()))
                .collect::<Vec<_>>()
        );
        assert_eq!(
            agent_event(Agent::Gemini, "Stop").as_deref(),
            Some("AfterAgent")
        );
        assert_eq!(
            agent_event(Agent::Copilot, "Stop").as_deref(),
            Some("agentStop")
        );
        assert_eq!(
            agent_event(Agent::Codex, "Interrupt").as_deref(),
            Some("Interrupt")
        );
        assert_eq!(agent_event(Agent::Gemini, "Interrupt"), None);
    }
}
