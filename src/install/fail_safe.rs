//! The agent's own fail-safe: what makes the agent block an event when
//! hookrun itself cannot answer (not found on PATH, killed, out of
//! memory, timed out), which no answer of hookrun's can cover. Kept out
//! of `agent`, which protect-paths' own-file list imports, because this
//! reads `decision`.

use super::agent::Agent;

/// The key and value that make the agent itself block when hookrun cannot
/// answer (not found, killed, out of memory, timed out, an unexpected
/// exit), on an event of hookrun's model (`model_event`) that can block
/// (`decision::event_can_block`), as the agent's dialect gives it
/// (`Setup::fail_closed`: Claude Code's `onFailure: "block"`, Cursor's
/// `failClosed: true`); `None` where the agent has no such switch, and on
/// events where it ignores it.
#[must_use]
pub(crate) fn fail_closed(
    agent: Agent,
    model_event: &str,
) -> Option<(&'static str, serde_json::Value)> {
    if !crate::decision::event_can_block(model_event) {
        return None;
    }
    (crate::dialect::setup(agent).fail_closed)(model_event)
}

/// The handler key of the agent's fail-safe, where it has one (the same
/// key on every event it honours it on).
#[must_use]
pub(crate) fn key(agent: Agent) -> Option<&'static str> {
    ["PreToolUse", "PermissionRequest", "UserPromptSubmit"]
        .into_iter()
        .find_map(|e| fail_closed(agent, e))
        .map(|(k, _)| k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_agents_own_fail_safe_is_asked_for_where_it_holds() {
        let key = |agent, event| fail_closed(agent, event).map(|(k, _)| k);
        assert_eq!(key(Agent::Claude, "PreToolUse"), Some("onFailure"));
        assert_eq!(key(Agent::Claude, "PermissionRequest"), Some("onFailure"));
        assert_eq!(key(Agent::Claude, "UserPromptSubmit"), Some("onFailure"));
        // Claude Code ignores it on the Stop family; SessionStart cannot block.
        assert_eq!(key(Agent::Claude, "Stop"), None);
        assert_eq!(key(Agent::Claude, "SubagentStop"), None);
        assert_eq!(key(Agent::Claude, "SessionStart"), None);
        assert_eq!(key(Agent::Cursor, "PreToolUse"), Some("failClosed"));
        assert_eq!(key(Agent::Cursor, "Stop"), None);
        assert_eq!(key(Agent::Qwen, "PreToolUse"), Some("failMode"));
        assert_eq!(super::key(Agent::Qwen), Some("failMode"));
        assert_eq!(super::key(Agent::Claude), Some("onFailure"));
        assert_eq!(super::key(Agent::Gemini), None);
        for agent in [Agent::Codex, Agent::Gemini, Agent::Copilot] {
            assert_eq!(key(agent, "PreToolUse"), None);
        }
    }
}
