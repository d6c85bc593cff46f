//! The agents whose settings `hookrun install` edits, and where in them:
//! identities below every module that names them (install, config's own
//! files, doctor), beside the dialects' list they map into.

/// The agents whose settings `hookrun install` edits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Agent {
    Claude,
    Codex,
    Gemini,
    Cursor,
    Copilot,
}

impl Agent {
    /// Every agent `install` knows.
    pub(crate) const ALL: [Agent; 5] = [
        Agent::Claude,
        Agent::Codex,
        Agent::Gemini,
        Agent::Cursor,
        Agent::Copilot,
    ];

    /// The dialect `hookrun run` speaks to this agent.
    #[must_use]
    pub(crate) fn dialect(self) -> super::dialect::Dialect {
        use super::dialect::Dialect;
        match self {
            Agent::Claude => Dialect::Claude,
            Agent::Codex => Dialect::Codex,
            Agent::Gemini => Dialect::Gemini,
            Agent::Cursor => Dialect::Cursor,
            Agent::Copilot => Dialect::Copilot,
        }
    }

    /// The agent a dialect speaks to, where `install` knows it.
    #[must_use]
    pub(crate) fn of(dialect: super::dialect::Dialect) -> Option<Agent> {
        [
            Agent::Claude,
            Agent::Codex,
            Agent::Gemini,
            Agent::Cursor,
            Agent::Copilot,
        ]
        .into_iter()
        .find(|a| a.dialect() == dialect)
    }

    /// The agent's name, as on the command line.
    #[must_use]
    pub(crate) fn as_str(self) -> &'static str {
        self.dialect().as_str()
    }
}

/// Where an agent's settings file is: the user's, the project's (shared,
/// often committed), or the project's local file (this machine's only).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Scope {
    User,
    Project,
    Local,
}
